// Rows vs the stored members (FORMAT §1.4–§1.5, §2): missing members, internal:offset/size by
// archive path, 0-byte padding; every FOLDER's __meta__ vs the next level; unreferenced members.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>

#include "gdal/sample_raster.h"
#include "io/thread_config.h"
#include "table/parquet_reader.h"
#include "taco/model.h"
#include "util/ordered_parallel.h"
#include "validate/checks.h"
#include "validate/tiff_extent.h"

namespace taco::validate {
namespace {

constexpr std::string_view kFolder = "FOLDER";
// Rows per work item of the parallel pass, and the fewest rows for which it starts threads.
constexpr size_t kRowsPerChunk = 2048;
constexpr size_t kParallelRows = 8192;
// A FILE sample's first bytes, read once: more than GDAL's identification looks at (1 KiB)
// and than a TIFF header.
constexpr uint64_t kHead = 4096;

std::string RangeText(const Value& offset, const Value& size) {
  return "offset " + CellText(offset) + ", size " + CellText(size);
}

// A member's reader whose first bytes (`head`, already read) are served from memory: the
// same bytes and errors as `base`, without reading the head a second time.
class HeadFirstReader final : public RangeReader {
 public:
  HeadFirstReader(RangeReaderPtr base, const std::string& head) : base_(std::move(base)), head_(head) {}
  uint64_t size() const override { return base_->size(); }
  const std::string& name() const override { return base_->name(); }
  Status ReadAt(uint64_t offset, size_t n, void* out) const override {
    if (offset <= head_.size() && n <= head_.size() - offset) {
      if (n > 0) std::memcpy(out, head_.data() + offset, n);
      return Status::OK();
    }
    return base_->ReadAt(offset, n, out);
  }

 private:
  RangeReaderPtr base_;
  const std::string& head_;  // outlives the reader (CheckSampleBytes)
};

struct MemberChecker {
  const Container& container;
  const std::function<table::Engine&()>& engine;
  const std::vector<Table>& levels;
  const Tree& tree;
  // This chunk's findings and referenced members (merged in chunk order by CheckMembers).
  Reporter& rep;
  // A ZIP's members found by index into entries(); other paths (FOLDER, missing) by name.
  std::vector<std::string>& referenced;
  std::vector<size_t>& referenced_entries;
  const ZipContainer* zip = container.is_zip() ? static_cast<const ZipContainer*>(&container) : nullptr;
  // Made on first use (a local dataset's FILE samples), on the thread running the chunk.
  std::unique_ptr<ext::internal::ReferenceSniffer> sniffer = nullptr;
  // The entry after the last one a level row / a __meta__ row found (ZipContainer::FindIndex).
  size_t level_hint = SIZE_MAX;
  size_t meta_hint = SIZE_MAX;

  // The member a row (of a level or a __meta__) refers to: it must exist; in a ZIP its
  // stored offset/size must be its data range; padding members are empty. `where()` gives
  // the row's place for messages (built only when there is something to report). Returns
  // the member's range when it exists.
  template <typename Where>
  std::optional<MemberRange> CheckRow(const Where& where, const std::string& archive, bool is_folder, bool padding,
                                      const Column* offset, const Column* size, size_t row, size_t& hint) {
    std::optional<MemberRange> m;
    if (zip != nullptr) {  // no links in a ZIP; the name's first entry marked referenced
      if (std::optional<size_t> index = zip->FindIndex(archive, hint)) {
        hint = *index + 1;
        referenced_entries.push_back(*index);
        const zip::ZipEntry& e = zip->entries()[*index];
        m = MemberRange{e.data_offset, e.compressed_size};
      }
    } else {
      referenced.push_back(archive);
      if (std::string outside = container.Outside(archive); !outside.empty()) {
        rep.Add("outside-link", where(), outside,
                "a file inside the dataset directory (readers refuse links out of it)");
        return std::nullopt;
      }
      m = container.Find(archive);
    }
    if (!m) {
      rep.Add("missing-member", where(), std::string("no ") + (container.is_zip() ? "member " : "file ") + archive,
              std::string(is_folder ? "the folder's __meta__" : "the sample's data") + " at " + archive);
      return std::nullopt;
    }
    if (container.is_zip() && offset != nullptr && size != nullptr) {
      const Value& o = offset->values[row];
      const Value& s = size->values[row];
      const bool same = o.is<int64_t>() && s.is<int64_t>() && static_cast<uint64_t>(o.get<int64_t>()) == m->offset &&
                        static_cast<uint64_t>(s.get<int64_t>()) == m->size && o.get<int64_t>() >= 0 &&
                        s.get<int64_t>() >= 0;
      if (!same) {
        rep.Add("member-offset", where(), RangeText(o, s),
                "offset " + std::to_string(m->offset) + ", size " + std::to_string(m->size) + " (" + archive + ")");
      }
    }
    if (padding && m->size != 0) {
      rep.Add("padding", where(), std::to_string(m->size) + " bytes in " + archive, "0 bytes");
    }
    return m;
  }

