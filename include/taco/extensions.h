// Built-in TACO extensions (FORMAT §7.4): metadata computed from rasters with GDAL, plus
// the declarative collection-level fragments.
//
// Contract:
//  * Sample-level extensions return `Result<std::vector<Field>>`: the columns of one sample
//    row, with the exact names and Arrow types of FORMAT §7.4 and a description each.
//    `...Schema()` returns the same fields with null values (the spec's `schema_only`).
//  * Rasters are opened with GDAL (any raster driver, local path or /vsi... path). A path
//    GDAL cannot open is an error for the direct functions ("<path>: ..."); `ComputeByName`
//    turns it into the schema-only nulls (the CLI applies --ext to every FILE sample).
//  * Geometry values are ISO WKB, little-endian. Centroids are EPSG:4326 points in lon/lat
//    order. Timestamps are int64 microseconds since the epoch, no time zone.
//  * Collection-level extensions return JSON fragments keyed as in FORMAT §7.4
//    ("labels:classes", "optical:bands", ...), to be merged into COLLECTION.json.
//  * Nothing here throws; GDAL messages are captured into the returned Status.
//  * The spec's extension interfaces (§7.1.2) are SampleExtension, TortillaExtension and
//    TacoExtension at the end of this header, with the built-ins wrapped as classes and
//    ExtendWith() helpers that return the extended (immutable) model object.
#ifndef TACO_EXTENSIONS_H_
#define TACO_EXTENSIONS_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "taco/model.h"
#include "taco/status.h"
#include "taco/value.h"

