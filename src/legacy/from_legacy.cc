// LegacyToTaco, ConvertLegacy and IsLegacyPath (spec/LEGACY.md §13).
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <set>
#include <unordered_map>

#include "format/container.h"
#include "legacy/legacy_tree.h"
#include "taco/convert.h"
#include "taco/dataset.h"
#include "taco/legacy.h"
#include "taco/writer.h"

namespace taco {
namespace {

using json = nlohmann::ordered_json;

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

bool EndsWithNoCase(std::string_view s, std::string_view suffix) {
  if (s.size() < suffix.size()) return false;
  return std::equal(suffix.begin(), suffix.end(), s.end() - static_cast<ptrdiff_t>(suffix.size()), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
  });
}

// A TACO 2.0 id for a legacy id (spec §5.1 rules), unique among `taken`.
std::string SanitiseId(const std::string& id, std::set<std::string>& taken) {
  std::string s;
  for (char c : id) s += (c == '/' || c == '\\' || c == ':' || c == '\0') ? '_' : c;
  if (s.empty() || s == "." || s == "..") s = "_" + s;
  if (StartsWith(s, "__")) s = "x" + s;
  std::string out = s;
  for (int k = 2; !taken.insert(out).second; ++k) out = s + "_" + std::to_string(k);
  return out;
}

struct Levels {
  std::vector<Table> rows;                                                 // per level, by current id
  std::vector<std::unordered_map<int64_t, std::vector<size_t>>> children;  // level L: parent id → rows of L
};

struct Builder {
  Dataset& ds;
  Levels levels;
  std::vector<std::string>& notes;
  std::map<std::string, RangeReaderPtr> readers;
  std::vector<size_t> max_children;  // per level >= 1: the largest sibling count
  size_t renamed = 0;
  bool time_middle = false;

  Result<RangeReaderPtr> Reader(const std::string& file) {
    auto it = readers.find(file);
    if (it != readers.end()) return it->second;
    TACO_ASSIGN_OR_RETURN(RangeReaderPtr r, OpenRangeReader(ds.vsi_root() + "/" + file));
    readers.emplace(file, r);
    return r;
  }

  std::vector<Field> Fields(const Table& t, size_t i) {
    std::vector<Field> fields;
    const Value* start = nullptr;
    const Value* end = nullptr;
    for (const Column& c : t.columns) {
      const std::string& n = c.name;
      if (n == "id" || n == "type" || StartsWith(n, "internal:") || n == "tortilla:offset" || n == "tortilla:length") {
        continue;
      }
      DataType type = c.type.id == TypeId::kNull ? DataType::String() : c.type;
      if (n == "tortilla:data_split") {
        fields.push_back({"split", DataType::String(), c.values[i].is<std::string>() ? c.values[i] : Value(), ""});
      } else if (n == "stac:raster_shape") {
        fields.push_back({"stac:tensor_shape", type, c.values[i], ""});
      } else {
        fields.push_back({n, type, c.values[i], ""});
      }
      if (n == "stac:time_start" && c.type.id == TypeId::kTimestampUs) start = &c.values[i];
      if (n == "stac:time_end" && c.type.id == TypeId::kTimestampUs) end = &c.values[i];
    }
    if (t.FindColumn("stac:time_start") >= 0 && t.FindColumn("stac:time_end") >= 0 &&
        t.column("stac:time_start").type.id == TypeId::kTimestampUs &&
        t.column("stac:time_end").type.id == TypeId::kTimestampUs && t.FindColumn("stac:time_middle") < 0) {
      Value middle;
      if (start && end && start->is<TimestampUs>() && end->is<TimestampUs>()) {
        middle = TimestampUs{(start->get<TimestampUs>().micros + end->get<TimestampUs>().micros) / 2};
      }
      fields.push_back({"stac:time_middle", DataType::TimestampUs(), middle, "invented: (time_start + time_end) / 2"});
      time_middle = true;
    }
    return fields;
  }

