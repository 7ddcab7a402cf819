// SampleDecoder, NavigationFallback and ReadAhead (taco/sample_loader.h).
#include "taco/sample_loader.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string_view>
#include <utility>

#include "format/zip/crc32.h"
#include "read/raster_decode.h"
#include "taco/io.h"

namespace taco {
namespace {

// A file this large read through a window is left to GDAL (only the blocks it needs).
constexpr uint64_t kWholeReadLimit = 16ULL << 20;
// Files of one row in one container are read together when the gap between them is at most
// this (the bytes in between are read and dropped).
constexpr uint64_t kMaxGap = 1ULL << 20;
// ZIP local file header: signature, fixed part, then name and extra field.
constexpr uint32_t kLfhSignature = 0x04034b50;
constexpr uint64_t kLfhFixed = 30;
constexpr uint64_t kMaxExtra = 64;  // extra fields longer than this are not looked for

uint16_t U16(const char* p) {
  return static_cast<uint16_t>(static_cast<unsigned char>(p[0]) | (static_cast<unsigned char>(p[1]) << 8));
}
uint32_t U32(const char* p) { return U16(p) | (static_cast<uint32_t>(U16(p + 2)) << 16); }

// The bytes before a file's data needed to check its local header.
uint64_t Slack(const SamplePlan::Location& loc) {
  return loc.path.empty() ? 0 : kLfhFixed + loc.path.size() + kMaxExtra;
}

// The local file header naming `member` that ends exactly at `data` (the file's first byte),
// with `data - begin` bytes of the span before it; nullptr when there is none.
const char* HeaderNaming(const char* begin, const char* data, const std::string& member) {
  const uint64_t before = static_cast<uint64_t>(data - begin);
  for (uint64_t extra = 0; extra <= kMaxExtra; ++extra) {
    const uint64_t need = kLfhFixed + member.size() + extra;
    if (need > before) break;
    const char* h = data - need;
    if (U32(h) != kLfhSignature || U16(h + 26) != member.size() || U16(h + 28) != extra) continue;
    if (std::memcmp(h + kLfhFixed, member.data(), member.size()) == 0) return h;
  }
  return nullptr;
}
bool HeaderNames(const char* begin, const char* data, const std::string& member) {
  return HeaderNaming(begin, data, member) != nullptr;
}

// The CRC-32 check of a STORE member read whole (OpenOptions::verify_crc): `header` is its
// local header, [data, data + size) its bytes. A header whose CRC lives in a data
// descriptor (flag bit 3; no TACO writer makes one) is not checked here.
Status CheckCrc(const char* header, const char* data, uint64_t size, const std::string& what) {
  if ((U16(header + 6) & 0x8) != 0) return Status::OK();
  const uint32_t stored = U32(header + 14);
  const uint32_t computed = zip::Crc32(0, data, static_cast<size_t>(size));
  if (stored == computed) return Status::OK();
  char text[64];
  std::snprintf(text, sizeof(text), "stored 0x%08x, computed 0x%08x", stored, computed);
  return Status::Corruption(what + ": CRC-32 mismatch: " + text + ": the bytes are damaged");
}

std::string LeafOf(const std::string& name, const std::string& fallback) {
  const std::string& s = name.empty() ? fallback : name;
  const size_t slash = s.find_last_of('/');
  return slash == std::string::npos ? s : s.substr(slash + 1);
}

bool IsHttp(const std::string& path) {
  return path.rfind("http://", 0) == 0 || path.rfind("https://", 0) == 0 || path.rfind("/vsicurl/http", 0) == 0;
}

std::string SubfilePath(uint64_t offset, uint64_t size, const std::string& root) {
  return "/vsisubfile/" + std::to_string(offset) + "_" + std::to_string(size) + "," + root;
}

}  // namespace

// Readers of the plan's containers, opened on first use and shared by every thread.
struct SampleDecoder::Readers {
  std::mutex mu;
  std::vector<RangeReaderPtr> open;          // by container index; null until opened
  std::vector<std::atomic<bool>> unchecked;  // containers whose members have no ZIP headers

  explicit Readers(size_t n) : open(n), unchecked(n) {
    for (auto& u : unchecked) u.store(false);
  }