namespace taco::ext {

// ---- sample level: computed from a raster -------------------------------------------------

// STAC: stac:crs, stac:tensor_shape, stac:geotransform, stac:time_start, stac:centroid,
// stac:time_end, stac:time_middle. The CRS is "AUTH:CODE" when the raster's CRS has an
// authority code, else its WKT; null (and a null centroid) for a raster without CRS.
// time_middle = floor((start + end) / 2) when both are given, else null.
// InvalidArgument when time_end < time_start.
Result<std::vector<Field>> Stac(const std::string& raster_path, std::optional<int64_t> time_start_us,
                                std::optional<int64_t> time_end_us);
std::vector<Field> StacSchema();

// ISTAC: istac:crs, istac:geometry (WKB polygon of the raster footprint in the SOURCE CRS,
// exterior ring of 5 vertices, closed, counter-clockwise for north-up rasters),
// istac:time_start, istac:time_end, istac:time_middle, istac:centroid (WKB point, EPSG:4326).
Result<std::vector<Field>> Istac(const std::string& raster_path, std::optional<int64_t> time_start_us,
                                 std::optional<int64_t> time_end_us);
std::vector<Field> IstacSchema();

// STAC / ISTAC of a FOLDER sample, computed from the samples below it (`children` and, for
// FOLDER children, their subtrees), so that level-0 FOLDERs can be filtered by place and time:
//  * footprint: every FILE below with a footprint (stac:crs + stac:geotransform +
//    stac:tensor_shape, else istac:crs + the bounds of istac:geometry) is reprojected to
//    EPSG:4326 (each edge densified) and the lon/lat boxes are merged on the longitude
//    circle (model CoverLongitudes: west > east when the result crosses the antimeridian).
//    A FILE with a centroid but no footprint contributes its centroid.
//  * stac:centroid / istac:centroid: the centre of that box (on the circle).
//    istac:geometry: the box as a WKB polygon in EPSG:4326 (a multipolygon of its two halves
//    when it crosses the antimeridian) and istac:crs "EPSG:4326".
//  * stac:crs, stac:tensor_shape, stac:geotransform: null (they describe one raster).
//  * times: time_start = the earliest start below, time_end = the latest end (a sample with a
//    start but no end counts as an instant); a sample that has a time of its own (e.g. from
//    --time-column) stands for its whole subtree. time_end stays null when every time below
//    is the same instant without an end; time_middle as for files.
//  * nothing below with a footprint / a time: those fields are null. Padding is skipped.
// A CRS that cannot be read or transformed is InvalidArgument naming the sample.
Result<std::vector<Field>> StacFromChildren(const Tortilla& children);
Result<std::vector<Field>> IstacFromChildren(const Tortilla& children);

struct GeotiffStatsOptions {
  bool categorical = false;
  // Categorical classes, output order. Empty: the distinct valid values found over all
  // bands, sorted (at most kMaxDefaultClasses, else InvalidArgument).
  std::vector<double> class_values;
  // Continuous stats are reported as value * scale_factor + scale_offset (std: × factor).
  double scale_factor = 1.0;
  double scale_offset = 0.0;
};
inline constexpr size_t kMaxDefaultClasses = 256;

// geotiff:stats list<list<float>>, one inner list per band.
//  * continuous: [min, max, mean, std, valid%, p25, p50, p75, p95]; std is the population
//    standard deviation; valid% in 0..100; percentiles are bin centres of a 100-bucket
//    histogram between min and max (a value equal to max falls in the last bucket).
//  * categorical: the probability of each class among the valid pixels that hold one of
//    the classes (sums to 1); InvalidArgument when no valid pixel holds any class.
// Pixels equal to the band's NoData value (and NaN) are not valid. The value is null when
// some band has no valid pixel.
Result<std::vector<Field>> GeotiffStats(const std::string& raster_path, const GeotiffStatsOptions& options = {});
std::vector<Field> GeotiffStatsSchema();

// ---- sample level: declarative ---------------------------------------------------------------

// scaling:scale_factor, scaling:scale_offset (float32), scaling:padding list<int32>
// [top, right, bottom, left]. InvalidArgument when factor is 0 or not finite, or padding < 0.
Result<std::vector<Field>> Scaling(float scale_factor, float scale_offset,
                                   std::array<int32_t, 4> padding = {0, 0, 0, 0});
std::vector<Field> ScalingSchema();

// split: "train" | "test" | "validation"; anything else is InvalidArgument.
Result<std::vector<Field>> Split(std::string_view split);
std::vector<Field> SplitSchema();

// ---- tortilla level: computed over all samples ------------------------------------------

// majortom:code of the MajorTOM grid cell holding (lon, lat), e.g. "0100km_0003U_0005R".
// InvalidArgument when dist_km < 1 or the point is not a finite lon/lat.
Result<std::string> MajorTomCode(double lon, double lat, double dist_km = 100);

// spatialgroup:code per sample ("sg0000", "sg0001", ...), in input order: samples are sorted
// by the Morton (Z-order) code of their 21-bit quantised lon/lat and cut into consecutive
// groups of target_count. InvalidArgument when target_count is 0.
Result<std::vector<std::string>> SpatialGroupCodes(const std::vector<std::pair<double, double>>& lonlat,
                                                   size_t target_count);
// The 42-bit Morton code used above (x = lon bits on even positions, y = lat bits on odd).
uint64_t MortonCode(double lon, double lat);

// ---- registry for the CLI's --ext ----------------------------------------------------------

// Settings of the registry's extensions (the CLI's options next to --ext).
struct ExtensionSettings {
  // stats-categorical: the classes, in output order (GeotiffStatsOptions::class_values).
  // Empty: each file's own distinct values, which differ from file to file.
  std::vector<double> categorical_classes;
};

// name ∈ {stac, istac, stats, stats-categorical}. Times are null. A path GDAL cannot open as
// a raster (a folder, a text file) gives the extension's schema-only nulls.
// Unknown name: InvalidArgument listing the known names.
Result<std::vector<Field>> ComputeByName(std::string_view name, const std::string& raster_path,
                                         const ExtensionSettings& settings = {});
std::vector<std::string> KnownExtensionNames();

// One computed extension asked for by `taco create --ext` / Python from_directory(ext=...),
// parsed once (ParseExtensionSpecs) and handed to TacoFromDirectory as it is.
struct ExtensionSpec {
  std::string name;  // one of ExtensionSpecNames()
  std::string glob;  // "" = every FILE sample; else an fnmatch(3) pattern (see taco/tree_builder.h)
  std::string text;  // the spec as given ("stats:image.tif"), for messages
  bool operator==(const ExtensionSpec&) const = default;
};

// KnownExtensionNames() plus "majortom" (a tortilla extension: no GLOB).
std::vector<std::string> ExtensionSpecNames();

// Parses `--ext` values: each text is "NAME" or "NAME:GLOB", or several of them separated by
// ',' ("stac,stats:image.tif"), in order. Pure (no file is read). InvalidArgument naming the
// spec: an empty GLOB ("extension 'stats:': empty file pattern after ':'"), an unknown NAME
// ("extension 'foo' is unknown (known: stac, istac, stats, stats-categorical, majortom)"; an
// empty item between commas is the unknown name ''), majortom with a GLOB, a spec given twice.
Result<std::vector<ExtensionSpec>> ParseExtensionSpecs(const std::vector<std::string>& texts);

// ---- collection level (COLLECTION.json fragments) ------------------------------------------

struct LabelClass {
  std::string name;
  std::string category;     // empty -> null
  std::string description;  // empty -> null
};
// {"labels:classes": [{name, category, description}...], "labels:description": ...,
//  "labels:num_classes": N}. InvalidArgument on no classes, empty or duplicate names.
Result<nlohmann::ordered_json> Labels(const std::vector<LabelClass>& classes, const std::string& description = "");

struct SpectralBand {
  std::string name;         // "B04"
  std::string common_name;  // "red"
  std::string description;
  std::string unit;                // unit of the wavelengths ("nm")
  double center_wavelength = 0;    // nm
  double full_width_half_max = 0;  // nm
};
// The band table of a known sensor, all bands, in sensor order. NotFound for others.
Result<std::vector<SpectralBand>> SensorBands(std::string_view sensor);
std::vector<std::string> KnownSensors();
// {"optical:sensor": "...", "optical:bands": [{name, index, common_name, description, unit,
// center_wavelength, full_width_half_max}...], "optical:num_bands": N}. `sensor` is a known
// sensor name, optionally with a band subset: "sentinel2msi[B02,B03]" (spaces ignored; the
// output keeps the subset's order; index = position in the output).
Result<nlohmann::ordered_json> OpticalData(std::string_view sensor);
// The same for a custom sensor with explicit bands.
Result<nlohmann::ordered_json> OpticalData(std::string_view sensor, const std::vector<SpectralBand>& bands);

struct Publication {
  std::string doi;
  std::string citation;
  std::string summary;  // empty -> null
};
// {"publications": [{doi, citation, summary}...]}. InvalidArgument on an empty doi/citation.
Result<nlohmann::ordered_json> Publications(const std::vector<Publication>& publications);

// {"split:strategy": name}, name ∈ {random, stratified, manual, other, none, unknown}.
Result<nlohmann::ordered_json> SplitStrategy(std::string_view name);

// ---- extension interfaces (spec §7.1.2) ----------------------------------------------------

// Metadata computed from one sample. Compute() returns the fields of Schema(), in order.
class SampleExtension {
 public:
  virtual ~SampleExtension() = default;
  virtual std::string name() const = 0;
  virtual taco::Schema Schema() const = 0;
  virtual Result<std::vector<Field>> Compute(const Sample& sample) const = 0;
  // The description of a field of Schema() (feeds taco:field_schema); "" by default.
  virtual std::string Description(std::string_view field) const;

