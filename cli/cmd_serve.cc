// `taco serve PATH… [--port N] [--host ADDR]`: serves datasets under /data/<name> and the
// explorer page at / over HTTP/1.1 (Range, ETag, CORS), on loopback unless told otherwise
// (cli/serve/, docs/cli.md). Runs until SIGINT/SIGTERM, then exits 0.
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <iostream>

#include "cli_common.h"
#include "serve/http_server.h"
#include "serve/served_tree.h"
#include "taco/dataset.h"
#include "taco/version.h"

namespace taco::cli {
namespace {

struct ServeArgs {
  std::vector<std::string> paths;
  int port = 8000;
  std::string host = "127.0.0.1";
  bool allow_remote_clients = false;
  std::string explorer;      // empty: <directory of the taco executable>/js/explorer when it exists
  bool no_explorer = false;  // serve the page listing the datasets at / instead
  bool no_log = false;
  int max_connections = 64;
};

// Where `make` builds the JavaScript package (taco) and the explorer: build/js, next to
// build/taco. "/nonexistent" when the executable's path is unknown.
std::string BuildJsDir() {
  char buf[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (n <= 0) return "/nonexistent";
  std::string exe(buf, static_cast<size_t>(n));
  return exe.substr(0, exe.rfind('/')) + "/js";
}

int RunServe(const ServeArgs& args, const Context& ctx) {
  if (args.port < 0 || args.port > 65535) {
    return ReportError(Status::InvalidArgument("--port " + std::to_string(args.port) + ": not a port (0-65535)"));
  }
  if (args.max_connections < 1) {
    return ReportError(Status::InvalidArgument("--max-connections must be at least 1"));
  }
  const bool loopback = serve::IsLoopbackHost(args.host);
  if (!loopback && !args.allow_remote_clients) {
    return ReportError(Status::InvalidArgument(
        "--host " + args.host +
        ": not a loopback address; other machines could read the datasets: add --allow-remote-clients to mean it"));
  }
  serve::ServedTree tree;
  for (const std::string& path : args.paths) {
    // The same check every command makes: a path that does not open as a dataset is refused here.
    auto ds = Dataset::Open(path, DatasetOpenOptions(ctx.global));
    if (!ds.ok()) return ReportError(ds.status());
    Status st = tree.AddDataset(path);
    if (!st.ok()) return ReportError(st);
  }
  if (args.no_explorer) {
    // The built-in page listing the datasets is served at /.
  } else if (!args.explorer.empty()) {
    Status st = tree.SetExplorer(args.explorer);
    if (!st.ok()) return ReportError(st);
  } else if (std::string dir = BuildJsDir() + "/explorer"; ::access(dir.c_str(), R_OK | X_OK) == 0) {
    Status st = tree.SetExplorer(dir);
    if (!st.ok()) return ReportError(st);
  }
  if (std::string dir = BuildJsDir() + "/taco"; ::access((dir + "/taco.browser.js").c_str(), R_OK) == 0) {
    Status st = tree.SetPackage(dir);
    if (!st.ok()) return ReportError(st);
  }
  if (!loopback) {
    std::cerr << "taco serve: WARNING: listening on " << args.host
              << ", not loopback: every machine that can reach it can read the datasets served\n";
  }
  serve::ServerOptions options;
  options.host = args.host;
  options.port = args.port;
  options.access_log = !args.no_log && !ctx.global.quiet;
  options.max_connections = args.max_connections;
  options.server_header = std::string("taco/") + kLibraryVersion;
  Status st = serve::Serve(tree, options, [&tree](const std::string& host, int port) {
    const std::string shown = host.find(':') != std::string::npos ? "[" + host + "]" : host;
    const std::string base = "http://" + shown + ":" + std::to_string(port);
    std::cout << "taco serve: " << base << "/ ("
              << (tree.has_explorer() ? "the explorer" : "explorer not built: a page listing the datasets")
              << "; Ctrl-C stops)\n";
    for (const serve::Mount& m : tree.mounts()) {
      std::cout << "  " << m.source << " (" << serve::MountKindName(m.kind) << "): " << base << "/?url=" << m.url_path
                << "\n";
    }
    std::cout.flush();
  });
  if (!st.ok()) return ReportError(st);
  return kExitOk;
}

void AddServeCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<ServeArgs>();
  CLI::App* cmd = app.add_subcommand(
      "serve",
      "Serve datasets and the explorer page over HTTP for a browser (or any HTTP client): each PATH under "
      "/data/<name> (a ZIP as one file; a FOLDER, a .tacocat folder or a __TACOCAT__ file as the files of the "
      "dataset), the explorer at / (or a page listing the datasets when it is not built), the build's JavaScript "
      "package (js/taco next to the taco executable) at /taco/. GET and HEAD with one "
      "byte range (206, 416), ETag and If-None-Match (304), If-Range, CORS headers and OPTIONS preflight for "
      "pages on other origins, keep-alive. Nothing outside the paths is served: no '..', no symlink leaving a "
      "dataset, no directory listing. Prints the explorer URL of each dataset on stdout, one line per request on "
      "stderr; SIGINT/SIGTERM stop it (exit 0)");
  cmd->add_option("paths", args->paths,
                  "Datasets: .tacozip/.zip files, FOLDER dataset directories, .tacocat folders (or the directory "
                  "holding one), __TACOCAT__ files; the name under /data/ is the file or directory name")
      ->required();
  cmd->add_option("--port", args->port, "TCP port; 0 picks a free one (printed)")->capture_default_str();
  cmd->add_option("--host", args->host,
                  "Address to listen on; anything but loopback (127.0.0.0/8, ::1, localhost) needs "
                  "--allow-remote-clients")
      ->capture_default_str();
  cmd->add_flag("--allow-remote-clients", args->allow_remote_clients,
                "Let --host be a non-loopback address (e.g. 0.0.0.0): every machine that reaches it can read the "
                "datasets; a warning is printed");
  cmd->add_option("--explorer", args->explorer,
                  "Directory of the explorer's static files (default: js/explorer next to the taco executable, as "
                  "`make` builds it, when it exists)");
  cmd->add_flag("--no-explorer", args->no_explorer,
                "Serve a plain page listing the datasets at / instead of the explorer")
      ->excludes("--explorer");
  cmd->add_flag("--no-log", args->no_log, "No access-log line per request on stderr (also -q)");
  cmd->add_option("--max-connections", args->max_connections,
                  "Connections served at once (a thread each); more are answered 503")
      ->capture_default_str();
  cmd->callback([args, &ctx] { ctx.exit_code = RunServe(*args, ctx); });
}

const CommandRegistration kRegistered(190, &AddServeCommand);

}  // namespace
}  // namespace taco::cli
