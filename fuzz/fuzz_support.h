// Helpers shared by the fuzz targets (fuzz/targets/*_fuzz.cc).
//
// Every target defines LLVMFuzzerTestOneInput(data, size). Built with clang and libFuzzer
// (`make fuzz`) it is a coverage-guided fuzzer; built with replay_main.cc (every build of
// the tests) it is a plain executable that runs each file it is given through the target
// once, so that `make test` replays the seed corpus and every past crasher.
//
// A target reports a bug by crashing: a sanitizer report, an uncaught exception, or
// FUZZ_CHECK failing (the library returned something that breaks its own contract).
#ifndef TACO_FUZZ_FUZZ_SUPPORT_H_
#define TACO_FUZZ_FUZZ_SUPPORT_H_

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

#define FUZZ_CHECK(cond)                                                                 \
  do {                                                                                   \
    if (!(cond)) {                                                                       \
      std::fprintf(stderr, "%s:%d: FUZZ_CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                      \
    }                                                                                    \
  } while (0)

namespace taco::fuzz {

inline std::string_view AsView(const uint8_t* data, size_t size) { return {reinterpret_cast<const char*>(data), size}; }

// A directory of this process for files a target must put on disk (removed at exit).
inline const std::string& ScratchDir() {
  static const std::string dir = [] {
    const char* base = std::getenv("TMPDIR");
    std::string root = (base != nullptr && *base != '\0') ? base : "/tmp";
    if (std::filesystem::is_directory("/dev/shm")) root = "/dev/shm";
    std::string d = root + "/taco-fuzz-" + std::to_string(::getpid());
    std::filesystem::create_directories(d);
    static struct Cleanup {
      std::string path;
      ~Cleanup() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
      }
    } cleanup{d};
    return d;
  }();
  return dir;
}

// Writes `bytes` to ScratchDir()/name and returns the path.
inline std::string WriteScratchFile(const std::string& name, std::string_view bytes) {
  const std::string path = ScratchDir() + "/" + name;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  FUZZ_CHECK(f != nullptr);
  FUZZ_CHECK(bytes.empty() || std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size());
  FUZZ_CHECK(std::fclose(f) == 0);
  return path;
}

// Splits the input at the first occurrence of `separator` (for targets taking two inputs).
inline std::pair<std::string_view, std::string_view> SplitOnce(std::string_view in, std::string_view separator) {
  const size_t at = in.find(separator);
  if (at == std::string_view::npos) return {in, {}};
  return {in.substr(0, at), in.substr(at + separator.size())};
}

}  // namespace taco::fuzz

#endif  // TACO_FUZZ_FUZZ_SUPPORT_H_
