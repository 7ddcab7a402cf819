// HttpGet() on libcurl: retries with backoff, status classification, body limits.
#include "io/http_client.h"
#include "io/io_log.h"

#include <cpl_conv.h>
#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>

namespace taco::io {
namespace {

std::string Setting(const char* key, const char* fallback) {
  const char* v = CPLGetConfigOption(key, nullptr);  // also reads the environment
  return v != nullptr ? std::string(v) : std::string(fallback);
}

double SettingDouble(const char* key, double fallback) {
  const std::string v = Setting(key, "");
  if (v.empty()) return fallback;
  char* end = nullptr;
  const double d = std::strtod(v.c_str(), &end);
  return (end != v.c_str() && d >= 0) ? d : fallback;
}

bool StartsWithNoCase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(s[i])) != prefix[i]) return false;
  }
  return true;
}

struct Transfer {
  HttpResponse* response;
  uint64_t max_body;
  bool overflow = false;
};

size_t OnBody(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const size_t n = size * count;
  if (t->response->body.size() + n > t->max_body) {
    t->overflow = true;
    return 0;  // aborts the transfer (CURLE_WRITE_ERROR)
  }
  t->response->body.append(data, n);
  return n;
}

std::string Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

bool ParseInt(std::string_view s, int64_t* out) {
  if (s.empty() || s.size() > 18) return false;
  int64_t v = 0;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    v = v * 10 + (c - '0');
  }
  *out = v;
  return true;
}

// "bytes a-b/total", "bytes */total".
void ParseContentRange(std::string_view v, HttpResponse* r) {
  if (!StartsWithNoCase(v, "bytes")) return;
  v.remove_prefix(5);
  while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
  const size_t slash = v.find('/');
  if (slash == std::string_view::npos) return;
  int64_t total = -1;
  if (ParseInt(v.substr(slash + 1), &total)) r->total_size = total;
  std::string_view span = v.substr(0, slash);
  const size_t dash = span.find('-');
  if (dash == std::string_view::npos) return;
  int64_t a = -1, b = -1;
  if (ParseInt(span.substr(0, dash), &a) && ParseInt(span.substr(dash + 1), &b)) {
    r->range_first = a;
    r->range_last = b;
  }
}

size_t OnHeader(char* data, size_t size, size_t count, void* user) {
  const size_t n = size * count;
  ParseHttpHeaderLine(std::string_view(data, n), static_cast<HttpResponse*>(user));
  return n;
}

std::string Reason(long code) {
  switch (code) {
    case 400: return "Bad Request";
    case 401: return "Unauthorized (access denied: check credentials)";
    case 403: return "Forbidden (access denied: check credentials)";
    case 404: return "Not Found";
    case 410: return "Gone";
    case 416: return "Range Not Satisfiable";
    case 429: return "Too Many Requests";
    case 500: return "Internal Server Error";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    default: return code >= 500 ? "server error" : "";
  }
}

std::string CodeText(long code) {
  std::string r = Reason(code);
  return "HTTP " + std::to_string(code) + (r.empty() ? "" : " " + r);
}

bool IsRetryableCurl(CURLcode rc) {
  switch (rc) {
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_COULDNT_CONNECT:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE: return true;
    default: return false;
  }
}

void InitCurlOnce() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct Attempt {
  Status status;
  bool retryable = false;
};

