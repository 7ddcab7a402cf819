// Issue 16 B, remotely: a FOLDER served over HTTP whose metadata holds ids that would leave
// the dataset on the server ('..' and its percent-encoded forms, which servers decode) is
// refused; nothing outside the dataset is fetched or printed.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "remote_env.h"
#include "table/engine.h"
#include "taco/io.h"

namespace taco::testing {
namespace {

namespace fs = std::filesystem;

// `dir`/METADATA/level0.parquet with the first id replaced.
void SetFirstId(const std::string& dir, const std::string& id) {
  const std::string path = dir + "/METADATA/level0.parquet";
  auto engine = std::move(table::Engine::Open()).value();
  Table t = engine->ReadParquet(*OpenLocalFile(path)).value();
  t.columns.at(static_cast<size_t>(t.FindColumn("id"))).values[0] = Value(id);
  WriteFile(path, engine->ToParquet(t).value());
}

TEST_F(RemoteTest, FolderIdsLeavingTheDatasetAreRefused) {
  WriteFile(e->Local("secret.txt"), "TOP-SECRET\n");
  struct Case {
    std::string name, id;
  };
  for (const Case& c : {Case{"evil_dots", "../../secret.txt"}, Case{"evil_percent", "%2e%2e%2f%2e%2e%2fsecret.txt"},
                        Case{"evil_query", "x?y"}}) {
    SCOPED_TRACE(c.id);
    const std::string local = e->Local(c.name);
    fs::remove_all(local);
    fs::copy(e->Local("ours_folder"), local, fs::copy_options::recursive);
    SetFirstId(local, c.id);
    for (const std::string cmd : {"cat", "read"}) {
      CommandResult r = RunTaco("--no-cache " + cmd + " " + ShellQuote(e->Url(c.name)) + " 0");
      EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
      EXPECT_NE(r.err.find("refused"), std::string::npos) << r.err;
      EXPECT_EQ(r.out.find("TOP-SECRET"), std::string::npos) << r.out;
    }
    CommandResult ls = RunTaco("--no-cache ls " + ShellQuote(e->Url(c.name)));
    EXPECT_EQ(ls.exit_code, 2) << ls.out << ls.err;
  }
  EXPECT_EQ(e->LogText().find("secret.txt 200"), std::string::npos) << e->LogText();
}

}  // namespace
}  // namespace taco::testing
