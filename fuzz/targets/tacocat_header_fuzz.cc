// The 128-byte `__TACOCAT__` header (FORMAT §5.1; src/write/tacocat_internal.h). The input
// is the whole file. Checks the contract: accepted ranges lie inside the file after the
// header, and an accepted header encodes back to the same 128 bytes' meaning.
#include "fuzz_support.h"
#include "write/tacocat_internal.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace taco;
  const std::string_view in = fuzz::AsView(data, size);
  auto header =
      write::ParseTacocatHeader(in.substr(0, std::min<size_t>(size, write::kTacocatHeaderSize)), size, "__TACOCAT__");
  if (!header.ok()) return 0;
  auto inside = [&](const write::ByteRange& r) {
    return !r.present() || (r.offset >= write::kTacocatHeaderSize && r.offset <= size && r.size <= size - r.offset);
  };
  FUZZ_CHECK(inside(header->collection));
  for (const auto& level : header->levels) FUZZ_CHECK(inside(level));
  const std::string encoded = write::EncodeTacocatHeader(*header);
  FUZZ_CHECK(encoded.size() == write::kTacocatHeaderSize);
  auto again = write::ParseTacocatHeader(encoded, size, "__TACOCAT__");
  FUZZ_CHECK(again.ok());
  FUZZ_CHECK(again->collection.offset == header->collection.offset);
  return 0;
}
