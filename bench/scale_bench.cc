// Many small samples (issue 17): the `taco` commands against the tools that copy the same
// files, timed in one run on one generated tree.
//
// Tree: N FOLDER samples × 2 files of 4 KiB of random bytes (N = TACO_SCALE_N, default
// 10,000; TACO_SCALE_N=100000 is the full size of issue 17). Each command runs as a child
// process (no shell); its wall time, CPU time (user + system) and peak RSS (wait4's rusage)
// are reported with files/s (2N files) and the ratio of its files/s to `cp -r`'s, as a
// markdown table. `cp -r`, `tar -cf`, `taco create` → ZIP and `taco convert` ZIP → FOLDER (issue
// 28's ratios) run first, TACO_SCALE_REPS times interleaved (default 3; medians, see main());
// the other commands once:
//   cp -r, tar -cf, zip -0 -r                      (references, on the source tree)
//   taco create → ZIP and → FOLDER
//   taco convert ZIP → FOLDER and FOLDER → ZIP
//   taco export of 10% (--sql: every tenth sample) → ZIP (files/s of the subset's files)
//   taco validate and unzip -t on the same ZIP
//   taco create → 10 ZIP parts (--split-size N/10 samples' bytes, --no-consolidate), then
//   taco tacocat of those 10 parts → .tacocat/
//   taco convert of the ZIP through nginx on a loopback port (requests and bytes from its
//   access log; left out when /usr/sbin/nginx is missing or TACO_SCALE_REMOTE=0)
// and, with nginx, remote opens of a many-part TACOCAT: a second tree of P one-file samples
// of 64 bytes (P = TACO_SCALE_PARTS, default 1,000) made into P parts by `taco create
// --split-size 64` (which writes the .tacocat/ too) and `taco tacocat --single-file`, then
// `taco info` and `taco sql "SELECT count(*) FROM data"` on each form's URL with an empty
// disk cache (cold), again (warm: revalidation only) and with --no-cache, and `taco sql` of
// a TACOLLECTION.json of the same P parts (--no-cache); requests from the access log, in a
// table of their own;
// and `taco --no-cache ls` of the 10-part TACOCAT's URL with and without a FOLDER key (the
// requests navigation adds), and the P part URLs given to `taco --no-cache sql` (requests and
// seconds, reported even when it fails);
// and a metadata-only tree: M FILE samples of one byte each in one directory (M =
// TACO_SCALE_META_N, default 10 × N: 1,000,000 at the full size) with `cp -r`, `taco create`
// → ZIP, `taco validate` and `unzip -t`, in a table of their own: the per-sample cost and the memory of
// a dataset of a million rows (issue 17: peak RSS under 1 GiB).
// The source tree is written first (page cache warm for every command); `sync` runs before
// each command so that no command pays for the previous one's writeback. Work directory:
// $TMPDIR/taco-scale-bench-<pid>, removed at the end. Lines "speed-row: ..." feed issue 28's
// table (bench/speed_table.py).
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;

namespace {

uint64_t EnvOr(const char* name, uint64_t fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::strtoull(v, nullptr, 10) : fallback;
}

[[noreturn]] void Die(const std::string& what) {
  std::cerr << "scale_bench: " << what << "\n";
  std::exit(1);
}

std::string TacoCli() {
  if (const char* v = std::getenv("TACO_CLI"); v != nullptr && *v != '\0') return v;
  return TACO_CLI_PATH;
}

struct Outcome {
  double seconds = 0;
  double cpu_seconds = 0;  // user + system (wait4's rusage)
  long max_rss_kib = 0;
};

// The outcome with the median wall time of `runs` (not empty), with the median CPU time and
// the largest peak RSS of them.
Outcome Median(std::vector<Outcome> runs) {
  auto mid = [&](auto key) {
    std::vector<double> v;
    for (const Outcome& o : runs) v.push_back(key(o));
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  Outcome m;
  m.seconds = mid([](const Outcome& o) { return o.seconds; });
  m.cpu_seconds = mid([](const Outcome& o) { return o.cpu_seconds; });
  for (const Outcome& o : runs) m.max_rss_kib = std::max(m.max_rss_kib, o.max_rss_kib);
  return m;
}

// Runs argv (in `cwd` when given) with stdout and stderr (when `quiet`) to /dev/null;
// `status` gets its wait status.
Outcome RunStatus(const std::vector<std::string>& argv, int* status, const std::string& cwd = "", bool quiet = false) {
  ::sync();
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) Die("fork failed");
  if (pid == 0) {
    if (!cwd.empty() && ::chdir(cwd.c_str()) != 0) _exit(126);
    const int null = ::open("/dev/null", O_WRONLY);
    if (null >= 0) ::dup2(null, 1);
    if (null >= 0 && quiet) ::dup2(null, 2);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    _exit(127);
  }
  struct rusage usage {};
  if (::wait4(pid, status, 0, &usage) != pid) Die("wait4 failed");
  Outcome o;
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  o.max_rss_kib = usage.ru_maxrss;
  o.cpu_seconds = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                  static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
  return o;
}

// RunStatus that dies when the command fails.
Outcome Run(const std::vector<std::string>& argv, const std::string& cwd = "") {
  int status = 0;
  Outcome o = RunStatus(argv, &status, cwd);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::string cmd;
    for (const auto& a : argv) cmd += a + " ";
    Die("command failed (status " + std::to_string(status) + "): " + cmd);
  }
  return o;
}

