// Band statistics (FORMAT §6.9, §9.5) on the upstream fixtures through the API.
#include "taco/stats.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "support/paths.h"
#include "taco/dataset.h"

namespace taco::testing {
namespace {

std::unique_ptr<Dataset> Load(const std::string& relative) {
  auto ds = Dataset::Open(UpstreamFixtures() + relative);
  EXPECT_TRUE(ds.ok()) << ds.status().ToString();
  return ds.ok() ? std::move(*ds) : nullptr;
}

float One(Dataset& ds, StatsMeasure m, int band, int level = 0, std::optional<std::string> id = std::nullopt) {
  StatsQuery q{{band}, level, std::move(id), std::nullopt, StatsMethod::kUpstream};
  auto r = ComputeStats(ds, m, q);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() && r->size() == 1 ? (*r)[0] : std::nanf("");
}

void ExpectRel(float actual, double expected) {
  EXPECT_NEAR(actual, expected, std::max(1e-4 * std::fabs(expected), 1e-5)) << "expected " << expected;
}

std::string ErrorOf(Dataset& ds, StatsMeasure m, StatsQuery q) {
  auto r = ComputeStats(ds, m, q);
  EXPECT_FALSE(r.ok());
  return r.ok() ? "" : r.status().message();
}

TEST(Stats, FlatZipContinuousValues) {
  auto ds = Load("/zip/flat/flat.tacozip");
  ASSERT_NE(ds, nullptr);
  ExpectRel(One(*ds, StatsMeasure::kMean, 0), 138.96);
  ExpectRel(One(*ds, StatsMeasure::kStd, 0), 47.3137);
  ExpectRel(One(*ds, StatsMeasure::kMin, 0), 0.0);
  ExpectRel(One(*ds, StatsMeasure::kMax, 0), 255.0);
  ExpectRel(One(*ds, StatsMeasure::kP25, 0), 92.4);
  ExpectRel(One(*ds, StatsMeasure::kP50, 0), 135.6);
  ExpectRel(One(*ds, StatsMeasure::kP75, 0), 181.0);
  ExpectRel(One(*ds, StatsMeasure::kP95, 0), 224.0);
  ExpectRel(One(*ds, StatsMeasure::kMean, 1), 122.52);
  ExpectRel(One(*ds, StatsMeasure::kStd, 1), 41.1139);
  ExpectRel(One(*ds, StatsMeasure::kMean, 2), 103.70);
  ExpectRel(One(*ds, StatsMeasure::kStd, 2), 45.4435);
}

TEST(Stats, FlatFolderMatchesZipAndOrdering) {
  auto zip = Load("/zip/flat/flat.tacozip");
  auto folder = Load("/folder/flat");
  ASSERT_NE(zip, nullptr);
  ASSERT_NE(folder, nullptr);
  for (int band = 0; band < 3; ++band) {
    for (StatsMeasure m : kAllStatsMeasures) {
      EXPECT_EQ(One(*zip, m, band), One(*folder, m, band)) << StatsMeasureName(m) << " band " << band;
    }
    EXPECT_LE(One(*zip, StatsMeasure::kMin, band), One(*zip, StatsMeasure::kMax, band));
    EXPECT_LE(One(*zip, StatsMeasure::kP25, band), One(*zip, StatsMeasure::kP50, band));
    EXPECT_LE(One(*zip, StatsMeasure::kP50, band), One(*zip, StatsMeasure::kP75, band));
    EXPECT_LE(One(*zip, StatsMeasure::kP75, band), One(*zip, StatsMeasure::kP95, band));
    EXPECT_GE(One(*zip, StatsMeasure::kMean, band), 0.0f);
  }
}

TEST(Stats, SeveralBandsGiveOneValueEach) {
  auto ds = Load("/zip/flat/flat.tacozip");
  ASSERT_NE(ds, nullptr);
  auto r = ComputeStats(*ds, StatsMeasure::kMean,
                        StatsQuery{{0, 1, 2}, 0, std::nullopt, std::nullopt, StatsMethod::kUpstream});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 3u);
  for (int b = 0; b < 3; ++b) EXPECT_EQ((*r)[static_cast<size_t>(b)], One(*ds, StatsMeasure::kMean, b));
  auto reordered =
      ComputeStats(*ds, StatsMeasure::kMean, StatsQuery{{2, 0}, 0, std::nullopt, std::nullopt, StatsMethod::kUpstream});
  ASSERT_TRUE(reordered.ok());
  EXPECT_EQ((*reordered)[0], (*r)[2]);
  EXPECT_EQ((*reordered)[1], (*r)[0]);
}

TEST(Stats, SummaryAgreesWithSingleMeasures) {
  auto ds = Load("/zip/flat/flat.tacozip");
  ASSERT_NE(ds, nullptr);
  auto s = SummarizeStats(*ds, StatsQuery{{0, 2}, 0, std::nullopt, std::nullopt, StatsMethod::kUpstream});
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_FALSE(s->categorical);
  ASSERT_EQ(s->measures.size(), 8u);
  size_t i = 0;
  for (StatsMeasure m : kAllStatsMeasures) {
    ASSERT_EQ(s->measures[i].size(), 2u);
    EXPECT_EQ(s->measures[i][0], One(*ds, m, 0));
    EXPECT_EQ(s->measures[i][1], One(*ds, m, 2));
    ++i;
  }
}

TEST(Stats, Errors) {
  auto flat = Load("/zip/flat/flat.tacozip");
  auto nested = Load("/folder/nested");
  auto nested_zip = Load("/zip/nested/nested.tacozip");
  ASSERT_NE(flat, nullptr);
  ASSERT_NE(nested, nullptr);
  ASSERT_NE(nested_zip, nullptr);
  EXPECT_NE(ErrorOf(*flat, StatsMeasure::kMean, {{99}, 0, std::nullopt, std::nullopt, StatsMethod::kUpstream})
                .find("out of range"),
            std::string::npos);
  EXPECT_NE(ErrorOf(*flat, StatsMeasure::kMean, {{0, 1, 99}, 0, std::nullopt, std::nullopt, StatsMethod::kUpstream})
                .find("Band 99 out of range"),
            std::string::npos);
  EXPECT_NE(ErrorOf(*flat, StatsMeasure::kMean, {{-1}, 0, std::nullopt, std::nullopt, StatsMethod::kUpstream})
                .find("out of range"),
            std::string::npos);
  EXPECT_NE(ErrorOf(*flat, StatsMeasure::kMean, {{0}, 99, std::nullopt, std::nullopt, StatsMethod::kUpstream})
                .find("Level 99 does not exist"),
            std::string::npos);
  EXPECT_NE(ErrorOf(*nested_zip, StatsMeasure::kMean, {{0}, 0, std::nullopt, std::nullopt, StatsMethod::kUpstream})
                .find("does not contain statistics"),
            std::string::npos);
  EXPECT_NE(ErrorOf(*nested, StatsMeasure::kMean, {{0}, 1, std::nullopt, std::nullopt, StatsMethod::kUpstream})
                .find("id is required for level > 0"),
            std::string::npos);
  EXPECT_NE(ErrorOf(*nested, StatsMeasure::kMean, {{0}, 1, "nowhere", std::nullopt, StatsMethod::kUpstream})
                .find("no sample with id 'nowhere'"),
            std::string::npos);
  // Every message names the dataset.
  EXPECT_EQ(ErrorOf(*flat, StatsMeasure::kMean, {{99}, 0, std::nullopt, std::nullopt, StatsMethod::kUpstream})
                .rfind(flat->path(), 0),
            0u);
}

TEST(Stats, NestedLevelOneById) {
  for (const char* path : {"/folder/nested", "/zip/nested/nested.tacozip"}) {
    SCOPED_TRACE(path);
    auto ds = Load(path);
    ASSERT_NE(ds, nullptr);
    ExpectRel(One(*ds, StatsMeasure::kMean, 0, 1, "americas"), (98.5 + 0.25 + 145.8) / 3);
    auto europe = ComputeCategoricalStats(*ds, StatsQuery{{0}, 1, "europe", std::nullopt, StatsMethod::kUpstream});
    ASSERT_TRUE(europe.ok()) << europe.status().ToString();
    ASSERT_EQ(europe->size(), 1u);
    ASSERT_EQ((*europe)[0].size(), 3u);
    ExpectRel((*europe)[0][0], 0.4);
    ExpectRel((*europe)[0][1], 0.3333333);
    ExpectRel((*europe)[0][2], 0.2666667);
    auto summary = SummarizeStats(*ds, StatsQuery{{0, 1}, 1, "europe", std::nullopt, StatsMethod::kUpstream});
    ASSERT_TRUE(summary.ok());
    EXPECT_TRUE(summary->categorical);
    EXPECT_EQ(summary->categorical_probabilities[0], (*europe)[0]);
  }
}

TEST(Stats, RaggedAndKindMismatchAreErrors) {
  auto ds = Load("/folder/nested");
  ASSERT_NE(ds, nullptr);
  EXPECT_NE(ErrorOf(*ds, StatsMeasure::kMean, {{0}, 1, "asia", std::nullopt, StatsMethod::kUpstream}).find("ragged"),
            std::string::npos);
  auto asia = ComputeCategoricalStats(*ds, StatsQuery{{0}, 1, "asia", std::nullopt, StatsMethod::kUpstream});
  ASSERT_FALSE(asia.ok());
  EXPECT_NE(asia.status().message().find("ragged"), std::string::npos);
  EXPECT_NE(
      ErrorOf(*ds, StatsMeasure::kMean, {{0}, 1, "europe", std::nullopt, StatsMethod::kUpstream}).find("categorical"),
      std::string::npos);
  auto flat = Load("/zip/flat/flat.tacozip");
  ASSERT_NE(flat, nullptr);
  auto categorical =
      ComputeCategoricalStats(*flat, StatsQuery{{0}, 0, std::nullopt, std::nullopt, StatsMethod::kUpstream});
  ASSERT_FALSE(categorical.ok());
  EXPECT_NE(categorical.status().message().find("continuous"), std::string::npos);
}

// Our documented difference from upstream: statistics follow the current view.
TEST(Stats, FollowTheCurrentView) {
  auto ds = Load("/zip/flat/flat.tacozip");
  ASSERT_NE(ds, nullptr);
  auto valencia = ds->FilterDatetime("2023-01-01/2023-01-15");
  ASSERT_TRUE(valencia.ok()) << valencia.status().ToString();
  auto rows = (*valencia)->DataRaw();
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->num_rows(), 1u);
  const ValueList& bands = rows->column("geotiff:stats").values[0].get<ValueList>();
  const ValueList& band0 = bands.at(0).get<ValueList>();
  auto as_double = [](const Value& v) { return v.is<float>() ? double{v.get<float>()} : v.get<double>(); };
  const float filtered_mean = One(**valencia, StatsMeasure::kMean, 0);
  EXPECT_FLOAT_EQ(filtered_mean, static_cast<float>(as_double(band0.at(2))));
  EXPECT_FLOAT_EQ(One(**valencia, StatsMeasure::kMin, 0), static_cast<float>(as_double(band0.at(0))));
  EXPECT_NE(filtered_mean, One(*ds, StatsMeasure::kMean, 0));

