// Implementation of sql_rewrite.h.
#include "read/sql_rewrite.h"

#include <cctype>
#include <set>
#include <vector>

namespace taco::read {
namespace {

enum class Kind { kSpace, kComment, kString, kQuotedIdent, kWord, kOther };

struct Token {
  Kind kind;
  std::string_view text;
};

bool IsWordStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || (c & 0x80); }
bool IsWordChar(char c) { return IsWordStart(c) || std::isdigit(static_cast<unsigned char>(c)) || c == '$'; }

std::vector<Token> Tokenize(std::string_view s) {
  std::vector<Token> out;
  size_t i = 0;
  auto emit = [&](Kind kind, size_t end) {
    out.push_back({kind, s.substr(i, end - i)});
    i = end;
  };
  // Position after a literal opened at i with `quote`; doubled quotes are escapes.
  auto quoted_end = [&](char quote) {
    size_t j = i + 1;
    while (j < s.size()) {
      if (s[j] == quote) {
        if (j + 1 < s.size() && s[j + 1] == quote) {
          j += 2;
          continue;
        }
        return j + 1;
      }
      ++j;
    }
    return s.size();
  };
  while (i < s.size()) {
    const char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      size_t j = i;
      while (j < s.size() && std::isspace(static_cast<unsigned char>(s[j]))) ++j;
      emit(Kind::kSpace, j);
    } else if (c == '-' && i + 1 < s.size() && s[i + 1] == '-') {
      size_t j = s.find('\n', i);
      emit(Kind::kComment, j == std::string_view::npos ? s.size() : j);
    } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      size_t j = s.find("*/", i + 2);
      emit(Kind::kComment, j == std::string_view::npos ? s.size() : j + 2);
    } else if (c == '\'') {
      emit(Kind::kString, quoted_end('\''));
    } else if (c == '"') {
      emit(Kind::kQuotedIdent, quoted_end('"'));
    } else if (c == '$') {
      // $tag$ ... $tag$ (tag may be empty); a lone '$' (parameter $1) is punctuation.
      size_t j = i + 1;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
      if (j < s.size() && s[j] == '$' && !(j > i + 1 && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
        std::string_view tag = s.substr(i, j + 1 - i);
        size_t close = s.find(tag, j + 1);
        emit(Kind::kString, close == std::string_view::npos ? s.size() : close + tag.size());
      } else {
        emit(Kind::kOther, j);
      }
    } else if (IsWordStart(c)) {
      size_t j = i;
      while (j < s.size() && IsWordChar(s[j])) ++j;
      emit(Kind::kWord, j);
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t j = i;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '.' || s[j] == '_')) ++j;
      emit(Kind::kOther, j);
    } else {
      emit(Kind::kOther, i + 1);
    }
  }
  return out;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The identifier a word or quoted-identifier token names (quotes removed, lower-cased).
std::string IdentName(const Token& t) {
  if (t.kind == Kind::kWord) return Lower(t.text);
  std::string name;
  std::string_view body = t.text.substr(1, t.text.size() >= 2 ? t.text.size() - 2 : 0);
  for (size_t i = 0; i < body.size(); ++i) {
    name += body[i];
    if (body[i] == '"' && i + 1 < body.size() && body[i + 1] == '"') ++i;
  }
  return Lower(name);
}

// Words that end a FROM list at the current parenthesis depth.
const std::set<std::string>& ClauseWords() {
  static const std::set<std::string> kWords = {"where",   "group",  "having",    "order",  "limit",     "offset",
                                               "qualify", "window", "union",     "except", "intersect", "select",
                                               "on",      "using",  "returning", "set",    "values",    "fetch"};
  return kWords;
}

// Words that can follow a table name but are not an alias.
const std::set<std::string>& NonAliasWords() {
  static const std::set<std::string> kWords = {
      "where",     "group",  "having",  "order",  "limit",       "offset",  "qualify",    "window", "union", "except",
      "intersect", "select", "on",      "using",  "returning",   "set",     "values",     "fetch",  "join",  "inner",
      "left",      "right",  "full",    "outer",  "cross",       "natural", "positional", "asof",   "anti",  "semi",
      "lateral",   "pivot",  "unpivot", "sample", "tablesample", "from",    "with",       "by",     "and",   "or",
      "not",       "then",   "when",    "else",   "end",         "is",      "in",         "into",   "like",  "between"};
  return kWords;
}

bool Significant(const Token& t) { return t.kind != Kind::kSpace && t.kind != Kind::kComment; }

}  // namespace

std::string RewriteTableNames(std::string_view sql, const std::map<std::string, std::string>& tables) {
  const std::vector<Token> tokens = Tokenize(sql);
  std::vector<bool> in_from = {false};  // per parenthesis depth
  const Token* prev = nullptr;          // previous significant token
  std::string out;
  out.reserve(sql.size() + 64);
  for (size_t k = 0; k < tokens.size(); ++k) {
    const Token& t = tokens[k];
    if (!Significant(t)) {
      out += t.text;
      continue;
    }
    const Token* next = nullptr;
    for (size_t m = k + 1; m < tokens.size(); ++m) {
      if (Significant(tokens[m])) {
        next = &tokens[m];
        break;
      }
    }
    bool replaced = false;
    if (t.kind == Kind::kWord || t.kind == Kind::kQuotedIdent) {
      auto it = tables.find(IdentName(t));
      const bool after_keyword =
          prev != nullptr && prev->kind == Kind::kWord && (Lower(prev->text) == "from" || Lower(prev->text) == "join");
      const bool after_comma = prev != nullptr && prev->kind == Kind::kOther && prev->text == "," && in_from.back();
      const bool qualified = next != nullptr && next->kind == Kind::kOther && next->text == ".";
      if (it != tables.end() && (after_keyword || after_comma) && !qualified) {
        bool has_alias = false;
        if (next != nullptr) {
          if (next->kind == Kind::kQuotedIdent) has_alias = true;
          if (next->kind == Kind::kWord) {
            const std::string w = Lower(next->text);
            has_alias = w == "as" || NonAliasWords().count(w) == 0;
          }
        }
        out += it->second;
        if (!has_alias) {
          out += " AS ";
          out += t.text;
        }
        replaced = true;
      }
    }
    if (!replaced) out += t.text;

    if (t.kind == Kind::kWord) {
      const std::string w = Lower(t.text);
      if (w == "from") {
        in_from.back() = true;
      } else if (ClauseWords().count(w) != 0) {
        in_from.back() = false;
      }
    } else if (t.kind == Kind::kOther && t.text == "(") {
      in_from.push_back(false);
    } else if (t.kind == Kind::kOther && t.text == ")" && in_from.size() > 1) {
      in_from.pop_back();
    }
    prev = &t;
  }
  return out;
}

std::set<std::string> Identifiers(std::string_view sql) {
  std::set<std::string> out;
  for (const Token& t : Tokenize(sql)) {
    if (t.kind == Kind::kWord || t.kind == Kind::kQuotedIdent) out.insert(IdentName(t));
  }
  return out;
}

}  // namespace taco::read
