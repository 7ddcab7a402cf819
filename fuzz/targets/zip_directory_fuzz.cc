// ZIP end of central directory, ZIP64 locator/record, central directory headers with their
// ZIP64 extra fields, and local headers (src/zip/zip_reader.h), on a whole file in memory.
// Then each member is read back by its data range with its local header's CRC-32 checked
// (src/zip/stored_member.h), as ReadBytes does. Checks the contract: every entry's local
// header (and, when resolved, its data) lies before the central directory, and a checked
// read returns exactly the member's bytes.
#include "format/zip/stored_member.h"
#include "format/zip/zip_reader.h"
#include "fuzz_support.h"
#include "taco/io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace taco;
  auto reader = MemoryReader(std::string(fuzz::AsView(data, size)), "fuzz.zip");
  for (bool resolve : {false, true}) {
    auto entries = zip::ReadCentralDirectory(*reader, resolve);
    if (!entries.ok()) continue;
    for (const auto& e : *entries) {
      FUZZ_CHECK(e.lfh_offset < size);
      if (resolve) {
        FUZZ_CHECK(e.data_offset <= size);
        FUZZ_CHECK(e.compressed_size <= size - e.data_offset);
        auto bytes = zip::ReadVerifiedMember(*reader, e.data_offset, e.compressed_size, e.name);
        if (bytes.ok()) FUZZ_CHECK(bytes->size() == e.compressed_size);
        auto header = zip::ReadLocalHeaderBefore(*reader, e.data_offset, e.compressed_size, e.name);
        if (header.ok()) FUZZ_CHECK(header->header_size <= e.data_offset);
      }
    }
  }
  return 0;
}
