// member-crc (FORMAT §1.3: every member's CRC-32 is real): the data of every STORE member is
// read once, in file order, through a block cache of kBlock bytes (members of a TACO ZIP
// are contiguous, so a block serves many small members: one read locally, one ranged GET
// remotely per block), its CRC-32 computed and compared with the central directory's; the
// local header's CRC must agree too (it is what readers check). Memory stays bounded by one
// block whatever the member sizes.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "format/zip/crc32.h"
#include "format/zip/zip_format.h"
#include "io/thread_config.h"
#include "validate/checks.h"

namespace taco::validate {
namespace {

constexpr size_t kBlock = size_t{8} << 20;
constexpr uint64_t kParallelBytes = uint64_t{64} << 20;
constexpr uint16_t kFlagDataDescriptor = 1 << 3;

std::string Hex32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "0x%08x", v);
  return buf;
}

// Sequential reads through one cached block.
class BlockReader {
 public:
  explicit BlockReader(const RangeReader& reader) : reader_(reader) {}

  // Feeds [offset, offset+n) to `fn` in pieces; fn(std::string_view).
  template <typename Fn>
  Status Visit(uint64_t offset, uint64_t n, Fn&& fn) {
    while (n > 0) {
      if (offset < start_ || offset >= start_ + block_.size()) {
        const size_t len = static_cast<size_t>(std::min<uint64_t>(kBlock, reader_.size() - offset));
        block_.resize(len);
        TACO_RETURN_IF_ERROR(reader_.ReadAt(offset, len, block_.data()));
        start_ = offset;
      }
      const size_t at = static_cast<size_t>(offset - start_);
      const size_t take = static_cast<size_t>(std::min<uint64_t>(n, block_.size() - at));
      fn(std::string_view(block_.data() + at, take));
      offset += take;
      n -= take;
    }
    return Status::OK();
  }

 private:
  const RangeReader& reader_;
  std::string block_;
  uint64_t start_ = 0;
};

// A finding of one member, reported later in member order.
struct Finding {
  size_t member = 0;
  std::string rule, where, found, expected;
};

// One entry of the pass: `crc` when its data is checked (a STORE member), else only its local
// header is resolved (when the container's data offsets are deferred).
struct Item {
  const zip::ZipEntry* entry = nullptr;
  size_t index = 0;  // into entries()
  bool crc = false;
};

// Checks items[begin, end): findings appended to `out`, bytes done added to `done`;
// `on_member` (may be empty) is called after each checked member. With `offsets`, each
// item's data offset is resolved here from its local header and stored at offsets[index];
// returns false at the first header that does not resolve (the rest is not checked).
bool CheckRange(const RangeReader& reader, const std::vector<Item>& items, size_t begin, size_t end, uint64_t cd_offset,
                std::vector<uint64_t>* offsets, std::vector<Finding>& out, std::atomic<uint64_t>& done,
                const std::function<void()>& on_member) {
  BlockReader blocks(reader);
  std::string header;
  for (size_t m = begin; m < end; ++m) {
    const zip::ZipEntry* e = items[m].entry;
    header.resize(offsets != nullptr ? zip::LocalHeaderBytes(*e) : zip::kLocalHeaderSize);
    size_t got = 0;
    Status st = blocks.Visit(e->lfh_offset, header.size(), [&](std::string_view p) {
      std::memcpy(header.data() + got, p.data(), p.size());
      got += p.size();
    });
    uint64_t data_offset = e->data_offset;
    if (offsets != nullptr) {
      std::optional<uint64_t> resolved =
          st.ok() ? zip::LocalDataOffset(header, *e, cd_offset) : std::optional<uint64_t>();
      if (!resolved) return false;
      data_offset = (*offsets)[items[m].index] = *resolved;
    }
    if (!items[m].crc) continue;
    const char* lfh = header.data();
    uint32_t crc = 0;
    if (st.ok()) {
      st = blocks.Visit(data_offset, e->compressed_size,
                        [&](std::string_view p) { crc = zip::Crc32(crc, p.data(), p.size()); });
    }
    done.fetch_add(e->compressed_size, std::memory_order_relaxed);
    if (on_member) on_member();
    if (!st.ok()) {
      out.push_back({m, "unreadable-member", e->name, st.message(),
                     "the member's " + std::to_string(e->compressed_size) + " bytes"});
      continue;
    }
    if (crc != e->crc32) {
      out.push_back({m, "member-crc", e->name, "data with CRC-32 " + Hex32(crc),
                     Hex32(e->crc32) + " as in the central directory (damaged bytes)"});
      continue;
    }
    const uint16_t flags = zip::LoadU16(lfh + 6);
    if (flags & kFlagDataDescriptor) continue;
    const uint32_t local_crc = zip::LoadU32(lfh + 14);
    if (local_crc != e->crc32) {
      out.push_back({m, "member-crc", e->name + " local header", "CRC-32 " + Hex32(local_crc),
                     Hex32(e->crc32) + " as in the central directory and the data"});
    }
    // The sizes too (0xFFFFFFFF: they are in the ZIP64 extra field, checked by the reader).
    const uint32_t local_sizes[2] = {zip::LoadU32(lfh + 18), zip::LoadU32(lfh + 22)};
    const uint64_t central_sizes[2] = {e->compressed_size, e->uncompressed_size};
    const char* const kSizeNames[2] = {"compressed size ", "uncompressed size "};
    for (int k = 0; k < 2; ++k) {
      if (local_sizes[k] != 0xFFFFFFFFu && local_sizes[k] != central_sizes[k]) {
        out.push_back({m, "member-crc", e->name + " local header", kSizeNames[k] + std::to_string(local_sizes[k]),
                       std::to_string(central_sizes[k]) + " as in the central directory"});
        break;
      }
    }
  }
  return true;
}

}  // namespace

