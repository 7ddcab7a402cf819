// The built-in extensions wrapped in the SampleExtension / TortillaExtension interfaces.
#include <atomic>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include <cpl_vsi.h>

#include "gdal/gdal_util.h"
#include "taco/extensions.h"

namespace taco::ext {
namespace {

taco::Schema ToSchema(const std::vector<Field>& fields) {
  taco::Schema schema;
  for (const Field& f : fields) schema.emplace_back(f.name, f.type);
  return schema;
}

std::string DescriptionIn(const std::vector<Field>& fields, std::string_view name) {
  for (const Field& f : fields) {
    if (f.name == name) return f.description;
  }
  return "";
}

// A sample's data as a path GDAL can open: its file, or its bytes mapped under /vsimem/
// (no copy) for as long as this object lives.
class RasterSource {
 public:
  ~RasterSource() {
    if (!mem_path_.empty()) VSIUnlink(mem_path_.c_str());
  }
  Result<std::string> Open(const Sample& sample) {
    if (sample.type() == SampleType::kFolder) {
      return Status::InvalidArgument("needs a FILE sample with raster data, not a FOLDER");
    }
    if (!sample.file_path().empty()) return sample.file_path();
    static std::atomic<uint64_t> counter{0};
    internal::EnsureGdalRegistered();
    mem_path_ = "/vsimem/taco_ext/" + std::to_string(counter.fetch_add(1)) + "_" + sample.id();
    const std::string& bytes = sample.bytes();
    VSILFILE* f = VSIFileFromMemBuffer(mem_path_.c_str(), reinterpret_cast<GByte*>(const_cast<char*>(bytes.data())),
                                       static_cast<vsi_l_offset>(bytes.size()), FALSE);
    if (f == nullptr) {
      mem_path_.clear();
      return Status::Internal("cannot map the sample's bytes for GDAL");
    }
    VSIFCloseL(f);
    return mem_path_;
  }

