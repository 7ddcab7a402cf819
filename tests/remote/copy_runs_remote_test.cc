// Remote `taco convert` and `taco export` copy adjacent ZIP members with one ranged GET per
// run (io/range_runs.h) instead of one per member: request counts from nginx's access log,
// split by their Range header into data requests (inside the members' bytes) and metadata.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "format/zip/zip_reader.h"
#include "remote_env.h"
#include "taco/io.h"

namespace taco::testing {
namespace {

namespace fs = std::filesystem;

class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) { ::setenv(name, value.c_str(), 1); }
  ~ScopedEnv() { ::unsetenv(name_); }

 private:
  const char* name_;
};

constexpr int kSamples = 200;
constexpr size_t kSampleBytes = 20000;

// `taco create SRC <served rel>` with a minimal collection named `id`.
void CreateServed(RemoteEnv* e, const std::string& src, const std::string& rel, const std::string& id) {
  const std::string collection = *e->dir / (id + "_collection.json");
  WriteFile(collection, R"({"id": ")" + id + R"(", "dataset_version": "1", "description": ")" + id +
                            R"(", "licenses": ["CC0-1.0"], "providers": [{"name": "t"}], "tasks": ["other"]})");
  fs::create_directories(e->Local("runs"));
  CommandResult made = RunTaco("create " + ShellQuote(src) + " " + ShellQuote(e->Local(rel)) + " --collection " +
                               ShellQuote(collection));
  EXPECT_EQ(made.exit_code, 0) << made.err;
}

// runs/flat.tacozip: kSamples FILE samples s000.bin.. of kSampleBytes (about 4 MB of members).
std::string MakeFlatZip(RemoteEnv* e) {
  const std::string rel = "runs/flat.tacozip";
  if (fs::exists(e->Local(rel))) return rel;
  const std::string src = *e->dir / "runs_src";
  fs::create_directories(src);
  for (int i = 0; i < kSamples; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "s%03d.bin", i);
    WriteFile(src + "/" + name, std::string(kSampleBytes, static_cast<char>('A' + i % 50)));
  }
  CreateServed(e, src, rel, "runs");
  return rel;
}

// [first data byte, last data byte + 1) of the members whose names satisfy `keep`.
struct Span {
  uint64_t begin = UINT64_MAX;
  uint64_t end = 0;
  uint64_t bytes() const { return end > begin ? end - begin : 0; }
};
template <typename Keep>
Span DataSpan(const std::string& zip, Keep keep) {
  Span s;
  auto reader = OpenLocalFile(zip);
  EXPECT_TRUE(reader.ok());
  if (!reader.ok()) return s;
  auto entries = zip::ReadCentralDirectory(**reader, /*resolve_data_offsets=*/true);
  EXPECT_TRUE(entries.ok()) << entries.status().ToString();
  if (!entries.ok()) return s;
  for (const auto& m : *entries) {
    if (!keep(m.name)) continue;
    s.begin = std::min(s.begin, m.data_offset);
    s.end = std::max(s.end, m.data_offset + m.uncompressed_size);
  }
  return s;
}

struct Counts {
  size_t data = 0;   // ranged GETs of member bytes
  size_t other = 0;  // everything else nginx logged (metadata)
};

// Opening a remote ZIP reads its first 64 KiB (taco/io.h OpenRangeReader): a request that
// ends there is metadata even where members start.
constexpr unsigned long long kOpenPrefetch = 64 * 1024;
// A run starts this much before its first member, for the member's local header (CRC).
constexpr uint64_t kHeaderWindow = 30 + 1024 + 20;