Attempt OneGet(const std::string& name, const std::string& url, const std::optional<HttpByteRange>& range,
               uint64_t max_body, HttpResponse* out) {
  *out = HttpResponse();
  CURL* curl = curl_easy_init();
  if (curl == nullptr) return {Status::Internal(name + ": cannot create an HTTP handle"), false};
  Transfer transfer{out, max_body};
  char error[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 10L);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &OnBody);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &transfer);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, &OnHeader);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, out);
  curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, nullptr);  // raw bytes only: offsets must be exact
  const long timeout_ms = static_cast<long>(SettingDouble("GDAL_HTTP_TIMEOUT", 30) * 1000);
  const long connect_ms = static_cast<long>(SettingDouble("GDAL_HTTP_CONNECTTIMEOUT", 10) * 1000);
  if (timeout_ms > 0) curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, timeout_ms);
  if (connect_ms > 0) curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, connect_ms);
  const std::string agent = Setting("GDAL_HTTP_USERAGENT", "taco-cpp");
  curl_easy_setopt(curl, CURLOPT_USERAGENT, agent.c_str());
  const std::string unsafe = Setting("GDAL_HTTP_UNSAFESSL", "NO");
  if (unsafe == "YES" || unsafe == "ON" || unsafe == "TRUE" || unsafe == "1") {
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 0L);
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 0L);
  }
  std::string range_text;
  if (range) {
    range_text = std::to_string(range->offset) + "-" + std::to_string(range->offset + range->length - 1);
    curl_easy_setopt(curl, CURLOPT_RANGE, range_text.c_str());
  }
  curl_slist* headers = nullptr;
  const std::string extra = Setting("GDAL_HTTP_HEADERS", "");
  size_t start = 0;
  while (start < extra.size()) {
    size_t end = extra.find_first_of("\r\n", start);
    if (end == std::string::npos) end = extra.size();
    std::string h = Trim(std::string_view(extra).substr(start, end - start));
    if (!h.empty()) headers = curl_slist_append(headers, h.c_str());
    start = end + 1;
  }
  if (headers != nullptr) curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);

  const CURLcode rc = curl_easy_perform(curl);
  long code = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code);
  curl_easy_cleanup(curl);
  curl_slist_free_all(headers);
  out->status = code;

  // An error status stands for itself, whatever the length of its body (a 404 page is
  // longer than a one-byte probe): only a successful answer can have ignored the Range.
  if (code >= 400) {
    if (code == 404 || code == 410) return {Status::NotFound(name + ": " + CodeText(code)), false};
    return {Status::IOError(name + ": " + CodeText(code)), code >= 500 || code == 429};
  }
  if (transfer.overflow) {
    return {Status::IOError(name + ": " + std::string(kRangeIgnored) + " (HTTP " + std::to_string(code) +
                            " with more than the " + std::to_string(max_body) + " bytes asked)"),
            false};
  }
  if (rc != CURLE_OK) {
    std::string what = error[0] != '\0' ? std::string(error) : std::string(curl_easy_strerror(rc));
    if (rc == CURLE_PARTIAL_FILE) what = "truncated response: " + what;
    if (rc == CURLE_OPERATION_TIMEDOUT) what = "timed out: " + what;
    return {Status::IOError(name + ": " + what), IsRetryableCurl(rc)};
  }
  if (code >= 200 && code < 300) return {Status::OK(), false};
  if (code == 404 || code == 410) return {Status::NotFound(name + ": " + CodeText(code)), false};
  const bool retry = code >= 500 || code == 429;
  return {Status::IOError(name + ": " + CodeText(code)), retry};
}

// "GET <url> bytes a-b: HTTP 206, n bytes, <time>" (plus the attempt when retried, and the
// failure when there is one).
void LogRequest(const std::string& url, const std::optional<HttpByteRange>& range, const HttpResponse& r,
                const Status& status, Clock::time_point start, int attempt, int attempts) {
  if (!LogEnabled(LogLevel::kVerbose)) return;
  std::string line = "GET ";
  line += url;
  if (range) {
    line += ' ';
    line += ByteRangeText(range->offset, range->length);
  }
  line += ": ";
  if (r.status != 0) {
    line += "HTTP ";
    line += std::to_string(r.status);
    line += ", ";
  }
  line += std::to_string(r.body.size());
  line += " bytes, ";
  line += ElapsedText(start);
  if (attempt > 1) {
    line += " (attempt ";
    line += std::to_string(attempt);
    line += " of ";
    line += std::to_string(attempts);
    line += ')';
  }
  if (!status.ok()) {
    line += " - ";
    line += status.message();
  }
  Log(LogLevel::kVerbose, line);
}

}  // namespace

