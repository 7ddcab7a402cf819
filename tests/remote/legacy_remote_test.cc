// Remote Tortilla / TACO v1 files (spec/LEGACY.md) against nginx: header + footer in at most
// 2 requests per part, one request per sample, the same answers as local.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "remote_env.h"
#include "taco/dataset.h"
#include "taco/io.h"
#include "taco/legacy.h"

namespace taco::testing {
namespace {

namespace fs = std::filesystem;

// legacy/big.taco (3 FOLDERs of 2 FILEs of 30,000 bytes: the footer lies beyond the first
// 64 KiB) and legacy/parts.NNNN.part.taco (one FOLDER per part), written by `taco create`.
void MakeLegacy(RemoteEnv* e) {
  if (fs::exists(e->Local("legacy/big.taco"))) return;
  TempDir src;
  for (int i = 0; i < 3; ++i) {
    fs::create_directories(src / (std::string("r") + std::to_string(i)));
    WriteFile(src / (std::string("r") + std::to_string(i) + "/a.bin"), std::string(30000, static_cast<char>('a' + i)));
    WriteFile(src / (std::string("r") + std::to_string(i) + "/b.bin"), std::string(30000, static_cast<char>('A' + i)));
  }
  WriteFile(src / "c.json", R"({"id": "big", "dataset_version": "1", "description": "d", "licenses": ["MIT"],
    "providers": [{"name": "me"}], "tasks": ["classification"]})");
  fs::create_directories(e->Local("legacy"));
  const std::string tree = src.path() + "/tree";
  fs::create_directories(tree);
  for (int i = 0; i < 3; ++i) fs::rename(src / (std::string("r") + std::to_string(i)), tree + "/r" + std::to_string(i));
  CommandResult r = RunTaco("create " + ShellQuote(tree) + " " + ShellQuote(e->Local("legacy/big.taco")) +
                            " --format taco-v1 --collection " + ShellQuote(src / "c.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunTaco("create " + ShellQuote(tree) + " " + ShellQuote(e->Local("legacy/parts.taco")) +
              " --format taco-v1 --part-size 70000 --collection " + ShellQuote(src / "c.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
}

TEST_F(RemoteTest, LegacyHeaderAndFooterInAtMostTwoRequests) {
  MakeLegacy(e);
  std::unique_ptr<Dataset> remote;
  const size_t n = Count([&] {
    auto ds = Dataset::Open(e->Url("legacy/big.taco"), NoCache());
    ASSERT_TRUE(ds.ok()) << ds.status().ToString();
    remote = std::move(*ds);
  });
  // The first 64 KiB (the header, and the first nested tortilla's header and footer), the top
  // footer with the COLLECTION; then at most a header and a footer per other nested tortilla.
  EXPECT_LE(n, 2u + 2u * 2u) << e->LogText();
  EXPECT_EQ(remote->legacy()->Describe(), "TACO v1 (WX)");
  EXPECT_EQ(*remote->RowCount(), 3);
  EXPECT_EQ(remote->num_levels(), 2);
  auto node = remote->ReadPath({SampleKey(std::string("r2")), SampleKey(std::string("b.bin"))});
  ASSERT_TRUE(node.ok()) << node.status().ToString();
  const auto [bytes, requests] = ReadCounted(*remote, *node);
  EXPECT_EQ(bytes, std::string(30000, 'C'));
  EXPECT_EQ(requests, 1u);

  // A flat file bigger than 64 KiB: exactly 2 requests (first bytes, then footer + COLLECTION).
  TempDir flat, meta;
  WriteFile(flat / "x.bin", std::string(90000, 'x'));
  WriteFile(flat / "y.bin", std::string(10, 'y'));
  WriteFile(meta / "c.json", R"({"id": "flat", "dataset_version": "1", "description": "d",
    "licenses": ["MIT"], "providers": [{"name": "me"}], "tasks": ["classification"]})");
  CommandResult r = RunTaco("create " + ShellQuote(flat.path()) + " " + ShellQuote(e->Local("legacy/flat.taco")) +
                            " --format taco-v1 --collection " + ShellQuote(meta / "c.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const size_t flat_requests = Count([&] {
    auto ds = Dataset::Open(e->Url("legacy/flat.taco"), NoCache());
    ASSERT_TRUE(ds.ok()) << ds.status().ToString();
    EXPECT_EQ(*(*ds)->RowCount(), 2);
  });
  EXPECT_EQ(flat_requests, 2u) << e->LogText();
}

TEST_F(RemoteTest, LegacyPartsAndCommandsMatchLocal) {
  MakeLegacy(e);
  auto ds = Dataset::Open(e->Url("legacy/parts.0001.part.taco"), NoCache());
  ASSERT_TRUE(ds.ok()) << ds.status().ToString();
  EXPECT_EQ((*ds)->legacy()->Describe(), "TACO v1 (WX), 3 parts");
  EXPECT_EQ(*(*ds)->RowCount(), 3);
  for (const char* rel : {"legacy/big.taco", "legacy/parts.0000.part.taco"}) {
    SCOPED_TRACE(rel);
    const std::string local = e->Local(rel);
    const std::string url = e->Url(rel);
    const std::string local_root = ToVsiPath(local).substr(0, ToVsiPath(local).find_last_of('/'));
    const std::string url_root = ToVsiPath(url).substr(0, ToVsiPath(url).find_last_of('/'));
    const std::string local_dir = local.substr(0, local.find_last_of('/'));
    const std::string url_dir = url.substr(0, url.find_last_of('/'));
    for (const std::string& args : {std::string("info"), std::string("ls"), std::string("sql"),
                                    std::string("read r1 a.bin"), std::string("cat r0 b.bin")}) {
      SCOPED_TRACE(args);
      const auto [a, b] = RunOnLocalAndUrl(args, local, url);
      EXPECT_EQ(DropGdalVsiColumn(Replace(Replace(a, local_root, "<ROOT>"), local_dir, "<ROOT>")),
                DropGdalVsiColumn(Replace(Replace(b, url_root, "<ROOT>"), url_dir, "<ROOT>")));
    }
  }
}

}  // namespace
}  // namespace taco::testing