  auto two = ds->Sql("SELECT * FROM data_raw WHERE cloud_cover < 20");
  ASSERT_TRUE(two.ok()) << two.status().ToString();
  EXPECT_NE(One(**two, StatsMeasure::kMean, 0), One(*ds, StatsMeasure::kMean, 0));
  auto projected = ds->Sql("SELECT id FROM data");
  ASSERT_TRUE(projected.ok());
  EXPECT_NE(ErrorOf(**projected, StatsMeasure::kMean, {{0}, 0, std::nullopt, std::nullopt, StatsMethod::kUpstream})
                .find("does not contain statistics"),
            std::string::npos);
  auto none = ds->Sql("SELECT * FROM data_raw WHERE cloud_cover > 1000");
  ASSERT_TRUE(none.ok());
  EXPECT_NE(ErrorOf(**none, StatsMeasure::kMean, {{0}, 0, std::nullopt, std::nullopt, StatsMethod::kUpstream})
                .find("no rows"),
            std::string::npos);
}

TEST(Stats, LevelOneParentsComeFromTheCurrentView) {
  auto ds = Load("/folder/nested");
  ASSERT_NE(ds, nullptr);
  auto europe_only = ds->Sql("SELECT * FROM data_raw WHERE id = 'europe'");
  ASSERT_TRUE(europe_only.ok());
  auto r = ComputeStats(**europe_only, StatsMeasure::kMean,
                        StatsQuery{{0}, 1, "americas", std::nullopt, StatsMethod::kUpstream});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("no sample with id 'americas'"), std::string::npos);
  auto europe =
      ComputeCategoricalStats(**europe_only, StatsQuery{{0}, 1, "europe", std::nullopt, StatsMethod::kUpstream});
  EXPECT_TRUE(europe.ok()) << europe.status().ToString();
}

}  // namespace
}  // namespace taco::testing
