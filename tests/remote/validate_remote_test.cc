// `taco validate` against servers that misbehave: the server is named as the cause, never
// the dataset's files reported missing.
#include <string>

#include "remote_env.h"

namespace taco::testing {
namespace {

TEST_F(RemoteTest, ValidateNamesAServerThatIgnoresRangeAsTheCause) {
  // A ZIP needs ranges (the demo ZIP is too large to come whole with the first request):
  // the server is named as the cause, never the dataset's members reported missing.
  const std::string url = e->FaultUrl("norange", "demo/demo.tacozip");
  CommandResult r = RunTaco("--no-cache validate " + ShellQuote(url));
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.find("missing"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("the server ignored the Range request"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(url), std::string::npos) << r.err;
  EXPECT_EQ(r.err.rfind("taco: ", 0), 0u) << r.err;
}

TEST_F(RemoteTest, ValidateOfARemoteFolderWorksThroughAServerThatIgnoresRange) {
  // A FOLDER's files are whole files: fetched whole, once, as the other commands do (issue
  // 29.9: validate failed where info, sql and cat worked).
  for (const std::string rel : {"folder/nested", "ours3_folder"}) {
    SCOPED_TRACE(rel);
    CommandResult r = RunTaco("--no-cache validate " + ShellQuote(e->FaultUrl("norange", rel)));
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("valid folder dataset"), std::string::npos) << r.out;
    CommandResult ok = RunTaco("--no-cache validate " + ShellQuote(e->FaultUrl("ok", rel)));
    EXPECT_EQ(ok.exit_code, 0) << ok.out << ok.err;
    EXPECT_EQ(r.out, std::string(ok.out).replace(ok.out.find("/ok/"), 4, "/norange/")) << ok.out;
  }
}

TEST_F(RemoteTest, ValidateOfARemoteFolderStopsAtAFileTheServerRefuses) {
  // 403 on every file: not "missing", a failure to read naming the status.
  const std::string url = e->FaultUrl("403", "folder/nested");
  CommandResult r = RunTaco("--no-cache validate " + ShellQuote(url));
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("403"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("missing"), std::string::npos) << r.err;
}

TEST_F(RemoteTest, VerboseShowsEveryRequestWithRangeStatusBytesAndTime) {
  const std::string url = e->Url("zip/nested/nested.tacozip");
  CommandResult r = RunTaco("--no-cache -v info " + ShellQuote(url));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // nested.tacozip (29926 bytes): the first 16 KiB, then the metadata members.
  EXPECT_NE(r.err.find("] GET " + url + " bytes 0-16383: HTTP 206, 16384 bytes, "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("] opened " + url + ": zip, 2 levels, "), std::string::npos) << r.err;
  size_t gets = 0;
  for (size_t at = r.err.find("] GET "); at != std::string::npos; at = r.err.find("] GET ", at + 1)) ++gets;
  EXPECT_EQ(gets, 2u) << r.err;
  // A failed request is shown with its failure.
  CommandResult bad = RunTaco("--no-cache -v info " + ShellQuote(e->FaultUrl("404", "zip/flat/flat.tacozip")));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find(": HTTP 404, "), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace taco::testing
