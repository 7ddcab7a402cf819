// RewriteZipMetadataInPlace (see zip_inplace.h).
#include "edit/zip_inplace.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <functional>
#include <unordered_map>

#include "format/zip/crc32.h"
#include "format/zip/taco_header.h"
#include "format/zip/zip_format.h"
#include "format/zip/zip_reader.h"
#include "table/engine.h"
#include "table/parquet_writer.h"
#include "write/metadata_columns.h"
#include "write/outputs.h"

namespace taco::legacy {
namespace {

using namespace taco::zip;

struct Entry {
  std::string name;
  uint64_t lfh_offset = 0;
  uint64_t size = 0;
  uint32_t crc = 0;
  uint32_t external_attr = 0;
};

bool IsAscii(std::string_view s) {
  for (char c : s) {
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  }
  return true;
}

bool IsMetadataMember(const std::string& name) {
  return name.rfind("METADATA/", 0) == 0 || name == "COLLECTION.json" || name == "__meta__" ||
         (name.size() >= 9 && name.compare(name.size() - 9, 9, "/__meta__") == 0);
}

class Appender {
 public:
  std::function<void(std::string_view)> on_member;

  Appender(int fd, std::string path, uint64_t pos) : fd_(fd), path_(std::move(path)), pos_(pos) {
    std::time_t now = std::time(nullptr);
    std::tm tm{};
    localtime_r(&now, &tm);
    time_ = static_cast<uint16_t>((tm.tm_hour << 11) | (tm.tm_min << 5) | (tm.tm_sec / 2));
    date_ = static_cast<uint16_t>(((tm.tm_year - 80) << 9) | ((tm.tm_mon + 1) << 5) | tm.tm_mday);
  }

  Status Write(const std::string& bytes) {
    size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t w = ::pwrite(fd_, bytes.data() + done, bytes.size() - done, static_cast<off_t>(pos_ + done));
      if (w < 0) {
        if (errno == EINTR) continue;
        return Status::IOError(path_ + ": write failed: " + std::strerror(errno));
      }
      done += static_cast<size_t>(w);
    }
    pos_ += bytes.size();
    return Status::OK();
  }

  // A STORE member; returns its data offset.
  Result<uint64_t> Member(const std::string& name, const std::string& data, std::vector<Entry>& entries) {
    if (on_member) on_member(name);
    Entry e;
    e.name = name;
    e.lfh_offset = pos_;
    e.size = data.size();
    e.crc = Crc32(0, data.data(), data.size());
    e.external_attr = 0100644u << 16;
    std::string h;
    AppendU32(h, kLocalHeaderSignature);
    AppendU16(h, kVersionStore);
    AppendU16(h, IsAscii(name) ? 0 : kFlagUtf8);
    AppendU16(h, kMethodStore);
    AppendU16(h, time_);
    AppendU16(h, date_);
    AppendU32(h, e.crc);
    AppendU32(h, static_cast<uint32_t>(e.size));
    AppendU32(h, static_cast<uint32_t>(e.size));
    AppendU16(h, static_cast<uint16_t>(name.size()));
    AppendU16(h, 0);
    h += name;
    const uint64_t data_offset = pos_ + h.size();
    TACO_RETURN_IF_ERROR(Write(h + data));
    entries.push_back(e);
    return data_offset;
  }

