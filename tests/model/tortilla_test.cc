// Tortilla::Make: emptiness, unique ids, strict and non-strict schemas, padding, depth.
#include <gtest/gtest.h>

#include "model_test_util.h"
#include "taco/model.h"

namespace taco {
namespace {

using testing::F;
using testing::FileSample;

std::string MakeError(std::vector<Sample> samples, TortillaOptions options = {}) {
  Result<Tortilla> t = Tortilla::Make(std::move(samples), options);
  EXPECT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), StatusCode::kInvalidArgument);
  return t.status().message();
}

TEST(TortillaTest, EmptyAndBadPadTo) {
  EXPECT_EQ(MakeError({}), "tortilla: no samples (a tortilla needs at least one)");
  TortillaOptions zero;
  zero.pad_to = 0;
  EXPECT_EQ(MakeError({FileSample("a")}, zero), "tortilla: pad_to must be at least 1");
}

TEST(TortillaTest, DuplicateSiblingIds) {
  EXPECT_EQ(MakeError({FileSample("B01"), FileSample("B04"), FileSample("B02"), FileSample("B04")}),
            "tortilla: duplicate sibling id 'B04' (samples 1 and 3)");
}

TEST(TortillaTest, StrictSchema) {
  auto cc = [](double v) { return F("cloud_cover", DataType::Double(), v); };
  auto loc = [](const char* v) { return F("location", DataType::String(), v); };
  Tortilla ok = testing::MakeTortilla({FileSample("a", {cc(0.1), loc("x")}), FileSample("b", {cc(0.2), loc("y")})});
  ASSERT_EQ(ok.schema().size(), 2u);
  EXPECT_EQ(ok.schema()[0].first, "cloud_cover");
  EXPECT_EQ(ok.schema()[1].first, "location");  // insertion order kept

  EXPECT_EQ(MakeError({FileSample("a", {cc(0.1), loc("x")}), FileSample("b", {loc("y"), cc(0.2)})}),
            "tortilla: sample 'b' (index 1): extension column 0 is 'location: string', expected 'cloud_cover: "
            "double' as in sample 'a' (index 0) (strict schema: same names, order and types; use "
            "strict_schema=false to align)");
  EXPECT_EQ(MakeError({FileSample("a", {cc(0.1)}), FileSample("b", {cc(0.2)}),
                       FileSample("c", {F("cloud_cover", DataType::Float(), 0.5f)})}),
            "tortilla: sample 'c' (index 2): extension column 0 is 'cloud_cover: float', expected 'cloud_cover: "
            "double' as in sample 'a' (index 0) (strict schema: same names, order and types; use "
            "strict_schema=false to align)");
  EXPECT_EQ(MakeError({FileSample("a", {cc(0.1)}), FileSample("b", {cc(0.2), loc("y")})}),
            "tortilla: sample 'b' (index 1): has 2 extension columns, expected 1 as in sample 'a' (index 0) "
            "(strict schema: same names, order and types; use strict_schema=false to align)");
}

