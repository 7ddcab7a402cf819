// Helpers for the reliability tests: datasets written by our own writer, byte surgery on
// files, and quick access to the upstream fixtures.
#ifndef TACO_TESTS_RELIABILITY_RELIABILITY_UTIL_H_
#define TACO_TESTS_RELIABILITY_RELIABILITY_UTIL_H_

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "format/zip/crc32.h"
#include "support/paths.h"
#include "taco/dataset.h"

namespace taco::reliability {

inline std::string FlatZip() { return testing::UpstreamFixtures() + "/zip/flat/flat.tacozip"; }

// `src` with byte `offset` replaced by `value`, written to `dst`.
inline void CopyWithByte(const std::string& src, const std::string& dst, uint64_t offset, unsigned char value) {
  std::string bytes = testing::ReadFile(src);
  ASSERT_LT(offset, bytes.size());
  bytes[offset] = static_cast<char>(value);
  testing::WriteFile(dst, bytes);
}

// Rewrites the CRC-32 in the local header of member `name` of the ZIP at `path` to match its
// (mutated) data, so that a test reaches the parser behind the CRC check (the central
// directory's copy is left alone: readers use the local header).
inline void RefreshLocalCrc(const std::string& path, const std::string& name) {
  std::string bytes = testing::ReadFile(path);
  auto u16 = [&](size_t at) {
    return static_cast<uint32_t>(static_cast<unsigned char>(bytes[at]) |
                                 (static_cast<unsigned char>(bytes[at + 1]) << 8));
  };
  for (size_t p = bytes.find("PK\x03\x04"); p != std::string::npos; p = bytes.find("PK\x03\x04", p + 1)) {
    const size_t n = u16(p + 26), extra = u16(p + 28);
    if (n != name.size() || bytes.compare(p + 30, n, name) != 0) continue;
    const uint32_t size = u16(p + 18) | (u16(p + 20) << 16);
    const uint32_t crc = zip::Crc32(0, bytes.data() + p + 30 + n + extra, size);
    for (int k = 0; k < 4; ++k) bytes[p + 14 + k] = static_cast<char>((crc >> (8 * k)) & 0xff);
    testing::WriteFile(path, bytes);
    return;
  }
  ADD_FAILURE() << "no member " << name << " in " << path;
}

// A small nested ZIP (3 FOLDER samples a, b, c of 2 FILEs x.bin, y.bin) written by `taco
// create` into `dir`; returns its path. File contents: "<folder>/<name>" repeated `repeat`
// times.
inline std::string MakeZip(const testing::TempDir& dir, const std::string& name = "ds.tacozip", int repeat = 100,
                           const std::string& extra_args = "") {
  namespace fs = std::filesystem;
  const std::string src = dir / ("src_" + name);
  for (const char* folder : {"a", "b", "c"}) {
    fs::create_directories(src + "/" + folder);
    for (const char* file : {"x.bin", "y.bin"}) {
      std::string bytes;
      for (int i = 0; i < repeat; ++i) bytes += std::string(folder) + "/" + file;
      testing::WriteFile(src + "/" + folder + "/" + file, bytes);
    }
  }
  testing::WriteFile(dir / "collection.json",
                     R"({"id": "rel", "dataset_version": "1", "description": "reliability tests",
                         "licenses": ["CC0-1.0"], "providers": [{"name": "taco-cpp"}], "tasks": ["other"]})");
  const std::string out = dir / name;
  auto r = testing::RunTaco("create " + testing::ShellQuote(src) + " " + testing::ShellQuote(out) + " --collection " +
                            testing::ShellQuote(dir / "collection.json") + " " + extra_args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return out;
}

// The data range of the FILE sample reached by `keys` (from its /vsisubfile/ path).
inline VsiSubfile RangeOf(const std::string& zip, const std::vector<SampleKey>& keys) {
  auto ds = Dataset::Open(zip);
  EXPECT_TRUE(ds.ok()) << ds.status().ToString();
  auto node = (*ds)->ReadPath(keys);
  EXPECT_TRUE(node.ok()) << node.status().ToString();
  auto ref = ParseVsiSubfile(node->gdal_path);
  EXPECT_TRUE(ref.has_value()) << node->gdal_path;
  return *ref;
}

}  // namespace taco::reliability

#endif  // TACO_TESTS_RELIABILITY_RELIABILITY_UTIL_H_
