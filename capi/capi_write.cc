// The C ABI (include/taco/taco.h): statistics, validation, and the writers (create, convert,
// export, tacocat).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "capi_internal.h"
#include "taco/convert.h"
#include "taco/log.h"
#include "taco/stats.h"
#include "taco/tacocat.h"
#include "taco/tree_builder.h"
#include "taco/validate.h"
#include "taco/writer.h"

using taco::Status;
using taco::capi::CopyString;
using taco::capi::Guard;
using taco::capi::Require;
using Json = nlohmann::ordered_json;

namespace {

// Copies the caller's option struct over `defaults`, no further than its struct_size says
// (a caller compiled against an older header has a shorter struct).
template <typename Options>
Status ReadOptions(const Options* given, Options* defaults, const char* what) {
  if (given == nullptr) return Status::OK();
  if (given->struct_size < sizeof(size_t)) {
    return Status::InvalidArgument(std::string(what) + ": struct_size not set (call its _init function)");
  }
  std::memcpy(defaults, given, std::min(given->struct_size, sizeof(Options)));
  defaults->struct_size = sizeof(Options);
  return Status::OK();
}

std::string Dump(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }

Json FloatJson(float v) { return std::isfinite(v) ? Json(static_cast<double>(v)) : Json(); }
Json FloatsJson(const std::vector<float>& values) {
  Json list = Json::array();
  for (float v : values) list.push_back(FloatJson(v));
  return list;
}

taco::Result<taco::OutputFormat> FormatByName(const char* name, const char* what) {
  std::string text = name == nullptr ? "auto" : name;
  if (text == "auto") return taco::OutputFormat::kAuto;
  if (text == "zip") return taco::OutputFormat::kZip;
  if (text == "folder") return taco::OutputFormat::kFolder;
  return Status::InvalidArgument(std::string(what) + ": format '" + text + "': must be auto, zip or folder");
}

std::vector<std::string> Strings(const char* const* items, size_t count) {
  std::vector<std::string> out;
  for (size_t i = 0; i < count; ++i) {
    if (items != nullptr && items[i] != nullptr) out.emplace_back(items[i]);
  }
  return out;
}

Status StoreList(const std::vector<std::string>& paths, char** out) {
  if (out != nullptr) *out = CopyString(Dump(Json(paths)));
  return Status::OK();
}

Json SummaryJson(const taco::StatsSummary& s, const std::vector<int>& bands) {
  Json j = Json::object();
  j["method"] = std::string(taco::StatsMethodName(s.method));
  j["samples"] = s.samples;
  j["categorical"] = s.categorical;
  j["bands"] = bands;
  if (s.categorical) {
    Json probabilities = Json::array();
    for (const auto& band : s.categorical_probabilities) probabilities.push_back(FloatsJson(band));
    j["probabilities"] = std::move(probabilities);
    j["class_values"] = s.class_values.empty() ? Json() : Json(s.class_values);
    j["class_names"] = s.class_names;
  } else {
    size_t m = 0;
    for (taco::StatsMeasure measure : taco::kAllStatsMeasures) {
      j[std::string(taco::StatsMeasureName(measure))] = FloatsJson(s.measures[m++]);
    }
  }
  j["approximate"] = Json::array();
  for (taco::StatsMeasure a : s.approximate) j["approximate"].push_back(std::string(taco::StatsMeasureName(a)));
  if (!s.low.empty()) {
    Json low = Json::object(), high = Json::object();
    size_t m = 0;
    for (taco::StatsMeasure measure : taco::kAllStatsMeasures) {
      if (taco::IsPercentile(measure)) {
        low[std::string(taco::StatsMeasureName(measure))] = FloatsJson(s.low[m]);
        high[std::string(taco::StatsMeasureName(measure))] = FloatsJson(s.high[m]);
      }
      ++m;
    }
    j["low"] = std::move(low);
    j["high"] = std::move(high);
  }
  return j;
}

}  // namespace

