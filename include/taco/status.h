// Status and Result<T>: how every fallible operation in taco-cpp reports failure.
//
// Contract:
//  * The library never throws. Exceptions from third-party code (DuckDB, nlohmann::json,
//    std::filesystem) are caught at the module boundary and returned as a Status whose
//    message names the input (file, URL or argument) and what is wrong with it.
//  * A message reads as "<input>: <what is wrong>", e.g.
//    "/data/x.tacozip: not a TACO ZIP: no TACO_HEADER entry at byte 0". The CLI prints it
//    as "taco: <message>" and maps the code to an exit status.
//  * Status is cheap to return when OK (no allocation).
#ifndef TACO_STATUS_H_
#define TACO_STATUS_H_

#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace taco {

enum class StatusCode {
  kOk = 0,
  kInvalidArgument,  // bad usage or a value that breaks a rule (ids, schemas, PIT, ...)
  kNotFound,         // a file, member, column, level or sample that does not exist
  kCorruption,       // malformed bytes: bad magic, offsets past the end, bad Parquet/JSON
  kIOError,          // the operating system or the network failed
  kNotSupported,     // a valid input this build cannot handle
  kAlreadyExists,    // an output path that must not exist
  kInternal,         // a bug: an invariant of ours does not hold
};

// Human-readable name of a code ("invalid argument", "corruption", ...).
std::string_view StatusCodeName(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;  // OK
  Status(StatusCode code, std::string message);

  static Status OK() { return Status(); }
  static Status InvalidArgument(std::string msg) { return {StatusCode::kInvalidArgument, std::move(msg)}; }
  static Status NotFound(std::string msg) { return {StatusCode::kNotFound, std::move(msg)}; }
  static Status Corruption(std::string msg) { return {StatusCode::kCorruption, std::move(msg)}; }
  static Status IOError(std::string msg) { return {StatusCode::kIOError, std::move(msg)}; }
  static Status NotSupported(std::string msg) { return {StatusCode::kNotSupported, std::move(msg)}; }
  static Status AlreadyExists(std::string msg) { return {StatusCode::kAlreadyExists, std::move(msg)}; }
  static Status Internal(std::string msg) { return {StatusCode::kInternal, std::move(msg)}; }

  bool ok() const { return state_ == nullptr; }
  StatusCode code() const { return ok() ? StatusCode::kOk : state_->code; }
  // The message without the code name; empty when OK.
  const std::string& message() const;
  // "OK" or "<code name>: <message>".
  std::string ToString() const;

  // A copy whose message is "<prefix>: <message>" (OK stays OK). Used to add the input's
  // name or the operation as an error travels up.
  Status WithPrefix(std::string_view prefix) const;

 private:
  struct State {
    StatusCode code;
    std::string message;
  };
  std::shared_ptr<const State> state_;  // null means OK
};

// Either a value or a non-OK Status.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}        // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) {  // NOLINT: implicit by design
    if (std::get<Status>(v_).ok()) v_ = Status::Internal("Result constructed from an OK status");
  }

  bool ok() const { return std::holds_alternative<T>(v_); }
  Status status() const { return ok() ? Status::OK() : std::get<Status>(v_); }

  // REQUIRES: ok(). Aborts otherwise (a programming error, not an input error).
  T& value() & {
    Check();
    return std::get<T>(v_);
  }
  const T& value() const& {
    Check();
    return std::get<T>(v_);
  }
  T&& value() && {
    Check();
    return std::get<T>(std::move(v_));
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  T value_or(T fallback) const& { return ok() ? std::get<T>(v_) : std::move(fallback); }

 private:
  void Check() const {
    if (!ok()) std::abort();
  }
  std::variant<Status, T> v_;
};

}  // namespace taco

#define TACO_CONCAT_IMPL_(a, b) a##b
#define TACO_CONCAT_(a, b) TACO_CONCAT_IMPL_(a, b)

// Returns the Status of `expr` from the enclosing function if it is not OK.
#define TACO_RETURN_IF_ERROR(expr)               \
  do {                                           \
    ::taco::Status taco_status_ = (expr);        \
    if (!taco_status_.ok()) return taco_status_; \
  } while (0)

// `lhs = value of rexpr`, or returns its Status from the enclosing function.
// Usage: TACO_ASSIGN_OR_RETURN(auto reader, OpenLocalFile(path));
#define TACO_ASSIGN_OR_RETURN(lhs, rexpr) TACO_ASSIGN_OR_RETURN_IMPL_(TACO_CONCAT_(taco_result_, __LINE__), lhs, rexpr)
#define TACO_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, rexpr) \
  auto tmp = (rexpr);                                \
  if (!tmp.ok()) return tmp.status();                \
  lhs = std::move(tmp).value()

#endif  // TACO_STATUS_H_
