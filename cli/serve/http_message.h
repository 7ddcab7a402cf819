// `taco serve`: the HTTP/1.1 pieces that need no socket: parsing a request head, the Range,
// If-None-Match and If-Range rules, percent-decoding, content types and dates. Pure
// functions, no I/O, thread-safe.
#ifndef TACO_CLI_SERVE_HTTP_MESSAGE_H_
#define TACO_CLI_SERVE_HTTP_MESSAGE_H_

#include <cstdint>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace taco::cli::serve {

struct Request {
  std::string method;                                        // "GET", "HEAD", ... as sent
  std::string target;                                        // the request target as sent ("/data/x.tacozip?y")
  std::string version;                                       // "HTTP/1.1" or "HTTP/1.0"
  std::vector<std::pair<std::string, std::string>> headers;  // names lower-cased, values trimmed

  // The value of the first header named `name` (lower case), or nullopt.
  std::optional<std::string> Header(std::string_view name) const;
  // Whether the connection stays open after the answer (HTTP/1.1 unless "Connection: close";
  // HTTP/1.0 only with "Connection: keep-alive").
  bool KeepAlive() const;
};

// Parses a request head (the bytes up to and without the blank line). nullopt when it is not
// an HTTP/1.x request line followed by "name: value" lines.
std::optional<Request> ParseRequestHead(std::string_view head);

// The path of a request target ("/a/b?q#f" -> "/a/b"), percent-decoded, split into its
// non-empty segments ("." segments dropped). nullopt when the target is not origin-form, a
// percent escape is malformed, or a segment is ".." or contains a NUL or a backslash.
std::optional<std::vector<std::string>> TargetSegments(std::string_view target);

// A Range header against an object of `size` bytes (RFC 9110 §14): one "bytes=a-b", "a-" or
// "-n". kIgnore when there is no header or it is not one valid byte range (then the whole
// object is sent, 200); kUnsatisfiable when the range starts past the end (416).
struct ByteRange {
  enum Kind { kIgnore, kSatisfiable, kUnsatisfiable } kind = kIgnore;
  uint64_t first = 0;  // inclusive
  uint64_t last = 0;   // inclusive; only for kSatisfiable
};
ByteRange ParseRange(const std::optional<std::string>& header, uint64_t size);

// Whether an If-None-Match value ("*" or a list of entity tags, weak or strong) matches
// `etag` under the weak comparison.
bool IfNoneMatchMatches(std::string_view header, std::string_view etag);

// Whether an If-Range value lets the Range apply: a strong entity tag equal to `etag`, or an
// HTTP date equal to `last_modified` (the Last-Modified string sent).
bool IfRangeHolds(std::string_view header, std::string_view etag, std::string_view last_modified);

// "Fri, 27 Nov 2026 13:25:04 GMT".
std::string HttpDate(std::time_t t);

// The Content-Type for a file name, by its extension (application/octet-stream otherwise).
std::string_view ContentTypeFor(std::string_view name);

// The reason phrase of a status code this server sends ("Partial Content").
std::string_view ReasonPhrase(int status);

}  // namespace taco::cli::serve

#endif  // TACO_CLI_SERVE_HTTP_MESSAGE_H_
