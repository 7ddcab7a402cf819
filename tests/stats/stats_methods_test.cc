// `taco stats --method pooled|exact|upstream` end to end on datasets written by `taco create
// --ext stac --ext stats` from 30 small GeoTIFFs with different distributions (uniform,
// skewed, bimodal, constant, with NoData; Byte and Float32; different sizes), checked against
// statistics computed here from the same pixel arrays: exact = ground truth, pooled mean/std
// = exact, every exact percentile inside the pooled bounds, upstream's averaged percentiles
// off on the mixture. Also --sql/--bbox/--datetime, several paths, --file under every row,
// class values of categorical statistics, and the errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ext/raster_fixture.h"
#include "support/cli_expect.h"
#include "support/paths.h"

namespace taco::testing {
namespace {

namespace fs = std::filesystem;

constexpr const char* kCollection = R"({"id": "mix", "dataset_version": "1", "description": "d",
  "licenses": ["x"], "providers": [{"name": "p"}], "tasks": ["other"]})";
constexpr int kSamples = 30;
constexpr double kLevels[] = {0.25, 0.5, 0.75, 0.95};
const char* const kPercentileKeys[] = {"p25", "p50", "p75", "p95"};

// Deterministic uniform numbers in [0, 1).
struct Lcg {
  uint64_t state;
  double Next() {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state >> 11) / 9007199254740992.0;
  }
};

// The valid pixels of every sample, per band.
using Pixels = std::vector<std::vector<double>>;  // [band][pixel]

struct Truth {
  double mean, std, min, max;
  double percentiles[4];
};

// Ground truth over the valid pixels: population std; pK = the smallest v with
// #(pixels <= v) >= K% of them.
Truth TruthOf(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  Truth t{};
  double sum = 0;
  for (double x : v) sum += x;
  t.mean = sum / static_cast<double>(v.size());
  double ss = 0;
  for (double x : v) ss += (x - t.mean) * (x - t.mean);
  t.std = std::sqrt(ss / static_cast<double>(v.size()));
  t.min = v.front();
  t.max = v.back();
  for (int p = 0; p < 4; ++p) {
    const double target = kLevels[p] * static_cast<double>(v.size());
    t.percentiles[p] = v[static_cast<size_t>(std::ceil(target)) - 1];
  }
  return t;
}

std::string Id(int i) { return std::string("s") + (i < 10 ? "0" : "") + std::to_string(i) + ".tif"; }

// Writes sample i (id s<ii>.tif) to `path` and returns its valid pixels. Distribution by
// i % 5: constant, uniform 0..100, skewed towards 0, bimodal (10 / 240), uniform with NoData.
// i % 3 == 0: Float32 (values + 0.37, NoData -9999), else Byte (NoData 255). The mixture is
// skewed on purpose: the high mode holds few pixels but many samples.
Pixels WriteSample(const std::string& path, int i, double lon, double lat) {
  Lcg rng{static_cast<uint64_t>(1000 + i)};
  RasterSpec spec;
  spec.cols = 8 + i % 7;
  spec.rows = 6 + i % 5;
  const bool is_float = i % 3 == 0;
  spec.type = is_float ? GDT_Float32 : GDT_Byte;
  spec.geotransform = {lon, 0.01, 0, lat, 0, -0.01};
  const int kind = i % 5;
  const double nodata = is_float ? -9999 : 255;
  if (kind == 4) spec.nodata = nodata;
  const size_t n = static_cast<size_t>(spec.cols * spec.rows);
  spec.bands.assign(2, std::vector<double>(n));
  Pixels valid(2);
  for (size_t k = 0; k < n; ++k) {
    const double u = rng.Next();
    double v = 0;
    switch (kind) {
      case 0: v = 200 + i; break;
      case 1: v = std::floor(u * 101); break;
      case 2: v = std::floor(100 * u * u * u * u); break;
      case 3: v = u < 0.5 ? 10 + std::floor(u * 10) : 240 + std::floor(u * 10); break;
      default: v = std::floor(u * 101); break;
    }
    if (is_float) v = static_cast<float>(v + 0.37);
    const double second = is_float ? static_cast<float>(1000 - 3 * v) : 254 - std::floor(v / 2);
    const bool missing = kind == 4 && k % 4 == 1;
    spec.bands[0][k] = missing ? nodata : v;
    spec.bands[1][k] = missing ? nodata : second;
    if (!missing) {
      valid[0].push_back(v);
      valid[1].push_back(second);
    }
  }
  WriteRaster(path, spec);
  return valid;
}

