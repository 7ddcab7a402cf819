// kExact (taco/stats.h): the pixels of every selected raster, read through GDAL strip by
// strip; one count per distinct value and band (bounded by kExactMaxDistinctValues).
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "format/container.h"
#include "format/zip/stored_member.h"
#include "gdal/gdal_util.h"
#include "gdal/sample_raster.h"
#include "read/stats_internal.h"
#include "taco/cancel.h"
#include "taco/io.h"

namespace taco::read {
namespace {

constexpr size_t kStripPixels = size_t{1} << 22;
constexpr double kPercentileLevel[] = {0.25, 0.5, 0.75, 0.95};

struct Accumulator {
  uint64_t count = 0;
  double mean = 0;
  double m2 = 0;  // Welford's sum of squared deviations
  std::unordered_map<double, uint64_t> counts;

  void Add(double v) {
    ++count;
    const double delta = v - mean;
    mean += delta / static_cast<double>(count);
    m2 += delta * (v - mean);
    ++counts[v];
  }
};

// Adds the valid pixels (not NaN, not NoData) of band `index` (1-based) of `ds`.
Status AddBand(const std::string& what, GDALDataset* ds, int index, Accumulator* acc) {
  GDALRasterBand* band = ds->GetRasterBand(index);
  const int cols = band->GetXSize(), rows = band->GetYSize();
  int has_nodata = 0;
  const double nodata = band->GetNoDataValue(&has_nodata);
  const bool skip_nodata = has_nodata && !std::isnan(nodata);
  const int strip = static_cast<int>(std::max<size_t>(1, kStripPixels / static_cast<size_t>(cols)));
  std::vector<double> buf(static_cast<size_t>(cols) * static_cast<size_t>(std::min(strip, rows)));
  for (int y = 0; y < rows; y += strip) {
    if (CancelRequested()) return Cancelled(what);
    const int h = std::min(strip, rows - y);
    ext::internal::QuietGdalErrors quiet;
    if (band->RasterIO(GF_Read, 0, y, cols, h, buf.data(), cols, h, GDT_Float64, 0, 0, nullptr) != CE_None) {
      return Status::IOError(what + ": cannot read band " + std::to_string(index) + ": " +
                             ext::internal::QuietGdalErrors::LastError("read failed"));
    }
    const size_t n = static_cast<size_t>(cols) * static_cast<size_t>(h);
    for (size_t i = 0; i < n; ++i) {
      const double v = buf[i];
      if (std::isnan(v) || (skip_nodata && v == nodata)) continue;
      acc->Add(v);
    }
    if (acc->counts.size() > kExactMaxDistinctValues) {
      return Status::InvalidArgument(what + ": band " + std::to_string(index - 1) + " has more than " +
                                     std::to_string(kExactMaxDistinctValues) +
                                     " distinct pixel values over the selected samples, the limit of the exact "
                                     "method; use --method pooled");
    }
  }
  return Status::OK();
}

BandStats Continuous(Accumulator& acc) {
  std::vector<std::pair<double, uint64_t>> sorted(acc.counts.begin(), acc.counts.end());
  std::sort(sorted.begin(), sorted.end());
  BandStats out;
  out.values = {acc.mean, std::sqrt(acc.m2 / static_cast<double>(acc.count)), sorted.front().first,
                sorted.back().first};
  for (double level : kPercentileLevel) {
    // The smallest value v with #(pixels ≤ v) ≥ level·N.
    const double target = level * static_cast<double>(acc.count);
    uint64_t cumulative = 0;
    double value = sorted.back().first;
    for (const auto& [v, c] : sorted) {
      cumulative += c;
      if (static_cast<double>(cumulative) >= target) {
        value = v;
        break;
      }
    }
    out.values.push_back(value);
  }
  return out;
}

// A ZIP member is read only when it is the sample's own (issue 29.6): its local header
// must name `member` ("DATA/a/b.tif", or "/<id>": only the last part is known).
Status CheckMember(const Dataset& ds, const std::string& path, const std::string& member,
                   std::map<std::string, RangeReaderPtr>* containers) {
  const std::optional<VsiSubfile> ref = ParseVsiSubfile(path);
  if (!ref || member.empty() || !format::Container::For(ds.format()).members_have_names()) {
    return Status::OK();  // FOLDER paths are files; BLOB ranges have no names
  }
  RangeReaderPtr& reader = (*containers)[ref->root];
  if (reader == nullptr) {
    TACO_ASSIGN_OR_RETURN(reader, OpenRangeReader(ref->root));
  }
  const std::string what =
      ref->root + " (bytes " + std::to_string(ref->offset) + ".." + std::to_string(ref->offset + ref->size) + ")";
  const zip::MemberName expected =
      member[0] == '/' ? zip::MemberName::LastPart(member.substr(1)) : zip::MemberName::Exact(member);
  TACO_ASSIGN_OR_RETURN(zip::LocalHeaderInfo header,
                        zip::ReadNamedLocalHeader(*reader, ref->offset, ref->size, expected, what));
  return zip::CheckMemberName(header, expected, ref->offset, what);
}

}  // namespace

Result<ExactResult> ExactStats(const Dataset& ds, const StatsQuery& q, const StatsRows& rows, bool categorical,
                               const std::vector<double>& class_values) {
  const std::string where = StatsWhere(ds, q);
  if (rows.rows_without_path > 0) {
    return Status::InvalidArgument(where + ": " + std::to_string(rows.rows_without_path) +
                                   " selected row(s) with statistics are not FILE samples with a GDAL path; the "
                                   "exact method reads rasters");
  }
  std::vector<Accumulator> acc(q.bands.size());
  std::map<std::string, RangeReaderPtr> containers;
  for (size_t i = 0; i < rows.gdal_paths.size(); ++i) {
    const std::string& path = rows.gdal_paths[i];
    TACO_RETURN_IF_ERROR(CheckMember(ds, path, rows.members.at(i), &containers).WithPrefix(where));
    // Sample bytes are untrusted (gdal/sample_raster.h): self-contained formats only unless
    // the dataset was opened with allow_external_rasters; the network only for a remote path.
    ext::internal::RasterAccess access;
    access.external = ds.allows_external_rasters();
    access.network = ext::internal::NeedsNetwork(path);
    auto raster = ext::internal::OpenSampleRaster(path, access);
    if (!raster.ok()) return raster.status().WithPrefix(where);
    GDALDataset* gdal = raster->get();
    for (size_t b = 0; b < q.bands.size(); ++b) {
      if (q.bands[b] < 0 || q.bands[b] >= gdal->GetRasterCount()) {
        return Status::InvalidArgument(ds.path() + ": Band " + std::to_string(q.bands[b]) +
                                       " out of range (available bands: 0 to " +
                                       std::to_string(gdal->GetRasterCount() - 1) + " in " + path + ")");
      }
      TACO_RETURN_IF_ERROR(AddBand(where + ": " + path, gdal, q.bands[b] + 1, &acc[b]));
    }
  }
  ExactResult out;
  if (!categorical) {
    for (size_t b = 0; b < acc.size(); ++b) {
      if (acc[b].count == 0) {
        return Status::InvalidArgument(where + ": band " + std::to_string(q.bands[b]) +
                                       " has no valid pixel in the selected samples");
      }
      out.continuous.push_back(Continuous(acc[b]));
    }
    return out;
  }
  // Categorical: the given classes, or every distinct value of every band (sorted).
  out.class_values = class_values;
  if (out.class_values.empty()) {
    for (const auto& a : acc) {
      for (const auto& [v, c] : a.counts) out.class_values.push_back(v);
    }
    std::sort(out.class_values.begin(), out.class_values.end());
    out.class_values.erase(std::unique(out.class_values.begin(), out.class_values.end()), out.class_values.end());
  }
  for (size_t b = 0; b < acc.size(); ++b) {
    uint64_t in_classes = 0;
    std::vector<double> probs;
    for (double c : out.class_values) {
      auto it = acc[b].counts.find(c);
      const uint64_t n = it == acc[b].counts.end() ? 0 : it->second;
      in_classes += n;
      probs.push_back(static_cast<double>(n));
    }
    if (in_classes == 0) {
      return Status::InvalidArgument(where + ": band " + std::to_string(q.bands[b]) +
                                     ": no valid pixel holds any of the class values");
    }
    for (double& p : probs) p /= static_cast<double>(in_classes);
    out.probabilities.push_back(std::move(probs));
  }
  return out;
}

}  // namespace taco::read
