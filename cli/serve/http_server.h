// `taco serve`: the HTTP/1.1 server over plain POSIX sockets. One thread per connection (at
// most ServerOptions::max_connections; more are answered 503), keep-alive, GET/HEAD with
// single byte ranges, ETag/If-None-Match/If-Range, CORS for pages on other origins and an
// OPTIONS preflight. Files come only from ServedTree::Resolve; "/" without an explorer is a
// built-in page listing the datasets.
//
// Serve() blocks until SIGINT or SIGTERM (which it handles itself in the calling thread:
// call it from the main thread), then stops accepting, closes the open connections and
// returns OK. Errors (bind, listen) are returned as a Status naming the address.
#ifndef TACO_CLI_SERVE_HTTP_SERVER_H_
#define TACO_CLI_SERVE_HTTP_SERVER_H_

#include <functional>
#include <string>

#include "served_tree.h"
#include "taco/status.h"

namespace taco::cli::serve {

struct ServerOptions {
  std::string host = "127.0.0.1";  // numeric IPv4/IPv6 address or "localhost"
  int port = 0;                    // 0: a free port chosen by the system
  bool access_log = true;          // one line per request on stderr
  int max_connections = 64;        // open connections served at once
  int idle_timeout_ms = 15000;     // a kept-alive connection idle this long is closed
  std::string server_header;       // the Server header ("taco/<version>")
};

// Called once the socket listens, with the address and the port actually bound.
using ListeningCallback = std::function<void(const std::string& host, int port)>;

Status Serve(const ServedTree& tree, const ServerOptions& options, const ListeningCallback& on_listening);

// Whether `host` names a loopback address (127.0.0.0/8, ::1, "localhost").
bool IsLoopbackHost(const std::string& host);

}  // namespace taco::cli::serve

#endif  // TACO_CLI_SERVE_HTTP_SERVER_H_
