// An LD_PRELOAD library for the crash-safety tests: counts the file calls of a process
// (reads, writes, creating, renaming, linking, removing, truncating, syncing, closing) and
// stops the process at a chosen one, so that a test can kill a writer at a deterministic
// point of its run. Reads count too, so that even a writer with few writes (a single-file
// `__TACOCAT__`: open, one write, rename) can be stopped at many points of its run.
//
// Environment:
//   TACO_CRASH_AT=N          on the N-th counted call (1-based), before it runs, send the
//                            process TACO_CRASH_SIGNAL (default 9, SIGKILL; 19 = SIGSTOP lets
//                            the test deliver another signal, then SIGCONT).
//   TACO_CRASH_AFTER=1       send it right after the N-th call returns instead.
//   TACO_CRASH_COUNT_FILE=F  at a normal exit, write the number of counted calls to F.
// Calls on file descriptors 0..2 are not counted (progress and messages).
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#include <atomic>

namespace {

std::atomic<long> g_calls{0};
long g_crash_at = -1;
bool g_after = false;
int g_signal = SIGKILL;
thread_local long t_call = 0;

struct Init {
  Init() {
    if (const char* at = getenv("TACO_CRASH_AT")) g_crash_at = atol(at);
    if (const char* sig = getenv("TACO_CRASH_SIGNAL")) g_signal = atoi(sig);
    if (const char* after = getenv("TACO_CRASH_AFTER")) g_after = atoi(after) != 0;
  }
  ~Init() {
    if (const char* file = getenv("TACO_CRASH_COUNT_FILE")) {
      if (FILE* f = fopen(file, "w")) {
        fprintf(f, "%ld\n", g_calls.load());
        fclose(f);
      }
    }
  }
} g_init;

// Before a counted call.
void Count() {
  t_call = ++g_calls;
  if (t_call == g_crash_at && !g_after) kill(getpid(), g_signal);
}

// After any call: the counted call just returned.
void Done() {
  if (t_call == g_crash_at && g_after && t_call != 0) kill(getpid(), g_signal);
  t_call = 0;
}

// Runs the real call between Count (when `counted`) and Done.
template <typename R, typename F>
R Call(bool counted, F&& f) {
  if (counted) Count();
  R r = f();
  if (counted) Done();
  return r;
}

template <typename F>
F Next(const char* name) {
  return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

}  // namespace

#define NEXT(name) static auto real = Next<decltype(&name)>(#name)

extern "C" {

ssize_t write(int fd, const void* buf, size_t n) {
  NEXT(write);
  return Call<decltype(real(fd, buf, n))>(fd > 2, [&] { return real(fd, buf, n); });
}
ssize_t read(int fd, void* buf, size_t n) {
  NEXT(read);
  return Call<decltype(real(fd, buf, n))>(fd > 2, [&] { return real(fd, buf, n); });
}
ssize_t pread(int fd, void* buf, size_t n, off_t off) {
  NEXT(pread);
  return Call<decltype(real(fd, buf, n, off))>(fd > 2, [&] { return real(fd, buf, n, off); });
}
ssize_t pread64(int fd, void* buf, size_t n, off64_t off) {
  NEXT(pread64);
  return Call<decltype(real(fd, buf, n, off))>(fd > 2, [&] { return real(fd, buf, n, off); });
}
int close(int fd) {
  NEXT(close);
  return Call<decltype(real(fd))>(fd > 2, [&] { return real(fd); });
}
ssize_t pwrite(int fd, const void* buf, size_t n, off_t off) {
  NEXT(pwrite);
  return Call<decltype(real(fd, buf, n, off))>(true, [&] { return real(fd, buf, n, off); });
}
ssize_t pwrite64(int fd, const void* buf, size_t n, off64_t off) {
  NEXT(pwrite64);
  return Call<decltype(real(fd, buf, n, off))>(true, [&] { return real(fd, buf, n, off); });
}
ssize_t writev(int fd, const struct iovec* iov, int cnt) {
  NEXT(writev);
  return Call<decltype(real(fd, iov, cnt))>(fd > 2, [&] { return real(fd, iov, cnt); });
}
ssize_t copy_file_range(int in, off64_t* in_off, int out, off64_t* out_off, size_t n, unsigned flags) {
  NEXT(copy_file_range);
  return Call<decltype(real(in, in_off, out, out_off, n, flags))>(
      true, [&] { return real(in, in_off, out, out_off, n, flags); });
}
ssize_t sendfile(int out, int in, off_t* off, size_t n) {
  NEXT(sendfile);
  return Call<decltype(real(out, in, off, n))>(out > 2, [&] { return real(out, in, off, n); });
}
ssize_t sendfile64(int out, int in, off64_t* off, size_t n) {
  NEXT(sendfile64);
  return Call<decltype(real(out, in, off, n))>(out > 2, [&] { return real(out, in, off, n); });
}
int open(const char* path, int flags, ...) {
  NEXT(open);
  mode_t mode = 0;
  if (flags & (O_CREAT | O_TMPFILE)) {
    va_list ap;
    va_start(ap, flags);
    mode = static_cast<mode_t>(va_arg(ap, int));
    va_end(ap);
  }
  const bool counted = (flags & (O_CREAT | O_TMPFILE)) != 0;
  return Call<int>(counted, [&] { return real(path, flags, mode); });
}
int open64(const char* path, int flags, ...) {
  NEXT(open64);
  mode_t mode = 0;
  if (flags & (O_CREAT | O_TMPFILE)) {
    va_list ap;
    va_start(ap, flags);
    mode = static_cast<mode_t>(va_arg(ap, int));
    va_end(ap);
  }
  const bool counted = (flags & (O_CREAT | O_TMPFILE)) != 0;
  return Call<int>(counted, [&] { return real(path, flags, mode); });
}
int openat(int dir, const char* path, int flags, ...) {
  NEXT(openat);
  mode_t mode = 0;
  if (flags & (O_CREAT | O_TMPFILE)) {
    va_list ap;
    va_start(ap, flags);
    mode = static_cast<mode_t>(va_arg(ap, int));
    va_end(ap);
  }
  const bool counted = (flags & (O_CREAT | O_TMPFILE)) != 0;
  return Call<int>(counted, [&] { return real(dir, path, flags, mode); });
}
int mkdir(const char* path, mode_t mode) {
  NEXT(mkdir);
  return Call<decltype(real(path, mode))>(true, [&] { return real(path, mode); });
}
int rename(const char* from, const char* to) {
  NEXT(rename);
  return Call<decltype(real(from, to))>(true, [&] { return real(from, to); });
}
int renameat2(int fd1, const char* from, int fd2, const char* to, unsigned flags) {
  NEXT(renameat2);
  return Call<decltype(real(fd1, from, fd2, to, flags))>(true, [&] { return real(fd1, from, fd2, to, flags); });
}
int link(const char* from, const char* to) {
  NEXT(link);
  return Call<decltype(real(from, to))>(true, [&] { return real(from, to); });
}
int unlink(const char* path) {
  NEXT(unlink);
  return Call<decltype(real(path))>(true, [&] { return real(path); });
}
int rmdir(const char* path) {
  NEXT(rmdir);
  return Call<decltype(real(path))>(true, [&] { return real(path); });
}
int ftruncate(int fd, off_t len) {
  NEXT(ftruncate);
  return Call<decltype(real(fd, len))>(true, [&] { return real(fd, len); });
}
int fsync(int fd) {
  NEXT(fsync);
  return Call<decltype(real(fd))>(true, [&] { return real(fd); });
}
int fdatasync(int fd) {
  NEXT(fdatasync);
  return Call<decltype(real(fd))>(true, [&] { return real(fd); });
}

}  // extern "C"