// N folders s000000.. with a.bin and b.bin of 4 KiB each.
void MakeTree(const fs::path& root, uint64_t n) {
  std::mt19937_64 rng(17);
  std::vector<uint64_t> block(4096 / 8);
  for (uint64_t i = 0; i < n; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "s%06llu", static_cast<unsigned long long>(i));
    const fs::path dir = root / name;
    fs::create_directories(dir);
    for (const char* f : {"a.bin", "b.bin"}) {
      for (auto& w : block) w = rng();
      std::ofstream out(dir / f, std::ios::binary);
      out.write(reinterpret_cast<const char*>(block.data()), 4096);
    }
  }
}

// M files m0000000.. of one byte in `root`.
void MakeMetaTree(const fs::path& root, uint64_t m) {
  fs::create_directories(root);
  for (uint64_t i = 0; i < m; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "m%07llu", static_cast<unsigned long long>(i));
    const int fd = ::open((root / name).c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0 || ::write(fd, name + 7, 1) != 1) Die("cannot write " + (root / name).string());
    ::close(fd);
  }
}

int FreePort() {
  const int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
      ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
    Die("no free port");
  }
  const int port = ntohs(a.sin_port);
  ::close(s);
  return port;
}

bool Accepts(int port) {
  const int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool ok = ::connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  ::close(s);
  return ok;
}

