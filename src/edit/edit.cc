// Edit (see taco/edit.h).
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <unordered_map>

#include "edit/zip_inplace.h"
#include "format/container.h"
#include "io/location.h"
#include "table/engine.h"
#include "taco/convert.h"
#include "taco/dataset.h"
#include "taco/edit.h"
#include "taco/legacy.h"
#include "taco/writer.h"
#include "util/tree_sync.h"

namespace taco {
namespace {

using json = nlohmann::ordered_json;

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The edits of one level: key → (column → value), and the columns with their types.
struct MetadataEdits {
  bool by_path = false;
  std::vector<std::pair<std::string, DataType>> columns;
  std::unordered_map<std::string, size_t> rows;  // key → row
  Table table;
  std::set<std::string> used;
};

Result<MetadataEdits> LoadEdits(const std::string& file) {
  TACO_ASSIGN_OR_RETURN(auto engine, table::Engine::Open());
  const std::string lower = Lower(file);
  std::string reader = "read_csv_auto";
  if (EndsWith(lower, ".parquet")) reader = "read_parquet";
  if (EndsWith(lower, ".json") || EndsWith(lower, ".jsonl") || EndsWith(lower, ".ndjson")) reader = "read_json_auto";
  struct stat st;
  if (::stat(file.c_str(), &st) != 0) return Status::NotFound(file + ": no such file");
  auto t = engine->Query("SELECT * FROM " + reader + "(" + table::QuoteString(file) + ")");
  if (!t.ok()) return t.status().WithPrefix(file);
  MetadataEdits e;
  e.table = std::move(*t);
  const int id = e.table.FindColumn("id"), path = e.table.FindColumn("path");
  if (id < 0 && path < 0) return Status::InvalidArgument(file + ": needs a key column 'id' or 'path'");
  e.by_path = id < 0;
  const Column& keys = e.table.columns[static_cast<size_t>(e.by_path ? path : id)];
  for (size_t i = 0; i < keys.values.size(); ++i) {
    const Value& k = keys.values[i];
    const std::string key = k.is<std::string>() ? k.get<std::string>() : k.ToString();
    if (!e.rows.emplace(key, i).second) return Status::InvalidArgument(file + ": key '" + key + "' appears twice");
  }
  for (const Column& c : e.table.columns) {
    if (c.name == "id" || c.name == "path") continue;
    if (c.name == "type" || c.name.rfind("internal:", 0) == 0) {
      return Status::InvalidArgument(file + ": column '" + c.name + "' is reserved and cannot be edited");
    }
    Status key = ValidateExtensionKey(c.name);
    if (!key.ok()) return key.WithPrefix(file + ": column '" + c.name + "'");
    e.columns.emplace_back(c.name, c.type.id == TypeId::kNull ? DataType::String() : c.type);
  }
  if (e.columns.empty()) return Status::InvalidArgument(file + ": no column to edit besides the key");
  return e;
}

bool IsNumeric(TypeId id) {
  return id == TypeId::kInt32 || id == TypeId::kInt64 || id == TypeId::kFloat || id == TypeId::kDouble;
}

// A numeric edit value in the stored column's numeric type (CSV integers are int64, a
// column may be int32; a whole double may go to an integer column).
std::optional<Value> CastNumber(const Value& v, const DataType& to) {
  if (v.is_null()) return v;
  double d = 0;
  if (v.is<int32_t>())
    d = v.get<int32_t>();
  else if (v.is<int64_t>())
    d = static_cast<double>(v.get<int64_t>());
  else if (v.is<float>())
    d = v.get<float>();
  else if (v.is<double>())
    d = v.get<double>();
  else
    return std::nullopt;
  switch (to.id) {
    case TypeId::kInt32:
      if (d != static_cast<double>(static_cast<int32_t>(d))) return std::nullopt;
      return Value(static_cast<int32_t>(d));
    case TypeId::kInt64:
      if (v.is<int64_t>()) return v;
      if (d != static_cast<double>(static_cast<int64_t>(d))) return std::nullopt;
      return Value(static_cast<int64_t>(d));
    case TypeId::kFloat: return Value(static_cast<float>(d));
    case TypeId::kDouble: return Value(d);
    default: return std::nullopt;
  }
}

struct Applier {
  int level;
  MetadataEdits& edits;
  const std::string& file;
  std::map<std::string, DataType> stored;  // existing types at `level`
  std::unordered_map<std::string, int> id_count;

  void Count(const Tortilla& t, int depth) {
    for (const Sample& s : t.samples()) {
      if (depth == level) {
        ++id_count[s.id()];
        for (const Field& f : s.extensions()) stored.emplace(f.name, f.type);
      } else if (s.children()) {
        Count(*s.children(), depth + 1);
      }
    }
  }