  // The spec's schema_only: Run() returns SchemaOnly() without computing.
  void set_schema_only(bool schema_only) { schema_only_ = schema_only; }
  bool schema_only() const { return schema_only_; }
  // Schema() as fields with null values (and descriptions).
  std::vector<Field> SchemaOnly() const;
  // Compute() (or SchemaOnly()), checked against Schema(): same names, order and types.
  // Errors are prefixed "sample '<id>': <name>".
  Result<std::vector<Field>> Run(const Sample& sample) const;

 private:
  bool schema_only_ = false;
};

// Metadata computed over all samples of a tortilla: a Table with one row per sample
// (padding included) and the columns of Schema().
class TortillaExtension {
 public:
  virtual ~TortillaExtension() = default;
  virtual std::string name() const = 0;
  virtual taco::Schema Schema() const = 0;
  virtual Result<Table> Compute(const Tortilla& tortilla) const = 0;
  virtual std::string Description(std::string_view column) const;
  // Compute(), checked: one row per sample, the columns of Schema() in order.
  Result<Table> Run(const Tortilla& tortilla) const;
};

// Dataset-level metadata: a JSON object whose keys become collection fields.
class TacoExtension {
 public:
  virtual ~TacoExtension() = default;
  virtual std::string name() const = 0;
  virtual Result<nlohmann::ordered_json> Compute(const Taco& taco) const = 0;
};

// `sample` plus the extension's fields (its own rules apply: no duplicate keys, ...).
Result<Sample> ExtendWith(const Sample& sample, const SampleExtension& extension);
// The tortilla re-made with the extension's columns appended to every sample. A column
// that already exists is InvalidArgument.
Result<Tortilla> ExtendWith(const Tortilla& tortilla, const TortillaExtension& extension);
// The taco re-made with the extension's keys added to its collection; an existing key is
// InvalidArgument.
Result<Taco> ExtendWith(const Taco& taco, const TacoExtension& extension);

// ---- built-ins as classes --------------------------------------------------------------

// FILE samples: computed from the raster (a path, or bytes served to GDAL from memory).
// FOLDER samples: StacFromChildren / IstacFromChildren of its children (extend the children
// first); the times given here, when set, replace the computed ones.
class StacExtension : public SampleExtension {
 public:
  StacExtension(std::optional<int64_t> time_start_us = std::nullopt, std::optional<int64_t> time_end_us = std::nullopt)
      : start_(time_start_us), end_(time_end_us) {}
  std::string name() const override { return "stac"; }
  taco::Schema Schema() const override;
  std::string Description(std::string_view field) const override;
  Result<std::vector<Field>> Compute(const Sample& sample) const override;

