// PageChunker (see page_chunker.h).
#include "table/page_chunker.h"

#include <array>

namespace taco::table::parquet {
namespace {

// 256 pseudo-random 64-bit words from SplitMix64 with a fixed seed: any fixed table works;
// changing it changes where pages end (never what a reader sees).
constexpr std::array<uint64_t, 256> MakeGearTable() {
  std::array<uint64_t, 256> table{};
  uint64_t state = 0x7461636f2d636463ull;  // "taco-cdc"
  for (uint64_t& word : table) {
    state += 0x9e3779b97f4a7c15ull;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    word = z ^ (z >> 31);
  }
  return table;
}

constexpr std::array<uint64_t, 256> kGear = MakeGearTable();

}  // namespace

// The mask tests the top bits: in a gear hash (h << 1) + g[b], bit k depends on the last k + 1
// bytes, so the top bits see the widest window (64 bytes).
PageChunker::PageChunker(PageChunkLimits limits)
    : limits_(limits), mask_(limits.mask_bits <= 0 ? 0 : ~uint64_t{0} << (64 - limits.mask_bits)) {}

void PageChunker::RollByte(uint8_t b) {
  hash_ = (hash_ << 1) + kGear[b];
  ++page_bytes_;
  if (page_bytes_ >= limits_.min_bytes && (hash_ & mask_) == 0) matched_ = true;
}

void PageChunker::Roll(const void* data, size_t n) {
  const auto* p = static_cast<const uint8_t*>(data);
  for (size_t i = 0; i < n; ++i) RollByte(p[i]);
}

bool PageChunker::EndRow() {
  if (!matched_ && page_bytes_ < limits_.max_bytes) return false;
  matched_ = false;
  page_bytes_ = 0;
  return true;
}

}  // namespace taco::table::parquet
