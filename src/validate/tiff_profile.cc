// CheckTiffProfile (see tiff_profile.h).
#include "validate/tiff_profile.h"

#include <map>
#include <memory>

#include "taco/dataset.h"
#include "taco/io.h"
#include "validate/reporter.h"

namespace taco::validate {
namespace {

constexpr uint16_t kNewSubfileType = 254, kCompression = 259, kSamplesPerPixel = 277, kPlanar = 284, kTileWidth = 322,
                   kTileLength = 323, kTileOffsets = 324, kImageWidth = 256, kImageLength = 257;
constexpr uint32_t kZstd = 50000;

class Tiff {
 public:
  Tiff(RangeReaderPtr r) : r_(std::move(r)) {}

  // Reads the signature; false when the bytes are not a TIFF.
  Result<bool> Open() {
    if (r_->size() < 8) return false;
    TACO_ASSIGN_OR_RETURN(std::string h, r_->Read(0, static_cast<size_t>(std::min<uint64_t>(16, r_->size()))));
    if (h.compare(0, 2, "II") == 0) {
      le_ = true;
    } else if (h.compare(0, 2, "MM") == 0) {
      le_ = false;
    } else {
      return false;
    }
    const uint16_t version = U16(h, 2);
    if (version == 42) {
      first_ = U32(h, 4);
    } else if (version == 43 && h.size() >= 16) {
      big_ = true;
      first_ = U64(h, 8);
    } else {
      return false;
    }
    return true;
  }

  struct Ifd {
    std::map<uint16_t, std::vector<uint64_t>> tags;  // numeric values
    uint64_t next = 0;
    uint64_t Get(uint16_t tag, uint64_t fallback) const {
      auto it = tags.find(tag);
      return it == tags.end() || it->second.empty() ? fallback : it->second[0];
    }
  };

  Result<Ifd> ReadIfd(uint64_t offset) {
    Ifd ifd;
    const size_t count_size = big_ ? 8 : 2, entry = big_ ? 20 : 12, next_size = big_ ? 8 : 4;
    TACO_ASSIGN_OR_RETURN(std::string c, r_->Read(offset, count_size));
    const uint64_t n = big_ ? U64(c, 0) : U16(c, 0);
    if (n > 4096) return Status::Corruption("IFD with " + std::to_string(n) + " entries");
    TACO_ASSIGN_OR_RETURN(std::string e, r_->Read(offset + count_size, static_cast<size_t>(n * entry + next_size)));
    for (uint64_t i = 0; i < n; ++i) {
      const size_t at = static_cast<size_t>(i * entry);
      const uint16_t tag = U16(e, at), type = U16(e, at + 2);
      const uint64_t count = big_ ? U64(e, at + 4) : U32(e, at + 4);
      const size_t width = type == 3 ? 2 : type == 4 ? 4 : type == 16 ? 8 : 0;  // SHORT, LONG, LONG8
      if (width == 0 || count > (1u << 24)) continue;
      const size_t inline_size = big_ ? 8 : 4;
      std::string data;
      if (count * width <= inline_size) {
        data = e.substr(at + (big_ ? 12 : 8), static_cast<size_t>(count * width));
      } else {
        const uint64_t where = big_ ? U64(e, at + 12) : U32(e, at + 8);
        TACO_ASSIGN_OR_RETURN(data, r_->Read(where, static_cast<size_t>(count * width)));
      }
      std::vector<uint64_t> values;
      for (uint64_t k = 0; k < count; ++k) {
        const size_t p = static_cast<size_t>(k * width);
        values.push_back(width == 2 ? U16(data, p) : width == 4 ? U32(data, p) : U64(data, p));
      }
      ifd.tags[tag] = std::move(values);
    }
    const size_t at = static_cast<size_t>(n * entry);
    ifd.next = big_ ? U64(e, at) : U32(e, at);
    return ifd;
  }

  uint64_t first() const { return first_; }
  bool big() const { return big_; }

 private:
  uint16_t U16(const std::string& b, size_t at) const {
    const auto* p = reinterpret_cast<const unsigned char*>(b.data() + at);
    return le_ ? static_cast<uint16_t>(p[0] | (p[1] << 8)) : static_cast<uint16_t>((p[0] << 8) | p[1]);
  }
  uint32_t U32(const std::string& b, size_t at) const {
    const auto* p = reinterpret_cast<const unsigned char*>(b.data() + at);
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(p[le_ ? i : 3 - i]) << (8 * i);
    return v;
  }
  uint64_t U64(const std::string& b, size_t at) const {
    const auto* p = reinterpret_cast<const unsigned char*>(b.data() + at);
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= static_cast<uint64_t>(p[le_ ? i : 7 - i]) << (8 * i);
    return v;
  }