  Result<Sample> Make(int level, size_t i, std::set<std::string>& taken, const std::string& parent) {
    const Table& t = levels.rows[static_cast<size_t>(level)];
    const std::string raw = t.column("id").values[i].get<std::string>();
    const std::string id = SanitiseId(raw, taken);
    if (id != raw) ++renamed;
    const std::string where = parent.empty() ? raw : parent + "/" + raw;
    Result<Sample> sample = Status::Internal("unset");
    if (t.column("type").values[i].get<std::string>() == "FOLDER") {
      const int64_t cid = t.column("internal:current_id").values[i].get<int64_t>();
      if (static_cast<size_t>(level) + 1 >= levels.children.size()) {
        return Status::Corruption(ds.path() + ": sample '" + where + "' is a FOLDER below the last level");
      }
      const auto& kids = levels.children[static_cast<size_t>(level) + 1];
      auto it = kids.find(cid);
      if (it == kids.end() || it->second.empty()) {
        return Status::InvalidArgument(ds.path() + ": sample '" + where +
                                       "' is a TORTILLA without items (TACO 2.0 FOLDERs need children)");
      }
      std::vector<Sample> children;
      std::set<std::string> child_ids;
      for (size_t row : it->second) {
        TACO_ASSIGN_OR_RETURN(Sample s, Make(level + 1, row, child_ids, where));
        children.push_back(std::move(s));
      }
      TortillaOptions opts;
      const size_t max = max_children.at(static_cast<size_t>(level) + 1);
      if (pad && children.size() < max) opts.pad_to = max;
      auto tortilla = Tortilla::Make(std::move(children), opts);
      if (!tortilla.ok()) return tortilla.status().WithPrefix(ds.path() + ": sample '" + where + "'");
      sample = Sample::FromTortilla(id, std::move(*tortilla));
    } else {
      TACO_ASSIGN_OR_RETURN(RangeReaderPtr reader,
                            Reader(t.column("internal:source_file").values[i].get<std::string>()));
      sample =
          Sample::FromRange(id, reader, static_cast<uint64_t>(t.column("internal:offset").values[i].get<int64_t>()),
                            static_cast<uint64_t>(t.column("internal:size").values[i].get<int64_t>()));
    }
    if (!sample.ok()) return sample.status().WithPrefix(ds.path() + ": sample '" + where + "'");
    Status st = sample->Extend(Fields(t, i));
    if (!st.ok()) return st.WithPrefix(ds.path() + ": sample '" + where + "'");
    return sample;
  }

  bool pad = false;
};

json InventedCollection(const Dataset& ds, std::vector<std::string>& notes) {
  std::string name = ds.path();
  const size_t slash = name.find_last_of('/');
  if (slash != std::string::npos) name = name.substr(slash + 1);
  std::string id;
  for (char c : name.substr(0, name.find('.'))) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-') id += c;
  }
  if (id.empty()) id = "tortilla";
  notes.push_back("collection invented (a Tortilla has none): id '" + id +
                  "', dataset_version 'unknown', licenses ['unknown'], providers [unknown], tasks ['other']");
  return json{{"id", id},
              {"dataset_version", "unknown"},
              {"description", "Converted from the Tortilla file " + name},
              {"licenses", json::array({"unknown"})},
              {"providers", json::array({json{{"name", "unknown"}}})},
              {"tasks", json::array({"other"})}};
}

}  // namespace

