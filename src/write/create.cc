// Create(): format choice, splitting / grouping into parts, atomic outputs (FORMAT §1.6, §7.5).
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <string_view>

#include "taco/log.h"
#include "taco/writer.h"
#include "util/exception_guard.h"
#include "write/atomic_output.h"
#include "write/metadata_columns.h"
#include "write/outputs.h"
#include "write/tacocat_internal.h"

namespace taco {
namespace write {

Result<PreparedTaco> Prepare(const Taco& taco, bool meta_with_ids) {
  PreparedTaco p;
  TACO_ASSIGN_OR_RETURN(p.tables, model::BuildLevelTables(taco));
  if (meta_with_ids) TACO_RETURN_IF_ERROR(UseLevelRowsAsMeta(p.tables));
  TACO_ASSIGN_OR_RETURN(nlohmann::ordered_json collection, model::BuildCollection(taco, p.tables));
  p.collection_json = collection.dump(4, ' ', /*ensure_ascii=*/false, nlohmann::ordered_json::error_handler_t::replace);
  p.collection_json += '\n';
  return p;
}

}  // namespace write

namespace {

namespace fs = std::filesystem;

bool HasZipSuffix(const std::string& path) {
  std::string ext = fs::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext == ".zip" || ext == ".tacozip";
}

// One output: a Taco and where it goes.
struct Part {
  Taco taco;
  std::string path;
};

// The reader detects the format from the name (FORMAT §5.4): refuse names it would read
// as something else, so that every output opens.
Status CheckOutputName(const std::string& output, OutputFormat format) {
  std::string name = fs::path(output).lexically_normal().filename().string();
  if (name.empty()) name = fs::path(output).lexically_normal().parent_path().filename().string();
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  auto ends = [&](std::string_view suffix) {
    return lower.size() >= suffix.size() && lower.compare(lower.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  if (ends(".tacocat") || ends("__tacocat__")) {
    return Status::InvalidArgument(output + ": a " + (format == OutputFormat::kZip ? "ZIP" : "FOLDER") +
                                   " dataset may not be named *.tacocat or __TACOCAT__ (readers would open it as a "
                                   "TACOCAT index)");
  }
  if (format == OutputFormat::kZip) return Status::OK();
  if (name == "DATA" || name == "METADATA") {
    return Status::InvalidArgument(output + ": a FOLDER dataset may not be named '" + name + "'");
  }
  if (ends(".zip") || ends(".tacozip")) {
    return Status::InvalidArgument(output +
                                   ": a FOLDER dataset may not be named *.zip or *.tacozip (readers would "
                                   "open it as a ZIP); drop the suffix or write a ZIP (--format zip)");
  }
  return Status::OK();
}

// "{stem}{infix}{suffix}" beside `output`.
std::string Sibling(const std::string& output, const std::string& infix) {
  fs::path p(output);
  return (p.parent_path() / (p.stem().string() + infix + p.extension().string())).string();
}

std::string SanitizeGroupValue(const std::string& value) {
  std::string out;
  for (char c : value) {
    bool bad = std::string_view("/\\:*?\"<>|'").find(c) != std::string_view::npos ||
               std::isspace(static_cast<unsigned char>(c)) || c == '_';
    if (bad) {
      if (!out.empty() && out.back() != '_') out += '_';
      if (out.empty()) out += '_';
    } else {
      out += c;
    }
  }
  size_t b = out.find_first_not_of('_'), e = out.find_last_not_of('_');
  return b == std::string::npos ? std::string() : out.substr(b, e - b + 1);
}

Result<Taco> SubTaco(const Taco& taco, std::vector<Sample> samples) {
  TortillaOptions opts = taco.root().options();
  opts.pad_to.reset();  // the parts keep the padding samples they were given
  TACO_ASSIGN_OR_RETURN(Tortilla root, Tortilla::Make(std::move(samples), opts));
  nlohmann::ordered_json collection = taco.collection();
  collection.erase("extent");  // recomputed per part (FORMAT §1.6)
  return Taco::Make(std::move(root), std::move(collection));
}

Result<std::vector<Part>> SplitBySize(const Taco& taco, const std::string& output, uint64_t limit) {
  std::vector<std::vector<Sample>> chunks(1);
  uint64_t used = 0;
  for (const Sample& s : taco.root().samples()) {
    if (!chunks.back().empty() && used + s.size_bytes() > limit) {
      chunks.emplace_back();
      used = 0;
    }
    chunks.back().push_back(s);
    used += s.size_bytes();
  }
  std::vector<Part> parts;
  if (chunks.size() == 1) {
    parts.push_back({taco, output});
    return parts;
  }
  for (size_t i = 0; i < chunks.size(); ++i) {
    char infix[32];
    std::snprintf(infix, sizeof infix, "_part%04zu", i + 1);
    TACO_ASSIGN_OR_RETURN(Taco part, SubTaco(taco, std::move(chunks[i])));
    parts.push_back({std::move(part), Sibling(output, infix)});
  }
  return parts;
}

Result<std::vector<Part>> GroupBy(const Taco& taco, const std::string& output, const std::vector<std::string>& cols) {
  std::map<std::string, std::vector<Sample>> groups;
  for (const Sample& s : taco.root().samples()) {
    std::string key;
    for (const std::string& col : cols) {
      auto it =
          std::find_if(s.extensions().begin(), s.extensions().end(), [&](const Field& f) { return f.name == col; });
      if (it == s.extensions().end()) {
        if (s.is_padding()) continue;
        return Status::InvalidArgument("group_by: sample '" + s.id() + "' has no column '" + col + "'");
      }
      if (!key.empty()) key += '_';
      key += it->value.ToString();
    }
    groups[key].push_back(s);
  }
  std::vector<Part> parts;
  for (auto& [value, samples] : groups) {
    std::string clean = SanitizeGroupValue(value);
    if (clean.empty()) clean = "null";
    TACO_ASSIGN_OR_RETURN(Taco part, SubTaco(taco, std::move(samples)));
    parts.push_back({std::move(part), Sibling(output, "_" + clean)});
  }
  return parts;
}

}  // namespace

static Result<std::vector<std::string>> CreateUnguarded(const Taco& taco, const std::string& output,
                                                        const CreateOptions& options, bool meta_with_ids) {
  if (output.empty()) return Status::InvalidArgument("create: the output path is empty");
  OutputFormat format = options.format;
  if (format == OutputFormat::kAuto) format = HasZipSuffix(output) ? OutputFormat::kZip : OutputFormat::kFolder;
  TACO_RETURN_IF_ERROR(CheckOutputName(output, format));

  std::vector<Part> parts;
  if (format == OutputFormat::kZip && !options.group_by.empty()) {
    TACO_ASSIGN_OR_RETURN(parts, GroupBy(taco, output, options.group_by));
  } else if (format == OutputFormat::kZip && options.split_size > 0) {
    TACO_ASSIGN_OR_RETURN(parts, SplitBySize(taco, output, options.split_size));
  } else {
    parts.push_back({taco, output});
  }

  // FORMAT §1.6: more than one ZIP → a `.tacocat/` beside them (checked before writing).
  const bool consolidate = options.consolidate && format == OutputFormat::kZip && parts.size() > 1;
  std::string parent_dir = fs::path(output).parent_path().string();
  if (parent_dir.empty()) parent_dir = ".";
  if (consolidate && fs::exists(fs::symlink_status(fs::path(parent_dir) / ".tacocat"))) {
    return Status::AlreadyExists((fs::path(parent_dir) / ".tacocat").string() + ": already exists");
  }

  // Reserve every output first: nothing is written when any of them exists.
  std::vector<std::unique_ptr<AtomicOutput>> outs;
  for (const Part& part : parts) {
    TACO_ASSIGN_OR_RETURN(auto out, AtomicOutput::Begin(part.path, format == OutputFormat::kFolder));
    outs.push_back(std::move(out));
  }
  // The engine starts when a writer needs it: always for a FOLDER, for a ZIP only for a table
  // the engine-free Parquet encoder refuses.
  std::unique_ptr<table::Engine> engine;
  const write::EngineSource engine_source = [&engine]() -> Result<table::Engine*> {
    if (engine == nullptr) {
      TACO_ASSIGN_OR_RETURN(engine, table::Engine::Open());
    }
    return engine.get();
  };
  write::Progress progress(taco.root().size_bytes(), options.progress);
  const auto start = std::chrono::steady_clock::now();
  for (size_t i = 0; i < parts.size(); ++i) {
    TACO_ASSIGN_OR_RETURN(write::PreparedTaco prepared, write::Prepare(parts[i].taco, meta_with_ids));
    if (options.copy_threads > 0) prepared.copy.reads_in_flight = options.copy_threads;
    Status st;
    if (format == OutputFormat::kZip) {
      st = write::WriteZip(prepared, outs[i]->temp_path(), engine_source, progress);
    } else {
      Result<table::Engine*> sql = engine_source();
      st = sql.ok() ? write::WriteFolder(prepared, outs[i]->temp_path(), **sql, progress) : sql.status();
    }
    if (!st.ok()) return st.WithPrefix(parts[i].path);
  }
  std::unique_ptr<AtomicOutput> tacocat;
  if (consolidate) {
    std::vector<write::TacocatSource> sources;
    for (const auto& out : outs) {
      sources.push_back({out->temp_path(), fs::path(out->final_path()).filename().string()});
    }
    TacocatOptions tacocat_options;
    tacocat_options.align_schemas = true;  // parts of one Taco: tolerate columns missing in a part
    TACO_ASSIGN_OR_RETURN(tacocat, write::WriteTacocat(sources, parent_dir, tacocat_options));
  }
  std::vector<std::string> written;
  for (size_t i = 0; i < outs.size(); ++i) {
    TACO_RETURN_IF_ERROR(outs[i]->Commit());
    written.push_back(outs[i]->final_path());
    Log(LogLevel::kVerbose, "wrote " + written.back() + " (" + (format == OutputFormat::kZip ? "zip" : "folder") +
                                ", " + std::to_string(parts[i].taco.root().size_bytes()) + " bytes of samples)");
  }
  if (tacocat) {
    TACO_RETURN_IF_ERROR(tacocat->Commit());
    Log(LogLevel::kVerbose, "wrote " + tacocat->final_path());
  }
  Log(LogLevel::kVerbose, "create: " + std::to_string(parts.size()) + (parts.size() == 1 ? " output" : " outputs") +
                              " in " + ElapsedText(start));
  return written;
}

// The library boundary: nothing a dependency throws escapes (util/exception_guard.h).
Result<std::vector<std::string>> Create(const Taco& taco, const std::string& output, const CreateOptions& options) {
  return util::GuardExceptions(output, [&] { return CreateUnguarded(taco, output, options, false); });
}

Result<std::vector<std::string>> write::CreateWithMetaLayout(const Taco& taco, const std::string& output,
                                                             const CreateOptions& options, bool meta_with_ids) {
  return util::GuardExceptions(output, [&] { return CreateUnguarded(taco, output, options, meta_with_ids); });
}

Result<uint64_t> ParseSize(std::string_view text) {
  std::string s(text);
  s.erase(std::remove_if(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c); }), s.end());
  size_t i = 0;
  while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.')) ++i;
  std::string number = s.substr(0, i), unit = s.substr(i);
  std::transform(unit.begin(), unit.end(), unit.begin(), [](unsigned char c) { return std::toupper(c); });
  static const std::map<std::string, double> kUnits = {{"", 1},
                                                       {"B", 1},
                                                       {"K", 1024.0},
                                                       {"KB", 1024.0},
                                                       {"M", 1048576.0},
                                                       {"MB", 1048576.0},
                                                       {"G", 1073741824.0},
                                                       {"GB", 1073741824.0},
                                                       {"T", 1099511627776.0},
                                                       {"TB", 1099511627776.0}};
  auto unit_it = kUnits.find(unit);
  char* end = nullptr;
  double value = number.empty() ? -1 : std::strtod(number.c_str(), &end);
  if (unit_it == kUnits.end() || value < 0 || end != number.c_str() + number.size() ||
      std::count(number.begin(), number.end(), '.') > 1) {
    return Status::InvalidArgument("'" + std::string(text) + "' is not a size (examples: 4GB, 512MB, 1.5G, 100K, 123)");
  }
  double bytes = std::floor(value * unit_it->second);
  if (bytes > 1.8e19) return Status::InvalidArgument("'" + std::string(text) + "' is too large");
  return static_cast<uint64_t>(bytes);
}

}  // namespace taco
