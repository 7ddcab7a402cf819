// The `__TACOCAT__` header codec (FORMAT §5.1).
#include "format/tacocat/tacocat_header.h"

#include <string>

#include "util/limits.h"

namespace taco::format {
namespace {

void PutU32(std::string& out, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) out[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
}
void PutU64(std::string& out, size_t at, uint64_t v) {
  for (int i = 0; i < 8; ++i) out[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
}
uint32_t GetU32(std::string_view in, size_t at) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(in[at + i]);
  return v;
}
uint64_t GetU64(std::string_view in, size_t at) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(in[at + i]);
  return v;
}

constexpr size_t kLevelTable = 16;
constexpr size_t kCollectionPair = 112;

}  // namespace

std::string EncodeTacocatHeader(const TacocatHeader& header) {
  std::string out(kTacocatHeaderSize, '\0');
  out.replace(0, kTacocatMagic.size(), kTacocatMagic);
  PutU32(out, 8, header.version);
  PutU32(out, 12, header.max_depth);
  for (size_t i = 0; i < header.levels.size(); ++i) {
    PutU64(out, kLevelTable + 16 * i, header.levels[i].offset);
    PutU64(out, kLevelTable + 16 * i + 8, header.levels[i].size);
  }
  PutU64(out, kCollectionPair, header.collection.offset);
  PutU64(out, kCollectionPair + 8, header.collection.size);
  return out;
}

Result<TacocatHeader> ParseTacocatHeader(std::string_view bytes, uint64_t file_size, const std::string& name) {
  auto not_tacocat = [&](const std::string& why) {
    return Status::Corruption(name + ": not a __TACOCAT__ file: " + why);
  };
  auto malformed = [&](const std::string& why) {
    return Status::Corruption(name + ": malformed __TACOCAT__ header: " + why);
  };
  if (bytes.size() < kTacocatHeaderSize || file_size < kTacocatHeaderSize) {
    return not_tacocat("it has " + std::to_string(file_size) + " bytes, the header alone needs 128");
  }
  if (bytes.substr(0, kTacocatMagic.size()) != kTacocatMagic) return not_tacocat("bad magic (expected TACOCAT\\0)");
  TacocatHeader h;
  h.version = GetU32(bytes, 8);
  h.max_depth = GetU32(bytes, 12);
  if (h.version != kTacocatVersion) {
    return malformed("unsupported version " + std::to_string(h.version) + " (only 1 is known)");
  }
  if (h.max_depth >= static_cast<uint32_t>(kTacocatMaxLevels)) {
    return malformed("max_depth " + std::to_string(h.max_depth) + " is larger than 5");
  }
  for (size_t i = 0; i < h.levels.size(); ++i) {
    h.levels[i] = {GetU64(bytes, kLevelTable + 16 * i), GetU64(bytes, kLevelTable + 16 * i + 8)};
  }
  h.collection = {GetU64(bytes, kCollectionPair), GetU64(bytes, kCollectionPair + 8)};

  auto check_range = [&](const ByteRange& r, const std::string& what) -> Status {
    if (r.offset < kTacocatHeaderSize) {
      return malformed(what + " starts at byte " + std::to_string(r.offset) + ", inside the 128-byte header");
    }
    if (r.offset > file_size || r.size > file_size - r.offset) {
      return malformed(what + " (offset " + std::to_string(r.offset) + ", size " + std::to_string(r.size) +
                       ") goes past the end of the file (" + std::to_string(file_size) + " bytes)");
    }
    return Status::OK();
  };
  if (!h.collection.present()) return malformed("COLLECTION.json offset/size is zero");
  TACO_RETURN_IF_ERROR(check_range(h.collection, "COLLECTION.json"));
  if (h.collection.size > util::kMaxCollectionJsonBytes) {
    return malformed("COLLECTION.json claims " + std::to_string(h.collection.size) + " bytes, more than the " +
                     std::to_string(util::kMaxCollectionJsonBytes) + " allowed");
  }
  if (!h.levels[0].present()) return malformed("level0 is missing");
  for (size_t i = 0; i < h.levels.size(); ++i) {
    const bool expected = i <= h.max_depth;
    if (h.levels[i].present() != expected) {
      return malformed("level" + std::to_string(i) + (expected ? " is missing" : " is present") + " but max_depth is " +
                       std::to_string(h.max_depth));
    }
    if (expected) TACO_RETURN_IF_ERROR(check_range(h.levels[i], "level" + std::to_string(i)));
  }
  return h;
}

}  // namespace taco::format
