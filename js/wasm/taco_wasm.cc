// The C interface of the WebAssembly build of src/format (js/wasm/CMakeLists.txt): the byte
// layouts of TACO containers, parsed by the same code as the native library, over bytes that
// JavaScript supplies through one asynchronous range callback.
//
// Contract:
//  * Every entry point takes the container's total size and a name (URL or file name, used in
//    error messages) and reads through `Module.tacoReadRange(offset, length, pointer)`, an async
//    JS function that must write exactly `length` bytes at `pointer` of the wasm heap (or
//    throw). Calls suspend through Asyncify: call them with ccall(..., {async: true}), one at a
//    time (the module is single-threaded and not reentrant).
//  * Each returns a JSON text (owned by the module, valid until the next call):
//    {"ok": true, ...} or {"ok": false, "error": "<name>: <what is wrong>"} — the native
//    library's Status message, unchanged.
//  * Offsets and sizes travel as doubles: exact up to 2^53 bytes (8 PiB).
#include <emscripten.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "format/tacocat/tacocat_header.h"
#include "format/zip/stored_member.h"
#include "format/zip/taco_header.h"
#include "format/zip/zip_reader.h"
#include "taco/io.h"

// Awaits the JS range callback; returns 0 on success, else writes nothing usable and returns 1
// (the JS exception text is kept in Module.tacoLastError).
EM_ASYNC_JS(int, taco_js_read_range, (double offset, double length, void* out), {
  try {
    await Module.tacoReadRange(offset, length, out);
    return 0;
  } catch (e) {
    Module.tacoLastError = String(e && e.message ? e.message : e);
    return 1;
  }
});

// The UTF-8 length of Module.tacoLastError, and a copy of it (NUL-terminated, `n` bytes with it).
EM_JS(int, taco_js_last_error_bytes, (), { return lengthBytesUTF8(Module.tacoLastError || ""); });
EM_JS(void, taco_js_copy_last_error, (char* out, int n), { stringToUTF8(Module.tacoLastError || "", out, n); });

namespace {

// A RangeReader whose bytes come from the JS callback.
class JsRangeReader final : public taco::RangeReader {
 public:
  JsRangeReader(uint64_t size, std::string name) : size_(size), name_(std::move(name)) {}
  uint64_t size() const override { return size_; }
  const std::string& name() const override { return name_; }
  taco::Status ReadAt(uint64_t offset, size_t n, void* out) const override {
    if (n > size_ || offset > size_ - n) {
      return taco::Status::Corruption(name_ + ": range " + std::to_string(offset) + "+" + std::to_string(n) +
                                      " is outside the " + std::to_string(size_) + "-byte file");
    }
    if (n == 0) return taco::Status::OK();
    if (taco_js_read_range(static_cast<double>(offset), static_cast<double>(n), out) != 0) {
      std::string why(static_cast<size_t>(taco_js_last_error_bytes()), '\0');
      taco_js_copy_last_error(why.data(), static_cast<int>(why.size()) + 1);
      return taco::Status::IOError(name_ + ": " + why);
    }
    return taco::Status::OK();
  }

 private:
  uint64_t size_;
  std::string name_;
};

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string Range(uint64_t offset, uint64_t size) {
  return "{\"offset\":" + std::to_string(offset) + ",\"size\":" + std::to_string(size) + "}";
}

std::string& Answer() {
  static std::string answer;
  return answer;
}

const char* Reply(const std::string& json) {
  Answer() = json;
  return Answer().c_str();
}

const char* Error(const taco::Status& status) {
  return Reply("{\"ok\":false,\"error\":" + JsonString(status.message()) + "}");
}

const char* DescribeTacoHeader(const taco::zip::TacoHeader& header) {
  std::string levels;
  const auto& e = header.entries;
  for (size_t i = 0; i + 1 < e.size(); ++i) {
    if (!levels.empty()) levels += ",";
    levels += Range(e[i].offset, e[i].length);
  }
  std::string collection = e.empty() ? "null" : Range(e.back().offset, e.back().length);
  const char* variant = header.variant == taco::zip::HeaderVariant::kTacoHeader ? "TACO_HEADER" : "TACO_GHOST";
  return Reply(std::string("{\"ok\":true,\"format\":\"zip\",\"header\":\"") + variant + "\",\"levels\":[" + levels +
               "],\"collection\":" + collection + "}");
}

const char* DescribeTacocat(const taco::format::TacocatHeader& header) {
  std::string levels;
  for (const auto& level : header.levels) {
    if (!level.present()) continue;
    if (!levels.empty()) levels += ",";
    levels += Range(level.offset, level.size);
  }
  return Reply("{\"ok\":true,\"format\":\"tacocat\",\"header\":\"__TACOCAT__\",\"levels\":[" + levels +
               "],\"collection\":" + Range(header.collection.offset, header.collection.size) + "}");
}

}  // namespace

