// The C ABI (include/taco/taco.h): errors, versions, logging, opening, views and rows.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "capi_internal.h"
#include "taco/info.h"
#include "taco/log.h"
#include "taco/version.h"

namespace taco::capi {

taco_status ToCode(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return TACO_OK;
    case StatusCode::kInvalidArgument: return TACO_INVALID_ARGUMENT;
    case StatusCode::kNotFound: return TACO_NOT_FOUND;
    case StatusCode::kCorruption: return TACO_CORRUPTION;
    case StatusCode::kIOError: return TACO_IO_ERROR;
    case StatusCode::kNotSupported: return TACO_NOT_SUPPORTED;
    case StatusCode::kAlreadyExists: return TACO_ALREADY_EXISTS;
    case StatusCode::kInternal: return TACO_INTERNAL;
  }
  return TACO_INTERNAL;
}

taco_status Fail(const Status& status, taco_error** error) {
  taco_status code = ToCode(status.code());
  if (code == TACO_OK) code = TACO_INTERNAL;
  if (error != nullptr) {
    try {
      *error = new taco_error{code, status.message()};
    } catch (...) {
      *error = nullptr;  // out of memory: the code still says what failed
    }
  }
  return code;
}

char* CopyString(const std::string& text) {
  char* out = static_cast<char*>(std::malloc(text.size() + 1));
  if (out == nullptr) throw std::bad_alloc();
  std::memcpy(out, text.data(), text.size());
  out[text.size()] = '\0';
  return out;
}

Status Require(const void* pointer, const char* what) {
  if (pointer == nullptr) return Status::InvalidArgument(std::string(what) + ": must not be NULL");
  return Status::OK();
}

}  // namespace taco::capi

using taco::Status;
using taco::capi::CopyString;
using taco::capi::Guard;
using taco::capi::Require;

namespace {

taco_status MakeDataset(taco::Result<std::unique_ptr<taco::Dataset>> result, taco_dataset** out,
                        taco_error** error) {
  return Guard(error, [&]() -> Status {
    if (!result.ok()) return result.status();
    auto handle = std::make_unique<taco_dataset>();
    handle->format = std::string(taco::DatasetFormatName((*result)->format()));
    handle->dataset = std::shared_ptr<taco::Dataset>(std::move(result).value());
    *out = handle.release();
    return Status::OK();
  });
}

}  // namespace