void ParseHttpHeaderLine(std::string_view line, HttpResponse* r) {
  if (StartsWithNoCase(line, "http/")) {  // a new response (redirect, 100-continue)
    r->etag.clear();
    r->last_modified.clear();
    r->range_first = r->range_last = r->total_size = -1;
    return;
  }
  const size_t colon = line.find(':');
  if (colon == std::string_view::npos) return;
  std::string_view key = line.substr(0, colon);
  std::string value = Trim(line.substr(colon + 1));
  if (key.size() == 4 && StartsWithNoCase(key, "etag"))
    r->etag = value;
  else if (StartsWithNoCase(key, "last-modified") && key.size() == 13)
    r->last_modified = value;
  else if (StartsWithNoCase(key, "content-range") && key.size() == 13)
    ParseContentRange(value, r);
}

bool IsRangeIgnored(const Status& status) {
  return status.code() == StatusCode::kIOError && status.message().find(kRangeIgnored) != std::string::npos;
}

int MaxAttempts() {
  const double retries = SettingDouble("GDAL_HTTP_MAX_RETRY", 3);
  return 1 + static_cast<int>(std::min(retries, 20.0));
}

Result<HttpResponse> HttpGet(const std::string& name, const std::string& url, std::optional<HttpByteRange> range,
                             uint64_t max_body) {
  InitCurlOnce();
  const int attempts = MaxAttempts();
  double delay = SettingDouble("GDAL_HTTP_RETRY_DELAY", 0.5);
  HttpResponse response;
  Status last;
  for (int i = 1; i <= attempts; ++i) {
    const auto start = Clock::now();
    Attempt a = OneGet(name, url, range, max_body, &response);
    LogRequest(url, range, response, a.status, start, i, attempts);
    if (a.status.ok()) return response;
    last = a.status;
    if (!a.retryable) return last;
    if (i < attempts) {
      std::this_thread::sleep_for(std::chrono::duration<double>(delay));
      delay *= 2;
    }
  }
  if (attempts > 1)
    return Status::IOError(last.message() + " (gave up after " + std::to_string(attempts) + " attempts)");
  return last;
}

Status CheckRangeResponse(const std::string& name, const HttpResponse& r, const HttpByteRange& range,
                          bool clamp_to_end) {
  const std::string asked =
      "bytes " + std::to_string(range.offset) + "-" + std::to_string(range.offset + range.length - 1);
  if (r.status != 206) {
    return Status::IOError(name + ": " + std::string(kRangeIgnored) + " for " + asked + " (HTTP " +
                           std::to_string(r.status) + " instead of 206)");
  }
  if (r.range_first < 0 || static_cast<uint64_t>(r.range_first) != range.offset || r.range_last < r.range_first) {
    return Status::IOError(name + ": the server answered " + asked + " with a wrong or missing Content-Range");
  }
  const uint64_t announced = static_cast<uint64_t>(r.range_last - r.range_first + 1);
  const bool full = announced == range.length;
  const bool clamped = clamp_to_end && announced < range.length && r.total_size >= 0 &&
                       static_cast<uint64_t>(r.range_last + 1) == static_cast<uint64_t>(r.total_size);
  if (!full && !clamped) {
    return Status::IOError(name + ": short read: the server sent " + std::to_string(announced) + " of the " +
                           std::to_string(range.length) + " bytes asked at offset " + std::to_string(range.offset));
  }
  if (r.body.size() != announced) {
    return Status::IOError(name + ": short read: got " + std::to_string(r.body.size()) + " of " +
                           std::to_string(announced) + " bytes at offset " + std::to_string(range.offset));
  }
  return Status::OK();
}

std::optional<std::string> PlainHttpUrl(std::string_view path) {
  constexpr std::string_view kVsiCurl = "/vsicurl/";
  if (path.substr(0, kVsiCurl.size()) == kVsiCurl) path.remove_prefix(kVsiCurl.size());
  if (StartsWithNoCase(path, "http://") || StartsWithNoCase(path, "https://")) return std::string(path);
  return std::nullopt;
}

}  // namespace taco::io
