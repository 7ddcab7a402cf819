// Internal GDAL helpers for the extensions and the demo synthesiser: one-time driver
// registration, quiet error capture, raster opening, and little-endian ISO WKB writers.
#ifndef TACO_SRC_GDAL_GDAL_UTIL_H_
#define TACO_SRC_GDAL_GDAL_UTIL_H_

#include <array>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gdal_priv.h>

#include "taco/status.h"

namespace taco::ext::internal {

// GDALAllRegister() exactly once per process.
void EnsureGdalRegistered();

// While alive, GDAL errors on this thread are not printed; LastError() returns the last one.
class QuietGdalErrors {
 public:
  QuietGdalErrors();
  ~QuietGdalErrors();
  QuietGdalErrors(const QuietGdalErrors&) = delete;
  QuietGdalErrors& operator=(const QuietGdalErrors&) = delete;
  // The last GDAL error message, or `fallback` when GDAL gave none.
  static std::string LastError(const std::string& fallback);
};

struct DatasetCloser {
  void operator()(GDALDataset* ds) const { GDALClose(GDALDataset::ToHandle(ds)); }
};
using DatasetPtr = std::unique_ptr<GDALDataset, DatasetCloser>;

// True for the InvalidArgument "<path>: GDAL cannot open it as a raster: <why>" of
// OpenRaster / OpenSampleRaster (gdal/sample_raster.h).
bool IsNotARaster(const Status& status);

// The footprint of a raster in its own CRS: the pixel corners (0,0), (0,rows), (cols,rows),
// (cols,0) mapped through the geotransform, and the centre (cols/2, rows/2).
std::array<std::pair<double, double>, 4> CornerCoordinates(const double gt[6], int cols, int rows);
std::pair<double, double> CenterCoordinate(const double gt[6], int cols, int rows);

// "AUTH:CODE" when the CRS has an authority code, else its WKT (WKT2).
std::string CrsText(const OGRSpatialReference& srs);

// Transforms (x, y) from `srs` to EPSG:4326 lon/lat (traditional GIS axis order).
Result<std::pair<double, double>> ToLonLat(const OGRSpatialReference& srs, double x, double y);

// ISO WKB, little-endian.
std::string WkbPoint(double x, double y);
std::string WkbPolygon(const std::vector<std::pair<double, double>>& ring);

}  // namespace taco::ext::internal

#endif  // TACO_SRC_GDAL_GDAL_UTIL_H_
