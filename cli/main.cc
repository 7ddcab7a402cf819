// The `taco` command line (DESIGN §4). One file per subcommand (cmd_*.cc); public API only.
// Built into libtaco_cli.so, whose one exported symbol is taco_cli_main; the `taco`
// executable (cli/launcher.cc) loads it for every command but --version and --help.
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <streambuf>
#include <string>
#include <string_view>

#include "cli_common.h"
#include "taco/log.h"
#include "taco/version.h"
#include "taco/writer.h"
#include "usage.h"

namespace {

// std::cout's buffer: passes everything to stdio's stdout (so that the order with printf /
// fwrite output is kept) and remembers the errno of the first failed write, which later
// calls would overwrite before main reports it.
class RecordingStdoutBuf final : public std::streambuf {
 public:
  int first_error() const { return first_error_; }

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    if (std::fputc(traits_type::to_char_type(c), stdout) == EOF) return Failed();
    return c;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    const size_t written = std::fwrite(s, 1, static_cast<size_t>(n), stdout);
    if (written != static_cast<size_t>(n)) Failed();
    return static_cast<std::streamsize>(written);
  }
  int sync() override { return std::fflush(stdout) == 0 ? 0 : (Failed(), -1); }

 private:
  int_type Failed() {
    if (first_error_ == 0) first_error_ = errno != 0 ? errno : EIO;
    return traits_type::eof();
  }
  int first_error_ = 0;
};

// Never destroyed: std::cout is flushed at exit, after the statics of this file are gone.
RecordingStdoutBuf& stdout_buf = *new RecordingStdoutBuf;

// Every command's output reaches its destination or the command fails: flushes stdout and
// checks it (a full disk, /dev/full, a closed file), with "taco: writing output: <why>"
// and exit 2 when the output was not written completely.
int CheckedOutput(int exit_code) {
  errno = 0;
  std::cout.flush();
  bool failed = !std::cout.good();
  if (std::fflush(stdout) != 0) failed = true;
  int error = stdout_buf.first_error() != 0 ? stdout_buf.first_error() : errno;
  if (std::ferror(stdout) != 0) failed = true;
  if (!failed) return exit_code;
  std::cerr << "taco: writing output: " << std::strerror(error != 0 ? error : EIO) << "\n";
  return exit_code == taco::cli::kExitOk ? taco::cli::kExitBadInput : exit_code;
}

}  // namespace

// argc/argv as main() receives them; returns the exit code.
extern "C" __attribute__((visibility("default"))) int taco_cli_main(int argc, char** argv) {
  using namespace taco::cli;
  const auto start = std::chrono::steady_clock::now();
  std::cout.rdbuf(&stdout_buf);
  // First, before any thread exists: Ctrl-C / SIGTERM remove the temporary outputs.
  taco::RemoveTemporaryOutputsOnSignals();
  Context ctx;
  CLI::App app{
      "taco: build, check, query and stream TACO datasets (AI-ready Earth Observation data).\n"
      "Every command takes a dataset path or URL: .tacozip/.zip, a FOLDER dataset, .tacocat."};
  app.name("taco");
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("taco ") + taco::kLibraryVersion);
  app.add_flag("-v,--verbose", ctx.global.verbose,
               "On stderr: what is opened, every HTTP request (URL, byte range, status, bytes, time), cache "
               "use, outputs written and timings");
  app.add_flag("--debug", ctx.global.debug, "Like -v, plus every file read and every SQL statement with its time");
  app.add_flag("-q,--quiet", ctx.global.quiet, "Print only results and errors");
  app.add_flag("--no-cache", ctx.global.no_cache,
               "Do not use or fill the disk cache of remote ZIP metadata (also TACO_NO_CACHE=1)");
  app.add_flag("--allow-external-rasters", ctx.global.allow_external_rasters,
               "Let the pixel readers (stats --method exact) open sample bytes in any GDAL format, VRT/GTI/WMS "
               "and other formats that name files or URLs included, and `create --ext` read such inputs. Default: "
               "only self-contained formats (GTiff/COG, PNG, JPEG, GIF, BMP, WEBP), no side-car files, no "
               "network for a local dataset: a stranger's sample cannot make taco read outside the dataset "
               "(also TACO_ALLOW_EXTERNAL_RASTERS=YES)");
  app.footer("Run 'taco <command> --help' for a command's arguments and options; 'taco help <command>' too.");
  app.add_option("--base-path", ctx.global.base_path,
                 "TACOCAT: the directory holding its ZIPs, when they are no longer where the index says (default: "
                 "the index's own directory; also TACO_BASE_PATH)");
  app.add_flag("--allow-external-sql", ctx.global.allow_external_sql,
               "Let SQL (taco sql, --sql, --files-sql) read local files besides the dataset, e.g. "
               "read_csv('my.csv') to join; by default SQL reads only the dataset. Statements other than reads "
               "(COPY, ATTACH, INSTALL, CREATE, SET, ...) stay refused");
  app.fallthrough();
  // -v/--debug switch the library's log on before any command callback runs.
  app.parse_complete_callback([&ctx] {
    if (ctx.global.debug) {
      taco::SetLogLevel(taco::LogLevel::kDebug);
    } else if (ctx.global.verbose) {
      taco::SetLogLevel(taco::LogLevel::kVerbose);
    }
  });

  for (CommandAdder add : RegisteredCommands()) add(app, ctx);
  if (auto done = HandleCommandWord(app, argc, argv)) return *done;

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return CheckedOutput(kExitOk);
  } catch (const CLI::CallForAllHelp&) {
    std::cout << app.help("", CLI::AppFormatMode::All);
    return CheckedOutput(kExitOk);
  } catch (const CLI::CallForVersion&) {
    std::cout << "taco " << taco::kLibraryVersion << "\n";
    return CheckedOutput(kExitOk);
  } catch (const CLI::ParseError& e) {
    std::cerr << UsageErrorLine(app, e.what()) << "\n";
    return kExitBadInput;
  } catch (const std::exception& e) {  // the library never throws; this is the last safety net
    std::cerr << "taco: internal error: " << e.what() << "\n";
    return kExitBadInput;
  }
  if (taco::LogEnabled(taco::LogLevel::kVerbose)) {
    std::vector<CLI::App*> used = app.get_subcommands();
    taco::Log(taco::LogLevel::kVerbose, "taco " + (used.empty() ? std::string() : used.front()->get_name()) +
                                            ": done in " + taco::ElapsedText(start) + ", exit code " +
                                            std::to_string(ctx.exit_code));
  }
  return CheckedOutput(ctx.exit_code);
}
