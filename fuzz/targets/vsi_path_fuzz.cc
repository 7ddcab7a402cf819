// Paths and URLs from metadata and users: FORMAT §6.2 /vsisubfile/ paths, decimal fields,
// URL → GDAL path translation, the plain-http detection, and HTTP response header lines
// from servers (Content-Range, ETag). Checks the contract: a parsed /vsisubfile/ path
// prints back to the same text when its numbers have no leading zeros.
#include "fuzz_support.h"
#include "io/http_client.h"
#include "taco/io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace taco;
  const std::string_view in = fuzz::AsView(data, size);
  if (auto ref = ParseVsiSubfile(in)) {
    const std::string back =
        "/vsisubfile/" + std::to_string(ref->offset) + "_" + std::to_string(ref->size) + "," + ref->root;
    auto again = ParseVsiSubfile(back);
    FUZZ_CHECK(again.has_value());
    FUZZ_CHECK(again->offset == ref->offset && again->size == ref->size && again->root == ref->root);
  }
  uint64_t n = 0;
  if (ParseDecimal(in, &n)) FUZZ_CHECK(!in.empty() && in.size() <= 19);
  (void)IsRemotePath(in);
  (void)io::PlainHttpUrl(in);
  // Local paths are resolved against the file system: only remote-looking ones here.
  if (IsRemotePath(in)) (void)ToVsiPath(in);
  io::HttpResponse response;
  io::ParseHttpHeaderLine(in, &response);
  if (response.range_first >= 0) FUZZ_CHECK(response.range_last >= 0);
  return 0;
}
