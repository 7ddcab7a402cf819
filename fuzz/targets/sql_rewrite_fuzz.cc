// The SQL tokenizer that rewrites `data`/`data_raw` in Dataset::Sql() (src/read/sql_rewrite.h).
// Checks the contract: text with no mapped name is unchanged, and the rewrite only ever
// grows the text (a name becomes "<new> AS <name>" or "<new>").
#include "fuzz_support.h"
#include "read/sql_rewrite.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace taco;
  const std::string_view sql = fuzz::AsView(data, size);
  const std::map<std::string, std::string> tables = {{"data", "view_0000002a"}, {"data_raw", "raw_0000002a"}};
  const std::string out = read::RewriteTableNames(sql, tables);
  FUZZ_CHECK(out.size() >= sql.size());
  const std::string none = read::RewriteTableNames(sql, {});
  FUZZ_CHECK(none == sql);
  return 0;
}
