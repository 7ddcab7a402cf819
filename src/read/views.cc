// The level views of an opened dataset (FORMAT §6.2, §6.3) and the lazy derived views:
// Sql(), Data(), DataRaw(), RowCount().
#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string>

#include "read/dataset_state.h"
#include "read/member_resolver.h"
#include "read/path_safety.h"
#include "read/protected_columns.h"
#include "read/shifted_ranges.h"
#include "read/sql_rewrite.h"
#include "read/user_sql.h"
#include "table/engine.h"
#include "table/guard_functions.h"
#include "taco/dataset.h"

namespace taco {

using table::QuoteIdentifier;
using table::QuoteString;

bool HasColumn(const std::vector<Column>& columns, std::string_view name) {
  for (const auto& c : columns) {
    if (c.name == name) return true;
  }
  return false;
}

std::string JoinColumnNames(const std::vector<Column>& columns) {
  std::string out;
  for (const auto& c : columns) out += (out.empty() ? "" : ", ") + c.name;
  return out;
}

namespace {

bool IsHiddenColumn(std::string_view name) {
  return name.substr(0, kInternalPrefix.size()) == kInternalPrefix && name != kGdalVsi;
}

// The `internal:gdal_vsi` expression of level `level` (FORMAT §6.2, §5.4). Every value taken
// from the metadata passes a guard of read/path_safety.h first (metadata is untrusted): ids,
// relative paths and source files that could leave the dataset, and byte ranges outside the
// container, make the query fail instead of producing a path.
std::string GdalVsiExpression(const Dataset::State& s, int level) {
  const std::string url = s.RootDecodesUrlEscapes() ? "true" : "false";
  const std::string checked_id = std::string(read::kCheckedId) + "(id, " + url + ")";
  auto range = [&](int64_t limit) {
    return std::string(read::kCheckedRange) + "(\"internal:offset\", \"internal:size\", " + std::to_string(limit) + ")";
  };
  format::SamplePathSql sql;
  sql.root = QuoteString(s.vsi_root);
  // ZIP: the range must lie inside the container; a part's size is not known here.
  const bool one_container = s.layout->sample_address() == format::SampleAddress::kContainerRange;
  const int64_t limit = one_container && s.container != nullptr ? static_cast<int64_t>(s.container->size()) : -1;
  sql.subfile = "'/vsisubfile/' || " + range(limit) + " || ','";
  sql.id = checked_id;
  sql.source_file = std::string(read::kCheckedSourceFile) + "(\"internal:source_file\", " + url + ")";
  sql.relative_path = std::string(read::kCheckedRelativePath) + "(\"internal:relative_path\", " + url + ")";
  return s.layout->SamplePathExpression(level, sql);
}

}  // namespace

std::string DataSelectList(const std::vector<Column>& columns) {
  std::string list;
  bool dropped = false;
  for (const auto& c : columns) {
    if (IsHiddenColumn(c.name)) {
      dropped = true;
      continue;
    }
    list += (list.empty() ? "" : ", ") + QuoteIdentifier(c.name);
  }
  return dropped ? list : "*";
}

Table HideInternalColumns(const Table& table) {
  Table out;
  for (const auto& c : table.columns) {
    if (!IsHiddenColumn(c.name)) out.columns.push_back(c);
  }
  return out;
}

namespace {

// Which rows of the level views of `s` take their byte ranges from read/member_resolver.h.
enum class MemberLookup {
  kNone,      // the stored ranges: FOLDER and legacy datasets, concatenations
  kEveryRow,  // every row: ZIP and TACOCAT datasets whose central directories cost no HTTP
              // request of ours (local, or GDAL's VSI: s3://, gs://, az://)
  kShifted,   // http(s): only the levels >= 1 and parts whose stored ranges tacotoolbox may
              // have shifted (read/shifted_ranges.h), each read once with one request
};

MemberLookup LookupOf(const Dataset::State& s) {
  const bool one_container = s.layout->sample_address() == format::SampleAddress::kContainerRange;
  if (!s.layout->samples_are_zip_members() || s.concatenated || (one_container && s.container == nullptr)) {
    return MemberLookup::kNone;
  }
  return s.RootDecodesUrlEscapes() ? MemberLookup::kShifted : MemberLookup::kEveryRow;
}

// `levelN` over `levelN_table` with byte ranges looked up by archive path (FORMAT §1.5):
// internal:offset/size replaced by the member's, internal:gdal_vsi built from them; in the
// rows of the parts `only` names when it is set (a TACOCAT's internal:source_file values;
// the other rows keep their stored ranges, checked as GdalVsiExpression checks them). ""
// when the level cannot be resolved: levels >= 1 without internal:relative_path keep the
// stored ranges (GdalVsiExpression).
Result<std::string> ResolvedLevelSelect(Dataset::State& s, int level, const std::vector<std::string>* only) {
  const std::string table = "level" + std::to_string(level) + "_table";
  TACO_ASSIGN_OR_RETURN(std::vector<Column> columns, s.ColumnsOf(table));
  for (const char* needed : {"internal:offset", "internal:size", "id", "type"}) {
    if (!HasColumn(columns, needed)) return std::string();
  }
  std::string archive;
  if (level == 0) {
    archive = "'DATA/' || id || CASE WHEN type = 'FOLDER' THEN '/__meta__' ELSE '' END";
  } else if (HasColumn(columns, "internal:relative_path")) {
    archive = "'DATA/' || \"internal:relative_path\" || CASE WHEN type = 'FOLDER' THEN '__meta__' ELSE '' END";
  } else {
    return std::string();
  }
  const std::string url = s.RootDecodesUrlEscapes() ? "true" : "false";
  std::string container = "''", root = QuoteString("," + s.vsi_root);
  if (s.layout->sample_address() == format::SampleAddress::kSourceFileRange) {  // a TACOCAT's parts
    if (!HasColumn(columns, kSourceFile)) return std::string();
    container =
        QuoteString(s.vsi_root + "/") + " || " + read::kCheckedSourceFile + "(\"internal:source_file\", " + url + ")";
    root = QuoteString(",") + " || " + container;
  }
  const std::string checked_id = std::string(read::kCheckedId) + "(id, " + url + ")";
  std::string member = std::string(read::kResolvedMember) + "(\"internal:offset\", \"internal:size\", " + archive +
                       ", " + container + ", id)";
  if (only != nullptr) {
    std::string list;
    for (const std::string& part : *only) list += (list.empty() ? "" : ", ") + QuoteString(part);
    member = "CASE WHEN " + QuoteIdentifier(kSourceFile) + " IN (" + list + ") THEN " + member + " ELSE " +
             read::kCheckedRange + "(\"internal:offset\", \"internal:size\", -1) END";
  }
  const std::string inner = "SELECT *, " + member + " AS __taco_member FROM " + table +
                            " WHERE NOT coalesce(starts_with(id, " + QuoteString(kPaddingPrefix) + "), false)";
  return "SELECT * EXCLUDE (__taco_member) REPLACE (CAST(split_part(__taco_member, '_', 1) AS BIGINT) AS "
         "\"internal:offset\", CAST(split_part(__taco_member, '_', 2) AS BIGINT) AS \"internal:size\"), CASE WHEN " +
         checked_id + " IS NOT NULL THEN '/vsisubfile/' || __taco_member || " + root + " END AS " +
         QuoteIdentifier(kGdalVsi) + " FROM (" + inner + ")";
}

std::shared_ptr<read::MemberResolver> MembersOf(Dataset::State& s) {
  std::lock_guard<std::mutex> lock(s.members_mu);  // DirectLevelRows may have made it
  if (!s.members) {
    const bool own = s.layout->sample_address() == format::SampleAddress::kContainerRange;
    s.members = std::make_shared<read::MemberResolver>(s.path, own ? s.container : nullptr);
    // The central directory follows the last metadata member (FORMAT §1.1): one read.
    uint64_t end = 0;
    for (const HeaderPair& h : s.header) end = std::max(end, h.offset + h.length);
    if (own && end > 0) s.members->ExpectDirectoryAfter(end);
  }
  return s.members;
}

Status RegisterMemberResolver(Dataset::State& s) {
  std::shared_ptr<read::MemberResolver> members = MembersOf(s);
  return table::RegisterMemberGuard(*s.engine, read::kResolvedMember,
                                    [members](int64_t offset, int64_t size, std::string_view path,
                                              std::string_view container, std::string_view id, std::string* range) {
                                      std::string problem = members->Resolve(offset, size, path, container, id, range);
                                      return problem.empty() ? problem
                                                             : "refused: " + problem + " (metadata is untrusted)";
                                    });
}

// The select of `levelN` under MemberLookup::kShifted: the stored ranges at level 0 and where
// read/shifted_ranges.h finds none that may be shifted; else the resolved ranges of those
// parts, the resolver told the stored ranges it may pick a member's from.
Result<std::string> ShiftedLevelSelect(Dataset::State& s, int level) {
  if (level == 0) return std::string();
  const bool tacocat = s.layout->sample_address() == format::SampleAddress::kSourceFileRange;
  TACO_ASSIGN_OR_RETURN(read::ShiftedParts shifted,
                        read::ShiftedRanges(*s.engine, "level" + std::to_string(level) + "_table",
                                            tacocat ? std::string(kSourceFile) : std::string()));
  if (shifted.empty()) return std::string();
  std::shared_ptr<read::MemberResolver> members = MembersOf(s);
  std::vector<std::string> parts;
  for (const auto& [part, ranges] : shifted) {
    parts.push_back(part);
    members->AddStoredRanges(tacocat ? s.vsi_root + "/" + part : std::string(), ranges);
  }
  return ResolvedLevelSelect(s, level, tacocat ? &parts : nullptr);
}

}  // namespace

Status CreateLevelViews(Dataset::State& s) {
  const MemberLookup lookup = LookupOf(s);
  if (lookup != MemberLookup::kNone) {
    TACO_RETURN_IF_ERROR(RegisterMemberResolver(s));
  }
  for (int level = 0; level < s.num_levels; ++level) {
    const std::string n = std::to_string(level);
    std::string select;
    if (lookup == MemberLookup::kEveryRow) {
      TACO_ASSIGN_OR_RETURN(select, ResolvedLevelSelect(s, level, nullptr));
    } else if (lookup == MemberLookup::kShifted) {
      TACO_ASSIGN_OR_RETURN(select, ShiftedLevelSelect(s, level));
    }
    if (select.empty()) {
      // Padding is hidden by a literal prefix test (FORMAT §3.5, §10.4): never LIKE.
      select = "SELECT *, " + GdalVsiExpression(s, level) + " AS " + QuoteIdentifier(kGdalVsi) + " FROM level" + n +
               "_table WHERE NOT coalesce(starts_with(id, " + QuoteString(kPaddingPrefix) + "), false)";
    }
    Status st = s.engine->Execute("CREATE VIEW level" + n + " AS " + select);
    if (!st.ok()) return st.WithPrefix(s.path + ": level " + n);
  }
  TACO_RETURN_IF_ERROR(s.engine->Execute("CREATE VIEW data_raw AS SELECT * FROM level0"));
  TACO_ASSIGN_OR_RETURN(std::vector<Column> columns, s.ColumnsOf("level0"));
  TACO_RETURN_IF_ERROR(s.engine->Execute("CREATE VIEW data AS SELECT " + DataSelectList(columns) + " FROM level0"));
  TrustLevelViews(s);
  return Status::OK();
}

void TrustLevelViews(Dataset::State& s) {
  for (int level = 0; level < s.num_levels; ++level) {
    read::TrustRelation(s, "level" + std::to_string(level), {level});
    read::TrustRelation(s, "level" + std::to_string(level) + "_table", {level});
  }
  read::TrustRelation(s, "data_raw", {0});
  read::TrustRelation(s, "data", {0});
}

namespace {
bool AllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}
}  // namespace

