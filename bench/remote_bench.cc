// Remote reads on the same ZIP served by a local nginx: our stack (open the dataset with the
// disk cache off + read the first FILE sample) against GDAL `/vsizip//vsicurl/…` reading
// the same member. Counts come from nginx's access log (requests, body bytes sent).
//
// One cold iteration each (GDAL keeps a /vsizip/ directory cache in-process).
// Reported as counters per iteration: requests and bytes for each side. DESIGN §5 budget:
// opening a remote ZIP ≤ 2 requests, one FILE sample 1 request.
// Also: GDAL reading the first FILE sample through its own GDAL path
// (/vsisubfile/…,/vsicurl/…) against taco::InProcessGdalPath (DESIGN §5: 1 request).
// Set TACO_BENCH_ZIP to bench another ZIP (default: the upstream nested fixture).
#include <arpa/inet.h>
#include <benchmark/benchmark.h>
#include <cpl_conv.h>
#include <cpl_vsi.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "taco/dataset.h"
#include "taco/io.h"

namespace {

namespace fs = std::filesystem;

std::string BenchZip() {
  if (const char* env = std::getenv("TACO_BENCH_ZIP")) return env;
  if (const char* env = std::getenv("TACO_FIXTURES")) return std::string(env) + "/zip/nested/nested.tacozip";
  return TACO_UPSTREAM_FIXTURES "/zip/nested/nested.tacozip";  // `make fixtures` writes it
}

int FreePort() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(addr);
  ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

bool Accepts(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  ::close(fd);
  return ok;
}

// nginx serving the directory of BenchZip(); log lines are "<body bytes sent>".
class Nginx {
 public:
  Nginx() {
    dir_ = fs::temp_directory_path() / ("taco-remote-bench-" + std::to_string(::getpid()));
    fs::create_directories(dir_ / "tmp");
    port_ = FreePort();
    log_ = (dir_ / "access.log").string();
    const std::string p = dir_.string();
    std::ofstream(dir_ / "nginx.conf")
        << "daemon off;\nmaster_process off;\npid " << p << "/nginx.pid;\nerror_log " << p << "/error.log;\n"
        << "events { worker_connections 64; }\nhttp {\n  log_format bytes '$body_bytes_sent';\n"
        << "  access_log " << log_ << " bytes;\n  client_body_temp_path " << p << "/tmp;\n  proxy_temp_path " << p
        << "/tmp;\n  fastcgi_temp_path " << p << "/tmp;\n  uwsgi_temp_path " << p << "/tmp;\n  scgi_temp_path " << p
        << "/tmp;\n  default_type application/octet-stream;\n  server { listen 127.0.0.1:" << port_ << "; root "
        << fs::path(BenchZip()).parent_path().string() << "; }\n}\n";
    pid_ = ::fork();
    if (pid_ == 0) {
      const std::string conf = (dir_ / "nginx.conf").string();
      ::execl("/usr/sbin/nginx", "nginx", "-c", conf.c_str(), "-p", p.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    for (int i = 0; i < 200 && !Accepts(port_); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  ~Nginx() {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      ::waitpid(pid_, nullptr, 0);
    }
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  bool ok() const { return Accepts(port_); }
  std::string Url() const {
    return "http://127.0.0.1:" + std::to_string(port_) + "/" + fs::path(BenchZip()).filename().string();
  }
  // (requests, bytes) logged so far.
  std::pair<uint64_t, uint64_t> Totals() const {
    std::ifstream in(log_);
    uint64_t n = 0, bytes = 0;
    std::string line;
    while (std::getline(in, line)) {
      ++n;
      bytes += std::strtoull(line.c_str(), nullptr, 10);
    }
    return {n, bytes};
  }

 private:
  fs::path dir_;
  std::string log_;
  int port_ = 0;
  pid_t pid_ = -1;
};

Nginx& Server() {
  static Nginx nginx;
  return nginx;
}

void Report(benchmark::State& state, std::pair<uint64_t, uint64_t> before) {
  const auto after = Server().Totals();
  const double iters = static_cast<double>(state.iterations());
  state.counters["requests"] = static_cast<double>(after.first - before.first) / iters;
  state.counters["bytes"] = static_cast<double>(after.second - before.second) / iters;
}

// Ours: Dataset::Open (no disk cache) + the bytes of the first FILE sample (depth first).
void BM_TacoOpenAndFirstSample(benchmark::State& state) {
  if (!Server().ok()) return state.SkipWithError("nginx did not start");
  taco::OpenOptions options;
  options.use_cache = false;
  const auto before = Server().Totals();
  for (auto _ : state) {
    auto ds = taco::Dataset::Open(Server().Url(), options);
    if (!ds.ok()) return state.SkipWithError(ds.status().ToString().c_str());
    auto node = (*ds)->Read(int64_t{0});
    while (node.ok() && !node->is_file()) node = node->children->Read(int64_t{0});
    if (!node.ok()) return state.SkipWithError(node.status().ToString().c_str());
    auto bytes = (*ds)->ReadBytes(*node);
    if (!bytes.ok()) return state.SkipWithError(bytes.status().ToString().c_str());
    benchmark::DoNotOptimize(bytes->data());
  }
  Report(state, before);
}
BENCHMARK(BM_TacoOpenAndFirstSample)->Unit(benchmark::kMillisecond)->Iterations(1);

// GDAL: /vsizip//vsicurl/<url>/<member> of the same sample (cache cleared each time).
void BM_GdalVsizipSameMember(benchmark::State& state) {
  if (!Server().ok()) return state.SkipWithError("nginx did not start");
  // The member name of the first FILE sample, from the local file.
  auto local = taco::Dataset::Open(BenchZip());
  if (!local.ok()) return state.SkipWithError(local.status().ToString().c_str());
  auto node = (*local)->Read(int64_t{0});
  std::string member = "DATA/" + node->id;
  while (node.ok() && !node->is_file()) {
    node = node->children->Read(int64_t{0});
    if (node.ok()) member += "/" + node->id;
  }
  if (!node.ok()) return state.SkipWithError(node.status().ToString().c_str());
  // {…} marks the archive: GDAL 3.6 recognises .zip but not .tacozip by extension.
  const std::string path = "/vsizip/{/vsicurl/" + Server().Url() + "}/" + member;
  const auto before = Server().Totals();
  for (auto _ : state) {
    VSICurlClearCache();
    VSILFILE* fp = VSIFOpenL(path.c_str(), "rb");
    if (fp == nullptr) return state.SkipWithError(("GDAL cannot open " + path).c_str());
    std::vector<char> buf(1 << 16);
    size_t total = 0;
    for (size_t got; (got = VSIFReadL(buf.data(), 1, buf.size(), fp)) > 0;) total += got;
    VSIFCloseL(fp);
    benchmark::DoNotOptimize(total);
  }
  Report(state, before);
}
BENCHMARK(BM_GdalVsizipSameMember)->Unit(benchmark::kMillisecond)->Iterations(1);

// The first FILE sample (depth first) of the remote dataset; the open is not counted.
taco::Result<taco::Node> FirstRemoteSample() {
  taco::OpenOptions options;
  options.use_cache = false;
  auto ds = taco::Dataset::Open(Server().Url(), options);
  if (!ds.ok()) return ds.status();
  auto node = (*ds)->Read(int64_t{0});
  while (node.ok() && !node->is_file()) node = node->children->Read(int64_t{0});
  return node;
}

// Every byte of `path` through GDAL's VSI layer (what a driver's open + full read does).
bool ReadAllThroughGdal(const std::string& path) {
  VSILFILE* fp = VSIFOpenL(path.c_str(), "rb");
  if (fp == nullptr) return false;
  std::vector<char> buf(1 << 16);
  size_t total = 0;
  for (size_t got; (got = VSIFReadL(buf.data(), 1, buf.size(), fp)) > 0;) total += got;
  VSIFCloseL(fp);
  benchmark::DoNotOptimize(total);
  return true;
}

// GDAL reading the sample's own GDAL path, /vsisubfile/<o>_<s>,/vsicurl/<url>.
void BM_GdalSampleThroughVsisubfileVsicurl(benchmark::State& state) {
  if (!Server().ok()) return state.SkipWithError("nginx did not start");
  auto node = FirstRemoteSample();
  if (!node.ok()) return state.SkipWithError(node.status().ToString().c_str());
  const auto before = Server().Totals();
  for (auto _ : state) {
    VSICurlClearCache();
    if (!ReadAllThroughGdal(node->gdal_path)) return state.SkipWithError("GDAL cannot open the sample path");
  }
  Report(state, before);
}
BENCHMARK(BM_GdalSampleThroughVsisubfileVsicurl)->Unit(benchmark::kMillisecond)->Iterations(1);

// GDAL reading the same sample through taco::InProcessGdalPath (size known: one request).
void BM_GdalSampleThroughInProcessPath(benchmark::State& state) {
  if (!Server().ok()) return state.SkipWithError("nginx did not start");
  auto node = FirstRemoteSample();
  if (!node.ok()) return state.SkipWithError(node.status().ToString().c_str());
  const auto before = Server().Totals();
  for (auto _ : state) {
    auto path = taco::InProcessGdalPath(node->gdal_path, node->id);
    if (!path.ok()) return state.SkipWithError(path.status().ToString().c_str());
    if (!ReadAllThroughGdal(*path)) return state.SkipWithError("GDAL cannot open the in-process path");
  }
  Report(state, before);
}
BENCHMARK(BM_GdalSampleThroughInProcessPath)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
