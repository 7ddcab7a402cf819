// Synthetic change-detection tiles (see include/taco/demo_data.h).
#include "taco/demo_data.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <system_error>

#include <cpl_string.h>
#include <gdal_priv.h>
#include <ogr_spatialref.h>

#include "gdal/gdal_util.h"

namespace taco {
namespace {

using ext::internal::QuietGdalErrors;

struct Place {
  const char* country;
  double lon, lat;
};
constexpr Place kPlaces[] = {
    {"Spain", -4.05, 39.45},   {"Kenya", 36.95, -0.55},       {"Peru", -72.05, -13.45},   {"Japan", 140.05, 36.15},
    {"Germany", 10.45, 51.05}, {"Australia", 146.55, -33.55}, {"Brazil", -55.05, -12.05}, {"India", 78.45, 22.55},
};
constexpr double kPi = 3.14159265358979323846;
constexpr int kBands = 4;
constexpr const char* kBandNames[kBands] = {"B02", "B03", "B04", "B08"};
constexpr double kPixelMetres = 10.0;
constexpr int64_t kFirstStartSeconds = 1609459200;  // 2021-01-01T00:00:00
constexpr int64_t kDay = 86400;

// Reflectance x 10000 of each land-cover class in B02, B03, B04, B08.
constexpr double kReflectance[4][kBands] = {
    {620, 540, 320, 160},      // water
    {420, 720, 430, 3400},     // vegetation
    {1150, 1480, 1790, 2450},  // bare soil
    {1380, 1420, 1510, 1820},  // built-up
};

uint64_t SplitMix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}
// Uniform in [0, 1) from a key.
double Unit(uint64_t key) { return static_cast<double>(SplitMix(key) >> 11) * 0x1.0p-53; }

// A smooth random field in about [-1, 1]: three waves with tile-specific directions.
class Field2D {
 public:
  Field2D(uint64_t seed, double size) {
    for (int k = 0; k < 3; ++k) {
      const double angle = 2 * kPi * Unit(seed * 31 + k);
      const double cycles = 0.6 + 1.6 * Unit(seed * 37 + k);
      fx_[k] = std::cos(angle) * cycles * 2 * kPi / size;
      fy_[k] = std::sin(angle) * cycles * 2 * kPi / size;
      phase_[k] = 2 * kPi * Unit(seed * 41 + k);
    }
  }
  double operator()(double x, double y) const {
    double v = 0;
    for (int k = 0; k < 3; ++k) v += std::sin(fx_[k] * x + fy_[k] * y + phase_[k]);
    return v / 1.7;
  }

 private:
  double fx_[3], fy_[3], phase_[3];
};

struct TileRasters {
  std::vector<uint16_t> before, after;  // band-sequential
  std::vector<uint8_t> label;
};

TileRasters MakeTile(int tile, int size) {
  const uint64_t seed = static_cast<uint64_t>(tile) * 1000003ULL + 17;
  const Field2D water(seed + 1, size), built(seed + 2, size), soil(seed + 3, size), change(seed + 4, size);
  const size_t n = static_cast<size_t>(size) * static_cast<size_t>(size);
  TileRasters t;
  t.before.resize(n * kBands);
  t.after.resize(n * kBands);
  t.label.resize(n);
  const double season = 0.9 + 0.2 * Unit(seed + 5);
  for (int y = 0; y < size; ++y) {
    for (int x = 0; x < size; ++x) {
      const size_t i = static_cast<size_t>(y) * static_cast<size_t>(size) + static_cast<size_t>(x);
      int before_class = 1;
      if (water(x, y) < -0.75) {
        before_class = 0;
      } else if (built(x, y) > 0.7) {
        before_class = 3;
      } else if (soil(x, y) > 0.45) {
        before_class = 2;
      }
      // Change: some vegetation is cleared, some bare soil is built on.
      int after_class = before_class;
      if (change(x, y) > 0.55 && before_class == 1) after_class = 2;
      if (change(x, y) < -0.8 && before_class == 2) after_class = 3;
      t.label[i] = static_cast<uint8_t>(after_class);
      for (int b = 0; b < kBands; ++b) {
        const uint64_t key = (seed << 24) ^ (i << 3) ^ static_cast<uint64_t>(b);
        const double noise_before = 1 + 0.08 * (Unit(key) - 0.5);
        const double noise_after = 1 + 0.08 * (Unit(key ^ 0xABCDEF) - 0.5);
        const double vb = kReflectance[before_class][b] * noise_before;
        const double va = kReflectance[after_class][b] * noise_after * season;
        t.before[static_cast<size_t>(b) * n + i] = static_cast<uint16_t>(std::clamp(vb, 1.0, 10000.0));
        t.after[static_cast<size_t>(b) * n + i] = static_cast<uint16_t>(std::clamp(va, 1.0, 10000.0));
      }
    }
  }
  return t;
}

Status WriteTiff(const std::string& path, int size, int bands, GDALDataType type, const void* pixels,
                 const double gt[6], const OGRSpatialReference& srs, bool named_bands) {
  GDALDriver* driver = GetGDALDriverManager()->GetDriverByName("GTiff");
  if (driver == nullptr) return Status::NotSupported(path + ": GDAL has no GTiff driver");
  QuietGdalErrors quiet;
  CPLStringList options;
  options.SetNameValue("COMPRESS", "DEFLATE");
  GDALDataset* ds = driver->Create(path.c_str(), size, size, bands, type, options.List());
  if (ds == nullptr) return Status::IOError(path + ": cannot create: " + QuietGdalErrors::LastError("GTiff"));
  ext::internal::DatasetPtr owner(ds);
  ds->SetGeoTransform(const_cast<double*>(gt));
  ds->SetSpatialRef(&srs);
  const int bytes = GDALGetDataTypeSizeBytes(type);
  const size_t band_bytes = static_cast<size_t>(size) * static_cast<size_t>(size) * static_cast<size_t>(bytes);
  for (int b = 1; b <= bands; ++b) {
    GDALRasterBand* band = ds->GetRasterBand(b);
    if (named_bands) band->SetDescription(kBandNames[b - 1]);
    void* data = const_cast<char*>(static_cast<const char*>(pixels) + band_bytes * static_cast<size_t>(b - 1));
    if (band->RasterIO(GF_Write, 0, 0, size, size, data, size, size, type, 0, 0, nullptr) != CE_None) {
      return Status::IOError(path + ": cannot write band " + std::to_string(b) + ": " +
                             QuietGdalErrors::LastError("write failed"));
    }
  }
  owner.reset();
  if (CPLGetLastErrorType() >= CE_Failure) {
    return Status::IOError(path + ": " + QuietGdalErrors::LastError("write failed"));
  }
  return Status::OK();
}

}  // namespace