nlohmann::json Json(const CommandResult& r) {
  EXPECT_EQ(r.exit_code, 0) << r.err;
  if (r.exit_code != 0) return nlohmann::json::object();
  return nlohmann::json::parse(r.out);
}

double At(const nlohmann::json& j, const char* key, size_t band) { return j.at(key).at(band).get<double>(); }
// JSON numbers are the shortest text of a float32: compare them as float32.
float F(double v) { return static_cast<float>(v); }

void ExpectRel(double actual, double expected, double rel, const std::string& what) {
  EXPECT_NEAR(actual, expected, std::max(std::fabs(expected) * rel, 1e-6)) << what;
}

// Exact output (lists, several bands) equals the truth: float32 of the true values.
void ExpectExact(const nlohmann::json& j, const std::vector<Truth>& truth) {
  EXPECT_EQ(j.value("method", ""), "exact");
  EXPECT_EQ(j.at("approximate"), nlohmann::json::array());
  EXPECT_FALSE(j.contains("bounds"));
  for (size_t b = 0; b < truth.size(); ++b) {
    const std::string band = " band " + std::to_string(b);
    ExpectRel(At(j, "mean", b), truth[b].mean, 1e-6, "mean" + band);
    ExpectRel(At(j, "std", b), truth[b].std, 1e-6, "std" + band);
    EXPECT_EQ(F(At(j, "min", b)), F(truth[b].min)) << band;
    EXPECT_EQ(F(At(j, "max", b)), F(truth[b].max)) << band;
    for (int p = 0; p < 4; ++p) {
      EXPECT_EQ(F(At(j, kPercentileKeys[p], b)), F(truth[b].percentiles[p])) << kPercentileKeys[p] << band;
    }
  }
}

// The flat dataset: s00..s29 at level 0, sample i at lon i, lat 10, acquired 2023-01-(i+1).
class StatsMethods : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::make_unique<TempDir>();
    const TempDir& dir = *dir_;
    fs::create_directories(dir / "src");
    pixels_.clear();
    std::string meta = "path,acquired\n";
    for (int i = 0; i < kSamples; ++i) {
      pixels_.push_back(WriteSample(dir / ("src/" + Id(i)), i, i, 10));
      meta += Id(i) + ",2023-01-" + (i < 9 ? "0" : "") + std::to_string(i + 1) + "T12:00:00\n";
    }
    WriteFile(dir / "c.json", kCollection);
    WriteFile(dir / "meta.csv", meta);
    path_ = dir / "mix.tacozip";
    CommandResult r =
        RunTaco("create " + ShellQuote(dir / "src") + " " + ShellQuote(path_) + " --collection " +
                ShellQuote(dir / "c.json") + " --metadata " + ShellQuote(dir / "meta.csv") + " --ext stac --ext stats");
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  static void TearDownTestSuite() { dir_.reset(); }

  // Truth per band over samples [first, last).
  static std::vector<Truth> TruthOver(int first, int last) {
    std::vector<Truth> out;
    for (size_t b = 0; b < 2; ++b) {
      std::vector<double> all;
      for (int i = first; i < last; ++i) all.insert(all.end(), pixels_[i][b].begin(), pixels_[i][b].end());
      out.push_back(TruthOf(all));
    }
    return out;
  }
  static std::string Stats(const std::string& args) { return "stats " + ShellQuote(path_) + " --band 0,1 " + args; }

  static std::unique_ptr<TempDir> dir_;
  static std::string path_;
  static std::vector<Pixels> pixels_;
};
std::unique_ptr<TempDir> StatsMethods::dir_;
std::string StatsMethods::path_;
std::vector<Pixels> StatsMethods::pixels_;

