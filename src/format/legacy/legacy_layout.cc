// Legacy BLOB header layouts (see legacy_layout.h, spec/LEGACY.md §2.3).
#include "format/legacy/legacy_layout.h"

#include <cctype>
#include <cstdio>

namespace taco::format {
namespace {

uint64_t U64At(std::string_view b, size_t at) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(b[at + static_cast<size_t>(i)]);
  return v;
}

void PutU64(std::string& b, size_t at, uint64_t v) {
  for (size_t i = 0; i < 8; ++i) b[at + i] = static_cast<char>((v >> (8 * i)) & 0xFF);
}

// bytes [from, to) are [A-Za-z0-9_]+ followed only by spaces (or NULs).
bool IsPaddedDriverName(std::string_view b, size_t from, size_t to) {
  size_t i = from;
  while (i < to && (std::isalnum(static_cast<unsigned char>(b[i])) || b[i] == '_')) ++i;
  if (i == from) return false;
  for (size_t j = i; j < to; ++j) {
    if (b[j] != ' ' && b[j] != '\0') return false;
  }
  return true;
}

bool AllZero(std::string_view b, size_t from, size_t to) {
  for (size_t i = from; i < to && i < b.size(); ++i) {
    if (b[i] != '\0') return false;
  }
  return true;
}

std::string Num(uint64_t v) { return std::to_string(v); }

}  // namespace

bool HasLegacyMagic(std::string_view prefix) {
  return prefix.size() >= 2 && (prefix.substr(0, 2) == "#y" || prefix.substr(0, 2) == "WX");
}

Result<LegacyHeader> ParseLegacyHeader(std::string_view b, uint64_t size, const std::string& name) {
  if (!HasLegacyMagic(b)) {
    return Status::Corruption(name + ": not a Tortilla/TACO v1 file: the first two bytes are not #y or WX");
  }
  const bool tortilla_magic = b[0] == '#';
  // The 50-byte prototypes (P0/P1, LEGACY.md §1): FO >= 50 and an ASCII driver name in 18–49.
  if (tortilla_magic && b.size() >= kLegacyPrototypeHeaderSize && IsPaddedDriverName(b, 18, 50) &&
      (size < kLegacyHeaderSize || !IsPaddedDriverName(b, 18, 42) || !AllZero(b, 42, 50) ||
       U64At(b, 2) < kLegacyHeaderSize)) {
    std::string driver(b.substr(18, 32));
    while (!driver.empty() && (driver.back() == ' ' || driver.back() == '\0')) driver.pop_back();
    return Status::NotSupported(name + ": a 50-byte-header Tortilla prototype (pytortilla 0.0.x, 2024, driver '" +
                                driver + "'); only the Tortilla 0.5 / TACO v1 layout (200-byte header) is read");
  }
  if (size < kLegacyHeaderSize || b.size() < kLegacyHeaderSize) {
    return Status::Corruption(name + ": a Tortilla/TACO v1 file needs a 200-byte header, the file has " + Num(size) +
                              " bytes");
  }
  LegacyHeader h;
  h.magic_wx = !tortilla_magic;
  h.footer_offset = U64At(b, 2);
  h.footer_length = U64At(b, 10);
  const uint64_t u = U64At(b, 18);
  if (tortilla_magic && IsPaddedDriverName(b, 18, 42) && u > (uint64_t{1} << 32)) {
    h.p2 = true;
    std::string driver(b.substr(18, 24));
    while (!driver.empty() && (driver.back() == ' ' || driver.back() == '\0')) driver.pop_back();
    h.driver = driver;
    h.partitions = U64At(b, 42);
    h.collection_offset = U64At(b, 50);
    h.collection_length = U64At(b, 58);
    h.is_taco = h.collection_offset != 0;
  } else {
    h.partitions = u;
    h.is_taco = h.magic_wx;
    if (h.is_taco) {
      h.collection_offset = U64At(b, 26);
      h.collection_length = U64At(b, 34);
    }
    h.free_bytes_zero = AllZero(b, h.is_taco ? 42 : 26, kLegacyHeaderSize);
  }
  if (h.footer_offset < kLegacyHeaderSize) {
    return Status::Corruption(name + ": footer offset FO " + Num(h.footer_offset) + " points into the 200-byte header");
  }
  if (h.footer_length > size || h.footer_offset > size - h.footer_length) {
    return Status::Corruption(name + ": footer [" + Num(h.footer_offset) + ", +" + Num(h.footer_length) +
                              ") ends past the end of the file (" + Num(size) + " bytes)");
  }
  if (h.is_taco && (h.collection_length > size || h.collection_offset > size - h.collection_length)) {
    return Status::Corruption(name + ": COLLECTION [" + Num(h.collection_offset) + ", +" + Num(h.collection_length) +
                              ") ends past the end of the file (" + Num(size) + " bytes)");
  }
  return h;
}

std::string EncodeLegacyHeader(bool is_taco, uint64_t footer_offset, uint64_t footer_length, uint64_t partitions,
                               uint64_t collection_offset, uint64_t collection_length) {
  std::string b(kLegacyHeaderSize, '\0');
  b[0] = is_taco ? 'W' : '#';
  b[1] = is_taco ? 'X' : 'y';
  PutU64(b, 2, footer_offset);
  PutU64(b, 10, footer_length);
  PutU64(b, 18, partitions);
  if (is_taco) {
    PutU64(b, 26, collection_offset);
    PutU64(b, 34, collection_length);
  }
  return b;
}

Result<std::optional<std::pair<uint64_t, uint64_t>>> ParseFooterPointer(std::string_view value,
                                                                        const std::string& where) {
  std::string v(value);
  auto trim = [](std::string& s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.erase(s.begin());
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  };
  trim(v);
  if (v.size() >= 2 && v.front() == '"' && v.back() == '"') {
    v = v.substr(1, v.size() - 2);
    trim(v);
  }
  if (v.empty() || v == "null" || v == "NULL") return std::optional<std::pair<uint64_t, uint64_t>>();
  unsigned long long a = 0, l = 0;
  char tail = 0;
  if (std::sscanf(v.c_str(), "OFFSETLENGTH(%llu ,%llu )%c", &a, &l, &tail) == 2 ||
      std::sscanf(v.c_str(), "OFFSETLENGTH(%llu,%llu)%c", &a, &l, &tail) == 2) {
    if (v.find('-') != std::string::npos) {
      return Status::Corruption(where + ": footer pointer '" + v + "' has a negative number");
    }
    return std::optional<std::pair<uint64_t, uint64_t>>(std::make_pair(uint64_t{a}, uint64_t{l}));
  }
  return Status::Corruption(where + ": footer pointer '" + v + "' is not OFFSETLENGTH(offset, length) or NULL");
}

std::optional<PartName> ParsePartName(std::string_view path) {
  const size_t slash = path.find_last_of('/');
  const size_t start = slash == std::string_view::npos ? 0 : slash + 1;
  const size_t part = path.find(".part", start);
  if (part == std::string_view::npos || part < start + 5) return std::nullopt;
  std::string_view digits = path.substr(part - 4, 4);
  if (path[part - 5] != '.') return std::nullopt;
  for (char c : digits) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
  }
  PartName n;
  n.stem = std::string(path.substr(0, part - 5));
  n.number = std::stoi(std::string(digits));
  n.suffix = std::string(path.substr(part));
  return n;
}

std::string FormatPartName(const PartName& name, int number) {
  char digits[16];
  std::snprintf(digits, sizeof(digits), ".%04d", number);
  return name.stem + digits + name.suffix;
}

}  // namespace taco::format
