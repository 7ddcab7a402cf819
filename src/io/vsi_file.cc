// OpenVsiFile(): a RangeReader over any GDAL virtual file (/vsicurl/, /vsis3/, /vsigs/,
// /vsiaz/, /vsisubfile/, plain local paths, ...).
//
// A VSILFILE* has a file position and is not thread-safe, so the reader keeps a small pool of
// handles: a ReadAt() takes an idle handle (or opens a new one), seeks, reads, and puts it
// back. GDAL errors are kept off stderr (quiet handler) and folded into our Status messages.
#include <cpl_error.h>
#include <cpl_vsi.h>
#include <cpl_vsi_error.h>

#include <cctype>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "io/io_log.h"
#include "io/range_check.h"
#include "io/vsi_defaults.h"
#include "taco/io.h"

namespace taco {
namespace {

// At most this many idle handles are kept; more are closed when returned.
constexpr size_t kMaxIdleHandles = 16;

// Silences GDAL's default stderr error handler for this thread while alive and resets the
// error state, so that LastError() describes only what happened in this scope.
class QuietGdalErrors {
 public:
  QuietGdalErrors() {
    CPLPushErrorHandler(CPLQuietErrorHandler);
    CPLErrorReset();
    VSIErrorReset();
  }
  ~QuietGdalErrors() { CPLPopErrorHandler(); }
  QuietGdalErrors(const QuietGdalErrors&) = delete;
  QuietGdalErrors& operator=(const QuietGdalErrors&) = delete;

  // The most specific message GDAL left, or "".
  static std::string LastError() {
    const char* vsi = VSIGetLastErrorMsg();
    if (vsi != nullptr && vsi[0] != '\0') return vsi;
    const char* cpl = CPLGetLastErrorMsg();
    if (cpl != nullptr && cpl[0] != '\0') return cpl;
    return "";
  }
};

std::string WithDetail(std::string text, const std::string& detail) {
  if (!detail.empty()) text += " (" + detail + ")";
  return text;
}

class VsiFileReader final : public RangeReader {
 public:
  VsiFileReader(std::string name, std::string vsi_path, uint64_t size)
      : name_(std::move(name)), vsi_path_(std::move(vsi_path)), size_(size) {}
  ~VsiFileReader() override {
    for (VSILFILE* fp : idle_) VSIFCloseL(fp);
  }
  VsiFileReader(const VsiFileReader&) = delete;
  VsiFileReader& operator=(const VsiFileReader&) = delete;

  uint64_t size() const override { return size_; }
  const std::string& name() const override { return name_; }

  Status ReadAt(uint64_t offset, size_t n, void* out) const override {
    TACO_RETURN_IF_ERROR(io::CheckRange(name_, offset, n, size_));
    if (n == 0) return Status::OK();
    const auto start = io::StartIfLogging(LogLevel::kVerbose);
    QuietGdalErrors quiet;
    io::ScopedNoReaddir no_readdir;
    VSILFILE* fp = Take();
    if (fp == nullptr) {
      fp = VSIFOpenExL(vsi_path_.c_str(), "rb", TRUE);
      if (fp == nullptr) {
        return Status::IOError(WithDetail(name_ + ": cannot open", QuietGdalErrors::LastError()));
      }
    }
    if (VSIFSeekL(fp, static_cast<vsi_l_offset>(offset), SEEK_SET) != 0) {
      VSIFCloseL(fp);
      return Status::IOError(
          WithDetail(name_ + ": cannot seek to offset " + std::to_string(offset), QuietGdalErrors::LastError()));
    }
    const size_t got = VSIFReadL(out, 1, n, fp);
    if (got != n) {
      VSIFCloseL(fp);  // its state is unknown after a failed read: do not reuse it
      return Status::IOError(WithDetail(name_ + ": short read: got " + std::to_string(got) + " of " +
                                            std::to_string(n) + " bytes at offset " + std::to_string(offset),
                                        QuietGdalErrors::LastError()));
    }
    Give(fp);
    io::LogRead(IsRemotePath(vsi_path_) ? LogLevel::kVerbose : LogLevel::kDebug, name_ + " (GDAL)", offset, n, start);
    return Status::OK();
  }

