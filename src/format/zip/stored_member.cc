#include "format/zip/stored_member.h"

#include <algorithm>
#include <cstdio>

#include "format/zip/crc32.h"
#include "format/zip/zip_format.h"

namespace taco::zip {
namespace {

constexpr uint16_t kFlagDataDescriptor = 1 << 3;
constexpr uint32_t kDataDescriptorSignature = 0x08074b50;
constexpr size_t kMaxLocalHeader = kLocalHeaderSize + 0xFFFF + 0xFFFF;

std::string Hex32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "0x%08x", v);
  return buf;
}

// The sizes from a local header's ZIP64 extra field (uncompressed, then compressed).
bool Zip64Sizes(std::string_view extra, uint64_t* uncompressed, uint64_t* compressed) {
  size_t q = 0;
  while (q + 4 <= extra.size()) {
    const uint16_t id = LoadU16(extra.data() + q);
    const size_t len = LoadU16(extra.data() + q + 2);
    if (q + 4 + len > extra.size()) return false;
    if (id == kZip64ExtraId) {
      if (len < 16) return false;
      *uncompressed = LoadU64(extra.data() + q + 4);
      *compressed = LoadU64(extra.data() + q + 12);
      return true;
    }
    q += 4 + len;
  }
  return false;
}

}  // namespace

Result<LocalHeaderInfo> FindLocalHeader(std::string_view window, uint64_t data_size, std::string_view trailer,
                                        const std::string& what) {
  size_t found = SIZE_MAX;
  for (size_t p = window.size() >= kLocalHeaderSize ? window.size() - kLocalHeaderSize + 1 : 0; p-- > 0;) {
    const char* h = window.data() + p;
    if (LoadU32(h) != kLocalHeaderSignature) continue;
    const uint64_t end = uint64_t{p} + kLocalHeaderSize + LoadU16(h + 26) + LoadU16(h + 28);
    if (end == window.size()) {
      found = p;
      break;
    }
  }
  if (found == SIZE_MAX) {
    return Status::Corruption(what +
                              ": no ZIP local header ends where the data starts (wrong offset, or a damaged file)");
  }
  const char* h = window.data() + found;
  const uint16_t flags = LoadU16(h + 6);
  const uint16_t method = LoadU16(h + 8);
  LocalHeaderInfo info;
  info.header_size = window.size() - found;
  info.name.assign(window.substr(found + kLocalHeaderSize, LoadU16(h + 26)));
  info.crc32 = LoadU32(h + 14);
  uint64_t compressed = LoadU32(h + 18);
  uint64_t uncompressed = LoadU32(h + 22);
  if (method != kMethodStore) {
    return Status::Corruption(what + ": the member is compressed (ZIP method " + std::to_string(method) +
                              "); TACO members are stored");
  }
  const std::string_view extra = window.substr(found + kLocalHeaderSize + LoadU16(h + 26), LoadU16(h + 28));
  if ((compressed == kMax32 || uncompressed == kMax32) && !Zip64Sizes(extra, &uncompressed, &compressed)) {
    return Status::Corruption(what + ": the local header's sizes need a ZIP64 extra field, none found");
  }
  if (flags & kFlagDataDescriptor) {
    // CRC and sizes follow the data: [signature] crc, compressed, uncompressed (4 or 8 bytes each).
    std::string_view d = trailer;
    if (d.size() >= 4 && LoadU32(d.data()) == kDataDescriptorSignature) d.remove_prefix(4);
    if (d.size() < 12) {
      info.crc_known = false;
      info.size = data_size;
      return info;
    }
    info.crc32 = LoadU32(d.data());
    if (LoadU32(d.data() + 4) == data_size) {
      compressed = data_size;
    } else if (d.size() >= 20 && LoadU64(d.data() + 4) == data_size) {
      compressed = data_size;
    } else {
      compressed = LoadU32(d.data() + 4);
    }
  }
  if (compressed != data_size) {
    return Status::Corruption(what + ": the ZIP local header says " + std::to_string(compressed) +
                              " bytes, the metadata " + std::to_string(data_size));
  }
  info.size = data_size;
  return info;
}

bool MemberName::matches(std::string_view found) const {
  switch (kind) {
    case Kind::kNone: return true;
    case Kind::kExact: return found == text;
    case Kind::kLastPart:
      return found.size() > text.size() && found.substr(found.size() - text.size()) == text &&
             found[found.size() - text.size() - 1] == '/';
  }
  return false;
}

std::string MemberName::Describe() const {
  if (kind == Kind::kLastPart) return "'.../" + text + "'";
  return "'" + text + "'";
}

Status CheckMemberName(const LocalHeaderInfo& header, const MemberName& expected, uint64_t offset,
                       const std::string& what) {
  if (expected.matches(header.name)) return Status::OK();
  return Status::Corruption(what + ": the ZIP member at offset " + std::to_string(offset) + " is '" + header.name +
                            "', not the sample's " + expected.Describe() +
                            " (a wrong internal:offset in the metadata)");
}

void MemberCheck::Update(std::string_view bytes) {
  crc_ = Crc32(crc_, bytes.data(), bytes.size());
  seen_ += bytes.size();
}

void MemberCheck::Combine(uint32_t crc, uint64_t n) {
  crc_ = Crc32Combine(crc_, crc, n);
  seen_ += n;
}

Status MemberCheck::Finish() const {
  if (!header_.crc_known) return Status::OK();
  if (seen_ != header_.size) {
    return Status::Internal(what_ + ": CRC check saw " + std::to_string(seen_) + " of " + std::to_string(header_.size) +
                            " bytes");
  }
  if (crc_ != header_.crc32) {
    return Status::Corruption(what_ + ": CRC-32 mismatch: stored " + Hex32(header_.crc32) + ", computed " +
                              Hex32(crc_) + ": the bytes are damaged");
  }
  return Status::OK();
}

