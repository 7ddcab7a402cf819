// How Validate() reads a local ZIP (validate/crc_checks.cc, validate/container.h): the data
// offsets of the members are resolved from the local headers the CRC pass reads, so the
// file is read once, not twice; a damaged local header is still the error it was when the
// headers were all read at open (the first fault in file order, the same message).
#include <fstream>
#include <iterator>
#include <random>

#include "validate/container.h"
#include "validate_test_util.h"

namespace taco {
namespace {

using testing::TempDir;
using namespace vtest;

// Bytes this process has read through read()/pread() so far (/proc/self/io "rchar").
uint64_t BytesRead() {
  std::ifstream io("/proc/self/io");
  std::string key;
  uint64_t value = 0;
  while (io >> key >> value) {
    if (key == "rchar:") return value;
  }
  ADD_FAILURE() << "no rchar in /proc/self/io";
  return 0;
}

// A ZIP of `n` FILE samples of `bytes_each` random bytes (local headers every few KiB, so
// reading them all in 1 MiB batches reads the whole file).
std::string ZipOfSmallSamples(const TempDir& tmp, size_t n, size_t bytes_each = 4096) {
  std::mt19937_64 rng(7);
  std::vector<Sample> samples;
  for (size_t i = 0; i < n; ++i) {
    std::string bytes(bytes_each, '\0');
    for (char& c : bytes) c = static_cast<char>(rng());
    samples.push_back(*Sample::FromBytes("s" + std::to_string(i), bytes));
  }
  auto taco = Taco::Make(*Tortilla::Make(std::move(samples)), Collection());
  EXPECT_TRUE(taco.ok()) << taco.status().ToString();
  return Written(*taco, tmp / "small.tacozip");
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void Spit(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// The error of reading the central directory with every local header resolved (what
// Validate() gave when it resolved them all at open).
std::string OpenError(const std::string& path) {
  auto reader = OpenLocalFile(path);
  EXPECT_TRUE(reader.ok());
  auto entries = zip::ReadCentralDirectory(**reader, /*resolve_data_offsets=*/true);
  EXPECT_FALSE(entries.ok());
  return entries.ok() ? "" : entries.status().message();
}

TEST(ValidateReads, ALocalZipIsReadOnce) {
  TempDir tmp;
  // 64 KiB samples: validate reads the first 4 KiB of each once more (the TIFF and format
  // checks), 1/16 of the file.
  const std::string path = ZipOfSmallSamples(tmp, 150, 64 << 10);  // ~10 MB
  const uint64_t size = std::filesystem::file_size(path);
  const uint64_t before = BytesRead();
  const ValidationReport report = MustValidate(path);
  const uint64_t read = BytesRead() - before;
  EXPECT_TRUE(report.ok()) << Describe(report);
  // Once: every byte by the CRC pass, plus the samples' heads, the central directory and the
  // level tables (the local headers read separately at open made it twice the file).
  EXPECT_LT(read, size + size / 4) << "read " << read << " bytes of a " << size << "-byte ZIP";
  EXPECT_GE(read, size);
}

TEST(ValidateReads, ADamagedLocalHeaderIsTheErrorOfOpen) {
  TempDir tmp;
  const std::string path = ZipOfSmallSamples(tmp, 300);
  const std::string good = Slurp(path);
  auto reader = OpenLocalFile(path);
  ASSERT_TRUE(reader.ok());
  auto entries = zip::ReadCentralDirectory(**reader, /*resolve_data_offsets=*/true);
  ASSERT_TRUE(entries.ok()) << entries.status().ToString();
  auto lfh = [&](const std::string& name) -> size_t {
    for (const zip::ZipEntry& e : *entries) {
      if (e.name == name) return static_cast<size_t>(e.lfh_offset);
    }
    ADD_FAILURE() << "no member " << name;
    return 0;
  };
  struct Damage {
    std::string what;
    std::vector<std::pair<size_t, std::string>> patches;  // offset, bytes
  };
  const std::vector<Damage> damages = {
      {"signature of a sample", {{lfh("DATA/s150"), "PK\x07\x08"}}},
      {"name of a sample", {{lfh("DATA/s7") + 30 + 5, "t"}}},
      // extra length 0xFFFF: the data runs into the central directory.
      {"extra length of the last sample", {{lfh("DATA/s299") + 28, "\xff\xff"}}},
      // Two faults: the first in file order is the error, whichever the CRC pass meets first.
      {"two samples", {{lfh("DATA/s280") + 30 + 5, "x"}, {lfh("DATA/s20"), "PK\x07\x08"}}},
      {"a level table", {{lfh("METADATA/level0.parquet"), "PK\x07\x08"}}},
      {"COLLECTION.json and a sample", {{lfh("COLLECTION.json") + 30, "c"}, {lfh("DATA/s3"), "XX"}}},
  };
  for (const Damage& d : damages) {
    std::string bytes = good;
    for (const auto& [at, patch] : d.patches) bytes.replace(at, patch.size(), patch);
    const std::string damaged = tmp / "damaged.tacozip";
    Spit(damaged, bytes);
    const std::string want = OpenError(damaged);
    ASSERT_FALSE(want.empty()) << d.what;
    for (bool check_data : {true, false}) {
      ValidateOptions options;
      options.check_data = check_data;
      auto got = Validate(damaged, options);
      ASSERT_FALSE(got.ok()) << d.what << " check_data " << check_data;
      EXPECT_EQ(got.status().message(), want) << d.what << " check_data " << check_data;
    }
  }
}

// FindIndex(name, hint) is FindIndex(name) whatever the hint: the first entry of a name,
// also when the hinted entry is a later one of the same name (a duplicate).
TEST(ValidateReads, MemberLookupIsTheSameWhateverTheHint) {
  TempDir tmp;
  std::string bytes = Slurp(ZipOfSmallSamples(tmp, 12, 16));
  // DATA/s1 renamed DATA/s0 (central and local): two entries named DATA/s0.
  const size_t cdh = CentralHeaderOf(bytes, "DATA/s1");
  const size_t lfh = U32(bytes, cdh + 42);
  bytes[cdh + 46 + 6] = '0';
  bytes[lfh + 30 + 6] = '0';
  const std::string path = tmp / "dup.tacozip";
  Spit(path, bytes);
  auto zip = validate::ZipContainer::Open(path);
  ASSERT_TRUE(zip.ok()) << zip.status().ToString();
  const auto& entries = (*zip)->entries();
  ASSERT_EQ((*zip)->duplicates().size(), 1u);
  std::vector<std::string> names;
  for (const zip::ZipEntry& e : entries) names.push_back(e.name);
  names.push_back("DATA/s1");  // none now
  names.push_back("DATA/nothing");
  for (const std::string& name : names) {
    const std::optional<size_t> want = (*zip)->FindIndex(name);
    for (size_t hint = 0; hint <= entries.size() + 1; ++hint) {
      EXPECT_EQ((*zip)->FindIndex(name, hint), want) << name << " hint " << hint;
    }
  }
  EXPECT_FALSE((*zip)->FindIndex("DATA/s1").has_value());
}

}  // namespace
}  // namespace taco
