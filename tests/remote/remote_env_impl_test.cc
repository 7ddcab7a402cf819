// RemoteEnv and RemoteTest: see remote_env.h. (Named *_test.cc so that the tests/ glob
// compiles it into test_remote; it holds no tests.)
#include "remote_env.h"

#include <cpl_conv.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

namespace taco::testing {
namespace {

namespace fs = std::filesystem;

const char* kNginx = "/usr/sbin/nginx";

const char* kCollection = R"({"id": "remote", "dataset_version": "0.1.0", "description": "remote tests",
  "licenses": ["CC-BY-4.0"], "providers": [{"name": "tests", "roles": ["producer"]}], "tasks": ["other"]})";

// r<i>/t<j>/f<k>.bin under `root`, 20,000 bytes of Ours3Byte(i, j, k) + shift.
void WriteThreeLevelTree(const std::string& root, int shift) {
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 2; ++j) {
      const std::string d = root + "/r" + std::to_string(i) + "/t" + std::to_string(j);
      fs::create_directories(d);
      for (int k = 0; k < 2; ++k) {
        WriteFile(d + "/f" + std::to_string(k) + ".bin",
                  std::string(20000, static_cast<char>(Ours3Byte(i, j, k) + shift)));
      }
    }
  }
}

}  // namespace

RemoteEnv* RemoteEnv::env = static_cast<RemoteEnv*>(::testing::AddGlobalTestEnvironment(new RemoteEnv));

size_t RemoteEnv::SettledLines(const std::string& path) {
  size_t last = ServerProcess::CountLines(path);
  for (int i = 0; i < 40; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
    const size_t now = ServerProcess::CountLines(path);
    if (now == last && i >= 1) return now;
    last = now;
  }
  return last;
}

std::string RemoteEnv::LogText() const {
  SettledLines(log);
  return ReadFile(log);
}

void RemoteEnv::SetUp() {
  dir = std::make_unique<TempDir>();
  www = *dir / "www";
  log = *dir / "access.log";
  fault_log = *dir / "faults.log";
  fs::create_directories(www + "/bucket");
  fs::copy(UpstreamFixtures(), www + "/bucket", fs::copy_options::recursive);
  MakeDatasets();
  if (!skip_reason.empty()) return;
  StartServers();
  ::setenv("TACO_CACHE_DIR", (*dir / "cache").c_str(), 1);
}

void RemoteEnv::MakeDatasets() {
  const std::string collection = *dir / "collection.json";
  WriteFile(collection, kCollection);
  const std::string opts = " --collection " + ShellQuote(collection);
  auto create = [&](const std::string& src, const std::string& out) {
    CommandResult made = RunTaco("create " + ShellQuote(src) + " " + ShellQuote(out) + opts);
    if (made.exit_code != 0 && skip_reason.empty()) skip_reason = "taco create " + out + " failed: " + made.err;
  };
  // One level of three 20 KB FILEs, so that the metadata lies beyond the first 16 KiB.
  const std::string src = *dir / "src";
  fs::create_directories(src);
  for (int i = 0; i < 3; ++i) WriteFile(src + "/s" + std::to_string(i) + ".bin", std::string(20000, char('a' + i)));
  create(src, Local("ours.tacozip"));
  create(src, Local("ours_folder"));
  // Three levels.
  const std::string src3 = *dir / "src3";
  WriteThreeLevelTree(src3, 0);
  create(src3, Local("ours3.tacozip"));
  create(src3, Local("ours3_folder"));
  // Real GeoTIFF samples (ZIP and FOLDER) for GDAL.
  CommandResult demo = RunTaco("demo " + ShellQuote(Local("demo")));
  if (demo.exit_code != 0 && skip_reason.empty()) skip_reason = "taco demo failed: " + demo.err;
  // Two parts of the same schema, consolidated both ways.
  const std::string src3b = *dir / "src3b";
  WriteThreeLevelTree(src3b, 8);
  for (const std::string cat : {"cat", "cat1"}) {
    fs::create_directories(Local(cat));
    create(src3, Local(cat + "/part_a.tacozip"));
    create(src3b, Local(cat + "/part_b.tacozip"));
    const std::string parts =
        ShellQuote(Local(cat + "/part_a.tacozip")) + " " + ShellQuote(Local(cat + "/part_b.tacozip"));
    CommandResult made =
        RunTaco("tacocat " + parts + " -o " + ShellQuote(Local(cat)) + (cat == "cat1" ? " --single-file" : ""));
    if (made.exit_code != 0 && skip_reason.empty()) skip_reason = "taco tacocat " + cat + " failed: " + made.err;
  }
}