  Result<Sample> Apply(const Sample& s, int depth, const std::string& path) {
    if (depth < level) {
      if (!s.children()) return s;
      TACO_ASSIGN_OR_RETURN(Tortilla kids, Walk(*s.children(), depth + 1, path));
      TACO_ASSIGN_OR_RETURN(Sample out, Sample::FromTortilla(s.id(), std::move(kids)));
      TACO_RETURN_IF_ERROR(out.Extend(s.extensions()));
      return out;
    }
    Sample out = s;
    const std::string key = edits.by_path ? path : s.id();
    auto row = edits.rows.find(key);
    if (!edits.by_path && id_count[s.id()] > 1 && row != edits.rows.end()) {
      return Status::InvalidArgument(file + ": id '" + s.id() + "' is not unique at level " + std::to_string(level) +
                                     ": key by 'path' instead");
    }
    if (row != edits.rows.end() && !s.is_padding()) edits.used.insert(key);
    for (const auto& [name, edit_type] : edits.columns) {
      auto it = stored.find(name);
      DataType type = edit_type;
      const bool convert = it != stored.end() && !(it->second == edit_type) && it->second.id != TypeId::kNull;
      if (convert) {
        if (!IsNumeric(it->second.id) || !IsNumeric(edit_type.id)) {
          return Status::InvalidArgument(file + ": column '" + name + "' is " + edit_type.ToString() +
                                         ", the dataset has " + it->second.ToString() + " at level " +
                                         std::to_string(level));
        }
        type = it->second;
      }
      Value value;
      bool replace = true;
      if (row != edits.rows.end() && !s.is_padding()) {
        value = edits.table.column(name).values[row->second];
        if (convert) {
          auto cast = CastNumber(value, type);
          if (!cast) {
            return Status::InvalidArgument(file + ": key '" + key + "' column '" + name + "': " + value.ToString() +
                                           " does not fit the stored " + type.ToString());
          }
          value = *cast;
        }
      } else {
        replace = false;
      }
      Value old;
      for (const Field& f : out.extensions()) {
        if (f.name == name) old = f.value;
      }
      const bool had = it != stored.end();
      if (had) TACO_RETURN_IF_ERROR(out.Pop(name));
      TACO_RETURN_IF_ERROR(out.Extend(Field{name, type, replace ? value : old, ""}));
    }
    return out;
  }

