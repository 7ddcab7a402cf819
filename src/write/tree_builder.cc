// TacoFromDirectory: directory tree + metadata files + computed extensions → Taco
// (see taco/tree_builder.h).
#include "taco/tree_builder.h"

#include <fnmatch.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "ext/ext_threads.h"
#include "gdal/sample_raster.h"
#include "io/thread_config.h"
#include "taco/extensions.h"
#include "util/exception_guard.h"
#include "util/iso_datetime.h"
#include "util/json_text.h"
#include "util/ordered_parallel.h"
#include "util/quote.h"
#include "write/metadata_files.h"
#include "write/tree_builder_scan.h"

namespace taco {
namespace {

using write::TreeNode;

constexpr std::string_view kMajorTom = "majortom";

using util::Quote;

// Nodes per level (level0 first), in tree order.
void CollectLevels(TreeNode* node, std::vector<std::vector<TreeNode*>>* levels) {
  for (TreeNode& child : node->children) {
    const size_t level = static_cast<size_t>(child.level);
    if (levels->size() <= level) levels->resize(level + 1);
    (*levels)[level].push_back(&child);
    if (child.is_dir) CollectLevels(&child, levels);
  }
}

constexpr size_t kListed = 5;  // paths named in a message before "..."

// Extension results computed ahead of the one being merged, per thread: bounds memory (each
// result is a few values; rasters are closed once computed) while keeping threads busy.
constexpr size_t kExtWindowPerThread = 64;

// Metadata columns → fields of every node of the levels each column belongs to.
// Every metadata row whose path is no sample, in one error (the first in full, then a count
// and a few more).
Status UnmatchedRows(const std::string& src, const std::vector<const write::MetadataRow*>& rows) {
  const write::MetadataRow& first = *rows.front();
  std::string message = first.where + ": path " + Quote(first.path) + " matches no sample under " + src;
  if (rows.size() > 1) {
    message += " (and " + std::to_string(rows.size() - 1) + " more:";
    for (size_t i = 1; i < rows.size() && i <= kListed; ++i) {
      message += (i > 1 ? ", " : " ") + rows[i]->where + " " + Quote(rows[i]->path);
    }
    message += rows.size() - 1 > kListed ? ", ...)" : ")";
  }
  return Status::InvalidArgument(message);
}

// Samples of the levels metadata describes that no row covers: a warning, or an error with
// require_metadata.
Status UncoveredSamples(const std::vector<std::vector<TreeNode*>>& levels, const std::vector<bool>& described,
                        const std::unordered_set<const TreeNode*>& covered, const DirectoryOptions& options,
                        std::vector<std::string>* warnings) {
  for (size_t level = 0; level < levels.size(); ++level) {
    if (!described[level]) continue;
    std::vector<const TreeNode*> missing;
    for (const TreeNode* node : levels[level]) {
      if (covered.count(node) == 0) missing.push_back(node);
    }
    if (missing.empty()) continue;
    std::string message = std::to_string(missing.size()) + " of " + std::to_string(levels[level].size()) +
                          " samples of level " + std::to_string(level) +
                          " have no metadata row (their columns are null):";
    for (size_t i = 0; i < missing.size() && i < kListed; ++i) message += (i ? ", " : " ") + Quote(missing[i]->rel);
    if (missing.size() > kListed) message += ", ...";
    if (options.require_metadata) return Status::InvalidArgument(message + " (--require-metadata)");
    warnings->push_back(std::move(message));
  }
  return Status::OK();
}

Status ApplyMetadata(TreeNode* root, const DirectoryOptions& options, const std::vector<std::vector<TreeNode*>>& levels,
                     std::vector<std::string>* warnings) {
  const std::vector<std::string>& files = options.metadata_files;
  if (files.empty()) return Status::OK();
  const std::string& src = root->path;
  // Built only here: a map of every node by path costs more than the scan of small trees.
  const std::unordered_map<std::string, TreeNode*> index = write::IndexNodes(root);
  write::MetadataSet set;
  for (const std::string& file : files) TACO_RETURN_IF_ERROR(set.AddFile(file));
  std::vector<std::string> widened;
  TACO_RETURN_IF_ERROR(set.Finish(options.strict_schema, &widened));
  for (std::string& w : widened) warnings->push_back(std::move(w));
  const size_t num_columns = set.columns().size();
  // Per node: column → cell. Per level: which columns have a cell there.
  std::unordered_map<const TreeNode*, std::map<size_t, const write::MetadataCell*>> cells;
  std::vector<std::vector<bool>> used(levels.size(), std::vector<bool>(num_columns, false));
  std::vector<bool> described(levels.size(), false);
  std::unordered_set<const TreeNode*> covered;
  std::vector<const write::MetadataRow*> unmatched;
  for (const write::MetadataRow& row : set.rows()) {
    auto it = index.find(row.path);
    if (it == index.end()) {
      unmatched.push_back(&row);
      continue;
    }
    const TreeNode* node = it->second;
    covered.insert(node);
    described[static_cast<size_t>(node->level)] = true;
    for (const auto& [column, cell] : row.cells) {
      cells[node][column] = &cell;
      used[static_cast<size_t>(node->level)][column] = true;
    }
  }
  if (!unmatched.empty()) return UnmatchedRows(src, unmatched);
  TACO_RETURN_IF_ERROR(UncoveredSamples(levels, described, covered, options, warnings));
  for (size_t level = 0; level < levels.size(); ++level) {
    for (TreeNode* node : levels[level]) {
      auto node_cells = cells.find(node);
      for (size_t column = 0; column < num_columns; ++column) {
        if (!used[level][column]) continue;
        Field field{set.columns()[column], set.types()[column], Value(), ""};
        if (node_cells != cells.end()) {
          auto cell = node_cells->second.find(column);
          if (cell != node_cells->second.end()) field.value = set.CellValue(column, *cell->second);
        }
        node->fields.push_back(std::move(field));
      }
    }
  }
  return Status::OK();
}

// One `--ext NAME[:GLOB]` entry.
struct ExtEntry {
  std::string text;  // as given
  std::string name;
  std::string glob;  // empty: every FILE
  size_t matched = 0;
};

bool FolderCapable(const std::string& name) { return name == "stac" || name == "istac"; }

// GLOB against the FILE's name, or against its path relative to src when GLOB holds a '/'.
bool Matches(const ExtEntry& e, const TreeNode& node) {
  if (node.is_dir) return false;
  if (e.glob.empty()) return true;
  if (e.glob.find('/') != std::string::npos) return ::fnmatch(e.glob.c_str(), node.rel.c_str(), FNM_PATHNAME) == 0;
  return ::fnmatch(e.glob.c_str(), node.id.c_str(), 0) == 0;
}

// The sample-level entries of `specs` (made by ext::ParseExtensionSpecs, or by hand: an
// unknown name is refused as the parser refuses it); `majortom` says whether the tortilla
// extension was asked for.
Result<std::vector<ExtEntry>> SampleEntries(const std::vector<ext::ExtensionSpec>& specs, bool* majortom) {
  const std::vector<std::string> known = ext::ExtensionSpecNames();
  std::vector<ExtEntry> entries;
  for (const ext::ExtensionSpec& s : specs) {
    if (std::find(known.begin(), known.end(), s.name) == known.end()) {
      std::string list;
      for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
      return Status::InvalidArgument("extension " + Quote(s.name) + " is unknown (known: " + list + ")");
    }
    if (s.name == kMajorTom) {
      *majortom = true;
      continue;
    }
    ExtEntry e;
    e.text = s.text.empty() ? s.name + (s.glob.empty() ? "" : ":" + s.glob) : s.text;
    e.name = s.name;
    e.glob = s.glob;
    entries.push_back(std::move(e));
  }
  return entries;
}

// Sample-level extensions. Each entry is computed for the FILE nodes it matches; on every
// level the columns are the union of what was computed there (entry order; two entries
// giving the same column, e.g. stats and stats-categorical, share it), and the nodes it was
// not computed for get nulls. STAC/ISTAC columns also go to every level holding a FOLDER
// (as nulls here, filled from the children when the FOLDER is built) once they were
// computed for some FILE. A pattern that matches no FILE is an error naming it.
Status ApplyExtensions(std::vector<ExtEntry>& entries, const ext::ExtensionSettings& settings,
                       bool allow_external_rasters, size_t extension_threads, const std::string& src,
                       const std::vector<std::vector<TreeNode*>>& levels,
                       const std::function<void(size_t, size_t)>& progress) {
  if (entries.empty()) return Status::OK();
  size_t total = 0, done = 0;
  for (const auto& level : levels) {
    for (const TreeNode* node : level) {
      for (const ExtEntry& e : entries) total += Matches(e, *node) ? 1 : 0;
    }
  }
  if (progress) progress(0, total);
  // Per level: the column union, and per node its computed values (and which entry gave them).
  struct Computed {
    std::map<std::string, std::pair<Value, const ExtEntry*>> values;
  };
  std::vector<std::vector<Field>> columns(levels.size());
  std::vector<std::unordered_map<const TreeNode*, Computed>> computed(levels.size());
  auto add_column = [](std::vector<Field>* cols, const Field& f, const ExtEntry& e) -> Status {
    for (const Field& c : *cols) {
      if (c.name != f.name) continue;
      if (!(c.type == f.type)) {
        return Status::InvalidArgument("extension " + Quote(e.text) + ": column " + Quote(f.name) + " has type " +
                                       f.type.ToString() + " here and " + c.type.ToString() + " from another --ext");
      }
      return Status::OK();
    }
    cols->push_back(Field{f.name, f.type, Value(), f.description});
    return Status::OK();
  };
  // The (level, entry, FILE) computations in that nesting order. They run on a pool of
  // threads (each opens its own GDAL datasets; nothing GDAL is shared) and are consumed here
  // in this order, so columns, values, progress and the first error do not depend on the
  // thread count.
  struct Task {
    size_t level;
    ExtEntry* entry;
    TreeNode* node;
  };
  std::vector<Task> tasks;
  tasks.reserve(total);
  for (size_t l = 0; l < levels.size(); ++l) {
    for (ExtEntry& e : entries) {
      for (TreeNode* node : levels[l]) {
        if (Matches(e, *node)) tasks.push_back(Task{l, &e, node});
      }
    }
  }
  // Runs on the workers, with the caller's thread-local GDAL options installed.
  auto compute = io::WithCallerGdalConfig([&tasks, &settings, allow_external_rasters](size_t i) {
    ext::internal::ScopedExternalRasters external(allow_external_rasters);
    return ext::ComputeByName(tasks[i].entry->name, tasks[i].node->path, settings);
  });
  auto consume = [&](size_t i, Result<std::vector<Field>> fields) -> Status {
    const size_t l = tasks[i].level;
    ExtEntry& e = *tasks[i].entry;
    TreeNode* node = tasks[i].node;
    if (!fields.ok()) return fields.status().WithPrefix(node->path + ": extension " + Quote(e.text));
    ++e.matched;
    Computed& c = computed[l][node];
    for (Field& f : *fields) {
      TACO_RETURN_IF_ERROR(add_column(&columns[l], f, e));
      auto [it, inserted] = c.values.emplace(f.name, std::make_pair(std::move(f.value), &e));
      if (!inserted) {
        return Status::InvalidArgument(node->path + ": matched by both --ext " + Quote(it->second.second->text) +
                                       " and " + Quote(e.text) + ", which both give the column " + Quote(f.name) +
                                       " (make their file patterns disjoint)");
      }
    }
    if (progress) progress(++done, total);
    return Status::OK();
  };
  const size_t threads = extension_threads > 0 ? extension_threads : ext::internal::ExtensionThreads();
  TACO_RETURN_IF_ERROR(util::OrderedParallel(tasks.size(), threads, kExtWindowPerThread * threads, compute, consume));
  for (const ExtEntry& e : entries) {
    if (!e.glob.empty() && e.matched == 0) {
      return Status::InvalidArgument("extension " + Quote(e.text) + ": the pattern " + Quote(e.glob) +
                                     " matches no FILE sample under " + src);
    }
  }
  for (size_t l = 0; l < levels.size(); ++l) {
    const bool has_folder =
        std::any_of(levels[l].begin(), levels[l].end(), [](const TreeNode* n) { return n->is_dir; });
    if (has_folder) {
      for (const ExtEntry& e : entries) {
        if (!FolderCapable(e.name) || e.matched == 0) continue;
        for (const Field& f : e.name == "stac" ? ext::StacSchema() : ext::IstacSchema()) {
          TACO_RETURN_IF_ERROR(add_column(&columns[l], f, e));
        }
      }
    }
    for (TreeNode* node : levels[l]) {
      auto c = computed[l].find(node);
      for (const Field& col : columns[l]) {
        Field f = col;
        if (c != computed[l].end()) {
          auto v = c->second.values.find(col.name);
          if (v != c->second.values.end()) f.value = v->second.first;
        }
        node->fields.push_back(std::move(f));
      }
    }
  }
  return Status::OK();
}

// --time-column: the named metadata column's value becomes the sample's stac:/istac:
// time_start (an instant: time_end and time_middle stay null).
Status ApplyTimeColumn(const std::string& column, const std::vector<std::vector<TreeNode*>>& levels) {
  const std::string what = "--time-column " + Quote(column);
  bool found = false;
  for (const auto& level : levels) {
    for (TreeNode* node : level) {
      const Field* source = nullptr;
      for (const Field& f : node->fields) {
        if (f.name == column) source = &f;
      }
      if (source == nullptr) continue;
      found = true;
      if (source->type.id != TypeId::kTimestampUs && source->type.id != TypeId::kString &&
          source->type.id != TypeId::kNull) {
        return Status::InvalidArgument(what + ": the column has type " + source->type.ToString() +
                                       ", not a time (timestamp or ISO-8601 text)");
      }
      if (source->value.is_null()) continue;
      int64_t micros = 0;
      if (source->value.is<TimestampUs>()) {
        micros = source->value.get<TimestampUs>().micros;
      } else if (!source->value.is<std::string>() ||
                 !util::ParseIsoDatetime(source->value.get<std::string>(), &micros)) {
        return Status::InvalidArgument(what + ": sample " + Quote(node->rel) + ": " +
                                       Quote(source->value.is<std::string>() ? source->value.get<std::string>() : "?") +
                                       " is not an ISO-8601 date or datetime");
      }
      bool set = false;
      for (Field& f : node->fields) {
        if (f.name == "stac:time_start" || f.name == "istac:time_start") {
          f.value = TimestampUs{micros};
          set = true;
        }
      }
      if (!set) {
        return Status::InvalidArgument(what + ": sample " + Quote(node->rel) +
                                       " has a time but no stac:/istac: columns to hold it (add --ext stac or istac)");
      }
    }
  }
  if (!found) return Status::InvalidArgument(what + ": no --metadata column has that name");
  return Status::OK();
}

// A FOLDER node's STAC/ISTAC columns (nulls until now) from its built children. A time of
// its own (--time-column) is kept, with its subtree's ignored.
Status FillFolderGeo(TreeNode& node, const Tortilla& children) {
  for (const std::string prefix : {"stac", "istac"}) {
    bool has = false, own_time = false;
    for (const Field& f : node.fields) {
      if (f.name.rfind(prefix + ":", 0) != 0) continue;
      has = true;
      if ((f.name == prefix + ":time_start" || f.name == prefix + ":time_end") && !f.value.is_null()) own_time = true;
    }
    if (!has) continue;
    Result<std::vector<Field>> fields =
        prefix == "stac" ? ext::StacFromChildren(children) : ext::IstacFromChildren(children);
    if (!fields.ok()) return fields.status().WithPrefix(node.path + ": extension " + Quote(prefix));
    for (const Field& computed : *fields) {
      if (own_time && computed.name.find(":time_") != std::string::npos) continue;
      for (Field& f : node.fields) {
        if (f.name == computed.name && f.value.is_null()) f.value = computed.value;
      }
    }
  }
  return Status::OK();
}

bool HasCentroid(const Tortilla& tortilla) {
  for (const auto& [name, type] : tortilla.schema()) {
    if (name == "stac:centroid" || name == "istac:centroid") return true;
  }
  return false;
}

struct BuildContext {
  TortillaOptions tortilla_options;
  bool majortom = false;
  size_t majortom_applied = 0;
};

Result<Tortilla> BuildTortilla(TreeNode& dir, BuildContext& ctx);

Result<Sample> BuildSample(TreeNode& node, BuildContext& ctx) {
  if (node.is_dir) {
    TACO_ASSIGN_OR_RETURN(Tortilla children, BuildTortilla(node, ctx));
    TACO_RETURN_IF_ERROR(FillFolderGeo(node, children));
    Result<Sample> sample = Sample::FromTortilla(node.id, std::move(children));
    if (!sample.ok()) return sample.status().WithPrefix(node.path);
    Status status = sample->Extend(std::move(node.fields));
    if (!status.ok()) return status.WithPrefix(node.path);
    return sample;
  }
  Result<Sample> sample = Sample::FromScannedFile(node.id, node.path, node.size);
  if (!sample.ok()) return sample.status().WithPrefix(node.path);
  Status status = sample->Extend(std::move(node.fields));
  if (!status.ok()) return status.WithPrefix(node.path);
  return sample;
}

Result<Tortilla> BuildTortilla(TreeNode& dir, BuildContext& ctx) {
  std::vector<Sample> samples;
  samples.reserve(dir.children.size());
  for (TreeNode& child : dir.children) {
    TACO_ASSIGN_OR_RETURN(Sample sample, BuildSample(child, ctx));
    samples.push_back(std::move(sample));
  }
  TortillaOptions options = ctx.tortilla_options;
  // Root FOLDERs are never padded: a FILE pad beside them would break the one-type rule.
  if (dir.level < 0 && !samples.empty() && samples[0].type() == SampleType::kFolder) options.pad_to.reset();
  Result<Tortilla> tortilla = Tortilla::Make(std::move(samples), options);
  if (!tortilla.ok()) return tortilla.status().WithPrefix(dir.path);
  if (ctx.majortom && HasCentroid(*tortilla)) {
    Result<Tortilla> extended = ext::ExtendWith(*tortilla, ext::MajorTomExtension());
    if (!extended.ok()) return extended.status().WithPrefix(dir.path + ": extension 'majortom'");
    ++ctx.majortom_applied;
    return extended;
  }
  return tortilla;
}

}  // namespace

std::vector<std::string> DirectoryExtensionNames() { return ext::ExtensionSpecNames(); }

Result<nlohmann::ordered_json> LoadCollectionFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::NotFound(path + ": cannot open the collection file");
  std::ostringstream text;
  text << in.rdbuf();
  auto parsed = util::ParseJsonText(text.str(), path);
  if (!parsed.ok()) return Status::InvalidArgument(parsed.status().message());
  nlohmann::ordered_json collection = std::move(*parsed);
  if (!collection.is_object()) {
    return Status::InvalidArgument(path + ": expected a JSON object with the collection fields, got " +
                                   std::string(collection.type_name()));
  }
  Status status = ValidateCollection(collection);
  if (!status.ok()) return status.WithPrefix(path);
  return collection;
}