SampleKey ParseSampleKey(const std::string& text) {
  if (text.size() >= 2 && text.size() <= 19 && text[0] == '@' && AllDigits(std::string_view(text).substr(1))) {
    return static_cast<int64_t>(std::stoll(text.substr(1)));
  }
  if (AllDigits(text)) return TextKey{text};
  return text;
}

std::string SampleKeyText(const SampleKey& key) {
  std::string out;
  if (const auto* i = std::get_if<int64_t>(&key)) {
    out = "@";
    out += std::to_string(*i);
    return out;
  }
  const auto* t = std::get_if<TextKey>(&key);
  out = "'";
  out += t != nullptr ? t->text : std::get<std::string>(key);
  out += "'";
  return out;
}

std::vector<SampleKey> ParseSampleKeys(const std::vector<std::string>& texts) {
  std::vector<SampleKey> keys;
  for (const auto& t : texts) keys.push_back(ParseSampleKey(t));
  return keys;
}

Result<std::unique_ptr<Dataset>> Dataset::Derive(const std::string& select_sql,
                                                 std::shared_ptr<Frame::Context> context) const {
  const std::string name = state_->NewName("view");
  Status st = state_->engine->Execute("CREATE TEMP VIEW " + name + " AS " + select_sql);
  if (!st.ok()) return state_->Prefixed(st);
  TACO_ASSIGN_OR_RETURN(std::vector<Column> columns, state_->ColumnsOf(name));
  std::string data_view = name;
  const std::string list = DataSelectList(columns);
  if (list != "*" && !list.empty()) {
    data_view = name + "_data";
    st = state_->engine->Execute("CREATE TEMP VIEW " + data_view + " AS SELECT " + list + " FROM " + name);
    if (!st.ok()) return state_->Prefixed(st);
  }
  // Rows of a derived view come from the levels its source's rows come from (Sql() narrows
  // or widens this afterwards).
  const std::set<int> levels = state_->trusted.Find(view_).value_or(std::set<int>{0});
  read::TrustRelation(*state_, name, levels);
  read::TrustRelation(*state_, data_view, levels);
  return std::unique_ptr<Dataset>(new Dataset(state_, name, data_view, std::move(context)));
}