// nginx serving `root` on a loopback port; log lines are "<status> <body bytes sent>".
class Nginx {
 public:
  Nginx(const fs::path& root, const fs::path& dir) : log_(dir / "access.log") {
    fs::create_directories(dir / "tmp");
    port_ = FreePort();
    const std::string p = dir.string();
    std::ofstream(dir / "nginx.conf")
        << "daemon off;\nmaster_process off;\nworker_processes 1;\npid " << p << "/nginx.pid;\nerror_log " << p
        << "/error.log;\nevents { worker_connections 64; }\nhttp {\n  log_format b '$status $body_bytes_sent';\n"
        << "  access_log " << log_.string() << " b;\n  client_body_temp_path " << p << "/tmp;\n  proxy_temp_path " << p
        << "/tmp;\n  fastcgi_temp_path " << p << "/tmp;\n  uwsgi_temp_path " << p << "/tmp;\n  scgi_temp_path " << p
        << "/tmp;\n  default_type application/octet-stream;\n  server { listen 127.0.0.1:" << port_ << "; root "
        << root.string() << "; }\n}\n";
    pid_ = ::fork();
    if (pid_ == 0) {
      const std::string conf = (dir / "nginx.conf").string();
      ::execl("/usr/sbin/nginx", "nginx", "-c", conf.c_str(), "-p", p.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    for (int i = 0; i < 200 && !Accepts(port_); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ok_ = Accepts(port_);
  }
  ~Nginx() {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  bool ok() const { return ok_; }
  std::string Url(const std::string& rel) const { return "http://127.0.0.1:" + std::to_string(port_) + "/" + rel; }
  // {requests, body bytes} logged so far (nginx writes the line after the answer: wait a little).
  std::pair<uint64_t, uint64_t> Totals() const {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    std::ifstream in(log_);
    uint64_t requests = 0, bytes = 0, status = 0, sent = 0;
    while (in >> status >> sent) {
      ++requests;
      bytes += sent;
    }
    return {requests, bytes};
  }

 private:
  fs::path log_;
  pid_t pid_ = -1;
  int port_ = 0;
  bool ok_ = false;
};

struct Row {
  std::string name;
  Outcome outcome;
  uint64_t files = 0;  // files the command handles (export: those of the subset)
  std::string note;
};

std::string LoadAverage() {
  std::ifstream in("/proc/loadavg");
  std::string a, b, c;
  in >> a >> b >> c;
  return a + " " + b + " " + c;
}

struct OpenRow {
  std::string dataset, command, cache;
  uint64_t requests = 0;
  Outcome outcome;
};

// The many-part TACOCAT (see the header comment): made under work/manyparts, then opened
// through `nginx` (whose root is `work`) cold, warm and with --no-cache. The disk cache is
// work/cache (TACO_CACHE_DIR, set for the children).
template <typename Add>
std::vector<OpenRow> RemoteOpens(const std::string& taco, const fs::path& work, const std::string& coll,
                                 const Nginx& nginx, uint64_t parts, Add&& add) {
  const fs::path tree = work / "manyparts_src", dir = work / "manyparts";
  fs::create_directories(tree);
  std::mt19937_64 rng(1000);
  for (uint64_t i = 0; i < parts; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "p%06llu", static_cast<unsigned long long>(i));
    std::vector<uint64_t> bytes(8);
    for (auto& w : bytes) w = rng();
    std::ofstream(tree / name, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), 64);
  }
  const std::string label = std::to_string(parts) + " parts";
  add("`taco create --split-size 64` → " + label,
      Run({taco, "create", tree.string(), (dir / "ds.tacozip").string(), "--collection", coll, "--split-size", "64"}),
      "one 64-byte sample per part, + .tacocat/", parts);
  std::vector<std::string> argv = {taco, "tacocat", "--single-file"};
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() == ".tacozip") argv.push_back(entry.path().string());
  }
  std::sort(argv.begin() + 3, argv.end());
  add("`taco tacocat --single-file` of " + label, Run(argv), "→ __TACOCAT__", parts);

  const fs::path cache = work / "cache";
  ::setenv("TACO_CACHE_DIR", cache.c_str(), 1);
  std::vector<OpenRow> rows;
  for (const std::string form : {".tacocat", "__TACOCAT__"}) {
    const std::string url = nginx.Url("manyparts/" + form);
    for (const std::string command : {"info", "sql count(*)"}) {
      std::vector<std::string> cmd = {taco, "info", url};
      if (command != "info") cmd = {taco, "sql", url, "SELECT count(*) FROM data"};
      fs::remove_all(cache);
      for (const std::string mode : {"cold", "warm", "--no-cache"}) {
        std::vector<std::string> run = cmd;
        if (mode == "--no-cache") run.insert(run.begin() + 1, "--no-cache");
        const auto before = nginx.Totals();
        OpenRow row{"`" + form + "`", "`" + command + "`", mode, 0, Run(run)};
        row.requests = nginx.Totals().first - before.first;
        std::fprintf(stderr, "scale_bench: remote %s %s %s: %llu requests, %.3f s\n", form.c_str(), command.c_str(),
                     mode.c_str(), static_cast<unsigned long long>(row.requests), row.outcome.seconds);
        rows.push_back(std::move(row));
      }
    }
  }
  // The same parts as a TACOLLECTION.json (`taco tacollection`): SQL over every part, one
  // multi-file scan (no disk cache: every part's metadata is requested).
  std::vector<std::string> collect = {taco, "-q", "tacollection"};
  collect.insert(collect.end(), argv.begin() + 3, argv.end());
  collect.push_back("-o");
  collect.push_back((dir / "TACOLLECTION.json").string());
  Run(collect);
  {
    const auto before = nginx.Totals();
    OpenRow row{
        "`TACOLLECTION.json`", "`sql count(*)`", "--no-cache", 0,
        Run({taco, "--no-cache", "sql", nginx.Url("manyparts/TACOLLECTION.json"), "SELECT count(*) FROM data"})};
    row.requests = nginx.Totals().first - before.first;
    std::fprintf(stderr, "scale_bench: remote TACOLLECTION.json sql count(*): %llu requests, %.3f s\n",
                 static_cast<unsigned long long>(row.requests), row.outcome.seconds);
    rows.push_back(std::move(row));
  }
  ::unsetenv("TACO_CACHE_DIR");
  fs::remove_all(cache);

