#include "write/rebuild_copy.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "format/zip/crc32.h"
#include "format/zip/stored_member.h"
#include "io/range_stream.h"

namespace taco::write {
namespace {

constexpr uint64_t kChunk = uint64_t{4} << 20;
constexpr size_t kWindow = 4;

Status WriteAll(int fd, const char* data, size_t n, const std::string& dest) {
  while (n > 0) {
    const ssize_t w = ::write(fd, data, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return Status::IOError(dest + ": write failed: " + std::strerror(errno));
    }
    data += w;
    n -= static_cast<size_t>(w);
  }
  return Status::OK();
}

Status CopyInto(int fd, const RangeReader& reader, uint64_t offset, uint64_t size, const std::string& dest,
                uint32_t* crc) {
  return io::StreamRange(reader, offset, size,
                         [&](const char* data, size_t n) {
                           if (crc != nullptr) *crc = zip::Crc32(*crc, data, n);
                           return WriteAll(fd, data, n, dest);
                         },
                         {kChunk, kWindow});
}

}  // namespace

Status CopyRangeToNewFile(const RangeReader& reader, uint64_t offset, uint64_t size, const std::string& dest,
                          uint32_t* crc) {
  if (crc != nullptr) *crc = 0;
  if (offset > reader.size() || size > reader.size() - offset) {
    return Status::InvalidArgument(reader.name() + ": range " + std::to_string(offset) + "+" + std::to_string(size) +
                                   " is outside the source (" + std::to_string(reader.size()) + " bytes)");
  }
  const int fd = ::open(dest.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int err = errno;
    if (err == EEXIST) return Status::AlreadyExists(dest + ": already exists");
    return Status::IOError(dest + ": cannot create: " + std::strerror(err));
  }
  Status status = CopyInto(fd, reader, offset, size, dest, crc);
  if (::close(fd) != 0 && status.ok()) status = Status::IOError(dest + ": close failed: " + std::strerror(errno));
  if (!status.ok()) ::unlink(dest.c_str());
  return status;
}

uint64_t LeadBytes(const Sample& sample) { return sample.range_is_zip_member() ? zip::kLocalHeaderWindow : 0; }

Status CheckCopiedMember(const Sample& sample, std::string_view before, uint32_t crc, const std::string& member) {
  if (!sample.range_is_zip_member() || sample.range_reader() == nullptr) return Status::OK();
  const RangeReader& source = *sample.range_reader();
  const uint64_t offset = sample.range_offset(), size = sample.size_bytes();
  const std::string what = "sample '" + member + "' (bytes " + std::to_string(offset) + ".." +
                           std::to_string(offset + size) + " of " + source.name() + ")";
  Result<zip::LocalHeaderInfo> header = Status::NotFound("no window");
  if (!before.empty()) header = zip::FindLocalHeader(before, size, {}, what);
  if (!header.ok() || !header->crc_known) header = zip::ReadLocalHeaderBefore(source, offset, size, what);
  if (!header.ok()) return header.status();
  TACO_RETURN_IF_ERROR(zip::CheckMemberName(*header, zip::MemberName::Exact(member), offset, what));
  zip::MemberCheck check(*header, what);
  check.Combine(crc, size);
  return check.Finish();
}

}  // namespace taco::write
