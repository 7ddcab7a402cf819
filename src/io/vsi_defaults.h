// Scoped GDAL settings for taco-cpp's own VSI calls (internal to src/io).
//
// ScopedNoReaddir: while alive, GDAL in THIS thread does not list a remote object's
// directory when it stats or opens the object (GDAL_DISABLE_READDIR_ON_OPEN=EMPTY_DIR). GDAL
// lists to find side-car files (.aux.xml, .ovr), which taco-cpp never reads; on S3 the
// listing is one more request (`GET /bucket/?delimiter=/`) per object opened. When the user
// has set GDAL_DISABLE_READDIR_ON_OPEN (config option or environment) their value is kept.
// Thread-local, so the process's other GDAL users are not affected.
#ifndef TACO_SRC_IO_VSI_DEFAULTS_H_
#define TACO_SRC_IO_VSI_DEFAULTS_H_

#include <cpl_conv.h>

namespace taco::io {

class ScopedNoReaddir {
 public:
  ScopedNoReaddir() {
    if (CPLGetConfigOption(kOption, nullptr) == nullptr) {
      CPLSetThreadLocalConfigOption(kOption, "EMPTY_DIR");
      set_ = true;
    }
  }
  ~ScopedNoReaddir() {
    if (set_) CPLSetThreadLocalConfigOption(kOption, nullptr);
  }
  ScopedNoReaddir(const ScopedNoReaddir&) = delete;
  ScopedNoReaddir& operator=(const ScopedNoReaddir&) = delete;

 private:
  static constexpr const char* kOption = "GDAL_DISABLE_READDIR_ON_OPEN";
  bool set_ = false;
};

}  // namespace taco::io

#endif  // TACO_SRC_IO_VSI_DEFAULTS_H_