void RemoteEnv::StartServers() {
  if (!fs::exists(kNginx)) {
    skip_reason = "nginx is not installed (apt-get install nginx-light)";
    return;
  }
  const int port = FreePort();
  fs::create_directories(*dir / "nginx/tmp");
  const std::string conf = *dir / "nginx.conf";
  const std::string p = *dir / "nginx";
  WriteFile(conf, "daemon off;\nmaster_process off;\nworker_processes 1;\npid " + p +
                      "/nginx.pid;\n"
                      "error_log " +
                      p +
                      "/error.log;\nevents { worker_connections 64; }\nhttp {\n"
                      "  log_format taco '$request_method $uri $status $body_bytes_sent \"$http_range\"';\n"
                      "  access_log " +
                      log + " taco;\n  client_body_temp_path " + p +
                      "/tmp;\n"
                      "  proxy_temp_path " +
                      p + "/tmp;\n  fastcgi_temp_path " + p +
                      "/tmp;\n"
                      "  uwsgi_temp_path " +
                      p + "/tmp;\n  scgi_temp_path " + p +
                      "/tmp;\n"
                      "  default_type application/octet-stream;\n"
                      // Object stores take '//' literally: the log shows it (remote_test.cc).
                      "  merge_slashes off;\n"
                      "  server { listen 127.0.0.1:" +
                      std::to_string(port) + "; root " + www + "; }\n}\n");
  std::string err = nginx.Start({kNginx, "-c", conf, "-p", p}, port);
  if (!err.empty()) {
    skip_reason = "nginx: " + err;
    return;
  }
  const int fport = FreePort();
  err = faults.Start({"/usr/bin/python3", std::string(TACO_SOURCE_DIR) + "/tests/remote/fault_server.py",
                      std::to_string(fport), www + "/bucket", fault_log},
                     fport);
  if (!err.empty()) skip_reason = "fault server: " + err;
}

void RemoteEnv::TearDown() {
  nginx.Stop();
  faults.Stop();
  dir.reset();
}

void RemoteTest::SetUp() {
  e = RemoteEnv::env;
  if (!e->skip_reason.empty()) GTEST_SKIP() << e->skip_reason;
  CPLSetConfigOption("GDAL_HTTP_RETRY_DELAY", "0.01");
  CPLSetConfigOption("GDAL_HTTP_MAX_RETRY", "2");
}

std::pair<std::string, size_t> RemoteTest::ReadCounted(const Dataset& ds, const Node& node) {
  std::string bytes;
  const size_t n = Count([&] {
    auto got = ds.ReadBytes(node);
    EXPECT_TRUE(got.ok()) << got.status().ToString();
    if (got.ok()) bytes = std::move(*got);
  });
  return {bytes, n};
}

std::string DropGdalVsiColumn(const std::string& text) {
  const size_t col = text.find("internal:gdal_vsi");
  if (col == std::string::npos || text.find('\n') < col) return text;
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out += text.substr(start, std::min(end - start, col)) + "\n";
    start = end + 1;
  }
  return out;
}

std::pair<std::string, std::string> RunOnLocalAndUrl(const std::string& args, const std::string& local,
                                                     const std::string& url) {
  const std::string cmd = args.substr(0, args.find(' '));
  std::string rest = args.size() > cmd.size() ? args.substr(cmd.size()) : "";
  if (cmd == "sql") rest = " 'SELECT * FROM data ORDER BY 1'";
  CommandResult a = RunTaco("--no-cache " + cmd + " " + ShellQuote(local) + rest);
  CommandResult b = RunTaco("--no-cache " + cmd + " " + ShellQuote(url) + rest);
  EXPECT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(b.exit_code, 0) << b.err;
  EXPECT_FALSE(a.out.empty());
  return {a.out, b.out};
}

std::string Replace(std::string s, const std::string& from, const std::string& to) {
  if (from.empty()) return s;
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) {
    s.replace(at, from.size(), to);
  }
  return s;
}

}  // namespace taco::testing
