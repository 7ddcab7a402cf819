#include "format/zip/zip_reader.h"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "format/zip/zip_format.h"
#include "util/limits.h"

namespace taco::zip {
namespace {

constexpr uint64_t kMaxLocalHeaderBatch = uint64_t{1} << 20;

Status Bad(const RangeReader& r, const std::string& why) { return Status::Corruption(r.name() + ": " + why); }

std::string Quoted(const std::string& s) { return "\"" + s + "\""; }

struct EndRecord {
  uint64_t entries = 0;
  uint64_t cd_offset = 0;
  uint64_t cd_size = 0;
};

// Finds the EOCD (and the ZIP64 EOCD when a locator precedes it).
// small_tail_first: read the last kEocdSize + kZip64LocatorSize bytes first and search the
// 64 KiB window only when they do not end with a comment-less EOCD.
Result<EndRecord> ReadEndRecord(const RangeReader& r, bool small_tail_first) {
  const uint64_t size = r.size();
  if (size < kEocdSize) {
    return Bad(r, "not a ZIP: " + std::to_string(size) + " bytes, too short for an end of central directory record");
  }
  size_t tail_len = static_cast<size_t>(std::min<uint64_t>(size, kEocdSize + kMaxCommentSize));
  std::string tail;
  if (small_tail_first && size >= kEocdSize + kZip64LocatorSize) {
    const size_t small = kEocdSize + kZip64LocatorSize;
    TACO_ASSIGN_OR_RETURN(tail, r.Read(size - small, small));
    if (LoadU32(tail.data() + kZip64LocatorSize) == kEocdSignature &&
        LoadU16(tail.data() + kZip64LocatorSize + 20) == 0) {
      tail_len = small;
    } else {
      tail.clear();
    }
  }
  const uint64_t tail_start = size - tail_len;
  if (tail.empty()) {
    TACO_ASSIGN_OR_RETURN(tail, r.Read(tail_start, tail_len));
  }

  // The last signature whose comment ends exactly at the end of the file; failing that, the
  // last one whose comment fits (tolerates trailing bytes).
  size_t found = SIZE_MAX;
  size_t fallback = SIZE_MAX;
  for (size_t i = tail_len - kEocdSize + 1; i-- > 0;) {
    if (LoadU32(tail.data() + i) != kEocdSignature) continue;
    const size_t end = i + kEocdSize + LoadU16(tail.data() + i + 20);
    if (end == tail_len) {
      found = i;
      break;
    }
    if (end < tail_len && fallback == SIZE_MAX) fallback = i;
  }
  if (found == SIZE_MAX) found = fallback;
  if (found == SIZE_MAX) return Bad(r, "not a ZIP: no end of central directory record");
  const uint64_t eocd_pos = tail_start + found;
  const char* e = tail.data() + found;
  uint64_t disk = LoadU16(e + 4);
  uint64_t cd_disk = LoadU16(e + 6);
  uint64_t entries_here = LoadU16(e + 8);
  EndRecord rec;
  rec.entries = LoadU16(e + 10);
  rec.cd_size = LoadU32(e + 12);
  rec.cd_offset = LoadU32(e + 16);
  uint64_t limit = eocd_pos;  // the central directory must end before this

  std::string locator;
  if (eocd_pos >= kZip64LocatorSize) {
    if (found >= kZip64LocatorSize) {
      locator = tail.substr(found - kZip64LocatorSize, kZip64LocatorSize);
    } else {
      TACO_ASSIGN_OR_RETURN(locator, r.Read(eocd_pos - kZip64LocatorSize, kZip64LocatorSize));
    }
  }
  if (!locator.empty() && LoadU32(locator.data()) == kZip64LocatorSignature) {
    const uint64_t locator_pos = eocd_pos - kZip64LocatorSize;
    const uint64_t z64_pos = LoadU64(locator.data() + 8);
    if (LoadU32(locator.data() + 4) != 0 || LoadU32(locator.data() + 16) > 1) {
      return Status::NotSupported(r.name() + ": multi-disk ZIP archives are not supported");
    }
    if (locator_pos < kZip64EocdSize || z64_pos > locator_pos - kZip64EocdSize) {
      return Bad(r, "ZIP64 end of central directory offset " + std::to_string(z64_pos) +
                        " is not before its locator at " + std::to_string(locator_pos));
    }
    std::string z64;
    if (z64_pos >= tail_start) {
      z64 = tail.substr(static_cast<size_t>(z64_pos - tail_start), kZip64EocdSize);
    } else {
      TACO_ASSIGN_OR_RETURN(z64, r.Read(z64_pos, kZip64EocdSize));
    }
    if (LoadU32(z64.data()) != kZip64EocdSignature) {
      return Bad(r, "no ZIP64 end of central directory record at offset " + std::to_string(z64_pos));
    }
    disk = LoadU32(z64.data() + 16);
    cd_disk = LoadU32(z64.data() + 20);
    entries_here = LoadU64(z64.data() + 24);
    rec.entries = LoadU64(z64.data() + 32);
    rec.cd_size = LoadU64(z64.data() + 40);
    rec.cd_offset = LoadU64(z64.data() + 48);
    limit = z64_pos;
  }
  if (disk != 0 || cd_disk != 0 || entries_here != rec.entries) {
    return Status::NotSupported(r.name() + ": multi-disk ZIP archives are not supported");
  }
  if (rec.cd_offset > limit || rec.cd_size > limit - rec.cd_offset) {
    return Bad(r, "central directory (offset " + std::to_string(rec.cd_offset) + ", size " +
                      std::to_string(rec.cd_size) + ") extends past its end record at " + std::to_string(limit));
  }
  if (rec.cd_size > util::kMaxCentralDirectoryBytes) {
    return Bad(r, "central directory of " + std::to_string(rec.cd_size) + " bytes is more than the " +
                      std::to_string(util::kMaxCentralDirectoryBytes) + " allowed");
  }
  if (rec.entries > rec.cd_size / kCentralHeaderSize) {
    return Bad(r, "central directory of " + std::to_string(rec.cd_size) + " bytes cannot hold " +
                      std::to_string(rec.entries) + " entries");
  }
  return rec;
}

// Replaces the 0xFFFFFFFF markers of `entry` from its ZIP64 extra field (APPNOTE 4.5.3:
// only the overflowing fields are present, in the order uncompressed, compressed, offset).
Status ApplyZip64Extra(const RangeReader& r, size_t index, const char* extra, size_t extra_len, bool need_disk,
                       ZipEntry* entry) {
  const bool need_u = entry->uncompressed_size == kMax32;
  const bool need_c = entry->compressed_size == kMax32;
  const bool need_o = entry->lfh_offset == kMax32;
  if (!need_u && !need_c && !need_o && !need_disk) return Status::OK();
  const std::string where = "central directory entry " + std::to_string(index) + " (" + Quoted(entry->name) + ")";
  size_t q = 0;
  while (q + 4 <= extra_len) {
    const uint16_t id = LoadU16(extra + q);
    const size_t len = LoadU16(extra + q + 2);
    if (q + 4 + len > extra_len) return Bad(r, where + ": extra field overruns its area");
    if (id == kZip64ExtraId) {
      const char* f = extra + q + 4;
      const size_t need = (need_u ? 8 : 0) + (need_c ? 8 : 0) + (need_o ? 8 : 0) + (need_disk ? 4 : 0);
      if (len < need) {
        return Bad(r,
                   where + ": ZIP64 extra field has " + std::to_string(len) + " bytes, needs " + std::to_string(need));
      }
      auto take = [&f] {
        const uint64_t v = LoadU64(f);
        f += 8;
        return v;
      };
      if (need_u) entry->uncompressed_size = take();
      if (need_c) entry->compressed_size = take();
      if (need_o) entry->lfh_offset = take();
      if (need_disk && LoadU32(f) != 0) {
        return Status::NotSupported(r.name() + ": multi-disk ZIP archives are not supported");
      }
      return Status::OK();
    }
    q += 4 + len;
  }
  return Bad(r, where + ": sizes or offset need a ZIP64 extra field, none found");
}

Result<std::vector<ZipEntry>> ParseCentralDirectory(const RangeReader& r, const EndRecord& rec) {
  TACO_ASSIGN_OR_RETURN(const std::string cd, r.Read(rec.cd_offset, static_cast<size_t>(rec.cd_size)));
  std::vector<ZipEntry> entries;
  entries.reserve(static_cast<size_t>(rec.entries));
  size_t p = 0;
  for (uint64_t i = 0; i < rec.entries; ++i) {
    auto where = [i] { return "central directory entry " + std::to_string(i); };  // built only to report
    if (cd.size() - p < kCentralHeaderSize) return Bad(r, where() + ": truncated");
    const char* h = cd.data() + p;
    if (LoadU32(h) != kCentralHeaderSignature) {
      return Bad(r, where() + ": bad signature at offset " + std::to_string(rec.cd_offset + p));
    }
    const size_t name_len = LoadU16(h + 28);
    const size_t extra_len = LoadU16(h + 30);
    const size_t comment_len = LoadU16(h + 32);
    const size_t record_len = kCentralHeaderSize + name_len + extra_len + comment_len;
    if (cd.size() - p < record_len) {
      return Bad(r, where() + ": name, extra field or comment runs past the central directory");
    }
    ZipEntry entry;
    entry.method = LoadU16(h + 10);
    entry.crc32 = LoadU32(h + 16);
    entry.compressed_size = LoadU32(h + 20);
    entry.uncompressed_size = LoadU32(h + 24);
    entry.external_attr = LoadU32(h + 38);
    entry.lfh_offset = LoadU32(h + 42);
    entry.name.assign(h + kCentralHeaderSize, name_len);
    const bool need_disk = LoadU16(h + 34) == kMax16;
    if (!need_disk && LoadU16(h + 34) != 0) {
      return Status::NotSupported(r.name() + ": multi-disk ZIP archives are not supported");
    }
    TACO_RETURN_IF_ERROR(ApplyZip64Extra(r, i, h + kCentralHeaderSize + name_len, extra_len, need_disk, &entry));
    if (entry.lfh_offset > rec.cd_offset || kLocalHeaderSize + name_len > rec.cd_offset - entry.lfh_offset) {
      return Bad(r, where() + " (" + Quoted(entry.name) + "): local header offset " + std::to_string(entry.lfh_offset) +
                        " is not before the central directory");
    }
    entries.push_back(std::move(entry));
    p += record_len;
  }
  if (p != cd.size()) {
    return Bad(r, "central directory has " + std::to_string(cd.size() - p) + " bytes after its last entry (" +
                      std::to_string(rec.entries) + " entries announced)");
  }
  return entries;
}

enum class LocalFault { kNone, kSignature, kName, kDataRange };

// The local header `h` of `e` (at least kLocalHeaderSize + e.name.size() bytes): its fault,
// and when none the data offset in *data_offset.
LocalFault CheckLocalHeader(const char* h, const ZipEntry& e, uint64_t cd_offset, uint64_t* data_offset) {
  if (LoadU32(h) != kLocalHeaderSignature) return LocalFault::kSignature;
  const size_t name_len = LoadU16(h + 26);
  const size_t extra_len = LoadU16(h + 28);
  if (name_len != e.name.size() || std::memcmp(h + kLocalHeaderSize, e.name.data(), name_len) != 0) {
    return LocalFault::kName;
  }
  *data_offset = e.lfh_offset + kLocalHeaderSize + name_len + extra_len;
  if (*data_offset > cd_offset || e.compressed_size > cd_offset - *data_offset) return LocalFault::kDataRange;
  return LocalFault::kNone;
}

}  // namespace

std::optional<uint64_t> LocalDataOffset(std::string_view header, const ZipEntry& entry, uint64_t cd_offset) {
  uint64_t data_offset = 0;
  if (header.size() < LocalHeaderBytes(entry)) return std::nullopt;
  if (CheckLocalHeader(header.data(), entry, cd_offset, &data_offset) != LocalFault::kNone) return std::nullopt;
  return data_offset;
}

Status ResolveDataOffsets(const RangeReader& r, uint64_t cd_offset, std::vector<ZipEntry>* entries,
                          const std::vector<size_t>* which) {
  std::vector<size_t> order;
  if (which != nullptr) {
    order = *which;
  } else {
    order.resize(entries->size());
    std::iota(order.begin(), order.end(), size_t{0});
  }
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return (*entries)[a].lfh_offset < (*entries)[b].lfh_offset; });
  auto header_end = [&](const ZipEntry& e) {
    return e.lfh_offset + LocalHeaderBytes(e);  // <= cd_offset (checked)
  };
  size_t i = 0;
  while (i < order.size()) {
    const uint64_t start = (*entries)[order[i]].lfh_offset;
    uint64_t end = header_end((*entries)[order[i]]);
    size_t j = i + 1;
    while (j < order.size() && header_end((*entries)[order[j]]) - start <= kMaxLocalHeaderBatch) {
      end = std::max(end, header_end((*entries)[order[j]]));
      ++j;
    }
    TACO_ASSIGN_OR_RETURN(const std::string batch, r.Read(start, static_cast<size_t>(end - start)));
    for (; i < j; ++i) {
      ZipEntry& e = (*entries)[order[i]];
      auto where = [&] { return "local header of " + Quoted(e.name) + " at offset " + std::to_string(e.lfh_offset); };
      switch (CheckLocalHeader(batch.data() + (e.lfh_offset - start), e, cd_offset, &e.data_offset)) {
        case LocalFault::kNone: break;
        case LocalFault::kSignature: return Bad(r, where() + ": bad signature");
        case LocalFault::kName: return Bad(r, where() + ": name differs from the central directory");
        case LocalFault::kDataRange:
          return Bad(r, where() + ": data (" + std::to_string(e.compressed_size) +
                            " bytes) runs into the central directory at " + std::to_string(cd_offset));
      }
    }
  }
  return Status::OK();
}

Result<CentralDirectory> ReadCentralDirectoryRecords(const RangeReader& reader, bool small_tail_first) {
  TACO_ASSIGN_OR_RETURN(const EndRecord rec, ReadEndRecord(reader, small_tail_first));
  CentralDirectory out;
  out.offset = rec.cd_offset;
  TACO_ASSIGN_OR_RETURN(out.entries, ParseCentralDirectory(reader, rec));
  return out;
}

Result<std::vector<ZipEntry>> ReadCentralDirectory(const RangeReader& reader, bool resolve_data_offsets,
                                                   bool small_tail_first) {
  TACO_ASSIGN_OR_RETURN(CentralDirectory cd, ReadCentralDirectoryRecords(reader, small_tail_first));
  if (resolve_data_offsets) {
    TACO_RETURN_IF_ERROR(ResolveDataOffsets(reader, cd.offset, &cd.entries));
  }
  return std::move(cd.entries);
}

}  // namespace taco::zip
