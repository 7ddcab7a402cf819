#include "read/sample_bytes.h"

#include <algorithm>
#include <optional>

#include "io/range_stream.h"
#include "taco/io.h"
#include "util/exception_guard.h"
#include "zip/stored_member.h"

namespace taco::read {
namespace {

std::string RangeText(const VsiSubfile& ref) {
  return ref.root + " (bytes " + std::to_string(ref.offset) + ".." + std::to_string(ref.offset + ref.size) + ")";
}

// The open container for a /vsisubfile/ root, or null.
RangeReaderPtr OpenContainer(const Dataset::State& s, const std::string& root) {
  auto open = s.containers.find(root);
  return open == s.containers.end() ? nullptr : open->second;
}

// Without an open container: one ranged read holding the local header window and the data.
Result<std::string> ReadRangeVerified(const VsiSubfile& ref) {
  const std::string what = RangeText(ref);
  const uint64_t w = std::min<uint64_t>(ref.offset, zip::kLocalHeaderWindow);
  TACO_ASSIGN_OR_RETURN(std::string buf, ReadRange(ref.root, ref.offset - w, ref.size + w));
  if (buf.size() != ref.size + w) return Status::IOError(what + ": short read");
  const std::string_view all(buf);
  Result<zip::LocalHeaderInfo> info = zip::FindLocalHeader(all.substr(0, w), ref.size, {}, what);
  if (!info.ok() && w < ref.offset) {  // a long archive path: open the container and look further
    TACO_ASSIGN_OR_RETURN(RangeReaderPtr reader, OpenRangeReader(ref.root));
    info = zip::ReadLocalHeaderBefore(*reader, ref.offset, ref.size, what);
  }
  if (!info.ok()) return info.status();
  zip::MemberCheck check(*info, what);
  check.Update(all.substr(w));
  TACO_RETURN_IF_ERROR(check.Finish());
  buf.erase(0, w);
  return buf;
}

}  // namespace

Result<std::string> ReadSampleBytes(const Dataset::State& s, const std::string& gdal_path) {
  TACO_RETURN_IF_ERROR(CheckSamplePath(s, gdal_path));
  if (auto ref = ParseVsiSubfile(gdal_path)) {
    RangeReaderPtr container = OpenContainer(s, ref->root);
    if (!s.verify_crc) {
      if (container != nullptr) return container->Read(ref->offset, static_cast<size_t>(ref->size));
      return ReadRange(ref->root, ref->offset, ref->size);  // http(s): one ranged GET
    }
    if (container != nullptr) return zip::ReadVerifiedMember(*container, ref->offset, ref->size, RangeText(*ref));
    return ReadRangeVerified(*ref);
  }
  if (gdal_path.rfind("/vsisubfile/", 0) == 0) return Status::InvalidArgument(gdal_path + ": malformed /vsisubfile/ path");
  return ReadWholeFile(gdal_path);  // http(s): one GET, no Range
}

Status StreamSampleBytes(const Dataset::State& s, const std::string& gdal_path,
                         const std::function<Status(std::string_view)>& sink) {
  TACO_RETURN_IF_ERROR(CheckSamplePath(s, gdal_path));
  auto ref = ParseVsiSubfile(gdal_path);
  if (!ref && gdal_path.rfind("/vsisubfile/", 0) == 0) {
    return Status::InvalidArgument(gdal_path + ": malformed /vsisubfile/ path");
  }
  if (ref && ref->size <= kStreamChunk) {  // small: one read (one request when remote)
    TACO_ASSIGN_OR_RETURN(std::string bytes, ReadSampleBytes(s, gdal_path));
    return sink(bytes);
  }
  RangeReaderPtr reader = ref ? OpenContainer(s, ref->root) : nullptr;
  if (reader == nullptr) {
    TACO_ASSIGN_OR_RETURN(reader, OpenRangeReader(ref ? ref->root : gdal_path));
  }
  const uint64_t offset = ref ? ref->offset : 0;
  const uint64_t size = ref ? ref->size : reader->size();
  const std::string what = ref ? RangeText(*ref) : gdal_path;
  std::optional<zip::MemberCheck> check;
  if (ref && s.verify_crc) {
    TACO_ASSIGN_OR_RETURN(zip::LocalHeaderInfo info, zip::ReadLocalHeaderBefore(*reader, offset, size, what));
    check.emplace(info, what);
  }
  // Chunks read ahead on worker threads (remote: several requests in flight), in order.
  io::StreamOptions stream;
  stream.chunk = kStreamChunk;
  stream.window = kStreamWindow;
  TACO_RETURN_IF_ERROR(io::StreamRange(*reader, offset, size, [&](const char* data, size_t n) {
    const std::string_view piece(data, n);
    if (check) check->Update(piece);
    return sink(piece);
  }, stream));
  return check ? check->Finish() : Status::OK();
}

}  // namespace taco::read

namespace taco {

Status Dataset::StreamBytes(const Node& node, const std::function<Status(std::string_view)>& sink) const {
  if (!node.is_file()) return state_->Error("sample '" + node.id + "' is a " + node.type + ", not a FILE");
  Status sink_status;  // returned as is, without the sample prefix
  auto counted = [&](std::string_view piece) {
    sink_status = sink(piece);
    return sink_status;
  };
  Status st = util::GuardExceptions(state_->path, [&] { return read::StreamSampleBytes(*state_, node.gdal_path, counted); });
  if (!sink_status.ok()) return sink_status;
  return st.WithPrefix("sample '" + node.id + "'");
}

}  // namespace taco
