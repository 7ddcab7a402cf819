#include "support/paths.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace fs = std::filesystem;

namespace taco::testing {

std::string UpstreamFixtures() {
  if (const char* env = std::getenv("TACO_FIXTURES")) return env;
  return TACO_UPSTREAM_FIXTURES;
}

TempDir::TempDir() {
  std::string tmpl = (fs::temp_directory_path() / "taco-test-XXXXXX").string();
  if (mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  path_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!f) throw std::runtime_error("cannot write " + path);
}

std::string ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot read " + path);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

CommandResult RunCommand(const std::string& command) {
  TempDir tmp;
  std::string out_path = tmp / "out", err_path = tmp / "err";
  std::string full = "(" + command + ") >" + ShellQuote(out_path) + " 2>" + ShellQuote(err_path) + " </dev/null";
  int rc = std::system(full.c_str());
  CommandResult r;
  r.exit_code = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  r.out = ReadFile(out_path);
  r.err = ReadFile(err_path);
  return r;
}

CommandResult RunTaco(const std::string& args) {
  const char* other = std::getenv("TACO_CLI_UNDER_TEST");
  return RunCommand(ShellQuote(other != nullptr && *other != '\0' ? other : TACO_CLI_PATH) + " " + args);
}

}  // namespace taco::testing
