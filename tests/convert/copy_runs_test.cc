// Convert and export copy ZIP members by runs (io/range_runs.h): the outputs must be the
// bytes the one-read-per-member copy gives (TACO_COPY_RUN_BYTES=0), whatever the run size
// and the number of reads in flight (TACO_COPY_THREADS).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "format/zip/zip_reader.h"
#include "support/paths.h"
#include "support/zip_image.h"
#include "taco/convert.h"
#include "taco/dataset.h"
#include "taco/writer.h"

namespace taco {
namespace {

namespace fs = std::filesystem;
using testing::ReadFile;
using testing::TempDir;

class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (value.empty()) {
      ::unsetenv(name);
    } else {
      ::setenv(name, value.c_str(), 1);
    }
  }
  ~ScopedEnv() { ::unsetenv(name_); }

 private:
  const char* name_;
};

std::string RandomBytes(std::mt19937& rng, size_t n) {
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(rng() & 0xff);
  return s;
}

// `folders` FOLDER samples s000.. with a.bin (3,000 + i bytes) and b.bin (5,000 bytes; every
// 7th one 150,000 bytes, larger than the small run size below).
void MakeSourceZip(const std::string& path, int folders) {
  std::mt19937 rng(7);
  std::vector<Sample> roots;
  for (int i = 0; i < folders; ++i) {
    std::vector<Sample> kids;
    kids.push_back(*Sample::FromBytes("a.bin", RandomBytes(rng, 3000 + i)));
    kids.push_back(*Sample::FromBytes("b.bin", RandomBytes(rng, i % 7 == 3 ? 150000 : 5000)));
    char id[16];
    std::snprintf(id, sizeof id, "s%03d", i);
    auto folder = Sample::FromTortilla(id, *Tortilla::Make(std::move(kids)));
    ASSERT_TRUE(folder.ok()) << folder.status().ToString();
    Sample s = *folder;
    ASSERT_TRUE(
        s.Extend(Field{"split", DataType::String(), Value(std::string(i % 3 == 0 ? "test" : "train")), ""}).ok());
    roots.push_back(std::move(s));
  }
  nlohmann::ordered_json collection = {{"id", "runs"},
                                       {"dataset_version", "1"},
                                       {"description", "runs"},
                                       {"licenses", {"CC0-1.0"}},
                                       {"providers", {{{"name", "t"}}}},
                                       {"tasks", {"other"}}};
  auto taco = Taco::Make(*Tortilla::Make(std::move(roots)), collection);
  ASSERT_TRUE(taco.ok()) << taco.status().ToString();
  auto out = Create(*taco, path);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
}

// Every regular file below `dir`, by relative path.
std::map<std::string, std::string> TreeBytes(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) out[fs::relative(e.path(), dir).string()] = ReadFile(e.path().string());
  }
  return out;
}

struct Setting {
  std::string run_bytes;  // TACO_COPY_RUN_BYTES ("" = default 8 MiB)
  std::string threads;    // TACO_COPY_THREADS ("" = default)
};

// The settings compared with the one-read-per-member copy: default runs at 1 and 2 reads in
// flight, and runs of 20,000 bytes (several runs; the 150,000-byte members copied apart).
const std::vector<Setting> kRunSettings = {{"", "1"}, {"", "2"}, {"20000", "1"}, {"20000", "2"}, {"", ""}};

std::string Describe(const Setting& s) {
  return "TACO_COPY_RUN_BYTES=" + s.run_bytes + " TACO_COPY_THREADS=" + s.threads;
}