Result<std::unique_ptr<Dataset>> Dataset::Sql(const std::string& query, bool data_is_raw) const {
  std::string q = query;
  while (!q.empty() && (q.back() == ';' || std::isspace(static_cast<unsigned char>(q.back())))) q.pop_back();
  if (q.empty()) return state_->Error("SQL query is empty");
  // Errors name the user's query, not the CREATE TEMP VIEW that wraps it (user_sql.h).
  table::ScopedErrorLabel label(*state_->engine, q);
  std::map<std::string, std::string> tables = {{"data", data_is_raw ? view_ : data_view_}, {"data_raw", view_}};
  if (read::Identifiers(q).count("files") != 0) {
    // `files`: this view's FILE samples (Files()). When they cannot be listed, the name is
    // left alone (it may name something else; DuckDB then says what is missing).
    if (auto files = Files(); files.ok()) tables["files"] = (*files)->view_;
  }
  auto rewritten = read::PrepareUserSql(*state_->engine, q, tables, state_->num_levels);
  if (!rewritten.ok()) return state_->Prefixed(rewritten.status());
  // Protected columns keep the values the dataset computed (read/protected_columns.h).
  std::set<int> levels;
  TACO_ASSIGN_OR_RETURN(std::string select, read::ProtectedQuery(*state_, *rewritten, &levels));
  TACO_ASSIGN_OR_RETURN(std::unique_ptr<Dataset> view, Derive(select, context_));
  read::TrustRelation(*state_, view->view_, levels);
  read::TrustRelation(*state_, view->data_view_, levels);
  if (read::NonDeterministicPart(q).empty()) return view;
  // random(), TABLESAMPLE, now(), ...: evaluated once, into a table, so that the view is one
  // fixed set of rows (order and computed values included) for Data(), RowCount(), Read(),
  // the statistics, export and the sample plan (issue 24). Its name starts with "fixed_"
  // (view_name()): the Python layer cannot rebuild such a view in another process.
  const std::string fixed = state_->NewName("fixed");
  Status st = state_->engine->Execute("CREATE TEMP TABLE " + fixed + " AS SELECT * FROM " + view->view_);
  if (!st.ok()) return state_->Prefixed(st);
  TACO_ASSIGN_OR_RETURN(std::vector<Column> columns, state_->ColumnsOf(fixed));
  std::string data_view = fixed;
  const std::string list = DataSelectList(columns);
  if (list != "*" && !list.empty()) {
    data_view = fixed + "_data";
    st = state_->engine->Execute("CREATE TEMP VIEW " + data_view + " AS SELECT " + list + " FROM " + fixed);
    if (!st.ok()) return state_->Prefixed(st);
  }
  read::TrustRelation(*state_, fixed, levels);
  read::TrustRelation(*state_, data_view, levels);
  return std::unique_ptr<Dataset>(new Dataset(state_, fixed, data_view, context_));
}

