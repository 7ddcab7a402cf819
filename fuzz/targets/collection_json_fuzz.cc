// COLLECTION.json and TACOLLECTION.json from strangers: the JSON text itself (UTF-8, syntax,
// nesting and size limits; src/util/json_text.h), the collection rules (model
// ValidateCollection), the pit schema's depth (TACOCAT opening), and the TACOLLECTION merge
// of two such collections (pit counts, extents, field schemas; src/write/tacollection.cc).
// The library boundary may turn a dependency's exception into a Status, never let it out.
#include "format/folder/collection_levels.h"
#include "fuzz_support.h"
#include "taco/model.h"
#include "util/exception_guard.h"
#include "util/json_text.h"
#include "write/tacocat_internal.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace taco;
  const std::string_view in = fuzz::AsView(data, size);
  // Two documents separated by a NUL byte: the second is the other TACOLLECTION input.
  const auto parts = fuzz::SplitOnce(in, std::string_view("\0", 1));
  const std::string_view first = parts.first, second = parts.second;  // clang 14: no captured bindings
  auto parsed = util::ParseJsonText(first, "COLLECTION.json");
  if (!parsed.ok()) {
    FUZZ_CHECK(parsed.status().code() == StatusCode::kCorruption);
    FUZZ_CHECK(util::IsValidUtf8(parsed.status().message()));
    return 0;
  }
  // Every parsed value dumps back to text that parses to the same value.
  const std::string dumped = util::DumpJsonText(*parsed);
  auto reparsed = util::ParseJsonText(dumped, "dumped");
  FUZZ_CHECK(reparsed.ok());
  FUZZ_CHECK(*reparsed == *parsed);

  (void)util::GuardExceptions("COLLECTION.json", [&] { return ValidateCollection(*parsed); });
  (void)util::GuardExceptions("COLLECTION.json",
                              [&] { return format::PitSchemaMaxDepth(std::string(first), "COLLECTION.json"); });

  auto other = second.empty() ? parsed : util::ParseJsonText(second, "other COLLECTION.json");
  if (!other.ok() || !parsed->is_object() || !other->is_object()) return 0;
  std::vector<write::OpenedSource> sources(2);
  sources[0].source = {"a.tacozip", "a.tacozip"};
  sources[0].collection = *parsed;
  sources[1].source = {"b.tacozip", "b.tacozip"};
  sources[1].collection = *other;
  for (bool validate_fields : {true, false}) {
    TacollectionOptions options;
    options.validate_fields = validate_fields;
    auto merged =
        util::GuardExceptions("tacollection", [&] { return write::BuildTacollectionFromSources(sources, options); });
    if (merged.ok()) (void)util::DumpJsonText(*merged);
  }
  return 0;
}