  // Central directory + (ZIP64 records when needed) + EOCD.
  Status Finish(const std::vector<Entry>& entries) {
    const uint64_t cd_offset = pos_;
    std::string cd;
    for (const Entry& e : entries) {
      const bool big_size = e.size >= kMax32, big_offset = e.lfh_offset >= kMax32;
      std::string extra;
      if (big_size || big_offset) {
        std::string body;
        if (big_size) {
          AppendU64(body, e.size);
          AppendU64(body, e.size);
        }
        if (big_offset) AppendU64(body, e.lfh_offset);
        AppendU16(extra, kZip64ExtraId);
        AppendU16(extra, static_cast<uint16_t>(body.size()));
        extra += body;
      }
      AppendU32(cd, kCentralHeaderSignature);
      AppendU16(cd, kVersionMadeBy);
      AppendU16(cd, extra.empty() ? kVersionStore : kVersionZip64);
      AppendU16(cd, IsAscii(e.name) ? 0 : kFlagUtf8);
      AppendU16(cd, kMethodStore);
      AppendU16(cd, time_);
      AppendU16(cd, date_);
      AppendU32(cd, e.crc);
      AppendU32(cd, big_size ? kMax32 : static_cast<uint32_t>(e.size));
      AppendU32(cd, big_size ? kMax32 : static_cast<uint32_t>(e.size));
      AppendU16(cd, static_cast<uint16_t>(e.name.size()));
      AppendU16(cd, static_cast<uint16_t>(extra.size()));
      AppendU16(cd, 0);  // comment
      AppendU16(cd, 0);  // disk
      AppendU16(cd, 0);  // internal attributes
      AppendU32(cd, e.external_attr);
      AppendU32(cd, big_offset ? kMax32 : static_cast<uint32_t>(e.lfh_offset));
      cd += e.name;
      cd += extra;
    }
    const uint64_t cd_size = cd.size();
    const bool zip64 = entries.size() >= kMax16 || cd_offset >= kMax32 || cd_size >= kMax32;
    std::string tail;
    if (zip64) {
      const uint64_t eocd64 = cd_offset + cd_size;
      AppendU32(tail, kZip64EocdSignature);
      AppendU64(tail, kZip64EocdSize - 12);
      AppendU16(tail, kVersionMadeBy);
      AppendU16(tail, kVersionZip64);
      AppendU32(tail, 0);
      AppendU32(tail, 0);
      AppendU64(tail, entries.size());
      AppendU64(tail, entries.size());
      AppendU64(tail, cd_size);
      AppendU64(tail, cd_offset);
      AppendU32(tail, kZip64LocatorSignature);
      AppendU32(tail, 0);
      AppendU64(tail, eocd64);
      AppendU32(tail, 1);
    }
    AppendU32(tail, kEocdSignature);
    AppendU16(tail, 0);
    AppendU16(tail, 0);
    AppendU16(tail, zip64 ? kMax16 : static_cast<uint16_t>(entries.size()));
    AppendU16(tail, zip64 ? kMax16 : static_cast<uint16_t>(entries.size()));
    AppendU32(tail, zip64 ? kMax32 : static_cast<uint32_t>(cd_size));
    AppendU32(tail, zip64 ? kMax32 : static_cast<uint32_t>(cd_offset));
    AppendU16(tail, 0);
    return Write(cd + tail);
  }