Result<Table> Dataset::Data() const {
  if (view_ == "data_raw" && data_view_ == "data") {  // the whole dataset: maybe without the engine
    auto direct = DirectLevelRows(*state_, false);
    if (!direct.ok()) return state_->Prefixed(direct.status());
    if (*direct) return std::move(**direct);
  }
  auto t = state_->engine->Query("SELECT * FROM " + data_view_);
  if (!t.ok()) return state_->Prefixed(t.status());
  if (data_view_ == view_) return HideInternalColumns(*t);
  return t;
}

Result<Table> Dataset::DataRaw() const {
  if (view_ == "data_raw" && data_view_ == "data") {
    auto direct = DirectLevelRows(*state_, true);
    if (!direct.ok()) return state_->Prefixed(direct.status());
    if (*direct) return std::move(**direct);
  }
  auto t = state_->engine->Query("SELECT * FROM " + view_);
  if (!t.ok()) return state_->Prefixed(t.status());
  return t;
}

Result<int64_t> Dataset::RowCount() const {
  std::string sql = "SELECT count(*) FROM " + view_;
  if (view_ == "data_raw" && !state_->level_footers.empty() && state_->level_footers[0] &&
      state_->level_footers[0]->ProvesNoValueStartsWith(kPaddingPrefix)) {
    // The footer's row count when its `id` statistics prove there is no padding row: no engine.
    return static_cast<int64_t>(state_->level_footers[0]->rows);
  }
  if (view_ == "data_raw") {
    // The whole level 0: all rows (from Parquet metadata) minus the padding rows, asked as a
    // range that is exactly "starts with the prefix" (the next string after every such id
    // replaces the prefix's last '_' by '`'), so that Parquet min/max statistics skip the
    // row groups that hold none, instead of the view's scan of every id.
    std::string after(kPaddingPrefix);
    after.back() = static_cast<char>(after.back() + 1);
    sql = "SELECT (SELECT count(*) FROM level0_table) - (SELECT count(*) FROM level0_table WHERE id >= " +
          QuoteString(kPaddingPrefix) + " AND id < " + QuoteString(after) + ")";
  }
  auto t = state_->engine->Query(sql);
  if (!t.ok()) return state_->Prefixed(t.status());
  return t->columns.at(0).values.at(0).get<int64_t>();
}

Result<std::vector<std::string>> Dataset::Columns() const {
  TACO_ASSIGN_OR_RETURN(std::vector<Column> columns, state_->ColumnsOf(view_));
  std::vector<std::string> names;
  for (const auto& c : columns) names.push_back(c.name);
  return names;
}

}  // namespace taco
