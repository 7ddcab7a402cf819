// Crash safety of the writers (issue 14): `taco create`, `convert`, `export` and `tacocat`
// are killed with SIGKILL at 21 deterministic points of their run (right before or after
// the N-th file call — read, write, create, rename, remove, close — counted by the
// LD_PRELOAD library crash_point.cc; the points are drawn with a fixed seed, one in each
// twentieth of the run, plus right after the last call). After every kill the output name either
// does not exist or holds a complete dataset that validates (CRCs included), and everything
// else left beside it is a temporary name of the killed process, which a rerun of the same
// command removes while it writes the output.
//
// Also: SIGINT and SIGTERM in the middle of a write remove the temporary output and end
// the process by that signal (issue 16 D).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "support/paths.h"
#include "taco/dataset.h"
#include "taco/validate.h"

namespace taco {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

constexpr int kKillPoints = 20;

struct Outcome {
  bool exited = false;
  int exit_code = -1;
  int signal = 0;  // the signal that ended (or stopped) it
};

// Runs `taco args...` in `cwd` with extra environment; stdout/stderr to `log`.
// When stop_then is non-zero and the child stops (SIGSTOP from the crash library), sends it
// `stop_then` and SIGCONT, then waits for its end.
Outcome RunTaco(const std::vector<std::string>& args, const std::vector<std::string>& env, const std::string& log,
                int stop_then = 0) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    for (const std::string& e : env) ::putenv(const_cast<char*>(e.c_str()));
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      ::dup2(fd, 1);
      ::dup2(fd, 2);
    }
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(TACO_CLI_PATH));
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(TACO_CLI_PATH, argv.data());
    ::_exit(127);
  }
  Outcome out;
  int status = 0;
  while (true) {
    if (::waitpid(pid, &status, WUNTRACED) != pid) return out;
    if (WIFSTOPPED(status)) {
      ::kill(pid, stop_then != 0 ? stop_then : SIGKILL);
      ::kill(pid, SIGCONT);
      continue;
    }
    break;
  }
  out.exited = WIFEXITED(status);
  out.exit_code = out.exited ? WEXITSTATUS(status) : -1;
  out.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  return out;
}

std::string Env(const std::string& name, const std::string& value) { return name + "=" + value; }

std::string PreloadEnv() { return Env("LD_PRELOAD", TACO_CRASH_POINT_LIB); }
// An ASan runtime must come first in the library list; our preload comes before it.
std::string AsanEnv() { return Env("ASAN_OPTIONS", "verify_asan_link_order=0:detect_leaks=0"); }

// Entries of `dir` other than `keep`.
std::set<std::string> Others(const std::string& dir, const std::set<std::string>& keep) {
  std::set<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (!keep.count(name)) out.insert(name);
  }
  return out;
}

// One writer command to test: args with "{out}" standing for the output path.
struct Writer {
  std::string label;
  std::vector<std::string> args;  // "{out}" = output (absolute)
  std::string output_name;        // the name the command creates inside the output dir
  bool output_is_index = false;   // a .tacocat / __TACOCAT__: validated by opening it
  // The inputs are copied into "<output dir>/parts/" before each run ("{outdir}/parts/..."
  // in args): a TACOCAT must be written into a directory that contains its ZIPs.
  bool inputs_in_outdir = false;
};

class CrashSafetyTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new TempDir();
    const std::string src = *tmp_ / "src";
    // 6 FOLDER samples of 3 files each (the bigger ones are written in several calls).
    std::mt19937 rng(14);
    for (int i = 0; i < 6; ++i) {
      const std::string dir = src + "/tile_" + std::to_string(i);
      fs::create_directories(dir);
      for (const char* f : {"a.bin", "b.bin", "c.bin"}) {
        std::string bytes(1000 + rng() % 200000, '\0');
        for (char& c : bytes) c = static_cast<char>(rng());
        testing::WriteFile(dir + "/" + f, bytes);
      }
    }
    testing::WriteFile(*tmp_ / "collection.json",
                       R"({"id": "crash", "dataset_version": "1", "description": "kill -9 test",
                           "licenses": ["CC0-1.0"], "providers": [{"name": "taco-cpp"}], "tasks": ["other"]})");
    testing::WriteFile(*tmp_ / "meta.csv", "path,split\ntile_0,train\ntile_1,test\ntile_2/a.bin,train\n");
    // Inputs of convert / export / tacocat, written without interruption.
    fs::create_directories(*tmp_ / "in");
    for (const auto& [out, extra] :
         std::vector<std::pair<std::string, std::string>>{{"in/ds.tacozip", ""}, {"in/ds_folder", "--format folder"}}) {
      auto r = testing::RunTaco("create " + testing::ShellQuote(src) + " " + testing::ShellQuote(*tmp_ / out) +
                                " --collection " + testing::ShellQuote(*tmp_ / "collection.json") + " --metadata " +
                                testing::ShellQuote(*tmp_ / "meta.csv") + " " + extra);
      ASSERT_EQ(r.exit_code, 0) << r.err;
    }
    fs::create_directories(*tmp_ / "parts");
    fs::copy_file(*tmp_ / "in/ds.tacozip", *tmp_ / "parts/p1.tacozip");
    fs::copy_file(*tmp_ / "in/ds.tacozip", *tmp_ / "parts/p2.tacozip");
  }
  static void TearDownTestSuite() { delete tmp_; }

  std::vector<Writer> Writers() const {
    const std::string src = *tmp_ / "src";
    const std::string collection = *tmp_ / "collection.json";
    const std::string meta = *tmp_ / "meta.csv";
    return {
        {"create zip", {"create", src, "{out}", "--collection", collection, "--metadata", meta}, "ds.tacozip"},
        {"create folder", {"create", src, "{out}", "--collection", collection, "--format", "folder"}, "ds"},
        {"convert zip->folder", {"convert", *tmp_ / "in/ds.tacozip", "{out}"}, "ds"},
        {"convert folder->zip", {"convert", *tmp_ / "in/ds_folder", "{out}"}, "ds.tacozip"},
        {"export",
         {"export", *tmp_ / "in/ds.tacozip", "{out}", "--sql", "SELECT * FROM data WHERE id <> 'tile_2'"},
         "sub.tacozip"},
        {"tacocat",
         {"tacocat", "{outdir}/parts/p1.tacozip", "{outdir}/parts/p2.tacozip", "-o", "{outdir}"},
         ".tacocat",
         true,
         true},
        {"tacocat single file",
         {"tacocat", "{outdir}/parts/p1.tacozip", "{outdir}/parts/p2.tacozip", "-o", "{outdir}", "--single-file"},
         "__TACOCAT__",
         true,
         true},
    };
  }

  static std::vector<std::string> Args(const Writer& w, const std::string& outdir) {
    std::vector<std::string> out;
    for (const std::string& a : w.args) {
      if (a == "{out}")
        out.push_back(outdir + "/" + w.output_name);
      else if (a == "{outdir}")
        out.push_back(outdir);
      else if (a.rfind("{outdir}/", 0) == 0)
        out.push_back(outdir + a.substr(8));
      else
        out.push_back(a);
    }
    return out;
  }

  // Creates the output directory `dir` of a run, with the inputs the writer expects there.
  static void Prepare(const Writer& w, const std::string& dir) {
    fs::create_directories(dir);
    if (!w.inputs_in_outdir) return;
    fs::create_directories(dir + "/parts");
    fs::copy_file(*tmp_ / "parts/p1.tacozip", dir + "/parts/p1.tacozip");
    fs::copy_file(*tmp_ / "parts/p2.tacozip", dir + "/parts/p2.tacozip");
  }

  // Names in the output directory that are not left-overs: the inputs, and `output`.
  static std::set<std::string> Expected(const Writer& w, bool with_output) {
    std::set<std::string> names;
    if (with_output) names.insert(w.output_name);
    if (w.inputs_in_outdir) names.insert("parts");
    return names;
  }

  // A finished output: it opens, and a ZIP or FOLDER validates (CRCs included).
  static void ExpectComplete(const Writer& w, const std::string& path, const std::string& context) {
    auto ds = Dataset::Open(path);
    ASSERT_TRUE(ds.ok()) << context << ": " << ds.status().ToString();
    auto rows = (*ds)->RowCount();
    ASSERT_TRUE(rows.ok()) << context;
    EXPECT_GT(*rows, 0) << context;
    if (!w.output_is_index) {
      auto report = Validate(path);
      ASSERT_TRUE(report.ok()) << context << ": " << report.status().ToString();
      EXPECT_TRUE(report->ok()) << context << ": " << report->violations.size() << " violations, first "
                                << (report->violations.empty()
                                        ? ""
                                        : report->violations[0].rule + " " + report->violations[0].where);
    }
  }

  static TempDir* tmp_;
};

TempDir* CrashSafetyTest::tmp_ = nullptr;

// The calls of an uninterrupted run, counted by the crash library.
long CountPoints(const std::vector<std::string>& args, const std::string& dir) {
  const std::string count_file = dir + "/../count.txt";
  Outcome o = RunTaco(args, {PreloadEnv(), AsanEnv(), Env("TACO_CRASH_COUNT_FILE", count_file)}, dir + "/../log.txt");
  EXPECT_TRUE(o.exited && o.exit_code == 0) << testing::ReadFile(dir + "/../log.txt");
  std::ifstream in(count_file);
  long n = 0;
  in >> n;
  return n;
}

struct KillPoint {
  long call = 0;       // the N-th counted call
  bool after = false;  // killed right after it returns (else right before it runs)
};