TEST(TortillaTest, NonStrictUnion) {
  TortillaOptions loose;
  loose.strict_schema = false;
  Tortilla t = testing::MakeTortilla(
      {FileSample("a", {F("zeta", DataType::Int64(), int64_t{1}), F("alpha", DataType::String(), "x", "First")}),
       FileSample("b", {F("mid", DataType::Double(), 2.5), F("zeta", DataType::Int64(), int64_t{2})}),
       FileSample("c", {F("zeta", DataType::Null(), Value()), F("late", DataType::Bool(), true)})},
      loose);
  ASSERT_EQ(t.schema().size(), 4u);
  EXPECT_EQ(t.schema()[0].first, "alpha");
  EXPECT_EQ(t.schema()[1].first, "late");
  EXPECT_EQ(t.schema()[2].first, "mid");
  EXPECT_EQ(t.schema()[3].first, "zeta");
  EXPECT_EQ(t.schema()[3].second, DataType::Int64());  // null type unified with int64
  for (const Sample& s : t.samples()) {
    ASSERT_EQ(s.extensions().size(), 4u) << s.id();
    for (size_t i = 0; i < 4; ++i) {
      EXPECT_EQ(s.extensions()[i].name, t.schema()[i].first);
      EXPECT_EQ(s.extensions()[i].type, t.schema()[i].second);
    }
  }
  const Sample& b = t.samples()[1];
  EXPECT_TRUE(b.extensions()[0].value.is_null());
  EXPECT_EQ(b.extensions()[0].description, "First");
  EXPECT_EQ(b.extensions()[2].value, Value(2.5));
  EXPECT_EQ(b.extensions()[3].value, Value(int64_t{2}));
  EXPECT_TRUE(t.samples()[2].extensions()[3].value.is_null());

  // One sample: insertion order kept.
  Tortilla single = testing::MakeTortilla(
      {FileSample("a", {F("zeta", DataType::Int64(), int64_t{1}), F("alpha", DataType::String(), "x")})}, loose);
  EXPECT_EQ(single.schema()[0].first, "zeta");

  EXPECT_EQ(MakeError({FileSample("a", {F("x", DataType::Double(), 1.0)}), FileSample("b"),
                       FileSample("c", {F("x", DataType::String(), "1")})},
                      loose),
            "tortilla: extension 'x' is double in sample 'a' (index 0) but string in sample 'c' (index 2)");
}

TEST(TortillaTest, Padding) {
  TortillaOptions pad4;
  pad4.pad_to = 4;
  auto cc = [](double v) { return F("cloud_cover", DataType::Double(), v, "Cloud fraction"); };
  Tortilla t =
      testing::MakeTortilla({FileSample("a", {cc(0.1)}), FileSample("b", {cc(0.2)}), FileSample("c", {cc(0.3)})}, pad4);
  ASSERT_EQ(t.size(), 4u);
  const Sample& pad = t.samples()[3];
  EXPECT_EQ(pad.id(), "__TACOPAD__0");
  EXPECT_TRUE(pad.is_padding());
  EXPECT_EQ(pad.size_bytes(), 0u);
  ASSERT_EQ(pad.extensions().size(), 1u);
  EXPECT_EQ(pad.extensions()[0].name, "cloud_cover");
  EXPECT_EQ(pad.extensions()[0].type, DataType::Double());
  EXPECT_TRUE(pad.extensions()[0].value.is_null());
  EXPECT_EQ(t.options().pad_to, std::optional<size_t>(4));

  Tortilla five = testing::MakeTortilla(
      {FileSample("a"), FileSample("b"), FileSample("c"), FileSample("d"), FileSample("e")}, pad4);
  ASSERT_EQ(five.size(), 8u);
  EXPECT_EQ(five.samples()[5].id(), "__TACOPAD__0");
  EXPECT_EQ(five.samples()[7].id(), "__TACOPAD__2");

  TortillaOptions pad3;
  pad3.pad_to = 3;
  EXPECT_EQ(testing::MakeTortilla({FileSample("a"), FileSample("b"), FileSample("c")}, pad3).size(), 3u);

  // A hand-made padding sample takes nulls too, and clashes with generated ones.
  Tortilla manual = testing::MakeTortilla({FileSample("a", {cc(0.1)}), Sample::Padding(7)});
  EXPECT_EQ(manual.samples()[1].extensions().size(), 1u);
  EXPECT_EQ(MakeError({FileSample("a"), Sample::Padding(0)}, pad3),
            "tortilla: duplicate sibling id '__TACOPAD__0' (samples 1 and 2)");
}

TEST(TortillaTest, Depth) {
  EXPECT_EQ(testing::MakeTortilla({FileSample("a")}).depth(), 1);
  Sample leaf_folder = testing::FolderSample("f", {FileSample("x")});
  Sample mid = testing::FolderSample("m", {leaf_folder});
  EXPECT_EQ(testing::MakeTortilla({mid}).depth(), 3);
  EXPECT_EQ(testing::MakeTortilla({FileSample("a"), leaf_folder}).depth(), 2);
}

}  // namespace
}  // namespace taco
