// The shared environment of the remote tests (test_remote): nginx over a copy of the
// upstream fixtures and of datasets written by our writer, a fault-injecting Python server,
// and the RemoteTest fixture that counts the requests nginx logs. Started once per test
// binary (remote_env_impl_test.cc) on free 127.0.0.1 ports and stopped at exit; every test
// skips with the reason when a server or a dataset could not be made.
//
// Datasets under Local("") == <www>/bucket/, besides the upstream fixtures (zip/, folder/):
//   ours.tacozip, ours_folder/    one level: FILE samples s0.bin..s2.bin of 20,000 bytes
//                                 of 'a', 'b', 'c' (the metadata lies beyond the first
//                                 16 KiB: two requests to open the ZIP).
//   ours3.tacozip, ours3_folder/  3 levels: FOLDERs r0,r1 / FOLDERs t0,t1 / FILEs f0.bin,
//                                 f1.bin of 20,000 bytes; r<i>/t<j>/f<k> is filled with
//                                 Ours3Byte(i, j, k).
//   cat/part_a.tacozip, cat/part_b.tacozip
//                                 two 3-level ZIPs shaped like ours3 (part_b's bytes are
//                                 Ours3Byte(i, j, k) + 8), consolidated into cat/.tacocat/
//                                 and cat1/__TACOCAT__ (whose ZIPs are cat1/part_*.tacozip).
//   demo/demo.tacozip, demo/demo/ `taco demo`: 2 levels, tiles of GeoTIFF FILEs
//                                 (before.tif, after.tif, label.tif) for GDAL.
#ifndef TACO_TESTS_REMOTE_REMOTE_ENV_H_
#define TACO_TESTS_REMOTE_REMOTE_ENV_H_

#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "servers.h"
#include "support/paths.h"
#include "taco/dataset.h"

namespace taco::testing {

// The non-empty lines of `text` (an access log), and lines joined back for messages.
inline std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}
inline std::string Joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

inline char Ours3Byte(int i, int j, int k) { return static_cast<char>('a' + 4 * i + 2 * j + k); }

class RemoteEnv : public ::testing::Environment {
 public:
  static RemoteEnv* env;
  std::unique_ptr<TempDir> dir;
  std::string www, log, fault_log, skip_reason;
  ServerProcess nginx, faults;

  std::string Url(const std::string& rel) const {
    return "http://127.0.0.1:" + std::to_string(nginx.port()) + "/bucket/" + rel;
  }
  std::string FaultUrl(const std::string& mode, const std::string& rel) const {
    return "http://127.0.0.1:" + std::to_string(faults.port()) + "/" + mode + "/" + rel;
  }
  std::string Local(const std::string& rel) const { return www + "/bucket/" + rel; }
  // Servers write a log line after the response has gone out, so a client can see its
  // answer before the line exists: count once the log has stopped growing (bounded wait).
  static size_t SettledLines(const std::string& path);
  size_t Requests() const { return SettledLines(log); }
  size_t FaultRequests() const { return SettledLines(fault_log); }
  // The request lines nginx logged (one per request, "METHOD path status bytes range").
  std::string LogText() const;

  void SetUp() override;
  void TearDown() override;

 private:
  void MakeDatasets();
  void StartServers();
};

class RemoteTest : public ::testing::Test {
 protected:
  void SetUp() override;
  // Requests nginx logged while `fn` ran.
  template <typename F>
  size_t Count(F&& fn) {
    const size_t before = e->Requests();
    fn();
    return e->Requests() - before;
  }
  // Reads a FILE node's bytes (failing the test when it cannot) and counts the requests it
  // cost: {bytes, requests}.
  std::pair<std::string, size_t> ReadCounted(const Dataset& ds, const Node& node);
  static OpenOptions NoCache() {
    OpenOptions o;
    o.use_cache = false;
    return o;
  }
  RemoteEnv* e = nullptr;
};

// Text tables cut long cells, so the `internal:gdal_vsi` column (the only one that names the
// location) is dropped from every line of a table that has it.
std::string DropGdalVsiColumn(const std::string& text);
// `taco --no-cache <command> <path> [keys…]` on `local` and on `url`, for `args` =
// "<command> [keys…]" ("sql" runs 'SELECT * FROM data ORDER BY 1'). Both must exit 0 with
// output (else the test fails). Returns {local output, url output}.
std::pair<std::string, std::string> RunOnLocalAndUrl(const std::string& args, const std::string& local,
                                                     const std::string& url);
// `s` with every `from` replaced by `to`.
std::string Replace(std::string s, const std::string& from, const std::string& to);

}  // namespace taco::testing

#endif  // TACO_TESTS_REMOTE_REMOTE_ENV_H_
