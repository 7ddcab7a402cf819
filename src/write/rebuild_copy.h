// Copying a byte range of a RangeReader into a new local file (FOLDER outputs of samples
// made with Sample::FromRange), and the CRC check of copied ZIP members.
//
// Contract (CopyRangeToNewFile): `dest` must not exist (AlreadyExists); up to 4 chunks of
// 4 MiB are read in flight (remote sources are fetched in parallel) and written in order;
// memory is bounded by that window. `crc`, when given, receives the CRC-32 of the bytes.
// On error the partial `dest` is removed. Errors name the reader or `dest`.
//
// CheckCopiedMember: for a sample made with Sample::FromZipMember, compares `crc` (of the
// sample's bytes as copied) with the CRC-32 of the member's local header, found at the end
// of `before` (bytes that end where the data starts; see io::RangeRef::lead) or else read
// from the source (one small read). Corruption "sample '<member>' (bytes a..b of <source>):
// CRC-32 mismatch: stored 0x…, computed 0x…: the bytes are damaged"; OK for other samples.
// The local header must also carry the name `member` (zip::CheckMemberName): samples made
// with FromZipMember are copied to the archive path they have in their source (convert,
// export, edit keep every id), so a metadata offset pointing at another sample's member is
// refused instead of copied under the wrong id.
#ifndef TACO_WRITE_REBUILD_COPY_H_
#define TACO_WRITE_REBUILD_COPY_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "taco/io.h"
#include "taco/model.h"
#include "taco/status.h"

namespace taco::write {

Status CopyRangeToNewFile(const RangeReader& reader, uint64_t offset, uint64_t size, const std::string& dest,
                          uint32_t* crc = nullptr);

// The bytes a writer reads before a ranged sample for CheckCopiedMember (0: none needed).
uint64_t LeadBytes(const Sample& sample);

Status CheckCopiedMember(const Sample& sample, std::string_view before, uint32_t crc, const std::string& member);

}  // namespace taco::write

#endif  // TACO_WRITE_REBUILD_COPY_H_