TEST_F(StatsMethods, ExactEqualsTheTruthFromThePixels) {
  const std::vector<Truth> truth = TruthOver(0, kSamples);
  nlohmann::json j = Json(RunTaco(Stats("--method exact --json")));
  ExpectExact(j, truth);
  EXPECT_EQ(j.value("samples", 0), kSamples);
  EXPECT_EQ(Json(RunTaco(Stats("--exact --json"))), j);  // --exact is the shorthand
}

TEST_F(StatsMethods, PooledIsTheDefaultWithExactMeanStdAndLabelledPercentiles) {
  nlohmann::json exact = Json(RunTaco(Stats("--exact --json")));
  nlohmann::json pooled = Json(RunTaco(Stats("--json")));
  ASSERT_TRUE(exact.contains("mean"));
  EXPECT_EQ(pooled.value("method", ""), "pooled");
  EXPECT_EQ(pooled.at("approximate"), nlohmann::json({"p25", "p50", "p75", "p95"}));
  for (size_t b = 0; b < 2; ++b) {
    ExpectRel(At(pooled, "mean", b), At(exact, "mean", b), 1e-5, "mean");
    ExpectRel(At(pooled, "std", b), At(exact, "std", b), 1e-5, "std");
    EXPECT_EQ(At(pooled, "min", b), At(exact, "min", b));
    EXPECT_EQ(At(pooled, "max", b), At(exact, "max", b));
    for (const char* p : kPercentileKeys) {
      const nlohmann::json& bounds = pooled.at("bounds").at(p).at(b);
      const float lo = F(bounds.at(0).get<double>()), hi = F(bounds.at(1).get<double>()), x = F(At(exact, p, b));
      EXPECT_LE(lo, x) << p << " band " << b;
      EXPECT_GE(hi, x) << p << " band " << b;
      EXPECT_LE(lo, F(At(pooled, p, b))) << p;
      EXPECT_GE(hi, F(At(pooled, p, b))) << p;
      EXPECT_LT(hi - lo, At(exact, "max", b) - At(exact, "min", b)) << p << ": bounds say nothing";
    }
  }
  // The table says it too.
  CommandResult text = RunTaco(Stats(""));
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("method: pooled (30 samples); ~ approximate: p25, p50, p75, p95"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("bounds band 1: p25 ["), std::string::npos) << text.out;
  EXPECT_NE(text.out.find(" ~"), std::string::npos) << text.out;
}

TEST_F(StatsMethods, PooledBoundsHoldOnEverySubsetOfOneToThirtySamples) {
  // The bound is a theorem, not a tendency: check it on views of 1, 2, 3, ... samples.
  for (int last : {1, 2, 3, 5, 8, 13, 21, kSamples}) {
    const std::string sql = " --sql \"SELECT * FROM data WHERE id < '" + (last < kSamples ? Id(last) : "t") + "'\"";
    nlohmann::json pooled = Json(RunTaco(Stats("--json" + sql)));
    const std::vector<Truth> truth = TruthOver(0, last);
    ASSERT_EQ(pooled.value("samples", 0), last);
    for (size_t b = 0; b < 2; ++b) {
      for (int p = 0; p < 4; ++p) {
        const nlohmann::json& bounds = pooled.at("bounds").at(kPercentileKeys[p]).at(b);
        const float x = F(truth[b].percentiles[p]);
        EXPECT_LE(F(bounds.at(0).get<double>()), x) << kPercentileKeys[p] << " over " << last;
        EXPECT_GE(F(bounds.at(1).get<double>()), x) << kPercentileKeys[p] << " over " << last;
      }
    }
  }
}

