// TACO_HEADER (src/zip/taco_header.h): the first bytes of a would-be TACO ZIP. The input is
// the file; its size is the file size, and the parser sees the first 256 bytes as the
// reader would hand them over. Checks the contract: every accepted pair lies inside the file
// past the header and pairs do not overlap.
#include <algorithm>

#include "format/zip/taco_header.h"
#include "fuzz_support.h"
#include "taco/io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace taco;
  const std::string_view in = fuzz::AsView(data, size);
  const std::string_view prefix = in.substr(0, std::min<size_t>(size, zip::kTacoHeaderPrefixRead));
  auto header = zip::ParseTacoHeader(prefix, size, "fuzz.tacozip");
  if (header.ok()) {
    FUZZ_CHECK(header->entries.size() <= zip::kMaxHeaderEntries);
    for (const auto& e : header->entries) {
      FUZZ_CHECK(e.offset >= zip::kTacoGhostSize);
      FUZZ_CHECK(e.offset <= size && e.length <= size - e.offset);
    }
    // Round trip of the payload encoding.
    const std::string payload = zip::EncodeTacoHeaderPayload(header->entries);
    FUZZ_CHECK(payload.size() == zip::kTacoHeaderPayloadSize);
  } else {
    FUZZ_CHECK(!header.status().message().empty());
  }
  // The same bytes through a reader (one read of the first 256 bytes).
  auto reader = MemoryReader(std::string(in), "fuzz.tacozip");
  auto again = zip::ReadTacoHeader(*reader);
  FUZZ_CHECK(again.ok() == header.ok());
  return 0;
}
