// Integrity of one STORE member read by its data range (internal:offset/size): the member's
// local file header sits right before the data and holds its CRC-32 and sizes (FORMAT §1.3:
// every TACO ZIP writer stores real CRCs and no data descriptors).
//
// Contract:
//  * FindLocalHeader() locates the header in `window`, the bytes that end exactly where the
//    data starts: the last "PK\3\4" at position p with p + 30 + name + extra == window.size().
//    Its method must be STORE, its sizes (ZIP64 extra when 0xFFFFFFFF) must equal the data
//    size (a data descriptor, flag bit 3, is followed when present in `trailer`, the bytes
//    right after the data). nullopt + `why` when no such header exists.
//  * MemberCheck accumulates the CRC of the data as it is read (whole or in chunks) and
//    Finish() compares it: Corruption "<what>: CRC-32 mismatch: stored 0x1234abcd, computed
//    0x…: the bytes are damaged" (what = "sample 'x' in /path/d.tacozip" as the caller
//    names it).
//  * ReadVerifiedMember(): the data bytes through ONE ReadAt of the reader (the header
//    window before the data and up to 24 bytes after it are read together with it), checked.
//  * kLocalHeaderWindow bytes before the data are read: enough for archive paths of up to
//    1 KiB; a longer path costs one more read of up to 128 KiB.
//  * CheckMemberName(): the member found at a sample's offset must be the sample's own (issue
//    29.6: a metadata offset pointing at another sample's member is refused, never served).
//    MemberName says what the caller knows: the exact archive path ("DATA/tile_00/b.tif"),
//    or only the last part (the sample's id) when its position in the tree is unknown, or
//    nothing (legacy BLOB files have no member names). Corruption "<what>: the ZIP member at
//    offset N is 'DATA/tile_01/b.tif', not the sample's 'DATA/tile_00/b.tif' (a wrong
//    internal:offset in the metadata)".
#ifndef TACO_FORMAT_ZIP_STORED_MEMBER_H_
#define TACO_FORMAT_ZIP_STORED_MEMBER_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "taco/io.h"
#include "taco/status.h"

namespace taco::zip {

inline constexpr size_t kLocalHeaderWindow = 30 + 1024 + 20;
inline constexpr size_t kDataDescriptorMax = 24;  // signature, CRC, two 8-byte sizes

struct LocalHeaderInfo {
  uint32_t crc32 = 0;
  uint64_t size = 0;
  size_t header_size = 0;  // 30 + name + extra
  bool crc_known = true;   // false: a data descriptor holds it and `trailer` was empty
  std::string name;        // the member's archive path as its local header stores it
};

// The archive path a read expects at an offset (see CheckMemberName above).
struct MemberName {
  enum class Kind { kNone, kExact, kLastPart };
  Kind kind = Kind::kNone;
  std::string text;  // kExact: the whole archive path; kLastPart: the part after the last '/'

  static MemberName None() { return {}; }
  static MemberName Exact(std::string path) { return {Kind::kExact, std::move(path)}; }
  static MemberName LastPart(std::string id) { return {Kind::kLastPart, std::move(id)}; }
  bool matches(std::string_view found) const;
  // "'DATA/a/b'" or "'…/b'" for messages.
  std::string Describe() const;
};

Status CheckMemberName(const LocalHeaderInfo& header, const MemberName& expected, uint64_t offset,
                       const std::string& what);

// See the contract above. `trailer` may be empty (then a data descriptor cannot be read).
Result<LocalHeaderInfo> FindLocalHeader(std::string_view window, uint64_t data_size, std::string_view trailer,
                                        const std::string& what);

class MemberCheck {
 public:
  MemberCheck(LocalHeaderInfo header, std::string what) : header_(header), what_(std::move(what)) {}
  void Update(std::string_view bytes);
  // Adds `n` bytes whose CRC-32 `crc` was computed elsewhere (e.g. by the ZipWriter).
  void Combine(uint32_t crc, uint64_t n);
  Status Finish() const;

 private:
  LocalHeaderInfo header_;
  std::string what_;
  uint32_t crc_ = 0;
  uint64_t seen_ = 0;
};

// The bytes [offset, offset+size) of a STORE member of `zip`, verified (see above): the
// member's name against `expected`, and its CRC-32 unless `check_crc` is false.
Result<std::string> ReadVerifiedMember(const RangeReader& zip, uint64_t offset, uint64_t size, const std::string& what,
                                       const MemberName& expected = MemberName::None(), bool check_crc = true);

// The member [offset, offset+size) of `zip` checked without keeping its bytes: its local
// header's name against `expected`, then (check_crc) its CRC-32 over sequential reads of at
// most 4 MiB. For the metadata members a dataset mounts in place (the level Parquet files).
Status VerifyMember(const RangeReader& zip, uint64_t offset, uint64_t size, const std::string& what,
                    const MemberName& expected, bool check_crc);
// The same, also handing back the member's last min(size, keep_tail) bytes in `*tail` as the
// CRC pass read them (no extra read; `*tail` is left empty when !check_crc): a level's
// Parquet footer is then parsed without reading the member's end again.
Status VerifyMember(const RangeReader& zip, uint64_t offset, uint64_t size, const std::string& what,
                    const MemberName& expected, bool check_crc, uint64_t keep_tail, std::string* tail);

// The local header of the member whose data starts at `offset` (one or two small reads).
Result<LocalHeaderInfo> ReadLocalHeaderBefore(const RangeReader& zip, uint64_t offset, uint64_t size,
                                              const std::string& what);

// The same when the member's name is known exactly: reads exactly its header's bytes (30 +
// name, then with a 20-byte ZIP64 extra field), so that nothing of the member before it is
// read; otherwise (another name, a longer extra field, a data descriptor) as above.
Result<LocalHeaderInfo> ReadNamedLocalHeader(const RangeReader& zip, uint64_t offset, uint64_t size,
                                             const MemberName& expected, const std::string& what);
}  // namespace taco::zip

#endif  // TACO_FORMAT_ZIP_STORED_MEMBER_H_
