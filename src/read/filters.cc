// filter_bbox / filter_datetime and their cascade to level 0 (FORMAT §6.5–§6.7). Every
// filtered view, at every level, gives its rows in its source's order (read/source_order.h).
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "read/dataset_state.h"
#include "read/datetime_range.h"
#include "read/source_order.h"
#include "table/engine.h"
#include "table/wkb_functions.h"
#include "taco/dataset.h"

namespace taco {

using table::QuoteIdentifier;
using table::QuoteString;

namespace {

constexpr const char* kColumnPlaceholder = "$COLUMN$";

std::string Number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.17g", v);
  return buf;
}

std::string LevelName(int level) { return "level " + std::to_string(level); }

// In a concat, which parts' level `level` has none of `candidates` (their paths, joined): a
// concat keeps only the columns every part has (column_mode "intersection", also a
// TACOLLECTION's), so one part without the column hides it from all. "" when not a concat or
// every part has one (the column is then missing for another reason).
std::string PartsWithout(const Dataset::State& s, int level, const std::vector<std::string>& candidates) {
  if (!s.concatenated) return "";
  std::string without;
  size_t count = 0;
  for (size_t i = 0; i < s.part_level_files.size() && i < s.part_paths.size(); ++i) {
    const std::vector<std::string>& files = s.part_level_files[i];
    if (static_cast<size_t>(level) >= files.size() || files[static_cast<size_t>(level)].empty()) continue;
    auto none =
        s.engine->Query("SELECT * FROM read_parquet(" + QuoteString(files[static_cast<size_t>(level)]) + ") LIMIT 0");
    if (!none.ok()) continue;
    bool has = false;
    for (const auto& name : candidates) has = has || none->FindColumn(name) >= 0;
    if (has) continue;
    if (++count <= 4) without += (without.empty() ? "" : ", ") + s.part_paths[i];
  }
  if (count > 4) without += ", ... " + std::to_string(count - 4) + " more";
  return without;
}

// The column to filter on: `requested`, or the first of `candidates` present when "auto".
Result<Column> PickColumn(const Dataset::State& s, const std::vector<Column>& columns, const std::string& requested,
                          const std::vector<std::string>& candidates, const std::string& kind, int level) {
  if (requested == "auto") {
    for (const auto& name : candidates) {
      for (const auto& c : columns) {
        if (c.name == name) return c;
      }
    }
    std::string looked;
    for (const auto& name : candidates) looked += (looked.empty() ? "" : ", ") + name;
    if (std::string without = PartsWithout(s, level, candidates); !without.empty()) {
      return s.Error("No " + kind + " column found in " + LevelName(level) + ": the part(s) " + without +
                     " have none of " + looked + ", and a concatenation keeps only the columns every part has (" +
                     kind + " filters need every part to have one; filter the parts that have it)");
    }
    return s.Error("No " + kind + " column found in " + LevelName(level) + " (looked for " + looked +
                   "; columns: " + JoinColumnNames(columns) + ")");
  }
  for (const auto& c : columns) {
    if (c.name == requested) return c;
  }
  if (std::string without = PartsWithout(s, level, {requested}); !without.empty()) {
    return s.Error("Column '" + requested + "' not found in " + LevelName(level) + ": the part(s) " + without +
                   " do not have it, and a concatenation keeps only the columns every part has");
  }
  return s.Error("Column '" + requested + "' not found in " + LevelName(level) +
                 " (columns: " + JoinColumnNames(columns) + ")");
}

std::string JoinOn(const Dataset::State& s, const std::string& child, const std::string& parent) {
  std::string on = child + "." + QuoteIdentifier(kParentId) + " = " + parent + "." + QuoteIdentifier(kCurrentId);
  if (s.layout->ids_local_to_source_file()) {
    on += " AND " + child + "." + QuoteIdentifier(kSourceFile) + " = " + parent + "." + QuoteIdentifier(kSourceFile);
  }
  if (s.concatenated) {
    on += " AND " + child + "." + QuoteIdentifier(kSourcePart) + " = " + parent + "." + QuoteIdentifier(kSourcePart);
  }
  return on;
}

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  for (size_t pos = text.find(from); pos != std::string::npos; pos = text.find(from, pos + to.size())) {
    text.replace(pos, from.size(), to);
  }
  return text;
}

}  // namespace

// The relation whose rows a filter at `level` starts from.
static std::string BaseRelation(const Frame::Context& ctx, const std::string& view, int level) {
  if (level == 0) return view;
  auto it = ctx.filtered.find(level);
  return it != ctx.filtered.end() ? it->second : "level" + std::to_string(level);
}