  // The parts themselves as a TACOLLECTION (`taco sql URL... QUERY`), without the cache.
  std::vector<std::string> sql = {taco, "--no-cache", "sql"};
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() == ".tacozip")
      sql.push_back(nginx.Url("manyparts/" + entry.path().filename().string()));
  }
  std::sort(sql.begin() + 3, sql.end());
  sql.push_back("SELECT count(*) FROM data");
  {
    const auto before = nginx.Totals();
    int status = 0;
    const Outcome o = RunStatus(sql, &status, "", /*quiet=*/true);
    const uint64_t requests = nginx.Totals().first - before.first;
    const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    std::fprintf(stderr, "scale_bench: TACOLLECTION of %llu remote parts: %llu requests, %.2f s, %s\n",
                 static_cast<unsigned long long>(parts), static_cast<unsigned long long>(requests), o.seconds,
                 ok ? "ok" : "FAILED");
    std::printf(
        "speed-row: tacollection|%llu requests, %.2f s%s|parts|%llu|%.2f|routed parts only, no part limit|"
        "`taco --no-cache sql` of %llu part URLs, count(*)\n",
        static_cast<unsigned long long>(requests), o.seconds, ok ? "" : " (failed)",
        static_cast<unsigned long long>(parts), static_cast<double>(requests) / static_cast<double>(parts),
        static_cast<unsigned long long>(parts));
  }
  fs::remove_all(tree);
  fs::remove_all(dir);
  return rows;
}

}  // namespace

