// `taco edit` (rewrite, -o, --in-place with SIGKILL at seeded random points) and
// `taco export-metadata` read back by DuckDB (and GDAL's Parquet driver when present).
#include <gtest/gtest.h>

#include <gdal_priv.h>
#include <ogrsf_frmts.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <random>

#include <nlohmann/json.hpp>

#include "legacy/legacy_files.h"
#include "model/wkb.h"
#include "support/paths.h"
#include "table/engine.h"
#include "taco/dataset.h"
#include "taco/edit.h"
#include "taco/legacy.h"
#include "taco/metadata_export.h"

namespace taco::testing {
namespace {

std::string Q(const std::string& s) { return ShellQuote(s); }

// demo.taco as a TACO ZIP in `dir`.
std::string MakeZip(const TempDir& dir, const std::string& name = "demo.tacozip") {
  auto written = ConvertLegacy(Files().taco, dir / name);
  EXPECT_TRUE(written.ok()) << written.status().ToString();
  return dir / name;
}

std::string Description(const std::string& path) {
  auto ds = Dataset::Open(path);
  EXPECT_TRUE(ds.ok()) << ds.status().ToString();
  if (!ds.ok()) return "<unopenable: " + ds.status().ToString() + ">";
  return (*ds)->collection().value("description", std::string("?"));
}

std::string SampleBytes(const std::string& path, const std::vector<SampleKey>& keys) {
  auto ds = Dataset::Open(path);
  if (!ds.ok()) return "";
  auto node = (*ds)->ReadPath(keys);
  if (!node.ok()) return "";
  auto bytes = (*ds)->ReadBytes(*node);
  return bytes.ok() ? *bytes : "";
}

TEST(LegacyEdit, CollectionAndMetadataOfZipFolderAndLegacy) {
  TempDir dir;
  const std::string zip = MakeZip(dir);
  CommandResult r = RunTaco("edit " + Q(zip) + " --set description=\"new words\" --set keywords='[\"a\",\"b\"]'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto ds = Dataset::Open(zip);
  ASSERT_TRUE(ds.ok());
  EXPECT_EQ((*ds)->collection()["description"], "new words");
  EXPECT_EQ((*ds)->collection()["keywords"], nlohmann::ordered_json::parse(R"(["a","b"])"));
  EXPECT_EQ(SampleBytes(zip, {std::string("s3"), std::string("sub"), std::string("a")}), Files().sub_a[2]);

  // Level-1 metadata keyed by path, written to a new FOLDER dataset... and a TACO v1 file.
  WriteFile(dir / "m.csv", "path,quality,bands\ns1/image,0.5,3\ns2/notes,0.25,\n");
  r = RunTaco("convert " + Q(zip) + " " + Q(dir / "folder"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunTaco("edit " + Q(dir / "folder") + " --metadata " + Q(dir / "m.csv") + " --level 1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunTaco("sql " + Q(dir / "folder") +
              " 'SELECT id, quality, bands FROM level1 WHERE quality IS NOT NULL ORDER BY 2' --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "id,quality,bands\nnotes,0.25,\nimage,0.5,3\n");

  std::filesystem::copy_file(Files().taco, dir / "copy.taco");
  r = RunTaco("edit " + Q(dir / "copy.taco") + " --set title=Renamed --metadata " + Q(dir / "m.csv") + " --level 1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string b = ReadFile(dir / "copy.taco");
  EXPECT_EQ(CheckLegacyStructure(b), std::vector<std::string>{});
  EXPECT_NE(b.substr(U64At(b, 26)).find("\"title\":\"Renamed\""), std::string::npos);
  EXPECT_EQ(SampleBytes(dir / "copy.taco", {std::string("s1"), std::string("image")}), Files().image[0]);

  // Bad edits: nothing changes.
  WriteFile(dir / "bad.csv", "id,x\nnope,1\n");
  r = RunTaco("edit " + Q(zip) + " --metadata " + Q(dir / "bad.csv"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no sample with id 'nope'"), std::string::npos) << r.err;
  r = RunTaco("edit " + Q(zip) + " --unset id");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(Description(zip), "new words");
}

// Every regular file under `root`: relative path -> (inode, mtime in ns).
std::map<std::string, std::pair<ino_t, int64_t>> FileStamps(const std::string& root) {
  std::map<std::string, std::pair<ino_t, int64_t>> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
    if (!e.is_regular_file()) continue;
    struct stat st;
    EXPECT_EQ(::stat(e.path().c_str(), &st), 0);
    out[std::filesystem::relative(e.path(), root).string()] = {
        st.st_ino, int64_t{st.st_mtim.tv_sec} * 1'000'000'000 + st.st_mtim.tv_nsec};
  }
  return out;
}

TEST(LegacyEdit, FolderEditRewritesOnlyChangedFiles) {
  TempDir dir;
  const std::string zip = MakeZip(dir);
  const std::string folder = dir / "folder";
  CommandResult r = RunTaco("convert " + Q(zip) + " " + Q(folder));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto before = FileStamps(folder);
  WriteFile(dir / "m.csv", "path,quality\ns1/image,0.5\n");
  r = RunTaco("edit " + Q(folder) + " --metadata " + Q(dir / "m.csv") + " --level 1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto after = FileStamps(folder);
  std::vector<std::string> names_before, names_after;
  for (const auto& [k, v] : before) names_before.push_back(k);
  for (const auto& [k, v] : after) names_after.push_back(k);
  EXPECT_EQ(names_after, names_before);
  size_t kept = 0;
  for (const auto& [rel, stamp] : after) {
    const bool same = before.count(rel) && before.at(rel) == stamp;
    kept += same;
    const bool sample_bytes = rel.rfind("DATA/", 0) == 0 && rel.find("__meta__") == std::string::npos;
    if (sample_bytes) {
      EXPECT_TRUE(same) << rel << " was rewritten";
    }
  }
  EXPECT_GT(kept, 0u);
  EXPECT_NE(after.at("METADATA/level1.parquet"), before.at("METADATA/level1.parquet"));
  EXPECT_EQ(after.at("METADATA/level0.parquet"), before.at("METADATA/level0.parquet"));
  r = RunTaco("sql " + Q(folder) + " 'SELECT id, quality FROM level1 WHERE quality IS NOT NULL' --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "id,quality\nimage,0.5\n");
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
    EXPECT_EQ(e.path().filename().string().find(".edit-"), std::string::npos) << e.path();
  }
}

TEST(LegacyEdit, InPlaceZip) {
  TempDir dir;
  const std::string zip = MakeZip(dir);
  const uint64_t size_before = std::filesystem::file_size(zip);
  CommandResult r = RunTaco("edit " + Q(zip) + " --in-place --set description=appended");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Description(zip), "appended");
  EXPECT_GT(std::filesystem::file_size(zip), size_before);
  EXPECT_EQ(SampleBytes(zip, {std::string("s2"), std::string("image")}), Files().image[1]);
  r = RunTaco("validate " + Q(zip));
  EXPECT_EQ(r.exit_code, 0) << r.out;
  r = RunCommand("unzip -tq " + Q(zip));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  WriteFile(dir / "m.csv", "id,score\ns1,1\ns2,2\ns3,3\n");
  r = RunTaco("edit " + Q(zip) + " --in-place --metadata " + Q(dir / "m.csv"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunTaco("sql " + Q(zip) + " 'SELECT sum(score) FROM data' --format csv");
  EXPECT_EQ(r.out, "sum(score)\n6\n");
  r = RunTaco("edit " + Q(Files().taco) + " --in-place --set title=x");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--in-place works on local TACO ZIP files only"), std::string::npos) << r.err;
}

// Kills a child editing in place at the `kill_at`-th step it reaches; returns whether it died.
bool EditAndKill(const std::string& zip, int kill_at, const std::string& description) {
  const pid_t pid = fork();
  if (pid == 0) {
    int seen = 0;
    EditOptions options;
    options.in_place = true;
    options.set = {{"description", "\"" + description + "\""}};
    options.on_step = [&](std::string_view) {
      if (seen++ == kill_at) ::kill(::getpid(), SIGKILL);
    };
    auto r = Edit(zip, options);
    _exit(r.ok() ? 0 : 3);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

TEST(LegacyEdit, InPlaceSurvivesSigkillAtRandomPoints) {
  TempDir dir;
  // The steps an in-place edit goes through (one per appended member, the central
  // directory, the sync, the header write).
  std::vector<std::string> steps;
  {
    const std::string probe = MakeZip(dir, "probe.tacozip");
    EditOptions options;
    options.in_place = true;
    options.set = {{"description", "\"probe\""}};
    options.on_step = [&](std::string_view s) { steps.emplace_back(s); };
    ASSERT_TRUE(Edit(probe, options).ok());
  }
  ASSERT_GT(steps.size(), 8u);
  const int header = static_cast<int>(std::find(steps.begin(), steps.end(), "header") - steps.begin());
  const int done = static_cast<int>(std::find(steps.begin(), steps.end(), "done") - steps.begin());
  ASSERT_LT(header, done);

  const std::string zip = MakeZip(dir);
  std::mt19937 rng(20240917);  // seeded: the same points on every run
  std::string current = Description(zip);
  int killed = 0;
  for (int round = 0; round < 10; ++round) {
    const int at = static_cast<int>(rng() % (steps.size() + 1));  // steps.size(): not killed
    const std::string next = "edit " + std::to_string(round);
    const bool died = EditAndKill(zip, at, next);
    killed += died;
    const std::string now = Description(zip);
    EXPECT_TRUE(now == current || now == next) << "round " << round << " killed at " << at << ": " << now;
    if (!died || at > header) {
      EXPECT_EQ(now, next) << "round " << round << " killed at " << at;
    } else {
      EXPECT_EQ(now, current) << "round " << round << " killed at " << at;
    }
    EXPECT_EQ(SampleBytes(zip, {std::string("s1"), std::string("sub"), std::string("b")}), Files().sub_b[0]);
    current = now;
  }
  EXPECT_GT(killed, 5);
  // Killed just before and just after the commit point (the header write).
  for (int at : {header, done}) {
    TempDir d;
    const std::string z = MakeZip(d);
    const std::string before = Description(z);
    EXPECT_TRUE(EditAndKill(z, at, "x"));
    EXPECT_EQ(Description(z), at == header ? before : "x") << at;
  }
}

TEST(LegacyExport, GeoParquetReadBackByDuckDb) {
  TempDir dir;
  const std::string out = dir / "meta.parquet";
  CommandResult r = RunTaco("export-metadata " + Q(Files().taco) + " " + Q(out) + " --geoparquet");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, out + ": 3 rows\n");
  auto engine = table::Engine::Open();
  ASSERT_TRUE(engine.ok());
  auto rows = (*engine)->Query("SELECT id, geometry FROM read_parquet(" + table::QuoteString(out) + ") ORDER BY id");
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ASSERT_EQ(rows->num_rows(), 3u);
  const double expected[3][2] = {{-3.70379, 40.416775}, {-3.5, 40.416775}, {2.1734, 41.3851}};
  for (size_t i = 0; i < 3; ++i) {
    auto p = model::ParseWkbPoint(rows->columns[1].values[i].get<Binary>().bytes);
    ASSERT_TRUE(p.ok());
    EXPECT_DOUBLE_EQ(p->x, expected[i][0]);
    EXPECT_DOUBLE_EQ(p->y, expected[i][1]);
  }
  auto kv = (*engine)->Query("SELECT decode(value) FROM parquet_kv_metadata(" + table::QuoteString(out) +
                             ") WHERE key = encode('geo')");
  ASSERT_TRUE(kv.ok()) << kv.status().ToString();
  ASSERT_EQ(kv->num_rows(), 1u);
  auto geo = nlohmann::json::parse(kv->columns[0].values[0].get<std::string>());
  EXPECT_EQ(geo["version"], "1.1.0");
  EXPECT_EQ(geo["primary_column"], "geometry");
  EXPECT_EQ(geo["columns"]["geometry"]["encoding"], "WKB");
  EXPECT_EQ(geo["columns"]["geometry"]["geometry_types"], nlohmann::json::array({"Point"}));
  EXPECT_TRUE(geo["columns"]["geometry"].contains("crs"));
  EXPECT_DOUBLE_EQ(geo["columns"]["geometry"]["bbox"][0].get<double>(), -3.70379);
  EXPECT_DOUBLE_EQ(geo["columns"]["geometry"]["bbox"][3].get<double>(), 41.3851);

  // GDAL's Parquet driver, when this GDAL has it (Debian 12's GDAL 3.6 does not).
  GDALAllRegister();
  if (GDALGetDriverByName("Parquet") != nullptr) {
    GDALDataset* ds = static_cast<GDALDataset*>(GDALOpenEx(out.c_str(), GDAL_OF_VECTOR, nullptr, nullptr, nullptr));
    ASSERT_NE(ds, nullptr);
    OGRLayer* layer = ds->GetLayer(0);
    EXPECT_EQ(layer->GetFeatureCount(), 3);
    GDALClose(ds);
  }

  // STAC-GeoParquet, and a plain export of a level-1 table of a ZIP.
  r = RunTaco("export-metadata " + Q(Files().taco) + " " + Q(dir / "stac.parquet") + " --stac-geoparquet");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto stac = (*engine)->Query(
      "SELECT type, stac_version, id, bbox.xmin, strftime(datetime, '%Y-%m-%d'), "
      "assets.data.href, collection FROM read_parquet(" +
      table::QuoteString(dir / "stac.parquet") + ") ORDER BY id");
  ASSERT_TRUE(stac.ok()) << stac.status().ToString();
  ASSERT_EQ(stac->num_rows(), 3u);
  EXPECT_EQ(stac->columns[0].values[0].get<std::string>(), "Feature");
  EXPECT_EQ(stac->columns[2].values[1].get<std::string>(), "s2");
  EXPECT_DOUBLE_EQ(stac->columns[3].values[0].get<double>(), -3.70379);
  EXPECT_EQ(stac->columns[4].values[0].get<std::string>(), "2021-01-01");
  EXPECT_EQ(stac->columns[5].values[0].get<std::string>().rfind("/vsisubfile/200_", 0), 0u);
  EXPECT_EQ(stac->columns[6].values[0].get<std::string>(), "demo");
  r = RunTaco("export-metadata " + Q(UpstreamFixtures() + "/zip/nested/nested.tacozip") + " " + Q(dir / "l1.parquet") +
              " --level 1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunTaco("export-metadata " + Q(Files().taco) + " " + Q(dir / "x.parquet") + " --geoparquet --level 2");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no geometry column"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "x.parquet"));
}

}  // namespace
}  // namespace taco::testing