 private:
  std::optional<int64_t> start_, end_;
};

class IstacExtension : public SampleExtension {
 public:
  IstacExtension(std::optional<int64_t> time_start_us = std::nullopt, std::optional<int64_t> time_end_us = std::nullopt)
      : start_(time_start_us), end_(time_end_us) {}
  std::string name() const override { return "istac"; }
  taco::Schema Schema() const override;
  std::string Description(std::string_view field) const override;
  Result<std::vector<Field>> Compute(const Sample& sample) const override;

 private:
  std::optional<int64_t> start_, end_;
};

// Uses the sample's scaling:scale_factor / scaling:scale_offset fields when present (and
// the options' values otherwise), as FORMAT §7.4 says.
class GeotiffStatsExtension : public SampleExtension {
 public:
  explicit GeotiffStatsExtension(GeotiffStatsOptions options = {}) : options_(std::move(options)) {}
  std::string name() const override { return "geotiff_stats"; }
  taco::Schema Schema() const override;
  std::string Description(std::string_view field) const override;
  Result<std::vector<Field>> Compute(const Sample& sample) const override;

 private:
  GeotiffStatsOptions options_;
};

// The declarative ones: the same fields for every sample.
class ScalingExtension : public SampleExtension {
 public:
  ScalingExtension(float scale_factor, float scale_offset, std::array<int32_t, 4> padding = {0, 0, 0, 0})
      : factor_(scale_factor), offset_(scale_offset), padding_(padding) {}
  std::string name() const override { return "scaling"; }
  taco::Schema Schema() const override;
  std::string Description(std::string_view field) const override;
  Result<std::vector<Field>> Compute(const Sample& sample) const override;

 private:
  float factor_, offset_;
  std::array<int32_t, 4> padding_;
};

class SplitExtension : public SampleExtension {
 public:
  explicit SplitExtension(std::string split) : split_(std::move(split)) {}
  std::string name() const override { return "split"; }
  taco::Schema Schema() const override;
  std::string Description(std::string_view field) const override;
  Result<std::vector<Field>> Compute(const Sample& sample) const override;

 private:
  std::string split_;
};

// majortom:code per sample from its stac:centroid (or istac:centroid) WKB point; null for
// samples without one. InvalidArgument when neither column exists.
class MajorTomExtension : public TortillaExtension {
 public:
  explicit MajorTomExtension(double dist_km = 100) : dist_km_(dist_km) {}
  std::string name() const override { return "majortom"; }
  taco::Schema Schema() const override;
  std::string Description(std::string_view column) const override;
  Result<Table> Compute(const Tortilla& tortilla) const override;

 private:
  double dist_km_;
};

// spatialgroup:code per sample (SpatialGroupCodes over the samples with a centroid; null
// for the others).
class SpatialGroupingExtension : public TortillaExtension {
 public:
  explicit SpatialGroupingExtension(size_t target_count) : target_count_(target_count) {}
  std::string name() const override { return "spatialgroup"; }
  taco::Schema Schema() const override;
  std::string Description(std::string_view column) const override;
  Result<Table> Compute(const Tortilla& tortilla) const override;

 private:
  size_t target_count_;
};

// A TacoExtension holding a fragment made beforehand, e.g.
//   JsonTacoExtension("labels", *Labels({...})).
class JsonTacoExtension : public TacoExtension {
 public:
  JsonTacoExtension(std::string name, nlohmann::ordered_json fragment)
      : name_(std::move(name)), fragment_(std::move(fragment)) {}
  std::string name() const override { return name_; }
  Result<nlohmann::ordered_json> Compute(const Taco&) const override { return fragment_; }

 private:
  std::string name_;
  nlohmann::ordered_json fragment_;
};

// (lon, lat) of a WKB point (ISO or EWKB, either byte order). InvalidArgument otherwise.
Result<std::pair<double, double>> ParseWkbPoint(std::string_view wkb);

}  // namespace taco::ext

#endif  // TACO_EXTENSIONS_H_
