// The stored files of a dataset under validation, by archive path ("DATA/a/b",
// "METADATA/level0.parquet", "COLLECTION.json"): a TACO ZIP's members (from its central
// directory, data offsets resolved) or a local FOLDER's files.
#ifndef TACO_VALIDATE_CONTAINER_H_
#define TACO_VALIDATE_CONTAINER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "format/zip/zip_reader.h"
#include "io/location.h"
#include "taco/io.h"
#include "taco/status.h"

namespace taco::validate {

// A member's data range (ZIP: absolute offset in the file; FOLDER: offset 0, file size).
struct MemberRange {
  uint64_t offset = 0;
  uint64_t size = 0;
  bool operator==(const MemberRange&) const = default;
};

class Container {
 public:
  virtual ~Container() = default;
  virtual bool is_zip() const = 0;
  // The dataset path as given (for error messages).
  virtual const std::string& name() const = 0;
  // The member at `archive_path`, or nullopt when there is none.
  virtual std::optional<MemberRange> Find(const std::string& archive_path) const = 0;
  // A reader of the member's bytes (NotFound when absent).
  virtual Result<RangeReaderPtr> OpenMember(const std::string& archive_path) const = 0;
  // Every stored member: ZIP all members (first occurrence of each name); FOLDER every
  // regular file below DATA/ and METADATA/. Empty when !listable().
  virtual std::vector<std::string> Members() const = 0;
  // False when the members cannot be listed (a remote FOLDER): unreferenced files are then
  // not checked.
  virtual bool listable() const { return true; }
  // A hint that Find() will be asked for each of `archive_paths` (remote: asked in parallel).
  virtual void Prefetch(const std::vector<std::string>& archive_paths) const { (void)archive_paths; }
  // OK, or the first failure other than "not found" met while looking files up (a server
  // that ignores Range, 403, 5xx after retries): the report would be wrong, so Validate()
  // returns this error instead of reporting the files as missing.
  virtual Status LookupFailure() const { return Status::OK(); }
  // True when reading member bytes costs no request (a local ZIP or FOLDER): the checks
  // that read sample bytes (file-size) run only then.
  virtual bool local() const { return true; }
  // Local FOLDER: a sentence when `archive_path` exists but resolves (through a symbolic
  // link) outside the dataset directory, which every reader refuses; "" otherwise. Such a
  // member is not found (Find) and not opened (OpenMember: InvalidArgument).
  virtual std::string Outside(const std::string& archive_path) const {
    (void)archive_path;
    return "";
  }
};

class ZipContainer final : public Container {
 public:
  // Reads the central directory and resolves data offsets; errors when it is not a ZIP.
  // With `defer_data_offsets` and a local file, only the members outside DATA/ (TACO_HEADER, METADATA/*,
  // COLLECTION.json) are resolved now; the others must be resolved before they are looked
  // up, by the CRC pass (AdoptDataOffsets) or ResolveDataOffsets(). A fault in a local
  // header is the same error either way (the first in file order), only found later.
  static Result<std::unique_ptr<ZipContainer>> Open(const std::string& path, bool defer_data_offsets = false);

  bool is_zip() const override { return true; }
  const std::string& name() const override { return path_; }
  std::optional<MemberRange> Find(const std::string& archive_path) const override;
  Result<RangeReaderPtr> OpenMember(const std::string& archive_path) const override;
  std::vector<std::string> Members() const override;
  // A ZIP's bytes cost a request each unless it is on a local disk.
  bool local() const override { return io::Location::Of(path_).is_local_filesystem(); }

  // The reader OpenMember gives for `archive_path` when Find() gave `range`.
  Result<RangeReaderPtr> OpenRange(const std::string& archive_path, const MemberRange& range) const;
  // Index into entries() of the first member named `archive_path`, or nullopt. `hint`: an
  // index to try first (the entry after the last one found, as rows list members in the
  // order a TACO ZIP stores them); the answer is the same whatever the hint.
  std::optional<size_t> FindIndex(const std::string& archive_path, size_t hint = SIZE_MAX) const;

