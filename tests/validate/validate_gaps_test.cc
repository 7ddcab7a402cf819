// `taco validate` on the rules issue 16 C found unchecked: extent.temporal, collection
// extension keys, taco_version, OpticalData band tables, TACOCAT, truncated files.
#include <algorithm>

#include "validate_test_util.h"

namespace taco {
namespace {

using testing::RunTaco;
using testing::ShellQuote;
using testing::TempDir;

// A FOLDER dataset written by our writer, whose COLLECTION.json is then edited by `edit`;
// returns `taco validate` of it.
template <typename Edit>
testing::CommandResult ValidateEditedCollection(const TempDir& tmp, Edit edit) {
  const std::string path = vtest::Written(vtest::FlatTaco(), tmp / "flat");
  vtest::EditJson(path + "/COLLECTION.json", edit);
  return RunTaco("validate " + ShellQuote(path));
}

TEST(ValidateGaps, TemporalExtentMustParseAndBeOrdered) {
  {
    TempDir tmp;
    auto r = ValidateEditedCollection(tmp, [](nlohmann::ordered_json& c) {
      c["extent"] = {{"spatial", {0, 0, 1, 1}}, {"temporal", {"yesterday", "today"}}};
    });
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("collection-field  COLLECTION.json extent: extent.temporal[0] (start) 'yesterday' is not an "
                         "ISO-8601 date or datetime"),
              std::string::npos)
        << r.out;
  }
  {
    TempDir tmp;
    auto r = ValidateEditedCollection(tmp, [](nlohmann::ordered_json& c) {
      c["extent"] = {{"spatial", {0, 0, 1, 1}}, {"temporal", {"2023-06-01T00:00:00Z", "2023-01-01"}}};
    });
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("extent.temporal: start '2023-06-01T00:00:00Z' is after end '2023-01-01'"),
              std::string::npos)
        << r.out;
  }
  {
    TempDir tmp;
    auto r = ValidateEditedCollection(tmp, [](nlohmann::ordered_json& c) {
      c["extent"] = {{"spatial", {0, 0, 1, 1}}, {"temporal", {"2023-01-01", "2023-01-01T10:00:00+02:00"}}};
    });
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  }
}

}  // namespace
}  // namespace taco

