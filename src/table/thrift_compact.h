// The Thrift compact protocol, as Parquet's footer and page headers use it: a writer, and a
// reader of untrusted bytes. Internal to src/table (parquet_writer.cc, parquet_reader.cc).
//
// Reader contract: every accessor checks the wire type it is given against the one the
// field must have, and every length against the bytes left; the first problem sets failed()
// (reads then return zeros and NextField() returns false), so a caller checks failed() once
// per struct. Nesting deeper than kMaxThriftDepth fails. Nothing is allocated from a length
// read off the wire before it has been checked against the bytes left.
#ifndef TACO_TABLE_THRIFT_COMPACT_H_
#define TACO_TABLE_THRIFT_COMPACT_H_

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace taco::table::thrift {

// Compact protocol type codes (of fields and of list elements).
enum : uint8_t {
  kTrue = 1,
  kFalse = 2,
  kByte = 3,
  kI16 = 4,
  kI32 = 5,
  kI64 = 6,
  kDouble = 7,
  kBinary = 8,
  kList = 9,
  kSet = 10,
  kMap = 11,
  kStruct = 12
};
inline constexpr int kMaxThriftDepth = 32;

inline uint64_t ZigZagEncode(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }

// Field ids within a struct must be written in ascending order.
class CompactWriter {
 public:
  const std::string& bytes() const { return out_; }

  void I32(int16_t id, int32_t v) {
    Field(id, kI32);
    Varint(ZigZagEncode(v));
  }
  void I64(int16_t id, int64_t v) {
    Field(id, kI64);
    Varint(ZigZagEncode(v));
  }
  void Bool(int16_t id, bool v) { Field(id, v ? kTrue : kFalse); }
  void Binary(int16_t id, std::string_view s) {
    Field(id, kBinary);
    RawBinary(s);
  }
  void BeginStruct(int16_t id) {
    Field(id, kStruct);
    last_.push_back(0);
  }
  void EndStruct() {
    out_.push_back('\0');
    if (last_.size() > 1) last_.pop_back();
  }
  void BeginList(int16_t id, uint8_t element_type, size_t size) {
    Field(id, kList);
    if (size < 15) {
      out_.push_back(static_cast<char>((size << 4) | element_type));
    } else {
      out_.push_back(static_cast<char>(0xF0 | element_type));
      Varint(size);
    }
  }
  // List elements.
  void ElementI32(int32_t v) { Varint(ZigZagEncode(v)); }
  void ElementBinary(std::string_view s) { RawBinary(s); }
  void BeginElementStruct() { last_.push_back(0); }  // ended by EndStruct()
  // The stop byte of the outermost struct (the message itself).
  void EndMessage() { out_.push_back('\0'); }

 private:
  void Varint(uint64_t v) {
    while (v >= 0x80) {
      out_.push_back(static_cast<char>((v & 0x7F) | 0x80));
      v >>= 7;
    }
    out_.push_back(static_cast<char>(v));
  }
  void RawBinary(std::string_view s) {
    Varint(s.size());
    out_.append(s);
  }
  void Field(int16_t id, uint8_t type) {
    const int delta = id - last_.back();
    if (delta > 0 && delta <= 15) {
      out_.push_back(static_cast<char>((delta << 4) | type));
    } else {
      out_.push_back(static_cast<char>(type));
      Varint(ZigZagEncode(id));
    }
    last_.back() = id;
  }

  std::string out_;
  std::vector<int16_t> last_{0};
};

class CompactReader {
 public:
  explicit CompactReader(std::string_view data) : data_(data) {}
  bool failed() const { return failed_; }
  size_t position() const { return pos_; }

  // The next field of the current struct; false at its stop byte (or once failed).
  bool NextField(int16_t* id, uint8_t* type) {
    const uint8_t b = Byte();
    if (failed_ || b == 0) return false;
    *type = b & 0x0F;
    if (*type == 0 || *type > kStruct) return Fail();
    const uint8_t delta = b >> 4;
    if (delta != 0) {
      *id = static_cast<int16_t>(last_.back() + delta);
    } else {
      const int64_t v = ZigZag();
      if (v < std::numeric_limits<int16_t>::min() || v > std::numeric_limits<int16_t>::max()) return Fail();
      *id = static_cast<int16_t>(v);
    }
    last_.back() = *id;
    return !failed_;
  }
  // Enter a struct field (of wire type `type`) / leave it after its stop byte.
  bool BeginStruct(uint8_t type) {
    if (type != kStruct || last_.size() > kMaxThriftDepth) return Fail();
    last_.push_back(0);
    return true;
  }
  void BeginElementStruct() {
    if (last_.size() > kMaxThriftDepth) Fail();
    last_.push_back(0);
  }
  void EndStruct() {
    if (last_.size() > 1) last_.pop_back();
  }

  int32_t I32(uint8_t type) {
    if (type != kI32) return Fail(), 0;
    const int64_t v = ZigZag();
    if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) return Fail(), 0;
    return static_cast<int32_t>(v);
  }
  int64_t I64(uint8_t type) {
    if (type != kI64) return Fail(), 0;
    return ZigZag();
  }
  int8_t I8(uint8_t type) {
    if (type != kByte) return Fail(), 0;
    return static_cast<int8_t>(Byte());
  }
  bool Bool(uint8_t type) {
    if (type != kTrue && type != kFalse) return Fail();
    return type == kTrue;
  }
  std::string_view Binary(uint8_t type) {
    if (type != kBinary) return Fail(), std::string_view();
    return RawBinary();
  }
  // A list field: its size (checked against the bytes left) and element type.
  uint64_t List(uint8_t type, uint8_t* element_type) {
    if (type != kList) return Fail(), 0;
    return ListHeader(element_type);
  }
  // List elements.
  int32_t ElementI32() { return I32(kI32); }
  std::string_view ElementBinary() { return RawBinary(); }

  // Skips a value of wire type `type` (a field's or an element's).
  void Skip(uint8_t type, bool element = false, int depth = 0) {
    if (depth > kMaxThriftDepth) {
      Fail();
      return;
    }
    switch (type) {
      case kTrue:
      case kFalse:
        if (element) Byte();  // a bool element is one byte; a bool field is its type code
        return;
      case kByte: Byte(); return;
      case kI16:
      case kI32:
      case kI64: ZigZag(); return;
      case kDouble: Advance(8); return;
      case kBinary: RawBinary(); return;
      case kList:
      case kSet: {
        uint8_t element_type = 0;
        const uint64_t n = ListHeader(&element_type);
        for (uint64_t i = 0; i < n && !failed_; ++i) Skip(element_type, true, depth + 1);
        return;
      }
      case kMap: {
        const uint64_t n = Varint();
        if (n == 0) return;
        const uint8_t kv = Byte();
        if (n > data_.size() - pos_) {
          Fail();
          return;
        }
        for (uint64_t i = 0; i < n && !failed_; ++i) {
          Skip(kv >> 4, true, depth + 1);
          Skip(kv & 0x0F, true, depth + 1);
        }
        return;
      }
      case kStruct: {
        BeginElementStruct();
        int16_t id = 0;
        uint8_t t = 0;
        while (NextField(&id, &t)) Skip(t, false, depth + 1);
        EndStruct();
        return;
      }
      default: Fail(); return;
    }
  }

 private:
  bool Fail() {
    failed_ = true;
    pos_ = data_.size();
    return false;
  }
  uint8_t Byte() {
    if (pos_ >= data_.size()) return Fail(), 0;
    return static_cast<uint8_t>(data_[pos_++]);
  }
  void Advance(size_t n) {
    if (n > data_.size() - pos_) {
      Fail();
      return;
    }
    pos_ += n;
  }
  uint64_t Varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      const uint8_t b = Byte();
      if (failed_) return 0;
      v |= static_cast<uint64_t>(b & 0x7F) << shift;
      if ((b & 0x80) == 0) return v;
    }
    return Fail(), 0;
  }
  int64_t ZigZag() {
    const uint64_t v = Varint();
    return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
  }
  std::string_view RawBinary() {
    const uint64_t n = Varint();
    if (failed_ || n > data_.size() - pos_) return Fail(), std::string_view();
    std::string_view s = data_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  uint64_t ListHeader(uint8_t* element_type) {
    const uint8_t b = Byte();
    *element_type = b & 0x0F;
    if (*element_type == 0 || *element_type > kStruct) return Fail(), 0;  // even in an empty list
    uint64_t n = b >> 4;
    if (n == 15) n = Varint();
    if (n > data_.size() - pos_) return Fail(), 0;  // every element takes at least one byte
    return failed_ ? 0 : n;
  }

  std::string_view data_;
  size_t pos_ = 0;
  bool failed_ = false;
  std::vector<int16_t> last_{0};
};

// Reads the fields of the struct `r` is in: on_field(id, type) reads or skips each value;
// then ends the struct. Returns !r.failed().
template <typename F>
bool Fields(CompactReader& r, F on_field) {
  int16_t id = 0;
  uint8_t t = 0;
  while (r.NextField(&id, &t)) on_field(id, t);
  r.EndStruct();
  return !r.failed();
}

}  // namespace taco::table::thrift

#endif  // TACO_TABLE_THRIFT_COMPACT_H_