  RangeReaderPtr r_;
  bool le_ = true, big_ = false;
  uint64_t first_ = 0;
};

// The departures from the profile of one TIFF (empty when it follows it).
Result<std::vector<std::pair<std::string, std::string>>> Departures(Tiff& tiff) {
  std::vector<std::pair<std::string, std::string>> out;  // (found, expected)
  TACO_ASSIGN_OR_RETURN(Tiff::Ifd ifd, tiff.ReadIfd(tiff.first()));
  const bool tiled = ifd.tags.count(kTileWidth) && ifd.tags.count(kTileLength);
  if (!tiled) {
    out.push_back({"strips (not tiled)", "tiled"});
  } else {
    const uint64_t w = ifd.Get(kTileWidth, 0), h = ifd.Get(kTileLength, 0);
    if (w != 512 || h != 512)
      out.push_back({"blocks " + std::to_string(w) + "x" + std::to_string(h), "512x512 blocks"});
  }
  const uint64_t compression = ifd.Get(kCompression, 1);
  if (compression != kZstd) {
    std::string name = compression == 1                           ? "none"
                       : compression == 5                         ? "LZW"
                       : compression == 8 || compression == 32946 ? "DEFLATE"
                       : compression == 7                         ? "JPEG"
                                                                  : "code " + std::to_string(compression);
    out.push_back({"compression " + name, "ZSTD"});
  }
  const uint64_t bands = ifd.Get(kSamplesPerPixel, 1);
  if (bands > 1) {
    const uint64_t planar = ifd.Get(kPlanar, 1);
    if (planar != 2) {
      out.push_back({"PIXEL interleave (" + std::to_string(bands) + " bands)", "TILE interleave"});
    } else if (tiled) {
      const auto& offsets = ifd.tags[kTileOffsets];
      const uint64_t per_band = offsets.size() / bands;
      bool tile_major = per_band * bands == offsets.size();
      uint64_t last = 0;
      for (uint64_t t = 0; tile_major && t < per_band; ++t) {
        for (uint64_t b = 0; b < bands; ++b) {
          const uint64_t off = offsets[static_cast<size_t>(b * per_band + t)];
          if (off == 0) continue;  // sparse tile
          if (off < last) {
            tile_major = false;
            break;
          }
          last = off;
        }
      }
      if (!tile_major) out.push_back({"BAND interleave (tiles of one band after another)", "TILE interleave"});
    }
  }
  // Overviews: a following IFD that is a reduced-resolution image.
  uint64_t next = ifd.next;
  for (int guard = 0; next != 0 && guard < 64; ++guard) {
    TACO_ASSIGN_OR_RETURN(Tiff::Ifd more, tiff.ReadIfd(next));
    if (more.Get(kNewSubfileType, 0) & 1) {
      out.push_back({"overviews (" + std::to_string(more.Get(kImageWidth, 0)) + "x" +
                         std::to_string(more.Get(kImageLength, 0)) + " and maybe more)",
                     "no overviews"});
      break;
    }
    next = more.next;
  }
  return out;
}

}  // namespace

Status CheckTiffProfile(const std::string& path, const ValidateOptions& options, ValidationReport& report) {
  TACO_ASSIGN_OR_RETURN(auto ds, Dataset::Open(path, options.open));
  Reporter rep(options.max_per_rule);
  std::map<std::string, RangeReaderPtr> roots;
  uint64_t checked = 0, skipped = 0;
  for (int level = 0; level < ds->num_levels(); ++level) {
    TACO_ASSIGN_OR_RETURN(Table t, ds->QueryRaw("SELECT id, \"internal:gdal_vsi\" FROM level" + std::to_string(level) +
                                                " WHERE type = 'FILE'"));
    for (size_t i = 0; i < t.num_rows(); ++i) {
      const std::string id = t.columns[0].values[i].is<std::string>() ? t.columns[0].values[i].get<std::string>() : "?";
      const Value& v = t.columns[1].values[i];
      if (!v.is<std::string>()) continue;
      const std::string gdal = v.get<std::string>();
      const std::string where = "level " + std::to_string(level) + " sample '" + id + "' (" + gdal + ")";
      RangeReaderPtr reader;
      if (auto sub = ParseVsiSubfile(gdal)) {
        auto it = roots.find(sub->root);
        if (it == roots.end()) {
          TACO_ASSIGN_OR_RETURN(RangeReaderPtr r, OpenRangeReader(sub->root));
          it = roots.emplace(sub->root, r).first;
        }
        TACO_ASSIGN_OR_RETURN(reader, SubRange(it->second, sub->offset, sub->size));
      } else {
        auto r = OpenRangeReader(gdal);
        if (!r.ok()) {
          rep.Add("tiff-profile", where, r.status().message(), "a readable member");
          continue;
        }
        reader = *r;
      }
      Tiff tiff(reader);
      auto is_tiff = tiff.Open();
      if (!is_tiff.ok() || !*is_tiff) {
        ++skipped;
        continue;
      }
      ++checked;
      auto departures = Departures(tiff);
      if (!departures.ok()) {
        rep.Add("tiff-profile", where, departures.status().message(), "a readable TIFF directory");
        continue;
      }
      for (const auto& [found, expected] : *departures) rep.Add("tiff-profile", where, found, expected);
    }
  }
  ValidationReport extra;
  rep.MoveInto(&extra);
  for (auto& v : extra.violations) report.violations.push_back(std::move(v));
  for (auto& [rule, n] : extra.omitted) report.omitted[rule] += n;
  report.notes.push_back("tiff-profile: " + std::to_string(checked) + " GeoTIFF members checked, " +
                         std::to_string(skipped) + " other FILE samples skipped");
  return Status::OK();
}

}  // namespace taco::validate
