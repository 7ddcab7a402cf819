// format::Container: what read/ needs to know about a dataset's container, picked once when a
// dataset is opened (read/dataset.cc Dataset::Open, from the detected DatasetFormat) and kept
// in its state, so that views, navigation, filters and concat ask the container instead of
// branching on the format. One immutable instance per format (For()); no I/O.
//
//   format     where the levels and COLLECTION.json are        a sample's bytes
//   zip        TACO_HEADER ranges of the one container file   (offset, size) of that file
//   folder     files METADATA/levelN.parquet, COLLECTION.json  files under DATA/ (folder_layout.h)
//   tacocat    __TACOCAT__ header ranges / .tacocat/ files     (offset, size) of internal:source_file
//   legacy     the BLOB footer chain (legacy_layout.h)         (offset, size) of internal:source_file
//
// Thread safety: immutable; For() returns references to static objects.
#ifndef TACO_FORMAT_CONTAINER_H_
#define TACO_FORMAT_CONTAINER_H_

#include <string>
#include <vector>

#include "taco/dataset.h"

namespace taco::format {

// How a sample's bytes are addressed.
enum class SampleAddress {
  kContainerRange,   // internal:offset/size inside the dataset's one container file (ZIP)
  kSourceFileRange,  // internal:offset/size inside the file named by internal:source_file
  kTreeFile,         // a file under <root>/DATA/: the id at level 0, internal:relative_path below
};

// Where a stored level's Parquet bytes are, for mounting it again (concat).
enum class LevelLocation {
  kContainerRange,  // a TACO_HEADER range of the container
  kTreeFile,        // <root>/METADATA/levelN.parquet
  kEngineOnly,      // only in the opened engine (gathered from several files)
};

// One file of a stored dataset, as it is listed (and hashed) for publication.
struct StoredFile {
  enum class Kind {
    kContainerFile,  // the one file holding everything (a TACO ZIP)
    kCollection,     // COLLECTION.json
    kLevel,          // a level's Parquet file
    kIndexFile,      // a file holding the collection and the levels (`__TACOCAT__`)
    kDataTree,       // the directory of the samples (a FOLDER's DATA/), summarised
    kPartsBeside,    // the directory holding the parts named by internal:source_file
  };
  Kind kind;
  std::string path;  // where it is: the dataset path as given, joined with names
  std::string name;  // its name in the listing ("METADATA/level0.parquet"; "" for kPartsBeside)
};

// SQL fragments a sample-path expression is built from; each value the metadata supplies is
// already guarded by the caller (read/path_safety.h).
struct SamplePathSql {
  std::string root;           // the dataset root (a ZIP file, a directory), text
  std::string subfile;        // "'/vsisubfile/' || <offset,size> || ','" (range addressing)
  std::string id;             // the guarded id (NULL when unsafe)
  std::string source_file;    // the guarded internal:source_file
  std::string relative_path;  // the guarded internal:relative_path
};

class Container {
 public:
  // The container of `format`.
  static const Container& For(DatasetFormat format);

  DatasetFormat format() const { return format_; }
  SampleAddress sample_address() const { return address_; }
  LevelLocation level_location() const { return levels_; }
  // The dataset's TACO_HEADER (offset, length) pairs are part of its description (`taco info`).
  bool has_taco_header() const { return format_ == DatasetFormat::kZip; }
  // Samples are ZIP members with local headers, so whole reads can check their CRC-32.
  bool samples_have_crc() const { return format_ != DatasetFormat::kLegacy; }
  // A sample is a named member of its container (a ZIP member whose local header names it,
  // a file under DATA/), so a range can be checked against the name its row expects and a
  // copy can find samples by name. False for the legacy BLOB: its footer ranges have no
  // names (its conversion names the samples from the footers, legacy/from_legacy.cc).
  bool members_have_names() const { return format_ != DatasetFormat::kLegacy; }
  // A level's rows come from several parts that each number their ids from 0: a child
  // matches its parent on internal:source_file too (TACOCAT, FORMAT §5.3).
  bool ids_local_to_source_file() const { return format_ == DatasetFormat::kTacocat; }

  // The dataset is a directory tree (FOLDER): its copies are written as a tree and replace
  // the original file by file. Every other container is one file (or an index of files).
  bool is_tree() const { return address_ == SampleAddress::kTreeFile; }
  // Samples are ZIP members, found by archive path in a central directory: a TACO ZIP's own,
  // or those of the parts a TACOCAT indexes (read/member_resolver.h).
  bool samples_are_zip_members() const { return format_ == DatasetFormat::kZip || format_ == DatasetFormat::kTacocat; }
  // The metadata can be rewritten inside the one file (a TACO ZIP: TACO_HEADER, levels and
  // COLLECTION.json; edit --in-place).
  bool metadata_rewritable_in_place() const { return format_ == DatasetFormat::kZip; }
  // Each level is one stored Parquet file (a ZIP member or a FOLDER file) that can be read on
  // its own, without the SQL engine (read/lazy_engine.h); TACOCAT and legacy levels are built
  // by the engine at open.
  bool levels_are_stored_parquets() const {
    return format_ == DatasetFormat::kZip || format_ == DatasetFormat::kFolder;
  }
  // An index over parts written separately (TACOCAT): edited part by part, then indexed again.
  bool indexes_parts() const { return format_ == DatasetFormat::kTacocat; }

  // The files the dataset stored at `path` (a local path, no trailing '/') with `num_levels`
  // levels consists of, in listing order; empty for a container that is not published as
  // such (legacy BLOB: it is converted first). Pure string work, no I/O.
  std::vector<StoredFile> StoredFiles(const std::string& path, int num_levels) const;
  // True when StoredFiles() lists the dataset (every container but the legacy BLOB).
  bool publishable() const { return format_ != DatasetFormat::kLegacy; }

  // The columns navigation needs at every level (concat requires them of each source).
  std::vector<std::string> NavigationColumns() const;
  // The columns of stored level `level` without which its rows cannot be resolved.
  std::vector<std::string> CriticalColumns(int level) const;
  // The SQL expression of internal:gdal_vsi at `level` (FORMAT §6.2, §5.4); NULL when `id`
  // is NULL (an unsafe id).
  std::string SamplePathExpression(int level, const SamplePathSql& sql) const;

 private:
  Container(DatasetFormat format, SampleAddress address, LevelLocation levels)
      : format_(format), address_(address), levels_(levels) {}
  DatasetFormat format_;
  SampleAddress address_;
  LevelLocation levels_;
};

}  // namespace taco::format

#endif  // TACO_FORMAT_CONTAINER_H_
