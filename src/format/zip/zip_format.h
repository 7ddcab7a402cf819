// ZIP record constants (PKWARE APPNOTE 6.3) and little-endian byte helpers shared by the
// TACO header parser, the ZIP writer and the central-directory reader.
//
// Only what taco-cpp writes and reads is named here: local file headers, central directory
// headers, the classic end-of-central-directory record, the ZIP64 EOCD record and locator,
// and the ZIP64 extended-information extra field (id 0x0001).
#ifndef TACO_FORMAT_ZIP_ZIP_FORMAT_H_
#define TACO_FORMAT_ZIP_ZIP_FORMAT_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace taco::zip {

inline constexpr uint32_t kLocalHeaderSignature = 0x04034b50;    // "PK\3\4"
inline constexpr uint32_t kCentralHeaderSignature = 0x02014b50;  // "PK\1\2"
inline constexpr uint32_t kEocdSignature = 0x06054b50;           // "PK\5\6"
inline constexpr uint32_t kZip64EocdSignature = 0x06064b50;      // "PK\6\6"
inline constexpr uint32_t kZip64LocatorSignature = 0x07064b50;   // "PK\6\7"

inline constexpr size_t kLocalHeaderSize = 30;    // fixed part, before name and extra
inline constexpr size_t kCentralHeaderSize = 46;  // fixed part, before name, extra, comment
inline constexpr size_t kEocdSize = 22;           // without comment
inline constexpr size_t kZip64EocdSize = 56;      // without extensible data
inline constexpr size_t kZip64LocatorSize = 20;
inline constexpr size_t kMaxCommentSize = 0xFFFF;

inline constexpr uint16_t kZip64ExtraId = 0x0001;
inline constexpr uint32_t kMax32 = 0xFFFFFFFF;  // also the "see ZIP64 extra" marker
inline constexpr uint16_t kMax16 = 0xFFFF;

inline constexpr uint16_t kVersionStore = 10;       // version needed: stored member
inline constexpr uint16_t kVersionZip64 = 45;       // version needed: ZIP64 structures
inline constexpr uint16_t kVersionMadeBy = 0x033F;  // UNIX, spec 6.3 (as libzip writes)
inline constexpr uint16_t kFlagUtf8 = 1 << 11;
inline constexpr uint16_t kMethodStore = 0;

inline uint16_t LoadU16(const char* p) {
  const auto* b = reinterpret_cast<const unsigned char*>(p);
  return static_cast<uint16_t>(b[0] | (b[1] << 8));
}
inline uint32_t LoadU32(const char* p) {
  const auto* b = reinterpret_cast<const unsigned char*>(p);
  return static_cast<uint32_t>(b[0]) | (static_cast<uint32_t>(b[1]) << 8) | (static_cast<uint32_t>(b[2]) << 16) |
         (static_cast<uint32_t>(b[3]) << 24);
}
inline uint64_t LoadU64(const char* p) {
  return static_cast<uint64_t>(LoadU32(p)) | (static_cast<uint64_t>(LoadU32(p + 4)) << 32);
}

inline void StoreU16(char* p, uint16_t v) {
  p[0] = static_cast<char>(v & 0xFF);
  p[1] = static_cast<char>(v >> 8);
}
inline void StoreU32(char* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<char>((v >> (8 * i)) & 0xFF);
}
inline void StoreU64(char* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<char>((v >> (8 * i)) & 0xFF);
}

inline void AppendU16(std::string& out, uint16_t v) {
  char b[2];
  StoreU16(b, v);
  out.append(b, 2);
}
inline void AppendU32(std::string& out, uint32_t v) {
  char b[4];
  StoreU32(b, v);
  out.append(b, 4);
}
inline void AppendU64(std::string& out, uint64_t v) {
  char b[8];
  StoreU64(b, v);
  out.append(b, 8);
}

}  // namespace taco::zip

#endif  // TACO_FORMAT_ZIP_ZIP_FORMAT_H_
