// GDAL configuration for taco-cpp's worker threads (internal to the library).
//
// A caller may set GDAL options for its own thread only (CPLSetThreadLocalConfigOption:
// credentials, GDAL_HTTP_HEADERS, AWS_S3_ENDPOINT, ...). taco-cpp fetches in parallel on
// threads of its own (remote levels, validate's probes, read-ahead of streamed ranges),
// which would not see those options. WithCallerGdalConfig(fn) captures the calling thread's
// thread-local options now and returns a callable that runs `fn` with them installed in
// whatever thread calls it (the thread's own options are restored afterwards). Global
// options and the environment need nothing: every thread sees them.
#ifndef TACO_SRC_IO_THREAD_CONFIG_H_
#define TACO_SRC_IO_THREAD_CONFIG_H_

#include <memory>
#include <utility>

namespace taco::io {

// The calling thread's thread-local GDAL options (a copy; may be empty).
class GdalThreadOptions {
 public:
  static std::shared_ptr<const GdalThreadOptions> Capture();
  ~GdalThreadOptions();

  // Installs these options in the current thread until the Scope is destroyed.
  class Scope {
   public:
    explicit Scope(const GdalThreadOptions& options);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    char** previous_ = nullptr;
    bool installed_ = false;
  };

 private:
  GdalThreadOptions() = default;
  char** options_ = nullptr;  // CSL list
};

template <typename F>
auto WithCallerGdalConfig(F fn) {
  return [options = GdalThreadOptions::Capture(), fn = std::move(fn)](auto&&... args) mutable {
    GdalThreadOptions::Scope scope(*options);
    return fn(std::forward<decltype(args)>(args)...);
  };
}

}  // namespace taco::io

#endif  // TACO_SRC_IO_THREAD_CONFIG_H_