 private:
  int fd_;
  std::string path_;
  uint64_t pos_;
  uint16_t time_ = 0, date_ = 0;
};

std::vector<std::string> ChildPaths(const std::string& folder, const Table& meta) {
  const Column& ids = meta.column("id");
  const Column& types = meta.column("type");
  std::vector<std::string> paths;
  for (size_t i = 0; i < ids.values.size(); ++i) {
    std::string p = folder + ids.values[i].get<std::string>();
    if (types.values[i].get<std::string>() == "FOLDER") p += '/';
    paths.push_back(std::move(p));
  }
  return paths;
}

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

Status RewriteZipMetadataInPlace(const std::string& path, const Taco& taco,
                                 const std::function<void(std::string_view)>& on_step) {
  auto step = [&](std::string_view s) {
    if (on_step) on_step(s);
  };
  step("prepare");
  TACO_ASSIGN_OR_RETURN(write::PreparedTaco prepared, write::Prepare(taco));
  TACO_ASSIGN_OR_RETURN(RangeReaderPtr reader, OpenLocalFile(path));
  TACO_ASSIGN_OR_RETURN(std::vector<ZipEntry> old, ReadCentralDirectory(*reader, /*resolve_data_offsets=*/true));
  std::unordered_map<std::string, const ZipEntry*> by_name;
  for (const ZipEntry& e : old) by_name.emplace(e.name, &e);
  if (old.empty() || old[0].name != kTacoHeaderName || old[0].lfh_offset != 0) {
    return Status::InvalidArgument(path + ": --in-place needs a TACO ZIP whose first member is TACO_HEADER");
  }
  write::MemberRanges ranges;
  for (const auto& [archive_path, sample] : prepared.tables.files) {
    auto it = by_name.find(archive_path);
    if (it == by_name.end() || it->second->uncompressed_size != sample->size_bytes() || it->second->method != 0) {
      return Status::InvalidArgument(path + ": member " + archive_path +
                                     " is missing or changed: --in-place rewrites metadata only");
    }
    ranges[archive_path] = {it->second->data_offset, it->second->uncompressed_size};
  }
  std::vector<Entry> entries;
  for (const ZipEntry& e : old) {
    if (IsMetadataMember(e.name)) continue;
    entries.push_back({e.name, e.lfh_offset, e.uncompressed_size, e.crc32, e.external_attr});
  }

  Fd out;
  out.fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (out.fd < 0) return Status::IOError(path + ": cannot open for writing: " + std::strerror(errno));
  TACO_ASSIGN_OR_RETURN(auto engine, table::Engine::Open());
  Appender zip(out.fd, path, reader->size());
  zip.on_member = [&](std::string_view) { step("append-member"); };

  step("append-meta");
  for (const auto& [folder, meta_table] : prepared.tables.folder_meta) {
    Table meta = meta_table;
    TACO_RETURN_IF_ERROR(write::AddOffsetColumns(meta, ChildPaths(folder, meta), ranges));
    TACO_ASSIGN_OR_RETURN(std::string parquet, table::TableToParquet(*engine, meta, {write::kMetaZstd, 65536, {}}));
    const std::string member = folder + "__meta__";
    TACO_ASSIGN_OR_RETURN(uint64_t at, zip.Member(member, parquet, entries));
    ranges[member] = {at, parquet.size()};
  }
  step("append-levels");
  std::vector<HeaderEntry> header;
  for (size_t level = 0; level < prepared.tables.levels.size(); ++level) {
    Table table = prepared.tables.levels[level];
    TACO_RETURN_IF_ERROR(write::AddOffsetColumns(table, prepared.tables.archive_paths[level], ranges));
    TACO_ASSIGN_OR_RETURN(std::string parquet, table::TableToParquet(*engine, table, {write::kLevelZstd, 65536, {}}));
    TACO_ASSIGN_OR_RETURN(uint64_t at,
                          zip.Member("METADATA/level" + std::to_string(level) + ".parquet", parquet, entries));
    header.push_back({at, parquet.size()});
  }
  TACO_ASSIGN_OR_RETURN(uint64_t at, zip.Member("COLLECTION.json", prepared.collection_json, entries));
  header.push_back({at, prepared.collection_json.size()});

  step("central-directory");
  const std::string payload = EncodeTacoHeaderPayload(header);
  const uint32_t crc = Crc32(0, payload.data(), payload.size());
  entries[0].crc = crc;  // TACO_HEADER is the first member
  TACO_RETURN_IF_ERROR(zip.Finish(entries));
  step("sync");
  if (::fsync(out.fd) != 0) return Status::IOError(path + ": fsync failed: " + std::strerror(errno));

  // The commit point: the header's CRC and payload in one write.
  step("header");
  TACO_ASSIGN_OR_RETURN(std::string head, reader->Read(0, kTacoHeaderSize));
  if (head.size() != 30 + kTacoHeaderName.size() + payload.size()) {
    return Status::InvalidArgument(path + ": unexpected TACO_HEADER layout (extra field?)");
  }
  StoreU32(&head[14], crc);
  std::memcpy(&head[30 + kTacoHeaderName.size()], payload.data(), payload.size());
  const std::string patch = head.substr(14);
  if (::pwrite(out.fd, patch.data(), patch.size(), 14) != static_cast<ssize_t>(patch.size())) {
    return Status::IOError(path + ": header write failed: " + std::strerror(errno));
  }
  if (::fsync(out.fd) != 0) return Status::IOError(path + ": fsync failed: " + std::strerror(errno));
  step("done");
  return Status::OK();
}

}  // namespace taco::legacy
