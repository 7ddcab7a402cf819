// Real HTTP servers for the remote tests, started on free 127.0.0.1 ports and stopped on
// destruction: nginx (Range support, one access-log line per request) and a small Python
// fault-injecting server (tests/remote/fault_server.py).
#ifndef TACO_TESTS_REMOTE_SERVERS_H_
#define TACO_TESTS_REMOTE_SERVERS_H_

#include <sys/types.h>

#include <string>
#include <vector>

namespace taco::testing {

// A port nobody listens on right now (bound to 127.0.0.1:0, then released).
int FreePort();

class ServerProcess {
 public:
  ServerProcess() = default;
  ~ServerProcess();
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  // Starts `argv` and waits until 127.0.0.1:port accepts connections. Empty on success,
  // else why it failed.
  std::string Start(const std::vector<std::string>& argv, int port);
  void Stop();
  int port() const { return port_; }
  // Lines in `log_path` (one per request).
  static size_t CountLines(const std::string& log_path);

 private:
  pid_t pid_ = -1;
  int port_ = 0;
};

}  // namespace taco::testing

#endif  // TACO_TESTS_REMOTE_SERVERS_H_