 private:
  std::string mem_path_;
};

// A float/double extension value of the sample, if present and not null.
std::optional<double> NumberField(const Sample& sample, std::string_view name) {
  for (const Field& f : sample.extensions()) {
    if (f.name != name) continue;
    if (f.value.is<float>()) return f.value.get<float>();
    if (f.value.is<double>()) return f.value.get<double>();
  }
  return std::nullopt;
}

// Centroids (lon, lat) of the tortilla's samples from stac:centroid, else istac:centroid.
Result<std::vector<std::optional<std::pair<double, double>>>> Centroids(const Tortilla& tortilla) {
  std::string column;
  for (const char* candidate : {"stac:centroid", "istac:centroid"}) {
    for (const auto& [name, type] : tortilla.schema()) {
      if (column.empty() && name == candidate) column = name;
    }
  }
  if (column.empty()) {
    return Status::InvalidArgument("no stac:centroid or istac:centroid column (apply the STAC extension first)");
  }
  std::vector<std::optional<std::pair<double, double>>> out;
  for (const Sample& s : tortilla.samples()) {
    std::optional<std::pair<double, double>> point;
    for (const Field& f : s.extensions()) {
      if (f.name != column || !f.value.is<Binary>()) continue;
      auto p = ParseWkbPoint(f.value.get<Binary>().bytes);
      if (!p.ok()) return p.status().WithPrefix("sample '" + s.id() + "': " + column);
      point = *p;
    }
    out.push_back(point);
  }
  return out;
}

}  // namespace

// ---- sample extensions --------------------------------------------------------------------

taco::Schema StacExtension::Schema() const { return ToSchema(StacSchema()); }
std::string StacExtension::Description(std::string_view f) const { return DescriptionIn(StacSchema(), f); }
// A FOLDER's STAC/ISTAC fields from its children, with the extension's own times when given.
static Result<std::vector<Field>> FolderFields(const Sample& sample, bool istac, std::optional<int64_t> start,
                                               std::optional<int64_t> end) {
  auto fields = istac ? IstacFromChildren(*sample.children()) : StacFromChildren(*sample.children());
  if (!fields.ok() || (!start && !end)) return fields;
  // Given times replace the computed ones (checked as for files by Stac()/Istac()).
  if (start && end && *end < *start) return Status::InvalidArgument("time_end is before time_start");
  for (Field& f : *fields) {
    const std::string suffix = f.name.substr(f.name.find(':') + 1);
    if (suffix == "time_start") f.value = start ? Value(TimestampUs{*start}) : Value();
    if (suffix == "time_end") f.value = end ? Value(TimestampUs{*end}) : Value();
    if (suffix == "time_middle") {
      f.value =
          start && end
              ? Value(TimestampUs{
                    *start + static_cast<int64_t>((static_cast<uint64_t>(*end) - static_cast<uint64_t>(*start)) / 2)})
              : Value();
    }
  }
  return fields;
}

Result<std::vector<Field>> StacExtension::Compute(const Sample& sample) const {
  if (sample.type() == SampleType::kFolder) return FolderFields(sample, false, start_, end_);
  RasterSource source;
  TACO_ASSIGN_OR_RETURN(std::string path, source.Open(sample));
  return Stac(path, start_, end_);
}

taco::Schema IstacExtension::Schema() const { return ToSchema(IstacSchema()); }
std::string IstacExtension::Description(std::string_view f) const { return DescriptionIn(IstacSchema(), f); }
Result<std::vector<Field>> IstacExtension::Compute(const Sample& sample) const {
  if (sample.type() == SampleType::kFolder) return FolderFields(sample, true, start_, end_);
  RasterSource source;
  TACO_ASSIGN_OR_RETURN(std::string path, source.Open(sample));
  return Istac(path, start_, end_);
}

taco::Schema GeotiffStatsExtension::Schema() const { return ToSchema(GeotiffStatsSchema()); }
std::string GeotiffStatsExtension::Description(std::string_view f) const {
  return DescriptionIn(GeotiffStatsSchema(), f);
}
Result<std::vector<Field>> GeotiffStatsExtension::Compute(const Sample& sample) const {
  RasterSource source;
  TACO_ASSIGN_OR_RETURN(std::string path, source.Open(sample));
  GeotiffStatsOptions options = options_;
  if (auto factor = NumberField(sample, "scaling:scale_factor")) options.scale_factor = *factor;
  if (auto offset = NumberField(sample, "scaling:scale_offset")) options.scale_offset = *offset;
  return GeotiffStats(path, options);
}

taco::Schema ScalingExtension::Schema() const { return ToSchema(ScalingSchema()); }
std::string ScalingExtension::Description(std::string_view f) const { return DescriptionIn(ScalingSchema(), f); }
Result<std::vector<Field>> ScalingExtension::Compute(const Sample&) const {
  return Scaling(factor_, offset_, padding_);
}

taco::Schema SplitExtension::Schema() const { return ToSchema(SplitSchema()); }
std::string SplitExtension::Description(std::string_view f) const { return DescriptionIn(SplitSchema(), f); }
Result<std::vector<Field>> SplitExtension::Compute(const Sample&) const { return Split(split_); }

// ---- tortilla extensions --------------------------------------------------------------------

taco::Schema MajorTomExtension::Schema() const { return {{"majortom:code", DataType::String()}}; }
std::string MajorTomExtension::Description(std::string_view) const {
  return "MajorTOM grid cell of the sample centroid, e.g. 0100km_0003U_0005R";
}
Result<Table> MajorTomExtension::Compute(const Tortilla& tortilla) const {
  TACO_ASSIGN_OR_RETURN(auto centroids, Centroids(tortilla));
  Column column{"majortom:code", DataType::String(), {}};
  for (const auto& c : centroids) {
    if (!c) {
      column.values.emplace_back();
      continue;
    }
    TACO_ASSIGN_OR_RETURN(std::string code, MajorTomCode(c->first, c->second, dist_km_));
    column.values.emplace_back(std::move(code));
  }
  return Table{{std::move(column)}};
}

taco::Schema SpatialGroupingExtension::Schema() const { return {{"spatialgroup:code", DataType::String()}}; }
std::string SpatialGroupingExtension::Description(std::string_view) const {
  return "Spatial group of the sample: consecutive samples in Morton (Z-order) of their centroids";
}
Result<Table> SpatialGroupingExtension::Compute(const Tortilla& tortilla) const {
  TACO_ASSIGN_OR_RETURN(auto centroids, Centroids(tortilla));
  std::vector<std::pair<double, double>> points;
  for (const auto& c : centroids) {
    if (c) points.push_back(*c);
  }
  TACO_ASSIGN_OR_RETURN(std::vector<std::string> codes, SpatialGroupCodes(points, target_count_));
  Column column{"spatialgroup:code", DataType::String(), {}};
  size_t next = 0;
  for (const auto& c : centroids) {
    if (c) {
      column.values.emplace_back(codes[next++]);
    } else {
      column.values.emplace_back();
    }
  }
  return Table{{std::move(column)}};
}

// ---- WKB --------------------------------------------------------------------------------

Result<std::pair<double, double>> ParseWkbPoint(std::string_view wkb) {
  auto bad = [](const std::string& why) { return Status::InvalidArgument("not a WKB point: " + why); };
  if (wkb.size() < 5) return bad("too short");
  const bool little = wkb[0] == 1;
  if (wkb[0] != 0 && wkb[0] != 1) return bad("bad byte-order flag");
  auto u32 = [&](size_t at) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      const auto byte = static_cast<uint8_t>(wkb[at + static_cast<size_t>(little ? 3 - i : i)]);
      v = (v << 8) | byte;
    }
    return v;
  };
  auto f64 = [&](size_t at) {
    uint64_t bits = 0;
    for (int i = 0; i < 8; ++i) {
      const auto byte = static_cast<uint8_t>(wkb[at + static_cast<size_t>(little ? 7 - i : i)]);
      bits = (bits << 8) | byte;
    }
    double v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  };
  const uint32_t type = u32(1);
  size_t at = 5;
  if (type & 0x20000000u) at += 4;  // EWKB SRID
  const uint32_t base = (type & 0x0FFFFFFFu) % 1000;
  if (base != 1) return bad("geometry type " + std::to_string(type) + " is not a point");
  if (wkb.size() < at + 16) return bad("too short");
  return std::make_pair(f64(at), f64(at + 8));
}

}  // namespace taco::ext