  // The open reader of local container `c`.
  Result<RangeReaderPtr> Reader(const SamplePlan& plan, int32_t c) {
    RangeReaderPtr reader;
    {
      std::lock_guard<std::mutex> lock(mu);
      reader = open[static_cast<size_t>(c)];
    }
    if (reader == nullptr) {
      TACO_ASSIGN_OR_RETURN(reader, OpenRangeReader(plan.containers()[static_cast<size_t>(c)]));
      std::lock_guard<std::mutex> lock(mu);
      open[static_cast<size_t>(c)] = reader;
    }
    return reader;
  }

  // [offset, offset + n) of container `c` (http(s): one ranged GET; else an open reader).
  Result<std::string> Read(const SamplePlan& plan, int32_t c, uint64_t offset, uint64_t n) {
    const std::string& root = plan.containers()[static_cast<size_t>(c)];
    if (IsHttp(root)) return ReadRange(root, offset, n);
    TACO_ASSIGN_OR_RETURN(RangeReaderPtr reader, Reader(plan, c));
    return reader->Read(offset, static_cast<size_t>(n));
  }

  // Read() into `out`. A local span of at most kWholeReadLimit goes into a buffer of the
  // calling thread, reused by its next span (valid until then): no zero-filled string and
  // no fresh pages per sample (they cost ~5% of a sample's CPU in torch_bench).
  Status ReadSpan(const SamplePlan& plan, int32_t c, uint64_t offset, uint64_t n, std::string_view* out,
                  std::string* owned) {
    if (IsHttp(plan.containers()[static_cast<size_t>(c)]) || n > kWholeReadLimit) {
      TACO_ASSIGN_OR_RETURN(*owned, Read(plan, c, offset, n));
      *out = *owned;
      return Status::OK();
    }
    TACO_ASSIGN_OR_RETURN(RangeReaderPtr reader, Reader(plan, c));
    thread_local std::unique_ptr<char[]> buffer;
    thread_local uint64_t capacity = 0;
    if (capacity < n) {
      buffer = std::make_unique_for_overwrite<char[]>(static_cast<size_t>(n));
      capacity = n;
    }
    if (n > 0) TACO_RETURN_IF_ERROR(reader->ReadAt(offset, static_cast<size_t>(n), buffer.get()));
    *out = std::string_view(buffer.get(), static_cast<size_t>(n));
    return Status::OK();
  }
};

SampleDecoder::~SampleDecoder() = default;

Result<std::shared_ptr<const SampleDecoder>> SampleDecoder::Make(std::shared_ptr<const SamplePlan> plan,
                                                                 std::vector<RasterSelection> selections,
                                                                 LocationFallback fallback) {
  if (plan == nullptr) return Status::InvalidArgument("sample decoder: no plan");
  const size_t k = plan->files_per_row();
  if (selections.empty()) selections.resize(1);
  if (selections.size() == 1 && k > 1) selections.resize(k, selections[0]);
  if (selections.size() != k) {
    return Status::InvalidArgument("sample decoder: " + std::to_string(selections.size()) + " selections for " +
                                   std::to_string(k) + " files");
  }
  for (const RasterSelection& s : selections) {
    for (int b : s.bands) {
      if (b < 0)
        return Status::InvalidArgument(plan->dataset() + ": band " + std::to_string(b) +
                                       " is negative (bands are 0-based)");
    }
  }
  std::shared_ptr<SampleDecoder> d(new SampleDecoder());
  d->readers_ = std::make_unique<Readers>(plan->containers().size());
  d->plan_ = std::move(plan);
  d->selections_ = std::move(selections);
  d->fallback_ = std::move(fallback);
  return std::shared_ptr<const SampleDecoder>(std::move(d));
}

Result<DecodedSample> SampleDecoder::Decode(int64_t row) const { return DecodeInto(row, {}); }

Result<DecodedSample> SampleDecoder::DecodeInto(int64_t row, const std::vector<DecodeTarget>& targets) const {
  const SamplePlan& plan = *plan_;
  if (row < 0 || static_cast<size_t>(row) >= plan.num_rows()) {
    return Status::InvalidArgument(plan.dataset() + ": row " + std::to_string(row) + " is out of range (the view has " +
                                   std::to_string(plan.num_rows()) + " rows)");
  }
  const size_t r = static_cast<size_t>(row);
  const size_t k = plan.files_per_row();
  if (!targets.empty() && targets.size() != k) {
    return Status::InvalidArgument("sample decoder: " + std::to_string(targets.size()) + " targets for " +
                                   std::to_string(k) + " files");
  }
  auto target = [&](size_t f) -> const DecodeTarget* { return targets.empty() ? nullptr : &targets[f]; };
  const std::string sample = plan.dataset() + ": sample '" + plan.id(r) + "' (row " + std::to_string(row) + ")";
  auto what = [&](size_t f) { return plan.files().empty() ? sample : sample + ", file '" + plan.files()[f] + "'"; };
  auto leaf = [&](size_t f) { return LeafOf(plan.files().empty() ? "" : plan.files()[f], plan.id(r)); };

  DecodedSample out;
  out.row = row;
  out.files.resize(k);

  // The GDAL path to use instead of a planned ZIP location the container does not confirm;
  // the same path back means the container has no ZIP headers (not a ZIP): trust it.
  auto unconfirmed = [&](size_t f, const SamplePlan::Location& loc) -> Result<std::optional<std::string>> {
    const std::string planned =
        SubfilePath(loc.offset, loc.size, plan.containers()[static_cast<size_t>(loc.container)]);
    if (!fallback_) {
      return Status::Corruption(what(f) + ": the dataset's offset " + std::to_string(loc.offset) +
                                " is not where the ZIP holds member '" + loc.path + "'");
    }
    TACO_ASSIGN_OR_RETURN(std::string path, fallback_(row, f));
    if (path == planned) {
      readers_->unchecked[static_cast<size_t>(loc.container)].store(true);
      return std::optional<std::string>();
    }
    return std::optional<std::string>(std::move(path));
  };
  // What GDAL may do for sample bytes (gdal/sample_raster.h): any driver only on the opt-in;
  // the network only for a path that is itself remote, or for references of a remote
  // dataset's samples when the user opted in.
  auto access_for = [&](const std::string& gdal_path) {
    ext::internal::RasterAccess access;
    access.external = plan.allow_external_rasters();
    access.network =
        (access.external && plan.remote()) || (!gdal_path.empty() && ext::internal::NeedsNetwork(gdal_path));
    return access;
  };
  // Decodes a file at a GDAL path (the fallback's answer, or a plain path).
  auto decode_path = [&](size_t f, const std::string& path) -> Status {
    Result<DecodedRaster> d = Status::OK();
    if (auto sub = ParseVsiSubfile(path); sub && IsHttp(sub->root)) {
      TACO_ASSIGN_OR_RETURN(std::string bytes, ReadRange(sub->root, sub->offset, sub->size));
      d = read::DecodeRasterBytes(bytes.data(), bytes.size(), leaf(f), selections_[f], what(f), access_for(""),
                                  target(f));
    } else if (IsHttp(path)) {
      TACO_ASSIGN_OR_RETURN(std::string bytes, ReadWholeFile(path));
      d = read::DecodeRasterBytes(bytes.data(), bytes.size(), leaf(f), selections_[f], what(f), access_for(""),
                                  target(f));
    } else {
      d = read::DecodeRasterPath(path, selections_[f], what(f), access_for(path), target(f));
    }
    if (!d.ok()) return d.status();
    out.files[f] = std::move(*d);
    return Status::OK();
  };

  // Group the files that lie in containers into spans read at once.
  std::vector<size_t> in_containers;
  for (size_t f = 0; f < k; ++f) {
    const SamplePlan::Location& loc = plan.location(r, f);
    if (loc.container < 0) {
      TACO_RETURN_IF_ERROR(decode_path(f, loc.path));
    } else if (selections_[f].window && loc.size > kWholeReadLimit) {
      // A window of a large file: check the header with a small read, then let GDAL read
      // only what it needs (remote: through /vsitaco/, one request per block range).
      const std::string& root = plan.containers()[static_cast<size_t>(loc.container)];
      std::string path = SubfilePath(loc.offset, loc.size, root);
      const uint64_t slack = std::min<uint64_t>(Slack(loc), loc.offset);
      if (slack > 0 && !readers_->unchecked[static_cast<size_t>(loc.container)].load()) {
        TACO_ASSIGN_OR_RETURN(std::string head, readers_->Read(plan, loc.container, loc.offset - slack, slack));
        if (!HeaderNames(head.data(), head.data() + head.size(), loc.path)) {
          TACO_ASSIGN_OR_RETURN(auto other, unconfirmed(f, loc));
          if (other) path = *other;
        }
      }
      if (IsHttp(root) || (ParseVsiSubfile(path) && IsHttp(ParseVsiSubfile(path)->root))) {
        TACO_ASSIGN_OR_RETURN(path, InProcessGdalPath(path, leaf(f)));
      }
      auto d = read::DecodeRasterPath(path, selections_[f], what(f), access_for(path), target(f));
      if (!d.ok()) return d.status();
      out.files[f] = std::move(*d);
    } else {
      in_containers.push_back(f);
    }
  }
  std::sort(in_containers.begin(), in_containers.end(), [&](size_t a, size_t b) {
    const auto& la = plan.location(r, a);
    const auto& lb = plan.location(r, b);
    return std::pair(la.container, la.offset) < std::pair(lb.container, lb.offset);
  });
  size_t i = 0;
  while (i < in_containers.size()) {
    const SamplePlan::Location& first = plan.location(r, in_containers[i]);
    const uint64_t begin = first.offset - std::min<uint64_t>(Slack(first), first.offset);
    uint64_t end = first.offset + first.size;
    size_t j = i + 1;
    while (j < in_containers.size()) {
      const SamplePlan::Location& next = plan.location(r, in_containers[j]);
      if (next.container != first.container || next.offset > end + kMaxGap) break;
      end = std::max(end, next.offset + next.size);
      ++j;
    }
    std::string owned;
    std::string_view bytes;
    TACO_RETURN_IF_ERROR(readers_->ReadSpan(plan, first.container, begin, end - begin, &bytes, &owned));
    const bool check = !readers_->unchecked[static_cast<size_t>(first.container)].load();
    for (size_t m = i; m < j; ++m) {
      const size_t f = in_containers[m];
      const SamplePlan::Location& loc = plan.location(r, f);
      const char* data = bytes.data() + (loc.offset - begin);
      const char* header = check && !loc.path.empty() ? HeaderNaming(bytes.data(), data, loc.path) : nullptr;
      if (check && !loc.path.empty() && header == nullptr) {
        TACO_ASSIGN_OR_RETURN(auto other, unconfirmed(f, loc));
        if (other) {
          TACO_RETURN_IF_ERROR(decode_path(f, *other));
          continue;
        }
      }
      if (header != nullptr && plan.verify_crc()) {
        TACO_RETURN_IF_ERROR(CheckCrc(header, data, loc.size, what(f)));
      }
      auto d = read::DecodeRasterBytes(data, static_cast<size_t>(loc.size), leaf(f), selections_[f], what(f),
                                       access_for(""), target(f));
      if (!d.ok()) return d.status();
      out.files[f] = std::move(*d);
    }
    i = j;
  }
  for (size_t f = 0; f < k; ++f) {
    out.files[f].name = plan.files().empty() ? "" : plan.files()[f];
    out.nbytes += out.files[f].nbytes;
  }
  return out;
}

LocationFallback NavigationFallback(ViewOpener open_view, std::vector<std::string> files) {
  struct Lazy {
    std::mutex mu;
    ViewOpener open;
    std::shared_ptr<const Dataset> view;
  };
  auto lazy = std::make_shared<Lazy>();
  lazy->open = std::move(open_view);
  return [lazy, files = std::move(files)](int64_t row, size_t file) -> Result<std::string> {
    std::vector<SampleKey> keys = {row};
    if (file < files.size()) {
      const std::string& f = files[file];
      size_t start = 0;
      while (true) {
        const size_t slash = f.find('/', start);
        keys.emplace_back(f.substr(start, slash == std::string::npos ? std::string::npos : slash - start));
        if (slash == std::string::npos) break;
        start = slash + 1;
      }
    }
    std::lock_guard<std::mutex> guard(lazy->mu);
    if (lazy->view == nullptr) {
      TACO_ASSIGN_OR_RETURN(lazy->view, lazy->open());
    }
    TACO_ASSIGN_OR_RETURN(Node node, lazy->view->ReadPath(keys));
    if (!node.is_file()) {
      return Status::InvalidArgument(lazy->view->path() + ": '" + node.id + "' is a FOLDER, not a FILE");
    }
    return node.gdal_path;
  };
}

// ---- ReadAhead -------------------------------------------------------------------------

ReadAhead::ReadAhead(std::shared_ptr<const SampleDecoder> decoder, std::vector<int64_t> rows, ReadAheadOptions options)
    : decoder_(std::move(decoder)), rows_(std::move(rows)), options_(options), pid_(::getpid()) {
  if (options_.max_ahead < 1) options_.max_ahead = 1;
  if (options_.targeted) targets_.resize(rows_.size());
  for (int t = 0; t < options_.threads; ++t) threads_.emplace_back([this] { Work(); });
}

ReadAhead::~ReadAhead() {
  if (::getpid() != pid_) {
    // A copy made by fork(): the threads do not exist here; never join them.
    new std::vector<std::thread>(std::move(threads_));
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  work_cv_.notify_all();
  for (auto& t : threads_) t.join();
}

bool ReadAhead::CanClaim() const {
  if (next_claim_ >= rows_.size()) return false;
  if (options_.targeted && next_claim_ >= provided_) return false;
  if (next_claim_ == next_out_) return true;  // the consumer waits for it
  if (next_claim_ - next_out_ >= options_.max_ahead) return false;
  return held_ + reserved_ + estimate_ <= options_.memory_budget;
}

void ReadAhead::Work() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    work_cv_.wait(lock, [&] { return stop_ || CanClaim(); });
    if (stop_) return;
    const size_t k = next_claim_++;
    const size_t reserve = estimate_;
    reserved_ += reserve;
    std::vector<DecodeTarget> targets;
    if (options_.targeted) targets = std::move(targets_[k]);
    lock.unlock();
    Result<DecodedSample> r = decoder_->DecodeInto(rows_[k], targets);
    lock.lock();
    reserved_ -= reserve;
    if (r.ok()) {
      held_ += r->nbytes;
      estimate_ = std::max(estimate_, r->nbytes);
      peak_ = std::max(peak_, held_);
    }
    ready_.emplace(k, std::move(r));
    ready_cv_.notify_all();
    work_cv_.notify_all();
  }
}

