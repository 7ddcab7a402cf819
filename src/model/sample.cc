// Sample: construction, id and extension-key rules (FORMAT §7.1).
#include <sys/stat.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <unordered_set>

#include "model/schema_util.h"
#include "taco/model.h"

namespace taco {
namespace {

bool IsAsciiWordChar(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Python's Unicode-aware \w: ASCII word characters, and any non-ASCII byte (we do not carry
// Unicode tables; every non-ASCII letter or digit is accepted, as is other non-ASCII text).
bool IsWordByte(unsigned char c) { return IsAsciiWordChar(c) || c >= 0x80; }

const std::string& EmptyString() {
  static const std::string* const kEmpty = new std::string();
  return *kEmpty;
}

// Well-formed UTF-8 (no overlongs, surrogates or code points above U+10FFFF).
bool IsValidUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t len;
    uint32_t cp;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      len = 2;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      len = 3;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      len = 4;
      cp = c & 0x07;
    } else {
      return false;
    }
    if (i + len > s.size()) return false;
    for (size_t k = 1; k < len; ++k) {
      unsigned char cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    static constexpr uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += len;
  }
  return true;
}

Status SampleError(std::string_view id, const Status& status) {
  return Status(status.code(), "sample " + model::Quote(id) + ": " + status.message());
}

}  // namespace

std::string_view SampleTypeName(SampleType type) { return type == SampleType::kFolder ? "FOLDER" : "FILE"; }

bool IsPaddingId(std::string_view id) { return id.substr(0, kPaddingPrefix.size()) == kPaddingPrefix; }

Status ValidateSampleId(std::string_view id) {
  if (id.empty()) return Status::InvalidArgument("id is empty");
  const std::string quoted = "id " + model::Quote(id);
  for (char c : id) {
    if (c == '/' || c == '\\' || c == ':') {
      return Status::InvalidArgument(quoted + " contains '" + std::string(1, c) +
                                     "' (ids may not contain '/', '\\' or ':')");
    }
    if (c == '\0') return Status::InvalidArgument(quoted + " contains a NUL byte");
  }
  if (!IsValidUtf8(id)) return Status::InvalidArgument(quoted + " is not valid UTF-8");
  if (id == "." || id == "..") {
    return Status::InvalidArgument(quoted + " is not allowed ('.' and '..' cannot be file names)");
  }
  if (id.substr(0, 2) == "__") {
    return Status::InvalidArgument(quoted + " starts with '__' (reserved for padding samples '__TACOPAD__<k>')");
  }
  return Status::OK();
}

Status ValidateExtensionKey(std::string_view key) {
  auto bad = [&](std::string_view why) {
    return Status::InvalidArgument("extension key " + model::Quote(key) + " " + std::string(why));
  };
  if (key == "id" || key == "type" || key == "path") return bad("is reserved (id, type and path are core fields)");
  // ^[a-zA-Z0-9_]+(?:[:][\w]+)?$
  size_t i = 0;
  while (i < key.size() && IsAsciiWordChar(static_cast<unsigned char>(key[i]))) ++i;
  bool ok = i > 0;
  if (ok && i < key.size()) {
    if (key[i] != ':') {
      ok = false;
    } else {
      size_t j = i + 1;
      while (j < key.size() && IsWordByte(static_cast<unsigned char>(key[j]))) ++j;
      ok = j > i + 1 && j == key.size();
    }
  }
  if (!ok) return bad("does not match ^[a-zA-Z0-9_]+(:\\w+)?$ (e.g. 'cloud_cover' or 'stac:time_start')");
  if (key.substr(0, 9) == "internal:") return bad("uses the reserved 'internal:' namespace");
  return Status::OK();
}

Result<Sample> Sample::FromFile(std::string id, std::string path) {
  Status id_status = ValidateSampleId(id);
  if (!id_status.ok()) return SampleError(id, id_status);
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    int err = errno;
    std::string msg = "sample " + model::Quote(id) + ": cannot stat '" + path + "': " + std::strerror(err);
    return err == ENOENT || err == ENOTDIR ? Status::NotFound(msg) : Status::IOError(msg);
  }
  if (!S_ISREG(st.st_mode)) {
    return Status::InvalidArgument("sample " + model::Quote(id) + ": '" + path + "' is not a regular file");
  }
  return FromScannedFile(std::move(id), std::move(path), static_cast<uint64_t>(st.st_size));
}

