// geotiff:stats (FORMAT §6.9 layout, §7.4): per-band continuous statistics or class
// frequencies, read strip by strip so memory stays bounded for large rasters.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "gdal/gdal_util.h"
#include "gdal/sample_raster.h"
#include "taco/extensions.h"

namespace taco::ext {
namespace {

constexpr int kBuckets = 100;
constexpr double kPercentiles[] = {25, 50, 75, 95};
constexpr size_t kStripPixels = size_t{1} << 22;

// Calls fn(value) for every valid pixel of `band`.
template <typename Fn>
Status ForEachValidPixel(const std::string& path, GDALRasterBand* band, Fn&& fn) {
  const int cols = band->GetXSize();
  const int rows = band->GetYSize();
  int has_nodata = 0;
  const double nodata = band->GetNoDataValue(&has_nodata);
  const bool nodata_is_nan = has_nodata && std::isnan(nodata);
  const int strip = static_cast<int>(std::max<size_t>(1, kStripPixels / static_cast<size_t>(cols)));
  std::vector<double> buf(static_cast<size_t>(cols) * static_cast<size_t>(std::min(strip, rows)));
  for (int y = 0; y < rows; y += strip) {
    const int h = std::min(strip, rows - y);
    internal::QuietGdalErrors quiet;
    if (band->RasterIO(GF_Read, 0, y, cols, h, buf.data(), cols, h, GDT_Float64, 0, 0, nullptr) != CE_None) {
      return Status::IOError(path + ": cannot read band " + std::to_string(band->GetBand()) + ": " +
                             internal::QuietGdalErrors::LastError("read failed"));
    }
    const size_t n = static_cast<size_t>(cols) * static_cast<size_t>(h);
    for (size_t i = 0; i < n; ++i) {
      const double v = buf[i];
      if (std::isnan(v)) continue;
      if (has_nodata && !nodata_is_nan && v == nodata) continue;
      fn(v);
    }
  }
  return Status::OK();
}

struct Moments {
  uint64_t count = 0;
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();
  double mean = 0;
  double m2 = 0;  // Welford's sum of squared deviations
};

// [min, max, mean, std, valid%, p25, p50, p75, p95], or an empty list with no valid pixel.
Result<std::vector<double>> ContinuousBand(const std::string& path, GDALRasterBand* band) {
  Moments m;
  TACO_RETURN_IF_ERROR(ForEachValidPixel(path, band, [&m](double v) {
    ++m.count;
    m.min = std::min(m.min, v);
    m.max = std::max(m.max, v);
    const double delta = v - m.mean;
    m.mean += delta / static_cast<double>(m.count);
    m.m2 += delta * (v - m.mean);
  }));
  if (m.count == 0) return std::vector<double>{};
  const double total = static_cast<double>(band->GetXSize()) * static_cast<double>(band->GetYSize());
  const double valid_pct = 100.0 * static_cast<double>(m.count) / total;
  std::vector<double> out = {m.min, m.max, m.mean, std::sqrt(m.m2 / static_cast<double>(m.count)), valid_pct};
  if (m.min == m.max) {
    out[3] = 0;
    for (size_t i = 0; i < std::size(kPercentiles); ++i) out.push_back(m.min);
    return out;
  }
  // Percentiles: the centre of the first bucket whose cumulative count reaches p% of the
  // valid pixels, on a 100-bucket histogram of [min, max] (max counted in the last bucket).
  std::vector<uint64_t> hist(kBuckets, 0);
  const double scale = kBuckets / (m.max - m.min);
  TACO_RETURN_IF_ERROR(ForEachValidPixel(path, band, [&](double v) {
    const int idx = static_cast<int>(std::floor((v - m.min) * scale));
    ++hist[static_cast<size_t>(std::clamp(idx, 0, kBuckets - 1))];
  }));
  const double width = (m.max - m.min) / kBuckets;
  for (double p : kPercentiles) {
    const double target = p / 100.0 * static_cast<double>(m.count);
    uint64_t cumulative = 0;
    int idx = kBuckets - 1;
    for (int i = 0; i < kBuckets; ++i) {
      cumulative += hist[static_cast<size_t>(i)];
      if (static_cast<double>(cumulative) >= target) {
        idx = i;
        break;
      }
    }
    out.push_back(m.min + (idx + 0.5) * width);
  }
  return out;
}

Value FloatList(const std::vector<double>& values) {
  ValueList list;
  list.reserve(values.size());
  for (double v : values) list.emplace_back(static_cast<float>(v));
  return Value(std::move(list));
}

Result<Value> Continuous(const std::string& path, GDALDataset* ds, const GeotiffStatsOptions& options) {
  ValueList bands;
  for (int b = 1; b <= ds->GetRasterCount(); ++b) {
    TACO_ASSIGN_OR_RETURN(std::vector<double> s, ContinuousBand(path, ds->GetRasterBand(b)));
    if (s.empty()) return Value();  // all NoData
    if (options.scale_factor != 1.0 || options.scale_offset != 0.0) {
      for (size_t i = 0; i < s.size(); ++i) {
        if (i == 3) {
          s[i] *= std::fabs(options.scale_factor);
        } else if (i != 4) {
          s[i] = s[i] * options.scale_factor + options.scale_offset;
        }
      }
      if (options.scale_factor < 0) std::swap(s[0], s[1]);
    }
    bands.push_back(FloatList(s));
  }
  return Value(std::move(bands));
}

Result<Value> Categorical(const std::string& path, GDALDataset* ds, const GeotiffStatsOptions& options) {
  const bool discover = options.class_values.empty();
  std::vector<std::map<double, uint64_t>> counts(static_cast<size_t>(ds->GetRasterCount()));
  std::map<double, uint64_t> wanted;
  for (double c : options.class_values) wanted[c] = 0;
  for (int b = 1; b <= ds->GetRasterCount(); ++b) {
    auto& band_counts = counts[static_cast<size_t>(b - 1)];
    if (!discover) band_counts = wanted;
    bool too_many = false;
    uint64_t valid = 0;
    TACO_RETURN_IF_ERROR(ForEachValidPixel(path, ds->GetRasterBand(b), [&](double v) {
      ++valid;
      if (discover) {
        if (!too_many) {
          ++band_counts[v];
          too_many = band_counts.size() > kMaxDefaultClasses;
        }
      } else if (auto it = band_counts.find(v); it != band_counts.end()) {
        ++it->second;
      }
    }));
    if (too_many) {
      return Status::InvalidArgument(path + ": band " + std::to_string(b) + " has more than " +
                                     std::to_string(kMaxDefaultClasses) +
                                     " distinct values; give the class values explicitly");
    }
    if (valid == 0) return Value();  // all NoData
  }
  std::vector<double> classes = options.class_values;
  if (discover) {
    std::map<double, uint64_t> all;
    for (const auto& band_counts : counts) {
      for (const auto& [v, n] : band_counts) all[v] += n;
    }
    if (all.size() > kMaxDefaultClasses) {
      return Status::InvalidArgument(path + ": more than " + std::to_string(kMaxDefaultClasses) +
                                     " distinct values over all bands; give the class values explicitly");
    }
    for (const auto& [v, n] : all) classes.push_back(v);
  }
  ValueList bands;
  for (size_t b = 0; b < counts.size(); ++b) {
    uint64_t in_classes = 0;
    for (double c : classes) {
      auto it = counts[b].find(c);
      if (it != counts[b].end()) in_classes += it->second;
    }
    if (in_classes == 0) {
      return Status::InvalidArgument(path + ": band " + std::to_string(b + 1) +
                                     ": no valid pixel holds any of the class values");
    }
    std::vector<double> probs;
    for (double c : classes) {
      auto it = counts[b].find(c);
      const uint64_t n = it == counts[b].end() ? 0 : it->second;
      probs.push_back(static_cast<double>(n) / static_cast<double>(in_classes));
    }
    bands.push_back(FloatList(probs));
  }
  return Value(std::move(bands));
}

}  // namespace

std::vector<Field> GeotiffStatsSchema() {
  return {Field{"geotiff:stats", DataType::List(DataType::List(DataType::Float())), Value(),
                "Per-band statistics: [min, max, mean, std, valid%, p25, p50, p75, p95] (continuous) "
                "or class probabilities (categorical)"}};
}

Result<std::vector<Field>> GeotiffStats(const std::string& raster_path, const GeotiffStatsOptions& options) {
  if (!std::isfinite(options.scale_factor) || options.scale_factor == 0 || !std::isfinite(options.scale_offset)) {
    return Status::InvalidArgument(raster_path + ": scale factor must be finite and non-zero, offset finite");
  }
  TACO_ASSIGN_OR_RETURN(internal::SampleRaster ds, internal::OpenRaster(raster_path));
  std::vector<Field> fields = GeotiffStatsSchema();
  if (options.categorical) {
    TACO_ASSIGN_OR_RETURN(fields[0].value, Categorical(raster_path, ds.get(), options));
  } else {
    TACO_ASSIGN_OR_RETURN(fields[0].value, Continuous(raster_path, ds.get(), options));
  }
  return fields;
}

}  // namespace taco::ext