  // The member `archive`, found at `m` (a ZIP's without looking its name up again).
  Result<RangeReaderPtr> Open(const std::string& archive, const MemberRange& m) const {
    return zip != nullptr ? zip->OpenRange(archive, m) : container.OpenMember(archive);
  }

  // A FILE sample's bytes (one reader for both checks; its first kHead bytes read once, for
  // the TIFF header and the identification).
  template <typename Where>
  void CheckSampleBytes(const Where& where, const std::string& archive, const MemberRange& m) {
    Result<RangeReaderPtr> reader = Open(archive, m);
    Result<std::string> head = reader.ok() ? (*reader)->Read(0, static_cast<size_t>(std::min<uint64_t>(kHead, m.size)))
                                           : Result<std::string>(reader.status());
    if (!head.ok()) {  // as before: MeasureTiff reads (and reports) on its own, no identification
      CheckSize(where, archive, m, reader);
      return;
    }
    const RangeReaderPtr with_head = std::make_shared<HeadFirstReader>(*reader, *head);
    CheckSize(where, archive, m, with_head);
    CheckReferences(where, archive, *head);
  }

  // A FILE sample stored as a TIFF must hold every byte its IFDs point at.
  template <typename Where>
  void CheckSize(const Where& where, const std::string& archive, const MemberRange& m,
                 const Result<RangeReaderPtr>& reader) {
    Result<std::optional<TiffExtent>> tiff =
        reader.ok() ? MeasureTiff(**reader) : Result<std::optional<TiffExtent>>(reader.status());
    if (!tiff.ok()) {
      rep.Add("unreadable-member", where(), tiff.status().message(), "the sample's bytes");
      return;
    }
    if (!*tiff || (*tiff)->required <= m.size) return;
    rep.Add("file-size", where(), std::to_string(m.size) + " bytes in " + archive,
            "at least " + std::to_string((*tiff)->required) + " bytes: the TIFF's " + (*tiff)->what +
                " ends there (truncated file)");
  }

  // A FILE sample's bytes must not be a format that names other files or URLs (a VRT, a WMS
  // description, ...): readers refuse it unless the user allows external rasters, and with
  // that opt-in it would read outside the dataset (docs/reliability.md "Untrusted datasets").
  template <typename Where>
  void CheckReferences(const Where& where, const std::string& archive, const std::string& head) {
    if (!sniffer) sniffer = std::make_unique<ext::internal::ReferenceSniffer>();
    if (auto format = sniffer->Sniff(head, archive)) {
      rep.Add("external-reference", where(),
              archive + " is a GDAL " + *format + " file, which names other files or URLs",
              "self-contained raster bytes (readers refuse it unless external rasters are allowed: "
              "--allow-external-rasters)");
    }
  }

