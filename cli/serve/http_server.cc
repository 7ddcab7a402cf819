#include "http_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <set>
#include <system_error>
#include <thread>

#include "http_message.h"

namespace taco::cli::serve {
namespace {

constexpr size_t kMaxHead = 16 * 1024;
constexpr uint64_t kMaxIgnoredBody = 1 << 20;
constexpr size_t kChunk = 256 * 1024;

// The write end of the pipe the SIGINT/SIGTERM handler writes to.
int g_stop_pipe[2] = {-1, -1};

void OnStopSignal(int sig) {
  const int saved = errno;
  const unsigned char byte = static_cast<unsigned char>(sig);
  ssize_t written = ::write(g_stop_pipe[1], &byte, 1);  // async-signal-safe
  (void)written;
  errno = saved;
}

std::string Hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%llx", static_cast<unsigned long long>(v));
  return buf;
}

// The strong ETag of a file: "<size hex>-<mtime in ns hex>". (Appended piece by piece: GCC 12
// warns falsely (-Wrestrict) about some inlined chains of operator+ on strings.)
std::string EntityTag(uint64_t size, uint64_t mtime_ns) {
  std::string tag = "\"";
  tag += Hex(size);
  tag += '-';
  tag += Hex(mtime_ns);
  tag += '"';
  return tag;
}

// `s` for a log line: control bytes, '"' and bytes >= 0x7f as '?' (a request cannot write
// escape sequences to the terminal or fake a second line).
std::string Printable(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7f || c == '"') c = '?';
  }
  return out;
}

std::string HtmlEscape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

// The page at "/" when no explorer is served: the datasets and their URLs.
std::string BuiltInIndex(const ServedTree& tree) {
  std::string html =
      "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>taco serve</title></head><body>\n"
      "<h1>taco serve</h1>\n<p>The explorer is not built (it is served here when it is: <code>make</code> "
      "builds it, or <code>taco serve --explorer DIR</code>). The datasets served, with HTTP Range, ETag and "
      "CORS:</p>\n<ul>\n";
  for (const Mount& m : tree.mounts()) {
    html += "<li><a href=\"" + HtmlEscape(m.url_path) + "\">" + HtmlEscape(m.url_path) + "</a> (" +
            std::string(MountKindName(m.kind)) + ", from " + HtmlEscape(m.source) + ")</li>\n";
  }
  html += "</ul>\n</body></html>\n";
  return html;
}

// The state every connection thread shares; kept alive by the threads that still run.
struct Shared {
  const ServedTree* tree = nullptr;
  ServerOptions options;
  std::mutex mu;
  std::condition_variable cv;
  std::set<int> open_fds;  // connections being served
  std::atomic<uint64_t> requests{0};
  std::mutex log_mu;
};

bool SendAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

// What one request was answered, for the access log.
struct Answer {
  int status = 0;
  uint64_t body_bytes = 0;
  bool keep_alive = true;
};

class Connection {
 public:
  Connection(std::shared_ptr<Shared> shared, int fd, std::string peer)
      : shared_(std::move(shared)), fd_(fd), peer_(std::move(peer)) {}

  void Run() {
    for (;;) {
      std::optional<std::string> head = ReadHead();
      if (!head) return;
      const auto start = std::chrono::steady_clock::now();
      std::optional<Request> request = ParseRequestHead(*head);
      Answer answer;
      if (!request) {
        answer = Simple(400, "bad request\n", false, false);
        Log("-", "-", "-", answer, start);
        return;
      }
      if (!DiscardBody(*request, answer)) {
        Log(request->method, request->target, request->version, answer, start);
        return;
      }
      answer = Handle(*request);
      Log(request->method, request->target, request->version, answer, start);
      if (!answer.keep_alive || !ok_) return;
    }
  }

