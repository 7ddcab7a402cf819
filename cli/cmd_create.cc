// `taco create SRC OUT`: build a dataset from a directory tree (DESIGN §4) with
// TacoFromDirectory (taco/tree_builder.h) and write it with Create (taco/writer.h).
// Prints the paths written, one per line; errors exit 2 and leave nothing at OUT.
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>

#include "cli_common.h"
#include "progress.h"
#include "taco/legacy.h"
#include "taco/tree_builder.h"
#include "taco/writer.h"

namespace taco::cli {
namespace {

struct CreateArgs {
  std::string src;
  std::string out;
  std::string collection;
  std::string order;
  std::vector<std::string> metadata;
  std::vector<std::string> extensions;
  std::string time_column;
  std::vector<std::string> exclude;
  std::vector<double> classes;
  size_t pad_to = 0;
  bool non_strict = false;
  std::string split_size = "4GB";
  std::vector<std::string> group_by;
  bool no_consolidate = false;
  bool require_metadata = false;
  std::string format = "auto";
  std::string part_size;
  const CLI::Option* split_size_option = nullptr;  // to tell a given --split-size from the default
};

bool ZipNamed(const std::string& path) {
  std::string ext = path.size() >= 4 ? path.substr(path.size() - 4) : "";
  std::string ext8 = path.size() >= 8 ? path.substr(path.size() - 8) : "";
  for (auto* e : {&ext, &ext8}) {
    for (char& c : *e) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return ext == ".zip" || ext8 == ".tacozip";
}

// "taco: warning: ..." for each ZIP-only option given with a FOLDER output.
void WarnIgnoredZipOptions(const CreateArgs& args, const Context& ctx) {
  const bool folder = args.format == "folder" || (args.format == "auto" && !ZipNamed(args.out));
  if (!folder) return;
  std::vector<std::string> ignored;
  if (args.split_size_option != nullptr && args.split_size_option->count() > 0) ignored.push_back("--split-size");
  if (!args.group_by.empty()) ignored.push_back("--group-by");
  if (args.no_consolidate) ignored.push_back("--no-consolidate");
  for (const std::string& option : ignored) {
    Note(ctx, "taco: warning: " + option + " is ignored: it applies to ZIP outputs, and " + args.out +
                  " is written as a FOLDER");
  }
}

int RunCreate(const CreateArgs& args, const Context& ctx) {
  struct stat st;
  if (::lstat(args.out.c_str(), &st) == 0) {
    return ReportError(Status::AlreadyExists(args.out + ": already exists (the output must not exist)"));
  }
  WarnIgnoredZipOptions(args, ctx);
  Result<uint64_t> split_size = ParseSize(args.split_size);
  if (!split_size.ok()) return ReportError(split_size.status().WithPrefix("--split-size"));
  const bool legacy = args.format == "tortilla" || args.format == "taco-v1";
  if (!args.part_size.empty() && !legacy) {
    return ReportError(Status::InvalidArgument("--part-size: only for --format tortilla or taco-v1"));
  }
  Result<nlohmann::ordered_json> collection = nlohmann::ordered_json::object();
  if (args.collection.empty() && args.format == "tortilla") {
    // A Tortilla stores no collection: a placeholder satisfies the model's checks.
    collection = nlohmann::ordered_json{
        {"id", "tortilla"},        {"dataset_version", "unknown"},         {"description", "Tortilla"},
        {"licenses", {"unknown"}}, {"providers", {{{"name", "unknown"}}}}, {"tasks", {"other"}}};
  } else if (args.collection.empty()) {
    return ReportError(Status::InvalidArgument("--collection is required (except for --format tortilla)"));
  } else {
    collection = LoadCollectionFile(args.collection);
  }
  if (!collection.ok()) return ReportError(collection.status());

  DirectoryOptions options;
  options.collection = std::move(*collection);
  options.collection_name = args.collection;
  options.order_file = args.order;
  options.metadata_files = args.metadata;
  Result<std::vector<ext::ExtensionSpec>> specs = ext::ParseExtensionSpecs(args.extensions);
  if (!specs.ok()) return ReportError(specs.status());
  options.extensions = std::move(*specs);
  options.allow_external_rasters = ctx.global.allow_external_rasters;  // the extensions read the inputs
  options.time_column = args.time_column;
  options.exclude.insert(options.exclude.end(), args.exclude.begin(), args.exclude.end());
  if (!args.classes.empty()) {
    const bool categorical = std::any_of(options.extensions.begin(), options.extensions.end(),
                                         [](const ext::ExtensionSpec& e) { return e.name == "stats-categorical"; });
    if (!categorical) {
      return ReportError(
          Status::InvalidArgument("--classes: only used by --ext stats-categorical, which is not given"));
    }
    options.extension_settings.categorical_classes = args.classes;
  }
  if (args.pad_to > 0) options.pad_to = args.pad_to;
  options.strict_schema = !args.non_strict;
  options.require_metadata = args.require_metadata;
  options.warning = [&ctx](const std::string& message) { Note(ctx, "taco: warning: " + message); };
  const bool show_progress = ProgressEnabled(ctx);
  Result<Taco> taco = Status::Internal("not built");
  {
    ProgressBar bar("extensions", ProgressBar::Unit::kCount, show_progress && !args.extensions.empty());
    options.progress = [&bar](size_t done, size_t total) { bar.Update(done, total); };
    taco = TacoFromDirectory(args.src, options);
  }
  if (!taco.ok()) return ReportError(taco.status());

  if (legacy) {
    LegacyWriteOptions write;
    write.flavor = args.format == "tortilla" ? LegacyFlavor::kTortilla : LegacyFlavor::kTacoV1;
    if (!args.part_size.empty()) {
      Result<uint64_t> part_size = ParseSize(args.part_size);
      if (!part_size.ok()) return ReportError(part_size.status().WithPrefix("--part-size"));
      write.part_size = *part_size;
    }
    std::vector<std::string> notes;
    Result<std::vector<std::string>> written = Status::Internal("not written");
    {
      ProgressBar bar("writing", ProgressBar::Unit::kBytes, show_progress);
      write.progress = [&bar](uint64_t done, uint64_t total) { bar.Update(done, total); };
      written = WriteLegacy(*taco, args.out, write, &notes);
    }
    if (!written.ok()) return ReportError(written.status());
    if (!ctx.global.quiet) {
      for (const std::string& note : notes) std::cerr << "note: " << note << "\n";
      for (const std::string& path : *written) std::cout << path << "\n";
    }
    return kExitOk;
  }
  CreateOptions create;
  create.format = args.format == "zip"      ? OutputFormat::kZip
                  : args.format == "folder" ? OutputFormat::kFolder
                                            : OutputFormat::kAuto;
  create.split_size = *split_size;
  create.group_by = args.group_by;
  create.consolidate = !args.no_consolidate;
  Result<std::vector<std::string>> written = Status::Internal("not written");
  {
    ProgressBar bar("writing", ProgressBar::Unit::kBytes, show_progress);
    create.progress = [&bar](uint64_t done, uint64_t total) { bar.Update(done, total); };
    written = Create(*taco, args.out, create);
  }
  if (!written.ok()) return ReportError(written.status());
  if (!ctx.global.quiet) {
    for (const std::string& path : *written) std::cout << path << "\n";
  }
  return kExitOk;
}

void AddCreateCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<CreateArgs>();
  CLI::App* cmd = app.add_subcommand(
      "create",
      "Build a dataset from a directory tree: a sub-directory is a FOLDER sample, a file a FILE sample, the "
      "entry name is the sample id. Hidden entries (names starting with '.') are skipped; symlinks to files "
      "are followed, symlinks to directories are refused. Siblings are ordered by name (byte order) unless "
      "--order says otherwise. Prints the paths written.");
  cmd->add_option("src", args->src, "Source directory")->required();
  cmd->add_option("out", args->out,
                  "Output (.tacozip/.zip → ZIP, else FOLDER); must not exist. Names a reader would take for "
                  "another format are refused (a FOLDER named *.zip/*.tacozip, any dataset named *.tacocat)")
      ->required();
  cmd->add_option("--collection", args->collection,
                  "JSON file with the collection fields (id, dataset_version, description, licenses, providers, "
                  "tasks, ...); required except for --format tortilla");
  cmd->add_option("--order", args->order,
                  "Text file, one path relative to SRC per line: listed siblings come first in that order, the "
                  "others follow by name");
  cmd->add_option("--metadata", args->metadata,
                  "Extension columns keyed by a 'path' column (path relative to SRC): CSV (types inferred: int64, "
                  "double, bool, timestamp[us], string; empty = null), JSON Lines (.jsonl/.ndjson/.json; arrays "
                  "become lists) or Parquet. Repeatable. A row whose path is no sample is an error; samples "
                  "without a row, on a level that has rows, are a warning (see --require-metadata)")
      ->allow_extra_args(false);
  cmd->add_flag("--require-metadata", args->require_metadata,
                "Make it an error when a sample has no --metadata row while other samples of its level have one");
  cmd->add_option("--ext", args->extensions,
                  "Computed extensions, comma-separated: stac, istac, stats, stats-categorical (FILE samples), "
                  "majortom (after stac/istac). NAME:GLOB computes NAME only for the FILEs whose name matches "
                  "GLOB (a GLOB with '/' matches the path under SRC): --ext stac,stats:image.tif,"
                  "stats-categorical:mask.tif (both fill geotiff:stats); a GLOB matching no FILE is an error. "
                  "stac/istac also fill FOLDER samples from the files below them (lon/lat footprint box, its "
                  "centre, earliest start, latest end)")
      ->allow_extra_args(false);
  cmd->add_option("--exclude", args->exclude,
                  "Entries of SRC that are not samples (repeatable): a GLOB without '/' matches an entry's name, "
                  "one with '/' its path below SRC (e.g. --exclude '*.json' --exclude 'tile_*/preview.png'). "
                  "GDAL's '*.aux.xml' sidecars are always left out")
      ->type_name("GLOB")
      ->allow_extra_args(false);
  cmd->add_option("--time-column", args->time_column,
                  "The --metadata column (timestamp or ISO-8601 text) that gives a sample's time: it becomes its "
                  "stac:/istac: time_start, and FOLDERs above get the earliest and latest, so that --datetime "
                  "filters on level 0 and the collection's temporal extent work (needs --ext stac or istac)");
  cmd->add_option("--classes", args->classes,
                  "With --ext stats-categorical: the class values, comma-separated (e.g. 0,1,2,3), so that every "
                  "sample reports the same classes in the same order (default: each file's own distinct values)")
      ->delimiter(',')
      ->allow_extra_args(false);
  cmd->add_option("--pad-to", args->pad_to,
                  "Pad every folder (and a root of FILEs) with __TACOPAD__<k> FILE samples to a multiple of N "
                  "children")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--non-strict", args->non_strict,
                "Align differing extension schemas (union, nulls) instead of requiring identical ones, and store "
                "--metadata columns whose values mix types (1 and \"a\", a date column with \"yesterday\") as "
                "text, with a warning per column, instead of refusing them");
  args->split_size_option =
      cmd->add_option("--split-size", args->split_size, "ZIP only: split into parts of at most SIZE (e.g. 4GB, 512MB)")
          ->capture_default_str();
  cmd->add_option("--group-by", args->group_by, "ZIP only: one ZIP per value of these level-0 columns")
      ->delimiter(',')
      ->allow_extra_args(false);
  cmd->add_flag("--no-consolidate", args->no_consolidate,
                "ZIP only: when --split-size or --group-by makes more than one ZIP, do not also write "
                "`.tacocat/` beside them (consolidate later with `taco tacocat`)");
  cmd->add_option("--format", args->format,
                  "zip, folder, tortilla (Tortilla 0.5, #y), taco-v1 (TACO v1, WX), or auto (from OUT's extension)")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "zip", "folder", "tortilla", "taco-v1"}));
  cmd->add_option("--part-size", args->part_size,
                  "tortilla/taco-v1 only: parts of at most SIZE data bytes, named NAME.NNNN.part.EXT from 0000");
  cmd->callback([args, &ctx] { ctx.exit_code = RunCreate(*args, ctx); });
}
const CommandRegistration kRegistered(20, &AddCreateCommand);

}  // namespace
}  // namespace taco::cli
