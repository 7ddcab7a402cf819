// `taco stats PATH... --band B[,B...] [--level L [--id ID] [--file NAME]] [--method M | --exact]
// [--sql Q] [--bbox B] [--datetime D] [--json]`: band statistics of the selected view
// (taco/stats.h computes; this file parses and prints). Several paths are one dataset (concat),
// --sql/--bbox/--datetime select rows as in `taco filter` (cli/selection.h; the filters' level
// is --filter-level, since --level is the level aggregated).
// --json prints one object: continuous statistics as keys mean, std, min, max, p25, p50, p75,
// p95; categorical ones as key categorical (class probabilities) and classes (index, value,
// name, probability). Each value is a scalar (categorical: one list) for a single band and a
// list (one entry per band) for several. Added keys: method, samples, approximate (the
// measures that are estimates), bounds (pooled: {"p25": [low, high], ...}, per band for
// several) and class_values (categorical; null when unknown).
// Without --json: a table with one line per band (approximate values marked "~"), then notes.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli_common.h"
#include "selection.h"
#include "taco/dataset.h"
#include "taco/stats.h"

namespace taco::cli {
namespace {

struct StatsArgs {
  std::vector<std::string> paths;
  std::string bands;
  int level = 0;
  std::string id;
  std::string file;
  std::string method;
  bool exact = false;
  bool json = false;
  Selection selection;
};

constexpr const char* kMethodsHelp =
    "Methods (--method):\n"
    "  pooled (default)  from the stored per-sample statistics. mean and std are pooled exactly\n"
    "                    (law of total variance, each sample weighted by its valid pixels =\n"
    "                    H*W*valid%/100), min/max exactly. Percentiles are APPROXIMATE: each\n"
    "                    sample's distribution is known only at its min, p25, p50, p75, p95, max\n"
    "                    (each +- half of the writer's 1/100 histogram bucket); the printed\n"
    "                    bounds [low, high] provably hold the true pooled percentile, and the\n"
    "                    value is the crossing of the mean model CDF (linear between p25 and\n"
    "                    p95, exponential tails) inside them.\n"
    "  exact (--exact)   reads every selected raster through GDAL (NaN and NoData skipped, as\n"
    "                    the writer): exact mean, population std, min, max, and pK = the smallest\n"
    "                    pixel value v with #(pixels <= v) >= K% of the valid pixels. At most\n"
    "                    2097152 distinct values per band (any 8/16-bit raster fits).\n"
    "  upstream          tacoreader's arithmetic: H*W-weighted mean, pooled sample std, and each\n"
    "                    percentile the plain AVERAGE of the per-sample percentiles (not a\n"
    "                    percentile of the pixels: can be far off on mixed distributions).\n"
    "Categorical bands: class probabilities weighted by H*W (exact: counted over the pixels);\n"
    "class values come from COLLECTION.json (geotiff:class_values, written by `taco create\n"
    "--classes`, or numeric labels:classes categories); otherwise classes are listed by index.";

Result<std::vector<int>> ParseBands(const std::string& text) {
  const Status bad = Status::InvalidArgument("--band '" + text + "': expected band indexes like 0 or 0,1,2");
  std::vector<int> out;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    const std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    char* end = nullptr;
    const long v = std::strtol(part.c_str(), &end, 10);
    if (part.empty() || end == part.c_str() || *end != '\0' || v < -1000000 || v > 1000000) return bad;
    out.push_back(static_cast<int>(v));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

// The shortest decimal text that reads back as the same float.
std::string FloatText(float v) {
  if (!std::isfinite(v)) return std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf");
  char buf[32];
  for (int precision = 6; precision <= 9; ++precision) {
    std::snprintf(buf, sizeof(buf), "%.*g", precision, static_cast<double>(v));
    if (std::strtof(buf, nullptr) == v) break;
  }
  return buf;
}

std::string NumberText(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.17g", v);
  return FloatText(static_cast<float>(v)) == buf ? buf : FloatText(static_cast<float>(v));
}

nlohmann::ordered_json FloatJson(float v) {
  if (!std::isfinite(v)) return nullptr;
  return std::strtod(FloatText(v).c_str(), nullptr);
}

nlohmann::ordered_json FloatListJson(const std::vector<float>& values) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (float v : values) list.push_back(FloatJson(v));
  return list;
}

std::string Pad(const std::string& s, size_t width) {
  return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

std::string TrimRight(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

bool IsApproximate(const StatsSummary& s, StatsMeasure m) {
  for (StatsMeasure a : s.approximate) {
    if (a == m) return true;
  }
  return false;
}

std::string ClassValueText(const StatsSummary& s, size_t k) {
  return k < s.class_values.size() ? NumberText(s.class_values[k]) : "?";
}

void PrintCategorical(const StatsSummary& s, const std::vector<int>& bands) {
  const bool named = !s.class_names.empty();
  std::cout << TrimRight("band  class  " + Pad("value", 10) + (named ? Pad("name", 16) : "") + "probability") << "\n";
  for (size_t b = 0; b < bands.size(); ++b) {
    const std::vector<float>& probs = s.categorical_probabilities[b];
    for (size_t k = 0; k < probs.size(); ++k) {
      std::cout << Pad(std::to_string(bands[b]), 6) << Pad(std::to_string(k), 7) << Pad(ClassValueText(s, k), 10)
                << (named ? Pad(k < s.class_names.size() ? s.class_names[k] : "", 16) : "") << FloatText(probs[k])
                << "\n";
    }
  }
  std::cout << "method: " << StatsMethodName(s.method) << " (" << s.samples << " samples)\n";
  if (s.class_values.empty()) {
    std::cout << "class values unknown: classes are listed by index, in the order the writer found them "
                 "(give them with `taco create --classes`)\n";
  }
}

void PrintContinuous(const StatsSummary& s, const std::vector<int>& bands) {
  constexpr size_t kWidth = 12;
  std::string header = Pad("band", 6);
  for (StatsMeasure m : kAllStatsMeasures) header += Pad(std::string(StatsMeasureName(m)), kWidth);
  std::cout << TrimRight(header) << "\n";
  for (size_t b = 0; b < bands.size(); ++b) {
    std::string line = Pad(std::to_string(bands[b]), 6);
    size_t m = 0;
    for (StatsMeasure measure : kAllStatsMeasures) {
      std::string cell = IsApproximate(s, measure) ? "~" : "";
      cell += FloatText(s.measures[m++][b]);
      line += Pad(cell, kWidth);
    }
    std::cout << TrimRight(line) << "\n";
  }
  std::string approx;
  for (StatsMeasure a : s.approximate) {
    if (!approx.empty()) approx += ", ";
    approx += StatsMeasureName(a);
  }
  std::cout << "method: " << StatsMethodName(s.method) << " (" << s.samples << " samples); "
            << (approx.empty() ? "every value exact" : "~ approximate: " + approx) << "\n";
  if (s.low.empty()) return;
  for (size_t b = 0; b < bands.size(); ++b) {
    std::string line = "bounds band " + std::to_string(bands[b]) + ":";
    size_t m = 0;
    for (StatsMeasure measure : kAllStatsMeasures) {
      if (IsPercentile(measure)) {
        line += " " + std::string(StatsMeasureName(measure)) + " [" + FloatText(s.low[m][b]) + ", " +
                FloatText(s.high[m][b]) + "]";
      }
      ++m;
    }
    std::cout << line << "\n";
  }
}

nlohmann::ordered_json ClassesJson(const StatsSummary& s, size_t band) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  const std::vector<float>& probs = s.categorical_probabilities[band];
  for (size_t k = 0; k < probs.size(); ++k) {
    nlohmann::ordered_json c = {{"index", k}};
    c["value"] = k < s.class_values.size() ? nlohmann::ordered_json(s.class_values[k]) : nlohmann::ordered_json();
    if (k < s.class_names.size()) c["name"] = s.class_names[k];
    c["probability"] = FloatJson(probs[k]);
    list.push_back(std::move(c));
  }
  return list;
}

nlohmann::ordered_json SummaryJson(const StatsSummary& s, bool single) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  if (s.categorical) {
    if (single) {
      j["categorical"] = FloatListJson(s.categorical_probabilities[0]);
      j["classes"] = ClassesJson(s, 0);
    } else {
      j["categorical"] = nlohmann::ordered_json::array();
      j["classes"] = nlohmann::ordered_json::array();
      for (size_t b = 0; b < s.categorical_probabilities.size(); ++b) {
        j["categorical"].push_back(FloatListJson(s.categorical_probabilities[b]));
        j["classes"].push_back(ClassesJson(s, b));
      }
    }
    j["class_values"] = s.class_values.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(s.class_values);
  } else {
    size_t m = 0;
    for (StatsMeasure measure : kAllStatsMeasures) {
      const std::vector<float>& values = s.measures[m++];
      j[std::string(StatsMeasureName(measure))] = single ? FloatJson(values[0]) : FloatListJson(values);
    }
  }
  j["method"] = std::string(StatsMethodName(s.method));
  j["samples"] = s.samples;
  j["approximate"] = nlohmann::ordered_json::array();
  for (StatsMeasure a : s.approximate) j["approximate"].push_back(std::string(StatsMeasureName(a)));
  if (!s.low.empty()) {
    nlohmann::ordered_json bounds = nlohmann::ordered_json::object();
    size_t m = 0;
    for (StatsMeasure measure : kAllStatsMeasures) {
      if (IsPercentile(measure)) {
        auto pair = [&](size_t b) { return nlohmann::ordered_json{FloatJson(s.low[m][b]), FloatJson(s.high[m][b])}; };
        if (single) {
          bounds[std::string(StatsMeasureName(measure))] = pair(0);
        } else {
          nlohmann::ordered_json per_band = nlohmann::ordered_json::array();
          for (size_t b = 0; b < s.low[m].size(); ++b) per_band.push_back(pair(b));
          bounds[std::string(StatsMeasureName(measure))] = std::move(per_band);
        }
      }
      ++m;
    }
    j["bounds"] = std::move(bounds);
  }
  return j;
}

Result<StatsQuery> BuildQuery(const StatsArgs& args) {
  StatsQuery query;
  TACO_ASSIGN_OR_RETURN(query.bands, ParseBands(args.bands));
  query.level = args.level;
  if (!args.id.empty()) query.id = args.id;
  if (!args.file.empty()) query.file = args.file;
  if (args.exact && !args.method.empty() && args.method != "exact") {
    return Status::InvalidArgument("--exact and --method " + args.method + " disagree; give one of them");
  }
  if (args.exact) {
    query.method = StatsMethod::kExact;
  } else if (!args.method.empty()) {
    auto method = ParseStatsMethod(args.method);
    if (!method.ok()) return Status::InvalidArgument("--method: " + method.status().message());
    query.method = *method;
  }
  return query;
}

int RunStats(const StatsArgs& args, const Context& ctx) {
  auto query = BuildQuery(args);
  if (!query.ok()) return ReportError(query.status());
  auto box = ParseBbox(args.selection.bbox);
  if (!box.ok()) return ReportError(box.status());
  OpenOptions options = SqlOpenOptions(ctx.global);
  options.allow_external_rasters = ctx.global.allow_external_rasters;
  auto opened = Dataset::OpenList(args.paths, options);
  if (!opened.ok()) return ReportError(opened.status());
  auto view = ApplySelection(**opened, args.selection, *box);
  if (!view.ok()) return ReportError(view.status());
  Dataset& dataset = *view ? **view : **opened;
  auto summary = SummarizeStats(dataset, *query);
  if (!summary.ok()) return ReportError(summary.status());
  if (args.json) {
    PrintJson(SummaryJson(*summary, query->bands.size() == 1));
  } else if (summary->categorical) {
    PrintCategorical(*summary, query->bands);
  } else {
    PrintContinuous(*summary, query->bands);
  }
  return kExitOk;
}

void AddStatsCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<StatsArgs>();
  CLI::App* cmd = app.add_subcommand("stats",
                                     "Band statistics of the selected rows from geotiff:stats or the pixels "
                                     "(mean, std, min, max, percentiles or categorical)");
  cmd->add_option("path", args->paths, "Dataset path or URL; several are one dataset (concat)")->required();
  cmd->add_option("--band", args->bands, "Band index or comma-separated indexes (0-based)")->required();
  cmd->add_option("--level", args->level, "Level to aggregate (default 0; > 0 needs --id or --file)");
  cmd->add_option("--id", args->id, "Level > 0: the id of the sample one level up whose children are aggregated");
  cmd->add_option("--file", args->file, "Level > 0: the child with this id under every selected row (e.g. image.tif)");
  cmd->add_option("--method", args->method, "pooled (default), exact or upstream (see below)");
  cmd->add_flag("--exact", args->exact, "Same as --method exact: read the rasters");
  AddSelectionOptions(cmd, &args->selection, "--filter-level");
  cmd->add_flag("--json", args->json, "Print a JSON object");
  cmd->footer(kMethodsHelp);
  cmd->callback([args, &ctx] { ctx.exit_code = RunStats(*args, ctx); });
}

const CommandRegistration kRegistered(90, &AddStatsCommand);

}  // namespace
}  // namespace taco::cli
