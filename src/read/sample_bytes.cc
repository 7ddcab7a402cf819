#include "read/sample_bytes.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include "format/zip/stored_member.h"
#include "io/range_stream.h"
#include "taco/io.h"
#include "util/exception_guard.h"

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
Result<std::string> ReadRangeVerified(const VsiSubfile& ref, const zip::MemberName& expected, bool check_crc) {
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
  TACO_RETURN_IF_ERROR(zip::CheckMemberName(*info, expected, ref.offset, what));
  if (check_crc) {
    zip::MemberCheck check(*info, what);
    check.Update(all.substr(w));
    TACO_RETURN_IF_ERROR(check.Finish());
  }
  buf.erase(0, w);
  return buf;
}

// A window [start, start + bytes) of a container read ahead (Dataset::Prefetch): reads
// outside it fail, so that the caller falls back to the container.
class WindowReader final : public RangeReader {
 public:
  WindowReader(RangeReaderPtr container, uint64_t start, std::shared_ptr<const std::string> bytes)
      : container_(std::move(container)), start_(start), bytes_(std::move(bytes)) {}
  uint64_t size() const override { return container_->size(); }
  const std::string& name() const override { return container_->name(); }
  Status ReadAt(uint64_t offset, size_t n, void* out) const override {
    if (offset < start_ || offset - start_ > bytes_->size() || n > bytes_->size() - (offset - start_)) {
      return Status::IOError(name() + ": outside the read-ahead window");
    }
    std::memcpy(out, bytes_->data() + (offset - start_), n);
    return Status::OK();
  }

 private:
  RangeReaderPtr container_;
  uint64_t start_;
  std::shared_ptr<const std::string> bytes_;
};

// The member `ref` from a read-ahead run that holds it and its local header window, if any.
std::optional<std::string> FromPrefetched(const Dataset::State& s, const VsiSubfile& ref,
                                          const RangeReaderPtr& container, const zip::MemberName& expected) {
  if (container == nullptr) return std::nullopt;
  std::optional<Dataset::State::PrefetchedRun> run;
  {
    std::lock_guard<std::mutex> lock(s.prefetch_mu);
    for (auto it = s.prefetched.rbegin(); it != s.prefetched.rend(); ++it) {
      if (it->root == ref.root && ref.offset >= it->start && ref.offset - it->start <= it->bytes->size() &&
          ref.size <= it->bytes->size() - (ref.offset - it->start)) {
        run = *it;
        break;
      }
    }
  }
  if (!run) return std::nullopt;
  WindowReader window(container, run->start, run->bytes);
  const bool plain = !s.verify_crc && expected.kind == zip::MemberName::Kind::kNone;
  Result<std::string> bytes =
      plain ? window.Read(ref.offset, static_cast<size_t>(ref.size))
            : zip::ReadVerifiedMember(window, ref.offset, ref.size, RangeText(ref), expected, s.verify_crc);
  // Not served from here (e.g. the local header lies before the window): the container is
  // read instead, which reports a real error again.
  if (!bytes.ok()) return std::nullopt;
  return std::move(*bytes);
}

}  // namespace

void Prefetch(const Dataset::State& s, const std::vector<std::string>& gdal_paths, uint64_t max_run_bytes) {
  constexpr uint64_t kMaxGap = 64 * 1024;
  std::vector<VsiSubfile> refs;
  for (const std::string& p : gdal_paths) {
    if (auto ref = ParseVsiSubfile(p); ref && CheckSamplePath(s, p).ok() && OpenContainer(s, ref->root) != nullptr) {
      refs.push_back(*ref);
    }
  }
  std::sort(refs.begin(), refs.end(), [](const VsiSubfile& a, const VsiSubfile& b) {
    return a.root != b.root ? a.root < b.root : a.offset < b.offset;
  });
  size_t i = 0;
  while (i < refs.size()) {
    // A run: from the first member's local header window to the end of the last member
    // that starts within kMaxGap of the run's end and keeps it under max_run_bytes.
    const VsiSubfile& first = refs[i];
    const uint64_t start = first.offset - std::min<uint64_t>(first.offset, zip::kLocalHeaderWindow);
    uint64_t end = first.offset + first.size;
    size_t j = i + 1;
    while (j < refs.size() && refs[j].root == first.root && refs[j].offset <= end + kMaxGap &&
           refs[j].offset + refs[j].size - start <= max_run_bytes) {
      end = std::max(end, refs[j].offset + refs[j].size);
      ++j;
    }
    RangeReaderPtr container = OpenContainer(s, first.root);
    // ReadVerifiedMember also reads up to kDataDescriptorMax bytes after a member.
    end = std::min<uint64_t>(end + zip::kDataDescriptorMax, container->size());
    if (end - start <= max_run_bytes + zip::kDataDescriptorMax && j - i > 1) {
      Result<std::string> bytes = container->Read(start, static_cast<size_t>(end - start));
      if (bytes.ok()) {
        auto shared = std::make_shared<const std::string>(std::move(*bytes));
        std::lock_guard<std::mutex> lock(s.prefetch_mu);
        s.prefetched.push_back({first.root, start, std::move(shared)});
        uint64_t total = 0;
        for (const auto& r : s.prefetched) total += r.bytes->size();
        while (total > Dataset::State::kMaxPrefetchBytes && s.prefetched.size() > 1) {
          total -= s.prefetched.front().bytes->size();
          s.prefetched.erase(s.prefetched.begin());
        }
      }
    }
    i = j;
  }
}

