// TacoFromDirectory: directory tree + metadata files + computed extensions → Taco
// (see taco/tree_builder.h).
#include "taco/tree_builder.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "taco/extensions.h"
#include "util/json_text.h"
#include "util/exception_guard.h"
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
                          " samples of level " + std::to_string(level) + " have no metadata row (their columns are null):";
    for (size_t i = 0; i < missing.size() && i < kListed; ++i) message += (i ? ", " : " ") + Quote(missing[i]->rel);
    if (missing.size() > kListed) message += ", ...";
    if (options.require_metadata) return Status::InvalidArgument(message + " (--require-metadata)");
    warnings->push_back(std::move(message));
  }
  return Status::OK();
}

Status ApplyMetadata(const std::string& src, const DirectoryOptions& options,
                     const std::unordered_map<std::string, TreeNode*>& index,
                     const std::vector<std::vector<TreeNode*>>& levels, std::vector<std::string>* warnings) {
  const std::vector<std::string>& files = options.metadata_files;
  if (files.empty()) return Status::OK();
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

// Sample-level extensions: computed for FILE nodes, nulls for FOLDER nodes on levels that
// hold FILE nodes.
Status ApplyExtensions(const std::vector<std::string>& names, const ext::ExtensionSettings& settings,
                       const std::vector<std::vector<TreeNode*>>& levels,
                       const std::function<void(size_t, size_t)>& progress) {
  std::vector<std::string> sample_level;
  for (const std::string& name : names) {
    if (name != kMajorTom) sample_level.push_back(name);
  }
  if (sample_level.empty()) return Status::OK();
  size_t total = 0, done = 0;
  for (const auto& level : levels) {
    for (const TreeNode* node : level) total += node->is_dir ? 0 : sample_level.size();
  }
  if (progress) progress(0, total);
  for (const auto& level : levels) {
    for (const std::string& name : sample_level) {
      std::vector<Field> schema;  // of this extension on this level, from its first FILE
      bool have_schema = false;
      for (TreeNode* node : level) {
        if (node->is_dir) continue;
        Result<std::vector<Field>> fields = ext::ComputeByName(name, node->path, settings);
        if (!fields.ok()) return fields.status().WithPrefix(node->path + ": extension " + Quote(name));
        if (!have_schema) {
          schema = *fields;
          for (Field& f : schema) f.value = Value();
          have_schema = true;
        }
        for (Field& f : *fields) node->fields.push_back(std::move(f));
        if (progress) progress(++done, total);
      }
      if (!have_schema) continue;
      for (TreeNode* node : level) {
        if (node->is_dir) node->fields.insert(node->fields.end(), schema.begin(), schema.end());
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
    Result<Sample> sample = Sample::FromTortilla(node.id, std::move(children));
    if (!sample.ok()) return sample.status().WithPrefix(node.path);
    Status status = sample->Extend(std::move(node.fields));
    if (!status.ok()) return status.WithPrefix(node.path);
    return sample;
  }
  Result<Sample> sample = Sample::FromFile(node.id, node.path);
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

std::vector<std::string> DirectoryExtensionNames() {
  std::vector<std::string> names = ext::KnownExtensionNames();
  names.emplace_back(kMajorTom);
  return names;
}

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
    return options.collection_name.empty() ? collection_status
                                           : collection_status.WithPrefix(options.collection_name);
  }
  const std::vector<std::string> known = DirectoryExtensionNames();
  bool majortom = false;
  std::set<std::string> seen_ext;
  for (const std::string& name : options.extensions) {
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      std::string list;
      for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
      return Status::InvalidArgument("extension " + Quote(name) + " is unknown (known: " + list + ")");
    }
    if (!seen_ext.insert(name).second) return Status::InvalidArgument("extension " + Quote(name) + " given twice");
    majortom = majortom || name == kMajorTom;
  }
  if (options.pad_to.has_value() && *options.pad_to == 0) {
    return Status::InvalidArgument("pad_to must be at least 1");
  }

  TACO_ASSIGN_OR_RETURN(TreeNode root, write::ScanDirectory(src));
  if (!options.order_file.empty()) TACO_RETURN_IF_ERROR(write::ApplyOrderFile(options.order_file, &root));
  const std::unordered_map<std::string, TreeNode*> index = write::IndexNodes(&root);
  std::vector<std::vector<TreeNode*>> levels;
  CollectLevels(&root, &levels);

  std::vector<std::string> warnings;  // reported once the Taco is built
  TACO_RETURN_IF_ERROR(ApplyMetadata(root.path, options, index, levels, &warnings));
  TACO_RETURN_IF_ERROR(ApplyExtensions(options.extensions, options.extension_settings, levels, options.progress));

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
  if (seen_ext.count("stats-categorical") && !options.extension_settings.categorical_classes.empty() &&
      collection.is_object() && !collection.contains("geotiff:class_values")) {
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
