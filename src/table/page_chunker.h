// Content-defined page boundaries for the engine-free Parquet writer (parquet_writer.h), the
// idea of Arrow's `use_content_defined_chunking`: a gear rolling hash runs over the bytes of
// a column's values (PLAIN form, with their repetition and definition levels), and a data
// page ends after the first whole row at which the hash matched a mask, once the page holds
// at least min_bytes; a page never grows past max_bytes (then it ends after the row that
// reaches it). Since the hash depends only on the last 64 bytes seen, an edit moves the page
// boundaries next to it and no others: the pages before and after it keep their bytes, and
// a deduplicating store (Xet, FastCDC) finds them again in the new file. Internal to
// src/table.
//
// Contract: deterministic (a fixed gear table, no time, no random); one PageChunker per
// column chunk; not thread-safe (a value type), PageChunkers are independent.
#ifndef TACO_TABLE_PAGE_CHUNKER_H_
#define TACO_TABLE_PAGE_CHUNKER_H_

#include <cstddef>
#include <cstdint>

namespace taco::table::parquet {

struct PageChunkLimits {
  size_t min_bytes = 16u << 10;
  size_t max_bytes = 128u << 10;
  // A boundary matches with probability 2^-mask_bits per byte past min_bytes: the expected
  // page is min_bytes + 2^mask_bits bytes of values.
  int mask_bits = 15;
};

class PageChunker {
 public:
  explicit PageChunker(PageChunkLimits limits = {});

  // Feeds `n` bytes of the current row.
  void Roll(const void* data, size_t n);
  void RollByte(uint8_t b);
  // Ends the current row: true when the page ends after it (the next row starts a new page).
  bool EndRow();

 private:
  PageChunkLimits limits_;
  uint64_t mask_;
  uint64_t hash_ = 0;
  size_t page_bytes_ = 0;
  bool matched_ = false;
};

}  // namespace taco::table::parquet

#endif  // TACO_TABLE_PAGE_CHUNKER_H_
