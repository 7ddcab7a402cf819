// Navigation (FORMAT §6.8): Dataset::Read / ReadPath / ReadBytes and Frame.
#include <algorithm>
#include <limits>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "io/location.h"
#include "read/dataset_state.h"
#include "read/path_safety.h"
#include "read/sample_bytes.h"
#include "table/engine.h"
#include "table/parquet_reader.h"
#include "taco/dataset.h"
#include "taco/io.h"
#include "util/limits.h"

namespace taco {

using table::QuoteIdentifier;
using table::QuoteString;

namespace read {
namespace {

// The root of `s.roots` that `path` lies in ("" when none).
const std::string* RootOf(const Dataset::State& s, const std::string& path) {
  for (const std::string& root : s.roots) {
    if (path.size() > root.size() && path.compare(0, root.size(), root) == 0 && path[root.size()] == '/') return &root;
  }
  return nullptr;
}

}  // namespace

// Before a sample path is handed out or read: it stays inside the dataset (read/path_safety.h).
// A /vsisubfile/ path into a container the dataset opened is safe by construction (its
// range was checked); any other path must lie below one of the dataset's roots and, when
// local, must not leave it through a symbolic link. A local file that does not exist
// reveals nothing and is let through (the read then reports it missing).
Status CheckSamplePath(const Dataset::State& s, const std::string& gdal_path) {
  std::string file = gdal_path;
  if (auto ref = ParseVsiSubfile(gdal_path)) {
    if (s.containers.count(ref->root) > 0) return Status::OK();
    file = ref->root;
  }
  const std::string* root = RootOf(s, file);
  if (root == nullptr) return read::Refused(s.path, "the sample path '" + gdal_path + "' is outside the dataset");
  Status inside = read::CheckInsideRoot(s.path, *root, file);
  if (inside.code() == StatusCode::kNotFound) return Status::OK();
  return inside;
}

zip::MemberName ExpectedMember(const Dataset::State& s, const Node& node) {
  if (!s.layout->members_have_names()) return zip::MemberName::None();  // BLOB ranges have no member names
  const std::string meta = node.is_file() ? "" : "/__meta__";
  const int c = node.row.FindColumn(kArchivePath);
  if (c >= 0 && node.row.num_rows() == 1) {
    const Value& v = node.row.columns[static_cast<size_t>(c)].values[0];
    if (v.is<std::string>()) return zip::MemberName::Exact(v.get<std::string>() + meta);
  }
  return zip::MemberName::LastPart(node.id + meta);
}

// One TACOCAT part's rows of one stored level >= 1 for navigation (navigation.cc PartLevel).
struct PartLevelRows {
  Table rows;                                                  // shaped as a ZIP `__meta__`
  std::vector<int64_t> current_ids;                            // internal:current_id (index = row)
  std::unordered_map<int64_t, std::vector<size_t>> by_parent;  // internal:parent_id → rows, in order
};

}  // namespace read

using read::CheckSamplePath;

namespace {

constexpr std::string_view kVsiSubfile = "/vsisubfile/";
constexpr std::string_view kMetaSuffix = "/__meta__";

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// The bytes at a GDAL path of the dataset: a /vsisubfile/ range (through the already open
// container when it is ours: one ranged read; CRC-checked, the member's name checked against
// `expected`) or a whole file, once the path passed CheckSamplePath (read/sample_bytes.h).
Result<std::string> ReadGdalPath(const Dataset::State& s, const std::string& gdal_path,
                                 const zip::MemberName& expected) {
  return read::ReadSampleBytes(s, gdal_path, expected);
}

const Value* Cell(const Table& t, std::string_view column, size_t row) {
  int c = t.FindColumn(column);
  if (c < 0) return nullptr;
  return &t.columns[static_cast<size_t>(c)].values[row];
}

Result<std::string> StringCell(const Dataset::State& s, const Table& t, std::string_view column, size_t row) {
  const Value* v = Cell(t, column, row);
  if (v == nullptr) return s.Error("navigation needs column '" + std::string(column) + "' (not in the rows)");
  if (!v->is<std::string>()) return s.Error("row " + std::to_string(row) + " has no " + std::string(column));
  return v->get<std::string>();
}

Table SliceRow(const Table& t, size_t row) {
  Table out;
  for (const auto& c : t.columns) out.columns.push_back(Column{c.name, c.type, {c.values.at(row)}});
  return out;
}

// The parent's internal:current_id for joining with a filtered child level.
Result<int64_t> CurrentId(const Dataset::State& s, const Table& row, int level, const std::string& gdal_path) {
  if (const Value* v = Cell(row, kCurrentId, 0); v != nullptr && v->is<int64_t>()) return v->get<int64_t>();
  if (level == 0) {
    TACO_ASSIGN_OR_RETURN(Table t,
                          s.engine->Query("SELECT " + QuoteIdentifier(kCurrentId) + " FROM level0 WHERE " +
                                          QuoteIdentifier(kGdalVsi) + " = " + QuoteString(gdal_path) + " LIMIT 1"));
    if (t.num_rows() == 1 && t.columns[0].values[0].is<int64_t>()) return t.columns[0].values[0].get<int64_t>();
  }
  return s.Error("cannot match '" + gdal_path + "' with the filtered level " + std::to_string(level + 1) +
                 ": the row has no internal:current_id");
}

// Where a TACOCAT FOLDER row sits in the consolidated levels: its part and its
// internal:current_id there (both local to the part, FORMAT §3.3), and in a concat of
// TACOCATs the concat's part (internal:source_part) that holds it.
struct PartRow {
  std::string source_file;
  int64_t current_id = 0;
  int64_t source_part = -1;  // -1: not a concat
};

// The children of a FOLDER (ReadChildren); `source_file` and `current_ids` are set when they
// came from a TACOCAT's consolidated level (see Frame::Context).
struct Children {
  Table rows;
  std::string source_file;
  std::vector<int64_t> current_ids;
  int64_t source_part = -1;
};

// The archive path of the parent of a level >= 1 row from its internal:relative_path
// ("r0/m0/" → "r0/", "r0/m0/f1" → "r0/m0/"); nullopt when the path has no parent part.
std::optional<std::string_view> ParentPath(std::string_view relative_path) {
  if (!relative_path.empty() && relative_path.back() == '/') relative_path.remove_suffix(1);
  const size_t slash = relative_path.rfind('/');
  if (slash == std::string_view::npos) return std::nullopt;
  return relative_path.substr(0, slash + 1);
}

// Whether the stored ranges of `rows` (one part's rows of a level >= 1, in internal:current_id
// order) can stand in for the `__meta__` of their parents. tacotoolbox writes a ZIP's levels
// >= 1 with their offsets glued positionally from the `__meta__` tables taken in sorted
// folder-path order (FORMAT §1.5 step 5), and a TACOCAT copies them unchanged: they are the
// members' only when the part's parents come in archive-path order (then the two orders
// agree). Our writer looks every offset up by path, but the rows do not say who wrote them,
// so the order is checked for every part: the parents' paths (from internal:relative_path)
// strictly increase from one parent's rows to the next (byte order = Python's sorted() of
// str) and are the same within one parent's rows. False when a path is missing.
bool RangesInPathOrder(const Table& rows, int parent_column) {
  const int relative = rows.FindColumn("internal:relative_path");
  if (relative < 0) return false;
  const std::vector<Value>& paths = rows.columns[static_cast<size_t>(relative)].values;
  const std::vector<Value>& parents = rows.columns[static_cast<size_t>(parent_column)].values;
  std::optional<std::string_view> previous;
  for (size_t i = 0; i < paths.size(); ++i) {
    if (!paths[i].is<std::string>()) return false;
    const std::optional<std::string_view> path = ParentPath(paths[i].get<std::string>());
    if (!path) return false;
    const bool same_parent = i > 0 && parents[i] == parents[i - 1];
    if (same_parent ? *path != *previous : previous && !(*previous < *path)) return false;
    previous = path;
  }
  return true;
}

// At most this many rows of one part at one level are indexed for navigation (as many as
// Dataset::Read keeps of a view); a bigger part's FOLDERs read their `__meta__`.
constexpr int64_t kMaxIndexedRows = 1000000;

// One part's rows of a level >= 1 (`rows`: all the level's columns, in internal:current_id
// order) shaped as a ZIP `__meta__` (the visible columns in the level's order, then
// internal:offset, internal:size) and indexed by internal:parent_id; null when they cannot
// stand in for the `__meta__` (RangesInPathOrder, a missing column, a null current or
// parent id).
std::shared_ptr<const read::PartLevelRows> MakePartLevel(Table rows) {
  const int current = rows.FindColumn(kCurrentId), parent = rows.FindColumn(kParentId);
  if (current < 0 || parent < 0 || !RangesInPathOrder(rows, parent)) return nullptr;
  auto out = std::make_shared<read::PartLevelRows>();
  const std::vector<Value>& currents = rows.columns[static_cast<size_t>(current)].values;
  const std::vector<Value>& parents = rows.columns[static_cast<size_t>(parent)].values;
  out->current_ids.reserve(currents.size());
  for (size_t i = 0; i < currents.size(); ++i) {
    if (!currents[i].is<int64_t>() || !parents[i].is<int64_t>()) return nullptr;
    out->current_ids.push_back(currents[i].get<int64_t>());
    out->by_parent[parents[i].get<int64_t>()].push_back(i);
  }
  std::optional<Column> offset, size;
  for (Column& c : rows.columns) {
    if (c.name == "internal:offset") {
      offset = std::move(c);
    } else if (c.name == "internal:size") {
      size = std::move(c);
    } else if (c.name.compare(0, kInternalPrefix.size(), kInternalPrefix) != 0) {
      out->rows.columns.push_back(std::move(c));
    }
  }
  if (!offset || !size) return nullptr;
  out->rows.columns.push_back(std::move(*offset));
  out->rows.columns.push_back(std::move(*size));
  return out;
}

// The relation holding the stored level `level` of a TACOCAT: its `levelN_table`, or in a
// concat the level of the concat's part `source_part` as mounted (its own columns in its own
// order, as the part opened alone has them, not the concat's chosen ones); "" when unknown.
std::string StoredLevel(const Dataset::State& s, int level, int64_t source_part) {
  if (!s.concatenated) return "level" + std::to_string(level) + "_table";
  if (source_part < 0 || static_cast<size_t>(source_part) >= s.part_level_files.size()) return "";
  const std::vector<std::string>& files = s.part_level_files[static_cast<size_t>(source_part)];
  if (level < 1 || static_cast<size_t>(level) >= files.size() || files[static_cast<size_t>(level)].empty()) return "";
  return "read_parquet(" + QuoteString(files[static_cast<size_t>(level)]) + ")";
}

// The PartLevelRows of (level, part), made on the first navigation into the part's FOLDERs at
// the level above: one query, whose filter on internal:source_file the Parquet statistics
// keep to the part's row groups (indexing the whole level at once cost more for a single
// navigation: every part's rows, decoded and copied). Null when they cannot stand in for the
// part's `__meta__` (MakePartLevel), more than kMaxIndexedRows, or a failed query.
std::shared_ptr<const read::PartLevelRows> PartLevel(Dataset::State& s, int child_level, const PartRow& part) {
  const std::tuple<int, int64_t, std::string> key{child_level, part.source_part, part.source_file};
  {
    std::lock_guard<std::mutex> lock(s.consolidated_mu);
    if (auto it = s.part_levels.find(key); it != s.part_levels.end()) return it->second;
  }
  const std::string level = StoredLevel(s, child_level, part.source_part);
  if (level.empty()) return nullptr;
  auto rows = s.engine->Query("SELECT * FROM " + level + " WHERE " + QuoteIdentifier(kSourceFile) + " = " +
                              QuoteString(part.source_file) + " ORDER BY " + QuoteIdentifier(kCurrentId) + " LIMIT " +
                              std::to_string(kMaxIndexedRows + 1));
  std::shared_ptr<const read::PartLevelRows> loaded;
  if (rows.ok() && rows->num_rows() <= static_cast<uint64_t>(kMaxIndexedRows)) loaded = MakePartLevel(std::move(*rows));
  std::lock_guard<std::mutex> lock(s.consolidated_mu);
  return s.part_levels.emplace(key, std::move(loaded)).first->second;  // another thread's if it came first
}

// The children of a TACOCAT FOLDER from the consolidated level below it (issue 28): the rows
// of level `level + 1` whose internal:parent_id is the folder's internal:current_id in the
// same part (PartLevel); in a concat of TACOCATs, of the same concat part. No read at all,
// locally or remotely: the levels are in memory since the dataset (each source of a concat)
// was opened; the part's rows are indexed on the first navigation into it. nullopt
// when the level cannot answer — no such level (a TACOCAT whose levels stop above this
// folder, or an older one without the level), a row whose part or current_id is not known, a
// folder path that is not the part's, a folder without rows there, or PartLevel's reasons —
// and the caller reads the `__meta__` as before.
// One difference remains by construction: a level's columns are the union over all its
// folders, so a folder whose `__meta__` lacks a column another folder's children have gets
// that column (null) here.
std::optional<Children> ConsolidatedChildren(const Frame::Context& ctx, int level, const VsiSubfile& ref,
                                             const std::optional<PartRow>& part) {
  Dataset::State& s = *ctx.state;
  if (!part || s.layout->sample_address() != format::SampleAddress::kSourceFileRange || s.legacy != nullptr ||
      level + 1 >= s.num_levels || (s.concatenated && part->source_part < 0)) {
    return std::nullopt;
  }
  if (!EndsWith(ref.root, "/" + part->source_file)) return std::nullopt;  // the folder lies in another file
  std::shared_ptr<const read::PartLevelRows> rows = PartLevel(s, level + 1, *part);
  if (rows == nullptr) return std::nullopt;
  auto found = rows->by_parent.find(part->current_id);
  if (found == rows->by_parent.end()) return std::nullopt;
  Children out;
  out.source_file = part->source_file;
  out.source_part = part->source_part;
  for (const Column& c : rows->rows.columns) {
    Column picked{c.name, c.type, {}};
    picked.values.reserve(found->second.size());
    for (size_t i : found->second) picked.values.push_back(c.values[i]);
    out.rows.columns.push_back(std::move(picked));
  }
  for (size_t i : found->second) out.current_ids.push_back(rows->current_ids[i]);
  return out;
}

// Children of a FOLDER row, from the consolidated level when a TACOCAT's can answer
// (ConsolidatedChildren), else from its __meta__ (and the cascade-filtered level, if any);
// `folder` is the FOLDER's node (its __meta__ member name is checked); `part` where the row
// sits in a TACOCAT's levels, when known.
Result<Children> ReadChildren(const Frame::Context& ctx, const Table& row, int level, const Node& folder,
                              const std::optional<PartRow>& part) {
  const std::string& gdal_path = folder.gdal_path;
  const Dataset::State& s = *ctx.state;
  auto ref = ParseVsiSubfile(gdal_path);
  std::string meta_path = gdal_path;
  if (!ref && !EndsWith(meta_path, kMetaSuffix)) meta_path += kMetaSuffix;
  Table children;
  std::optional<Children> consolidated;
  if (ref) consolidated = ConsolidatedChildren(ctx, level, *ref, part);
  if (consolidated) {
    children = std::move(consolidated->rows);
  } else if (s.children_of) {  // legacy BLOB datasets: the children come from the level tables
    TACO_ASSIGN_OR_RETURN(children, s.children_of(row, level));
  } else {
    // Also the TACOCAT fallback: a folder the consolidated level cannot answer for (above).
    TACO_ASSIGN_OR_RETURN(std::string bytes, ReadGdalPath(s, meta_path, read::ExpectedMember(s, folder)));
    // The engine only for a __meta__ the engine-free reader leaves to it (issue 28).
    auto engine = [&s]() -> table::Engine& { return *s.engine; };
    TACO_ASSIGN_OR_RETURN(children,
                          table::ReadSmallParquet(engine, std::move(bytes), meta_path, util::kMaxFolderChildren));
  }
  if (children.FindColumn("id") < 0 || children.FindColumn("type") < 0) {
    return Status::Corruption(meta_path + ": __meta__ has no id/type columns");
  }

  Column vsi{std::string(kGdalVsi), DataType::String(), {}};
  const Column& ids = children.column("id");
  const Column& types = children.column("type");
  // Children's ids and ranges are untrusted like every other metadata (read/path_safety.h);
  // asked of the sample's own root, as a concat's sources may lie in different locations.
  const bool url = io::Location::Of(ref ? ref->root : meta_path).decodes_url_escapes();
  int64_t limit = -1;
  if (ref) {
    auto open = s.containers.find(ref->root);
    if (open != s.containers.end() && open->second != nullptr) limit = static_cast<int64_t>(open->second->size());
  }
  for (size_t i = 0; i < children.num_rows(); ++i) {
    if (!ids.values[i].is<std::string>())
      return Status::Corruption(meta_path + ": child " + std::to_string(i) + " has no id");
    const std::string& id = ids.values[i].get<std::string>();
    if (std::string problem = read::StoredIdProblem(id, url); !problem.empty()) {
      return read::Refused(s.path, meta_path + ": " + problem);
    }
    if (ref) {
      const Value* off = Cell(children, "internal:offset", i);
      const Value* size = Cell(children, "internal:size", i);
      if (off == nullptr || size == nullptr || !off->is<int64_t>() || !size->is<int64_t>()) {
        return Status::Corruption(meta_path + ": child '" + id + "' has no internal:offset/internal:size");
      }
      if (std::string problem = read::RangeProblem(off->get<int64_t>(), size->get<int64_t>(), limit);
          !problem.empty()) {
        return read::Refused(s.path, meta_path + ": child '" + id + "': " + problem);
      }
      vsi.values.emplace_back(std::string(kVsiSubfile) + std::to_string(off->get<int64_t>()) + "_" +
                              std::to_string(size->get<int64_t>()) + "," + ref->root);
    } else {
      const std::string folder = meta_path.substr(0, meta_path.size() - kMetaSuffix.size());
      const bool is_folder = types.values[i].is<std::string>() && types.values[i].get<std::string>() == "FOLDER";
      vsi.values.emplace_back(folder + "/" + id + (is_folder ? std::string(kMetaSuffix) : ""));
    }
  }
  int existing = children.FindColumn(kGdalVsi);
  if (existing >= 0) children.columns.erase(children.columns.begin() + existing);
  children.columns.push_back(std::move(vsi));

  Children out;
  if (consolidated) {
    out.source_file = consolidated->source_file;
    out.source_part = consolidated->source_part;
  }
  auto filtered = ctx.filtered.find(level + 1);
  if (filtered == ctx.filtered.end()) {
    if (consolidated) out.current_ids = std::move(consolidated->current_ids);
    out.rows = std::move(children);
    return out;
  }

  // Keep the surviving children (matched by id within this parent), in __meta__ order.
  TACO_ASSIGN_OR_RETURN(int64_t parent, CurrentId(s, row, level, gdal_path));
  std::string where = QuoteIdentifier(kParentId) + " = " + std::to_string(parent);
  if (s.layout->ids_local_to_source_file()) {
    const Value* source = Cell(row, kSourceFile, 0);
    if ((source == nullptr || !source->is<std::string>()) && !part)
      return s.Error("cannot match '" + gdal_path + "' without internal:source_file");
    where +=
        " AND " + QuoteIdentifier(kSourceFile) + " = " +
        QuoteString(source != nullptr && source->is<std::string>() ? source->get<std::string>() : part->source_file);
  }
  if (s.concatenated) {
    // The part when the row kept it; else its source (a part given twice has the same
    // children in both: the first survivor of each id is taken below).
    const Value* part = Cell(row, kSourcePart, 0);
    const Value* source = Cell(row, kSourcePath, 0);
    if (part != nullptr && part->is<int64_t>()) {
      where += " AND " + QuoteIdentifier(kSourcePart) + " = " + std::to_string(part->get<int64_t>());
    } else if (source != nullptr && source->is<std::string>()) {
      where += " AND " + QuoteIdentifier(kSourcePath) + " = " + QuoteString(source->get<std::string>());
    } else {
      return s.Error("cannot match '" + gdal_path + "' without internal:source_part or internal:source_path");
    }
  }
  TACO_ASSIGN_OR_RETURN(
      Table survivors, s.engine->Query("SELECT id, " + QuoteIdentifier(kCurrentId) + ", " + QuoteIdentifier(kParentId) +
                                       " FROM " + filtered->second + " WHERE " + where));
  Table kept;
  for (const auto& c : children.columns) {
    if (c.name != kCurrentId && c.name != kParentId) kept.columns.push_back(Column{c.name, c.type, {}});
  }
  Column current{std::string(kCurrentId), DataType::Int64(), {}};
  Column parent_col{std::string(kParentId), DataType::Int64(), {}};
  for (size_t i = 0; i < children.num_rows(); ++i) {
    for (size_t j = 0; j < survivors.num_rows(); ++j) {
      if (!(survivors.columns[0].values[j] == ids.values[i])) continue;
      size_t k = 0;
      for (const auto& c : children.columns) {
        if (c.name != kCurrentId && c.name != kParentId) kept.columns[k++].values.push_back(c.values[i]);
      }
      current.values.push_back(survivors.columns[1].values[j]);
      parent_col.values.push_back(survivors.columns[2].values[j]);
      break;
    }
  }
  kept.columns.push_back(std::move(current));
  kept.columns.push_back(std::move(parent_col));
  out.rows = std::move(kept);  // the rows carry internal:current_id: no current_ids needed
  return out;
}

// A FILE's GDAL path is handed out (Python read(), `taco read`) only when the ZIP member at
// its range is the sample's (issue 29.6). Checked here for local containers (one small read
// of the local header, from the page cache); a remote member is checked when its bytes are
// read (ReadBytes/StreamBytes), not when its path is handed out.
Status CheckLocalMember(const Dataset::State& s, const Node& node) {
  const std::optional<VsiSubfile> ref = ParseVsiSubfile(node.gdal_path);
  // The container's own location (a concat holds sources of several): free only locally.
  if (!ref || !s.layout->members_have_names() || !io::Location::Of(ref->root).is_local_filesystem()) {
    return Status::OK();  // remotely the read would cost a request: checked when the bytes are read
  }
  auto open = s.containers.find(ref->root);
  if (open == s.containers.end() || open->second == nullptr) return Status::OK();
  const std::string what =
      ref->root + " (bytes " + std::to_string(ref->offset) + ".." + std::to_string(ref->offset + ref->size) + ")";
  const zip::MemberName expected = read::ExpectedMember(s, node);
  Result<zip::LocalHeaderInfo> header =
      zip::ReadNamedLocalHeader(*open->second, ref->offset, ref->size, expected, what);
  if (!header.ok()) {
    // A concat may hold legacy BLOB containers, whose ranges have no local headers.
    Result<std::string> magic = open->second->Read(0, std::min<uint64_t>(4, open->second->size()));
    if (magic.ok() && *magic != std::string("PK\x03\x04", 4)) return Status::OK();
    return header.status().WithPrefix("sample '" + node.id + "'");
  }
  return zip::CheckMemberName(*header, expected, ref->offset, what).WithPrefix("sample '" + node.id + "'");
}

// Where row `i` of `rows` (stored level `level`) sits in a TACOCAT's levels: the row's own
// internal:source_file / internal:current_id (and, in a concat, internal:source_part), else
// what the frame's context recorded.
std::optional<PartRow> PartRowOf(const Frame::Context& ctx, const Table& rows, size_t i) {
  PartRow part;
  if (ctx.state->concatenated) {
    if (const Value* v = Cell(rows, kSourcePart, i); v != nullptr && v->is<int64_t>()) {
      part.source_part = v->get<int64_t>();
    } else if (ctx.source_part >= 0) {
      part.source_part = ctx.source_part;
    } else {
      return std::nullopt;
    }
  }
  if (const Value* v = Cell(rows, kSourceFile, i); v != nullptr && v->is<std::string>()) {
    part.source_file = v->get<std::string>();
  } else if (!ctx.source_file.empty()) {
    part.source_file = ctx.source_file;
  } else {
    return std::nullopt;
  }
  if (const Value* v = Cell(rows, kCurrentId, i); v != nullptr && v->is<int64_t>()) {
    part.current_id = v->get<int64_t>();
  } else if (i < ctx.current_ids.size() && ctx.current_ids.size() == rows.num_rows()) {
    part.current_id = ctx.current_ids[i];
  } else {
    return std::nullopt;
  }
  return part;
}

// `archive_dir`: the archive path of the rows' parent with a trailing '/' ("DATA/" for
// level-0 rows), empty when unknown (then only the id is checked, see kArchivePath).
// `level_known`: the rows are rows of stored level `level` (a frame's, or a view's known to
// hold level-0 rows); else (a view over other levels) a FOLDER's children come from its
// `__meta__`.
Result<Node> NodeFromRow(const std::shared_ptr<Frame::Context>& ctx, int level, const Table& rows, size_t i,
                         const std::string& archive_dir, bool level_known) {
  const Dataset::State& s = *ctx->state;
  Node node;
  node.level = level;
  node.row = SliceRow(rows, i);
  TACO_ASSIGN_OR_RETURN(node.id, StringCell(s, rows, "id", i));
  TACO_ASSIGN_OR_RETURN(node.type, StringCell(s, rows, "type", i));
  TACO_ASSIGN_OR_RETURN(node.gdal_path, StringCell(s, rows, kGdalVsi, i));
  if (std::string problem = read::StoredIdProblem(node.id, false); !problem.empty())
    return read::Refused(s.path, problem);
  TACO_RETURN_IF_ERROR(CheckSamplePath(s, node.gdal_path));
  const std::string archive_path = archive_dir.empty() ? "" : archive_dir + node.id;
  if (!archive_path.empty() && node.row.FindColumn(kArchivePath) < 0) {
    node.row.columns.push_back(Column{std::string(kArchivePath), DataType::String(), {Value(archive_path)}});
  }
  if (node.type == "FILE") {
    TACO_RETURN_IF_ERROR(CheckLocalMember(s, node));
    return node;
  }
  if (node.type != "FOLDER") return s.Error("sample '" + node.id + "' has unknown type '" + node.type + "'");
  const std::optional<PartRow> part = level_known ? PartRowOf(*ctx, rows, i) : std::nullopt;
  auto children = ReadChildren(*ctx, node.row, level, node, part);
  if (!children.ok()) return children.status().WithPrefix("sample '" + node.id + "'");
  auto child_ctx = std::make_shared<Frame::Context>(*ctx);
  child_ctx->archive_dir = archive_path.empty() ? "" : archive_path + "/";
  child_ctx->source_file = std::move(children->source_file);
  child_ctx->current_ids = std::move(children->current_ids);
  child_ctx->source_part = children->source_part;
  node.children = std::make_shared<Frame>(std::move(child_ctx), level + 1, std::move(children->rows));
  return node;
}

Result<std::string> NodeBytes(const Dataset::State& s, const Node& node) {
  if (!node.is_file()) return s.Error("sample '" + node.id + "' is a " + node.type + ", not a FILE");
  auto bytes = ReadGdalPath(s, node.gdal_path, read::ExpectedMember(s, node));
  if (!bytes.ok()) return bytes.status().WithPrefix("sample '" + node.id + "'");
  return bytes;
}

std::string KeyText(const SampleKey& key) { return SampleKeyText(key); }

bool AllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// The id a key asks for (std::string or TextKey), or nullptr for a position.
const std::string* KeyId(const SampleKey& key) {
  if (const auto* t = std::get_if<TextKey>(&key)) return &t->text;
  return std::get_if<std::string>(&key);
}

std::string LevelText(int level) { return "level " + std::to_string(level); }

Status Ambiguous(const Dataset::State& s, const std::string& id, int64_t count, int level) {
  return Status::InvalidArgument(s.path + ": '" + id + "' is the id of " + std::to_string(count) + " samples at " +
                                 LevelText(level) +
                                 " (ids repeat across the parts of a TACOCAT or the sources of a concat): give a "
                                 "position (@N) instead");
}

Status NumericIdsError(const Dataset::State& s, const std::string& text, int level) {
  return Status::NotFound(s.path + ": no sample with id '" + text + "' at " + LevelText(level) +
                          "; ids at this level are numbers, so a number is not read as a position there (use @" + text +
                          " for the sample at position " + text + ")");
}

Status OutOfRange(const Dataset::State& s, int64_t index, uint64_t rows, int level) {
  return s.Error("index " + std::to_string(index) +
                 " out of range: " + (level == 0 ? std::string("the dataset has ") : LevelText(level) + " frame has ") +
                 std::to_string(rows) + " rows");
}

// The row of `rows` (level `level`) a key names (see SampleKey in taco/dataset.h).
Result<size_t> ResolveKey(const Dataset::State& s, const Table& rows, int level, const SampleKey& key) {
  const size_t n = rows.num_rows();
  if (const auto* index = std::get_if<int64_t>(&key)) {
    if (*index < 0 || static_cast<uint64_t>(*index) >= n) return OutOfRange(s, *index, n, level);
    return static_cast<size_t>(*index);
  }
  const std::string& id = *KeyId(key);
  if (rows.FindColumn("id") < 0) return s.Error("the rows have no id column");
  const Column& ids = rows.column("id");
  std::optional<size_t> found;
  int64_t count = 0;
  bool numeric_ids = false;
  for (size_t i = 0; i < n; ++i) {
    const Value& v = ids.values[i];
    if (!v.is<std::string>()) continue;
    const std::string& candidate = v.get<std::string>();
    if (candidate == id) {
      if (!found) found = i;
      ++count;
    }
    numeric_ids = numeric_ids || AllDigits(candidate);
  }
  if (count > 1) return Ambiguous(s, id, count, level);
  if (found) return *found;
  if (std::holds_alternative<TextKey>(key) && AllDigits(id)) {
    if (numeric_ids) return NumericIdsError(s, id, level);
    if (id.size() > 18) return OutOfRange(s, std::numeric_limits<int64_t>::max(), n, level);
    const int64_t index = std::stoll(id);
    if (static_cast<uint64_t>(index) >= n) return OutOfRange(s, index, n, level);
    return static_cast<size_t>(index);
  }
  return Status::NotFound(s.path + ": no sample with id '" + id + "' at " + LevelText(level));
}

}  // namespace

// ---- Frame ------------------------------------------------------------------------------

Frame::Frame(std::shared_ptr<Context> context, int level, Table rows)
    : context_(std::move(context)), level_(level), rows_(std::move(rows)) {}
Frame::~Frame() = default;

Table Frame::Data() const { return HideInternalColumns(rows_); }

Result<Node> Frame::Read(const SampleKey& key) const {
  TACO_ASSIGN_OR_RETURN(size_t row, ResolveKey(*context_->state, rows_, level_, key));
  return NodeFromRow(context_, level_, rows_, row, context_->archive_dir, true);
}

Result<std::string> Frame::ReadBytes(const SampleKey& key) const {
  TACO_ASSIGN_OR_RETURN(Node node, Read(key));
  return NodeBytes(*context_->state, node);
}

// ---- Dataset ----------------------------------------------------------------------------

struct Dataset::RowCache {
  Table rows;
  std::unordered_map<std::string, size_t> first_with_id;
  std::unordered_map<std::string, int64_t> shared;  // ids held by more than one row → count
  bool numeric_ids = false;                         // some id is all digits

