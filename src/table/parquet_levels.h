// Parquet's record shredding for the columns the engine-free writer and reader handle: a
// primitive leaf under zero or more 3-level LISTs (`<name>` LIST / repeated `list` /
// `element`), e.g. int64, list<int64>, list<list<float>>. Internal to src/table.
//
// A column is described by its ListShape (which nodes are optional); its values become
// (repetition level, definition level) pairs plus the defined leaf values (Shred), and those
// become values again (Assemble), as the Parquet format specifies. Also the RLE/bit-packed
// hybrid encoding of levels and dictionary indices.
#ifndef TACO_TABLE_PARQUET_LEVELS_H_
#define TACO_TABLE_PARQUET_LEVELS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "taco/value.h"

namespace taco::table::parquet {

// Physical types, encodings, codecs, page types, repetitions, converted types (parquet.thrift).
enum : int32_t { kBoolean = 0, kInt32 = 1, kInt64 = 2, kFloat = 4, kDouble = 5, kByteArray = 6 };
enum : int32_t { kPlain = 0, kPlainDictionary = 2, kRle = 3, kRleDictionary = 8 };
enum : int32_t { kUncompressed = 0, kZstd = 6 };
enum : int32_t { kDataPage = 0, kIndexPage = 1, kDictionaryPage = 2, kDataPageV2 = 3 };
enum : int32_t { kRequired = 0, kOptional = 1, kRepeated = 2 };
enum : int32_t {
  kConvertedUtf8 = 0,
  kConvertedList = 3,
  kConvertedTimestampMillis = 9,
  kConvertedTimestampMicros = 10,
  kConvertedInt8 = 15,
  kConvertedInt16 = 16,
  kConvertedInt32 = 17,
  kConvertedInt64 = 18
};
inline constexpr int kMaxListDepth = 4;

// The nodes from a column's top to its leaf: list_optional[j] for the LIST group at depth j
// (each followed by its repeated `list` group), then the leaf.
struct ListShape {
  std::vector<bool> list_optional;
  bool leaf_optional = true;

  int depth() const { return static_cast<int>(list_optional.size()); }
  int max_repetition() const { return depth(); }
  int max_definition() const;
};

// Levels and leaf values of a column chunk (rows in order).
struct Shredded {
  std::vector<uint32_t> repetition;  // empty when max_repetition() == 0
  std::vector<uint32_t> definition;  // empty when max_definition() == 0
  std::vector<const Value*> leaves;  // the defined leaf values, in order
  size_t count = 0;                  // number of (repetition, definition) entries
};

// Appends `value` (a row of the column) to `out`. False when its shape does not fit `shape`
// (a list where a leaf is expected, a null on a required node, ...).
bool Shred(const ListShape& shape, const Value& value, Shredded* out);

// The rows encoded by levels and leaf values: `leaves` holds one value per entry whose
// definition is the maximum. False (nothing appended) when they do not describe whole rows.
bool Assemble(const ListShape& shape, const std::vector<uint32_t>& repetition, const std::vector<uint32_t>& definition,
              std::vector<Value>& leaves, size_t count, std::vector<Value>* rows);

// Bits needed for values 0..max.
int BitWidth(uint32_t max);

// RLE/bit-packed hybrid of `values` at `width` bits (no length prefix).
void EncodeHybrid(const std::vector<uint32_t>& values, int width, std::string* out);
// `count` values of `width` bits (≤ 32); false when `in` is too short or malformed.
bool DecodeHybrid(std::string_view in, int width, size_t count, std::vector<uint32_t>* out);

}  // namespace taco::table::parquet

#endif  // TACO_TABLE_PARQUET_LEVELS_H_