TEST_F(StatsMethods, UpstreamAveragesPercentilesAndMissesTheMixture) {
  nlohmann::json exact = Json(RunTaco(Stats("--exact --json")));
  nlohmann::json pooled = Json(RunTaco(Stats("--json")));
  nlohmann::json upstream = Json(RunTaco(Stats("--method upstream --json")));
  EXPECT_EQ(upstream.value("method", ""), "upstream");
  EXPECT_FALSE(upstream.contains("bounds"));
  const nlohmann::json& approx = upstream.at("approximate");
  EXPECT_NE(std::find(approx.begin(), approx.end(), "p95"), approx.end());
  // Band 0, p95: the average of the per-sample p95s is far below the pixels' p95, outside
  // the pooled bounds; the pooled estimate is close.
  const double truth = At(exact, "p95", 0), averaged = At(upstream, "p95", 0), estimate = At(pooled, "p95", 0);
  EXPECT_GT(std::fabs(averaged - truth), 20.0) << averaged << " vs " << truth;
  EXPECT_LT(averaged, pooled.at("bounds").at("p95").at(0).at(0).get<double>());
  EXPECT_LT(std::fabs(estimate - truth), std::fabs(averaged - truth) / 4) << estimate << " vs " << truth;
  // Means agree only roughly: upstream weighs by H·W, not by the valid pixels.
  ExpectRel(At(upstream, "mean", 0), At(exact, "mean", 0), 0.05, "upstream mean");
}

TEST_F(StatsMethods, SqlBboxAndDatetimeSelectTheRows) {
  const std::vector<Truth> first_ten = TruthOver(0, 10);
  ExpectExact(Json(RunTaco(Stats("--exact --json --sql \"SELECT * FROM data WHERE id < 's10'\""))), first_ten);
  ExpectExact(Json(RunTaco(Stats("--exact --json --bbox -0.5,9,9.5,11"))), first_ten);
  ExpectExact(Json(RunTaco(Stats("--exact --json --datetime 2023-01-01/2023-01-10 --time-col acquired"))), first_ten);
  // Filters compose, and pooled follows the same rows.
  nlohmann::json both =
      Json(RunTaco(Stats("--json --bbox -0.5,9,9.5,11 --sql \"SELECT * FROM data WHERE id >= 's05'\"")));
  EXPECT_EQ(both.value("samples", 0), 5);
  ExpectRel(At(both, "mean", 1), TruthOver(5, 10)[1].mean, 1e-5, "mean of s05..s09");
  ExpectOneLineError(RunTaco(Stats("--bbox 1,2,3")), "--bbox");
}

TEST_F(StatsMethods, SeveralPathsAreOneDataset) {
  const std::string copy = *dir_ / "copy.tacozip";
  fs::copy_file(path_, copy, fs::copy_options::overwrite_existing);
  nlohmann::json j =
      Json(RunTaco("stats " + ShellQuote(path_) + " " + ShellQuote(copy) + " --band 0,1 --exact --json"));
  EXPECT_EQ(j.value("samples", 0), 2 * kSamples);
  ExpectExact(j, TruthOver(0, kSamples));  // every pixel twice: the same statistics
  nlohmann::json pooled = Json(RunTaco("stats " + ShellQuote(path_) + " " + ShellQuote(copy) + " --band 0 --json"));
  EXPECT_EQ(pooled.value("samples", 0), 2 * kSamples);
}

TEST_F(StatsMethods, Errors) {
  ExpectOneLineError(RunTaco(Stats("--method sometimes")), "--method: statistics method 'sometimes' is not one of");
  ExpectOneLineError(RunTaco(Stats("--exact --method pooled")), "--exact and --method pooled disagree");
  ExpectOneLineError(RunTaco(Stats("--file s01.tif")), "needs a level > 0");
  ExpectOneLineError(RunTaco("stats " + ShellQuote(path_) + " --band 2 --exact"), "Band 2 out of range");
}

// tile_0..tile_5 (level 0 FOLDERs) each with image.tif and mask.tif (level 1).
struct NestedDataset {
  TempDir dir;
  std::string path = dir / "nested.tacozip";
  Pixels image, mask;  // valid pixels per band over every tile

