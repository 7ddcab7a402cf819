// The OpenRangeReader() dispatch (RangeReader::Read/ReadAll: range_reader_base.cc), and the in-process readers:
// SubRange, MemoryReader and CountingReader.
#include <optional>
#include <string>
#include <utility>

#include "io/http_client.h"
#include "io/http_reader.h"
#include "io/range_check.h"
#include "taco/io.h"

namespace taco {

Result<RangeReaderPtr> OpenRangeReader(const std::string& path_or_url) {
  if (auto url = io::PlainHttpUrl(path_or_url)) {
    TACO_ASSIGN_OR_RETURN(auto reader, io::OpenHttpFile(path_or_url, *url));
    return RangeReaderPtr(std::move(reader));
  }
  if (IsRemotePath(path_or_url)) return OpenVsiFile(path_or_url);
  return OpenLocalFile(path_or_url);
}

Result<std::optional<uint64_t>> FileSize(const std::string& path_or_url) {
  Result<RangeReaderPtr> reader = Status::OK();
  if (auto url = io::PlainHttpUrl(path_or_url)) {
    auto http = io::OpenHttpFile(path_or_url, *url, /*prefetch=*/1);
    reader =
        http.ok() ? Result<RangeReaderPtr>(RangeReaderPtr(std::move(*http))) : Result<RangeReaderPtr>(http.status());
  } else {
    reader = OpenRangeReader(path_or_url);
  }
  if (!reader.ok()) {
    if (reader.status().code() == StatusCode::kNotFound) return std::optional<uint64_t>();
    return reader.status();
  }
  return std::optional<uint64_t>((*reader)->size());
}

Result<std::string> ReadRange(const std::string& path_or_url, uint64_t offset, uint64_t length) {
  if (length == 0) return std::string();
  if (auto url = io::PlainHttpUrl(path_or_url)) {
    const io::HttpByteRange range{offset, length};
    TACO_ASSIGN_OR_RETURN(io::HttpResponse r, io::HttpGet(path_or_url, *url, range, length));
    TACO_RETURN_IF_ERROR(io::CheckRangeResponse(path_or_url, r, range, /*clamp_to_end=*/false));
    return std::move(r.body);
  }
  TACO_ASSIGN_OR_RETURN(RangeReaderPtr reader, OpenRangeReader(path_or_url));
  return reader->Read(offset, static_cast<size_t>(length));
}

Result<std::string> ReadWholeFile(const std::string& path_or_url) {
  if (auto url = io::PlainHttpUrl(path_or_url)) return io::FetchHttpObject(path_or_url, *url);
  TACO_ASSIGN_OR_RETURN(RangeReaderPtr reader, OpenRangeReader(path_or_url));
  return reader->ReadAll();
}

namespace {

// [offset_, offset_ + size_) of base_. base_ is never itself a SubRangeReader (SubRange()
// flattens), so a chain of sub-ranges costs a single indirection.
class SubRangeReader final : public RangeReader {
 public:
  SubRangeReader(RangeReaderPtr base, uint64_t offset, uint64_t size, std::string name)
      : base_(std::move(base)), offset_(offset), size_(size), name_(std::move(name)) {}

  uint64_t size() const override { return size_; }
  const std::string& name() const override { return name_; }
  Status ReadAt(uint64_t offset, size_t n, void* out) const override {
    TACO_RETURN_IF_ERROR(io::CheckRange(name_, offset, n, size_));
    if (n == 0) return Status::OK();
    return base_->ReadAt(offset_ + offset, n, out);
  }

  const RangeReaderPtr& base() const { return base_; }
  uint64_t offset() const { return offset_; }

 private:
  RangeReaderPtr base_;
  uint64_t offset_;
  uint64_t size_;
  std::string name_;
};

class StringReader final : public RangeReader {
 public:
  StringReader(std::string data, std::string name) : data_(std::move(data)), name_(std::move(name)) {}

  uint64_t size() const override { return data_.size(); }
  const std::string& name() const override { return name_; }
  Status ReadAt(uint64_t offset, size_t n, void* out) const override {
    TACO_RETURN_IF_ERROR(io::CheckRange(name_, offset, n, data_.size()));
    if (n > 0) data_.copy(static_cast<char*>(out), n, static_cast<size_t>(offset));
    return Status::OK();
  }

 private:
  std::string data_;
  std::string name_;
};

}  // namespace

Result<RangeReaderPtr> SubRange(RangeReaderPtr base, uint64_t offset, uint64_t length, std::string name) {
  if (base == nullptr) return Status::InvalidArgument("SubRange: null base reader");
  TACO_RETURN_IF_ERROR(io::CheckRange(base->name(), offset, length, base->size(), "sub-range"));
  if (const auto* inner = dynamic_cast<const SubRangeReader*>(base.get())) {
    offset += inner->offset();  // cannot overflow: inside inner, which is inside its base
    RangeReaderPtr root = inner->base();
    base = std::move(root);
  }
  if (name.empty()) {
    name = "/vsisubfile/" + std::to_string(offset) + "_" + std::to_string(length) + "," + base->name();
  }
  return RangeReaderPtr(std::make_shared<SubRangeReader>(std::move(base), offset, length, std::move(name)));
}

RangeReaderPtr MemoryReader(std::string data, std::string name) {
  return std::make_shared<StringReader>(std::move(data), std::move(name));
}

Status CountingReader::ReadAt(uint64_t offset, size_t n, void* out) const {
  requests_.fetch_add(1, std::memory_order_relaxed);
  bytes_.fetch_add(n, std::memory_order_relaxed);
  return base_->ReadAt(offset, n, out);
}

}  // namespace taco
