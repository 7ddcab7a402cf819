#include "write/atomic_output.h"

#include "taco/writer.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>  // renameat2
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <random>
#include <set>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

namespace taco {
namespace fs = std::filesystem;

namespace {

std::string Hex8(uint32_t v) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(8, '0');
  for (int i = 0; i < 8; ++i) out[i] = kHex[(v >> (4 * (7 - i))) & 0xf];
  return out;
}

std::string RandomSuffix() {
  static thread_local std::mt19937_64 rng([] {
    std::random_device rd;
    return (static_cast<uint64_t>(rd()) << 32) ^ rd();
  }());
  return Hex8(static_cast<uint32_t>(rng()));
}

// 8 hex digits of an FNV-1a hash of the host name: tells temporaries of processes on other
// hosts (a shared file system) from ours, whose liveness we cannot check.
const std::string& HostTag() {
  static const std::string tag = [] {
    char host[256] = {};
    if (::gethostname(host, sizeof(host) - 1) != 0) host[0] = '\0';
    uint32_t h = 2166136261u;
    for (const char* c = host; *c != '\0'; ++c) h = (h ^ static_cast<unsigned char>(*c)) * 16777619u;
    return Hex8(h);
  }();
  return tag;
}

// The registry of uncommitted outputs. Never destroyed: the signal thread may use it while
// static destructors run.
std::mutex& RegistryMutex() {
  static auto* mu = new std::mutex();
  return *mu;
}
std::set<AtomicOutput*>& Registry() {
  static auto* live = new std::set<AtomicOutput*>();
  return *live;
}

bool AllDigits(std::string_view s) {
  if (s.empty() || s.size() > 9) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

bool AllHex(std::string_view s) {
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

// Removes "<dir>/.<name>.tmp-<pid>-<host>-<8 hex>" entries of this host whose process is gone.
void RemoveStaleTemporaries(const fs::path& dir, const std::string& name) {
  const std::string prefix = "." + name + ".tmp-";
  std::error_code ec;
  fs::directory_iterator it(dir.empty() ? fs::path(".") : dir, ec);
  if (ec) return;
  std::vector<fs::path> stale;
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec) break;
    const std::string file = it->path().filename().string();
    if (file.rfind(prefix, 0) != 0) continue;
    const std::string_view rest = std::string_view(file).substr(prefix.size());
    // <pid>-<host 8 hex>-<random 8 hex>
    const size_t dash = rest.find('-');
    if (dash == std::string_view::npos || rest.size() != dash + 1 + 8 + 1 + 8) continue;
    const std::string_view pid_text = rest.substr(0, dash);
    const std::string_view host = rest.substr(dash + 1, 8);
    if (!AllDigits(pid_text) || rest[dash + 9] != '-' || !AllHex(rest.substr(dash + 10)) || host != HostTag()) {
      continue;
    }
    const pid_t pid = static_cast<pid_t>(std::stol(std::string(pid_text)));
    if (pid <= 0 || pid == ::getpid()) continue;
    if (::kill(pid, 0) == 0 || errno != ESRCH) continue;  // alive (or not ours to ask about)
    stale.push_back(it->path());
  }
  for (const fs::path& p : stale) fs::remove_all(p, ec);
}

// Removes a temporary tree, retrying while a writer thread still adds to it. Once the root is
// gone nothing re-creates it (writers make one directory level at a time below it), so the
// retries only race writers creating entries in directories not yet removed; on a loaded
// machine a tight loop can lose that race every time, hence the growing pauses (at most about
// 1.5 s in all before giving up).
void RemoveTree(const std::string& path) {
  for (int attempt = 0; attempt < 60; ++attempt) {
    std::error_code ec;
    fs::remove_all(path, ec);
    struct stat st;
    if (::lstat(path.c_str(), &st) != 0) return;
    if (attempt >= 5) std::this_thread::sleep_for(std::chrono::milliseconds(std::min(attempt, 40)));
  }
}

bool EntryExists(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0;
}

// Creates the missing ancestors of `dir` (and `dir`), appending each one this call created
// to `created`, deepest first. On failure, removes what it created.
Status MakeParents(const fs::path& dir, std::vector<std::string>* created) {
  std::vector<fs::path> missing;  // deepest first
  for (fs::path p = dir; !p.empty(); p = p.parent_path()) {
    std::error_code ec;
    if (fs::exists(p, ec)) break;
    missing.push_back(p);
    if (p == p.parent_path()) break;
  }
  std::vector<std::string> made;  // shallowest first
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
    if (::mkdir(it->c_str(), 0777) == 0) {
      made.push_back(it->string());
    } else if (errno != EEXIST) {
      const int err = errno;
      for (auto undo = made.rbegin(); undo != made.rend(); ++undo) ::rmdir(undo->c_str());
      return Status::IOError(it->string() + ": cannot create directory: " + std::strerror(err));
    }
  }
  created->insert(created->end(), made.rbegin(), made.rend());
  return Status::OK();
}

