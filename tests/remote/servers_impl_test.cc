// ServerProcess and FreePort(): see servers.h. (Named *_test.cc so that the tests/ glob
// compiles it into test_remote; it holds no tests.)
#include "servers.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <thread>

extern char** environ;

namespace taco::testing {
namespace {

bool Accepts(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return false;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  ::close(fd);
  return ok;
}

}  // namespace

int FreePort() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = 0;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(addr);
  int port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
    port = ntohs(addr.sin_port);
  }
  ::close(fd);
  return port;
}

ServerProcess::~ServerProcess() { Stop(); }

std::string ServerProcess::Start(const std::vector<std::string>& argv, int port) {
  port_ = port;
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  // posix_spawn, not fork: no atfork handlers run (DuckDB's allocator has some, and under
  // ThreadSanitizer they are reported as unlocks by the wrong thread in `make test-tsan`).
  pid_t pid = -1;
  const int rc = ::posix_spawn(&pid, args[0], nullptr, nullptr, args.data(), environ);
  if (rc != 0) {
    pid_ = -1;
    return "cannot start " + argv[0] + ": " + std::strerror(rc);
  }
  pid_ = pid;
  for (int i = 0; i < 200; ++i) {
    if (Accepts(port)) return "";
    int wstatus = 0;
    if (::waitpid(pid_, &wstatus, WNOHANG) == pid_) {
      pid_ = -1;
      return argv[0] + " exited before listening on port " + std::to_string(port);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  Stop();
  return argv[0] + " did not listen on port " + std::to_string(port);
}

void ServerProcess::Stop() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGTERM);
  int wstatus = 0;
  ::waitpid(pid_, &wstatus, 0);
  pid_ = -1;
}

size_t ServerProcess::CountLines(const std::string& log_path) {
  std::ifstream in(log_path);
  size_t n = 0;
  std::string line;
  while (std::getline(in, line)) ++n;
  return n;
}

}  // namespace taco::testing