  const RangeReaderPtr& reader() const { return reader_; }
  // Where the central directory starts (every member ends at or before it).
  uint64_t cd_offset() const { return cd_offset_; }
  bool data_offsets_resolved() const { return resolved_; }
  // Resolves every data offset (no-op when done); the error of ReadCentralDirectory's.
  Status ResolveDataOffsets();
  // The data offset of every entry, by index into entries(), as resolved from the local
  // headers by zip::LocalDataOffset.
  void AdoptDataOffsets(const std::vector<uint64_t>& offsets);
  // Central-directory order, duplicates included.
  const std::vector<zip::ZipEntry>& entries() const { return entries_; }
  // Indices into entries() of the members whose name an earlier entry already has, ascending.
  const std::vector<size_t>& duplicates() const { return duplicates_; }

 private:
  ZipContainer() = default;
  std::string path_;
  RangeReaderPtr reader_;
  std::vector<zip::ZipEntry> entries_;
  uint64_t cd_offset_ = 0;
  bool resolved_ = false;
  std::unordered_map<std::string, size_t> by_name_;  // first entry of each name
  std::vector<size_t> duplicates_;
  std::vector<uint8_t> is_duplicate_;  // per entry: an earlier entry has its name
};

class FolderContainer final : public Container {
 public:
  // A local directory.
  static Result<std::unique_ptr<FolderContainer>> Open(const std::string& path);

  bool is_zip() const override { return false; }
  const std::string& name() const override { return path_; }
  std::optional<MemberRange> Find(const std::string& archive_path) const override;
  Result<RangeReaderPtr> OpenMember(const std::string& archive_path) const override;
  std::vector<std::string> Members() const override;
  std::string Outside(const std::string& archive_path) const override;

 private:
  FolderContainer() = default;
  std::string path_;
  std::string root_;  // without trailing '/'
};

// A remote FOLDER (http(s)://, s3://, ..., /vsi…): a file is found with one small request
// (FileSize: a one-byte ranged GET or GDAL's stat), remembered; Prefetch() asks many in
// parallel. It cannot be listed. Open() asks for COLLECTION.json first, so that a server
// that cannot serve the dataset (ignores Range, refuses access) fails the run at once.
class RemoteFolderContainer final : public Container {
 public:
  static Result<std::unique_ptr<RemoteFolderContainer>> Open(const std::string& path);

  bool is_zip() const override { return false; }
  const std::string& name() const override { return path_; }
  std::optional<MemberRange> Find(const std::string& archive_path) const override;
  Result<RangeReaderPtr> OpenMember(const std::string& archive_path) const override;
  std::vector<std::string> Members() const override { return {}; }
  bool listable() const override { return false; }
  bool local() const override { return false; }
  void Prefetch(const std::vector<std::string>& archive_paths) const override;
  Status LookupFailure() const override;

 private:
  RemoteFolderContainer() = default;
  // The size of `archive_path`, nullopt when absent or when it cannot be asked.
  std::optional<uint64_t> Ask(const std::string& archive_path) const;
  // A server that ignores Range (issue 29.9): files are fetched whole, once; bodies up to
  // kKeptBodyBytes in all are kept for OpenMember.
  Result<std::string> FetchWhole(const std::string& archive_path) const;
  static constexpr uint64_t kKeptBodyBytes = uint64_t{256} << 20;
  std::string path_;
  std::string root_;  // the VSI path or URL, without trailing '/'
  mutable std::mutex mu_;
  mutable std::unordered_map<std::string, std::optional<uint64_t>> sizes_;
  mutable Status failure_;            // the first lookup failure that is not NotFound
  mutable bool whole_files_ = false;  // set at the first answer that ignored Range
  mutable std::unordered_map<std::string, std::shared_ptr<const std::string>> bodies_;
  mutable uint64_t kept_bytes_ = 0;
};

}  // namespace taco::validate

#endif  // TACO_VALIDATE_CONTAINER_H_