TEST(CopyRuns, ConvertZipToFolderGivesTheBytesOfTheMemberByMemberCopy) {
  TempDir tmp;
  const std::string src = tmp / "src.tacozip";
  MakeSourceZip(src, 40);
  std::map<std::string, std::string> expected;
  {
    ScopedEnv runs("TACO_COPY_RUN_BYTES", "0");
    auto r = Convert(src, tmp / "ref");
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    expected = TreeBytes(tmp / "ref");
  }
  ASSERT_EQ(expected.count("DATA/s003/b.bin"), 1u);
  EXPECT_EQ(expected["DATA/s003/b.bin"].size(), 150000u);
  for (size_t k = 0; k < kRunSettings.size(); ++k) {
    SCOPED_TRACE(Describe(kRunSettings[k]));
    ScopedEnv runs("TACO_COPY_RUN_BYTES", kRunSettings[k].run_bytes);
    ScopedEnv threads("TACO_COPY_THREADS", kRunSettings[k].threads);
    const std::string out = tmp / ("out" + std::to_string(k));
    auto r = Convert(src, out);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_TRUE(TreeBytes(out) == expected);
  }
}

TEST(CopyRuns, ExportToZipAndFolderGivesTheBytesOfTheMemberByMemberCopy) {
  TempDir tmp;
  const std::string src = tmp / "src.tacozip";
  MakeSourceZip(src, 40);
  auto ds = Dataset::Open(src);
  ASSERT_TRUE(ds.ok()) << ds.status().ToString();
  // Two in three samples: runs with gaps where the "test" samples are left out.
  auto view = (*ds)->Sql("SELECT * FROM data WHERE split = 'train'");
  ASSERT_TRUE(view.ok()) << view.status().ToString();
  ExportOptions options;
  options.source = ds->get();
  options.subset_date = "2026-01-01T00:00:00.000000+00:00";
  std::string zip_ref;
  std::map<std::string, std::string> folder_ref;
  {
    ScopedEnv runs("TACO_COPY_RUN_BYTES", "0");
    ASSERT_TRUE(Export(**view, tmp / "ref.tacozip", options).ok());
    ASSERT_TRUE(Export(**view, tmp / "ref", options).ok());
    zip_ref = testing::ZipImage(tmp / "ref.tacozip");
    folder_ref = TreeBytes(tmp / "ref");
  }
  for (size_t k = 0; k < kRunSettings.size(); ++k) {
    SCOPED_TRACE(Describe(kRunSettings[k]));
    ScopedEnv runs("TACO_COPY_RUN_BYTES", kRunSettings[k].run_bytes);
    ScopedEnv threads("TACO_COPY_THREADS", kRunSettings[k].threads);
    const std::string zip = tmp / ("out" + std::to_string(k) + ".tacozip");
    const std::string folder = tmp / ("out" + std::to_string(k));
    auto z = Export(**view, zip, options);
    ASSERT_TRUE(z.ok()) << z.status().ToString();
    auto f = Export(**view, folder, options);
    ASSERT_TRUE(f.ok()) << f.status().ToString();
    EXPECT_TRUE(testing::ZipImage(zip) == zip_ref);
    EXPECT_TRUE(TreeBytes(folder) == folder_ref);
  }
  // And the subset holds the source's bytes (an expectation independent of the writer).
  auto out = Dataset::Open(tmp / "out0.tacozip");
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  auto node = (*out)->Read(SampleKey(std::string("s004")));
  ASSERT_TRUE(node.ok()) << node.status().ToString();
  auto mine = node->children->ReadBytes(SampleKey(std::string("b.bin")));
  auto theirs = (*ds)->Read(SampleKey(std::string("s004")));
  ASSERT_TRUE(mine.ok() && theirs.ok());
  auto source_bytes = theirs->children->ReadBytes(SampleKey(std::string("b.bin")));
  ASSERT_TRUE(source_bytes.ok());
  EXPECT_EQ(*mine, *source_bytes);
}

