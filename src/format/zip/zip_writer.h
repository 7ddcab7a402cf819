// ZipWriter: writes a STORE-only ZIP sequentially to a new local file (FORMAT §1.1–1.3).
//
// Layout written: [TACO_HEADER] then each member (local header + raw bytes, no data
// descriptor), then the central directory in the same order, a ZIP64 EOCD record + locator
// only when the entry count or central-directory size/offset overflow the classic fields, and
// the classic EOCD (no comment). Every member is STORE with a real CRC-32, flags 0 (bit 11
// when its name is not ASCII), DOS time/date of the writer's creation, "version made by"
// 0x033F, external attributes 0o644<<16 for TACO_HEADER and 0o100644<<16 for the others.
// A member of 0xFFFFFFFF bytes or more gets a ZIP64 extra in its local header (both sizes)
// and in the central directory; an offset >= 0xFFFFFFFF goes to the central ZIP64 extra.
//
// Errors: AlreadyExists (output exists), InvalidArgument (bad member name, misuse), NotFound
// / IOError (sources, output). After an I/O error on the output every later call returns
// that error. If the writer is destroyed before a successful Finish(), the partial output is
// removed, so a failed write never leaves a file behind.
//
// Thread-safety: none; one thread at a time.
#ifndef TACO_FORMAT_ZIP_ZIP_WRITER_H_
#define TACO_FORMAT_ZIP_ZIP_WRITER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "format/zip/taco_header.h"
#include "taco/io.h"
#include "taco/status.h"

namespace taco::zip {

// Where a member went in the archive.
struct MemberInfo {
  std::string name;
  uint64_t lfh_offset = 0;   // its local file header
  uint64_t data_offset = 0;  // its first data byte (= lfh_offset + 30 + name + extra)
  uint64_t size = 0;         // stored = uncompressed size
  uint32_t crc32 = 0;
};

// OK when `name` may be a member name: non-empty, at most 65535 bytes, relative (no leading
// '/'), '/'-separated segments that are neither empty, "." nor "..", no backslash, no NUL.
// Otherwise InvalidArgument "<name>: invalid ZIP member name: <why>".
Status ValidateMemberName(std::string_view name);

class ZipWriter {
 public:
  // Creates `path` (O_CREAT|O_EXCL: AlreadyExists if it exists). The caller renames the
  // finished file into place to make outputs atomic.
  static Result<std::unique_ptr<ZipWriter>> Create(const std::string& path);

  ~ZipWriter();  // closes; removes the file unless Finish() succeeded
  ZipWriter(const ZipWriter&) = delete;
  ZipWriter& operator=(const ZipWriter&) = delete;

  // The TACO_HEADER entry with count 0 and all-zero pairs (157 bytes at offset 0).
  // REQUIRES: first call on the writer (InvalidArgument otherwise).
  Status BeginTacoHeader();

  // Streams the regular file `source_path` in as member `name`, with its CRC-32, in memory
  // independent of its size: small files through a 1 MiB write buffer, data runs of 1 MiB or
  // more with copy_file_range while a second thread computes the CRC. Holes of a sparse
  // source (SEEK_DATA/SEEK_HOLE) of 1 MiB or more are left as holes in the output and their
  // CRC is combined arithmetically, so they cost no I/O.
  Result<MemberInfo> AddFile(std::string_view name, const std::string& source_path);
  Result<MemberInfo> AddBytes(std::string_view name, std::string_view data);
  // Copies the bytes [offset, offset+size) of `reader` in as member `name`, with its CRC-32:
  // 4 MiB chunks, up to 4 reads in flight (so a remote source is fetched in parallel),
  // written and checksummed in order. Memory is bounded by the window, not the size.
  Result<MemberInfo> AddRange(std::string_view name, const RangeReader& reader, uint64_t offset, uint64_t size);

  // Rewrites the TACO_HEADER payload and its local-header CRC in place. Each entry must be a
  // range of bytes already written after the header; at most 7 entries.
  // REQUIRES: BeginTacoHeader() was called; Finish() was not.
  Status SetTacoHeader(const std::vector<HeaderEntry>& entries);

  // Writes the central directory and end records, flushes and closes the file.
  Status Finish();

  uint64_t position() const { return pos_; }  // bytes written so far (= next LFH offset)

  // The size of the local header AddFile/AddBytes/AddRange write for a member `name` of
  // `size` bytes: a member added at position() has its data at position() + this, so a
  // caller can compute the offsets of members before it adds them.
  static uint64_t LocalHeaderSize(std::string_view name, uint64_t size);
  const std::vector<MemberInfo>& members() const { return members_; }
  const std::string& path() const { return path_; }

 private:
  ZipWriter(std::string path, int fd, std::unique_ptr<char[]> buffer);

  Status CheckOpen() const;
  Status CheckNewName(std::string_view name) const;
  std::string LocalHeader(std::string_view name, uint64_t size, uint32_t crc, uint64_t lfh_offset) const;
  std::string CentralHeader(const MemberInfo& m, bool is_taco_header) const;
  Status WriteMember(std::string_view name, uint64_t size, const std::string& source_path, int source_fd,
                     std::string_view data, MemberInfo* info);
  Status CopyFromReader(const RangeReader& reader, uint64_t offset, uint64_t size, uint32_t* crc);
  Status CopyFileData(int source_fd, const std::string& source_path, uint64_t size, uint32_t* crc);
  Status CopyRange(int source_fd, const std::string& source_path, uint64_t offset, uint64_t length, uint32_t* crc);
  Status DirectCopy(int source_fd, const std::string& source_path, uint64_t offset, uint64_t length, uint64_t* copied);
  static Status CrcOfRange(int source_fd, const std::string& source_path, uint64_t offset, uint64_t length,
                           uint32_t* crc);
  Status BufferedCopy(int source_fd, const std::string& source_path, uint64_t offset, uint64_t length, uint32_t* crc);

  // Output buffering: bytes [buffer_start_, pos_) are in buffer_ and not yet written.
  Status Append(const char* data, size_t n);
  Status AppendZeros(uint64_t n);
  Status Skip(uint64_t n);
  Status Flush();
  Status Patch(uint64_t offset, const char* data, size_t n);
  Status WriteAt(uint64_t offset, const char* data, size_t n);
  Status Fail(Status s);

  std::string path_;
  int fd_ = -1;
  uint64_t pos_ = 0;
  uint64_t buffer_start_ = 0;
  std::unique_ptr<char[]> buffer_;
  size_t buffer_len_ = 0;
  std::vector<MemberInfo> members_;
  std::unordered_set<std::string> names_;
  bool has_taco_header_ = false;
  bool direct_copy_ok_ = true;  // copy_file_range works for the current source
  bool finished_ = false;
  Status error_;
  uint16_t dos_time_ = 0;
  uint16_t dos_date_ = 0;
};

}  // namespace taco::zip

#endif  // TACO_FORMAT_ZIP_ZIP_WRITER_H_
