// IsRemotePath() and ToVsiPath(): how paths and URLs map onto GDAL virtual file names
// (FORMAT §6.1, §6.2).
#include <array>
#include <cctype>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

#include "taco/io.h"

namespace taco {
namespace {

struct SchemeMapping {
  std::string_view scheme;  // lower case, with "://"
  std::string_view vsi;     // replacement prefix
  bool keep_scheme;         // http(s): the whole URL follows the prefix
};

constexpr std::array<SchemeMapping, 8> kSchemes = {{
    {"http://", "/vsicurl/", true},
    {"https://", "/vsicurl/", true},
    {"s3://", "/vsis3/", false},
    {"gs://", "/vsigs/", false},
    {"az://", "/vsiaz/", false},
    {"azure://", "/vsiaz/", false},
    {"oss://", "/vsioss/", false},
    {"swift://", "/vsiswift/", false},
}};

bool StartsWithNoCase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(s[i])) != prefix[i]) return false;
  }
  return true;
}

const SchemeMapping* FindScheme(std::string_view path) {
  for (const SchemeMapping& m : kSchemes) {
    if (StartsWithNoCase(path, m.scheme)) return &m;
  }
  return nullptr;
}

// "/vsi<letters, digits or _>" followed by '/' or '?' ("/vsicurl?url=..."): a GDAL virtual
// file system prefix.
bool IsVsiPath(std::string_view path) {
  constexpr std::string_view kVsi = "/vsi";
  if (path.substr(0, kVsi.size()) != kVsi) return false;
  for (size_t i = kVsi.size(); i < path.size(); ++i) {
    const char c = path[i];
    if (c == '/' || c == '?') return i > kVsi.size();
    if (!std::islower(static_cast<unsigned char>(c)) && !std::isdigit(static_cast<unsigned char>(c)) && c != '_') {
      return false;
    }
  }
  return false;
}

std::string LocalVsiPath(std::string_view path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path p(path);
  fs::path abs = fs::absolute(p, ec);
  if (ec) abs = p;
  fs::path canon = fs::weakly_canonical(abs, ec);
  std::string out = ec ? abs.lexically_normal().string() : canon.string();
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

}  // namespace

bool IsRemotePath(std::string_view path) { return FindScheme(path) != nullptr || IsVsiPath(path); }

std::string ToVsiPath(std::string_view path) {
  if (IsVsiPath(path)) return std::string(path);
  if (const SchemeMapping* m = FindScheme(path)) {
    std::string out(m->vsi);
    out += m->keep_scheme ? path : path.substr(m->scheme.size());
    return out;
  }
  return LocalVsiPath(path);
}

bool ParseDecimal(std::string_view digits, uint64_t* out) {
  if (digits.empty() || digits.size() > 19) return false;
  uint64_t v = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  *out = v;
  return true;
}

std::optional<VsiSubfile> ParseVsiSubfile(std::string_view path) {
  constexpr std::string_view kPrefix = "/vsisubfile/";
  if (path.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  path.remove_prefix(kPrefix.size());
  const size_t comma = path.find(',');
  if (comma == std::string_view::npos) return std::nullopt;
  const std::string_view range = path.substr(0, comma);
  const size_t underscore = range.find('_');
  VsiSubfile out;
  if (underscore == std::string_view::npos || !ParseDecimal(range.substr(0, underscore), &out.offset) ||
      !ParseDecimal(range.substr(underscore + 1), &out.size)) {
    return std::nullopt;
  }
  out.root = std::string(path.substr(comma + 1));
  return out;
}

}  // namespace taco