// Large ZIPs are checked on two threads, each over a contiguous half of the bytes (CRC-32
// runs at memory speed on one core; the second core doubles it when the file is cached).
bool CheckMemberCrcs(ZipContainer& zip, bool skip_header, Reporter& rep,
                     const std::function<void(uint64_t done, uint64_t total)>& progress) {
  const bool resolve = !zip.data_offsets_resolved();
  const std::vector<zip::ZipEntry>& entries = zip.entries();
  // The checked members in the order of main's pass (findings keep their order), and with
  // `resolve` the other entries merged in by local-header offset.
  std::vector<const zip::ZipEntry*> order;
  order.reserve(entries.size());
  std::vector<Item> others;
  for (const zip::ZipEntry& e : entries) {
    if (!(skip_header && e.lfh_offset == 0) && e.method == 0 && e.compressed_size == e.uncompressed_size) {
      order.push_back(&e);  // else zip-store
    } else if (resolve) {
      others.push_back({&e, static_cast<size_t>(&e - entries.data()), false});
    }
  }
  std::sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->lfh_offset < b->lfh_offset; });
  auto by_offset = [](const Item& a, const Item& b) { return a.entry->lfh_offset < b.entry->lfh_offset; };
  std::stable_sort(others.begin(), others.end(), by_offset);
  std::vector<Item> checked;
  checked.reserve(order.size());
  for (const zip::ZipEntry* e : order) checked.push_back({e, static_cast<size_t>(e - entries.data()), true});
  std::vector<Item> items;
  items.reserve(checked.size() + others.size());
  std::merge(checked.begin(), checked.end(), others.begin(), others.end(), std::back_inserter(items), by_offset);
  uint64_t total = 0;
  for (const Item& item : items) total += item.crc ? item.entry->compressed_size : 0;
  std::atomic<uint64_t> done{0};
  std::function<void()> on_member;
  if (progress) on_member = [&] { progress(done.load(std::memory_order_relaxed), total); };

  size_t split = items.size();
  if (total >= kParallelBytes && items.size() >= 2 && std::thread::hardware_concurrency() >= 2) {
    uint64_t acc = 0;
    for (split = 0; split < items.size() && acc < total / 2; ++split) {
      acc += items[split].crc ? items[split].entry->compressed_size : 0;
    }
  }
  std::vector<uint64_t> offsets;
  if (resolve) offsets.assign(entries.size(), 0);
  std::vector<uint64_t>* offsets_out = resolve ? &offsets : nullptr;
  std::vector<Finding> first, second;
  bool second_ok = true;
  std::thread helper;
  if (split < items.size()) {
    auto options = io::GdalThreadOptions::Capture();
    helper = std::thread([&, options] {
      io::GdalThreadOptions::Scope scope(*options);
      second_ok = CheckRange(*zip.reader(), items, split, items.size(), zip.cd_offset(), offsets_out, second, done, {});
    });
  }
  const bool first_ok =
      CheckRange(*zip.reader(), items, 0, split, zip.cd_offset(), offsets_out, first, done, on_member);
  if (helper.joinable()) helper.join();
  if (!first_ok || !second_ok) return false;
  if (resolve) zip.AdoptDataOffsets(offsets);
  for (auto* findings : {&first, &second}) {
    for (Finding& f : *findings) rep.Add(f.rule, std::move(f.where), std::move(f.found), std::move(f.expected));
  }
  if (progress) progress(total, total);
  return true;
}

bool ReportParquetPages(const Result<table::PageCrcSummary>& pages, const std::string& file_name,
                        const std::string& where, Reporter& rep) {
  if (!pages.ok()) {
    const std::string& why = pages.status().message();
    const std::string prefix = file_name + ": ";
    rep.Add("parquet-crc", where, why.rfind(prefix, 0) == 0 ? why.substr(prefix.size()) : why,
            "pages that match their stored CRC-32");
    return true;
  }
  if (std::string damage = table::ParquetDamage(*pages, file_name); !damage.empty()) {
    rep.Add("parquet-crc", where, damage, "a Parquet footer and page headers that can be walked");
  }
  return false;
}

}  // namespace taco::validate
