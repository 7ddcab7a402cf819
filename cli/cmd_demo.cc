// `taco demo [DIR]`: the embedded walk-through (DESIGN §4). Synthesises a small EO dataset
// (GeoTIFF tiles with real georeferencing), attaches STAC and GeoTIFF-stats extensions,
// writes it as ZIP and FOLDER, then shows info, a query and a sample read.
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <iostream>

#include "cli_common.h"
#include "demo_dataset.h"
#include "table_output.h"
#include "taco/dataset.h"
#include "taco/demo_data.h"
#include "taco/extensions.h"
#include "taco/writer.h"

namespace taco::cli {
namespace {

namespace fs = std::filesystem;

class Stopwatch {
 public:
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

std::string Seconds(double s) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(2) << s << " s";
  return out.str();
}

uint64_t TreeBytes(const std::string& path) {
  if (fs::is_regular_file(path)) return fs::file_size(path);
  uint64_t total = 0;
  for (const auto& e : fs::recursive_directory_iterator(path)) {
    if (e.is_regular_file()) total += e.file_size();
  }
  return total;
}

Result<std::string> WorkDir(const std::string& requested) {
  if (!requested.empty()) {
    std::error_code ec;
    fs::create_directories(requested, ec);
    if (ec) return Status::IOError(requested + ": cannot create directory: " + ec.message());
    for (const char* name : {"tiles", "demo.tacozip", "demo"}) {
      if (fs::exists(fs::path(requested) / name)) {
        return Status::AlreadyExists((fs::path(requested) / name).string() +
                                     ": already exists (give `taco demo` an empty or new directory)");
      }
    }
    return fs::absolute(requested).lexically_normal().string();
  }
  std::string tmpl = (fs::temp_directory_path() / "taco-demo-XXXXXX").string();
  if (::mkdtemp(tmpl.data()) == nullptr) return Status::IOError(tmpl + ": cannot create a temporary directory");
  return tmpl;
}

int RunDemo(const std::string& requested_dir) {
  auto dir = WorkDir(requested_dir);
  if (!dir.ok()) return ReportError(dir.status());
  const std::string tiles_dir = *dir + "/tiles", zip_path = *dir + "/demo.tacozip", folder_path = *dir + "/demo";
  std::cout << "taco demo: a walk through TACO on a small synthetic Earth-observation dataset\n"
            << "working directory: " << *dir << "\n\n";

  Stopwatch total;
  Stopwatch step;
  std::cout << "[1/5] synthesising 48 tiles x {before.tif, after.tif, label.tif} (64x64 GeoTIFF, UTM) ...\n";
  auto tiles = SynthesizeDemoTree(tiles_dir);
  if (!tiles.ok()) return ReportError(tiles.status());
  std::cout << "      " << tiles->size() * 3 << " rasters in " << tiles_dir << " (" << Seconds(step.seconds())
            << ")\n\n";

  step = Stopwatch();
  std::cout << "[2/5] building the Taco: 48 FOLDER samples x 3 FILE samples, STAC + GeoTIFF statistics ...\n";
  auto taco = BuildDemoTaco(tiles_dir, *tiles);
  if (!taco.ok()) return ReportError(taco.status());
  std::cout << "      validated (PIT, ids, schemas) in " << Seconds(step.seconds()) << "\n\n";

  step = Stopwatch();
  std::cout << "[3/5] writing it as a TACO ZIP and as a FOLDER ...\n";
  for (const std::string& out : {zip_path, folder_path}) {
    auto written = Create(*taco, out);
    if (!written.ok()) return ReportError(written.status());
    std::cout << "      " << out << "  (" << TreeBytes(out) << " bytes)\n";
  }
  std::cout << "      (" << Seconds(step.seconds()) << ")\n\n";

  std::cout << "[4/5] $ taco info " << zip_path << "\n";
  if (int rc = PrintInfo(zip_path, false); rc != kExitOk) return rc;
  std::cout << "\n";

  auto ds = Dataset::Open(zip_path);
  if (!ds.ok()) return ReportError(ds.status());
  const std::string query =
      "SELECT country, count(*) AS tiles, min(\"stac:time_start\") AS first FROM data GROUP BY country "
      "ORDER BY tiles DESC, country";
  std::cout << "[5/5] $ taco sql " << zip_path << " '" << query << "'\n";
  auto view = (*ds)->Sql(query);
  if (!view.ok()) return ReportError(view.status());
  auto rows = (*view)->Data();
  if (!rows.ok()) return ReportError(rows.status());
  PrintTable(*rows, OutputFormat::kTable, std::cout);

  std::cout << "\n      $ taco read " << zip_path << " tile_05 label.tif\n";
  auto node = (*ds)->ReadPath({SampleKey(std::string("tile_05")), SampleKey(std::string("label.tif"))});
  if (!node.ok()) return ReportError(node.status());
  std::cout << "      " << node->gdal_path << "\n";
  auto stats = ext::GeotiffStats(node->gdal_path, {true, {0, 1, 2, 3}});
  if (!stats.ok()) return ReportError(stats.status());
  std::cout << "      GDAL opens that path directly; class frequencies of its pixels "
               "(water, vegetation, bare soil, built-up): "
            << stats->at(0).value.ToString() << "\n\n";

  std::cout << "done in " << Seconds(total.seconds()) << ". Try next:\n"
            << "  taco ls " << zip_path << " tile_05\n"
            << "  taco filter " << zip_path << " --bbox -10,35,5,44      # tiles in Spain\n"
            << "  taco sql " << folder_path << " 'SELECT id, split FROM data LIMIT 5' --format csv\n"
            << "  taco cat " << zip_path << " tile_00 before.tif > before.tif\n";
  return kExitOk;
}

void AddDemoCommand(CLI::App& app, Context& ctx) {
  auto dir = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "demo", "Walk through TACO on a small synthetic dataset: create it as ZIP and FOLDER, query it, read a sample");
  cmd->add_option("dir", *dir,
                  "Directory for the demo files (created if missing; must not hold tiles/, demo.tacozip or demo/). "
                  "Default: a new temporary directory");
  cmd->callback([dir, &ctx] { ctx.exit_code = RunDemo(*dir); });
}

const CommandRegistration kRegistered(10, &AddDemoCommand);

}  // namespace
}  // namespace taco::cli