  Result<Tortilla> Walk(const Tortilla& t, int depth, const std::string& path) {
    std::vector<Sample> samples;
    for (const Sample& s : t.samples()) {
      TACO_ASSIGN_OR_RETURN(Sample out, Apply(s, depth, path.empty() ? s.id() : path + "/" + s.id()));
      samples.push_back(std::move(out));
    }
    TortillaOptions opts;
    opts.strict_schema = t.options().strict_schema;
    auto made = Tortilla::Make(samples, opts);
    if (made.ok()) return made;
    opts.strict_schema = false;
    return Tortilla::Make(std::move(samples), opts);
  }
};

Result<json> ParseCollectionFile(const std::string& file) {
  std::FILE* f = std::fopen(file.c_str(), "rb");
  if (f == nullptr) return Status::NotFound(file + ": cannot open");
  std::string text;
  char buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
  std::fclose(f);
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return Status::InvalidArgument(file + ": not a JSON object");
  return j;
}

std::string TempSibling(const std::string& path) {
  std::random_device rd;
  char hex[20];
  std::snprintf(hex, sizeof hex, "%08x", rd());
  const size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  return dir + "/." + name + ".edit-" + hex;
}

}  // namespace

Result<std::vector<std::string>> Edit(const std::string& path, const EditOptions& options) {
  if (options.collection_file.empty() && options.set.empty() && options.unset.empty() &&
      options.metadata_file.empty()) {
    return Status::InvalidArgument(path + ": nothing to edit (give --set, --unset, --collection or --metadata)");
  }
  TACO_ASSIGN_OR_RETURN(DatasetFormat detected, DetectFormat(path));
  const format::Container& container = format::Container::For(detected);
  // The result replaces the input, which needs a local file system (a remote dataset is only
  // read, into an output path of its own).
  const bool replaceable = io::Location::Of(path).is_local_filesystem();
  if (options.in_place && (!container.metadata_rewritable_in_place() || !replaceable)) {
    return Status::InvalidArgument(path + ": --in-place works on local TACO ZIP files only");
  }
  if (container.indexes_parts()) {
    return Status::NotSupported(path + ": edit the ZIPs of a TACOCAT one by one, then run taco tacocat again");
  }
  if (!options.output.empty() && options.in_place) {
    return Status::InvalidArgument("--in-place and an output path exclude each other");
  }
  if (!replaceable && options.output.empty()) {
    return Status::InvalidArgument(path + ": a remote dataset cannot be replaced: give an output path");
  }
  TACO_ASSIGN_OR_RETURN(std::unique_ptr<Dataset> ds, Dataset::Open(path, options.open));
  const LegacyInfo* legacy = ds->legacy();
  if (legacy && legacy->parts.size() > 1 && options.output.empty()) {
    return Status::InvalidArgument(path + ": a multi-part set cannot be replaced in place: give an output path");
  }
  Result<Taco> taco = Status::Internal("unset");
  const json original = ds->collection();
  if (legacy) {
    taco = LegacyToTaco(*ds);
  } else {
    RebuildOptions rebuild;
    rebuild.keep_root_padding = true;
    taco = RebuildTaco(*ds, *ds, rebuild);
  }
  if (!taco.ok()) return taco.status();

  // Collection edits.
  json c = taco->collection();
  if (!legacy && original.contains("taco_version")) c["taco_version"] = original["taco_version"];
  if (!options.collection_file.empty()) {
    TACO_ASSIGN_OR_RETURN(json patch, ParseCollectionFile(options.collection_file));
    for (const auto& [k, v] : patch.items()) c[k] = v;
  }
  for (const auto& [k, v] : options.set) {
    json parsed = json::parse(v, nullptr, false);
    c[k] = parsed.is_discarded() ? json(v) : parsed;
  }
  for (const std::string& k : options.unset) {
    if (!c.contains(k)) return Status::NotFound(path + ": the collection has no field '" + k + "'");
    c.erase(k);
  }
  for (const char* generated : {"taco:pit_schema", "taco:field_schema"}) {
    if (c.contains(generated))
      return Status::InvalidArgument(std::string(generated) + " is generated; it cannot be set");
  }
  if (legacy && legacy->flavor == LegacyFlavor::kTacoV1) {
    // The edited 2.0 fields win over the stored v1 object where they differ (CollectionToV1).
  }

  // Metadata edits.
  Tortilla root = taco->root();
  if (!options.metadata_file.empty()) {
    if (options.level < 0 || options.level >= taco->num_levels()) {
      return Status::InvalidArgument(path + ": level " + std::to_string(options.level) + " does not exist (levels 0.." +
                                     std::to_string(taco->num_levels() - 1) + ")");
    }
    TACO_ASSIGN_OR_RETURN(MetadataEdits edits, LoadEdits(options.metadata_file));
    Applier apply{options.level, edits, options.metadata_file, {}, {}};
    apply.Count(root, 0);
    TACO_ASSIGN_OR_RETURN(root, apply.Walk(root, 0, ""));
    for (const auto& [key, row] : edits.rows) {
      if (!edits.used.count(key)) {
        return Status::InvalidArgument(options.metadata_file + ": no sample " +
                                       (edits.by_path ? "at path '" : "with id '") + key + "' at level " +
                                       std::to_string(options.level));
      }
    }
  }
  auto edited = Taco::Make(std::move(root), c);
  if (!edited.ok()) return edited.status().WithPrefix(path + ": after the edit");

  if (options.in_place) {
    ds.reset();
    TACO_RETURN_IF_ERROR(legacy::RewriteZipMetadataInPlace(path, *edited, options.on_step));
    return std::vector<std::string>{path};
  }
  const std::string target = options.output.empty() ? TempSibling(path) : options.output;
  Result<std::vector<std::string>> written = Status::Internal("unset");
  if (legacy) {
    LegacyWriteOptions write;
    write.flavor = legacy->flavor;
    written = WriteLegacy(*edited, target, write);
  } else {
    CreateOptions create;
    create.format = container.is_tree() ? OutputFormat::kFolder : OutputFormat::kZip;
    create.split_size = 0;
    create.consolidate = false;
    written = Create(*edited, target, create);
  }
  if (!written.ok() || !options.output.empty()) return written;
  ds.reset();
  // Replace the dataset with the new one.
  std::error_code ec;
  if (container.is_tree()) {
    // Only the files whose bytes changed are replaced (util/tree_sync.h).
    auto replaced = ReplaceChangedFiles(path, target);
    if (!replaced.ok()) {
      std::filesystem::remove_all(target, ec);
      return replaced.status().WithPrefix(path + ": cannot move the edited files into place");
    }
  } else {
    std::filesystem::rename(target, path, ec);
    if (ec) {
      std::filesystem::remove(target);
      return Status::IOError(path + ": cannot replace the dataset: " + ec.message());
    }
  }
  return std::vector<std::string>{path};
}

}  // namespace taco
