// Helpers shared by the src/zip tests: raw byte access, GDAL VSI reads, external checkers.
#ifndef TACO_TESTS_ZIP_ZIP_TEST_UTIL_H_
#define TACO_TESTS_ZIP_ZIP_TEST_UTIL_H_

#include <cpl_vsi.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <string>

#include "support/paths.h"

namespace taco::zip::testing {

inline uint32_t U32At(const std::string& bytes, size_t pos) {
  const auto* b = reinterpret_cast<const unsigned char*>(bytes.data() + pos);
  return b[0] | (b[1] << 8) | (b[2] << 16) | (static_cast<uint32_t>(b[3]) << 24);
}
inline uint16_t U16At(const std::string& bytes, size_t pos) {
  const auto* b = reinterpret_cast<const unsigned char*>(bytes.data() + pos);
  return static_cast<uint16_t>(b[0] | (b[1] << 8));
}

// `n` bytes of the local file `path` at `offset` (pread; fine for sparse multi-GiB files).
inline std::string PreadFile(const std::string& path, uint64_t offset, size_t n) {
  std::string out(n, '\0');
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return "<cannot open>";
  const ssize_t r = ::pread(fd, out.data(), n, static_cast<off_t>(offset));
  ::close(fd);
  out.resize(r < 0 ? 0 : static_cast<size_t>(r));
  return out;
}

// `n` bytes at `offset` of a GDAL virtual file, or "<vsi error: ...>".
inline std::string VsiRead(const std::string& vsi_path, uint64_t offset, size_t n) {
  VSILFILE* f = VSIFOpenL(vsi_path.c_str(), "rb");
  if (f == nullptr) return "<vsi error: cannot open " + vsi_path + ">";
  std::string out(n, '\0');
  size_t got = 0;
  if (VSIFSeekL(f, offset, SEEK_SET) == 0) got = VSIFReadL(out.data(), 1, n, f);
  VSIFCloseL(f);
  out.resize(got);
  return out;
}

inline std::string VsiZipPath(const std::string& zip, const std::string& member) {
  return "/vsizip/{" + zip + "}/" + member;
}
inline std::string VsiSubfilePath(const std::string& zip, uint64_t offset, uint64_t size) {
  return "/vsisubfile/" + std::to_string(offset) + "_" + std::to_string(size) + "," + zip;
}

// `unzip -t -qq` on `zip`: "" when it passes, otherwise its output.
inline std::string UnzipTest(const std::string& zip) {
  auto r = taco::testing::RunCommand("unzip -t -qq " + taco::testing::ShellQuote(zip));
  if (r.exit_code == 0) return "";
  return "exit " + std::to_string(r.exit_code) + ": " + r.out.substr(0, 2000) + r.err.substr(0, 2000);
}

// Python zipfile: testzip() (every CRC) plus `extra` statements with `z` open; "" on success.
inline std::string PythonZipCheck(const std::string& zip, const std::string& extra = "") {
  const std::string script = "import zipfile,sys\nz=zipfile.ZipFile(sys.argv[1])\nassert z.testzip() is None\n" + extra;
  auto r = taco::testing::RunCommand("/usr/bin/python3 -c " + taco::testing::ShellQuote(script) + " " +
                                     taco::testing::ShellQuote(zip));
  if (r.exit_code == 0) return "";
  return "exit " + std::to_string(r.exit_code) + ": " + r.out.substr(0, 2000) + r.err.substr(0, 2000);
}

}  // namespace taco::zip::testing

#endif  // TACO_TESTS_ZIP_ZIP_TEST_UTIL_H_
