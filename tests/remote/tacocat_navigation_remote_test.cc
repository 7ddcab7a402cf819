// Navigation into the FOLDERs of a remote TACOCAT costs no request (issue 28): the children
// come from the consolidated levels fetched when the dataset was opened, not from the part's
// `__meta__`; they equal the local dataset's, and a FILE's bytes still cost one request.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "remote_env.h"
#include "taco/dataset.h"
#include "taco/io.h"

namespace taco::testing {
namespace {

const char* kForms[] = {"cat/.tacocat", "cat1/__TACOCAT__"};

// `rows` with every `internal:gdal_vsi` value's `from` replaced by `to`.
Table WithRoot(Table rows, const std::string& from, const std::string& to) {
  const int c = rows.FindColumn("internal:gdal_vsi");
  if (c < 0) return rows;
  for (Value& v : rows.columns[static_cast<size_t>(c)].values) {
    if (v.is<std::string>()) v = Value(Replace(v.get<std::string>(), from, to));
  }
  return rows;
}

void ExpectSameRows(const Table& a, const Table& b) {
  ASSERT_EQ(a.columns.size(), b.columns.size());
  for (size_t c = 0; c < a.columns.size(); ++c) {
    EXPECT_EQ(a.columns[c].name, b.columns[c].name);
    EXPECT_TRUE(a.columns[c].values == b.columns[c].values) << a.columns[c].name;
  }
}

class TacocatNavigationRemoteTest : public RemoteTest {
 protected:
  // Row `i` of `ds` and the FOLDER at {i, j} below it, and the requests the two reads cost.
  struct RowAndFolder {
    Result<Node> row = Status::Internal("not read");
    Result<Node> folder = Status::Internal("not read");
    size_t requests = 0;
  };
  RowAndFolder ReadRowAndFolder(Dataset& ds, int64_t i, int64_t j) {
    RowAndFolder out;
    out.requests = Count([&] {
      out.row = ds.Read(i);
      out.folder = ds.ReadPath({i, j});
    });
    return out;
  }
};

TEST_F(TacocatNavigationRemoteTest, FoldersAtEveryLevelCostNoRequest) {
  for (const std::string rel : kForms) {
    SCOPED_TRACE(rel);
    const std::string dir = rel.substr(0, rel.find('/'));
    auto local = Dataset::Open(e->Local(rel));
    ASSERT_TRUE(local.ok()) << local.status().ToString();
    auto remote = Dataset::Open(e->Url(rel), NoCache());
    ASSERT_TRUE(remote.ok()) << remote.status().ToString();
    // Level 0: r0, r1 of part_a then of part_b; each holds t0, t1, each holding f0, f1.
    for (int64_t i = 0; i < 4; ++i) {
      for (int64_t j = 0; j < 2; ++j) {
        SCOPED_TRACE("@" + std::to_string(i) + " @" + std::to_string(j));
        auto [a, folder, requests] = ReadRowAndFolder(**remote, i, j);
        ASSERT_TRUE(a.ok()) << a.status().ToString();
        ASSERT_TRUE(folder.ok()) << folder.status().ToString();
        EXPECT_EQ(requests, 0u);
        auto b = (*local)->Read(i);
        auto local_folder = (*local)->ReadPath({i, j});
        ASSERT_TRUE(b.ok() && local_folder.ok());
        const std::string from = ToVsiPath(e->Url(dir)), to = e->Local(dir);
        ExpectSameRows(WithRoot(a->children->rows(), from, to), b->children->rows());
        ExpectSameRows(WithRoot(folder->children->rows(), from, to), local_folder->children->rows());
        // A FILE below: its bytes, one request.
        Result<Node> file = folder->children->Read(int64_t{1});
        ASSERT_TRUE(file.ok()) << file.status().ToString();
        const auto [bytes, cost] = ReadCounted(**remote, *file);
        EXPECT_EQ(cost, 1u);
        const int part = static_cast<int>(i / 2), r = static_cast<int>(i % 2);
        EXPECT_EQ(bytes, std::string(20000, static_cast<char>(Ours3Byte(r, static_cast<int>(j), 1) + 8 * part)));
      }
    }
  }
}

// A concat of both remote TACOCATs navigates into its FOLDERs without a request too (each
// source's levels were fetched when it was opened), with the local concat's rows.
TEST_F(TacocatNavigationRemoteTest, ConcatFoldersCostNoRequest) {
  auto local = Dataset::OpenList({e->Local(kForms[0]), e->Local(kForms[1])});
  ASSERT_TRUE(local.ok()) << local.status().ToString();
  auto remote = Dataset::OpenList({e->Url(kForms[0]), e->Url(kForms[1])}, NoCache());
  ASSERT_TRUE(remote.ok()) << remote.status().ToString();
  for (int64_t i = 0; i < 8; ++i) {
    for (int64_t j = 0; j < 2; ++j) {
      SCOPED_TRACE("@" + std::to_string(i) + " @" + std::to_string(j));
      auto [a, folder, requests] = ReadRowAndFolder(**remote, i, j);
      ASSERT_TRUE(a.ok()) << a.status().ToString();
      ASSERT_TRUE(folder.ok()) << folder.status().ToString();
      EXPECT_EQ(requests, 0u);
      auto b = (*local)->Read(i);
      auto local_folder = (*local)->ReadPath({i, j});
      ASSERT_TRUE(b.ok() && local_folder.ok());
      auto local_paths = [&](const Table& rows) {
        Table out = rows;
        for (const std::string dir : {"cat", "cat1"}) out = WithRoot(out, ToVsiPath(e->Url(dir)), e->Local(dir));
        return out;
      };
      ExpectSameRows(local_paths(a->children->rows()), b->children->rows());
      ExpectSameRows(local_paths(folder->children->rows()), local_folder->children->rows());
      Result<Node> file = folder->children->Read(int64_t{1});
      ASSERT_TRUE(file.ok()) << file.status().ToString();
      const auto [bytes, cost] = ReadCounted(**remote, *file);
      EXPECT_EQ(cost, 1u);
      const int part = static_cast<int>(i % 4 / 2), r = static_cast<int>(i % 2);
      EXPECT_EQ(bytes, std::string(20000, static_cast<char>(Ours3Byte(r, static_cast<int>(j), 1) + 8 * part)));
    }
  }
}

// `taco --no-cache ls URL KEY…` costs what `taco --no-cache ls URL` costs, and prints what
// the local dataset prints.
TEST_F(TacocatNavigationRemoteTest, LsIntoAFolderCostsWhatLsCosts) {
  for (const std::string rel : kForms) {
    SCOPED_TRACE(rel);
    const std::string url = ShellQuote(e->Url(rel));
    CommandResult top, folder, deeper;
    const size_t top_requests = Count([&] { top = RunTaco("--no-cache ls " + url); });
    const size_t folder_requests = Count([&] { folder = RunTaco("--no-cache ls " + url + " @2"); });
    const size_t deeper_requests = Count([&] { deeper = RunTaco("--no-cache ls " + url + " @3 t1"); });
    ASSERT_EQ(top.exit_code, 0) << top.err;
    ASSERT_EQ(folder.exit_code, 0) << folder.err;
    ASSERT_EQ(deeper.exit_code, 0) << deeper.err;
    EXPECT_GT(top_requests, 0u);
    EXPECT_EQ(folder_requests, top_requests);
    EXPECT_EQ(deeper_requests, top_requests);
    const std::string dir = rel.substr(0, rel.find('/'));
    for (const std::string keys : {"@2", "@3 t1"}) {
      const auto [a, b] = RunOnLocalAndUrl("ls " + keys, e->Local(rel), e->Url(rel));
      EXPECT_EQ(DropGdalVsiColumn(a), DropGdalVsiColumn(b));
      EXPECT_NE(a.find(keys == "@2" ? "t0" : "f1.bin"), std::string::npos) << a;
    }
  }
}

}  // namespace
}  // namespace taco::testing
