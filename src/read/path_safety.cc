// Implementation of path_safety.h.
#include "read/path_safety.h"

#include <optional>
#include <string>

#include "io/location.h"
#include "table/guard_functions.h"
#include "taco/model.h"
#include "util/quote.h"

namespace taco::read {
namespace {

constexpr std::string_view kPadding = "__TACOPAD__";
constexpr const char* kUntrusted = " (metadata is untrusted: no path is built from it that could leave the dataset)";

bool AllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// '%' (decoded by servers: "%2e%2e" is ".."), '?' and '#' (they end a URL path).
std::string UrlProblem(std::string_view text, std::string_view what) {
  for (char c : {'%', '?', '#'}) {
    if (text.find(c) != std::string_view::npos) {
      return std::string(what) + " " + util::Quote(text) + " contains '" + std::string(1, c) +
             "', which a web server would not read as part of a file name";
    }
  }
  return "";
}

}  // namespace

std::string StoredIdProblem(std::string_view id, bool url) {
  const bool padding = id.substr(0, kPadding.size()) == kPadding && AllDigits(id.substr(kPadding.size()));
  if (!padding) {
    Status st = ValidateSampleId(id);
    if (!st.ok()) return "sample " + st.message();
  }
  return url ? UrlProblem(id, "sample id") : "";
}

std::string RelativePathProblem(std::string_view path, bool folder, bool url) {
  const std::string quoted = "internal:relative_path " + util::Quote(path);
  std::string_view rest = path;
  if (folder) {
    if (rest.empty() || rest.back() != '/') return quoted + " of a FOLDER does not end with '/'";
    rest.remove_suffix(1);
  }
  if (rest.empty()) return quoted + " is empty";
  while (true) {
    const size_t slash = rest.find('/');
    std::string problem = StoredIdProblem(rest.substr(0, slash), url);
    if (!problem.empty()) return quoted + ": " + problem;
    if (slash == std::string_view::npos) break;
    rest.remove_prefix(slash + 1);
  }
  return "";
}

std::string SourceFileProblem(std::string_view path, bool url) {
  const std::string quoted = "internal:source_file " + util::Quote(path);
  if (path.empty()) return quoted + " is empty";
  if (path.front() == '/') return quoted + " is an absolute path (it must be relative to the TACOCAT's directory)";
  for (char c : path) {
    if (c == '\\') return quoted + " contains '\\'";
    if (c == '\0') return quoted + " contains a NUL byte";
  }
  std::string_view rest = path;
  while (true) {
    const size_t slash = rest.find('/');
    const std::string_view part = rest.substr(0, slash);
    if (part.empty()) return quoted + " has an empty path component";
    if (part == "." || part == "..") {
      return quoted + " has the component '" + std::string(part) + "' (it must stay inside the TACOCAT's directory)";
    }
    if (slash == std::string_view::npos) break;
    rest.remove_prefix(slash + 1);
  }
  return url ? UrlProblem(path, "internal:source_file") : "";
}

std::string RangeProblem(int64_t offset, int64_t size, int64_t limit) {
  const std::string range = "byte range " + std::to_string(offset) + "+" + std::to_string(size);
  if (offset < 0 || size < 0) return range + " is negative";
  if (limit >= 0 && (offset > limit || size > limit - offset)) {
    return range + " ends past the end of the container (" + std::to_string(limit) + " bytes)";
  }
  return "";
}

Status Refused(const std::string& dataset, const std::string& problem) {
  return Status::InvalidArgument(dataset + ": refused: " + problem + kUntrusted);
}

Status CheckInsideRoot(const std::string& dataset, const std::string& root, const std::string& path) {
  TACO_ASSIGN_OR_RETURN(std::optional<io::ResolvedPaths> real, io::RealPaths(dataset, root, path));
  if (!real) return Status::OK();  // no symbolic links there: a path is inside by its text
  const std::string& r = real->root;
  const std::string& p = real->path;
  if (p.size() > r.size() && p.compare(0, r.size(), r) == 0 && (r == "/" || p[r.size()] == '/')) return Status::OK();
  return Refused(dataset, "'" + path + "' resolves to '" + p + "', outside the dataset directory '" + r +
                              "' (a symbolic link leads out of it)");
}

Status RegisterPathGuards(table::Engine& engine, const std::string& dataset) {
  // The query's Status is prefixed with the dataset by the caller (Dataset::State::Prefixed).
  (void)dataset;
  auto refuse = [](const std::string& problem) {
    return problem.empty() ? problem : "refused: " + problem + kUntrusted;
  };
  TACO_RETURN_IF_ERROR(table::RegisterStringGuard(
      engine, kCheckedId, [refuse](std::string_view v, bool url) { return refuse(StoredIdProblem(v, url)); }));
  TACO_RETURN_IF_ERROR(table::RegisterStringGuard(engine, kCheckedRelativePath, [refuse](std::string_view v, bool url) {
    return refuse(RelativePathProblem(v, !v.empty() && v.back() == '/', url));
  }));
  TACO_RETURN_IF_ERROR(table::RegisterStringGuard(engine, kCheckedSourceFile, [refuse](std::string_view v, bool url) {
    return refuse(SourceFileProblem(v, url));
  }));
  return table::RegisterRangeGuard(engine, kCheckedRange, [refuse](int64_t offset, int64_t size, int64_t limit) {
    return refuse(RangeProblem(offset, size, limit));
  });
}

}  // namespace taco::read
