// zip-header, zip-store, duplicate-member, header-pairs (FORMAT §1.1–§1.3, §12).
#include <string>

#include "format/zip/taco_header.h"
#include "validate/checks.h"

namespace taco::validate {
namespace {

std::string RangeText(uint64_t offset, uint64_t size) {
  return "offset " + std::to_string(offset) + ", length " + std::to_string(size);
}

// The message of `s` without a leading "<name>: ".
std::string WithoutPrefix(const Status& s, const std::string& name) {
  const std::string& m = s.message();
  if (m.rfind(name + ": ", 0) == 0) return m.substr(name.size() + 2);
  return m;
}

}  // namespace

std::string LevelMember(int level) { return "METADATA/level" + std::to_string(level) + ".parquet"; }

ZipHeaderInfo CheckZipStructure(const ZipContainer& zip, Reporter& rep) {
  ZipHeaderInfo info;
  const std::string kWhere = "TACO_HEADER";
  const std::string kExpected = "a 157-byte STORE entry TACO_HEADER at byte 0 (FORMAT 1.2)";
  auto header = zip::ReadTacoHeader(*zip.reader());
  if (!header.ok()) {
    rep.Add("zip-header", kWhere, WithoutPrefix(header.status(), zip.reader()->name()), kExpected);
  } else {
    info.parsed = true;
    for (const auto& e : header->entries) info.pairs.push_back(MemberRange{e.offset, e.length});
    if (header->variant == zip::HeaderVariant::kTacoGhost) {
      rep.Add("zip-header", kWhere, "a TACO_GHOST entry (tacozip 0.4-0.5)", kExpected);
    }
  }
  // The header entry must also be the central directory's entry at local offset 0.
  const zip::ZipEntry* first = zip.entries().empty() ? nullptr : &zip.entries().front();
  if (first == nullptr || (first->name != zip::kTacoHeaderName && first->name != zip::kTacoGhostName) ||
      first->lfh_offset != 0) {
    const std::string found = first == nullptr ? std::string("an empty central directory")
                                               : "first central-directory entry " + Quoted(first->name) +
                                                     " at offset " + std::to_string(first->lfh_offset);
    rep.Add("zip-header", "central directory", found, "TACO_HEADER first, at offset 0");
  } else if (first->uncompressed_size != zip::kTacoHeaderPayloadSize) {
    rep.Add("zip-header", kWhere, std::to_string(first->uncompressed_size) + " bytes of payload",
            std::to_string(zip::kTacoHeaderPayloadSize) + " bytes");
  }

  size_t next_duplicate = 0;
  for (size_t i = 0; i < zip.entries().size(); ++i) {
    const zip::ZipEntry& e = zip.entries()[i];
    if (next_duplicate < zip.duplicates().size() && zip.duplicates()[next_duplicate] == i) {
      ++next_duplicate;
      rep.Add("duplicate-member", e.name, "a second member with this name at offset " + std::to_string(e.lfh_offset),
              "unique member names");
    }
    if (e.method != 0) {
      rep.Add("zip-store", e.name, "compression method " + std::to_string(e.method), "method 0 (STORE)");
    } else if (e.compressed_size != e.uncompressed_size) {
      rep.Add("zip-store", e.name,
              "compressed size " + std::to_string(e.compressed_size) + ", size " + std::to_string(e.uncompressed_size),
              "equal sizes (STORE)");
    }
  }
  return info;
}

void CheckHeaderPairs(const ZipContainer& zip, const ZipHeaderInfo& header, int level_members, Reporter& rep) {
  if (!header.parsed) return;
  std::vector<std::pair<std::string, MemberRange>> want;
  for (int i = 0; i < level_members; ++i) {
    if (auto m = zip.Find(LevelMember(i))) want.emplace_back(LevelMember(i), *m);
  }
  const std::string collection(kCollectionMember);
  if (auto m = zip.Find(collection)) want.emplace_back(collection, *m);

  if (header.pairs.size() != want.size()) {
    rep.Add("header-pairs", "TACO_HEADER count", std::to_string(header.pairs.size()) + " pairs",
            std::to_string(want.size()) + " pairs (" + std::to_string(level_members) +
                " METADATA/level*.parquet + COLLECTION.json)");
  }
  for (size_t i = 0; i < header.pairs.size() && i < want.size(); ++i) {
    const MemberRange& got = header.pairs[i];
    if (got == want[i].second) continue;
    rep.Add("header-pairs", "TACO_HEADER pair " + std::to_string(i) + " (" + want[i].first + ")",
            RangeText(got.offset, got.size),
            RangeText(want[i].second.offset, want[i].second.size) + " (data of " + want[i].first + ")");
  }
}

}  // namespace taco::validate
