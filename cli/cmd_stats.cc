// `taco stats PATH --band B[,B...] [--level L --id ID] [--json]`: band statistics aggregated
// from `geotiff:stats` (FORMAT §6.9) over the dataset's level 0, or over the level-L children
// of the sample ID at level L-1.
// --json prints one object: continuous statistics as keys mean, std, min, max, p25, p50,
// p75, p95; categorical ones as key categorical (class probabilities). Each value is a
// scalar (categorical: one list) for a single band and a list (one entry per band) for
// several. Without --json: a table with one line per band.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli_common.h"
#include "taco/dataset.h"
#include "taco/stats.h"

namespace taco::cli {
namespace {

struct StatsArgs {
  std::string path;
  std::string bands;
  int level = 0;
  std::string id;
  bool json = false;
};

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

nlohmann::ordered_json FloatJson(float v) {
  if (!std::isfinite(v)) return nullptr;
  return std::strtod(FloatText(v).c_str(), nullptr);
}

nlohmann::ordered_json FloatListJson(const std::vector<float>& values) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (float v : values) list.push_back(FloatJson(v));
  return list;
}

std::string Pad(const std::string& s, size_t width) { return s.size() >= width ? s : s + std::string(width - s.size(), ' '); }

void PrintHuman(const StatsSummary& summary, const std::vector<int>& bands) {
  if (summary.categorical) {
    std::cout << "band  categorical (class probabilities)\n";
    for (size_t b = 0; b < bands.size(); ++b) {
      std::string probs;
      for (float p : summary.categorical_probabilities[b]) probs += (probs.empty() ? "" : ", ") + FloatText(p);
      std::cout << Pad(std::to_string(bands[b]), 6) << "[" << probs << "]\n";
    }
    return;
  }
  constexpr size_t kWidth = 12;
  std::string header = Pad("band", 6);
  for (StatsMeasure m : kAllStatsMeasures) header += Pad(std::string(StatsMeasureName(m)), kWidth);
  while (!header.empty() && header.back() == ' ') header.pop_back();
  std::cout << header << "\n";
  for (size_t b = 0; b < bands.size(); ++b) {
    std::string line = Pad(std::to_string(bands[b]), 6);
    for (size_t m = 0; m < summary.measures.size(); ++m) line += Pad(FloatText(summary.measures[m][b]), kWidth);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    std::cout << line << "\n";
  }
}

int RunStats(const StatsArgs& args) {
  auto bands = ParseBands(args.bands);
  if (!bands.ok()) return ReportError(bands.status());
  auto opened = Dataset::Open(args.path);
  if (!opened.ok()) return ReportError(opened.status());
  StatsQuery query;
  query.bands = *bands;
  query.level = args.level;
  if (!args.id.empty()) query.id = args.id;
  auto summary = SummarizeStats(**opened, query);
  if (!summary.ok()) return ReportError(summary.status());
  if (!args.json) {
    PrintHuman(*summary, *bands);
    return kExitOk;
  }
  const bool single = bands->size() == 1;
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  if (summary->categorical) {
    if (single) {
      j["categorical"] = FloatListJson(summary->categorical_probabilities[0]);
    } else {
      j["categorical"] = nlohmann::ordered_json::array();
      for (const auto& probs : summary->categorical_probabilities) j["categorical"].push_back(FloatListJson(probs));
    }
  } else {
    size_t m = 0;
    for (StatsMeasure measure : kAllStatsMeasures) {
      const std::vector<float>& values = summary->measures[m++];
      j[std::string(StatsMeasureName(measure))] = single ? FloatJson(values[0]) : FloatListJson(values);
    }
  }
  PrintJson(j);
  return kExitOk;
}

void AddStatsCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<StatsArgs>();
  CLI::App* cmd = app.add_subcommand("stats", "Band statistics aggregated from geotiff:stats (mean, std, min, max, "
                                              "percentiles or categorical)");
  cmd->add_option("path", args->path, "Dataset path or URL")->required();
  cmd->add_option("--band", args->bands, "Band index or comma-separated indexes (0-based)")->required();
  cmd->add_option("--level", args->level, "Level to aggregate (default 0; > 0 needs --id)");
  cmd->add_option("--id", args->id, "Level > 0: the id of the sample one level up whose children are aggregated");
  cmd->add_flag("--json", args->json, "Print a JSON object");
  cmd->callback([args, &ctx] { ctx.exit_code = RunStats(*args); });
}

const CommandRegistration kRegistered(90, &AddStatsCommand);

}  // namespace
}  // namespace taco::cli