  void CheckMeta(size_t d, size_t r, const std::string& archive, const MemberRange& m,
                 const std::string& folder_prefix) {
    auto reader = Open(archive, m);
    Result<Table> read = reader.ok() ? table::ReadSmallParquet(engine, *reader) : Result<Table>(reader.status());
    if (!read.ok()) {
      rep.Add("unreadable-member", archive, read.status().message(), "a Parquet table of the folder's children");
      return;
    }
    const Table& meta = *read;
    const bool zip = container.is_zip();
    const Column* id = RequireColumn(meta, archive, "id", DataType::String(), rep);
    const Column* type = RequireColumn(meta, archive, "type", DataType::String(), rep);
    const Column* offset = nullptr;
    const Column* size = nullptr;
    if (zip) {
      offset = RequireColumn(meta, archive, "internal:offset", DataType::Int64(), rep);
      size = RequireColumn(meta, archive, "internal:size", DataType::Int64(), rep);
      CheckInternalColumns(meta, archive, {"internal:offset", "internal:size"},
                           "only internal:offset, internal:size in a ZIP __meta__", rep);
    } else {
      CheckInternalColumns(meta, archive, {}, "no internal:* columns in a FOLDER __meta__ (FORMAT 2)", rep);
    }

    auto row_where = [&](size_t i) {
      std::string w = archive + " row " + std::to_string(i);
      if (id != nullptr && id->values[i].is<std::string>()) w += " (" + id->values[i].get<std::string>() + ")";
      return w;
    };

    const std::vector<size_t>& kids = tree.children[d][r];
    const std::string next = "level" + std::to_string(d + 1);
    const Table* level = d + 1 < levels.size() ? &levels[d + 1] : nullptr;
    if (meta.num_rows() != kids.size()) {
      rep.Add("meta-consistency", archive, std::to_string(meta.num_rows()) + " rows",
              std::to_string(kids.size()) + " rows (the children of " + tree.Display(d, r) + " in " + next + ")");
    }
    const size_t common = std::min(meta.num_rows(), kids.size());
    if (level != nullptr) {
      for (const char* core : {"id", "type"}) {
        const Column* mine = core[0] == 'i' ? id : type;
        const Column* theirs = FindTyped(*level, core, TypeId::kString);
        if (mine == nullptr || theirs == nullptr) continue;
        for (size_t i = 0; i < common; ++i) {
          const Value& want = theirs->values[kids[i]];
          if (SameValue(mine->values[i], want)) continue;
          rep.Add("meta-consistency", row_where(i), std::string(core) + " " + CellText(mine->values[i]),
                  CellText(want) + " (" + next + " row " + std::to_string(kids[i]) + ")");
        }
      }
      for (const Column& mc : meta.columns) {
        if (IsCoreOrInternal(mc.name)) continue;
        const std::string col_where = archive + " column " + Quoted(mc.name);
        const int li = level->FindColumn(mc.name);
        if (li < 0) {
          rep.Add("level-schema", col_where, "a column of type " + mc.type.ToString(),
                  "no such column (" + next + " has none)");
          continue;
        }
        const Column& lc = level->columns[static_cast<size_t>(li)];
        if (!(lc.type == mc.type)) {
          bool all_null = true;
          for (const Value& v : mc.values) all_null = all_null && v.is_null();
          if (!all_null) {
            rep.Add("level-schema", col_where, mc.type.ToString(), lc.type.ToString() + " (as in " + next + ")");
          }
          continue;
        }
        for (size_t i = 0; i < common; ++i) {
          const Value& want = lc.values[kids[i]];
          if (SameValue(mc.values[i], want)) continue;
          rep.Add("meta-consistency", row_where(i), mc.name + " = " + CellText(mc.values[i]),
                  CellText(want) + " (" + next + " row " + std::to_string(kids[i]) + ")");
        }
      }
      for (const Column& lc : level->columns) {
        if (IsCoreOrInternal(lc.name) || meta.FindColumn(lc.name) >= 0) continue;
        for (size_t k : kids) {
          if (lc.values[k].is_null()) continue;
          rep.Add("meta-consistency", archive, "no column " + Quoted(lc.name),
                  "a column " + Quoted(lc.name) + " (" + next + " has values for these children)");
          break;
        }
      }
    }

    // The members the __meta__ rows refer to.
    if (id == nullptr || type == nullptr) return;
    for (size_t i = 0; i < meta.num_rows(); ++i) {
      const Value& mid = id->values[i];
      const Value& mtype = type->values[i];
      if (!mid.is<std::string>() || !mtype.is<std::string>()) continue;
      const bool folder = mtype.get<std::string>() == kFolder;
      if (!folder && mtype.get<std::string>() != "FILE") continue;
      const std::string member = folder_prefix + mid.get<std::string>() + (folder ? "/__meta__" : "");
      if (!zip) {
        referenced.push_back(member);
        continue;
      }
      CheckRow([&] { return row_where(i); }, member, folder, /*padding=*/false, offset, size, i, meta_hint);
    }
  }

  // The member a level row refers to ("" for rows without a type or path).
  std::string ArchiveOf(size_t d, size_t r) const {
    const std::string& type = tree.type[d][r];
    const std::string& path = tree.path[d][r];
    if (type.empty() || path.empty()) return "";
    const bool folder = type == kFolder;
    std::string archive;
    archive.reserve(5 + path.size() + 1 + 8);
    archive.append("DATA/").append(path);
    if (folder && path.back() != '/') archive += '/';
    if (folder) archive.append("__meta__");
    return archive;
  }