Result<Taco> LegacyToTaco(Dataset& ds, std::vector<std::string>* notes_out) {
  const LegacyInfo* info = ds.legacy();
  if (info == nullptr) return Status::InvalidArgument(ds.path() + ": not a Tortilla / TACO v1 dataset");
  std::vector<std::string> local;
  std::vector<std::string>& notes = notes_out ? *notes_out : local;
  Builder b{ds, {}, notes, {}, {}, 0, false};
  for (int level = 0; level < ds.num_levels(); ++level) {
    TACO_ASSIGN_OR_RETURN(Table t, ds.QueryRaw("SELECT * FROM level" + std::to_string(level) +
                                               "_table ORDER BY \"internal:current_id\""));
    std::unordered_map<int64_t, std::vector<size_t>> kids;
    size_t max = 0;
    if (level > 0) {
      const Column& parents = t.column("internal:parent_id");
      for (size_t i = 0; i < t.num_rows(); ++i) {
        auto& v = kids[parents.values[i].get<int64_t>()];
        v.push_back(i);
        max = std::max(max, v.size());
      }
    }
    b.levels.rows.push_back(std::move(t));
    b.levels.children.push_back(std::move(kids));
    b.max_children.push_back(max);
  }
  // The collection (LEGACY.md §13.3).
  json collection;
  std::vector<std::string> invented_fields;
  if (info->flavor == LegacyFlavor::kTacoV1) {
    collection = legacy::CollectionFromV1(ds.collection(), &notes);
    collection["legacy:collection"] = ds.collection();
  } else {
    collection = InventedCollection(ds, notes);
  }
  if (!ValidateCollection(collection).ok() && collection.contains("extent")) {
    notes.push_back("collection: the v1 extent is not a valid TACO 2.0 extent: dropped (kept in legacy:collection)");
    collection.erase("extent");
  }
  Status collection_ok = ValidateCollection(collection);
  if (!collection_ok.ok()) return collection_ok.WithPrefix(ds.path() + ": the mapped collection");

  auto build = [&]() -> Result<Taco> {
    b.renamed = 0;
    std::vector<Sample> roots;
    std::set<std::string> taken;
    const Table& top = b.levels.rows[0];
    for (size_t i = 0; i < top.num_rows(); ++i) {
      TACO_ASSIGN_OR_RETURN(Sample s, b.Make(0, i, taken, ""));
      roots.push_back(std::move(s));
    }
    TACO_ASSIGN_OR_RETURN(Tortilla root, Tortilla::Make(std::move(roots)));
    json c = collection;
    json conversion = json::object();
    conversion["source"] = info->Describe();
    json parts = json::array();
    for (const auto& p : info->parts) parts.push_back(p.path);
    conversion["parts"] = parts;
    json invented = json::array({"type"});
    if (b.time_middle) invented.push_back("stac:time_middle");
    conversion["invented_columns"] = invented;
    c["legacy:conversion"] = conversion;
    return Taco::Make(std::move(root), c);
  };
  Result<Taco> taco = build();
  if (!taco.ok() && taco.status().message().find("PIT") != std::string::npos) {
    const Status first = taco.status();
    b.pad = true;
    taco = build();
    if (taco.ok()) {
      notes.push_back("heterogeneous tree (" + first.message() +
                      "): shorter FOLDERs padded with __TACOPAD__ samples (0-byte FILEs) to be position-isomorphic");
    } else {
      return Status::InvalidArgument(
          ds.path() + ": cannot be a TACO 2.0 tree: " + first.message() +
          (taco.status().message() != first.message() ? "; padding does not help: " + taco.status().message() : ""));
    }
  }
  if (!taco.ok()) return taco.status().WithPrefix(ds.path());
  if (b.renamed > 0) {
    notes.push_back(std::to_string(b.renamed) +
                    " ids changed to follow TACO 2.0 id rules (the original is kept in tortilla:id)");
  }
  notes.push_back(
      "kept as extension columns: tortilla:id, tortilla:file_format; renamed: tortilla:data_split → split, "
      "stac:raster_shape → stac:tensor_shape; invented: type" +
      std::string(b.time_middle ? ", stac:time_middle" : "") +
      "; recomputed: offsets and lengths; dropped: nested headers and DP");
  // Record the notes in the collection too.
  json c = taco->collection();
  c["legacy:conversion"]["notes"] = notes;
  return Taco::Make(Tortilla(taco->root()), c);
}

// IsLegacyPath is format detection: read/format_detect.cc.

Result<std::vector<std::string>> ConvertLegacy(const std::string& input, const std::string& output,
                                               const LegacyConvertOptions& options, std::vector<std::string>* notes) {
  struct stat st;
  if (output.empty()) return Status::InvalidArgument("the output path is empty");
  if (::lstat(output.c_str(), &st) == 0) return Status::AlreadyExists(output + ": already exists");
  ConvertTarget target = options.target;
  if (target == ConvertTarget::kAuto) {
    if (EndsWithNoCase(output, ".tortilla")) {
      target = ConvertTarget::kTortilla;
    } else if (EndsWithNoCase(output, ".taco")) {
      target = ConvertTarget::kTacoV1;
    } else if (EndsWithNoCase(output, ".zip") || EndsWithNoCase(output, ".tacozip")) {
      target = ConvertTarget::kZip;
    } else {
      target = ConvertTarget::kFolder;
    }
  }
  TACO_ASSIGN_OR_RETURN(std::unique_ptr<Dataset> ds, Dataset::Open(input, options.open));
  std::vector<std::string> local;
  std::vector<std::string>& n = notes ? *notes : local;
  Result<Taco> taco = Status::Internal("unset");
  if (!format::Container::For(ds->format()).members_have_names()) {  // a BLOB: samples named from its footers
    taco = LegacyToTaco(*ds, &n);
  } else {
    RebuildOptions rebuild;
    taco = RebuildTaco(*ds, *ds, rebuild);
  }
  if (!taco.ok()) return taco.status();
  if (target == ConvertTarget::kZip || target == ConvertTarget::kFolder) {
    CreateOptions create;
    create.format = target == ConvertTarget::kZip ? OutputFormat::kZip : OutputFormat::kFolder;
    create.split_size = target == ConvertTarget::kZip ? options.split_size : 0;
    create.progress = options.progress;
    return Create(*taco, output, create);
  }
  LegacyWriteOptions write;
  write.flavor = target == ConvertTarget::kTortilla ? LegacyFlavor::kTortilla : LegacyFlavor::kTacoV1;
  write.part_size = options.part_size;
  write.progress = options.progress;
  return WriteLegacy(*taco, output, write, &n);
}

}  // namespace taco
