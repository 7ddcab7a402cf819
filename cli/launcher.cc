// The `taco` executable: a launcher linked against libc and libstdc++ only (issue 28). The
// commands live in libtaco_cli.so (cli/main.cc's taco_cli_main and the cmd_*.cc files), which
// links the library, DuckDB, GDAL and curl: loading those (about 115 shared objects and
// 250,000 relocations) costs tens of milliseconds of CPU before main() runs, so the launcher
// answers `taco --version` and `taco --help` / `-h` itself and loads the library for
// everything else.
//
// Contract:
//  * `taco --version`, `taco --help` and `taco -h` (exactly one argument) print what
//    taco_cli_main prints for them, byte for byte: the version from taco/version.h, the help
//    text captured from libtaco_cli.so at build time (cli/help_text.cmake; ctest
//    cli_launcher compares both with the library's answer).
//  * Anything else: libtaco_cli.so is loaded from the executable's directory, or from
//    ../lib next to it (an installed layout), and taco_cli_main(argc, argv) runs; its
//    result is the exit code. When it cannot be loaded: "taco: cannot load <path>: <why>"
//    on stderr and exit 2.
//  * Output that cannot be written (a full disk, a closed stdout) fails as in main.cc:
//    "taco: writing output: <why>", exit 2.
#include <dlfcn.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "taco/version.h"

#ifdef TACO_LAUNCHER_HELP_TEXT
#include <help_text.inc>  // generated into the build tree: kHelpText, the library's `taco --help`
#endif

namespace {

constexpr int kExitOk = 0;
constexpr int kExitBadInput = 2;
constexpr const char* kLibraryName = "libtaco_cli.so";

// Writes `text` to stdout and checks that it arrived (main.cc's CheckedOutput).
int PrintChecked(const std::string& text) {
  errno = 0;
  bool failed = std::fwrite(text.data(), 1, text.size(), stdout) != text.size();
  int error = errno;
  if (std::fflush(stdout) != 0) {
    failed = true;
    if (error == 0) error = errno;
  }
  if (!failed && std::ferror(stdout) == 0) return kExitOk;
  std::fprintf(stderr, "taco: writing output: %s\n", std::strerror(error != 0 ? error : EIO));
  return kExitBadInput;
}

// The directory of the running executable ("" when /proc/self/exe cannot be read).
std::string ExecutableDirectory() {
  std::vector<char> buffer(4096);
  const ssize_t n = readlink("/proc/self/exe", buffer.data(), buffer.size());
  if (n <= 0 || static_cast<size_t>(n) >= buffer.size()) return "";
  std::string path(buffer.data(), static_cast<size_t>(n));
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

using CliMain = int (*)(int, char**);

// Loads libtaco_cli.so: next to the executable, else in ../lib. Reports why it failed.
CliMain LoadCli() {
  const std::string dir = ExecutableDirectory();
  const std::vector<std::string> candidates = {dir + "/" + kLibraryName, dir + "/../lib/" + kLibraryName};
  // The first candidate that exists is the one to load (and to name in an error); when none
  // exists, the error names the first.
  std::string path = candidates.front();
  for (const std::string& candidate : candidates) {
    if (access(candidate.c_str(), F_OK) == 0) {
      path = candidate;
      break;
    }
  }
  // RTLD_LAZY binds functions on first call, as the dynamic loader did for the executable
  // that linked the library directly.
  void* handle = dlopen(path.c_str(), RTLD_LAZY | RTLD_LOCAL);
  const char* error = nullptr;
  if (handle == nullptr) {
    error = dlerror();
  } else if (void* entry = dlsym(handle, "taco_cli_main"); entry != nullptr) {
    return reinterpret_cast<CliMain>(entry);
  } else {
    error = dlerror();
  }
  std::string why = error != nullptr ? error : "unknown error";
  if (why.rfind(path + ": ", 0) == 0) why.erase(0, path.size() + 2);  // dlerror() names the path too
  std::fprintf(stderr, "taco: cannot load %s: %s\n", path.c_str(), why.c_str());
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2) {
    const std::string arg = argv[1];
    if (arg == "--version") return PrintChecked(std::string("taco ") + taco::kLibraryVersion + "\n");
#ifdef TACO_LAUNCHER_HELP_TEXT
    if (arg == "--help" || arg == "-h") return PrintChecked(std::string(kHelpText, sizeof(kHelpText) - 1));
#endif
  }
  CliMain cli_main = LoadCli();
  if (cli_main == nullptr) return kExitBadInput;
  return cli_main(argc, argv);
}