Result<std::string> ReadSampleBytes(const Dataset::State& s, const std::string& gdal_path,
                                    const zip::MemberName& expected) {
  TACO_RETURN_IF_ERROR(CheckSamplePath(s, gdal_path));
  if (auto ref = ParseVsiSubfile(gdal_path)) {
    RangeReaderPtr container = OpenContainer(s, ref->root);
    if (std::optional<std::string> ahead = FromPrefetched(s, *ref, container, expected)) return std::move(*ahead);
    if (!s.verify_crc && expected.kind == zip::MemberName::Kind::kNone) {
      if (container != nullptr) return container->Read(ref->offset, static_cast<size_t>(ref->size));
      return ReadRange(ref->root, ref->offset, ref->size);  // http(s): one ranged GET
    }
    if (container != nullptr) {
      return zip::ReadVerifiedMember(*container, ref->offset, ref->size, RangeText(*ref), expected, s.verify_crc);
    }
    return ReadRangeVerified(*ref, expected, s.verify_crc);
  }
  if (gdal_path.rfind("/vsisubfile/", 0) == 0)
    return Status::InvalidArgument(gdal_path + ": malformed /vsisubfile/ path");
  return ReadWholeFile(gdal_path);  // http(s): one GET, no Range
}

Status StreamSampleBytes(const Dataset::State& s, const std::string& gdal_path, const zip::MemberName& expected,
                         const std::function<Status(std::string_view)>& sink) {
  TACO_RETURN_IF_ERROR(CheckSamplePath(s, gdal_path));
  auto ref = ParseVsiSubfile(gdal_path);
  if (!ref && gdal_path.rfind("/vsisubfile/", 0) == 0) {
    return Status::InvalidArgument(gdal_path + ": malformed /vsisubfile/ path");
  }
  if (ref && ref->size <= kStreamChunk) {  // small: one read (one request when remote)
    TACO_ASSIGN_OR_RETURN(std::string bytes, ReadSampleBytes(s, gdal_path, expected));
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
  if (ref && (s.verify_crc || expected.kind != zip::MemberName::Kind::kNone)) {
    TACO_ASSIGN_OR_RETURN(zip::LocalHeaderInfo info, zip::ReadNamedLocalHeader(*reader, offset, size, expected, what));
    TACO_RETURN_IF_ERROR(zip::CheckMemberName(info, expected, offset, what));
    if (s.verify_crc) check.emplace(info, what);
  }
  // Chunks read ahead on worker threads (remote: several requests in flight), in order.
  io::StreamOptions stream;
  stream.chunk = kStreamChunk;
  stream.window = kStreamWindow;
  TACO_RETURN_IF_ERROR(io::StreamRange(
      *reader, offset, size,
      [&](const char* data, size_t n) {
        const std::string_view piece(data, n);
        if (check) check->Update(piece);
        return sink(piece);
      },
      stream));
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
  Status st = util::GuardExceptions(state_->path, [&] {
    return read::StreamSampleBytes(*state_, node.gdal_path, read::ExpectedMember(*state_, node), counted);
  });
  if (!sink_status.ok()) return sink_status;
  return st.WithPrefix("sample '" + node.id + "'");
}

void Dataset::Prefetch(const std::vector<std::string>& gdal_paths, uint64_t max_run_bytes) const {
  (void)util::GuardExceptions(state_->path, [&] {
    read::Prefetch(*state_, gdal_paths, max_run_bytes);
    return Status::OK();
  });
}

}  // namespace taco