// Classifies the log lines after the first `skip` ones: data = a Range that overlaps the
// members' span (a run reads the local header before its first member too) and ends past
// the open's prefetch.
Counts Classify(const std::string& log, size_t skip, const Span& data) {
  Counts c;
  std::istringstream in(log);
  std::string line;
  for (size_t n = 0; std::getline(in, line); ++n) {
    if (n < skip || line.empty()) continue;
    unsigned long long first = 0, last = 0;
    const size_t at = line.find("\"bytes=");
    if (at != std::string::npos && std::sscanf(line.c_str() + at, "\"bytes=%llu-%llu\"", &first, &last) == 2 &&
        last >= data.begin && first < data.end && last >= kOpenPrefetch) {
      ++c.data;
    } else {
      ++c.other;
    }
  }
  return c;
}

uint64_t CeilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// Runs `taco --no-cache <args>` and returns the requests it cost, split by `span`.
Counts RunCounted(RemoteEnv* e, const std::string& args, const Span& span) {
  const size_t before = e->Requests();
  CommandResult r = RunTaco("--no-cache " + args);
  EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.err;
  e->Requests();  // settles the log
  return Classify(e->LogText(), before, span);
}

TEST_F(RemoteTest, ConvertOfAZipCopiesAdjacentMembersWithOneRequestPerRun) {
  const std::string rel = MakeFlatZip(e);
  const Span span = DataSpan(e->Local(rel), [](const std::string& n) { return n.rfind("DATA/", 0) == 0; });
  ASSERT_GT(span.bytes(), kSamples * kSampleBytes);
  TempDir out;

  // One read per member (the copy before runs; now with a read of its local header before
  // it): at least one request per sample.
  Counts per_member;
  {
    ScopedEnv runs("TACO_COPY_RUN_BYTES", "0");
    per_member = RunCounted(e, "convert " + ShellQuote(e->Url(rel)) + " " + ShellQuote(out / "per_member"), span);
  }
  EXPECT_GE(per_member.data, static_cast<size_t>(kSamples) - 5) << e->LogText();

  // Runs of at most 1 MB: ceil(span / 1 MB) data requests; the default (8 MiB): one.
  for (const uint64_t cap : {uint64_t{1000000}, uint64_t{0}}) {
    SCOPED_TRACE(cap);
    const uint64_t effective = cap == 0 ? (uint64_t{8} << 20) : cap;
    std::unique_ptr<ScopedEnv> env;
    if (cap != 0) env = std::make_unique<ScopedEnv>("TACO_COPY_RUN_BYTES", std::to_string(cap));
    const std::string dest = out / ("runs" + std::to_string(cap));
    Counts c = RunCounted(e, "convert " + ShellQuote(e->Url(rel)) + " " + ShellQuote(dest), span);
    EXPECT_GE(c.data, 1u);
    EXPECT_LE(c.data, CeilDiv(span.bytes() + kHeaderWindow, effective)) << e->LogText();
    EXPECT_EQ(c.other, per_member.other) << "metadata requests differ from the per-member copy";
    EXPECT_LE(c.other, 4u) << e->LogText();
    // The same files as the per-member copy.
    for (int i : {0, 77, kSamples - 1}) {
      char name[32];
      std::snprintf(name, sizeof name, "DATA/s%03d.bin", i);
      EXPECT_EQ(ReadFile(dest + "/" + name), ReadFile(out / "per_member/" + name)) << name;
      EXPECT_EQ(ReadFile(dest + "/" + name), std::string(kSampleBytes, static_cast<char>('A' + i % 50)));
    }
  }
}

