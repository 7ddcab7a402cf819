// WkbIntersectsBox: exact closed-set intersection for points, lines, polygons, multi-parts.
#include "table/wkb_geometry.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace taco::table {
namespace {

void PutU32(std::string& s, uint32_t v) { s.append(reinterpret_cast<const char*>(&v), 4); }
void PutF64(std::string& s, double v) { s.append(reinterpret_cast<const char*>(&v), 8); }

std::string Point(double x, double y) {
  std::string s(1, '\x01');
  PutU32(s, 1);
  PutF64(s, x);
  PutF64(s, y);
  return s;
}

using Ring = std::vector<std::pair<double, double>>;
std::string Polygon(const std::vector<Ring>& rings) {
  std::string s(1, '\x01');
  PutU32(s, 3);
  PutU32(s, static_cast<uint32_t>(rings.size()));
  for (const auto& ring : rings) {
    PutU32(s, static_cast<uint32_t>(ring.size()));
    for (auto [x, y] : ring) {
      PutF64(s, x);
      PutF64(s, y);
    }
  }
  return s;
}

std::string Multi(uint32_t type, const std::vector<std::string>& parts) {
  std::string s(1, '\x01');
  PutU32(s, type);
  PutU32(s, static_cast<uint32_t>(parts.size()));
  for (const auto& p : parts) s += p;
  return s;
}

bool Hit(const std::string& wkb, Box box) {
  auto r = WkbIntersectsBox(wkb, box);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() && *r;
}

const Box kUnit{0, 0, 1, 1};

TEST(WkbIntersectsBox, PointsAreClosed) {
  EXPECT_TRUE(Hit(Point(0.5, 0.5), kUnit));
  EXPECT_TRUE(Hit(Point(1, 1), kUnit));
  EXPECT_TRUE(Hit(Point(0, 0.3), kUnit));
  EXPECT_FALSE(Hit(Point(1.0000001, 0.5), kUnit));
}

TEST(WkbIntersectsBox, PolygonsExactNotEnvelope) {
  Ring triangle = {{0, 0}, {10, 0}, {0, 10}, {0, 0}};
  EXPECT_TRUE(Hit(Polygon({triangle}), Box{1, 1, 2, 2}));
  // Inside the triangle's envelope but outside the triangle.
  EXPECT_FALSE(Hit(Polygon({triangle}), Box{8, 8, 9, 9}));
  // Box strictly inside the polygon (no edge crosses it).
  EXPECT_TRUE(Hit(Polygon({{{-5, -5}, {5, -5}, {5, 5}, {-5, 5}, {-5, -5}}}), Box{-1, -1, 1, 1}));
  // Polygon strictly inside the box.
  EXPECT_TRUE(Hit(Polygon({{{0.2, 0.2}, {0.4, 0.2}, {0.4, 0.4}, {0.2, 0.2}}}), kUnit));
  // Touching at one corner.
  EXPECT_TRUE(Hit(Polygon({{{1, 1}, {2, 1}, {2, 2}, {1, 1}}}), kUnit));
  // Box inside a hole.
  Ring outer = {{-10, -10}, {10, -10}, {10, 10}, {-10, 10}, {-10, -10}};
  Ring hole = {{-5, -5}, {5, -5}, {5, 5}, {-5, 5}, {-5, -5}};
  EXPECT_FALSE(Hit(Polygon({outer, hole}), Box{-1, -1, 1, 1}));
  EXPECT_TRUE(Hit(Polygon({outer, hole}), Box{6, 6, 7, 7}));
}

TEST(WkbIntersectsBox, MultiPartsAndCollections) {
  std::string mp = Multi(4, {Point(5, 5), Point(0.5, 0.5)});
  EXPECT_TRUE(Hit(mp, kUnit));
  EXPECT_FALSE(Hit(Multi(4, {Point(5, 5)}), kUnit));
  std::string mpoly =
      Multi(6, {Polygon({{{3, 3}, {4, 3}, {4, 4}, {3, 3}}}), Polygon({{{0, 0}, {2, 0}, {0, 2}, {0, 0}}})});
  EXPECT_TRUE(Hit(mpoly, kUnit));
  EXPECT_FALSE(Hit(Multi(7, {}), kUnit));
}

TEST(WkbIntersectsBox, LineCrossingWithoutVertexInside) {
  std::string line(1, '\x01');
  PutU32(line, 2);
  PutU32(line, 2);
  PutF64(line, -1);
  PutF64(line, 0.5);
  PutF64(line, 2);
  PutF64(line, 0.5);
  EXPECT_TRUE(Hit(line, kUnit));
  EXPECT_FALSE(Hit(line, Box{0, 0.6, 1, 1}));
}

TEST(WkbIntersectsBox, BigEndianAndZ) {
  std::string be = std::string(4, '\0') + '\x01';  // byte order 0 (big-endian), type 1
  for (double v : {0.5, 0.5}) {
    uint64_t bits;
    std::memcpy(&bits, &v, 8);
    bits = __builtin_bswap64(bits);
    be.append(reinterpret_cast<const char*>(&bits), 8);
  }
  EXPECT_TRUE(Hit(be, kUnit));
  std::string z(1, '\x01');
  PutU32(z, 1001);
  PutF64(z, 0.5);
  PutF64(z, 0.5);
  PutF64(z, 99);
  EXPECT_TRUE(Hit(z, kUnit));
}

TEST(WkbIntersectsBox, MalformedIsCorruption) {
  EXPECT_FALSE(WkbIntersectsBox("", kUnit).ok());
  EXPECT_FALSE(WkbIntersectsBox(Point(0, 0).substr(0, 12), kUnit).ok());
  EXPECT_FALSE(WkbIntersectsBox(Point(0, 0) + "x", kUnit).ok());
  std::string huge(1, '\x01');
  PutU32(huge, 2);
  PutU32(huge, 0xFFFFFFFFu);
  EXPECT_FALSE(WkbIntersectsBox(huge, kUnit).ok());
  std::string bad(1, '\x01');
  PutU32(bad, 42);
  EXPECT_FALSE(WkbIntersectsBox(bad, kUnit).ok());
}

}  // namespace
}  // namespace taco::table

// The same predicate as a DuckDB function of an opened dataset.
#include "read/read_test_util.h"

namespace taco::readtest {
namespace {

TEST(WkbSqlFunction, NullsAndMalformedInput) {
  auto ds = OpenOrDie(FlatZip());
  Table t = ValueOrDie(
      ds->QueryRaw("SELECT taco_wkb_intersects_box(NULL, 0, 0, 1, 1) AS a, "
                   "taco_wkb_intersects_box(\"istac:centroid\", -1, 39, 0, 40) AS b FROM data WHERE id = 'sample_0'"));
  ASSERT_EQ(t.num_rows(), 1u);
  EXPECT_TRUE(t.columns[0].values[0].is_null());
  EXPECT_EQ(t.columns[1].values[0], Value(true));
  auto bad = ds->QueryRaw("SELECT taco_wkb_intersects_box('\\x01\\x01'::BLOB, 0, 0, 1, 1)");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("taco_wkb_intersects_box: WKB: truncated"), std::string::npos)
      << bad.status().message();
}

}  // namespace
}  // namespace taco::readtest
