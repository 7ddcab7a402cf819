// STAC and ISTAC sample extensions (FORMAT §7.4).
#include <optional>
#include <string>
#include <vector>

#include <ogr_spatialref.h>

#include "gdal/gdal_util.h"
#include "gdal/sample_raster.h"
#include "taco/extensions.h"

namespace taco::ext {
namespace {

using internal::DatasetPtr;

struct Times {
  Value start, end, middle;
};

Result<Times> CheckTimes(const std::string& path, std::optional<int64_t> start, std::optional<int64_t> end) {
  Times t;
  if (start) t.start = TimestampUs{*start};
  if (end) t.end = TimestampUs{*end};
  if (start && end) {
    if (*end < *start) {
      return Status::InvalidArgument(path + ": time_end (" + FormatTimestampUs(*end) + ") is before time_start (" +
                                     FormatTimestampUs(*start) + ")");
    }
    // floor((start + end) / 2) = start + floor((end - start) / 2), computed without overflow.
    const uint64_t span = static_cast<uint64_t>(*end) - static_cast<uint64_t>(*start);
    const int64_t middle = *start + static_cast<int64_t>(span / 2);
    t.middle = TimestampUs{middle};
  }
  return t;
}

// What both extensions read from a raster.
struct Georef {
  int bands = 0, cols = 0, rows = 0;
  bool has_geotransform = false;
  double gt[6] = {0, 1, 0, 0, 0, 1};
  std::optional<OGRSpatialReference> srs;
};

Result<Georef> ReadGeoref(const std::string& path) {
  TACO_ASSIGN_OR_RETURN(internal::SampleRaster ds, internal::OpenRaster(path));
  Georef g;
  g.bands = ds->GetRasterCount();
  g.cols = ds->GetRasterXSize();
  g.rows = ds->GetRasterYSize();
  {
    internal::QuietGdalErrors quiet;
    g.has_geotransform = ds->GetGeoTransform(g.gt) == CE_None;
  }
  const OGRSpatialReference* srs = ds->GetSpatialRef();
  if (srs != nullptr && !srs->IsEmpty()) g.srs = *srs;
  return g;
}

// The EPSG:4326 centroid as WKB, or null without CRS/geotransform.
Result<Value> Centroid(const std::string& path, const Georef& g) {
  if (!g.srs || !g.has_geotransform) return Value();
  const auto [x, y] = internal::CenterCoordinate(g.gt, g.cols, g.rows);
  auto lonlat = internal::ToLonLat(*g.srs, x, y);
  if (!lonlat.ok()) return lonlat.status().WithPrefix(path);
  return Value(Binary{internal::WkbPoint(lonlat->first, lonlat->second)});
}

Value CrsValue(const Georef& g) {
  if (!g.srs) return Value();
  return Value(internal::CrsText(*g.srs));
}

Field F(std::string name, DataType type, std::string description) {
  return Field{std::move(name), std::move(type), Value(), std::move(description)};
}

}  // namespace

std::vector<Field> StacSchema() {
  return {
      F("stac:crs", DataType::String(), "Coordinate reference system: AUTHORITY:CODE when known, else WKT"),
      F("stac:tensor_shape", DataType::List(DataType::Int64()), "Raster shape [bands, rows, cols]"),
      F("stac:geotransform", DataType::List(DataType::Double()), "GDAL affine geotransform (6 coefficients)"),
      F("stac:time_start", DataType::TimestampUs(), "Start of the acquisition time range"),
      F("stac:centroid", DataType::Binary(), "Raster centre as a WKB point in EPSG:4326 (lon, lat)"),
      F("stac:time_end", DataType::TimestampUs(), "End of the acquisition time range"),
      F("stac:time_middle", DataType::TimestampUs(), "Midpoint of time_start and time_end"),
  };
}

Result<std::vector<Field>> Stac(const std::string& raster_path, std::optional<int64_t> time_start_us,
                                std::optional<int64_t> time_end_us) {
  TACO_ASSIGN_OR_RETURN(Times times, CheckTimes(raster_path, time_start_us, time_end_us));
  TACO_ASSIGN_OR_RETURN(Georef g, ReadGeoref(raster_path));
  TACO_ASSIGN_OR_RETURN(Value centroid, Centroid(raster_path, g));
  std::vector<Field> fields = StacSchema();
  fields[0].value = CrsValue(g);
  fields[1].value = ValueList{Value(int64_t{g.bands}), Value(int64_t{g.rows}), Value(int64_t{g.cols})};
  if (g.has_geotransform) {
    ValueList gt;
    for (double c : g.gt) gt.emplace_back(c);
    fields[2].value = std::move(gt);
  }
  fields[3].value = times.start;
  fields[4].value = std::move(centroid);
  fields[5].value = times.end;
  fields[6].value = times.middle;
  return fields;
}

std::vector<Field> IstacSchema() {
  return {
      F("istac:crs", DataType::String(), "Coordinate reference system: AUTHORITY:CODE when known, else WKT"),
      F("istac:geometry", DataType::Binary(), "Raster footprint as a WKB polygon in the source CRS"),
      F("istac:time_start", DataType::TimestampUs(), "Start of the acquisition time range"),
      F("istac:time_end", DataType::TimestampUs(), "End of the acquisition time range"),
      F("istac:time_middle", DataType::TimestampUs(), "Midpoint of time_start and time_end"),
      F("istac:centroid", DataType::Binary(), "Footprint centre as a WKB point in EPSG:4326 (lon, lat)"),
  };
}

Result<std::vector<Field>> Istac(const std::string& raster_path, std::optional<int64_t> time_start_us,
                                 std::optional<int64_t> time_end_us) {
  TACO_ASSIGN_OR_RETURN(Times times, CheckTimes(raster_path, time_start_us, time_end_us));
  TACO_ASSIGN_OR_RETURN(Georef g, ReadGeoref(raster_path));
  TACO_ASSIGN_OR_RETURN(Value centroid, Centroid(raster_path, g));
  std::vector<Field> fields = IstacSchema();
  fields[0].value = CrsValue(g);
  if (g.has_geotransform) {
    const auto corners = internal::CornerCoordinates(g.gt, g.cols, g.rows);
    std::vector<std::pair<double, double>> ring(corners.begin(), corners.end());
    ring.push_back(corners[0]);
    fields[1].value = Binary{internal::WkbPolygon(ring)};
  }
  fields[2].value = times.start;
  fields[3].value = times.end;
  fields[4].value = times.middle;
  fields[5].value = std::move(centroid);
  return fields;
}

}  // namespace taco::ext