  // Row r of level d (its offset/size columns in a ZIP: `offset`, `size`).
  void CheckLevelRow(size_t d, size_t r, const Column* offset, const Column* size) {
    const std::string& type = tree.type[d][r];
    const std::string& path = tree.path[d][r];
    if (type.empty() || path.empty()) return;
    const bool folder = type == kFolder;
    const std::string archive = ArchiveOf(d, r);
    const bool padding = IsPaddingId(tree.id[d][r]);
    const std::optional<MemberRange> m =
        CheckRow([&] { return tree.Where(d, r); }, archive, folder, padding, offset, size, r, level_hint);
    if (!m) return;
    if (folder) {
      CheckMeta(d, r, archive, *m, archive.substr(0, archive.size() - 8));  // "DATA/<path>/"
    } else if (!padding && container.local()) {
      CheckSampleBytes([&] { return tree.Where(d, r); }, archive, *m);
    }
  }
};

// The findings and referenced members of rows [begin, end) (counted across the levels).
struct Chunk {
  Reporter rep;
  std::vector<std::string> referenced;
  std::vector<size_t> referenced_entries;
};

}  // namespace

// Rows are checked in chunks of kRowsPerChunk on up to hardware_concurrency() threads; each
// chunk collects its findings in a Reporter of its own and they are merged in row order, so
// the report (which violations are listed, their order, the counts) is the one a single
// thread gives, whatever the timing.
void CheckMembers(const Container& container, const std::function<table::Engine&()>& engine,
                  const std::vector<Table>& levels, const Tree& tree, Reporter& rep, References* referenced) {
  if (!container.local()) {
    std::vector<std::string> archives;
    std::vector<size_t> unused;
    MemberChecker probe{container, engine, levels, tree, rep, archives, unused};
    for (size_t d = 0; d < levels.size(); ++d) {
      for (size_t r = 0; r < levels[d].num_rows(); ++r) {
        if (std::string a = probe.ArchiveOf(d, r); !a.empty()) archives.push_back(std::move(a));
      }
    }
    container.Prefetch(archives);
  }
  std::vector<size_t> first_row = {0};  // of each level, counted across levels
  std::vector<const Column*> offsets, sizes;
  for (const Table& level : levels) {
    first_row.push_back(first_row.back() + level.num_rows());
    offsets.push_back(container.is_zip() ? FindTyped(level, "internal:offset", TypeId::kInt64) : nullptr);
    sizes.push_back(container.is_zip() ? FindTyped(level, "internal:size", TypeId::kInt64) : nullptr);
  }
  const size_t rows = first_row.back();
  const size_t chunks = (rows + kRowsPerChunk - 1) / kRowsPerChunk;
  const size_t threads = rows >= kParallelRows ? std::max(1u, std::thread::hardware_concurrency()) : 1;

  auto check_chunk = io::WithCallerGdalConfig([&](size_t c) {
    Chunk out{Reporter(rep.max_per_rule()), {}, {}};
    MemberChecker checker{container, engine, levels, tree, out.rep, out.referenced, out.referenced_entries};
    const size_t begin = c * kRowsPerChunk, end = std::min(rows, begin + kRowsPerChunk);
    size_t d = static_cast<size_t>(std::upper_bound(first_row.begin(), first_row.end(), begin) - first_row.begin()) - 1;
    for (size_t g = begin; g < end; ++g) {
      while (g >= first_row[d + 1]) ++d;
      checker.CheckLevelRow(d, g - first_row[d], offsets[d], sizes[d]);
    }
    return out;
  });
  Status merged = util::OrderedParallel(chunks, threads, 2 * threads, check_chunk, [&](size_t, Chunk chunk) {
    rep.Merge(std::move(chunk.rep));
    referenced->names.insert(std::make_move_iterator(chunk.referenced.begin()),
                             std::make_move_iterator(chunk.referenced.end()));
    for (size_t i : chunk.referenced_entries) referenced->entries[i] = true;
    return Status::OK();
  });
  (void)merged;  // consume never fails
}

void CheckUnreferenced(const Container& container, const References& referenced, Reporter& rep) {
  if (container.is_zip()) {  // Members() without copying the names: first entry of each name, in order
    const auto& zip = static_cast<const ZipContainer&>(container);
    size_t next_duplicate = 0;
    for (size_t i = 0; i < zip.entries().size(); ++i) {
      if (next_duplicate < zip.duplicates().size() && zip.duplicates()[next_duplicate] == i) {
        ++next_duplicate;
        continue;
      }
      const std::string& m = zip.entries()[i].name;
      if (referenced.entries[i] || m == "TACO_HEADER" || m == kCollectionMember || referenced.names.count(m) > 0) {
        continue;
      }
      rep.Add("unreferenced-member", m, "a member that no level or __meta__ row refers to",
              "only the members of the dataset (FORMAT 1.1, 2)");
    }
    return;
  }
  for (const std::string& m : container.Members()) {
    if (m == "TACO_HEADER" || m == kCollectionMember || referenced.names.count(m) > 0) continue;
    rep.Add("unreferenced-member", m,
            std::string("a ") + (container.is_zip() ? "member" : "file") + " that no level or __meta__ row refers to",
            "only the members of the dataset (FORMAT 1.1, 2)");
  }
}

}  // namespace taco::validate