// One point in each twentieth of [1, n], before or after the call, drawn with a fixed seed
// (the same on every run), plus the moment right after the last call.
std::vector<KillPoint> KillPoints(long n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<KillPoint> points;
  for (int i = 0; i < kKillPoints; ++i) {
    const long lo = 1 + n * i / kKillPoints;
    const long hi = std::max(lo, n * (i + 1) / kKillPoints);
    const long call = lo + static_cast<long>(rng() % static_cast<unsigned long>(hi - lo + 1));
    points.push_back({call, rng() % 2 == 1});
  }
  points.push_back({n, true});
  return points;
}

TEST_F(CrashSafetyTest, KilledAtAnyPointLeavesNothingOrACompleteOutput) {
  unsigned seed = 14;
  for (const Writer& w : Writers()) {
    SCOPED_TRACE(w.label);
    const std::string base = *tmp_ / ("run_" + std::to_string(seed));
    Prepare(w, base + "/count/out");
    const long n = CountPoints(Args(w, base + "/count/out"), base + "/count/out");
    ASSERT_GE(n, kKillPoints + 1) << w.label << ": too few file calls to spread the kill points";
    int complete = 0, absent = 0;
    for (const KillPoint& point : KillPoints(n, seed)) {
      const std::string context = w.label + ", killed " + (point.after ? "after" : "before") + " call " +
                                  std::to_string(point.call) + " of " + std::to_string(n);
      const std::string run_dir = base + "/k" + std::to_string(point.call) + (point.after ? "a" : "b");
      const std::string dir = run_dir + "/out";
      Prepare(w, dir);
      const std::vector<std::string> args = Args(w, dir);
      Outcome o = RunTaco(args,
                          {PreloadEnv(), AsanEnv(), Env("TACO_CRASH_AT", std::to_string(point.call)),
                           Env("TACO_CRASH_AFTER", point.after ? "1" : "0")},
                          dir + "/../log.txt");
      ASSERT_EQ(o.signal, SIGKILL) << context << ": " << testing::ReadFile(dir + "/../log.txt");

      const std::string final_path = dir + "/" + w.output_name;
      const bool exists = fs::exists(fs::symlink_status(final_path));
      if (exists) {
        ExpectComplete(w, final_path, context);
        ++complete;
      } else {
        ++absent;
      }
      // Anything else is a temporary of the killed process: ".<name>.tmp-<pid>-<host>-<hex>".
      for (const std::string& other : Others(dir, Expected(w, true))) {
        EXPECT_EQ(other.rfind("." + w.output_name + ".tmp-", 0), 0u) << context << ": left " << other;
      }
      // A rerun writes the output (when absent) and removes those temporaries.
      if (exists) fs::remove_all(final_path);
      Outcome again = RunTaco(args, {}, dir + "/../log2.txt");
      ASSERT_TRUE(again.exited && again.exit_code == 0)
          << context << ": rerun: " << testing::ReadFile(dir + "/../log2.txt");
      EXPECT_EQ(Others(dir, Expected(w, true)), std::set<std::string>{}) << context << ": the rerun left temporaries";
      ExpectComplete(w, final_path, context + ", rerun");
      fs::remove_all(run_dir);
    }
    EXPECT_GT(absent, 0) << w.label;    // early kills leave nothing
    EXPECT_GT(complete, 0) << w.label;  // the kill after the last call leaves the whole output
    ++seed;
  }
}

TEST_F(CrashSafetyTest, SigintAndSigtermRemoveTheTemporaryOutput) {
  const std::vector<Writer> writers = Writers();
  int signal_index = 0;
  for (const Writer& w : writers) {
    const int sig = (signal_index++ % 2) ? SIGTERM : SIGINT;
    SCOPED_TRACE(w.label + (sig == SIGINT ? " (SIGINT)" : " (SIGTERM)"));
    const std::string base = *tmp_ / ("sig_" + std::to_string(signal_index));
    Prepare(w, base + "/count/out");
    const long n = CountPoints(Args(w, base + "/count/out"), base + "/count/out");
    const std::string dir = base + "/stop/out";
    Prepare(w, dir);
    // Stopped half-way (SIGSTOP from the crash library), then interrupted and continued.
    Outcome o = RunTaco(Args(w, dir),
                        {PreloadEnv(), AsanEnv(), Env("TACO_CRASH_AT", std::to_string(n / 2)),
                         Env("TACO_CRASH_SIGNAL", std::to_string(SIGSTOP))},
                        dir + "/../log.txt", sig);
    EXPECT_EQ(o.signal, sig) << testing::ReadFile(dir + "/../log.txt");
    EXPECT_EQ(Others(dir, Expected(w, false)), std::set<std::string>{}) << "nothing may stay behind";
  }
}

}  // namespace
}  // namespace taco