// rename() that never replaces `to`. Returns 0 or an errno value.
int RenameNoReplace(const std::string& from, const std::string& to, bool is_directory) {
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return 0;
  const int err = errno;
  if (err != EINVAL && err != ENOSYS && err != ENOTSUP) return err;
  // The file system cannot do RENAME_NOREPLACE.
  if (!is_directory) {
    if (::link(from.c_str(), to.c_str()) == 0) {
      ::unlink(from.c_str());
      return 0;
    }
    if (errno == EEXIST) return EEXIST;
    // No hard links either: fall through to a checked rename.
  }
  if (EntryExists(to)) return EEXIST;
  return ::rename(from.c_str(), to.c_str()) == 0 ? 0 : errno;
}

}  // namespace

AtomicOutput::AtomicOutput(std::string final_path, std::string temp_path, bool is_directory,
                           std::vector<std::string> created_dirs)
    : final_path_(std::move(final_path)),
      temp_path_(std::move(temp_path)),
      is_directory_(is_directory),
      created_dirs_(std::move(created_dirs)) {}

Result<std::unique_ptr<AtomicOutput>> AtomicOutput::Begin(const std::string& final_path, bool is_directory) {
  std::string path = final_path;
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  if (path.empty()) return Status::InvalidArgument("<empty path>: no output name given");

  const fs::path p(path);
  const std::string name = p.filename().string();
  if (name.empty() || name == "." || name == "..") {
    return Status::InvalidArgument(path + ": not a valid output name");
  }
  const fs::path dir = p.parent_path();
  RemoveStaleTemporaries(dir, name);
  if (EntryExists(path)) return Status::AlreadyExists(path + ": already exists");
  std::vector<std::string> created;
  if (!dir.empty()) TACO_RETURN_IF_ERROR(MakeParents(dir, &created));

  const std::string prefix =
      (dir.empty() ? std::string() : dir.string() + "/") + "." + name + ".tmp-" + TemporaryOwnerTag();
  std::string temp;
  // Registered in the same critical section as the directory is made: a signal's cleanup
  // sees every temporary that exists.
  std::lock_guard<std::mutex> lock(RegistryMutex());
  for (int attempt = 0;; ++attempt) {
    temp = prefix + RandomSuffix();
    if (!is_directory) {
      if (!EntryExists(temp)) break;
    } else if (::mkdir(temp.c_str(), 0777) == 0) {
      break;
    } else if (errno != EEXIST) {
      const int err = errno;
      for (const std::string& d : created) ::rmdir(d.c_str());
      return Status::IOError(temp + ": cannot create temporary directory: " + std::strerror(err));
    }
    if (attempt == 100) {
      for (const std::string& d : created) ::rmdir(d.c_str());
      return Status::Internal(path + ": cannot find a free temporary name");
    }
  }
  std::unique_ptr<AtomicOutput> out(new AtomicOutput(path, temp, is_directory, std::move(created)));
  Registry().insert(out.get());
  return out;
}

// The termination signal received but not yet acted on (0: none): set by the handler of
// RemoveTemporaryOutputsOnTerminationSignals; for RemoveTemporaryOutputsOnSignals, whose
// signals stay blocked until the watcher thread takes them, the pending set tells.
static std::atomic<int> g_termination_signal{0};
static std::atomic<bool> g_signals_blocked_for_watcher{false};

static int PendingTerminationSignal() {
  if (const int sig = g_termination_signal.load()) return sig;
  if (!g_signals_blocked_for_watcher.load()) return 0;
  sigset_t pending;
  sigemptyset(&pending);
  if (sigpending(&pending) != 0) return 0;
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    if (sigismember(&pending, sig) == 1) return sig;
  }
  return 0;
}

[[noreturn]] static void RemoveTemporariesAndDie(int sig);

Status AtomicOutput::Commit() {
  if (committed_) return Status::Internal(final_path_ + ": output committed twice");
  std::unique_lock<std::mutex> lock(RegistryMutex());  // never half-way through a signal's cleanup
  // A termination signal that came while the output was being written wins over the commit:
  // the watcher thread may not have run yet (a loaded machine), and the process is about to
  // end by that signal with its temporaries removed, so it must not leave a final output.
  if (const int sig = PendingTerminationSignal()) {
    lock.unlock();
    RemoveTemporariesAndDie(sig);
  }
  const int err = RenameNoReplace(temp_path_, final_path_, is_directory_);
  if (err == EEXIST || err == ENOTEMPTY) return Status::AlreadyExists(final_path_ + ": already exists");
  if (err == ENOENT && !EntryExists(temp_path_)) {
    return Status::Internal(final_path_ + ": nothing was written at " + temp_path_);
  }
  if (err != 0) {
    return Status::IOError(final_path_ + ": cannot move " + temp_path_ + " into place: " + std::strerror(err));
  }
  committed_ = true;
  Registry().erase(this);
  return Status::OK();
}