extern "C" {

// The container of a single file: a TACO ZIP (TACO_HEADER or TACO_GHOST) or a `__TACOCAT__`
// file. Reads the first min(size, 256) bytes in one range. Answer: {"ok":true, "format":
// "zip"|"tacocat", "header": "TACO_HEADER"|"TACO_GHOST"|"__TACOCAT__", "levels": [{offset,
// size}...] (level 0 first), "collection": {offset, size} (COLLECTION.json)}.
EMSCRIPTEN_KEEPALIVE const char* taco_describe(double size, const char* name) {
  JsRangeReader reader(static_cast<uint64_t>(size), name);
  const size_t n = static_cast<size_t>(std::min<uint64_t>(reader.size(), taco::zip::kTacoHeaderPrefixRead));
  std::string prefix(n, '\0');
  if (n > 0) {
    taco::Status read = reader.ReadAt(0, n, prefix.data());
    if (!read.ok()) return Error(read);
  }
  if (prefix.size() >= taco::format::kTacocatMagic.size() &&
      std::string_view(prefix).substr(0, taco::format::kTacocatMagic.size()) == taco::format::kTacocatMagic) {
    auto header = taco::format::ParseTacocatHeader(prefix, reader.size(), reader.name());
    if (!header.ok()) return Error(header.status());
    return DescribeTacocat(*header);
  }
  auto header = taco::zip::ParseTacoHeader(prefix, reader.size(), reader.name());
  if (!header.ok()) return Error(header.status());
  return DescribeTacoHeader(*header);
}

// Every member of a ZIP from its central directory (any ZIP, ZIP64 included), with the data
// offset from its local header. Answer: {"ok":true, "members": [{"name", "offset" (data),
// "size" (stored bytes), "crc32", "method"}...]} in central-directory order.
// With resolve = 0 only the central directory is read (no local header): "offset" is 0 and
// "header" (every answer has it) is the local header's offset.
EMSCRIPTEN_KEEPALIVE const char* taco_zip_members(double size, const char* name, int resolve) {
  JsRangeReader reader(static_cast<uint64_t>(size), name);
  auto entries = taco::zip::ReadCentralDirectory(reader, /*resolve_data_offsets=*/resolve != 0);
  if (!entries.ok()) return Error(entries.status());
  std::string out = "{\"ok\":true,\"members\":[";
  bool first = true;
  for (const auto& e : *entries) {
    if (!first) out += ",";
    first = false;
    out += "{\"name\":" + JsonString(e.name) + ",\"header\":" + std::to_string(e.lfh_offset) +
           ",\"offset\":" + std::to_string(e.data_offset) + ",\"size\":" + std::to_string(e.compressed_size) +
           ",\"crc32\":" + std::to_string(e.crc32) + ",\"method\":" + std::to_string(e.method) + "}";
  }
  return Reply(out + "]}");
}

// The bytes of a STORE member whose data is [offset, offset+length), read as the native
// reader reads a sample (zip::ReadVerifiedMember, stored_member.h): ONE read of the local
// header window before the data, the data and up to 24 bytes after it; the local header's
// name checked against `expected` (kind 0 = none, 1 = the exact archive path, 2 = its last
// part), and the CRC-32 (crc32_portable.cc) when check_crc != 0. `what` names the sample in
// errors. Answer: {"ok":true, "pointer": P, "size": N}: the bytes at P in the wasm heap,
// valid until the next call.
EMSCRIPTEN_KEEPALIVE const char* taco_read_member(double size, const char* name, double offset, double length,
                                                  int expected_kind, const char* expected, const char* what,
                                                  int check_crc) {
  static std::string bytes;
  JsRangeReader reader(static_cast<uint64_t>(size), name);
  taco::zip::MemberName member = taco::zip::MemberName::None();
  if (expected_kind == 1) member = taco::zip::MemberName::Exact(expected);
  if (expected_kind == 2) member = taco::zip::MemberName::LastPart(expected);
  auto got = taco::zip::ReadVerifiedMember(reader, static_cast<uint64_t>(offset), static_cast<uint64_t>(length), what,
                                           member, check_crc != 0);
  if (!got.ok()) return Error(got.status());
  bytes = std::move(*got);
  return Reply("{\"ok\":true,\"pointer\":" + std::to_string(reinterpret_cast<uintptr_t>(bytes.data())) +
               ",\"size\":" + std::to_string(bytes.size()) + "}");
}

}  // extern "C"
