// A main() for the fuzz targets built without libFuzzer: runs every file named on the
// command line (directories: every regular file below them, in name order) through
// LLVMFuzzerTestOneInput once. Used by `make test` to replay fuzz/corpus/<target>/ and
// fuzz/regressions/<target>/; a crash, sanitizer report or failed check fails the test.
// Prints how many inputs ran.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

int main(int argc, char** argv) {
  if (LLVMFuzzerInitialize != nullptr) LLVMFuzzerInitialize(&argc, &argv);
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const fs::path p(argv[i]);
    if (fs::is_directory(p)) {
      for (const auto& e : fs::recursive_directory_iterator(p)) {
        if (e.is_regular_file() && e.path().filename().string()[0] != '.') files.push_back(e.path().string());
      }
    } else if (fs::exists(p)) {
      files.push_back(p.string());
    } else {
      std::fprintf(stderr, "replay: %s does not exist\n", argv[i]);
      return 2;
    }
  }
  std::sort(files.begin(), files.end());
  for (const std::string& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::fprintf(stderr, "replay: %s (%zu bytes)\n", f.c_str(), bytes.size());
    // A copy of exactly `size` bytes on the heap, so that ASan sees reads past the end.
    std::vector<uint8_t> copy(bytes.begin(), bytes.end());
    uint8_t* data = copy.empty() ? nullptr : copy.data();
    LLVMFuzzerTestOneInput(data, copy.size());
  }
  std::printf("replay: %zu inputs ran\n", files.size());
  return 0;
}
