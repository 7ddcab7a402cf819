// filter_bbox / filter_datetime, cascading, and their errors (FORMAT §6.5–§6.7, §9.5).
#include <gtest/gtest.h>

#include "read/read_test_util.h"

namespace taco::readtest {
namespace {

std::unique_ptr<Dataset> Bbox(const Dataset& ds, double a, double b, double c, double d, int level = 0) {
  return ValueOrDie(ds.FilterBbox(a, b, c, d, "auto", level));
}
std::unique_ptr<Dataset> When(const Dataset& ds, const std::string& range, int level = 0) {
  return ValueOrDie(ds.FilterDatetime(range, "auto", level));
}
std::vector<std::string> Locations(const Dataset& ds) { return Strings(ValueOrDie(ds.Data()), "location"); }

TEST(Filters, FlatZipAcceptanceChecks) {
  auto ds = OpenOrDie(FlatZip());
  EXPECT_EQ(Locations(*Bbox(*ds, -0.5, 39.3, -0.2, 39.6)), (std::vector<std::string>{"valencia"}));
  EXPECT_EQ(ValueOrDie(Bbox(*ds, 50, 50, 51, 51)->RowCount()), 0);
  EXPECT_EQ(Locations(*When(*ds, "2023-01-01/2023-01-15")), (std::vector<std::string>{"valencia"}));
  EXPECT_EQ(ValueOrDie(When(*ds, "2023-01-01/2023-02-15")->RowCount()), 2);
  EXPECT_EQ(ValueOrDie(When(*ds, "2023-01-01")->RowCount()), 1);
  EXPECT_EQ(ValueOrDie(When(*ds, "2023-01-01T00:00:00Z/2023-02-15T00:00:00Z")->RowCount()), 2);
  EXPECT_EQ(ValueOrDie(When(*ds, "2020-01-01/2020-12-31")->RowCount()), 0);
  auto a = When(*Bbox(*ds, -80, -15, -70, 0), "2023-01-01/2023-06-01");
  auto b = Bbox(*When(*ds, "2023-01-01/2023-06-01"), -80, -15, -70, 0);
  EXPECT_EQ(Locations(*a), (std::vector<std::string>{"lima"}));
  EXPECT_EQ(Locations(*b), (std::vector<std::string>{"lima"}));
  EXPECT_EQ(a->collection()["taco:pit_schema"]["root"]["n"], 1);
}

TEST(Filters, FlatFolderGivesTheSameRows) {
  auto zip = OpenOrDie(FlatZip());
  auto folder = OpenOrDie(FlatFolder());
  EXPECT_EQ(Ids(*Bbox(*zip, -10, 30, 10, 60)), Ids(*Bbox(*folder, -10, 30, 10, 60)));
  EXPECT_EQ(Ids(*When(*zip, "2023-03-01/2023-04-30")), Ids(*When(*folder, "2023-03-01/2023-04-30")));
}

TEST(Filters, ExplicitColumnsAndTouchingBoxes) {
  auto ds = OpenOrDie(FlatZip());
  // istac:centroid of valencia is (-0.35, 39.45) (FORMAT §9): a degenerate box on it matches.
  auto exact = ValueOrDie(ds->FilterBbox(-0.35, 39.45, -0.35, 39.45, "istac:centroid"));
  EXPECT_EQ(Locations(*exact), (std::vector<std::string>{"valencia"}));
  auto by_time = ValueOrDie(ds->FilterDatetime("2023-05-01", "istac:time_start"));
  EXPECT_EQ(Locations(*by_time), (std::vector<std::string>{"lima"}));
}

TEST(Filters, ErrorTexts) {
  auto ds = OpenOrDie(FlatZip());
  auto unknown = ds->FilterBbox(0, 0, 1, 1, "nope");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("Column 'nope' not found in level 0 (columns: id, type,"),
            std::string::npos)
      << unknown.status().message();
  auto unknown_time = ds->FilterDatetime("2023-01-01", "nope");
  ASSERT_FALSE(unknown_time.ok());
  EXPECT_NE(unknown_time.status().message().find("Column 'nope' not found"), std::string::npos);
  auto level = OpenOrDie(NestedFolder())->FilterDatetime("2023-01-01/2023-01-15", "auto", 99);
  ASSERT_FALSE(level.ok());
  EXPECT_NE(level.status().message().find("Level 99 does not exist (levels 0..1)"), std::string::npos)
      << level.status().message();
  auto bare = ValueOrDie(ds->Sql("SELECT id, type, \"internal:gdal_vsi\" FROM data"));
  auto no_geometry = bare->FilterBbox(0, 0, 1, 1);
  ASSERT_FALSE(no_geometry.ok());
  EXPECT_NE(no_geometry.status().message().find("No geometry column found"), std::string::npos);
  EXPECT_FALSE(bare->FilterDatetime("2023-01-01").ok());
  EXPECT_FALSE(ds->FilterBbox(1, 0, 0, 1).ok());
  EXPECT_FALSE(ds->FilterDatetime("2023-02-01/2023-01-01").ok());
  EXPECT_FALSE(ds->FilterBbox(0, 0, 1, 1, "location").ok());
  EXPECT_FALSE(ds->FilterDatetime("2023-01-01", "cloud_cover").ok());
}

TEST(Filters, CascadeOnNestedFolder) {
  auto ds = OpenOrDie(NestedFolder());
  EXPECT_EQ(Ids(*Bbox(*ds, -0.5, 39.3, 13.6, 52.7)), (std::vector<std::string>{"europe"}));
  auto nyc = Bbox(*ds, -74.2, 40.5, -73.8, 40.9, 1);
  EXPECT_EQ(Ids(*nyc), (std::vector<std::string>{"americas"}));
  EXPECT_EQ(ValueOrDie(When(*ds, "2023-01-01/2023-01-15", 1)->RowCount()), 3);
  // Navigation returns only the surviving children.
  Node americas = ValueOrDie(nyc->Read("americas"));
  ASSERT_NE(americas.children, nullptr);
  EXPECT_EQ(Strings(americas.children->Data(), "id"), (std::vector<std::string>{"item_0", "item_2"}));
  EXPECT_EQ(ValueOrDie(nyc->ReadBytes(ValueOrDie(americas.children->Read(1)))), "data_americas_2");
  // Without the filter, all three.
  EXPECT_EQ(ValueOrDie(ds->Read("americas")).children->num_rows(), 3u);
  // Data() hides internal columns after a cascade too.
  EXPECT_LT(ValueOrDie(nyc->Data()).FindColumn("internal:current_id"), 0);
}

TEST(Filters, CascadeOnNestedZipNavigatesWithMetaOffsets) {
  auto ds = OpenOrDie(NestedZip());
  auto nyc = Bbox(*ds, -74.2, 40.5, -73.8, 40.9, 1);
  EXPECT_EQ(Ids(*nyc), (std::vector<std::string>{"americas"}));
  Node americas = ValueOrDie(nyc->Read(0));
  ASSERT_EQ(americas.children->num_rows(), 2u);
  const std::string root = ToVsiPath(NestedZip());
  EXPECT_EQ(ValueOrDie(americas.children->Read("item_0")).gdal_path, "/vsisubfile/390_15," + root);
  EXPECT_EQ(ValueOrDie(americas.children->Read("item_2")).gdal_path, "/vsisubfile/520_15," + root);
  EXPECT_EQ(ValueOrDie(americas.children->ReadBytes("item_2")), "data_americas_2");
}

TEST(Filters, ChainedCascadesIntersect) {
  auto ds = OpenOrDie(NestedFolder());
  auto nyc = Bbox(*ds, -74.2, 40.5, -73.8, 40.9, 1);
  auto march = When(*nyc, "2023-03-01/2023-03-31", 1);
  EXPECT_EQ(Ids(*march), (std::vector<std::string>{"americas"}));
  Node americas = ValueOrDie(march->Read("americas"));
  EXPECT_EQ(Strings(americas.children->Data(), "id"), (std::vector<std::string>{"item_2"}));
  // A level-0 filter after a cascade keeps the filtered children.
  auto again = ValueOrDie(march->Sql("SELECT * FROM data_raw WHERE region = 'americas'"));
  EXPECT_EQ(ValueOrDie(again->Read(0)).children->num_rows(), 1u);
}

TEST(Filters, CascadeAfterSqlWithoutInternalColumns) {
  auto ds = OpenOrDie(NestedZip());
  auto view = ValueOrDie(ds->Sql("SELECT * FROM data WHERE id <> 'europe'"));
  auto nyc = Bbox(*view, -74.2, 40.5, -73.8, 40.9, 1);
  EXPECT_EQ(Ids(*nyc), (std::vector<std::string>{"americas"}));
  EXPECT_EQ(ValueOrDie(nyc->Read(0)).children->num_rows(), 2u);
  auto europe_only = ValueOrDie(ds->Sql("SELECT * FROM data WHERE id = 'europe'"));
  EXPECT_EQ(ValueOrDie(Bbox(*europe_only, -74.2, 40.5, -73.8, 40.9, 1)->RowCount()), 0);
}

}  // namespace
}  // namespace taco::readtest
