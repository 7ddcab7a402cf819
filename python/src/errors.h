// How failures cross into Python: every non-OK taco::Status becomes a C++ StatusError that
// the module's exception translator turns into the taco_cpp.errors class of its code (with
// the Status message, the line the CLI prints after "taco: "). Any other C++ exception
// becomes taco_cpp.errors.InternalError; nothing else escapes into Python.
#ifndef TACO_PYTHON_ERRORS_H_
#define TACO_PYTHON_ERRORS_H_

#include <exception>
#include <string>
#include <string_view>
#include <utility>

#include <nanobind/nanobind.h>

#include "taco/status.h"

namespace taco::py {

class StatusError : public std::exception {
 public:
  StatusError(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}
  StatusCode code() const { return code_; }
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  StatusCode code_;
  std::string message_;
};

// Throws StatusError unless `st` is OK.
inline void Check(const Status& st) {
  if (!st.ok()) throw StatusError(st.code(), st.message());
}

// The value of `r`, or throws its Status.
template <typename T>
T Take(Result<T>&& r) {
  if (!r.ok()) Check(r.status());
  return std::move(r).value();
}

// Text from a dataset (member names, messages quoting them) as a Python str. Such text may
// hold bytes that are not UTF-8 (a damaged ZIP name): they become \xNN escapes
// (backslashreplace) instead of a UnicodeDecodeError.
nanobind::str SafeStr(std::string_view text);

// Registers the translator (called once from NB_MODULE).
void RegisterErrors(nanobind::module_& m);

}  // namespace taco::py

#endif  // TACO_PYTHON_ERRORS_H_
