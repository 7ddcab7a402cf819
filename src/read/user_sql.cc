#include "read/user_sql.h"

#include <cctype>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "read/sql_rewrite.h"

namespace taco::read {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool IsSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// The leading word of `s` (letters and '_'), lower-cased, and the rest after spaces.
std::pair<std::string, std::string_view> FirstWord(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && IsSpace(s[i])) ++i;
  size_t j = i;
  while (j < s.size() && (std::isalpha(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
  std::string_view rest = s.substr(j);
  while (!rest.empty() && IsSpace(rest.front())) rest.remove_prefix(1);
  return {Lower(s.substr(i, j - i)), rest};
}

// `text` as one identifier (bare or "quoted"), unquoted; nullopt when it is something else.
std::optional<std::string> SingleIdentifier(std::string_view text) {
  while (!text.empty() && IsSpace(text.back())) text.remove_suffix(1);
  if (text.empty()) return std::nullopt;
  if (text.front() == '"') {
    std::string out;
    for (size_t i = 1; i < text.size(); ++i) {
      if (text[i] == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          out += '"';
          ++i;
          continue;
        }
        if (i + 1 != text.size()) return std::nullopt;
        return out;
      }
      out += text[i];
    }
    return std::nullopt;
  }
  for (char c : text) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return std::nullopt;
  }
  return std::string(text);
}

std::string Quote(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

std::string TableList(int num_levels) {
  std::string values = "('data', " +
                       Quote(
                           "the level-0 samples of this view; internal:* columns hidden except "
                           "internal:gdal_vsi") +
                       "), ('data_raw', " + Quote("the level-0 samples of this view, every column") + ")";
  for (int i = 0; i < num_levels; ++i) {
    values += ", ('level" + std::to_string(i) + "', " +
              Quote("the stored level " + std::to_string(i) + " (padding hidden, with internal:gdal_vsi)") + ")";
  }
  return "SELECT * FROM (VALUES " + values + ") AS tables(name, description)";
}

}  // namespace

Result<std::string> PrepareUserSql(table::Engine& engine, const std::string& query,
                                   const std::map<std::string, std::string>& tables, int num_levels) {
  TACO_ASSIGN_OR_RETURN(std::vector<std::string> statements, engine.ParseStatements(query));
  if (statements.empty()) return Status::InvalidArgument("SQL query is empty");
  if (statements.size() > 1) {
    std::string second = statements[1];
    if (second.size() > 80) second = second.substr(0, 77) + "...";
    return Status::InvalidArgument("SQL \"" + query + "\": " + std::to_string(statements.size()) +
                                   " statements, but one query is run at a time (the second is \"" + second +
                                   "\"); run them one by one");
  }
  TACO_RETURN_IF_ERROR(engine.CheckReadOnly(query));
  const std::string& statement = query;  // the user's own text (one statement)
  auto [word, rest] = FirstWord(statement);
  if (word == "show") {
    const std::string what = Lower(std::string(rest));
    if (what == "tables" || what == "all tables") return TableList(num_levels);
  }
  if (word == "describe" || word == "show" || word == "summarize") {
    const std::string keyword = word == "summarize" ? "SUMMARIZE " : "DESCRIBE ";
    if (auto name = SingleIdentifier(rest)) {
      auto it = tables.find(Lower(*name));
      if (it != tables.end()) return "SELECT * FROM (" + keyword + it->second + ")";
    }
    return "SELECT * FROM (" + keyword + RewriteTableNames(rest, tables) + ")";
  }
  return RewriteTableNames(statement, tables);
}

Status SandboxUserSql(table::Engine& engine, bool allow_external_sql) {
  table::Engine::SandboxOptions options;
  options.allow_external_files = allow_external_sql;
  options.permission_hint =
      "SQL over a dataset reads only the dataset itself; to read your own files too, open it with "
      "allow_external_sql: taco --allow-external-sql, Python load(..., allow_external_sql=True), "
      "OpenOptions::allow_external_sql";
  return engine.Sandbox(options);
}

std::string NonDeterministicPart(const std::string& query) {
  // Words of the query outside '...' literals and "..." identifiers, with whether a '('
  // follows (a function call) and where they start in the text.
  struct Word {
    std::string lower;
    size_t begin, end;
    bool call;
  };
  std::vector<Word> words;
  for (size_t i = 0; i < query.size();) {
    const char c = query[i];
    if (c == '\'' || c == '"') {
      size_t j = i + 1;
      while (j < query.size() && query[j] != c) ++j;
      i = j + 1;
      continue;
    }
    if (c == '-' && i + 1 < query.size() && query[i + 1] == '-') {
      while (i < query.size() && query[i] != '\n') ++i;
      continue;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t j = i;
      while (j < query.size() && (std::isalnum(static_cast<unsigned char>(query[j])) || query[j] == '_')) ++j;
      size_t k = j;
      while (k < query.size() && IsSpace(query[k])) ++k;
      words.push_back({Lower(std::string_view(query).substr(i, j - i)), i, j, k < query.size() && query[k] == '('});
      i = j;
      continue;
    }
    ++i;
  }
  static const char* const kCalls[] = {"random",
                                       "gen_random_uuid",
                                       "uuid",
                                       "uuidv4",
                                       "uuidv7",
                                       "setseed",
                                       "now",
                                       "get_current_time",
                                       "get_current_timestamp",
                                       "today",
                                       "transaction_timestamp",
                                       "statement_timestamp"};
  static const char* const kWords[] = {"current_timestamp", "current_date", "current_time",
                                       "localtimestamp",    "localtime",    "tablesample"};
  for (size_t w = 0; w < words.size(); ++w) {
    const Word& word = words[w];
    for (const char* name : kCalls) {
      if (word.call && word.lower == name) return query.substr(word.begin, word.end - word.begin) + "()";
    }
    for (const char* name : kWords) {
      if (word.lower == name) return query.substr(word.begin, word.end - word.begin);
    }
    if (word.lower == "using" && w + 1 < words.size() && words[w + 1].lower == "sample") {
      return query.substr(word.begin, words[w + 1].end - word.begin);
    }
  }
  return "";
}

}  // namespace taco::read
