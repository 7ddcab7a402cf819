#include "util/exception_guard.h"

#include <filesystem>
#include <new>

#include <nlohmann/json.hpp>

#include "util/json_text.h"

namespace taco::util {

Status StatusFromCurrentException(std::string_view what) {
  const std::string name(what);
  try {
    throw;
  } catch (const std::bad_alloc&) {
    return Status::IOError(name + ": out of memory");
  } catch (const std::filesystem::filesystem_error& e) {
    std::string detail = e.path1().string();
    detail += detail.empty() ? "" : ": ";
    detail += e.code().message();
    return Status::IOError(name + ": " + SanitizeUtf8(detail));
  } catch (const nlohmann::json::exception& e) {
    return Status::Corruption(name + ": malformed JSON value (" + SanitizeUtf8(e.what()) + ")");
  } catch (const std::exception& e) {
    return Status::Internal(name + ": unexpected error: " + SanitizeUtf8(e.what()));
  } catch (...) {
    return Status::Internal(name + ": unexpected error of an unknown kind");
  }
}

}  // namespace taco::util
