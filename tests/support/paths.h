// Shared helpers for tests: where fixtures are, scratch directories, running the CLI.
#ifndef TACO_TESTS_SUPPORT_PATHS_H_
#define TACO_TESTS_SUPPORT_PATHS_H_

#include <string>

namespace taco::testing {

// BUILD/fixtures/upstream, written by ctest's upstream_fixtures step; TACO_FIXTURES overrides.
std::string UpstreamFixtures();

// A fresh directory under the system temp dir, removed (recursively) on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs `command` with /bin/sh, capturing stdout and stderr separately.
CommandResult RunCommand(const std::string& command);
// Runs the built `taco` executable with `args` (already shell-quoted as needed);
// TACO_CLI_UNDER_TEST=/path/to/taco runs another build instead (e.g. to show that a CLI test
// fails on an older `taco`).
CommandResult RunTaco(const std::string& args);
// Single-quotes `s` for /bin/sh.
std::string ShellQuote(const std::string& s);

void WriteFile(const std::string& path, const std::string& bytes);
std::string ReadFile(const std::string& path);

}  // namespace taco::testing

#endif  // TACO_TESTS_SUPPORT_PATHS_H_