int main() {
  const uint64_t n = EnvOr("TACO_SCALE_N", 10000);
  const uint64_t files = 2 * n;
  const std::string taco = TacoCli();
  const fs::path work = fs::temp_directory_path() / ("taco-scale-bench-" + std::to_string(::getpid()));
  const fs::path src = work / "src";
  fs::create_directories(src);
  const std::string load_before = LoadAverage();
  MakeTree(src, n);
  std::ofstream(work / "collection.json")
      << R"({"id": "scale", "dataset_version": "1", "description": "scale benchmark", "licenses": ["CC0-1.0"],)"
      << R"( "providers": [{"name": "bench"}], "tasks": ["other"]})";
  const std::string coll = (work / "collection.json").string();
  const std::string zip = (work / "out.tacozip").string(), folder = (work / "out_folder").string();

  std::vector<Row> rows;
  auto add = [&](const std::string& name, Outcome o, std::string note = "", uint64_t handled = 0) {
    rows.push_back({name, o, handled == 0 ? files : handled, std::move(note)});
    std::fprintf(stderr, "scale_bench: %-34s %8.2f s\n", name.c_str(), o.seconds);
  };
  // Issue 28's two ratios, taken first (before any command of the run deletes files): `tar -cf`,
  // `taco create` → ZIP, `cp -r`, `taco convert` ZIP → FOLDER (of that ZIP), TACO_SCALE_REPS
  // rounds (default 3) in that order, each into a new output; the outputs stay until the last
  // round, so no command creates its inodes right after a large deletion (ext4 without a
  // journal, as here, skips inodes deleted in the last minutes when it allocates: a `cp -r`
  // right after an `rm -rf` of the same size took 2.5× the system time). Each command gets the
  // same warm page cache (the source tree, the ZIP just written) and a `sync` before it.
  // Reported: the median wall time and the median CPU time (user + system) of the rounds.
  const uint64_t reps = std::max<uint64_t>(1, EnvOr("TACO_SCALE_REPS", 3));
  {
    std::vector<Outcome> tar_runs, create_runs, cp_runs, convert_runs;
    for (uint64_t r = 0; r < reps; ++r) {
      const std::string tag = std::to_string(r);
      const std::string rep_zip = r == 0 ? zip : (work / ("out" + tag + ".tacozip")).string();
      tar_runs.push_back(Run({"tar", "-cf", (work / ("out" + tag + ".tar")).string(), "-C", src.string(), "."}));
      create_runs.push_back(Run({taco, "create", src.string(), rep_zip, "--collection", coll}));
      cp_runs.push_back(Run({"cp", "-r", src.string(), (work / ("cp" + tag)).string()}));
      convert_runs.push_back(Run({taco, "convert", rep_zip, (work / ("conv_folder" + tag)).string()}));
      std::fprintf(stderr, "scale_bench: round %llu: tar %.2f s, create %.2f s, cp %.2f s, convert %.2f s\n",
                   static_cast<unsigned long long>(r + 1), tar_runs.back().seconds, create_runs.back().seconds,
                   cp_runs.back().seconds, convert_runs.back().seconds);
    }
    const std::string note = "median of " + std::to_string(reps) + ", interleaved";
    add("`cp -r`", Median(cp_runs), note);
    add("`tar -cf`", Median(tar_runs), note);
    add("`taco create` → ZIP", Median(create_runs), note);
    add("`taco convert` ZIP → FOLDER", Median(convert_runs), note);
    for (uint64_t r = 0; r < reps; ++r) {
      const std::string tag = std::to_string(r);
      fs::remove(work / ("out" + tag + ".tar"));
      if (r > 0) fs::remove(work / ("out" + tag + ".tacozip"));
      fs::remove_all(work / ("cp" + tag));
      fs::remove_all(work / ("conv_folder" + tag));
    }
  }
  add("`zip -0 -r`", Run({"zip", "-0", "-r", "-q", (work / "plain.zip").string(), "."}, src.string()));
  fs::remove(work / "plain.zip");
  add("`taco create` → FOLDER", Run({taco, "create", src.string(), folder, "--collection", coll}));
  add("`taco convert` FOLDER → ZIP", Run({taco, "convert", folder, (work / "conv.tacozip").string()}));
  fs::remove(work / "conv.tacozip");
  add("`taco export` 10% → ZIP",
      Run({taco, "export", zip, (work / "sub.tacozip").string(), "--sql", "SELECT * FROM data WHERE id LIKE '%0'"}),
      std::to_string(n / 10) + " samples, " + std::to_string(2 * (n / 10)) + " files", 2 * (n / 10));
  fs::remove(work / "sub.tacozip");
  add("`taco validate` (ZIP)", Run({taco, "validate", zip}));
  add("`unzip -t` (same ZIP)", Run({"unzip", "-tqq", zip}));

  // 10 parts of N/10 samples each, consolidated by `taco tacocat`.
  {
    const fs::path parts_dir = work / "parts10";
    const uint64_t split = ((n + 9) / 10) * 2 * 4096;
    add("`taco create` → 10 ZIP parts",
        Run({taco, "create", src.string(), (parts_dir / "ds.tacozip").string(), "--collection", coll, "--split-size",
             std::to_string(split), "--no-consolidate"}));
    std::vector<std::string> argv = {taco, "tacocat"};
    for (const auto& entry : fs::directory_iterator(parts_dir)) argv.push_back(entry.path().string());
    std::sort(argv.begin() + 2, argv.end());
    const size_t count = argv.size() - 2;
    add("`taco tacocat` of " + std::to_string(count) + " parts", Run(argv), "→ .tacocat/ (level Parquets, ZSTD 19)");
    // parts10/ stays for the remote TACOCAT navigation below.
  }

  // The metadata-only tree.
  const uint64_t meta_n = EnvOr("TACO_SCALE_META_N", 10 * n);
  std::vector<Row> meta_rows;
  if (meta_n > 0) {
    const fs::path meta_src = work / "meta_src";
    MakeMetaTree(meta_src, meta_n);
    auto add_meta = [&](const std::string& name, Outcome o) {
      meta_rows.push_back({name, o, meta_n, ""});
      std::fprintf(stderr, "scale_bench: %-34s %8.2f s (metadata-only)\n", name.c_str(), o.seconds);
    };
    add_meta("`cp -r`", Run({"cp", "-r", meta_src.string(), (work / "meta_cp").string()}));
    fs::remove_all(work / "meta_cp");
    const std::string meta_zip = (work / "meta.tacozip").string();
    add_meta("`taco create` → ZIP", Run({taco, "create", meta_src.string(), meta_zip, "--collection", coll}));
    add_meta("`taco validate` (ZIP)", Run({taco, "validate", meta_zip}));
    add_meta("`unzip -t` (same ZIP)", Run({"unzip", "-tqq", meta_zip}));
    fs::remove_all(meta_src);
    fs::remove(meta_zip);
  }

  const uint64_t parts = EnvOr("TACO_SCALE_PARTS", 1000);
  std::vector<OpenRow> opens;
  const bool remote = EnvOr("TACO_SCALE_REMOTE", 1) != 0 && fs::exists("/usr/sbin/nginx");
  std::string remote_note = "left out (TACO_SCALE_REMOTE=0 or no /usr/sbin/nginx)";
  if (remote) {
    Nginx nginx(work, work / "nginx");
    if (nginx.ok()) {
      const auto before = nginx.Totals();
      Outcome o = Run({taco, "--no-cache", "convert", nginx.Url("out.tacozip"), (work / "remote_folder").string()});
      const auto after = nginx.Totals();
      const uint64_t requests = after.first - before.first, bytes = after.second - before.second;
      char note[160];
      std::snprintf(note, sizeof note, "%llu requests, %.1f MiB", static_cast<unsigned long long>(requests),
                    static_cast<double>(bytes) / (1 << 20));
      add("remote `taco convert` (nginx) → FOLDER", o, note);
      remote_note.clear();
      // Navigation into a FOLDER sample of the 10-part TACOCAT: the requests of `ls URL KEY`
      // beyond those of `ls URL` (the open), without the cache.
      {
        const std::string url = nginx.Url("parts10/.tacocat");
        auto before = nginx.Totals();
        Run({taco, "--no-cache", "ls", url});
        const uint64_t open_requests = nginx.Totals().first - before.first;
        before = nginx.Totals();
        const Outcome o = Run({taco, "--no-cache", "ls", url, "s000000"});
        const uint64_t nav_requests = nginx.Totals().first - before.first;
        std::fprintf(stderr, "scale_bench: remote TACOCAT open %llu requests, open + navigate %llu\n",
                     static_cast<unsigned long long>(open_requests), static_cast<unsigned long long>(nav_requests));
        std::printf(
            "speed-row: tacocat-nav|%lld requests|TACOCAT level1 holds the rows|0 requests|-|0 requests|"
            "`taco --no-cache ls URL s000000` minus `ls URL` (%llu requests), %.2f s\n",
            static_cast<long long>(nav_requests) - static_cast<long long>(open_requests),
            static_cast<unsigned long long>(open_requests), o.seconds);
      }
      fs::remove_all(work / "parts10");
      opens = RemoteOpens(taco, work, coll, nginx, parts, add);
    } else {
      remote_note = "left out: nginx did not start";
    }
  }
  const std::string load_after = LoadAverage();
  fs::remove_all(work);

  const double cp_rate = static_cast<double>(files) / rows.front().outcome.seconds;
  std::printf("\n### scale_bench: %llu samples × 2 files of 4 KiB (%llu files, %.1f MiB)\n\n",
              static_cast<unsigned long long>(n), static_cast<unsigned long long>(files),
              static_cast<double>(files * 4096) / (1 << 20));
  std::printf("load average before: %s, after: %s; %u cores\n\n", load_before.c_str(), load_after.c_str(),
              std::thread::hardware_concurrency());
  std::printf("| command | seconds | CPU s | files/s | × `cp -r` files/s | peak RSS MiB | note |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---|\n");
  for (const Row& r : rows) {
    const double rate = static_cast<double>(r.files) / r.outcome.seconds;
    std::printf("| %s | %.2f | %.2f | %.0f | %.2f | %.1f | %s |\n", r.name.c_str(), r.outcome.seconds,
                r.outcome.cpu_seconds, rate, rate / cp_rate, static_cast<double>(r.outcome.max_rss_kib) / 1024,
                r.note.c_str());
  }
  if (!remote_note.empty()) std::printf("\nremote convert: %s\n", remote_note.c_str());
  if (!meta_rows.empty()) {
    std::printf("\n### Metadata-only: %llu FILE samples of 1 byte\n\n", static_cast<unsigned long long>(meta_n));
    std::printf("| command | seconds | samples/s | × `cp -r` | peak RSS MiB |\n|---|---:|---:|---:|---:|\n");
    const double meta_cp = static_cast<double>(meta_n) / meta_rows.front().outcome.seconds;
    for (const Row& r : meta_rows) {
      const double rate = static_cast<double>(meta_n) / r.outcome.seconds;
      std::printf("| %s | %.2f | %.0f | %.2f | %.1f |\n", r.name.c_str(), r.outcome.seconds, rate, rate / meta_cp,
                  static_cast<double>(r.outcome.max_rss_kib) / 1024);
    }
  }
  if (!opens.empty()) {
    std::printf("\n### Remote opens of a %llu-part TACOCAT (and TACOLLECTION) through nginx\n\n",
                static_cast<unsigned long long>(parts));
    std::printf("| dataset | command | cache | requests | seconds | peak RSS MiB |\n|---|---|---|---:|---:|---:|\n");
    for (const OpenRow& r : opens) {
      std::printf("| %s | %s | %s | %llu | %.3f | %.1f |\n", r.dataset.c_str(), r.command.c_str(), r.cache.c_str(),
                  static_cast<unsigned long long>(r.requests), r.outcome.seconds,
                  static_cast<double>(r.outcome.max_rss_kib) / 1024);
    }
  }
  // Goals of issue 17, as ratios of this run.
  auto seconds = [&](const std::string& prefix) {
    for (const Row& r : rows) {
      if (r.name.rfind(prefix, 0) == 0) return r.outcome.seconds;
    }
    return 0.0;
  };
  std::printf("\ncreate ZIP vs tar -cf: %.2f× its files/s; vs zip -0 -r: %.2f×; validate / unzip -t time: %.2f\n",
              seconds("`tar") / seconds("`taco create` → ZIP"), seconds("`zip") / seconds("`taco create` → ZIP"),
              seconds("`taco validate`") / seconds("`unzip -t`"));
  // Issue 28's table (bench/speed_table.py collects these lines; format in its header).
  const double files_d = static_cast<double>(files);
  auto outcome = [&](const std::string& prefix) {
    for (const Row& r : rows) {
      if (r.name.rfind(prefix, 0) == 0) return r.outcome;
    }
    return Outcome{};
  };
  // A files/s row: ours against the reference (both rows of the table above, by name prefix).
  auto throughput_row = [&](const char* key, const std::string& ours, const std::string& ref, const char* goal) {
    std::printf(
        "speed-row: %s|%.0f files/s|%s|%.0f files/s|%.2f|%s|%llu files of 4 KiB, wall median of %llu "
        "interleaved; CPU %.2f s vs %.2f s\n",
        key, files_d / seconds(ours), ref.c_str(), files_d / seconds(ref), seconds(ref) / seconds(ours), goal,
        static_cast<unsigned long long>(files), static_cast<unsigned long long>(reps), outcome(ours).cpu_seconds,
        outcome(ref).cpu_seconds);
  };
  throughput_row("convert", "`taco convert` ZIP → FOLDER", "`cp -r`", ">= 0.8");
  throughput_row("create", "`taco create` → ZIP", "`tar -cf`", ">= 1.0");
  // Wall times (taco checks on every core, unzip on one); the CPU times in the note.
  if (meta_rows.size() >= 4) {
    const Outcome& ours = meta_rows[2].outcome;
    const Outcome& ref = meta_rows[3].outcome;
    std::printf(
        "speed-row: validate|%.2f s|`unzip -t`|%.2f s|%.2f|<= 0.3|ZIP of %llu one-byte FILE samples; wall; CPU %.2f s "
        "vs "
        "%.2f s\n",
        ours.seconds, ref.seconds, ours.seconds / ref.seconds, static_cast<unsigned long long>(meta_n),
        ours.cpu_seconds, ref.cpu_seconds);
  }
  std::printf(
      "speed-row: validate-4k|%.2f s|`unzip -t`|%.2f s|%.2f|<= 0.3|ZIP of %llu FOLDER samples × 2 files of 4 KiB; "
      "wall; "
      "CPU %.2f s vs %.2f s\n",
      seconds("`taco validate`"), seconds("`unzip -t`"), seconds("`taco validate`") / seconds("`unzip -t`"),
      static_cast<unsigned long long>(n), outcome("`taco validate`").cpu_seconds, outcome("`unzip -t`").cpu_seconds);
  return 0;
}