TEST(CopyRuns, ConvertCliIsDeterministicAcrossThreadsAndRunSizes) {
  TempDir tmp;
  const std::string src = tmp / "src.tacozip";
  MakeSourceZip(src, 25);
  std::map<std::string, std::string> first;
  for (const std::string threads : {"1", "2"}) {
    for (const std::string run_bytes : {"0", "20000", ""}) {
      SCOPED_TRACE("threads " + threads + " run bytes " + run_bytes);
      ScopedEnv t("TACO_COPY_THREADS", threads);
      ScopedEnv r("TACO_COPY_RUN_BYTES", run_bytes);
      const std::string out = tmp / ("cli" + threads + "_" + run_bytes);
      auto res = testing::RunTaco("convert " + testing::ShellQuote(src) + " " + testing::ShellQuote(out));
      ASSERT_EQ(res.exit_code, 0) << res.err;
      auto tree = TreeBytes(out);
      if (first.empty()) {
        first = tree;
        EXPECT_GT(first.size(), 50u);
      } else {
        EXPECT_TRUE(tree == first);
      }
    }
  }
}

// Flips one byte in the data of member `name` of the ZIP at `path`.
void DamageMember(const std::string& path, const std::string& name) {
  auto reader = OpenLocalFile(path);
  ASSERT_TRUE(reader.ok());
  auto entries = zip::ReadCentralDirectory(**reader, /*resolve_data_offsets=*/true);
  ASSERT_TRUE(entries.ok()) << entries.status().ToString();
  for (const auto& m : *entries) {
    if (m.name != name) continue;
    std::string z = ReadFile(path);
    z[m.data_offset + m.uncompressed_size / 2] ^= 0x5a;
    testing::WriteFile(path, z);
    return;
  }
  FAIL() << name << " is not in " << path;
}

TEST(CopyRuns, ConvertAndExportRefuseAMemberWhoseBytesDoNotMatchItsCrc) {
  TempDir tmp;
  const std::string src = tmp / "src.tacozip";
  MakeSourceZip(src, 12);
  DamageMember(src, "DATA/s005/a.bin");  // small: copied within a run
  DamageMember(src, "DATA/s010/b.bin");  // 150,000 bytes: larger than runs of 20,000
  const std::string sql = testing::ShellQuote("SELECT * FROM data WHERE id <> 's005'");
  struct Case {
    std::string args;
    std::string member;
  };
  const std::vector<Case> cases = {
      {"convert " + testing::ShellQuote(src) + " " + testing::ShellQuote(tmp / "out"), "DATA/s005/a.bin"},
      {"export " + testing::ShellQuote(src) + " " + testing::ShellQuote(tmp / "out.tacozip") +
           " --sql \"SELECT * FROM data WHERE id = 's005'\"",
       "DATA/s005/a.bin"},
      {"export " + testing::ShellQuote(src) + " " + testing::ShellQuote(tmp / "out") + " --sql " + sql,
       "DATA/s010/b.bin"},
      {"export " + testing::ShellQuote(src) + " " + testing::ShellQuote(tmp / "out.tacozip") + " --sql " + sql,
       "DATA/s010/b.bin"},
  };
  for (const std::string run_bytes : {"", "20000", "0"}) {
    ScopedEnv runs("TACO_COPY_RUN_BYTES", run_bytes);
    for (const Case& c : cases) {
      SCOPED_TRACE("TACO_COPY_RUN_BYTES=" + run_bytes + " taco " + c.args);
      auto r = testing::RunTaco(c.args);
      EXPECT_NE(r.exit_code, 0) << r.out;
      EXPECT_NE(r.err.find("CRC-32 mismatch"), std::string::npos) << r.err;
      EXPECT_NE(r.err.find("sample '" + c.member + "'"), std::string::npos) << r.err;
      EXPECT_NE(r.err.find(src), std::string::npos) << r.err;
      EXPECT_FALSE(fs::exists(tmp / "out"));
      EXPECT_FALSE(fs::exists(tmp / "out.tacozip"));
    }
  }
  // The undamaged samples still export.
  auto ok = testing::RunTaco("export " + testing::ShellQuote(src) + " " + testing::ShellQuote(tmp / "ok") +
                             " --sql \"SELECT * FROM data WHERE id NOT IN ('s005', 's010')\"");
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
}

}  // namespace
}  // namespace taco
