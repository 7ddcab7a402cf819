// DetectFormat (FORMAT §5.4), shared by Dataset::Open and the CLI, and IsLegacyPath.
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string>

#include "taco/dataset.h"
#include "taco/io.h"
#include "taco/legacy.h"

namespace taco {
namespace {

bool EndsWithNoCase(std::string_view s, std::string_view suffix) {
  if (s.size() < suffix.size()) return false;
  return std::equal(suffix.begin(), suffix.end(), s.end() - static_cast<ptrdiff_t>(suffix.size()), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
  });
}

std::string StripTrailingSlashes(std::string p) {
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  return p;
}

// The file's first bytes are `prefix`.
bool StartsWithBytes(const std::string& p, std::string_view prefix) {
  std::FILE* f = std::fopen(p.c_str(), "rb");
  if (f == nullptr) return false;
  char head[8] = {0};
  const size_t n = std::fread(head, 1, prefix.size(), f);
  std::fclose(f);
  return n == prefix.size() && std::string_view(head, n) == prefix;
}

// The first two bytes of a regular file are `#y` or `WX` (Tortilla 0.5 / TACO v1).
bool HasLegacyMagic(const std::string& p) { return StartsWithBytes(p, "#y") || StartsWithBytes(p, "WX"); }

bool IsRegularFile(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

}  // namespace

std::string_view DatasetFormatName(DatasetFormat format) {
  switch (format) {
    case DatasetFormat::kZip: return "zip";
    case DatasetFormat::kFolder: return "folder";
    case DatasetFormat::kTacocat: return "tacocat";
    case DatasetFormat::kLegacy: return "legacy";
  }
  return "unknown";
}

Result<DatasetFormat> DetectFormat(const std::string& path) {
  if (path.empty()) return Status::InvalidArgument("dataset path is empty");
  const std::string p = StripTrailingSlashes(path);
  if (EndsWithNoCase(p, ".tacocat") || EndsWithNoCase(p, "__tacocat__")) return DatasetFormat::kTacocat;
  if (EndsWithNoCase(p, ".tacozip") || EndsWithNoCase(p, ".zip")) return DatasetFormat::kZip;
  // Legacy BLOB files (spec/LEGACY.md §2.3): by name when remote, by magic when local.
  if (IsRemotePath(p) && (EndsWithNoCase(p, ".taco") || EndsWithNoCase(p, ".tortilla"))) return DatasetFormat::kLegacy;
  if (IsRemotePath(p)) return DatasetFormat::kFolder;  // FORMAT §9.5: a remote prefix is a FOLDER

  struct stat st;
  if (::stat(p.c_str(), &st) != 0) return Status::NotFound(path + ": no such file or directory");
  if (S_ISDIR(st.st_mode)) {
    if (IsRegularFile(p + "/.tacocat/COLLECTION.json")) return DatasetFormat::kTacocat;
    if (IsRegularFile(p + "/COLLECTION.json")) return DatasetFormat::kFolder;
    return Status::InvalidArgument(path +
                                   ": not a TACO dataset: a folder dataset needs COLLECTION.json (none found, "
                                   "and no .tacocat/ inside)");
  }
  // A .taco/.tortilla name without the magic is still read as legacy (which then says what
  // is wrong with it), unless the bytes are a ZIP.
  if (HasLegacyMagic(p) ||
      ((EndsWithNoCase(p, ".taco") || EndsWithNoCase(p, ".tortilla")) && !StartsWithBytes(p, "PK"))) {
    return DatasetFormat::kLegacy;
  }
  return DatasetFormat::kZip;  // any other file: let the ZIP reader say what is wrong with it
}

// taco/legacy.h: detection, falling back on the name when the path cannot be examined.
bool IsLegacyPath(const std::string& path) {
  auto f = DetectFormat(path);
  if (f.ok()) return *f == DatasetFormat::kLegacy;
  return EndsWithNoCase(path, ".taco") || EndsWithNoCase(path, ".tortilla");
}

}  // namespace taco
