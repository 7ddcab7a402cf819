#include "format/zip/taco_header.h"

#include <algorithm>

#include "format/zip/zip_format.h"
#include "util/limits.h"

namespace taco::zip {
namespace {

// Offsets inside the local file header (APPNOTE 4.3.7).
constexpr size_t kLfhNameLength = 26;
constexpr size_t kLfhExtraLength = 28;
constexpr size_t kPairsOffsetInPayload = 4;
constexpr size_t kPairSize = 16;

Status NotTaco(const std::string& name, const std::string& why) {
  return Status::Corruption(name + ": not a TACO ZIP: " + why);
}

Status Malformed(const std::string& name, const std::string& why) {
  return Status::Corruption(name + ": malformed TACO_HEADER: " + why);
}

std::string PairText(size_t index, const HeaderEntry& e) {
  return "pair " + std::to_string(index) + " (offset " + std::to_string(e.offset) + ", length " +
         std::to_string(e.length) + ")";
}

// The first entry's name as found at byte 30, quoted, for error messages.
std::string Printable(std::string_view prefix, uint16_t name_length) {
  constexpr size_t kMaxShown = 64;
  const size_t available = prefix.size() - kLocalHeaderSize;
  std::string out = "\"";
  for (size_t i = 0; i < std::min<size_t>({name_length, available, kMaxShown}); ++i) {
    const char c = prefix[kLocalHeaderSize + i];
    out += (c >= 0x20 && c < 0x7F) ? c : '?';
  }
  return out + "\"";
}

}  // namespace

std::string EncodeTacoHeaderPayload(const std::vector<HeaderEntry>& entries) {
  std::string payload(kTacoHeaderPayloadSize, '\0');
  const size_t count = std::min(entries.size(), kMaxHeaderEntries);
  payload[0] = static_cast<char>(count);
  for (size_t i = 0; i < count; ++i) {
    char* pair = payload.data() + kPairsOffsetInPayload + kPairSize * i;
    StoreU64(pair, entries[i].offset);
    StoreU64(pair + 8, entries[i].length);
  }
  return payload;
}

Result<TacoHeader> ParseTacoHeader(std::string_view prefix, uint64_t file_size, const std::string& name) {
  auto short_prefix = [&](size_t needed) {
    return Status::Internal(name + ": TACO_HEADER parser got " + std::to_string(prefix.size()) +
                            " bytes, needs the first " + std::to_string(needed));
  };
  if (prefix.size() < std::min<uint64_t>(file_size, kTacoGhostSize)) {
    return short_prefix(kTacoGhostSize);
  }
  // The ghost variant is one byte shorter; anything under it cannot be either variant.
  if (file_size < kTacoGhostSize) {
    return NotTaco(name, "file is " + std::to_string(file_size) + " bytes, shorter than the " +
                             std::to_string(kTacoHeaderSize) + "-byte TACO_HEADER");
  }
  const char* p = prefix.data();
  if (LoadU32(p) != kLocalHeaderSignature) {
    // The legacy BLOB formats (FORMAT §8) start with a 2-byte magic and a 200-byte header.
    if (file_size >= 200 && (prefix.substr(0, 2) == "#y" || prefix.substr(0, 2) == "WX")) {
      return Status::NotSupported(
          name + ": a legacy " +
          (prefix[0] == '#' ? std::string("Tortilla 0.5 (magic #y)") : std::string("TACO v1 (magic WX)")) +
          " file, not a TACO ZIP (Dataset::Open reads it as a legacy dataset)");
    }
    return NotTaco(name, "no ZIP local file header at byte 0");
  }
  const uint16_t name_length = LoadU16(p + kLfhNameLength);
  const std::string_view entry_name(p + kLocalHeaderSize, std::min<size_t>(name_length, kTacoHeaderName.size()));
  TacoHeader header;
  size_t header_size = 0;
  if (name_length == kTacoHeaderName.size() && entry_name == kTacoHeaderName) {
    header.variant = HeaderVariant::kTacoHeader;
    header_size = kTacoHeaderSize;
  } else if (name_length == kTacoGhostName.size() && entry_name == kTacoGhostName) {
    header.variant = HeaderVariant::kTacoGhost;
    header_size = kTacoGhostSize;
  } else {
    return NotTaco(name, "the first ZIP entry is " + Printable(prefix, name_length) + ", not TACO_HEADER");
  }
  if (file_size >= header_size && prefix.size() < header_size) return short_prefix(header_size);
  if (file_size < header_size) {
    return NotTaco(name, "file is " + std::to_string(file_size) + " bytes, shorter than the " +
                             std::to_string(header_size) + "-byte " + std::string(entry_name));
  }
  const uint16_t extra_length = LoadU16(p + kLfhExtraLength);
  if (extra_length != 0) {
    return Malformed(name, "local header extra field length is " + std::to_string(extra_length) + ", expected 0");
  }

  const char* payload = p + kLocalHeaderSize + name_length;
  const unsigned count = static_cast<unsigned char>(payload[0]);
  if (count > kMaxHeaderEntries) {
    return Malformed(
        name, "count is " + std::to_string(count) + ", at most " + std::to_string(kMaxHeaderEntries) + " allowed");
  }
  for (size_t i = 0; i < count; ++i) {
    const char* pair = payload + kPairsOffsetInPayload + kPairSize * i;
    HeaderEntry e{LoadU64(pair), LoadU64(pair + 8)};
    if (e.offset > file_size || e.length > file_size - e.offset) {
      return Malformed(name,
                       PairText(i, e) + " ends past the end of the file (" + std::to_string(file_size) + " bytes)");
    }
    if (e.offset < header_size) {
      return Malformed(name,
                       PairText(i, e) + " overlaps the header (bytes 0.." + std::to_string(header_size - 1) + ")");
    }
    header.entries.push_back(e);
  }
  if (!header.entries.empty() && header.entries.back().length > util::kMaxCollectionJsonBytes) {
    return Malformed(name, "COLLECTION.json (the last pair) claims " + std::to_string(header.entries.back().length) +
                               " bytes, more than the " + std::to_string(util::kMaxCollectionJsonBytes) + " allowed");
  }
  for (size_t i = 0; i < header.entries.size(); ++i) {
    for (size_t j = i + 1; j < header.entries.size(); ++j) {
      const HeaderEntry& a = header.entries[i];
      const HeaderEntry& b = header.entries[j];
      // Both ranges are inside the file, so the sums cannot overflow.
      if (a.offset < b.offset + b.length && b.offset < a.offset + a.length) {
        return Malformed(name, PairText(i, a) + " overlaps " + PairText(j, b));
      }
    }
  }
  return header;
}

Result<TacoHeader> ReadTacoHeader(const RangeReader& reader) {
  const uint64_t size = reader.size();
  const size_t n = static_cast<size_t>(std::min<uint64_t>(size, kTacoHeaderPrefixRead));
  std::string prefix(n, '\0');
  if (n > 0) TACO_RETURN_IF_ERROR(reader.ReadAt(0, n, prefix.data()));
  return ParseTacoHeader(prefix, size, reader.name());
}

}  // namespace taco::zip
