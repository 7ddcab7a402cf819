// Internals of the C ABI (include/taco/taco.h): the structs behind the opaque handles and the
// boundary helper that turns Status values and exceptions into taco_status + taco_error.
// Only capi/*.cc include this; nothing here is exported (libtaco.so exports taco_* only,
// capi/libtaco.map).
#ifndef TACO_CAPI_INTERNAL_H_
#define TACO_CAPI_INTERNAL_H_

#include <exception>
#include <memory>
#include <new>
#include <string>
#include <utility>

#include "taco/dataset.h"
#include "taco/status.h"
#include "taco/taco.h"

struct taco_error {
  taco_status code;
  std::string message;
};

// A dataset or a view of one. shared_ptr: nodes and frames keep the view they came from.
struct taco_dataset {
  std::shared_ptr<taco::Dataset> dataset;
  std::string format;
};

struct taco_node {
  std::shared_ptr<taco::Dataset> origin;  // reads the node's bytes
  taco::Node node;
};

struct taco_frame {
  std::shared_ptr<taco::Dataset> origin;
  std::shared_ptr<const taco::Frame> frame;
};

namespace taco::capi {

taco_status ToCode(StatusCode code);

// Stores `status` (not OK) into *error (when error is not null) and returns its code.
taco_status Fail(const Status& status, taco_error** error);

// Runs `body` (returning Status) at the boundary: a thrown exception becomes TACO_INTERNAL
// (std::bad_alloc: TACO_IO_ERROR "out of memory"), never crossing into C.
template <typename Body>
taco_status Guard(taco_error** error, Body&& body) {
  try {
    Status status = body();
    if (status.ok()) return TACO_OK;
    return Fail(status, error);
  } catch (const std::bad_alloc&) {
    return Fail(Status::IOError("out of memory"), error);
  } catch (const std::exception& e) {
    return Fail(Status::Internal(std::string("unexpected exception: ") + e.what()), error);
  } catch (...) {
    return Fail(Status::Internal("unexpected exception"), error);
  }
}

// A copy of `text` the caller frees with taco_string_free (malloc'ed).
char* CopyString(const std::string& text);

// InvalidArgument "<what>: must not be NULL" when `pointer` is null.
Status Require(const void* pointer, const char* what);

}  // namespace taco::capi

#endif  // TACO_CAPI_INTERNAL_H_