Result<std::vector<DemoTile>> SynthesizeDemoTree(const std::string& dir, const DemoOptions& options) {
  if (options.tiles < 1) return Status::InvalidArgument("demo: tiles must be >= 1");
  if (options.size < 8 || options.size > 4096) return Status::InvalidArgument("demo: size must be in 8..4096");
  ext::internal::EnsureGdalRegistered();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::IOError(dir + ": cannot create directory: " + ec.message());

  OGRSpatialReference wgs84;
  {
    QuietGdalErrors quiet;
    if (wgs84.importFromEPSG(4326) != OGRERR_NONE) {
      return Status::Internal("EPSG:4326: " + QuietGdalErrors::LastError("PROJ database not available"));
    }
  }
  wgs84.SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);

  std::vector<DemoTile> tiles;
  const int size = options.size;
  const size_t n = std::size(kPlaces);
  for (int k = 0; k < options.tiles; ++k) {
    const Place& place = kPlaces[static_cast<size_t>(k) % n];
    const int round = static_cast<int>(static_cast<size_t>(k) / n);
    const double lon = place.lon + 0.07 * (round % 4);
    const double lat = place.lat + 0.05 * (round / 4) - 0.02 * (round % 3);
    const int zone = std::clamp(static_cast<int>(std::floor((lon + 180.0) / 6.0)) + 1, 1, 60);
    OGRSpatialReference utm;
    QuietGdalErrors quiet;
    if (utm.importFromEPSG((lat >= 0 ? 32600 : 32700) + zone) != OGRERR_NONE) {
      return Status::Internal("UTM zone " + std::to_string(zone) + ": " + QuietGdalErrors::LastError("unknown"));
    }
    utm.SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);
    std::unique_ptr<OGRCoordinateTransformation> fwd(OGRCreateCoordinateTransformation(&wgs84, &utm));
    std::unique_ptr<OGRCoordinateTransformation> inv(OGRCreateCoordinateTransformation(&utm, &wgs84));
    double x = lon, y = lat;
    if (fwd == nullptr || inv == nullptr || !fwd->Transform(1, &x, &y)) {
      return Status::Internal("demo: cannot project to UTM zone " + std::to_string(zone) + ": " +
                              QuietGdalErrors::LastError("unknown"));
    }
    // Snap the top-left corner to the 10 m pixel grid.
    const double half = size * kPixelMetres / 2;
    const double x0 = std::round((x - half) / kPixelMetres) * kPixelMetres;
    const double y0 = std::round((y + half) / kPixelMetres) * kPixelMetres;
    const double gt[6] = {x0, kPixelMetres, 0, y0, 0, -kPixelMetres};
    double cx = x0 + half, cy = y0 - half;
    if (!inv->Transform(1, &cx, &cy)) {
      return Status::Internal("demo: cannot project back from UTM zone " + std::to_string(zone));
    }

    char id[32];
    std::snprintf(id, sizeof id, "tile_%02d", k);
    const std::string tile_dir = dir + "/" + id;
    std::filesystem::create_directories(tile_dir, ec);
    if (ec) return Status::IOError(tile_dir + ": cannot create directory: " + ec.message());

    const TileRasters r = MakeTile(k, size);
    TACO_RETURN_IF_ERROR(WriteTiff(tile_dir + "/before.tif", size, kBands, GDT_UInt16, r.before.data(), gt, utm, true));
    TACO_RETURN_IF_ERROR(WriteTiff(tile_dir + "/after.tif", size, kBands, GDT_UInt16, r.after.data(), gt, utm, true));
    TACO_RETURN_IF_ERROR(WriteTiff(tile_dir + "/label.tif", size, 1, GDT_Byte, r.label.data(), gt, utm, false));

    const int64_t start_s = kFirstStartSeconds + k * 3 * kDay + (k % 5) * 3600 + 10 * 3600;
    DemoTile tile;
    tile.id = id;
    tile.lon = cx;
    tile.lat = cy;
    tile.time_start_us = start_s * 1000000;
    tile.time_end_us = (start_s + 150 * kDay) * 1000000;
    tile.country = place.country;
    tiles.push_back(std::move(tile));
  }
  return tiles;
}

}  // namespace taco
