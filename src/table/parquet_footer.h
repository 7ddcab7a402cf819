// What a Parquet footer says about a file, read without the SQL engine (issue 28: opening a
// dataset and len() do not start DuckDB).
//
// Contract: ReadParquetFooter reads the file's last bytes (one ReadAt of at most 64 KiB, a
// second one only for a larger footer) and parses FileMetaData with the Thrift compact
// reader of thrift_compact.h. It returns nullopt for anything it does not understand (no
// PAR1 magic, a footer that does not parse, a row group whose row count is negative or does
// not add up to the file's): callers then let the engine read the file, whose errors name
// it. I/O errors are returned as they are. Thread-safe (no shared state).
#ifndef TACO_TABLE_PARQUET_FOOTER_H_
#define TACO_TABLE_PARQUET_FOOTER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "taco/io.h"
#include "taco/status.h"
#include "taco/value.h"

namespace taco::table {

struct ParquetFooterFacts {
  uint64_t rows = 0;                 // FileMetaData.num_rows (= the row groups' sum)
  std::vector<std::string> columns;  // top-level column names, in schema order
  // True when no schema node carries an annotation under which DuckDB's Arrow type differs
  // from what engine.h's mapping and DecodeParquet give (8/16-bit and unsigned integers,
  // decimals, dates, times, millisecond or UTC-adjusted timestamps, enums, JSON, ...): the
  // rows may then go to Arrow without the engine (table_arrow.h).
  bool plain_types = true;
  // Per row group, the min_value/max_value statistics of the flat column named by
  // ReadParquetFooter's `stats_column` (nullopt for a group that has none).
  struct MinMax {
    std::string min, max;
  };
  std::vector<std::optional<MinMax>> stats;
  // The top-level columns with the types the engine gives them (parquet_reader.h
  // ParquetSchemaColumns; no values), or nullopt when only the engine can tell: `taco info`
  // answers from here without starting it.
  std::optional<std::vector<Column>> schema;
  bool has_column(std::string_view name) const;
  // True only when the statistics prove that no value of the stats column starts with
  // `prefix` (byte-wise, as Parquet orders UTF8): every row group has statistics whose range
  // holds no such value. A file without rows holds none.
  bool ProvesNoValueStartsWith(std::string_view prefix) const;
};

Result<std::optional<ParquetFooterFacts>> ReadParquetFooter(const RangeReader& reader, std::string_view stats_column);

// How many of a file's last bytes ReadParquetFooter reads first.
inline constexpr uint64_t kParquetFooterTailBytes = 64 * 1024;

// The same when the caller already holds the file's last min(size, kParquetFooterTailBytes)
// bytes (`tail`, e.g. kept from a CRC pass over them): no read unless the footer is longer.
// A `tail` of another length is ignored (the bytes are read).
Result<std::optional<ParquetFooterFacts>> ReadParquetFooter(const RangeReader& reader, std::string_view stats_column,
                                                            std::string tail);

}  // namespace taco::table

#endif  // TACO_TABLE_PARQUET_FOOTER_H_
