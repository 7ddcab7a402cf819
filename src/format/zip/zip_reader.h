// Reading a ZIP's central directory through a RangeReader (local or remote).
//
// Finds the classic end-of-central-directory record in the last 64 KiB + 22 bytes (one read),
// follows the ZIP64 locator and record when present, reads the central directory in one read
// and decodes every header, including ZIP64 extended-information extra fields. Works for any
// ZIP (every method), not only TACO ZIPs; multi-disk archives are rejected.
//
// With resolve_data_offsets, the local file headers are read too (coalesced into reads of at
// most 1 MiB each) to get each member's data offset = lfh + 30 + name + extra; the local name
// must match the central one and the data must end before the central directory.
//
// The offsets can also be resolved later (ReadCentralDirectoryRecords, then
// ResolveDataOffsets for all or some entries), or by a caller that reads the local headers
// itself anyway (LocalDataOffset: the CRC pass of validation, which reads every byte once).
//
// Errors: Corruption "<reader name>: <what is wrong>" for every malformed structure (no
// EOCD, directory outside the file, truncated or inconsistent headers, ...), NotSupported
// for multi-disk archives, and the reader's own errors.
#ifndef TACO_FORMAT_ZIP_ZIP_READER_H_
#define TACO_FORMAT_ZIP_ZIP_READER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "format/zip/zip_format.h"
#include "taco/io.h"
#include "taco/status.h"

namespace taco::zip {

struct ZipEntry {
  std::string name;
  uint64_t lfh_offset = 0;
  uint64_t data_offset = 0;  // 0 unless resolve_data_offsets
  uint64_t compressed_size = 0;
  uint64_t uncompressed_size = 0;
  uint32_t crc32 = 0;
  uint16_t method = 0;
  uint32_t external_attr = 0;
};

// The entries in central-directory order. small_tail_first: read only the last 42 bytes to
// find a comment-less EOCD (and a ZIP64 locator) before searching the last 64 KiB + 22 —
// for callers that must not touch the samples of a small local ZIP (one more read when
// the ZIP has a comment).
Result<std::vector<ZipEntry>> ReadCentralDirectory(const RangeReader& reader, bool resolve_data_offsets,
                                                   bool small_tail_first = false);

// The entries (data offsets not resolved) and where the central directory starts.
struct CentralDirectory {
  std::vector<ZipEntry> entries;
  uint64_t offset = 0;  // every local header and member's data must end at or before it
};
Result<CentralDirectory> ReadCentralDirectoryRecords(const RangeReader& reader, bool small_tail_first = false);

// Resolves the data offsets of `entries` (of the central directory at `cd_offset`), all of
// them or only those at the indices `which`, as ReadCentralDirectory does: the headers are
// read in batches of at most 1 MiB, in file order; the error is the first fault in file order.
Status ResolveDataOffsets(const RangeReader& reader, uint64_t cd_offset, std::vector<ZipEntry>* entries,
                          const std::vector<size_t>* which = nullptr);

// The bytes of `entry`'s local header, its name included (what LocalDataOffset needs).
inline uint64_t LocalHeaderBytes(const ZipEntry& entry) { return kLocalHeaderSize + entry.name.size(); }

// The data offset of `entry` from its local header bytes `header` (read at entry.lfh_offset,
// at least LocalHeaderBytes(entry) long), or nullopt when ResolveDataOffsets would report
// this header (bad signature, another name, data running into the central directory).
std::optional<uint64_t> LocalDataOffset(std::string_view header, const ZipEntry& entry, uint64_t cd_offset);

}  // namespace taco::zip

#endif  // TACO_FORMAT_ZIP_ZIP_READER_H_
