// The TACO data model (spec §5, FORMAT §7.1–7.3): Sample, Tortilla and Taco.
//
// Contract:
//  * Every object is validated when it is made; a made object is always valid, so the
//    writer never re-checks. Errors are InvalidArgument (NotFound/IOError for FromFile)
//    whose message names the sample or tortilla and the rule that failed, e.g.
//      "sample 'a:b': id 'a:b' contains ':' (ids may not contain '/', '\\' or ':')"
//      "tortilla: duplicate sibling id 'B04' (samples 1 and 3)"
//      "PIT: level 2: folder 'tile_c/s2' has 2 children, expected 3 (as 'tile_a/s2')"
//      "collection: tasks[1] 'foo' is not a known task (regression, classification, ...)"
//  * Objects are immutable once made and cheap to copy: a FOLDER shares its Tortilla and a
//    bytes sample shares its bytes (shared_ptr<const ...>).
//  * Sample ids: not empty, valid UTF-8, no '/', '\\', ':' or NUL, not "." or "..", and not
//    starting with "__" (reserved for padding, "__TACOPAD__<k>", made by Sample::Padding).
//  * Extension keys: ^[a-zA-Z0-9_]+(:\w+)?$ (bytes >= 0x80 count as \w, as Python's
//    Unicode \w would), not "id", "type" or "path", and not in the "internal:" namespace.
//  * Tortilla: non-empty, unique sibling ids, uniform extension schema (strict: identical
//    names, order and types; non-strict: union, core fields first then sorted by name,
//    missing values null), optional padding to a multiple of pad_to.
//  * Taco: the PIT rule is checked at EVERY depth (stricter than upstream, FORMAT §7.3): all
//    root samples have one type; every FOLDER at the same position of the tree has the same
//    child count and, child by child, the same type and id; a padding child matches any id
//    (it stands for a missing FILE) but is a FILE. Extension schemas agree per level. At
//    most kMaxLevels levels (level0..level5).
#ifndef TACO_MODEL_H_
#define TACO_MODEL_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "taco/io.h"
#include "taco/status.h"
#include "taco/value.h"

namespace taco {

enum class SampleType { kFile, kFolder };

// "FILE" or "FOLDER".
std::string_view SampleTypeName(SampleType type);

inline constexpr std::string_view kPaddingPrefix = "__TACOPAD__";
inline constexpr int kMaxLevels = 6;  // level0 .. level5
inline constexpr std::string_view kTacoVersion = "2.0.0";

// Literal prefix test for "__TACOPAD__" (never a SQL LIKE).
bool IsPaddingId(std::string_view id);

// The rules above, usable on their own (e.g. by `taco validate`). The messages name the
// offending value and the rule but no sample; callers prefix them.
Status ValidateSampleId(std::string_view id);
Status ValidateExtensionKey(std::string_view key);

// An extension schema: (column name, type) in column order.
using Schema = std::vector<std::pair<std::string, DataType>>;

class Tortilla;

class Sample {
 public:
  // A FILE whose data is the file at `path` (must be a regular file; its size is taken now).
  static Result<Sample> FromFile(std::string id, std::string path);
  // The same for a file the caller has just stat'ed as a regular file of `size` bytes (the
  // directory scan of the tree builder): no second stat. The writer takes the size it copies
  // from the open file, so a file that changes in between is still written consistently.
  static Result<Sample> FromScannedFile(std::string id, std::string path, uint64_t size);
  // A FILE whose data is `bytes` (held in memory).
  static Result<Sample> FromBytes(std::string id, std::string bytes);
  // A FILE whose data is the bytes [offset, offset+size) of `reader` (e.g. a sample inside a
  // local or remote ZIP). The range must lie inside the reader (InvalidArgument otherwise);
  // nothing is read now.
  static Result<Sample> FromRange(std::string id, RangeReaderPtr reader, uint64_t offset, uint64_t size);
  // FromRange where the range is the data of a STORE member of the ZIP `reader`: writers
  // copying it check the bytes against the CRC-32 of the member's local header (FORMAT §1.3).
  static Result<Sample> FromZipMember(std::string id, RangeReaderPtr reader, uint64_t offset, uint64_t size);
  // A FOLDER holding `children`.
  static Result<Sample> FromTortilla(std::string id, Tortilla children);
  // The padding FILE "__TACOPAD__<k>": 0 bytes, no extensions (Tortilla::Make fills nulls).
  static Sample Padding(size_t k);