extern "C" {

void taco_stats_query_init(taco_stats_query* query) {
  if (query == nullptr) return;
  *query = taco_stats_query{};
  query->struct_size = sizeof(taco_stats_query);
}

taco_status taco_dataset_stats(const taco_dataset* dataset, const taco_stats_query* query, char** json,
                               taco_error** error) {
  return Guard(error, [&]() -> Status {
    TACO_RETURN_IF_ERROR(Require(dataset, "taco_dataset_stats: dataset"));
    TACO_RETURN_IF_ERROR(Require(query, "taco_dataset_stats: query"));
    TACO_RETURN_IF_ERROR(Require(json, "taco_dataset_stats: json"));
    taco_stats_query given;
    taco_stats_query_init(&given);
    TACO_RETURN_IF_ERROR(ReadOptions(query, &given, "taco_dataset_stats: query"));
    if (given.bands == nullptr || given.num_bands == 0) {
      return Status::InvalidArgument("taco_dataset_stats: at least one band is required");
    }
    taco::StatsQuery q;
    q.bands.assign(given.bands, given.bands + given.num_bands);
    q.level = given.level;
    if (given.id != nullptr) q.id = given.id;
    if (given.file != nullptr) q.file = given.file;
    if (given.method != nullptr && given.method[0] != '\0') {
      TACO_ASSIGN_OR_RETURN(q.method, taco::ParseStatsMethod(given.method));
    }
    TACO_ASSIGN_OR_RETURN(taco::StatsSummary summary, taco::SummarizeStats(*dataset->dataset, q));
    *json = CopyString(Dump(SummaryJson(summary, q.bands)));
    return Status::OK();
  });
}

void taco_validate_options_init(taco_validate_options* options) {
  if (options == nullptr) return;
  *options = taco_validate_options{};
  options->struct_size = sizeof(taco_validate_options);
  options->max_per_rule = 1000;
  options->tiff_profile = 0;
  options->check_data = 1;
}

taco_status taco_validate(const char* path, const taco_validate_options* options, char** json, int* valid,
                          taco_error** error) {
  return Guard(error, [&]() -> Status {
    TACO_RETURN_IF_ERROR(Require(path, "taco_validate: path"));
    TACO_RETURN_IF_ERROR(Require(json, "taco_validate: json"));
    taco_validate_options given;
    taco_validate_options_init(&given);
    TACO_RETURN_IF_ERROR(ReadOptions(options, &given, "taco_validate: options"));
    taco::ValidateOptions v;
    v.max_per_rule = given.max_per_rule;
    v.tiff_profile = given.tiff_profile != 0;
    v.check_data = given.check_data != 0;
    TACO_ASSIGN_OR_RETURN(taco::ValidationReport r, taco::Validate(path, v));
    Json j;
    j["path"] = r.path;
    j["format"] = r.format;
    j["valid"] = r.ok();
    j["violations"] = Json::array();
    for (const taco::Violation& x : r.violations) {
      j["violations"].push_back({{"rule", x.rule}, {"where", x.where}, {"found", x.found}, {"expected", x.expected}});
    }
    j["omitted"] = Json::object();
    for (const auto& [rule, count] : r.omitted) j["omitted"][rule] = count;
    j["notes"] = r.notes;
    *json = CopyString(Dump(j));
    if (valid != nullptr) *valid = r.ok() ? 1 : 0;
    return Status::OK();
  });
}

void taco_create_options_init(taco_create_options* options) {
  if (options == nullptr) return;
  *options = taco_create_options{};
  options->struct_size = sizeof(taco_create_options);
  options->consolidate = 1;
}

taco_status taco_create(const char* source_dir, const char* output, const taco_create_options* options,
                        char** written_json, taco_error** error) {
  return Guard(error, [&]() -> Status {
    TACO_RETURN_IF_ERROR(Require(source_dir, "taco_create: source_dir"));
    TACO_RETURN_IF_ERROR(Require(output, "taco_create: output"));
    TACO_RETURN_IF_ERROR(Require(options, "taco_create: options"));
    taco_create_options given;
    taco_create_options_init(&given);
    TACO_RETURN_IF_ERROR(ReadOptions(options, &given, "taco_create: options"));
    if (given.collection == nullptr) return Status::InvalidArgument("taco_create: options->collection is required");
    TACO_ASSIGN_OR_RETURN(taco::OutputFormat format, FormatByName(given.format, "taco_create"));
    taco::DirectoryOptions d;
    TACO_ASSIGN_OR_RETURN(d.collection, taco::LoadCollectionFile(given.collection));
    d.collection_name = given.collection;
    if (given.order != nullptr) d.order_file = given.order;
    d.metadata_files = Strings(given.metadata, given.num_metadata);
    TACO_ASSIGN_OR_RETURN(d.extensions,
                          taco::ext::ParseExtensionSpecs(Strings(given.extensions, given.num_extensions)));
    if (given.time_column != nullptr) d.time_column = given.time_column;
    if (given.num_classes > 0) {
      if (given.classes == nullptr) return Status::InvalidArgument("taco_create: classes: must not be NULL");
      d.extension_settings.categorical_classes.assign(given.classes, given.classes + given.num_classes);
    }
    if (given.pad_to > 0) d.pad_to = given.pad_to;
    d.strict_schema = given.non_strict == 0;
    d.require_metadata = given.require_metadata != 0;
    d.warning = [](const std::string& message) { taco::Log(taco::LogLevel::kVerbose, "warning: " + message); };
    taco::CreateOptions c;
    c.format = format;
    TACO_ASSIGN_OR_RETURN(c.split_size, taco::ParseSize(given.split_size == nullptr ? "4GB" : given.split_size));
    c.group_by = Strings(given.group_by, given.num_group_by);
    c.consolidate = given.consolidate != 0;
    TACO_ASSIGN_OR_RETURN(taco::Taco built, taco::TacoFromDirectory(source_dir, d));
    taco::RemoveTemporaryOutputsOnTerminationSignals();
    TACO_ASSIGN_OR_RETURN(auto written, taco::Create(built, output, c));
    return StoreList(written, written_json);
  });
}

taco_status taco_convert(const char* input, const char* output, const char* format, char** written_json,
                         taco_error** error) {
  return Guard(error, [&]() -> Status {
    TACO_RETURN_IF_ERROR(Require(input, "taco_convert: input"));
    TACO_RETURN_IF_ERROR(Require(output, "taco_convert: output"));
    taco::ConvertOptions options;
    TACO_ASSIGN_OR_RETURN(options.format, FormatByName(format, "taco_convert"));
    taco::RemoveTemporaryOutputsOnTerminationSignals();
    TACO_ASSIGN_OR_RETURN(auto written, taco::Convert(input, output, options));
    return StoreList(written, written_json);
  });
}

taco_status taco_export(const taco_dataset* view, const char* output, const char* format, char** written_json,
                        taco_error** error) {
  return Guard(error, [&]() -> Status {
    TACO_RETURN_IF_ERROR(Require(view, "taco_export: view"));
    TACO_RETURN_IF_ERROR(Require(output, "taco_export: output"));
    taco::ExportOptions options;
    TACO_ASSIGN_OR_RETURN(options.format, FormatByName(format, "taco_export"));
    taco::RemoveTemporaryOutputsOnTerminationSignals();
    TACO_ASSIGN_OR_RETURN(auto written, taco::Export(*view->dataset, output, options));
    return StoreList(written, written_json);
  });
}

void taco_tacocat_options_init(taco_tacocat_options* options) {
  if (options == nullptr) return;
  *options = taco_tacocat_options{};
  options->struct_size = sizeof(taco_tacocat_options);
}

taco_status taco_tacocat(const char* const* inputs, size_t num_inputs, const taco_tacocat_options* options,
                         char** written, taco_error** error) {
  return Guard(error, [&]() -> Status {
    TACO_RETURN_IF_ERROR(Require(written, "taco_tacocat: written"));
    if (inputs == nullptr || num_inputs == 0) return Status::InvalidArgument("taco_tacocat: no input given");
    taco_tacocat_options given;
    taco_tacocat_options_init(&given);
    TACO_RETURN_IF_ERROR(ReadOptions(options, &given, "taco_tacocat: options"));
    taco::TacocatOptions t;
    if (given.output_dir != nullptr) t.output_dir = given.output_dir;
    t.single_file = given.single_file != 0;
    t.align_schemas = given.align_schemas != 0;
    t.warn = [](const std::string& message) { taco::Log(taco::LogLevel::kVerbose, "warning: " + message); };
    std::vector<std::string> paths;
    for (size_t i = 0; i < num_inputs; ++i) {
      if (inputs[i] == nullptr) return Status::InvalidArgument("taco_tacocat: input " + std::to_string(i) + " is NULL");
      paths.emplace_back(inputs[i]);
    }
    taco::RemoveTemporaryOutputsOnTerminationSignals();
    TACO_ASSIGN_OR_RETURN(std::string path, taco::CreateTacocat(paths, t));
    *written = CopyString(path);
    return Status::OK();
  });
}

}  // extern "C"