Result<Sample> Sample::FromScannedFile(std::string id, std::string path, uint64_t size) {
  Status id_status = ValidateSampleId(id);
  if (!id_status.ok()) return SampleError(id, id_status);
  Sample s;
  s.id_ = std::move(id);
  s.type_ = SampleType::kFile;
  s.file_path_ = std::move(path);
  s.size_bytes_ = size;
  return s;
}

Result<Sample> Sample::FromBytes(std::string id, std::string bytes) {
  Status id_status = ValidateSampleId(id);
  if (!id_status.ok()) return SampleError(id, id_status);
  Sample s;
  s.id_ = std::move(id);
  s.type_ = SampleType::kFile;
  s.size_bytes_ = bytes.size();
  s.bytes_ = std::make_shared<const std::string>(std::move(bytes));
  return s;
}

Result<Sample> Sample::FromRange(std::string id, RangeReaderPtr reader, uint64_t offset, uint64_t size) {
  Status id_status = ValidateSampleId(id);
  if (!id_status.ok()) return SampleError(id, id_status);
  if (reader == nullptr) return Status::InvalidArgument("sample " + model::Quote(id) + ": no range reader");
  if (offset > reader->size() || size > reader->size() - offset) {
    return Status::InvalidArgument("sample " + model::Quote(id) + ": range " + std::to_string(offset) + "+" +
                                   std::to_string(size) + " is outside '" + reader->name() + "' (" +
                                   std::to_string(reader->size()) + " bytes)");
  }
  Sample s;
  s.id_ = std::move(id);
  s.type_ = SampleType::kFile;
  s.size_bytes_ = size;
  s.range_reader_ = std::move(reader);
  s.range_offset_ = offset;
  return s;
}

Result<Sample> Sample::FromZipMember(std::string id, RangeReaderPtr reader, uint64_t offset, uint64_t size) {
  TACO_ASSIGN_OR_RETURN(Sample s, FromRange(std::move(id), std::move(reader), offset, size));
  s.range_is_zip_member_ = true;
  return s;
}

Result<Sample> Sample::FromTortilla(std::string id, Tortilla children) {
  Status id_status = ValidateSampleId(id);
  if (!id_status.ok()) return SampleError(id, id_status);
  Sample s;
  s.id_ = std::move(id);
  s.type_ = SampleType::kFolder;
  s.size_bytes_ = children.size_bytes();
  s.children_ = std::make_shared<const Tortilla>(std::move(children));
  return s;
}

Sample Sample::Padding(size_t k) {
  Sample s;
  s.id_ = std::string(kPaddingPrefix) + std::to_string(k);
  s.type_ = SampleType::kFile;
  return s;
}

const std::string& Sample::bytes() const { return bytes_ ? *bytes_ : EmptyString(); }

Status Sample::Extend(Field field) {
  std::vector<Field> fields;
  fields.push_back(std::move(field));
  return Extend(std::move(fields));
}

Status Sample::Extend(std::vector<Field> fields) {
  std::unordered_set<std::string_view> seen;
  for (const Field& f : extensions_) seen.insert(f.name);
  for (const Field& f : fields) {
    Status key_status = ValidateExtensionKey(f.name);
    if (!key_status.ok()) return SampleError(id_, key_status);
    if (!seen.insert(f.name).second) {
      return Status::InvalidArgument("sample " + model::Quote(id_) + ": extension key " + model::Quote(f.name) +
                                     " is already present");
    }
    Status type_status = model::CheckValueType(f.value, f.type);
    if (!type_status.ok()) {
      return Status::InvalidArgument("sample " + model::Quote(id_) + ": extension " + model::Quote(f.name) + ": " +
                                     type_status.message());
    }
  }
  for (Field& f : fields) extensions_.push_back(std::move(f));
  return Status::OK();
}

Status Sample::Pop(std::string_view key) {
  for (auto it = extensions_.begin(); it != extensions_.end(); ++it) {
    if (it->name == key) {
      extensions_.erase(it);
      return Status::OK();
    }
  }
  return Status::NotFound("sample " + model::Quote(id_) + ": no extension field " + model::Quote(key));
}

Schema Sample::schema() const {
  Schema out;
  out.reserve(extensions_.size());
  for (const Field& f : extensions_) out.emplace_back(f.name, f.type);
  return out;
}

}  // namespace taco