 private:
  // The next request head (without its blank line), or nullopt when the connection ends: closed
  // by the client, idle too long, stopped, or a head too large (431 sent).
  std::optional<std::string> ReadHead() {
    for (;;) {
      size_t end = buffer_.find("\r\n\r\n");
      if (end != std::string::npos) {
        std::string head = buffer_.substr(0, end);
        buffer_.erase(0, end + 4);
        return head;
      }
      if (buffer_.size() > kMaxHead) {
        Simple(431, "request head too large\n", false, false);
        return std::nullopt;
      }
      pollfd p{fd_, POLLIN, 0};
      int r = ::poll(&p, 1, shared_->options.idle_timeout_ms);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) return std::nullopt;
      char buf[8192];
      ssize_t n = ::recv(fd_, buf, sizeof(buf), 0);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return std::nullopt;
      buffer_.append(buf, static_cast<size_t>(n));
    }
  }

  // Reads and drops a request body (these methods need none); false when the connection must
  // close (a chunked or too large body, answered).
  bool DiscardBody(const Request& request, Answer& answer) {
    if (request.Header("transfer-encoding")) {
      answer = Simple(501, "request bodies are not accepted\n", false, false);
      return false;
    }
    std::optional<std::string> length = request.Header("content-length");
    if (!length) return true;
    char* end = nullptr;
    errno = 0;
    unsigned long long n = std::strtoull(length->c_str(), &end, 10);
    if (errno != 0 || end == length->c_str() || *end != '\0' || n > kMaxIgnoredBody) {
      answer = Simple(413, "request body too large\n", false, false);
      return false;
    }
    while (buffer_.size() < n) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, shared_->options.idle_timeout_ms) <= 0) return false;
      char buf[8192];
      ssize_t got = ::recv(fd_, buf, sizeof(buf), 0);
      if (got <= 0) return false;
      buffer_.append(buf, static_cast<size_t>(got));
    }
    buffer_.erase(0, n);
    return true;
  }

  std::string CommonHeaders(int status, bool keep_alive) const {
    std::string h = "HTTP/1.1 " + std::to_string(status) + " " + std::string(ReasonPhrase(status)) + "\r\n";
    h += "Date: " + HttpDate(std::time(nullptr)) + "\r\n";
    if (!shared_->options.server_header.empty()) h += "Server: " + shared_->options.server_header + "\r\n";
    h += "Access-Control-Allow-Origin: *\r\n";
    h += "Access-Control-Expose-Headers: Content-Range, Content-Length, ETag, Accept-Ranges, Last-Modified\r\n";
    h += keep_alive ? "Connection: keep-alive\r\n" : "Connection: close\r\n";
    return h;
  }

  // A small text (or HTML) answer with its body.
  Answer Simple(int status, const std::string& body, bool keep_alive, bool head_only,
                std::string_view type = "text/plain; charset=utf-8", const std::string& extra = "") {
    std::string h = CommonHeaders(status, keep_alive);
    h += "Content-Type: " + std::string(type) + "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
    h += extra + "\r\n";
    if (!head_only) h += body;
    ok_ = SendAll(fd_, h.data(), h.size()) && ok_;
    return {status, head_only ? 0 : body.size(), keep_alive};
  }

  Answer Handle(const Request& request) {
    const bool keep_alive = request.KeepAlive();
    std::optional<std::vector<std::string>> segments = TargetSegments(request.target);
    if (request.method == "OPTIONS") {
      std::string h = CommonHeaders(204, keep_alive);
      h += "Access-Control-Allow-Methods: GET, HEAD, OPTIONS\r\n"
           "Access-Control-Allow-Headers: Range, If-None-Match, If-Range\r\n"
           "Access-Control-Max-Age: 86400\r\nAllow: GET, HEAD, OPTIONS\r\nContent-Length: 0\r\n\r\n";
      ok_ = SendAll(fd_, h.data(), h.size());
      return {204, 0, keep_alive};
    }
    const bool head_only = request.method == "HEAD";
    if (request.method != "GET" && !head_only) {
      return Simple(405, "only GET, HEAD and OPTIONS\n", keep_alive, false, "text/plain; charset=utf-8",
                    "Allow: GET, HEAD, OPTIONS\r\n");
    }
    if (!segments) return Simple(404, "not found\n", keep_alive, head_only);
    const ServedTree& tree = *shared_->tree;
    if (!tree.has_explorer() && (segments->empty() || (segments->size() == 1 && (*segments)[0] == "index.html"))) {
      return Simple(200, BuiltInIndex(tree), keep_alive, head_only, "text/html; charset=utf-8",
                    "Cache-Control: no-cache\r\n");
    }
    std::optional<std::string> file = tree.Resolve(*segments);
    if (!file) return Simple(404, "not found\n", keep_alive, head_only);
    int in = ::open(file->c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    struct stat st {};
    if (in < 0 || ::fstat(in, &st) != 0 || !S_ISREG(st.st_mode)) {
      if (in >= 0) ::close(in);
      return Simple(404, "not found\n", keep_alive, head_only);
    }
    Answer answer = SendFile(request, in, st, *file, keep_alive, head_only);
    ::close(in);
    return answer;
  }

  Answer SendFile(const Request& request, int in, const struct stat& st, const std::string& file, bool keep_alive,
                  bool head_only) {
    const uint64_t size = static_cast<uint64_t>(st.st_size);
    const uint64_t mtime_ns =
        static_cast<uint64_t>(st.st_mtim.tv_sec) * 1000000000ull + static_cast<uint64_t>(st.st_mtim.tv_nsec);
    const std::string etag = EntityTag(size, mtime_ns);
    const std::string last_modified = HttpDate(st.st_mtim.tv_sec);
    std::string validators = "ETag: " + etag + "\r\nLast-Modified: " + last_modified +
                             "\r\nAccept-Ranges: bytes\r\nCache-Control: no-cache\r\n";
    if (std::optional<std::string> inm = request.Header("if-none-match"); inm && IfNoneMatchMatches(*inm, etag)) {
      std::string h = CommonHeaders(304, keep_alive) + validators + "\r\n";
      ok_ = SendAll(fd_, h.data(), h.size());
      return {304, 0, keep_alive};
    }
    ByteRange range = ParseRange(request.Header("range"), size);
    if (std::optional<std::string> if_range = request.Header("if-range");
        if_range && !IfRangeHolds(*if_range, etag, last_modified)) {
      range = ByteRange{};  // the object changed: all of it
    }
    if (range.kind == ByteRange::kUnsatisfiable) {
      return Simple(416, "range not satisfiable\n", keep_alive, head_only, "text/plain; charset=utf-8",
                    validators + "Content-Range: bytes */" + std::to_string(size) + "\r\n");
    }
    int status = 200;
    uint64_t first = 0;
    uint64_t length = size;
    std::string h;
    if (range.kind == ByteRange::kSatisfiable) {
      status = 206;
      first = range.first;
      length = range.last - range.first + 1;
      h = CommonHeaders(206, keep_alive) + "Content-Range: bytes " + std::to_string(range.first) + "-" +
          std::to_string(range.last) + "/" + std::to_string(size) + "\r\n";
    } else {
      h = CommonHeaders(200, keep_alive);
    }
    h += validators + "Content-Type: " + std::string(ContentTypeFor(file)) +
         "\r\nContent-Length: " + std::to_string(length) + "\r\n\r\n";
    if (!SendAll(fd_, h.data(), h.size())) {
      ok_ = false;
      return {status, 0, false};
    }
    if (head_only) return {status, 0, keep_alive};
    std::string chunk(static_cast<size_t>(std::min<uint64_t>(kChunk, length)), '\0');
    uint64_t sent = 0;
    while (sent < length) {
      size_t want = static_cast<size_t>(std::min<uint64_t>(chunk.size(), length - sent));
      ssize_t n = ::pread(in, chunk.data(), want, static_cast<off_t>(first + sent));
      if (n < 0 && errno == EINTR) continue;
      // A file that shrank meanwhile: the promised length cannot be kept; close the connection.
      if (n <= 0 || !SendAll(fd_, chunk.data(), static_cast<size_t>(n))) {
        ok_ = false;
        return {status, sent, false};
      }
      sent += static_cast<uint64_t>(n);
    }
    return {status, sent, keep_alive};
  }

  void Log(const std::string& method, const std::string& target, const std::string& version, const Answer& answer,
           std::chrono::steady_clock::time_point start) {
    shared_->requests.fetch_add(1);
    if (!shared_->options.access_log) return;
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::string line = peer_ + " \"" + Printable(method) + " " + Printable(target) + " " + Printable(version) + "\" " +
                       std::to_string(answer.status) + " " + std::to_string(answer.body_bytes);
    char tail[64];
    std::snprintf(tail, sizeof(tail), " %.1fms\n", ms);
    line += tail;
    std::lock_guard<std::mutex> lock(shared_->log_mu);
    std::fwrite(line.data(), 1, line.size(), stderr);
    std::fflush(stderr);
  }

  std::shared_ptr<Shared> shared_;
  int fd_;
  std::string peer_;
  std::string buffer_;
  bool ok_ = true;
};

