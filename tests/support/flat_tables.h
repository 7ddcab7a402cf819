// Test tables for the engine-free Parquet writer and reader (tests/table/parquet_*_test.cc).
#ifndef TACO_TESTS_SUPPORT_FLAT_TABLES_H_
#define TACO_TESTS_SUPPORT_FLAT_TABLES_H_

#include <gtest/gtest.h>

#include <cstdint>

#include "taco/value.h"

namespace taco::table::testing {

// Every flat type, with nulls in patterns that exercise both definition-level encodings
// (all defined, all null, mixed) and the bit-packing of booleans across bytes. Column 9
// ("never", string) is all null.
Table FlatTable(size_t rows, uint32_t seed);

// List columns as the STAC and stats extensions write them, and deeper: list<int64>,
// list<list<float>>, list<string>, list<list<list<int32>>>, with null lists, empty lists,
// null elements, empty inner lists.
Table ListTable(size_t rows, uint32_t seed);

// Same names, types and values, column by column (a failure names the first differing cell).
void ExpectSameTables(const Table& got, const Table& want);

}  // namespace taco::table::testing

#endif  // TACO_TESTS_SUPPORT_FLAT_TABLES_H_