Result<std::unique_ptr<Dataset>> Dataset::CascadeFilter(const std::string& what, const std::string& column,
                                                        const std::string& predicate_template, int level) const {
  const std::string predicate = Replace(predicate_template, kColumnPlaceholder, QuoteIdentifier(column));
  if (level == 0) return Derive("SELECT * FROM " + view_ + " WHERE " + predicate, context_);

  auto context = std::make_shared<Frame::Context>(*context_);
  const std::string child_name = state_->NewName("filtered_" + std::to_string(level));
  Status st = state_->engine->Execute("CREATE TEMP VIEW " + child_name + " AS SELECT * FROM " +
                                      BaseRelation(*context_, view_, level) + " WHERE " + predicate);
  if (!st.ok()) return state_->Prefixed(st.WithPrefix(what));
  context->filtered[level] = child_name;
  std::string child = child_name;
  for (int lvl = level - 1; lvl >= 1; --lvl) {
    const std::string name = state_->NewName("filtered_" + std::to_string(lvl));
    st = state_->engine->Execute(
        "CREATE TEMP VIEW " + name + " AS " +
        read::KeepSourceOrder(BaseRelation(*context_, view_, lvl), "p",
                              "EXISTS (SELECT 1 FROM " + child + " c WHERE " + JoinOn(*state_, "c", "p") + ")"));
    if (!st.ok()) return state_->Prefixed(st.WithPrefix(what));
    context->filtered[lvl] = name;
    child = name;
  }
  // Level 0 is the current view; a view that dropped internal:current_id is matched to the
  // stored level0 rows through internal:gdal_vsi (unique per sample).
  TACO_ASSIGN_OR_RETURN(std::vector<Column> columns, state_->ColumnsOf(view_));
  const std::string exists = "EXISTS (SELECT 1 FROM " + child + " c WHERE " + JoinOn(*state_, "c", "p") + ")";
  std::string sql;
  if (HasColumn(columns, kCurrentId) &&
      (!state_->layout->ids_local_to_source_file() || HasColumn(columns, kSourceFile)) &&
      (!state_->concatenated || HasColumn(columns, kSourcePart))) {
    sql = read::KeepSourceOrder(view_, "p", exists);
  } else if (HasColumn(columns, kGdalVsi)) {
    const std::string vsi = QuoteIdentifier(kGdalVsi);
    sql =
        read::KeepSourceOrder(view_, "v", "v." + vsi + " IN (SELECT p." + vsi + " FROM level0 p WHERE " + exists + ")");
  } else {
    return state_->Error(what + ": a filter on level " + std::to_string(level) +
                         " needs internal:current_id or internal:gdal_vsi in the current view (select from "
                         "data_raw to keep them)");
  }
  return Derive(sql, std::move(context));
}

Result<std::unique_ptr<Dataset>> Dataset::FilterBbox(double min_x, double min_y, double max_x, double max_y,
                                                     const std::string& geometry_col, int level) const {
  const std::string what = "filter_bbox";
  for (double v : {min_x, min_y, max_x, max_y}) {
    if (!std::isfinite(v)) return state_->Error(what + ": bbox coordinates must be finite numbers");
  }
  if (min_x > max_x || min_y > max_y) {
    return state_->Error(what + ": bbox must be minx,miny,maxx,maxy with minx <= maxx and miny <= maxy");
  }
  TACO_RETURN_IF_ERROR(state_->CheckLevel(level));
  TACO_ASSIGN_OR_RETURN(std::vector<Column> columns, state_->ColumnsOf(BaseRelation(*context_, view_, level)));
  TACO_ASSIGN_OR_RETURN(
      Column column, PickColumn(*state_, columns, geometry_col, {"istac:geometry", "stac:centroid", "istac:centroid"},
                                "geometry", level));
  if (column.type.id != TypeId::kBinary) {
    return state_->Error(what + ": column '" + column.name + "' is " + column.type.ToString() +
                         ", not a WKB binary geometry");
  }
  const std::string predicate = std::string(table::kWkbIntersectsBox) + "(" + kColumnPlaceholder + ", " +
                                Number(min_x) + ", " + Number(min_y) + ", " + Number(max_x) + ", " + Number(max_y) +
                                ")";
  return CascadeFilter(what, column.name, predicate, level);
}

Result<std::unique_ptr<Dataset>> Dataset::FilterDatetime(const std::string& range, const std::string& time_col,
                                                         int level) const {
  const std::string what = "filter_datetime";
  auto parsed = read::ParseDateRange(range);
  if (!parsed.ok()) return state_->Prefixed(parsed.status());
  TACO_RETURN_IF_ERROR(state_->CheckLevel(level));
  TACO_ASSIGN_OR_RETURN(std::vector<Column> columns, state_->ColumnsOf(BaseRelation(*context_, view_, level)));
  TACO_ASSIGN_OR_RETURN(Column column,
                        PickColumn(*state_, columns, time_col, {"istac:time_start", "stac:time_start"}, "time", level));
  if (column.type.id != TypeId::kTimestampUs && column.type.id != TypeId::kString) {
    return state_->Error(what + ": column '" + column.name + "' is " + column.type.ToString() +
                         ", not a timestamp, date or ISO-8601 string");
  }
  // Instants compared as instants (the engine's time zone is UTC: naive values are UTC;
  // strings with an offset are converted).
  const std::string value = std::string("TRY_CAST(") + kColumnPlaceholder + " AS TIMESTAMPTZ)";
  std::string predicate;
  if (parsed->start_us) predicate = value + " >= TIMESTAMPTZ " + QuoteString(read::FormatUtcInstant(*parsed->start_us));
  if (parsed->end_us) {
    predicate += (predicate.empty() ? "" : " AND ") + value + " <= TIMESTAMPTZ " +
                 QuoteString(read::FormatUtcInstant(*parsed->end_us));
  }
  return CascadeFilter(what, column.name, predicate, level);
}

}  // namespace taco
