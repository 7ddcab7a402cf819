// Record shredding and assembly for primitive leaves under 3-level LISTs (parquet_levels.h).
#include "table/parquet_levels.h"

#include <algorithm>

namespace taco::table::parquet {
namespace {

// Definition levels of one shape: present[j] (LIST j is not null), has_element[j] (LIST j
// holds at least one element), leaf (the leaf is not null).
struct Thresholds {
  std::vector<uint32_t> present, has_element;
  uint32_t leaf = 0;
};

Thresholds ThresholdsOf(const ListShape& shape) {
  Thresholds t;
  uint32_t d = 0;
  for (bool optional : shape.list_optional) {
    if (optional) ++d;
    t.present.push_back(d);
    t.has_element.push_back(++d);
  }
  if (shape.leaf_optional) ++d;
  t.leaf = d;
  return t;
}

bool ShredAt(const ListShape& shape, const Thresholds& t, const Value& v, int depth, uint32_t rep, Shredded* out) {
  auto emit = [&](uint32_t def) {
    if (shape.max_repetition() > 0) out->repetition.push_back(rep);
    if (shape.max_definition() > 0) out->definition.push_back(def);
    ++out->count;
  };
  const size_t j = static_cast<size_t>(depth);
  if (depth == shape.depth()) {
    if (v.is_null()) {
      if (!shape.leaf_optional) return false;
      emit(t.leaf - 1);
      return true;
    }
    if (v.is<ValueList>() || v.is<ValueStruct>()) return false;
    emit(t.leaf);
    out->leaves.push_back(&v);
    return true;
  }
  if (v.is_null()) {
    if (!shape.list_optional[j]) return false;
    emit(t.present[j] - 1);
    return true;
  }
  if (!v.is<ValueList>()) return false;
  const ValueList& list = v.get<ValueList>();
  if (list.empty()) {
    emit(t.has_element[j] - 1);
    return true;
  }
  for (size_t k = 0; k < list.size(); ++k) {
    if (!ShredAt(shape, t, list[k], depth + 1, k == 0 ? rep : static_cast<uint32_t>(depth + 1), out)) return false;
  }
  return true;
}

// Reads the value at `depth` starting at entry *i (see Assemble).
class Assembler {
 public:
  Assembler(const ListShape& shape, const std::vector<uint32_t>& repetition, const std::vector<uint32_t>& definition,
            std::vector<Value>& leaves, size_t count)
      : shape_(shape), t_(ThresholdsOf(shape)), rep_(repetition), def_(definition), leaves_(leaves), count_(count) {}

  bool Rows(std::vector<Value>* rows) {
    size_t i = 0;
    while (i < count_) {
      if (Rep(i) != 0) return false;
      Value v;
      if (!Read(0, &i, &v)) return false;
      rows->push_back(std::move(v));
    }
    return next_leaf_ == leaves_.size();
  }

 private:
  uint32_t Rep(size_t i) const { return rep_.empty() ? 0 : rep_[i]; }
  uint32_t Def(size_t i) const { return def_.empty() ? 0 : def_[i]; }

  bool Read(int depth, size_t* i, Value* out) {
    const uint32_t def = Def(*i);
    if (depth == shape_.depth()) {
      if (def > t_.leaf) return false;
      if (def < t_.leaf) {
        if (!shape_.leaf_optional || def != t_.leaf - 1) return false;
        *out = Value();
      } else {
        if (next_leaf_ >= leaves_.size()) return false;
        *out = std::move(leaves_[next_leaf_++]);
      }
      ++*i;
      return true;
    }
    const size_t j = static_cast<size_t>(depth);
    if (shape_.list_optional[j] && def < t_.present[j]) {
      if (def != t_.present[j] - 1) return false;
      *out = Value();
      ++*i;
      return true;
    }
    ValueList list;
    if (def < t_.has_element[j]) {
      if (def != t_.has_element[j] - 1) return false;
      *out = Value(std::move(list));
      ++*i;
      return true;
    }
    const uint32_t element_rep = static_cast<uint32_t>(depth + 1);
    do {
      Value element;
      if (!Read(depth + 1, i, &element)) return false;
      list.push_back(std::move(element));
    } while (*i < count_ && Rep(*i) == element_rep);
    if (*i < count_ && Rep(*i) > element_rep) return false;
    *out = Value(std::move(list));
    return true;
  }

