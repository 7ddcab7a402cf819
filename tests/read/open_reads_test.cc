// How many reads opening a local TACO ZIP costs (issue 28): the header, COLLECTION.json,
// and per level its local header and one read of the member for its CRC-32, whose last bytes
// also hold the Parquet footer (no third read per level).
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "read/read_test_util.h"
#include "taco/diagnostics.h"

namespace taco::readtest {
namespace {

uint64_t ReadsToOpen(const std::string& path, bool verify_crc, int* levels) {
  std::shared_ptr<CountingReader> counter;
  OpenOptions options;
  options.verify_crc = verify_crc;
  options.wrap_container = [&counter](RangeReaderPtr base) {
    counter = std::make_shared<CountingReader>(std::move(base));
    return counter;
  };
  auto ds = OpenOrDie(path, options);
  EXPECT_NE(ds, nullptr);
  EXPECT_NE(counter, nullptr);
  if (ds == nullptr || counter == nullptr) return 0;
  *levels = ds->num_levels();
  return counter->requests();
}

TEST(ZipOpenReads, TwoReadsPerLevelWhenTheCrcPassHoldsTheFooter) {
  for (const std::string& path : {FlatZip(), NestedZip()}) {
    SCOPED_TRACE(path);
    const uint64_t engines = EnginesStarted();
    int levels = 0;
    const uint64_t reads = ReadsToOpen(path, true, &levels);
    ASSERT_GE(levels, 1);
    EXPECT_EQ(reads, 2u + 2u * static_cast<uint64_t>(levels));
    EXPECT_EQ(EnginesStarted(), engines);
  }
}

// Without the CRC pass the member is not read: its footer costs one read of the tail.
TEST(ZipOpenReads, WithoutCrcChecksTheFooterIsReadFromTheTail) {
  int levels = 0;
  const uint64_t reads = ReadsToOpen(NestedZip(), false, &levels);
  ASSERT_EQ(levels, 2);
  EXPECT_EQ(reads, 2u + 2u * 2u);
}

}  // namespace
}  // namespace taco::readtest