std::string PeerName(const sockaddr_storage& addr) {
  char host[INET6_ADDRSTRLEN] = "?";
  int port = 0;
  if (addr.ss_family == AF_INET) {
    const auto* a = reinterpret_cast<const sockaddr_in*>(&addr);
    ::inet_ntop(AF_INET, &a->sin_addr, host, sizeof(host));
    port = ntohs(a->sin_port);
    return std::string(host) + ":" + std::to_string(port);
  }
  const auto* a = reinterpret_cast<const sockaddr_in6*>(&addr);
  ::inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof(host));
  port = ntohs(a->sin6_port);
  std::string name = "[";
  name += host;
  name += "]:";
  name += std::to_string(port);
  return name;
}

// A listening socket on host:port, or an error naming the address.
Result<int> Listen(const std::string& host, int port, int& bound_port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  const std::string where = host + ":" + std::to_string(port);
  int rc = ::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found);
  if (rc != 0) return Status::InvalidArgument("--host " + host + ": " + ::gai_strerror(rc));
  std::string why = "no address";
  int fd = -1;
  for (addrinfo* ai = found; ai != nullptr && fd < 0; ai = ai->ai_next) {
    fd = ::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) {
      why = std::strerror(errno);
      continue;
    }
    int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (::bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || ::listen(fd, 128) != 0) {
      why = std::strerror(errno);
      ::close(fd);
      fd = -1;
    }
  }
  ::freeaddrinfo(found);
  if (fd < 0) return Status::IOError("listening on " + where + ": " + why);
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  bound_port = addr.ss_family == AF_INET ? ntohs(reinterpret_cast<sockaddr_in*>(&addr)->sin_port)
                                         : ntohs(reinterpret_cast<sockaddr_in6*>(&addr)->sin6_port);
  return fd;
}

}  // namespace