extern "C" {

const char* taco_status_name(taco_status status) {
  switch (status) {
    case TACO_OK: return "ok";
    case TACO_INVALID_ARGUMENT: return "invalid argument";
    case TACO_NOT_FOUND: return "not found";
    case TACO_CORRUPTION: return "corruption";
    case TACO_IO_ERROR: return "io error";
    case TACO_NOT_SUPPORTED: return "not supported";
    case TACO_ALREADY_EXISTS: return "already exists";
    case TACO_INTERNAL: return "internal";
  }
  return "unknown";
}

taco_status taco_error_code(const taco_error* error) { return error == nullptr ? TACO_OK : error->code; }
const char* taco_error_message(const taco_error* error) { return error == nullptr ? "" : error->message.c_str(); }
void taco_error_free(taco_error* error) { delete error; }
void taco_string_free(char* text) { std::free(text); }

const char* taco_version(void) { return taco::kLibraryVersion; }
const char* taco_spec_version(void) { return taco::kTacoSpecVersion; }
int taco_abi_version(void) { return 1; }

taco_status taco_set_log_level(int level, taco_error** error) {
  return Guard(error, [&]() -> Status {
    if (level < TACO_LOG_OFF || level > TACO_LOG_DEBUG) {
      return Status::InvalidArgument("log level " + std::to_string(level) + ": must be 0 (off), 1 (verbose) or 2 (debug)");
    }
    taco::SetLogLevel(static_cast<taco::LogLevel>(level));
    return Status::OK();
  });
}

int taco_get_log_level(void) { return static_cast<int>(taco::GetLogLevel()); }

void taco_set_log_callback(taco_log_callback callback, void* user_data) {
  try {
    if (callback == nullptr) {
      taco::SetLogSink(nullptr);
      return;
    }
    taco::SetLogSink([callback, user_data](taco::LogLevel level, std::string_view line) {
      std::string text(line);
      callback(user_data, static_cast<int>(level), text.c_str());
    });
  } catch (...) {
    // Out of memory while installing the sink: the previous sink stays.
  }
}

void taco_open_options_init(taco_open_options* options) {
  if (options == nullptr) return;
  *options = taco_open_options{};
  options->struct_size = sizeof(taco_open_options);
  options->base_path = nullptr;
  options->use_cache = taco::RemoteCacheEnabled() ? 1 : 0;  // TACO_NO_CACHE, via the library
  options->verify_crc = 1;
  options->allow_external_rasters = 0;
  options->allow_external_sql = 0;
}

taco_status taco_open(const char* const* paths, size_t num_paths, const taco_open_options* options,
                      taco_dataset** out, taco_error** error) {
  taco::Result<std::unique_ptr<taco::Dataset>> opened = Status::Internal("not opened");
  taco_status status = Guard(error, [&]() -> Status {
    TACO_RETURN_IF_ERROR(Require(out, "taco_open: out"));
    if (paths == nullptr || num_paths == 0) return Status::InvalidArgument("taco_open: no path given");
    std::vector<std::string> list;
    for (size_t i = 0; i < num_paths; ++i) {
      if (paths[i] == nullptr) return Status::InvalidArgument("taco_open: path " + std::to_string(i) + " is NULL");
      list.emplace_back(paths[i]);
    }
    taco::OpenOptions open;
    if (options != nullptr) {
      if (options->struct_size < sizeof(size_t)) {
        return Status::InvalidArgument("taco_open: options->struct_size not set (call taco_open_options_init)");
      }
      // Fields past what the caller's struct_size covers keep their defaults.
      taco_open_options given;
      taco_open_options_init(&given);
      std::memcpy(&given, options, std::min(options->struct_size, sizeof(given)));
      if (given.base_path != nullptr) open.base_path = given.base_path;
      open.use_cache = given.use_cache != 0;
      open.verify_crc = given.verify_crc != 0;
      open.allow_external_rasters = given.allow_external_rasters != 0;
      open.allow_external_sql = given.allow_external_sql != 0;
    }
    opened = list.size() == 1 ? taco::Dataset::Open(list[0], open) : taco::Dataset::OpenList(list, open);
    return Status::OK();
  });
  if (status != TACO_OK) return status;
  return MakeDataset(std::move(opened), out, error);
}

void taco_dataset_free(taco_dataset* dataset) { delete dataset; }

taco_status taco_dataset_sql(const taco_dataset* dataset, const char* query, taco_dataset** out,
                             taco_error** error) {
  taco::Result<std::unique_ptr<taco::Dataset>> view = Status::Internal("no view");
  taco_status status = Guard(error, [&]() -> Status {
    TACO_RETURN_IF_ERROR(Require(dataset, "taco_dataset_sql: dataset"));
    TACO_RETURN_IF_ERROR(Require(query, "taco_dataset_sql: query"));
    TACO_RETURN_IF_ERROR(Require(out, "taco_dataset_sql: out"));
    view = dataset->dataset->Sql(query);
    return Status::OK();
  });
  if (status != TACO_OK) return status;
  return MakeDataset(std::move(view), out, error);
}

taco_status taco_dataset_filter_bbox(const taco_dataset* dataset, double min_x, double min_y, double max_x,
                                     double max_y, const char* geometry_column, int level, taco_dataset** out,
                                     taco_error** error) {
  taco::Result<std::unique_ptr<taco::Dataset>> view = Status::Internal("no view");
  taco_status status = Guard(error, [&]() -> Status {
    TACO_RETURN_IF_ERROR(Require(dataset, "taco_dataset_filter_bbox: dataset"));
    TACO_RETURN_IF_ERROR(Require(out, "taco_dataset_filter_bbox: out"));
    view = dataset->dataset->FilterBbox(min_x, min_y, max_x, max_y, geometry_column ? geometry_column : "auto", level);
    return Status::OK();
  });
  if (status != TACO_OK) return status;
  return MakeDataset(std::move(view), out, error);
}

taco_status taco_dataset_filter_datetime(const taco_dataset* dataset, const char* range, const char* time_column,
                                         int level, taco_dataset** out, taco_error** error) {
  taco::Result<std::unique_ptr<taco::Dataset>> view = Status::Internal("no view");
  taco_status status = Guard(error, [&]() -> Status {
    TACO_RETURN_IF_ERROR(Require(dataset, "taco_dataset_filter_datetime: dataset"));
    TACO_RETURN_IF_ERROR(Require(range, "taco_dataset_filter_datetime: range"));
    TACO_RETURN_IF_ERROR(Require(out, "taco_dataset_filter_datetime: out"));
    view = dataset->dataset->FilterDatetime(range, time_column ? time_column : "auto", level);
    return Status::OK();
  });
  if (status != TACO_OK) return status;
  return MakeDataset(std::move(view), out, error);
}

taco_status taco_dataset_row_count(const taco_dataset* dataset, int64_t* out, taco_error** error) {
  return Guard(error, [&]() -> Status {
    TACO_RETURN_IF_ERROR(Require(dataset, "taco_dataset_row_count: dataset"));
    TACO_RETURN_IF_ERROR(Require(out, "taco_dataset_row_count: out"));
    TACO_ASSIGN_OR_RETURN(*out, dataset->dataset->RowCount());
    return Status::OK();
  });
}

taco_status taco_dataset_arrow_stream(const taco_dataset* dataset, int raw, struct ArrowArrayStream* out,
                                      taco_error** error) {
  return Guard(error, [&]() -> Status {
    TACO_RETURN_IF_ERROR(Require(dataset, "taco_dataset_arrow_stream: dataset"));
    TACO_RETURN_IF_ERROR(Require(out, "taco_dataset_arrow_stream: out"));
    out->release = nullptr;
    return dataset->dataset->ExportArrow(raw != 0, out);
  });
}

const char* taco_dataset_path(const taco_dataset* dataset) {
  return dataset == nullptr ? "" : dataset->dataset->path().c_str();
}
const char* taco_dataset_format(const taco_dataset* dataset) {
  return dataset == nullptr ? "" : dataset->format.c_str();
}

taco_status taco_dataset_info_json(const taco_dataset* dataset, char** json, taco_error** error) {
  return Guard(error, [&]() -> Status {
    TACO_RETURN_IF_ERROR(Require(dataset, "taco_dataset_info_json: dataset"));
    TACO_RETURN_IF_ERROR(Require(json, "taco_dataset_info_json: json"));
    TACO_ASSIGN_OR_RETURN(auto info, taco::DatasetInfoJson(*dataset->dataset));
    *json = CopyString(info.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
    return Status::OK();
  });
}

taco_status taco_dataset_collection_json(const taco_dataset* dataset, char** json, taco_error** error) {
  return Guard(error, [&]() -> Status {
    TACO_RETURN_IF_ERROR(Require(dataset, "taco_dataset_collection_json: dataset"));
    TACO_RETURN_IF_ERROR(Require(json, "taco_dataset_collection_json: json"));
    *json = CopyString(
        dataset->dataset->collection().dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
    return Status::OK();
  });
}

}  // extern "C"
