// The WKB point / bounds reader.
#include "model/wkb.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "model_test_util.h"

namespace taco {
namespace {

// Hand-built WKB: byte order, type code, then raw doubles / counts.
class WkbBuilder {
 public:
  explicit WkbBuilder(bool little) : little_(little) {}
  WkbBuilder& Header(uint32_t type) {
    out_.push_back(little_ ? 1 : 0);
    return U32(type);
  }
  WkbBuilder& U32(uint32_t v) {
    for (int i = 0; i < 4; ++i) out_.push_back(static_cast<char>(little_ ? v >> (8 * i) : v >> (8 * (3 - i))));
    return *this;
  }
  WkbBuilder& D(double d) {
    uint64_t v;
    std::memcpy(&v, &d, 8);
    for (int i = 0; i < 8; ++i) out_.push_back(static_cast<char>(little_ ? v >> (8 * i) : v >> (8 * (7 - i))));
    return *this;
  }
  const std::string& str() const { return out_; }

 private:
  bool little_;
  std::string out_;
};

TEST(WkbTest, PointBothByteOrders) {
  for (bool little : {true, false}) {
    Result<model::WkbPoint> p = model::ParseWkbPoint(testing::WkbPointBytes(-3.5, 40.25, little).bytes);
    ASSERT_TRUE(p.ok()) << p.status().ToString();
    EXPECT_EQ(p->x, -3.5);
    EXPECT_EQ(p->y, 40.25);
  }
}

TEST(WkbTest, PointZAndEwkb) {
  Result<model::WkbPoint> iso_z = model::ParseWkbPoint(WkbBuilder(true).Header(1001).D(1).D(2).D(3).str());
  ASSERT_TRUE(iso_z.ok()) << iso_z.status().ToString();
  EXPECT_EQ(iso_z->y, 2);
  Result<model::WkbPoint> iso_zm = model::ParseWkbPoint(WkbBuilder(false).Header(3001).D(1).D(2).D(3).D(4).str());
  ASSERT_TRUE(iso_zm.ok());
  EXPECT_EQ(iso_zm->x, 1);
  Result<model::WkbPoint> ewkb =
      model::ParseWkbPoint(WkbBuilder(true).Header(0x20000001u | 0x80000000u).U32(4326).D(5).D(6).D(7).str());
  ASSERT_TRUE(ewkb.ok()) << ewkb.status().ToString();
  EXPECT_EQ(ewkb->x, 5);
  EXPECT_EQ(ewkb->y, 6);
  bool empty = false;
  Result<model::WkbPoint> nan = model::ParseWkbPoint(WkbBuilder(true).Header(1).D(NAN).D(NAN).str(), &empty);
  ASSERT_TRUE(nan.ok());
  EXPECT_TRUE(empty);
}

TEST(WkbTest, Errors) {
  std::string point = testing::WkbPointBytes(1, 2).bytes;
  EXPECT_EQ(model::ParseWkbPoint(point.substr(0, 20)).status().message(), "WKB: truncated at byte 13");
  EXPECT_EQ(model::ParseWkbPoint(point + "x").status().message(), "WKB: trailing bytes after the Point");
  EXPECT_EQ(model::ParseWkbPoint("").status().message(), "WKB: truncated at byte 0");
  std::string bad_order = point;
  bad_order[0] = 7;
  EXPECT_EQ(model::ParseWkbPoint(bad_order).status().message(), "WKB: bad byte-order marker 7");
  EXPECT_EQ(model::ParseWkbPoint(WkbBuilder(true).Header(2).U32(0).str()).status().message(),
            "WKB: geometry type 2 is not a Point");
  EXPECT_EQ(model::ParseWkbPoint(WkbBuilder(true).Header(9).str()).status().message(),
            "WKB: unsupported geometry type");
  EXPECT_EQ(model::WkbBounds(WkbBuilder(true).Header(2).U32(1000000).str()).status().message(),
            "WKB: count 1000000 exceeds the data");
  EXPECT_EQ(model::ParseWkbPoint(point).status().code(), StatusCode::kOk);
}

TEST(WkbTest, Bounds) {
  // POLYGON((0 0, 4 0, 4 3, 0 0)) big-endian, inside a MULTIPOLYGON with a second one.
  std::string poly1 = WkbBuilder(false).Header(3).U32(1).U32(4).D(0).D(0).D(4).D(0).D(4).D(3).D(0).D(0).str();
  std::string poly2 = WkbBuilder(true).Header(3).U32(1).U32(3).D(-2).D(1).D(-1).D(5).D(-2).D(1).str();
  std::string multi = WkbBuilder(true).Header(6).U32(2).str() + poly1 + poly2;
  Result<model::WkbBox> box = model::WkbBounds(multi);
  ASSERT_TRUE(box.ok()) << box.status().ToString();
  EXPECT_FALSE(box->empty);
  EXPECT_EQ(box->min_x, -2);
  EXPECT_EQ(box->min_y, 0);
  EXPECT_EQ(box->max_x, 4);
  EXPECT_EQ(box->max_y, 5);
  Result<model::WkbBox> empty = model::WkbBounds(WkbBuilder(true).Header(7).U32(0).str());
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty);
}

}  // namespace
}  // namespace taco
