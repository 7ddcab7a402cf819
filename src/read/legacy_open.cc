// Dataset::Open for Tortilla 0.5 / TACO v1 BLOB files (see legacy_open.h, spec/LEGACY.md):
// the container's parts, footers and nested tortillas come from format/legacy/
// legacy_container.h; here they are decoded with the engine and become the level tables.
#include "read/legacy_open.h"

#include <algorithm>
#include <unordered_map>

#include "format/legacy/legacy_container.h"
#include "table/engine.h"
#include "taco/io.h"
#include "taco/legacy.h"

namespace taco::read {
namespace {

using format::blob::Holder;
using format::blob::NestedFooter;
using format::blob::Part;
using format::blob::Presented;

std::string ParentOf(const std::string& p) {
  const size_t slash = p.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "";
  return p.substr(0, slash);
}

// The `pointer` key-value of a Parquet footer (LEGACY.md §11), read with the engine.
Result<std::optional<std::string>> FooterPointer(table::Engine& engine, const std::string& bytes,
                                                 const std::string& where) {
  const std::string mounted = engine.Mount(MemoryReader(bytes, where), where);
  auto t = engine.Query("SELECT decode(value) FROM parquet_kv_metadata(" + table::QuoteString(mounted) +
                        ") WHERE key = encode('pointer')");
  engine.Unmount(mounted);
  if (!t.ok()) return t.status();
  if (t->num_rows() == 0 || !t->columns[0].values[0].is<std::string>()) return std::optional<std::string>();
  return std::optional<std::string>(t->columns[0].values[0].get<std::string>());
}

}  // namespace

Status OpenLegacy(Dataset::State& state, const OpenOptions& options) {
  (void)options;
  auto info = std::make_shared<LegacyInfo>();
  TACO_ASSIGN_OR_RETURN(Part first, format::blob::OpenPart(state.path));
  info->layout = first.header.p2 ? "P2" : "P3";
  info->flavor = first.header.is_taco ? LegacyFlavor::kTacoV1 : LegacyFlavor::kTortilla;
  info->driver = first.header.driver;
  TACO_ASSIGN_OR_RETURN(std::vector<Part> parts, format::blob::OpenSet(std::move(first), *info));

  std::unordered_map<std::string, size_t> by_file;
  for (size_t i = 0; i < parts.size(); ++i) {
    const Part& p = parts[i];
    if (!by_file.emplace(p.file_name, i).second) return state.Error("two parts named " + p.file_name);
    LegacyPart lp;
    lp.path = p.given;
    lp.size = p.reader->size();
    lp.footer_offset = p.header.footer_offset;
    lp.footer_length = p.header.footer_length;
    lp.partitions = p.header.partitions;
    lp.collection_offset = p.header.collection_offset;
    lp.collection_length = p.header.collection_length;
    lp.number = p.number;
    info->parts.push_back(lp);
    if (p.header.is_taco && p.header.collection_offset != p.header.footer_offset + p.header.footer_length) {
      info->notes.push_back(p.given + ": the COLLECTION does not follow the footer (CO " +
                            std::to_string(p.header.collection_offset) + ", FO + FL " +
                            std::to_string(p.header.footer_offset + p.header.footer_length) + ")");
    }
    if (i > 0 && p.collection != parts[0].collection) {
      info->notes.push_back(p.given + ": its COLLECTION differs from the first part's; the first part's is used");
    }
  }

  // Collection.
  if (parts[0].header.is_taco) {
    info->collection_bytes = parts[0].collection;
    state.collection = nlohmann::ordered_json::parse(parts[0].collection, nullptr, /*allow_exceptions=*/false);
    if (state.collection.is_discarded() || !state.collection.is_object()) {
      return Status::Corruption(parts[0].given + ": the COLLECTION [" +
                                std::to_string(parts[0].header.collection_offset) + ", +" +
                                std::to_string(parts[0].header.collection_length) + ") is not a JSON object");
    }
  } else {
    state.collection = nlohmann::ordered_json::object();
  }

  // Level 0: every part's footer, in part order; chained footers kept as extra tables.
  table::Engine& engine = *state.engine;
  std::vector<Table> levels;
  std::vector<std::vector<std::string>> level_paths;
  {
    std::vector<Table> pieces;
    std::vector<std::string> paths;
    int64_t next_id = 0;
    std::vector<std::vector<std::string>> chains(parts.size());
    for (size_t i = 0; i < parts.size(); ++i) {
      const Part& p = parts[i];
      auto raw = engine.ReadParquet(MemoryReader(p.footer, p.given + ": footer"));
      if (!raw.ok()) return raw.status();
      Holder at;
      at.part = i;
      at.base = 0;
      at.limit = p.reader->size();
      at.driver = p.header.p2 ? p.header.driver : "";
      TACO_ASSIGN_OR_RETURN(Presented presented, format::blob::Present(*raw, at, p, next_id, info->notes));
      next_id += static_cast<int64_t>(presented.rows.num_rows());
      pieces.push_back(std::move(presented.rows));
      paths.insert(paths.end(), presented.paths.begin(), presented.paths.end());
      TACO_ASSIGN_OR_RETURN(chains[i],
                            format::blob::FollowChain(p, [&engine](const std::string& bytes, const std::string& where) {
                              return FooterPointer(engine, bytes, where);
                            }));
    }
    levels.push_back(format::blob::UnionLevel(pieces, info->notes, 0));
    level_paths.push_back(std::move(paths));
    size_t longest = 0;
    for (const auto& c : chains) longest = std::max(longest, c.size());
    info->chained_footers = static_cast<int>(longest);
    for (size_t k = 0; k < longest; ++k) {
      std::string list;
      for (size_t i = 0; i < parts.size(); ++i) {
        if (k >= chains[i].size()) continue;
        const std::string name = parts[i].given + ": chained footer " + std::to_string(k + 1);
        list += (list.empty() ? "" : ", ") + table::QuoteString(engine.Mount(MemoryReader(chains[i][k], name), name));
      }
      TACO_RETURN_IF_ERROR(engine.Execute("CREATE VIEW footer_chain" + std::to_string(k + 1) +
                                          " AS SELECT * FROM read_parquet([" + list + "], union_by_name = true)"));
    }
  }

  // Deeper levels: the footers of the nested tortillas, level by level.
  while (true) {
    const Table& above = levels.back();
    std::vector<NestedFooter> nested = format::blob::ReadNested(above, level_paths.back(), parts, by_file);
    if (nested.empty()) break;
    const int level = static_cast<int>(levels.size());
    if (level >= format::blob::kMaxDepth) {
      return Status::NotSupported(parts[0].given + ": tortillas nested " + std::to_string(level + 1) +
                                  " levels deep (at most 6 levels are read)");
    }
    std::vector<Table> pieces;
    std::vector<std::string> paths;
    int64_t next_id = 0;
    for (NestedFooter& f : nested) {
      if (!f.footer.ok()) return f.footer.status();
      const Part& p = parts[f.holder.part];
      const std::string name = p.given + ": sample '" + f.holder.path + "' footer";
      auto raw = engine.ReadParquet(MemoryReader(std::move(*f.footer), name));
      if (!raw.ok()) return raw.status();
      TACO_ASSIGN_OR_RETURN(Presented presented, format::blob::Present(*raw, f.holder, p, next_id, info->notes));
      if (presented.rows.num_rows() == 0) {
        info->notes.push_back(p.given + ": sample '" + f.holder.path + "' is a TORTILLA without items");
      }
      next_id += static_cast<int64_t>(presented.rows.num_rows());
      pieces.push_back(std::move(presented.rows));
      paths.insert(paths.end(), presented.paths.begin(), presented.paths.end());
    }
    levels.push_back(format::blob::UnionLevel(pieces, info->notes, level));
    level_paths.push_back(std::move(paths));
  }

  for (size_t level = 0; level < levels.size(); ++level) {
    const std::string name = "level" + std::to_string(level) + "_table";
    Status st = engine.CreateTable(name, levels[level]);
    if (!st.ok()) return state.Prefixed(st);
  }
  state.num_levels = static_cast<int>(levels.size());
  state.vsi_root = ParentOf(parts[0].vsi);
  state.containers.clear();
  for (const Part& p : parts) state.containers[state.vsi_root + "/" + p.file_name] = p.reader;
  state.legacy = info;
  table::Engine* raw_engine = state.engine.get();
  const int num_levels = state.num_levels;
  const std::string path = state.path;
  state.children_of = [raw_engine, num_levels, path](const Table& row, int level) -> Result<Table> {
    const int c = row.FindColumn("internal:current_id");
    if (c < 0 || !row.columns[static_cast<size_t>(c)].values.at(0).is<int64_t>()) {
      return Status::InvalidArgument(path + ": navigation needs internal:current_id (select from data_raw)");
    }
    if (level + 1 >= num_levels) return Status::Corruption(path + ": no level " + std::to_string(level + 1));
    const int64_t id = row.columns[static_cast<size_t>(c)].values[0].get<int64_t>();
    return raw_engine->Query("SELECT * FROM level" + std::to_string(level + 1) +
                             "_table WHERE \"internal:parent_id\" = " + std::to_string(id) +
                             " ORDER BY \"internal:current_id\"");
  };
  return Status::OK();
}

}  // namespace taco::read