  const ListShape& shape_;
  const Thresholds t_;
  const std::vector<uint32_t>& rep_;
  const std::vector<uint32_t>& def_;
  std::vector<Value>& leaves_;
  const size_t count_;
  size_t next_leaf_ = 0;
};

}  // namespace

int ListShape::max_definition() const { return static_cast<int>(ThresholdsOf(*this).leaf); }

bool Shred(const ListShape& shape, const Value& value, Shredded* out) {
  return ShredAt(shape, ThresholdsOf(shape), value, 0, 0, out);
}

bool Assemble(const ListShape& shape, const std::vector<uint32_t>& repetition, const std::vector<uint32_t>& definition,
              std::vector<Value>& leaves, size_t count, std::vector<Value>* rows) {
  if ((shape.max_repetition() > 0 && repetition.size() != count) ||
      (shape.max_definition() > 0 && definition.size() != count)) {
    return false;
  }
  std::vector<Value> assembled;
  Assembler assembler(shape, repetition, definition, leaves, count);
  if (!assembler.Rows(&assembled)) return false;
  for (Value& v : assembled) rows->push_back(std::move(v));
  return true;
}

int BitWidth(uint32_t max) {
  int w = 0;
  while (max != 0) {
    ++w;
    max >>= 1;
  }
  return w;
}

void EncodeHybrid(const std::vector<uint32_t>& values, int width, std::string* out) {
  auto varint = [out](uint64_t v) {
    while (v >= 0x80) {
      out->push_back(static_cast<char>((v & 0x7F) | 0x80));
      v >>= 7;
    }
    out->push_back(static_cast<char>(v));
  };
  const size_t value_bytes = (static_cast<size_t>(width) + 7) / 8;
  size_t i = 0;
  while (i < values.size()) {
    size_t run = 1;
    while (i + run < values.size() && values[i + run] == values[i]) ++run;
    if (run >= 8 || i + run == values.size()) {  // an RLE run
      varint(static_cast<uint64_t>(run) << 1);
      for (size_t b = 0; b < value_bytes; ++b) out->push_back(static_cast<char>((values[i] >> (8 * b)) & 0xFF));
      i += run;
      continue;
    }
    // Bit-packed groups of 8 up to the next run of 8 equal values (or the end).
    size_t end = i;
    while (end < values.size()) {
      size_t r = 1;
      while (end + r < values.size() && values[end + r] == values[end]) ++r;
      if (r >= 8) break;
      end += r;
    }
    const size_t groups = (end - i + 7) / 8;
    varint((static_cast<uint64_t>(groups) << 1) | 1);
    std::string packed(groups * static_cast<size_t>(width), '\0');
    for (size_t k = 0; k < groups * 8; ++k) {
      const uint32_t v = i + k < values.size() ? values[i + k] : 0;
      for (int b = 0; b < width; ++b) {
        if ((v >> b) & 1) {
          const size_t bit = k * static_cast<size_t>(width) + static_cast<size_t>(b);
          packed[bit / 8] = static_cast<char>(packed[bit / 8] | (1 << (bit % 8)));
        }
      }
    }
    *out += packed;
    i = std::min(values.size(), i + groups * 8);
  }
}

bool DecodeHybrid(std::string_view in, int width, size_t count, std::vector<uint32_t>* out) {
  out->clear();
  if (width < 0 || width > 32) return false;
  size_t pos = 0;
  auto varint = [&](uint64_t* v) {
    *v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos >= in.size()) return false;
      const uint8_t b = static_cast<uint8_t>(in[pos++]);
      *v |= static_cast<uint64_t>(b & 0x7F) << shift;
      if ((b & 0x80) == 0) return true;
    }
    return false;
  };
  const size_t value_bytes = (static_cast<size_t>(width) + 7) / 8;
  while (out->size() < count) {
    uint64_t header = 0;
    if (!varint(&header)) return false;
    if (header & 1) {
      const uint64_t groups = header >> 1;
      if (groups == 0) return false;
      if (width == 0) {
        const size_t take = static_cast<size_t>(std::min<uint64_t>(groups * 8, count - out->size()));
        out->insert(out->end(), take, 0);
        continue;
      }
      if (groups > (in.size() - pos) / static_cast<size_t>(width)) return false;
      const size_t bytes = static_cast<size_t>(groups) * static_cast<size_t>(width);
      const auto* p = reinterpret_cast<const uint8_t*>(in.data() + pos);
      const size_t n = std::min<size_t>(static_cast<size_t>(groups) * 8, count - out->size());
      for (size_t k = 0; k < n; ++k) {
        uint64_t v = 0;
        for (int b = 0; b < width; ++b) {
          const size_t bit = k * static_cast<size_t>(width) + static_cast<size_t>(b);
          v |= static_cast<uint64_t>((p[bit / 8] >> (bit % 8)) & 1) << b;
        }
        out->push_back(static_cast<uint32_t>(v));
      }
      pos += bytes;
    } else {
      const uint64_t run = header >> 1;
      if (run == 0 || value_bytes > in.size() - pos) return false;
      uint64_t v = 0;
      for (size_t b = 0; b < value_bytes; ++b) v |= static_cast<uint64_t>(static_cast<uint8_t>(in[pos + b])) << (8 * b);
      pos += value_bytes;
      if (width < 32 && (v >> width) != 0) return false;
      const size_t take = static_cast<size_t>(std::min<uint64_t>(run, count - out->size()));
      out->insert(out->end(), take, static_cast<uint32_t>(v));
    }
  }
  return true;
}

}  // namespace taco::table::parquet