Result<LocalHeaderInfo> ReadLocalHeaderBefore(const RangeReader& zip, uint64_t offset, uint64_t size,
                                              const std::string& what) {
  if (offset > zip.size() || size > zip.size() - offset) {
    return Status::Corruption(what + ": range (offset " + std::to_string(offset) + ", size " + std::to_string(size) +
                              ") is not inside " + zip.name() + " (" + std::to_string(zip.size()) + " bytes)");
  }
  const uint64_t after = offset + size;
  const size_t t = static_cast<size_t>(std::min<uint64_t>(zip.size() - after, kDataDescriptorMax));
  Result<LocalHeaderInfo> info = Status::Internal("unset");
  for (size_t limit : {kLocalHeaderWindow, kMaxLocalHeader}) {
    const size_t w = static_cast<size_t>(std::min<uint64_t>(offset, limit));
    TACO_ASSIGN_OR_RETURN(std::string window, zip.Read(offset - w, w));
    info = FindLocalHeader(window, size, {}, what);
    if (info.ok() || w == offset) break;
  }
  if (info.ok() && !info->crc_known && t > 0) {
    TACO_ASSIGN_OR_RETURN(std::string trailer, zip.Read(after, t));
    TACO_ASSIGN_OR_RETURN(std::string window, zip.Read(offset - info->header_size, info->header_size));
    info = FindLocalHeader(window, size, trailer, what);
  }
  return info;
}

Result<LocalHeaderInfo> ReadNamedLocalHeader(const RangeReader& zip, uint64_t offset, uint64_t size,
                                             const MemberName& expected, const std::string& what) {
  if (expected.kind == MemberName::Kind::kExact && offset <= zip.size() && size <= zip.size() - offset) {
    for (size_t extra : {size_t{0}, size_t{20}}) {
      const size_t w = kLocalHeaderSize + expected.text.size() + extra;
      if (w > offset) break;
      TACO_ASSIGN_OR_RETURN(std::string window, zip.Read(offset - w, w));
      Result<LocalHeaderInfo> info = FindLocalHeader(window, size, {}, what);
      if (info.ok() && info->header_size == w && info->crc_known) return info;
    }
  }
  return ReadLocalHeaderBefore(zip, offset, size, what);
}

Status VerifyMember(const RangeReader& zip, uint64_t offset, uint64_t size, const std::string& what,
                    const MemberName& expected, bool check_crc) {
  return VerifyMember(zip, offset, size, what, expected, check_crc, 0, nullptr);
}

Status VerifyMember(const RangeReader& zip, uint64_t offset, uint64_t size, const std::string& what,
                    const MemberName& expected, bool check_crc, uint64_t keep_tail, std::string* tail) {
  if (tail != nullptr) tail->clear();
  TACO_ASSIGN_OR_RETURN(LocalHeaderInfo info, ReadNamedLocalHeader(zip, offset, size, expected, what));
  TACO_RETURN_IF_ERROR(CheckMemberName(info, expected, offset, what));
  if (!check_crc) return Status::OK();
  constexpr uint64_t kPiece = uint64_t{4} << 20;
  const uint64_t tail_start = size - std::min(size, keep_tail);
  MemberCheck check(info, what);
  std::string buf;
  for (uint64_t done = 0; done < size;) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(kPiece, size - done));
    buf.resize(n);
    TACO_RETURN_IF_ERROR(zip.ReadAt(offset + done, n, buf.data()));
    check.Update(buf);
    if (tail != nullptr && done + n > tail_start) {
      const uint64_t from = tail_start > done ? tail_start - done : 0;
      tail->append(buf, static_cast<size_t>(from), std::string::npos);
    }
    done += n;
  }
  TACO_RETURN_IF_ERROR(check.Finish());
  return Status::OK();
}

Result<std::string> ReadVerifiedMember(const RangeReader& zip, uint64_t offset, uint64_t size, const std::string& what,
                                       const MemberName& expected, bool check_crc) {
  if (offset > zip.size() || size > zip.size() - offset) {
    return Status::Corruption(what + ": range (offset " + std::to_string(offset) + ", size " + std::to_string(size) +
                              ") is not inside " + zip.name() + " (" + std::to_string(zip.size()) + " bytes)");
  }
  const size_t w = static_cast<size_t>(std::min<uint64_t>(offset, kLocalHeaderWindow));
  const size_t t = static_cast<size_t>(std::min<uint64_t>(zip.size() - offset - size, kDataDescriptorMax));
  std::string buf(w + static_cast<size_t>(size) + t, '\0');
  TACO_RETURN_IF_ERROR(zip.ReadAt(offset - w, buf.size(), buf.data()));
  const std::string_view all(buf);
  Result<LocalHeaderInfo> info = FindLocalHeader(all.substr(0, w), size, all.substr(w + size), what);
  if (!info.ok() && w < offset) info = ReadLocalHeaderBefore(zip, offset, size, what);  // a long name
  if (!info.ok()) return info.status();
  TACO_RETURN_IF_ERROR(CheckMemberName(*info, expected, offset, what));
  if (check_crc) {
    MemberCheck check(*info, what);
    check.Update(all.substr(w, static_cast<size_t>(size)));
    TACO_RETURN_IF_ERROR(check.Finish());
  }
  buf.erase(0, w);
  buf.resize(static_cast<size_t>(size));
  return buf;
}

}  // namespace taco::zip
