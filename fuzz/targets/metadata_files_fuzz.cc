// `taco create --metadata` files (src/write/metadata_files.h): the CSV reader (quotes,
// embedded newlines, BOM, CRLF), JSON Lines / JSON arrays, per-cell type inference, the
// union of types per column and the casts to it, and the ISO-8601 datetime parser.
// The first input byte picks the format (even: .csv, odd: .jsonl), the rest is the file.
#include "fuzz_support.h"
#include "util/exception_guard.h"
#include "write/metadata_files.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace taco;
  if (size == 0) return 0;
  const std::string_view text = fuzz::AsView(data + 1, size - 1);
  const char* suffix = (data[0] & 1) ? ".jsonl" : ".csv";
  const std::string path = fuzz::WriteScratchFile(std::string("metadata") + suffix, text);

  int64_t micros = 0;
  (void)write::ParseIsoDatetime(text.substr(0, 64), &micros);
  const write::MetadataCell cell = write::CellFromText(text.substr(0, 64));
  (void)write::CastCell(cell, write::UnifyTypes(cell.type, DataType::String()));

  write::MetadataSet set;
  Status st = util::GuardExceptions(path, [&] { return set.AddFile(path); });
  if (!st.ok()) return 0;
  // Non-strict: mixed-type columns are widened (and reported) instead of refused, so that
  // the rows below are always reached.
  std::vector<std::string> widened;
  if (!set.Finish(/*strict=*/false, &widened).ok()) return 0;
  FUZZ_CHECK(set.types().size() == set.columns().size());
  for (const write::MetadataRow& row : set.rows()) {
    for (const auto& [column, c] : row.cells) {
      FUZZ_CHECK(column < set.columns().size());
      (void)set.CellValue(column, c);
    }
  }
  return 0;
}
