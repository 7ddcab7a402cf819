#include "http_message.h"

#include <cctype>
#include <charconv>
#include <cstring>

namespace taco::cli::serve {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// A decimal number of at most 19 digits, nothing else.
std::optional<uint64_t> Decimal(std::string_view s) {
  if (s.empty() || s.size() > 19) return std::nullopt;
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return value;
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The entity tags of a comma-separated list, each without its W/ prefix.
std::vector<std::string_view> EntityTags(std::string_view list) {
  std::vector<std::string_view> tags;
  while (!list.empty()) {
    size_t comma = list.find(',');
    std::string_view tag = Trim(list.substr(0, comma));
    if (tag.size() >= 2 && tag.substr(0, 2) == "W/") tag.remove_prefix(2);
    if (!tag.empty()) tags.push_back(tag);
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return tags;
}

}  // namespace

std::optional<std::string> Request::Header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (key == name) return value;
  }
  return std::nullopt;
}

bool Request::KeepAlive() const {
  std::string connection = Lower(Header("connection").value_or(""));
  if (version == "HTTP/1.0") return connection.find("keep-alive") != std::string::npos;
  return connection.find("close") == std::string::npos;
}

std::optional<Request> ParseRequestHead(std::string_view head) {
  Request request;
  size_t eol = head.find("\r\n");
  std::string_view line = head.substr(0, eol);
  size_t sp1 = line.find(' ');
  size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
  if (sp1 == std::string_view::npos || sp2 == std::string_view::npos || sp1 == 0 || sp2 == sp1 + 1) {
    return std::nullopt;
  }
  request.method = std::string(line.substr(0, sp1));
  request.target = std::string(line.substr(sp1 + 1, sp2 - sp1 - 1));
  request.version = std::string(line.substr(sp2 + 1));
  if (request.version != "HTTP/1.1" && request.version != "HTTP/1.0") return std::nullopt;
  for (char c : request.method) {
    if (!std::isupper(static_cast<unsigned char>(c))) return std::nullopt;
  }
  std::string_view rest = eol == std::string_view::npos ? std::string_view() : head.substr(eol + 2);
  while (!rest.empty()) {
    size_t end = rest.find("\r\n");
    std::string_view field = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 2);
    if (field.empty()) continue;
    size_t colon = field.find(':');
    if (colon == std::string_view::npos || colon == 0 || field.front() == ' ' || field.front() == '\t') {
      return std::nullopt;  // no name, or an obsolete folded line
    }
    std::string_view name = field.substr(0, colon);
    if (name.find_first_of(" \t") != std::string_view::npos) return std::nullopt;
    request.headers.emplace_back(Lower(name), std::string(Trim(field.substr(colon + 1))));
  }
  return request;
}

std::optional<std::vector<std::string>> TargetSegments(std::string_view target) {
  if (target.empty() || target.front() != '/') return std::nullopt;
  target = target.substr(0, target.find_first_of("?#"));
  std::vector<std::string> segments;
  while (!target.empty()) {
    target.remove_prefix(1);  // the '/'
    size_t slash = target.find('/');
    std::string_view raw = target.substr(0, slash);
    target = slash == std::string_view::npos ? std::string_view() : target.substr(slash);
    std::string segment;
    for (size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] != '%') {
        segment.push_back(raw[i]);
        continue;
      }
      if (i + 2 >= raw.size()) return std::nullopt;
      int hi = HexDigit(raw[i + 1]);
      int lo = HexDigit(raw[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      segment.push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    }
    if (segment.find('\0') != std::string::npos || segment.find('\\') != std::string::npos) return std::nullopt;
    // A decoded "/" would make one segment two: refused rather than re-split.
    if (segment.find('/') != std::string::npos) return std::nullopt;
    if (segment == "..") return std::nullopt;
    if (segment.empty() || segment == ".") continue;
    segments.push_back(std::move(segment));
  }
  return segments;
}

ByteRange ParseRange(const std::optional<std::string>& header, uint64_t size) {
  ByteRange range;
  if (!header) return range;
  std::string_view spec = Trim(*header);
  if (spec.size() < 6 || Lower(spec.substr(0, 6)) != "bytes=") return range;
  spec = Trim(spec.substr(6));
  if (spec.find(',') != std::string_view::npos) return range;  // several ranges: the whole object
  size_t dash = spec.find('-');
  if (dash == std::string_view::npos) return range;
  std::string_view a = Trim(spec.substr(0, dash));
  std::string_view b = Trim(spec.substr(dash + 1));
  if (a.empty()) {  // "-n": the last n bytes
    std::optional<uint64_t> n = Decimal(b);
    if (!n) return range;
    if (*n == 0 || size == 0) {
      range.kind = ByteRange::kUnsatisfiable;
      return range;
    }
    range.kind = ByteRange::kSatisfiable;
    range.first = *n >= size ? 0 : size - *n;
    range.last = size - 1;
    return range;
  }
  std::optional<uint64_t> first = Decimal(a);
  if (!first) return range;
  std::optional<uint64_t> last;
  if (!b.empty()) {
    last = Decimal(b);
    if (!last || *last < *first) return range;  // not a valid range-spec: ignored
  }
  if (*first >= size) {
    range.kind = ByteRange::kUnsatisfiable;
    return range;
  }
  range.kind = ByteRange::kSatisfiable;
  range.first = *first;
  range.last = last && *last < size - 1 ? *last : size - 1;
  return range;
}

bool IfNoneMatchMatches(std::string_view header, std::string_view etag) {
  if (Trim(header) == "*") return true;
  std::string_view bare = etag.substr(0, 2) == "W/" ? etag.substr(2) : etag;
  for (std::string_view tag : EntityTags(header)) {
    if (tag == bare) return true;
  }
  return false;
}

bool IfRangeHolds(std::string_view header, std::string_view etag, std::string_view last_modified) {
  header = Trim(header);
  if (!header.empty() && header.front() == '"') return header == etag;  // strong comparison
  if (header.substr(0, 2) == "W/") return false;
  return header == last_modified;
}

std::string HttpDate(std::time_t t) {
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  size_t n = std::strftime(buf, sizeof(buf), "%a, %d %b %Y %H:%M:%S GMT", &tm);
  return std::string(buf, n);
}

std::string_view ContentTypeFor(std::string_view name) {
  static constexpr std::pair<std::string_view, std::string_view> kTypes[] = {
      {".html", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".json", "application/json"},
      {".wasm", "application/wasm"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".tif", "image/tiff"},
      {".tiff", "image/tiff"},
      {".parquet", "application/vnd.apache.parquet"},
      {".zip", "application/zip"},
      {".tacozip", "application/zip"},
      {".txt", "text/plain; charset=utf-8"},
      {".map", "application/json"},
  };
  std::string lower = Lower(name);
  for (const auto& [ext, type] : kTypes) {
    if (lower.size() > ext.size() && lower.compare(lower.size() - ext.size(), ext.size(), ext) == 0) return type;
  }
  return "application/octet-stream";
}

std::string_view ReasonPhrase(int status) {
  switch (status) {
    case 200: return "OK";
    case 204: return "No Content";
    case 206: return "Partial Content";
    case 304: return "Not Modified";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 413: return "Content Too Large";
    case 416: return "Range Not Satisfiable";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 503: return "Service Unavailable";
    default: return "Unknown";
  }
}

}  // namespace taco::cli::serve