  explicit RowCache(Table t) : rows(std::move(t)) {
    if (rows.FindColumn("id") < 0) return;
    const Column& ids = rows.column("id");
    for (size_t i = 0; i < ids.values.size(); ++i) {
      if (!ids.values[i].is<std::string>()) continue;
      const std::string& id = ids.values[i].get<std::string>();
      if (!first_with_id.emplace(id, i).second) {
        auto [it, inserted] = shared.emplace(id, 2);
        if (!inserted) ++it->second;
      }
      numeric_ids = numeric_ids || AllDigits(id);
    }
  }

  // The row a key names (as ResolveKey, in O(1)).
  Result<size_t> Find(const Dataset::State& s, const SampleKey& key) const {
    const std::string* id = KeyId(key);
    if (id == nullptr) return ResolveKey(s, rows, 0, key);
    if (auto dup = shared.find(*id); dup != shared.end()) return Ambiguous(s, *id, dup->second, 0);
    if (auto it = first_with_id.find(*id); it != first_with_id.end()) return it->second;
    if (std::holds_alternative<TextKey>(key) && AllDigits(*id)) {
      if (numeric_ids) return NumericIdsError(s, *id, 0);
      if (id->size() <= 18) return ResolveKey(s, rows, 0, SampleKey(static_cast<int64_t>(std::stoll(*id))));
      return OutOfRange(s, std::numeric_limits<int64_t>::max(), rows.num_rows(), 0);
    }
    return Status::NotFound(s.path + ": no sample with id '" + *id + "' at level 0");
  }
};

namespace {
constexpr int64_t kMaxCachedRows = 1000000;

// "DATA/" when the rows of `view` are level-0 rows (their archive path is "DATA/<id>"), else
// "" (a view over deeper levels: the archive path of its rows is not known here).
std::string LevelZeroDir(const Dataset::State& s, const std::string& view) {
  const std::optional<std::set<int>> levels = s.trusted.Find(view);
  return levels && *levels == std::set<int>{0} ? "DATA/" : "";
}
}  // namespace

Result<Node> Dataset::Read(const SampleKey& key) const {
  if (const auto* index = std::get_if<int64_t>(&key); index != nullptr && *index < 0) {
    return state_->Error("index " + std::to_string(*index) + " is negative");
  }
  std::shared_ptr<const RowCache> row_cache;  // this call's view of row_cache_
  {
    std::lock_guard<std::mutex> lock(mu_);  // many threads may Read() one Dataset
    if (row_cache_ == nullptr && view_ == "data_raw" && data_view_ == "data" && !state_->engine.started()) {
      // The whole dataset's rows without the engine when they can be read so (issue 28:
      // navigation does not start it); they are the rows of data_raw, level 0.
      auto direct = DirectLevelRows(*state_, true);
      if (!direct.ok()) return state_->Prefixed(direct.status());
      if (*direct) {
        row_cache_ = std::make_shared<RowCache>(std::move(**direct));
        reads_before_cache_ = std::numeric_limits<int>::min();
      }
    }
    if (row_cache_ == nullptr && ++reads_before_cache_ >= 2) {
      reads_before_cache_ = std::numeric_limits<int>::min();  // decide once
      TACO_ASSIGN_OR_RETURN(int64_t count, RowCount());
      if (count <= kMaxCachedRows) {
        // A view some rows of which cannot be read (a refused path, a forged protected value)
        // is not cached: each lookup then reads its own row, so the others stay reachable.
        auto rows = state_->engine->Query("SELECT * FROM " + view_);
        if (rows.ok()) row_cache_ = std::make_shared<RowCache>(std::move(*rows));
      }
    }
    row_cache = row_cache_;
  }
  if (row_cache != nullptr) {
    TACO_ASSIGN_OR_RETURN(size_t row, row_cache->Find(*state_, key));
    // data_raw holds level-0 rows (trusted as such once the engine made the view).
    const std::string dir = view_ == "data_raw" && data_view_ == "data" ? "DATA/" : LevelZeroDir(*state_, view_);
    return NodeFromRow(context_, 0, row_cache->rows, row, dir, dir == "DATA/");
  }
  // One query: the row at a position, or (up to two) rows with the id.
  const std::string* id = KeyId(key);
  std::string sql = "SELECT * FROM " + view_;
  sql += id == nullptr ? " LIMIT 1 OFFSET " + std::to_string(std::get<int64_t>(key))
                       : " WHERE id = " + QuoteString(*id) + " LIMIT 2";
  auto result = state_->engine->Query(sql);
  if (!result.ok()) return state_->Prefixed(result.status());
  if (result->num_rows() == 1) {
    const std::string dir = LevelZeroDir(*state_, view_);
    return NodeFromRow(context_, 0, *result, 0, dir, dir == "DATA/");
  }
  if (id != nullptr && result->num_rows() > 1) {
    TACO_ASSIGN_OR_RETURN(Table n,
                          state_->engine->Query("SELECT count(*) FROM " + view_ + " WHERE id = " + QuoteString(*id)));
    return Ambiguous(*state_, *id, n.columns.at(0).values.at(0).get<int64_t>(), 0);
  }
  if (id != nullptr && std::holds_alternative<TextKey>(key) && AllDigits(*id)) {
    TACO_ASSIGN_OR_RETURN(Table numeric, state_->engine->Query("SELECT 1 FROM " + view_ +
                                                               " WHERE regexp_full_match(id, '[0-9]+') LIMIT 1"));
    if (numeric.num_rows() > 0) return NumericIdsError(*state_, *id, 0);
    if (id->size() <= 18) return Read(SampleKey(static_cast<int64_t>(std::stoll(*id))));
  }
  if (id != nullptr) return Status::NotFound(state_->path + ": no sample with id '" + *id + "' at level 0");
  TACO_ASSIGN_OR_RETURN(int64_t count, RowCount());
  return OutOfRange(*state_, std::get<int64_t>(key), static_cast<uint64_t>(count), 0);
}

Result<Node> Dataset::ReadPath(const std::vector<SampleKey>& keys) const {
  if (keys.empty()) return state_->Error("no key given");
  TACO_ASSIGN_OR_RETURN(Node node, Read(keys[0]));
  for (size_t i = 1; i < keys.size(); ++i) {
    if (!node.children) {
      return state_->Error("sample '" + node.id + "' is a FILE; it has no child " + KeyText(keys[i]));
    }
    std::shared_ptr<const Frame> frame = node.children;
    TACO_ASSIGN_OR_RETURN(node, frame->Read(keys[i]));
  }
  return node;
}

Result<std::string> Dataset::ReadBytes(const Node& node) const { return NodeBytes(*state_, node); }

}  // namespace taco