  const std::string& id() const { return id_; }
  SampleType type() const { return type_; }
  bool is_padding() const { return IsPaddingId(id_); }
  // FILE from a path: the path as given. Empty for bytes, padding and FOLDER samples.
  const std::string& file_path() const { return file_path_; }
  // FILE from bytes: the bytes. Empty for everything else (padding: 0 bytes).
  const std::string& bytes() const;
  // FILE from a range: the reader and the first byte (size is size_bytes()). Null / 0 else.
  const RangeReaderPtr& range_reader() const { return range_reader_; }
  uint64_t range_offset() const { return range_offset_; }
  // True for a sample made by FromZipMember.
  bool range_is_zip_member() const { return range_is_zip_member_; }
  // FOLDER: its children. Null for FILE.
  const Tortilla* children() const { return children_.get(); }
  // FILE: data size; FOLDER: sum over its children, recursively.
  uint64_t size_bytes() const { return size_bytes_; }

  // Adds extension fields. Each key must follow the key rule, not already be present, and
  // its value must be null or of its type. Extend(vector) adds all or nothing.
  Status Extend(Field field);
  Status Extend(std::vector<Field> fields);
  // Removes an extension field; NotFound if absent.
  Status Pop(std::string_view key);
  const std::vector<Field>& extensions() const { return extensions_; }
  // (name, type) of the extensions, in order.
  Schema schema() const;

 private:
  friend class Tortilla;
  Sample() = default;

  std::string id_;
  SampleType type_ = SampleType::kFile;
  std::string file_path_;
  std::shared_ptr<const std::string> bytes_;
  RangeReaderPtr range_reader_;
  uint64_t range_offset_ = 0;
  bool range_is_zip_member_ = false;
  std::shared_ptr<const Tortilla> children_;
  uint64_t size_bytes_ = 0;
  std::vector<Field> extensions_;
};

struct TortillaOptions {
  // Append padding samples until the count is a multiple of pad_to (>= 1).
  std::optional<size_t> pad_to;
  // true: every sample has the same extension names, order and types.
  // false: schemas are aligned to their union (core first, then sorted by name when there
  // is more than one sample), missing values null; a name with two types is still an error.
  bool strict_schema = true;
};

class Tortilla {
 public:
  static Result<Tortilla> Make(std::vector<Sample> samples, TortillaOptions options = {});

  // In order, padding last. Every sample's extensions() follow schema() exactly.
  const std::vector<Sample>& samples() const { return samples_; }
  size_t size() const { return samples_.size(); }
  // Levels below and including this one: 1 when every sample is a FILE.
  int depth() const { return depth_; }
  const TortillaOptions& options() const { return options_; }
  const Schema& schema() const { return schema_; }
  uint64_t size_bytes() const { return size_bytes_; }

 private:
  Tortilla() = default;

  std::vector<Sample> samples_;
  TortillaOptions options_;
  Schema schema_;
  int depth_ = 1;
  uint64_t size_bytes_ = 0;
};

// The machine-learning tasks a collection may list (FORMAT §4).
const std::vector<std::string_view>& KnownTasks();

// Checks the collection fields (FORMAT §4 table; spec §5.5.2) of a COLLECTION object:
// required id, dataset_version, description, licenses, providers, tasks; optional
// taco_version, title, curators, keywords, extent; any other key is an extension key.
// `taco:pit_schema` and `taco:field_schema` may not be given (they are generated).
// Providers/curators: the spec form {name, organization, email, role} or the STAC form
// {name, roles, url, links}. extent.temporal, when set, is [start, end] of ISO-8601
// dates/datetimes with start <= end; taco_version is MAJOR.MINOR.PATCH (SemVer 2.0.0);
// every key is a known field or passes ValidateCollectionKey. Messages start with
// "collection: ".
Status ValidateCollection(const nlohmann::ordered_json& collection);

// True for the fields above and the generated keys (taco:pit_schema, taco:field_schema,
// taco:sources, taco:subset_of, taco:subset_date, _tacocat).
bool IsKnownCollectionKey(std::string_view key);
// A collection key: known, or an extension key (^[a-zA-Z0-9_]+(:\w+)?$, not internal:*;
// "bad key", "a:b:c", "internal:x" are refused).
Status ValidateCollectionKey(std::string_view key);

class Taco {
 public:
  // `collection` holds the collection fields (a nlohmann::json converts implicitly; use
  // ordered_json to keep the order of extension keys). taco_version is set to "2.0.0" when
  // absent. Checks ValidateCollection, depth <= kMaxLevels, PIT and per-level schemas.
  static Result<Taco> Make(Tortilla root, nlohmann::ordered_json collection);

  const Tortilla& root() const { return *root_; }
  // The validated collection fields (extent only if given; BuildCollection adds the rest).
  const nlohmann::ordered_json& collection() const { return collection_; }
  // Number of levels (= root().depth()).
  int num_levels() const { return root_->depth(); }

 private:
  Taco() = default;

  std::shared_ptr<const Tortilla> root_;
  nlohmann::ordered_json collection_;
};

}  // namespace taco

#endif  // TACO_MODEL_H_
