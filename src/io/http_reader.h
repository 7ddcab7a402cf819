// HttpFileReader: a RangeReader over an http(s) object, on io::HttpGet (internal).
//
// Opening makes ONE ranged GET of the first `prefetch` bytes and learns the object size from
// Content-Range (no HEAD). Those bytes are kept and serve any later ReadAt() inside them; any
// other ReadAt() is one ranged GET, checked with CheckRangeResponse() (206, same start,
// exactly the bytes asked). A 200 answer is accepted at open only when it carries the whole
// object within the `prefetch` bytes asked (a server without Range support serving a small
// file); a longer body is refused. Opening with a known size (from the cache) makes no request.
#ifndef TACO_SRC_IO_HTTP_READER_H_
#define TACO_SRC_IO_HTTP_READER_H_

#include <cstdint>
#include <memory>
#include <string>

#include "taco/io.h"

namespace taco::io {

// Default number of bytes fetched by the opening GET.
inline constexpr uint64_t kDefaultPrefetch = 64 * 1024;

struct HttpValidator {
  uint64_t size = 0;
  std::string etag;
  std::string last_modified;
};

class HttpFileReader final : public RangeReader {
 public:
  HttpFileReader(std::string name, std::string url, HttpValidator validator, std::string prefix);
  uint64_t size() const override { return validator_.size; }
  const std::string& name() const override { return name_; }
  Status ReadAt(uint64_t offset, size_t n, void* out) const override;

  const std::string& url() const { return url_; }
  const HttpValidator& validator() const { return validator_; }
  // The bytes [0, prefix().size()) fetched at open.
  const std::string& prefix() const { return prefix_; }

 private:
  std::string name_;
  std::string url_;
  HttpValidator validator_;
  std::string prefix_;
};

// `name` names the object in errors; `url` is a plain http(s) URL.
Result<std::shared_ptr<const HttpFileReader>> OpenHttpFile(const std::string& name, const std::string& url,
                                                           uint64_t prefetch = kDefaultPrefetch);

// The whole object with one GET (no Range).
Result<std::string> FetchHttpObject(const std::string& name, const std::string& url);

struct HttpObject {
  std::string body;
  HttpValidator validator;  // size = body.size(), ETag and Last-Modified of that response
};

// FetchHttpObject(), also returning the version the bytes belong to (for the disk cache).
Result<HttpObject> FetchHttpObjectVersioned(const std::string& name, const std::string& url);

}  // namespace taco::io

#endif  // TACO_SRC_IO_HTTP_READER_H_
