// The rows of a whole dataset's `data` / `data_raw` without the SQL engine (issue 28): level 0
// decoded by the engine-free Parquet reader (table/parquet_reader.h), padding dropped and
// `internal:gdal_vsi` computed as the level views compute it (views.cc), for local ZIP and
// FOLDER datasets in the common case. Anything unusual — a remote dataset, a level the
// reader leaves to the engine, an annotated type, a missing column, a null id/type/range, an
// id or range the guards would refuse — returns nullopt, and the caller asks the engine,
// whose answer (or error) is then exactly the one it always gave.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "read/dataset_state.h"
#include "read/member_resolver.h"
#include "read/path_safety.h"
#include "table/parquet_reader.h"

namespace taco {
namespace {

bool IsHidden(std::string_view name) {
  return name.substr(0, kInternalPrefix.size()) == kInternalPrefix && name != kGdalVsi;
}

const std::string* StringAt(const Table& t, int column, size_t row) {
  if (column < 0) return nullptr;
  const Value& v = t.columns[static_cast<size_t>(column)].values[row];
  return v.is<std::string>() ? &v.get<std::string>() : nullptr;
}

const int64_t* Int64At(const Table& t, int column, size_t row) {
  if (column < 0) return nullptr;
  const Value& v = t.columns[static_cast<size_t>(column)].values[row];
  return v.is<int64_t>() ? &v.get<int64_t>() : nullptr;
}

}  // namespace

Result<std::optional<Table>> DirectLevelRows(Dataset::State& s, bool raw) {
  const std::optional<Table> none;
  if (!s.layout->levels_are_stored_parquets() || s.concatenated ||
      s.RootDecodesUrlEscapes()) {  // the URL id checks are the views'
    return none;
  }
  const bool zip = s.layout->samples_are_zip_members();  // a ZIP (TACOCAT levels are not stored parquets)
  if (zip && s.container == nullptr) return none;
  if (s.level_footers.empty() || !s.level_footers[0] || !s.level_footers[0]->plain_types) return none;
  if (s.level_readers.empty() || !s.level_readers[0]) return none;
  const RangeReaderPtr& reader = s.level_readers[0];
  if (reader->size() > table::kMaxDecodedParquetBytes) return none;
  TACO_ASSIGN_OR_RETURN(std::string bytes, reader->ReadAll());
  std::optional<Table> decoded = table::DecodeParquet(bytes);
  if (!decoded) return none;
  const Table& level = *decoded;
  const int id = level.FindColumn("id"), type = level.FindColumn("type");
  const int offset = level.FindColumn("internal:offset"), size = level.FindColumn("internal:size");
  if (id < 0 || type < 0 || (zip && (offset < 0 || size < 0))) return none;
  if (level.FindColumn(std::string(kGdalVsi)) >= 0) return none;  // the view would hold it twice

  std::shared_ptr<read::MemberResolver> members;
  if (zip) {
    std::lock_guard<std::mutex> lock(s.members_mu);
    if (!s.members) s.members = std::make_shared<read::MemberResolver>(s.path, s.container);
    members = s.members;
  }
  const size_t rows = level.num_rows();
  std::vector<size_t> kept;
  std::vector<Value> vsi, offsets, sizes;
  kept.reserve(rows);
  vsi.reserve(rows);
  std::string range;
  for (size_t r = 0; r < rows; ++r) {
    const std::string* sample = StringAt(level, id, r);
    const std::string* kind = StringAt(level, type, r);
    if (sample == nullptr || kind == nullptr) return none;
    if (sample->compare(0, kPaddingPrefix.size(), kPaddingPrefix) == 0) continue;  // FORMAT §3.5
    if (!read::StoredIdProblem(*sample, false).empty()) return none;
    kept.push_back(r);
    if (zip) {
      const int64_t* at = Int64At(level, offset, r);
      const int64_t* length = Int64At(level, size, r);
      if (at == nullptr || length == nullptr) return none;
      const std::string archive = "DATA/" + *sample + (*kind == "FOLDER" ? "/__meta__" : "");
      range.clear();
      if (!members->Resolve(*at, *length, archive, "", *sample, &range).empty()) return none;
      const size_t cut = range.find('_');
      if (cut == std::string::npos) return none;
      vsi.emplace_back("/vsisubfile/" + range + "," + s.vsi_root);
      offsets.emplace_back(static_cast<int64_t>(std::stoll(range.substr(0, cut))));
      sizes.emplace_back(static_cast<int64_t>(std::stoll(range.substr(cut + 1))));
    } else if (*kind == "FILE") {
      vsi.emplace_back(s.vsi_root + "/DATA/" + *sample);
    } else if (*kind == "FOLDER") {
      vsi.emplace_back(s.vsi_root + "/DATA/" + *sample + "/__meta__");
    } else {
      vsi.emplace_back();
    }
  }

  Table out;
  for (size_t c = 0; c < level.columns.size(); ++c) {
    const Column& column = level.columns[c];
    if (!raw && IsHidden(column.name)) continue;
    Column copy{column.name, column.type, {}};
    if (zip && raw && static_cast<int>(c) == offset) {
      copy.type = DataType::Int64();
      copy.values = offsets;
    } else if (zip && raw && static_cast<int>(c) == size) {
      copy.type = DataType::Int64();
      copy.values = sizes;
    } else {
      copy.values.reserve(kept.size());
      for (size_t r : kept) copy.values.push_back(column.values[r]);
    }
    out.columns.push_back(std::move(copy));
  }
  out.columns.push_back(Column{std::string(kGdalVsi), DataType::String(), std::move(vsi)});
  return std::optional<Table>(std::move(out));
}

}  // namespace taco