 private:
  VSILFILE* Take() const {
    std::lock_guard<std::mutex> lock(mu_);
    if (idle_.empty()) return nullptr;
    VSILFILE* fp = idle_.back();
    idle_.pop_back();
    return fp;
  }

  void Give(VSILFILE* fp) const {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (idle_.size() < kMaxIdleHandles) {
        idle_.push_back(fp);
        return;
      }
    }
    VSIFCloseL(fp);
  }

  std::string name_;
  std::string vsi_path_;
  uint64_t size_;
  mutable std::mutex mu_;
  mutable std::vector<VSILFILE*> idle_;  // guarded by mu_
};

// The status code in GDAL's "HTTP response code on <url>: <code>" message, or -1.
int HttpCodeIn(const std::string& detail) {
  constexpr std::string_view kMarker = "HTTP response code";
  if (detail.find(kMarker) == std::string::npos) return -1;
  size_t end = detail.size();
  while (end > 0 && (detail[end - 1] == ' ' || detail[end - 1] == '\n')) --end;
  size_t begin = end;
  while (begin > 0 && std::isdigit(static_cast<unsigned char>(detail[begin - 1]))) --begin;
  if (begin == end || end - begin > 3) return -1;
  return std::stoi(detail.substr(begin, end - begin));
}

// Whether a failed VSIStatExL() means "there is no such object" rather than "could not ask"
// (network failure, denied access, missing credentials).
bool IsNotFound(VSIErrorNum err, const std::string& detail) {
  const int http = HttpCodeIn(detail);
  if (http >= 0) return http == 404 || http == 410;
  switch (err) {
    case VSIE_None:
    case VSIE_FileError:
    case VSIE_AWSObjectNotFound:
    case VSIE_AWSBucketNotFound: return true;
    default: return false;
  }
}

Result<RangeReaderPtr> MakeReader(const std::string& path_or_url, std::string vsi_path, const VSIStatBufL& st) {
  if (VSI_ISDIR(st.st_mode)) return Status::InvalidArgument(path_or_url + ": is a directory");
  if (st.st_size < 0) return Status::IOError(path_or_url + ": unknown size");
  return RangeReaderPtr(
      std::make_shared<VsiFileReader>(path_or_url, std::move(vsi_path), static_cast<uint64_t>(st.st_size)));
}

}  // namespace

Result<RangeReaderPtr> OpenVsiFile(const std::string& path_or_url) {
  if (path_or_url.empty()) return Status::InvalidArgument("<empty path>: no file name given");
  std::string vsi_path = ToVsiPath(path_or_url);
  const auto start = io::StartIfLogging(LogLevel::kVerbose);
  QuietGdalErrors quiet;
  io::ScopedNoReaddir no_readdir;
  VSIStatBufL st;
  const int flags = VSI_STAT_EXISTS_FLAG | VSI_STAT_NATURE_FLAG | VSI_STAT_SIZE_FLAG | VSI_STAT_SET_ERROR_FLAG;
  if (VSIStatExL(vsi_path.c_str(), &st, flags) != 0) {
    std::string detail = QuietGdalErrors::LastError();
    if (detail.empty() && IsRemotePath(path_or_url)) {
      // GDAL caches failed network stats without their reason (a later call would call a
      // refused connection "not found"): drop the cached entry and ask once more.
      VSICurlPartialClearCache(vsi_path.c_str());
      CPLErrorReset();
      VSIErrorReset();
      if (VSIStatExL(vsi_path.c_str(), &st, flags) == 0) return MakeReader(path_or_url, std::move(vsi_path), st);
      detail = QuietGdalErrors::LastError();
    }
    if (IsNotFound(VSIGetLastErrorNo(), detail)) {
      return Status::NotFound(WithDetail(path_or_url + ": no such file", detail));
    }
    return Status::IOError(WithDetail(path_or_url + ": cannot stat", detail));
  }
  io::LogOpen("GDAL file", vsi_path, st.st_size < 0 ? 0 : static_cast<uint64_t>(st.st_size), start);
  return MakeReader(path_or_url, std::move(vsi_path), st);
}

}  // namespace taco
