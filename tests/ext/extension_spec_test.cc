// ext::ParseExtensionSpecs (issue 25): `--ext` / from_directory(ext=) parsed once into typed
// specs. Good specs (one per text, several per text separated by ',', NAME:GLOB), and every
// bad spec refused with a message that names it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/status_assert.h"
#include "taco/extensions.h"

namespace taco::ext {
namespace {

TEST(ExtensionSpecs, NamesGlobsAndCommaLists) {
  auto specs = ParseExtensionSpecs({"stac,stats:*fore.tif", "stats-categorical:tile_*/label.tif", "majortom"});
  ASSERT_OK(specs);
  const std::vector<ExtensionSpec> want = {
      {"stac", "", "stac"},
      {"stats", "*fore.tif", "stats:*fore.tif"},
      {"stats-categorical", "tile_*/label.tif", "stats-categorical:tile_*/label.tif"},
      {"majortom", "", "majortom"},
  };
  EXPECT_EQ(*specs, want);
  auto none = ParseExtensionSpecs({});
  ASSERT_OK(none);
  EXPECT_TRUE(none->empty());
  // Only the first ':' separates: the rest is the pattern.
  auto colon = ParseExtensionSpecs({"istac:a:b.tif"});
  ASSERT_OK(colon);
  EXPECT_EQ((*colon)[0].glob, "a:b.tif");
}

// Each bad spec: the InvalidArgument message, which names the spec.
TEST(ExtensionSpecs, BadSpecsNameTheSpec) {
  const std::string known = "(known: stac, istac, stats, stats-categorical, majortom)";
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"nope"}, "extension 'nope' is unknown " + known},
      {{"stac,nope:*.tif"}, "extension 'nope' is unknown " + known},
      {{"STAC"}, "extension 'STAC' is unknown " + known},
      {{"stac,,stats"}, "extension '' is unknown " + known},
      {{""}, "extension '' is unknown " + known},
      {{"stats:"}, "extension 'stats:': empty file pattern after ':'"},
      {{"majortom:*.tif"}, "extension 'majortom:*.tif': majortom applies to tortillas, it takes no file pattern"},
      {{"stac", "istac,stac"}, "extension 'stac' given twice"},
      {{"stats:a.tif,stats:a.tif"}, "extension 'stats:a.tif' given twice"},
  };
  for (const auto& [texts, message] : cases) {
    auto specs = ParseExtensionSpecs(texts);
    ASSERT_FALSE(specs.ok()) << texts[0];
    EXPECT_EQ(specs.status().code(), StatusCode::kInvalidArgument) << texts[0];
    EXPECT_EQ(specs.status().message(), message) << texts[0];
  }
  // The same NAME with different patterns is no duplicate.
  EXPECT_OK(ParseExtensionSpecs({"stats:a.tif,stats:b.tif"}));
}

TEST(ExtensionSpecs, NamesAreTheRegistryPlusMajortom) {
  std::vector<std::string> want = KnownExtensionNames();
  want.push_back("majortom");
  EXPECT_EQ(ExtensionSpecNames(), want);
}

}  // namespace
}  // namespace taco::ext
