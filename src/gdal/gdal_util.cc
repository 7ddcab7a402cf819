#include "gdal/gdal_util.h"

#include <cstring>
#include <mutex>

#include <cpl_error.h>
#include <ogr_spatialref.h>

namespace taco::ext::internal {

void EnsureGdalRegistered() {
  static std::once_flag once;
  std::call_once(once, [] { GDALAllRegister(); });
}

QuietGdalErrors::QuietGdalErrors() {
  CPLPushErrorHandler(CPLQuietErrorHandler);
  CPLErrorReset();
}

QuietGdalErrors::~QuietGdalErrors() { CPLPopErrorHandler(); }

std::string QuietGdalErrors::LastError(const std::string& fallback) {
  const char* msg = CPLGetLastErrorMsg();
  if (msg == nullptr || *msg == '\0') return fallback;
  return msg;
}

namespace {
constexpr char kNotARaster[] = ": GDAL cannot open it as a raster: ";
}  // namespace

bool IsNotARaster(const Status& status) {
  return status.code() == StatusCode::kInvalidArgument && status.message().find(kNotARaster) != std::string::npos;
}

static std::pair<double, double> Apply(const double gt[6], double px, double py) {
  return {gt[0] + px * gt[1] + py * gt[2], gt[3] + px * gt[4] + py * gt[5]};
}

std::array<std::pair<double, double>, 4> CornerCoordinates(const double gt[6], int cols, int rows) {
  return {Apply(gt, 0, 0), Apply(gt, 0, rows), Apply(gt, cols, rows), Apply(gt, cols, 0)};
}

std::pair<double, double> CenterCoordinate(const double gt[6], int cols, int rows) {
  return Apply(gt, cols / 2.0, rows / 2.0);
}

std::string CrsText(const OGRSpatialReference& srs) {
  const char* auth = srs.GetAuthorityName(nullptr);
  const char* code = srs.GetAuthorityCode(nullptr);
  if (auth != nullptr && code != nullptr && *auth != '\0' && *code != '\0') {
    return std::string(auth) + ":" + code;
  }
  {
    // A CRS read from GeoTIFF keys may lack the code although it is an EPSG one.
    QuietGdalErrors quiet;
    OGRSpatialReference copy(srs);
    if (copy.AutoIdentifyEPSG() == OGRERR_NONE) {
      const char* epsg = copy.GetAuthorityCode(nullptr);
      if (epsg != nullptr && *epsg != '\0') return std::string("EPSG:") + epsg;
    }
  }
  char* wkt = nullptr;
  const char* options[] = {"FORMAT=WKT2", nullptr};
  std::string text;
  if (srs.exportToWkt(&wkt, options) == OGRERR_NONE && wkt != nullptr) text = wkt;
  CPLFree(wkt);
  return text;
}

Result<std::pair<double, double>> ToLonLat(const OGRSpatialReference& srs, double x, double y) {
  QuietGdalErrors quiet;
  OGRSpatialReference source(srs);
  source.SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);
  OGRSpatialReference wgs84;
  if (wgs84.importFromEPSG(4326) != OGRERR_NONE) {
    return Status::Internal("EPSG:4326: " + QuietGdalErrors::LastError("PROJ database not available"));
  }
  wgs84.SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);
  std::unique_ptr<OGRCoordinateTransformation> ct(OGRCreateCoordinateTransformation(&source, &wgs84));
  if (ct == nullptr) {
    return Status::InvalidArgument("no transformation to EPSG:4326: " + QuietGdalErrors::LastError("unknown"));
  }
  double px = x, py = y;
  if (!ct->Transform(1, &px, &py)) {
    return Status::InvalidArgument("cannot transform the point to EPSG:4326: " +
                                   QuietGdalErrors::LastError("outside the CRS's domain"));
  }
  return std::make_pair(px, py);
}

namespace {
void PutU32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}
void PutF64(std::string& out, double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((bits >> (8 * i)) & 0xFF));
}
}  // namespace

std::string WkbPoint(double x, double y) {
  std::string out;
  out.reserve(21);
  out.push_back('\x01');
  PutU32(out, 1);
  PutF64(out, x);
  PutF64(out, y);
  return out;
}

std::string WkbPolygon(const std::vector<std::pair<double, double>>& ring) {
  std::string out;
  out.reserve(13 + 16 * ring.size());
  out.push_back('\x01');
  PutU32(out, 3);
  PutU32(out, 1);
  PutU32(out, static_cast<uint32_t>(ring.size()));
  for (const auto& [x, y] : ring) {
    PutF64(out, x);
    PutF64(out, y);
  }
  return out;
}

}  // namespace taco::ext::internal
