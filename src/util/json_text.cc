#include "util/json_text.h"

#include <algorithm>
#include <new>
#include <unordered_map>
#include <utility>
#include <vector>

namespace taco::util {
namespace {

TextPosition PositionOf(std::string_view text, size_t offset) {
  TextPosition pos;
  pos.offset = offset;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++pos.line;
      pos.column = 1;
    } else {
      ++pos.column;
    }
  }
  return pos;
}

std::string Where(const TextPosition& p) {
  return "line " + std::to_string(p.line) + ", column " + std::to_string(p.column);
}

// Length of the UTF-8 sequence starting at text[i], or 0 when it is not a valid one.
size_t Utf8SequenceLength(std::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b0 = byte(i);
  if (b0 < 0x80) return 1;
  size_t len = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3;
    if (b0 == 0xE0) lo = 0xA0;  // no overlong forms
    if (b0 == 0xED) hi = 0x9F;  // no surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4;
    if (b0 == 0xF0) lo = 0x90;  // no overlong forms
    if (b0 == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
  } else {
    return 0;
  }
  if (text.size() - i < len) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (size_t k = 2; k < len; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  return len;
}

// Deepest nesting of arrays and objects outside strings (the text may be any bytes).
size_t MaxNesting(std::string_view text) {
  size_t depth = 0, max_depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      max_depth = std::max(max_depth, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return max_depth;
}

// Builds an ordered_json from SAX events in time linear in the input. nlohmann's own DOM
// parser inserts each object key through ordered_map::operator[], a linear search, which
// makes an object of n keys cost n²/2 comparisons; here each open object keeps a hash index
// of its keys. Duplicate keys behave as in nlohmann's parser: the first position, the last
// value. Pointers into a container stay valid because a container only grows while it is
// the innermost open one.
class OrderedJsonBuilder {
 public:
  using json = nlohmann::ordered_json;
  explicit OrderedJsonBuilder(json* root) : root_(root) {}

  bool null() { return Put(nullptr) != nullptr; }
  bool boolean(bool v) { return Put(v) != nullptr; }
  bool number_integer(json::number_integer_t v) { return Put(v) != nullptr; }
  bool number_unsigned(json::number_unsigned_t v) { return Put(v) != nullptr; }
  bool number_float(json::number_float_t v, const json::string_t&) { return Put(v) != nullptr; }
  bool string(json::string_t& v) { return Put(std::move(v)) != nullptr; }
  bool binary(json::binary_t& v) { return Put(json::binary(std::move(v))) != nullptr; }
  bool start_object(std::size_t) {
    open_.push_back({Put(json::object()), {}});
    return true;
  }
  bool key(json::string_t& k) {
    Open& top = open_.back();
    json::object_t& object = top.value->get_ref<json::object_t&>();
    auto [it, inserted] = top.index.try_emplace(k, object.size());
    if (inserted) object.json::object_t::Container::emplace_back(std::move(k), nullptr);
    pending_ = &object.json::object_t::Container::operator[](it->second).second;
    return true;
  }
  bool end_object() {
    open_.pop_back();
    return true;
  }
  bool start_array(std::size_t) {
    open_.push_back({Put(json::array()), {}});
    return true;
  }
  bool end_array() {
    open_.pop_back();
    return true;
  }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& ex) {
    error_position = position;
    error_id = ex.id;
    error_what = ex.what();
    return false;
  }

  std::size_t error_position = 0;
  int error_id = 0;
  std::string error_what;

 private:
  struct Open {
    json* value;
    std::unordered_map<std::string, size_t> index;  // objects: key -> position
  };

  // Stores `v` where the next value goes; returns where it is.
  json* Put(json v) {
    if (open_.empty()) {
      *root_ = std::move(v);
      return root_;
    }
    json* top = open_.back().value;
    if (top->is_array()) {
      json::array_t& array = top->get_ref<json::array_t&>();
      array.push_back(std::move(v));
      return &array.back();
    }
    *pending_ = std::move(v);
    return pending_;
  }

  json* root_;
  json* pending_ = nullptr;
  std::vector<Open> open_;
};

}  // namespace

std::optional<TextPosition> FindInvalidUtf8(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const size_t len = Utf8SequenceLength(text, i);
    if (len == 0) return PositionOf(text, i);
    i += len;
  }
  return std::nullopt;
}

bool IsValidUtf8(std::string_view text) { return !FindInvalidUtf8(text).has_value(); }

std::string SanitizeUtf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const size_t len = Utf8SequenceLength(text, i);
    if (len == 0) {
      out += '?';
      ++i;
    } else {
      out.append(text.substr(i, len));
      i += len;
    }
  }
  return out;
}

Result<nlohmann::ordered_json> ParseJsonText(std::string_view text, std::string_view what, uint64_t max_bytes) {
  const std::string name(what);
  if (text.size() > max_bytes) {
    return Status::Corruption(name + ": is " + std::to_string(text.size()) + " bytes, more than the " +
                              std::to_string(max_bytes) + " allowed");
  }
  if (auto bad = FindInvalidUtf8(text)) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    const auto b = static_cast<unsigned char>(text[bad->offset]);
    const std::string hex = std::string("0x") + kHex[b >> 4] + kHex[b & 0xF];
    return Status::Corruption(name + ": is not valid UTF-8 (byte " + hex + " at " + Where(*bad) + ")");
  }
  if (MaxNesting(text) > kMaxJsonDepth) {
    return Status::Corruption(name + ": nests arrays/objects deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  }
  try {
    nlohmann::ordered_json out;
    OrderedJsonBuilder builder(&out);
    if (nlohmann::ordered_json::sax_parse(text.begin(), text.end(), &builder)) return out;
    if (builder.error_id >= 100 && builder.error_id < 200) {  // parse_error: the byte where parsing stopped
      const size_t offset = builder.error_position > 0 ? builder.error_position - 1 : 0;
      return Status::Corruption(name + ": is not valid JSON (syntax error at " + Where(PositionOf(text, offset)) + ")");
    }
    // out_of_range.406 (a number too large for a double) and the like; what() holds no input.
    return Status::Corruption(name + ": is not valid JSON (" + builder.error_what + ")");
  } catch (const nlohmann::json::exception& e) {
    // out_of_range.406 (a number too large for a double) and the like; what() holds no input.
    return Status::Corruption(name + ": is not valid JSON (" + e.what() + ")");
  } catch (const std::bad_alloc&) {
    return Status::Corruption(name + ": too large to parse in memory");
  }
}

std::string DumpJsonText(const nlohmann::ordered_json& j, int indent) {
  return j.dump(indent, ' ', /*ensure_ascii=*/false, nlohmann::ordered_json::error_handler_t::replace);
}

std::string DumpJsonText(const nlohmann::json& j, int indent) {
  return j.dump(indent, ' ', /*ensure_ascii=*/false, nlohmann::json::error_handler_t::replace);
}

}  // namespace taco::util