bool IsLoopbackHost(const std::string& host) {
  if (host == "localhost") return true;
  in_addr v4{};
  if (::inet_pton(AF_INET, host.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  if (::inet_pton(AF_INET6, host.c_str(), &v6) == 1) return IN6_IS_ADDR_LOOPBACK(&v6);
  return false;
}

Status Serve(const ServedTree& tree, const ServerOptions& options, const ListeningCallback& on_listening) {
  int port = 0;
  Result<int> listening = Listen(options.host, options.port, port);
  if (!listening.ok()) return listening.status();
  const int listen_fd = *listening;
  if (::pipe2(g_stop_pipe, O_CLOEXEC) != 0) {
    ::close(listen_fd);
    return Status::IOError(std::string("pipe: ") + std::strerror(errno));
  }
  // SIGINT/SIGTERM: handled here (the stop pipe), in this thread, instead of ending the process.
  struct sigaction action {};
  action.sa_handler = OnStopSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  ::sigaction(SIGINT, &action, nullptr);
  ::sigaction(SIGTERM, &action, nullptr);
  sigset_t stop_set;
  sigemptyset(&stop_set);
  sigaddset(&stop_set, SIGINT);
  sigaddset(&stop_set, SIGTERM);
  ::pthread_sigmask(SIG_UNBLOCK, &stop_set, nullptr);

  auto shared = std::make_shared<Shared>();
  shared->tree = &tree;
  shared->options = options;
  on_listening(options.host, port);

  for (;;) {
    pollfd fds[2] = {{listen_fd, POLLIN, 0}, {g_stop_pipe[0], POLLIN, 0}};
    int r = ::poll(fds, 2, -1);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0 || (fds[1].revents & POLLIN) != 0) break;
    if ((fds[0].revents & POLLIN) == 0) continue;
    sockaddr_storage addr{};
    socklen_t len = sizeof(addr);
    int fd = ::accept4(listen_fd, reinterpret_cast<sockaddr*>(&addr), &len, SOCK_CLOEXEC);
    if (fd < 0) continue;  // the client gave up, or no descriptor left for now
    std::string peer = PeerName(addr);
    {
      std::lock_guard<std::mutex> lock(shared->mu);
      if (static_cast<int>(shared->open_fds.size()) >= options.max_connections) {
        static const char kBusy[] =
            "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nAccess-Control-Allow-Origin: *\r\n"
            "Content-Length: 0\r\nConnection: close\r\n\r\n";
        SendAll(fd, kBusy, sizeof(kBusy) - 1);
        ::close(fd);
        continue;
      }
      shared->open_fds.insert(fd);
    }
    try {
      std::thread([shared, fd, peer] {
        Connection(shared, fd, peer).Run();
        std::lock_guard<std::mutex> lock(shared->mu);
        shared->open_fds.erase(fd);
        ::close(fd);
        shared->cv.notify_all();
      }).detach();
    } catch (const std::system_error&) {  // no thread to be had now: this client is dropped
      std::lock_guard<std::mutex> lock(shared->mu);
      shared->open_fds.erase(fd);
      ::close(fd);
    }
  }

  ::close(listen_fd);
  std::unique_lock<std::mutex> lock(shared->mu);
  for (int fd : shared->open_fds) ::shutdown(fd, SHUT_RDWR);  // wakes their poll/recv
  shared->cv.wait_for(lock, std::chrono::seconds(5), [&] { return shared->open_fds.empty(); });
  if (options.access_log) {
    std::lock_guard<std::mutex> log_lock(shared->log_mu);
    std::fprintf(stderr, "taco serve: stopped after %llu requests\n",
                 static_cast<unsigned long long>(shared->requests.load()));
  }
  return Status::OK();
}

}  // namespace taco::cli::serve
