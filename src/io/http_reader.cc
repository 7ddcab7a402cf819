// HttpFileReader and OpenHttpFile(): see http_reader.h.
#include "io/http_reader.h"

#include <cstring>
#include <limits>
#include <string>
#include <utility>

#include "io/http_client.h"
#include "io/range_check.h"

namespace taco::io {

HttpFileReader::HttpFileReader(std::string name, std::string url, HttpValidator validator, std::string prefix)
    : name_(std::move(name)), url_(std::move(url)), validator_(std::move(validator)), prefix_(std::move(prefix)) {}

Status HttpFileReader::ReadAt(uint64_t offset, size_t n, void* out) const {
  TACO_RETURN_IF_ERROR(CheckRange(name_, offset, n, validator_.size));
  if (n == 0) return Status::OK();
  if (offset + n <= prefix_.size()) {
    std::memcpy(out, prefix_.data() + offset, n);
    return Status::OK();
  }
  const HttpByteRange range{offset, n};
  TACO_ASSIGN_OR_RETURN(HttpResponse r, HttpGet(name_, url_, range, n));
  TACO_RETURN_IF_ERROR(CheckRangeResponse(name_, r, range, /*clamp_to_end=*/false));
  if (r.total_size >= 0 && static_cast<uint64_t>(r.total_size) != validator_.size) {
    return Status::IOError(name_ + ": the object changed while being read (size " + std::to_string(r.total_size) +
                           ", was " + std::to_string(validator_.size) + ")");
  }
  if (!validator_.etag.empty() && !r.etag.empty() && r.etag != validator_.etag) {
    return Status::IOError(name_ + ": the object changed while being read (ETag " + r.etag + ", was " +
                           validator_.etag + ")");
  }
  std::memcpy(out, r.body.data(), n);
  return Status::OK();
}

Result<std::shared_ptr<const HttpFileReader>> OpenHttpFile(const std::string& name, const std::string& url,
                                                           uint64_t prefetch) {
  if (prefetch == 0) prefetch = 1;
  const HttpByteRange range{0, prefetch};
  auto got = HttpGet(name, url, range, prefetch);
  if (!got.ok()) return got.status();
  HttpResponse& r = *got;
  HttpValidator v;
  v.etag = r.etag;
  v.last_modified = r.last_modified;
  if (r.status == 416 && r.total_size == 0) {  // an empty object
    return std::make_shared<const HttpFileReader>(name, url, v, std::string());
  }
  if (r.status == 200) {
    // No Range support: acceptable only when the whole object fit in what was asked
    // (a longer body aborted the transfer in HttpGet).
    v.size = r.body.size();
    return std::make_shared<const HttpFileReader>(name, url, v, std::move(r.body));
  }
  TACO_RETURN_IF_ERROR(CheckRangeResponse(name, r, range, /*clamp_to_end=*/true));
  if (r.total_size < 0) return Status::IOError(name + ": the server did not say the object size (Content-Range)");
  v.size = static_cast<uint64_t>(r.total_size);
  return std::make_shared<const HttpFileReader>(name, url, v, std::move(r.body));
}

Result<std::string> FetchHttpObject(const std::string& name, const std::string& url) {
  TACO_ASSIGN_OR_RETURN(HttpObject o, FetchHttpObjectVersioned(name, url));
  return std::move(o.body);
}

Result<HttpObject> FetchHttpObjectVersioned(const std::string& name, const std::string& url) {
  TACO_ASSIGN_OR_RETURN(HttpResponse r, HttpGet(name, url, std::nullopt, std::numeric_limits<uint64_t>::max()));
  if (r.status != 200) {
    return Status::IOError(name + ": unexpected HTTP " + std::to_string(r.status) + " for a whole-object GET");
  }
  HttpObject o;
  o.validator.size = r.body.size();
  o.validator.etag = std::move(r.etag);
  o.validator.last_modified = std::move(r.last_modified);
  o.body = std::move(r.body);
  return o;
}

}  // namespace taco::io