  explicit NestedDataset(int seed) {
    for (int t = 0; t < 6; ++t) {
      const std::string tile = dir / ("src/tile_" + std::to_string(t));
      fs::create_directories(tile);
      Pixels a = WriteSample(tile + "/image.tif", seed + t, t, 0);
      Pixels b = WriteSample(tile + "/mask.tif", seed + 7 + t, t, 0);
      for (size_t band = 0; band < 2; ++band) {
        image.resize(2);
        mask.resize(2);
        image[band].insert(image[band].end(), a[band].begin(), a[band].end());
        mask[band].insert(mask[band].end(), b[band].begin(), b[band].end());
      }
    }
    WriteFile(dir / "c.json", kCollection);
    CommandResult r = RunTaco("create " + ShellQuote(dir / "src") + " " + ShellQuote(path) + " --collection " +
                              ShellQuote(dir / "c.json") + " --ext stac --ext stats");
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
};

TEST(StatsPerFile, OneChildFileUnderEveryRow) {
  NestedDataset ds(1);
  const std::string p = ShellQuote(ds.path);
  std::vector<Truth> truth = {TruthOf(ds.image[0]), TruthOf(ds.image[1])};
  nlohmann::json exact = Json(RunTaco("stats " + p + " --band 0,1 --level 1 --file image.tif --exact --json"));
  EXPECT_EQ(exact.value("samples", 0), 6);
  ExpectExact(exact, truth);
  nlohmann::json pooled = Json(RunTaco("stats " + p + " --band 0,1 --level 1 --file image.tif --json"));
  EXPECT_EQ(pooled.value("samples", 0), 6);
  ExpectRel(At(pooled, "mean", 0), truth[0].mean, 1e-5, "pooled mean of image.tif");
  ExpectRel(At(pooled, "std", 1), truth[1].std, 1e-5, "pooled std of image.tif");
  // Narrowed by the view (--sql) and by --id.
  nlohmann::json two = Json(RunTaco("stats " + p +
                                    " --band 0 --level 1 --file mask.tif --json --sql \"SELECT * FROM data WHERE id "
                                    "IN ('tile_1', 'tile_4')\""));
  EXPECT_EQ(two.value("samples", 0), 2);
  nlohmann::json one = Json(RunTaco("stats " + p + " --band 0 --level 1 --file mask.tif --id tile_4 --json"));
  EXPECT_EQ(one.value("samples", 0), 1);
  nlohmann::json children = Json(RunTaco("stats " + p + " --band 0 --level 1 --id tile_4 --json"));
  EXPECT_EQ(children.value("samples", 0), 2);  // --id alone: both children
  ExpectOneLineError(RunTaco("stats " + p + " --band 0 --level 1"), "id is required for level > 0");
  ExpectOneLineError(RunTaco("stats " + p + " --band 0 --level 1 --file nothing.tif"), "no rows with statistics");
}

TEST(StatsPerFile, ConcatKeepsEachSourcesChildren) {
  NestedDataset a(1), b(40);  // ids are the same in both; the pixels differ
  std::vector<Truth> truth;
  for (size_t band = 0; band < 2; ++band) {
    std::vector<double> all = a.image[band];
    all.insert(all.end(), b.image[band].begin(), b.image[band].end());
    truth.push_back(TruthOf(all));
  }
  nlohmann::json j = Json(RunTaco("stats " + ShellQuote(a.path) + " " + ShellQuote(b.path) +
                                  " --band 0,1 --level 1 --file image.tif --exact --json"));
  EXPECT_EQ(j.value("samples", 0), 12);
  ExpectExact(j, truth);
}

TEST(StatsCategorical, ClassValuesAreNamedWhenKnown) {
  TempDir dir;
  fs::create_directories(dir / "src");
  RasterSpec spec;
  spec.type = GDT_Byte;
  spec.bands = {{1, 1, 1, 3, 3, 3, 3, 3, 3, 3, 3, 3, 0, 0, 0, 0}};
  WriteRaster(dir / "src/a.tif", spec);
  spec.bands = {{3, 3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}};
  WriteRaster(dir / "src/b.tif", spec);
  WriteFile(dir / "c.json", kCollection);
  const std::string known = dir / "known.tacozip", unknown = dir / "unknown.tacozip";
  ASSERT_EQ(RunTaco("create " + ShellQuote(dir / "src") + " " + ShellQuote(known) + " --collection " +
                    ShellQuote(dir / "c.json") + " --ext stac --ext stats-categorical --classes 0,1,2,3")
                .exit_code,
            0);
  nlohmann::json j = Json(RunTaco("stats " + ShellQuote(known) + " --band 0 --json"));
  ASSERT_TRUE(j.contains("categorical"));  // kept as before
  EXPECT_EQ(j.at("class_values"), nlohmann::json({0.0, 1.0, 2.0, 3.0}));
  ASSERT_EQ(j.at("classes").size(), 4u);
  EXPECT_EQ(j["classes"][1]["value"], 1.0);
  EXPECT_NEAR(j["classes"][1]["probability"].get<double>(), 15.0 / 32, 1e-6);
  EXPECT_NEAR(j["classes"][3]["probability"].get<double>(), 13.0 / 32, 1e-6);
  EXPECT_EQ(j["classes"][2]["probability"], 0.0);
  nlohmann::json exact = Json(RunTaco("stats " + ShellQuote(known) + " --band 0 --exact --json"));
  EXPECT_EQ(exact.at("class_values"), j.at("class_values"));
  for (size_t k = 0; k < 4; ++k) {
    EXPECT_NEAR(exact["categorical"][k].get<double>(), j["categorical"][k].get<double>(), 1e-6) << k;
  }
  CommandResult text = RunTaco("stats " + ShellQuote(known) + " --band 0");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("band  class  value     probability\n0     0      0         0.125\n"), std::string::npos)
      << text.out;
  // Without --classes the writer found the values itself (per file): unknown to the reader.
  fs::remove(dir / "src/b.tif");
  ASSERT_EQ(RunTaco("create " + ShellQuote(dir / "src") + " " + ShellQuote(unknown) + " --collection " +
                    ShellQuote(dir / "c.json") + " --ext stats-categorical")
                .exit_code,
            0);
  nlohmann::json u = Json(RunTaco("stats " + ShellQuote(unknown) + " --band 0 --json"));
  EXPECT_TRUE(u.at("class_values").is_null());
  EXPECT_TRUE(u["classes"][0]["value"].is_null());
  CommandResult utext = RunTaco("stats " + ShellQuote(unknown) + " --band 0");
  EXPECT_NE(utext.out.find("class values unknown"), std::string::npos) << utext.out;
  EXPECT_NE(utext.out.find("0     0      ?"), std::string::npos) << utext.out;
}

TEST(StatsCategorical, FilesWithDifferentClassListsPointAtClasses) {
  TempDir dir;
  fs::create_directories(dir / "src");
  RasterSpec spec;
  spec.type = GDT_Byte;
  spec.bands = {{1, 1, 1, 3, 3, 3, 3, 3, 3, 3, 3, 3, 0, 0, 0, 0}};  // classes 0, 1, 3
  WriteRaster(dir / "src/a.tif", spec);
  spec.bands = {{3, 3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}};  // classes 1, 3
  WriteRaster(dir / "src/b.tif", spec);
  WriteFile(dir / "c.json", kCollection);
  const std::string out = dir / "per_file.tacozip";
  ASSERT_EQ(RunTaco("create " + ShellQuote(dir / "src") + " " + ShellQuote(out) + " --collection " +
                    ShellQuote(dir / "c.json") + " --ext stats-categorical")
                .exit_code,
            0);
  ExpectOneLineError(RunTaco("stats " + ShellQuote(out) + " --band 0"), "taco create --classes");
}

}  // namespace
}  // namespace taco::testing
