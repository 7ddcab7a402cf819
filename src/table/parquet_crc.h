// Verification of the page CRC-32s a Parquet file stores (PageHeader.crc: the CRC-32 of the
// page's bytes as stored, after the header; our writer sets it on every page, other writers
// may leave it out). DuckDB does not check them, so readers of files that have no other
// checksum (FOLDER and `.tacocat/` levels, FOLDER `__meta__`) call this first.
//
// Contract: a pure function on the bytes, any thread. Walks the footer's row groups and
// column chunks, then every page header of each chunk (walking stops at a chunk's end).
// A stored CRC that differs is a Corruption error: "<name>: Parquet page CRC-32 mismatch
// (row group G, column C, page at byte N): stored 0x…, computed 0x…: the file is damaged".
// Bytes that cannot be walked (no PAR1 magic, a footer or page header that does not parse,
// a column chunk with a negative value count or size, or a range outside the file) are not an error here — the engine
// reports such files when it reads them — but `unwalkable` says why the walk stopped ("<name>: damaged Parquet footer
// (...)", "<name>: damaged Parquet page header (row group G, column C, byte N)"), for `validate`. Pages without a CRC
// are counted, not checked.
#ifndef TACO_TABLE_PARQUET_CRC_H_
#define TACO_TABLE_PARQUET_CRC_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "taco/io.h"
#include "taco/status.h"

namespace taco::table {

struct PageCrcSummary {
  uint64_t pages = 0;      // page headers walked
  uint64_t checked = 0;    // of which had a CRC (all matched)
  std::string unwalkable;  // empty when every page was walked; else why the walk stopped
};

Result<PageCrcSummary> VerifyParquetPageCrcs(std::string_view file, const std::string& name);

// For `validate`: summary.unwalkable without the file's name when it reports damage (a
// footer or page header that cannot be walked), "" otherwise (every page walked, or a file
// too large to walk here).
std::string ParquetDamage(const PageCrcSummary& summary, const std::string& name);

// The same for the whole of `reader` (named by reader.name()) when it holds at most
// kMaxVerifiedParquetBytes (read in one ReadAt, then freed); larger files are not walked
// (OK, summary.unwalkable says so).
inline constexpr uint64_t kMaxVerifiedParquetBytes = uint64_t{64} << 20;
Result<PageCrcSummary> VerifyParquetPageCrcs(const RangeReader& reader);

}  // namespace taco::table

#endif  // TACO_TABLE_PARQUET_CRC_H_