static Result<Taco> TacoFromDirectoryUnguarded(const std::string& src, const DirectoryOptions& options) {
  Status collection_status = ValidateCollection(options.collection);
  if (!collection_status.ok()) {
    return options.collection_name.empty() ? collection_status : collection_status.WithPrefix(options.collection_name);
  }
  bool majortom = false;
  TACO_ASSIGN_OR_RETURN(std::vector<ExtEntry> entries, SampleEntries(options.extensions, &majortom));
  if (options.pad_to.has_value() && *options.pad_to == 0) {
    return Status::InvalidArgument("pad_to must be at least 1");
  }

  TACO_ASSIGN_OR_RETURN(TreeNode root, write::ScanDirectory(src, options.exclude));
  if (!options.order_file.empty()) TACO_RETURN_IF_ERROR(write::ApplyOrderFile(options.order_file, &root));
  std::vector<std::vector<TreeNode*>> levels;
  CollectLevels(&root, &levels);

  std::vector<std::string> warnings;  // reported once the Taco is built
  TACO_RETURN_IF_ERROR(ApplyMetadata(&root, options, levels, &warnings));
  TACO_RETURN_IF_ERROR(ApplyExtensions(entries, options.extension_settings, options.allow_external_rasters,
                                       options.extension_threads, root.path, levels, options.progress));
  if (!options.time_column.empty()) TACO_RETURN_IF_ERROR(ApplyTimeColumn(options.time_column, levels));

  BuildContext ctx;
  ctx.tortilla_options.pad_to = options.pad_to;
  ctx.tortilla_options.strict_schema = options.strict_schema;
  ctx.majortom = majortom;
  TACO_ASSIGN_OR_RETURN(Tortilla tortilla, BuildTortilla(root, ctx));
  if (majortom && ctx.majortom_applied == 0) {
    return Status::InvalidArgument(
        "extension 'majortom' needs a stac:centroid or istac:centroid column (add the stac or istac extension "
        "before it)");
  }
  nlohmann::ordered_json collection = options.collection;
  // The classes of stats-categorical, so that readers can name the probabilities (taco/stats.h).
  const bool categorical =
      std::any_of(entries.begin(), entries.end(), [](const ExtEntry& e) { return e.name == "stats-categorical"; });
  if (categorical && !options.extension_settings.categorical_classes.empty() && collection.is_object() &&
      !collection.contains("geotiff:class_values")) {
    collection["geotiff:class_values"] = options.extension_settings.categorical_classes;
  }
  Result<Taco> taco = Taco::Make(std::move(tortilla), collection);
  if (!taco.ok()) return taco.status().WithPrefix(root.path);
  if (options.warning) {
    for (const std::string& w : warnings) options.warning(w);
  }
  return taco;
}

// The library boundary: nothing a dependency throws escapes (util/exception_guard.h).
Result<Taco> TacoFromDirectory(const std::string& src, const DirectoryOptions& options) {
  return util::GuardExceptions(src, [&] { return TacoFromDirectoryUnguarded(src, options); });
}

}  // namespace taco
