// A minimal HTTP(S) GET client on libcurl, used for http(s) URLs instead of GDAL /vsicurl/
// so that opening a remote file costs no HEAD request (internal to src/io and src/read).
//
// Contract:
//  * HttpGet() makes one GET (plus bounded retries): 5xx, 429, timeouts and connection
//    failures are retried up to MaxAttempts() times in total, with exponential backoff from
//    RetryDelay(); then the last failure is returned, naming the URL and the attempt count.
//  * 404/410 → NotFound, 401/403 → IOError "access denied", other 4xx → IOError; every
//    message reads "<url>: HTTP <code> <reason>".
//  * A body longer than `max_body` aborts the transfer and is an IOError (a server that
//    ignored the Range header); a body shorter than announced is an IOError.
//  * Settings (GDAL's names, config option or environment): GDAL_HTTP_MAX_RETRY (default 3
//    retries), GDAL_HTTP_RETRY_DELAY (seconds, default 0.5), GDAL_HTTP_TIMEOUT (seconds,
//    default 30), GDAL_HTTP_CONNECTTIMEOUT (default 10), GDAL_HTTP_UNSAFESSL,
//    GDAL_HTTP_USERAGENT, GDAL_HTTP_HEADERS ("Name: value" lines separated by \r\n);
//    proxies through libcurl's usual environment variables.
// Thread-safe (one curl handle per call).
#ifndef TACO_SRC_IO_HTTP_CLIENT_H_
#define TACO_SRC_IO_HTTP_CLIENT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "taco/status.h"

namespace taco::io {

struct HttpResponse {
  long status = 0;
  std::string body;
  std::string etag;
  std::string last_modified;
  // From Content-Range "bytes a-b/total" (206, 416); -1 when absent or "*".
  int64_t range_first = -1;
  int64_t range_last = -1;
  int64_t total_size = -1;
};

struct HttpByteRange {
  uint64_t offset = 0;
  uint64_t length = 0;  // > 0
};

// GET `url` (with "Range: bytes=offset-(offset+length-1)" when `range` is set).
// `name` is used in error messages.
Result<HttpResponse> HttpGet(const std::string& name, const std::string& url, std::optional<HttpByteRange> range,
                             uint64_t max_body);

// Takes one response header line as libcurl hands it over (the status line resets the
// fields; ETag, Last-Modified and Content-Range "bytes a-b/total" are kept, others ignored).
void ParseHttpHeaderLine(std::string_view line, HttpResponse* r);

// Validates a ranged response: 206 with a Content-Range starting at `range.offset` and a
// body of exactly the bytes asked (or fewer when the object ends first, `clamp_to_end`).
Status CheckRangeResponse(const std::string& name, const HttpResponse& r, const HttpByteRange& range,
                          bool clamp_to_end);

// "http://…" or "https://…" (case-insensitive), or "/vsicurl/http(s)://…" without options:
// the plain URL; otherwise nullopt.
std::optional<std::string> PlainHttpUrl(std::string_view path);

int MaxAttempts();

// True for the IOError of a ranged GET answered with more than the bytes asked (a server
// that ignores Range): callers that can use whole objects instead check for it.
inline constexpr std::string_view kRangeIgnored = "the server ignored the Range request";
bool IsRangeIgnored(const Status& status);

}  // namespace taco::io

#endif  // TACO_SRC_IO_HTTP_CLIENT_H_