TEST_F(RemoteTest, ExportOfASubsetCopiesItsAdjacentMembersWithOneRequestPerRun) {
  const std::string rel = MakeFlatZip(e);
  // The selection s050..s149: its members are adjacent in the archive.
  const auto picked = [](const std::string& n) {
    int k = -1;
    return std::sscanf(n.c_str(), "DATA/s%d.bin", &k) == 1 && k >= 50 && k < 150;
  };
  const Span span = DataSpan(e->Local(rel), picked);
  ASSERT_GT(span.bytes(), 100 * kSampleBytes);
  TempDir out;
  const std::string sql = ShellQuote("SELECT * FROM data WHERE id >= 's050.bin' AND id < 's150.bin'");
  ScopedEnv runs("TACO_COPY_RUN_BYTES", "500000");
  for (const std::string dest : {"subset.tacozip", "subset"}) {
    SCOPED_TRACE(dest);
    Counts c =
        RunCounted(e, "export " + ShellQuote(e->Url(rel)) + " " + ShellQuote(out / dest) + " --sql " + sql, span);
    EXPECT_GE(c.data, 1u);
    EXPECT_LE(c.data, CeilDiv(span.bytes() + kHeaderWindow, 500000)) << e->LogText();
    EXPECT_LE(c.other, 5u) << e->LogText();
    auto ds = Dataset::Open(out / dest);
    ASSERT_TRUE(ds.ok()) << ds.status().ToString();
    auto rows = (*ds)->RowCount();
    ASSERT_TRUE(rows.ok());
    EXPECT_EQ(*rows, 100);
    auto node = (*ds)->Read(SampleKey(std::string("s120.bin")));
    ASSERT_TRUE(node.ok()) << node.status().ToString();
    auto bytes = (*ds)->ReadBytes(*node);
    ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
    EXPECT_EQ(*bytes, std::string(kSampleBytes, static_cast<char>('A' + 120 % 50)));
  }
}

// runs/folders.tacozip: kFolders FOLDER samples f000.. of two 100-byte files each.
constexpr int kFolders = 300;
std::string MakeFolderZip(RemoteEnv* e) {
  const std::string rel = "runs/folders.tacozip";
  if (fs::exists(e->Local(rel))) return rel;
  const std::string src = *e->dir / "folders_src";
  for (int i = 0; i < kFolders; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "f%03d", i);
    fs::create_directories(src + "/" + name);
    WriteFile(src + "/" + name + "/a.bin", std::string(100, static_cast<char>('a' + i % 26)));
    WriteFile(src + "/" + name + "/b.bin", std::string(100, static_cast<char>('A' + i % 26)));
  }
  CreateServed(e, src, rel, "folders");
  return rel;
}

// Each FOLDER's `__meta__` is read before its children are copied; the rebuild reads them
// ahead in runs (Dataset::Prefetch), so they cost a few requests, not one per FOLDER.
TEST_F(RemoteTest, ConvertAndExportOfFolderSamplesReadTheirMetaInRuns) {
  const std::string rel = MakeFolderZip(e);
  TempDir out;
  const Span everything{0, UINT64_MAX};
  for (const std::string& args :
       {"convert " + ShellQuote(e->Url(rel)) + " " + ShellQuote(out / "converted"),
        "export " + ShellQuote(e->Url(rel)) + " " + ShellQuote(out / "subset.tacozip") + " --sql " +
            ShellQuote("SELECT * FROM data WHERE id >= 'f100' AND id < 'f250'")}) {
    SCOPED_TRACE(args);
    const Counts c = RunCounted(e, args, everything);
    EXPECT_LE(c.data + c.other, 12u) << e->LogText();
  }
  CommandResult valid = RunTaco("validate " + ShellQuote(out / "converted"));
  EXPECT_EQ(valid.exit_code, 0) << valid.out << valid.err;
  EXPECT_EQ(ReadFile(out / "converted/DATA/f123/b.bin"), std::string(100, static_cast<char>('A' + 123 % 26)));
  auto subset = Dataset::Open(out / "subset.tacozip");
  ASSERT_TRUE(subset.ok()) << subset.status().ToString();
  auto node = (*subset)->ReadPath({SampleKey(std::string("f200")), SampleKey(std::string("a.bin"))});
  ASSERT_TRUE(node.ok()) << node.status().ToString();
  auto bytes = (*subset)->ReadBytes(*node);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  EXPECT_EQ(*bytes, std::string(100, static_cast<char>('a' + 200 % 26)));
}

}  // namespace
}  // namespace taco::testing