AtomicOutput::~AtomicOutput() {
  {
    std::lock_guard<std::mutex> lock(RegistryMutex());
    Registry().erase(this);
  }
  if (committed_) return;
  RemoveTree(temp_path_);
  for (const std::string& d : created_dirs_) {
    if (::rmdir(d.c_str()) != 0) break;  // not empty (someone else uses it): keep it and its parents
  }
}

std::string TemporaryOwnerTag() { return std::to_string(::getpid()) + "-" + HostTag() + "-"; }

// REQUIRES: RegistryMutex() held.
void RemoveTemporaryOutputsLocked() {
  for (AtomicOutput* out : Registry()) {
    RemoveTree(out->temp_path_);
    for (const std::string& d : out->created_dirs_) {
      if (::rmdir(d.c_str()) != 0) break;
    }
  }
}

size_t RemoveTemporaryOutputs() {
  std::lock_guard<std::mutex> lock(RegistryMutex());
  RemoveTemporaryOutputsLocked();
  return Registry().size();
}

// On a signal's watcher thread: removes every temporary, then ends the process by `sig`'s
// default action. The registry lock is held until the process is gone, so no Commit() can
// run after the cleanup.
[[noreturn]] static void RemoveTemporariesAndDie(int sig) {
  RegistryMutex().lock();
  RemoveTemporaryOutputsLocked();
  std::signal(sig, SIG_DFL);
  sigset_t one;
  sigemptyset(&one);
  sigaddset(&one, sig);
  pthread_sigmask(SIG_UNBLOCK, &one, nullptr);
  ::raise(sig);        // the default action ends the process
  ::_exit(128 + sig);  // not reached
}

void InstallTemporaryOutputCleanup() {
  static std::once_flag once;
  std::call_once(once, [] {
    sigset_t set;
    sigemptyset(&set);
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&set, sig);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    g_signals_blocked_for_watcher.store(true);
    std::thread([set] {
      int sig = 0;
      while (sigwait(&set, &sig) != 0) {
      }
      g_termination_signal.store(sig);  // taken off the pending set: Commit() asks here now
      RemoveTemporariesAndDie(sig);
    }).detach();
  });
}

namespace {

// The write end of the pipe OnTerminatingSignal writes the signal number to (-1: none).
int g_signal_pipe[2] = {-1, -1};

void OnTerminatingSignal(int sig) {
  const int saved = errno;
  g_termination_signal.store(sig);  // lock-free: async-signal-safe
  const unsigned char byte = static_cast<unsigned char>(sig);
  ssize_t written = ::write(g_signal_pipe[1], &byte, 1);  // async-signal-safe
  (void)written;
  errno = saved;
}

// In a forked child the watcher thread does not exist: the default action comes back.
void ResetHandlersInChild() {
  for (int sig : {SIGTERM, SIGHUP}) {
    struct sigaction current {};
    if (sigaction(sig, nullptr, &current) == 0 && current.sa_handler == OnTerminatingSignal) {
      std::signal(sig, SIG_DFL);
    }
  }
}

}  // namespace

void InstallTemporaryOutputCleanupHandlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (::pipe2(g_signal_pipe, O_CLOEXEC) != 0) return;
    std::thread([] {
      unsigned char byte = 0;
      while (::read(g_signal_pipe[0], &byte, 1) != 1) {
        if (errno != EINTR) return;
      }
      RemoveTemporariesAndDie(byte);
    }).detach();
    pthread_atfork(nullptr, nullptr, ResetHandlersInChild);
    for (int sig : {SIGTERM, SIGHUP}) {
      struct sigaction current {};
      if (sigaction(sig, nullptr, &current) != 0) continue;
      // A handler the host installed (or an ignored signal) stays as it is.
      if ((current.sa_flags & SA_SIGINFO) != 0 || current.sa_handler != SIG_DFL) continue;
      struct sigaction action {};
      action.sa_handler = OnTerminatingSignal;
      sigemptyset(&action.sa_mask);
      action.sa_flags = SA_RESTART;
      sigaction(sig, &action, nullptr);
    }
  });
}

// taco/writer.h
void RemoveTemporaryOutputsOnSignals() { InstallTemporaryOutputCleanup(); }
void RemoveTemporaryOutputsOnTerminationSignals() { InstallTemporaryOutputCleanupHandlers(); }

}  // namespace taco
