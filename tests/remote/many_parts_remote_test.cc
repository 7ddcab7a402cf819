// A TACOLLECTION of 1,000 tiny remote parts (issue 28), through nginx with the requests
// counted from its access log: SQL over every part works (one multi-file scan per level: a
// view per part nested 1,000 deep was refused by DuckDB's expression depth limit), and a
// routed open (OpenRouted with a box) requests the TACOLLECTION.json and the routed parts
// only, never another part.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "remote_env.h"
#include "taco/dataset.h"
#include "taco/io.h"

namespace taco::testing {
namespace {

namespace fs = std::filesystem;

constexpr int kParts = 1000;

class ManyPartsRemoteTest : public RemoteTest {
 protected:
  // The nginx log lines written while `fn` ran.
  template <typename F>
  std::vector<std::string> Logged(F&& fn) {
    e->Requests();  // waits until the log has settled
    const std::string text_before = e->LogText();
    fn();
    e->Requests();
    const std::string after = e->LogText();
    return Lines(after.substr(std::min(text_before.size(), after.size())));
  }

  // mp/ds_part0001.tacozip … ds_part1000.tacozip (one 4-byte FILE sample each, written by
  // `taco create --split-size 1`) and mp/TACOLLECTION.json listing them, part k (1-based)
  // with the spatial extent [k, 0, k + 0.5, 0.5]. Made once per test binary.
  void MakeParts() {
    if (fs::exists(e->Local("mp/TACOLLECTION.json"))) return;
    const std::string src = e->Local("mp_src");
    fs::create_directories(src);
    for (int i = 0; i < kParts; ++i) {
      char name[32];
      std::snprintf(name, sizeof name, "s%04d.bin", i);
      std::ofstream(src + "/" + name) << "x" << i % 1000;
    }
    const std::string collection = e->Local("mp_collection.json");
    std::ofstream(collection)
        << R"({"id": "mp", "dataset_version": "1.0.0", "description": "many parts",)"
        << R"( "licenses": ["CC0-1.0"], "providers": [{"name": "x"}], "tasks": ["classification"]})";
    CommandResult r = RunTaco("-q create " + ShellQuote(src) + " " + ShellQuote(e->Local("mp/ds.tacozip")) +
                              " --collection " + ShellQuote(collection) + " --split-size 1 --no-consolidate");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::string inputs;
    for (int k = 1; k <= kParts; ++k) inputs += " " + ShellQuote(e->Local(PartName(k)));
    const std::string json = e->Local("mp/TACOLLECTION.json");
    r = RunTaco("-q tacollection" + inputs + " -o " + ShellQuote(json + ".tmp"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto parsed = nlohmann::ordered_json::parse(ReadWholeFile(json + ".tmp").value());
    auto& files = parsed["taco:sources"]["files"];
    ASSERT_EQ(files.size(), static_cast<size_t>(kParts));
    auto& extents = parsed["taco:sources"]["extents"];
    extents = nlohmann::ordered_json::array();
    for (int k = 1; k <= kParts; ++k) {
      extents.push_back({{"file", files[static_cast<size_t>(k - 1)]},
                         {"spatial", {double(k), 0.0, k + 0.5, 0.5}},
                         {"temporal", nullptr}});
    }
    std::ofstream(json) << parsed.dump(1);
    fs::remove(json + ".tmp");
  }

  static std::string PartName(int k) {
    char name[40];
    std::snprintf(name, sizeof name, "mp/ds_part%04d.tacozip", k);
    return name;
  }
};

size_t Mentioning(const std::vector<std::string>& lines, const std::string& what) {
  size_t n = 0;
  for (const auto& l : lines) n += l.find(what) != std::string::npos ? 1 : 0;
  return n;
}

TEST_F(ManyPartsRemoteTest, SqlOverAThousandPartsAndRoutedOpensOnlyRoutedParts) {
  MakeParts();
  const std::string url = e->Url("mp/TACOLLECTION.json");
  // Every part: one scan, no depth error; each part's rows once.
  CommandResult r;
  std::vector<std::string> lines = Logged([&] {
    r = RunTaco("--no-cache sql " + ShellQuote(url) +
                " 'SELECT count(*), count(DISTINCT \"internal:source_part\") FROM data_raw' --format csv");
  });
  ASSERT_EQ(r.exit_code, 0) << r.err.substr(0, 2000);
  EXPECT_NE(r.out.find("\n1000,1000\n"), std::string::npos) << r.out;
  EXPECT_EQ(Mentioning(lines, "TACOLLECTION.json"), 1u) << Joined(lines);
  EXPECT_EQ(Mentioning(lines, "/mp/ds_part"), lines.size() - 1) << Joined(lines);
  std::fprintf(stderr, "sql over %d remote parts: %zu requests\n", kParts, lines.size());

  // Routed: a box over parts 10..12 only.
  OpenOptions options;
  options.use_cache = false;
  lines = Logged([&] {
    auto routed = OpenRouted({url}, std::array<double, 4>{10.1, 0.1, 12.2, 0.2}, "", options);
    ASSERT_TRUE(routed.ok()) << routed.status().ToString();
    ASSERT_TRUE(routed->routing.has_value());
    EXPECT_EQ(routed->routing->skipped, static_cast<size_t>(kParts - 3));
    EXPECT_EQ(routed->opened,
              (std::vector<std::string>{e->Url(PartName(10)), e->Url(PartName(11)), e->Url(PartName(12))}));
    auto rows = routed->dataset->RowCount();
    ASSERT_TRUE(rows.ok()) << rows.status().ToString();
    EXPECT_EQ(*rows, 3u);
  });
  EXPECT_EQ(Mentioning(lines, "TACOLLECTION.json"), 1u) << Joined(lines);
  EXPECT_EQ(Mentioning(lines, "/mp/ds_part") + 1, lines.size()) << Joined(lines);
  EXPECT_EQ(Mentioning(lines, "/mp/ds_part0010.") + Mentioning(lines, "/mp/ds_part0011.") +
                Mentioning(lines, "/mp/ds_part0012."),
            lines.size() - 1)
      << Joined(lines);
  EXPECT_GE(Mentioning(lines, "/mp/ds_part0011."), 1u) << Joined(lines);
  EXPECT_LE(lines.size(), 1u + 3u * 3u) << Joined(lines);
}

}  // namespace
}  // namespace taco::testing