Result<std::optional<DecodedSample>> ReadAhead::Next() {
  if (::getpid() != pid_) return Status::Internal("a read-ahead made before fork() was used in the child process");
  std::unique_lock<std::mutex> lock(mu_);
  if (next_out_ >= rows_.size()) return std::optional<DecodedSample>();
  if (options_.targeted && next_out_ >= provided_) {
    return Status::InvalidArgument("read-ahead: the targets of position " + std::to_string(next_out_) +
                                   " were not provided before it was asked for");
  }
  if (threads_.empty()) {
    const size_t k = next_out_++;
    std::vector<DecodeTarget> targets;
    if (options_.targeted) targets = std::move(targets_[k]);
    lock.unlock();
    TACO_ASSIGN_OR_RETURN(DecodedSample s, decoder_->DecodeInto(rows_[k], targets));
    return std::optional<DecodedSample>(std::move(s));
  }
  work_cv_.notify_all();
  ready_cv_.wait(lock, [&] { return ready_.count(next_out_) != 0; });
  auto node = ready_.extract(next_out_);
  ++next_out_;
  Result<DecodedSample> r = std::move(node.mapped());
  if (r.ok()) held_ -= r->nbytes;
  work_cv_.notify_all();
  if (!r.ok()) return r.status();
  return std::optional<DecodedSample>(std::move(*r));
}

Status ReadAhead::Provide(std::vector<std::vector<DecodeTarget>> rows) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!options_.targeted) return Status::InvalidArgument("read-ahead: Provide() without the targeted option");
    if (rows.size() > rows_.size() - provided_) {
      return Status::InvalidArgument("read-ahead: targets for " + std::to_string(rows.size()) + " rows, but only " +
                                     std::to_string(rows_.size() - provided_) + " are left");
    }
    for (auto& t : rows) targets_[provided_++] = std::move(t);
  }
  work_cv_.notify_all();
  return Status::OK();
}

size_t ReadAhead::provided() const {
  std::lock_guard<std::mutex> lock(mu_);
  return provided_;
}

size_t ReadAhead::taken() const {
  std::lock_guard<std::mutex> lock(mu_);
  return next_out_;
}

size_t ReadAhead::held_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return held_;
}

size_t ReadAhead::peak_held_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return peak_;
}

}  // namespace taco
