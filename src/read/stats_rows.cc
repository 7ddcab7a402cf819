// The rows a statistics query selects (taco/stats.h "Which rows"): one SQL query over the
// view and the stored levels, then the stats cells parsed and their shape checked.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "read/stats_internal.h"
#include "table/engine.h"
#include "taco/cancel.h"

namespace taco::read {

using table::QuoteIdentifier;
using table::QuoteString;

namespace {

constexpr const char* kStatsColumns[] = {"geotiff:stats", "internal:stats"};
constexpr const char* kWeightColumn = "stac:tensor_shape";
constexpr const char* kPathColumn = "internal:gdal_vsi";
constexpr const char* kSourceColumns[] = {"internal:source_path", "internal:source_part", "internal:source_file"};

Result<std::vector<std::string>> ColumnsOf(Dataset& ds, const std::string& relation) {
  auto t = ds.QueryRaw("SELECT * FROM " + relation + " LIMIT 0");
  if (!t.ok()) return t.status().WithPrefix(ds.path());
  std::vector<std::string> names;
  for (const auto& c : t->columns) names.push_back(c.name);
  return names;
}

bool Contains(const std::vector<std::string>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::vector<std::string> sorted = names;
  std::sort(sorted.begin(), sorted.end());
  std::string out;
  for (const auto& n : sorted) out += (out.empty() ? "" : ", ") + n;
  return out;
}

bool ToDouble(const Value& v, double* out) {
  if (v.is<float>())
    *out = v.get<float>();
  else if (v.is<double>())
    *out = v.get<double>();
  else if (v.is<int32_t>())
    *out = v.get<int32_t>();
  else if (v.is<int64_t>())
    *out = static_cast<double>(v.get<int64_t>());
  else
    return false;
  return true;
}

// H·W from stac:tensor_shape, or nullopt.
std::optional<double> PixelsOf(const Value& shape) {
  if (!shape.is<ValueList>()) return std::nullopt;
  const ValueList& dims = shape.get<ValueList>();
  if (dims.size() < 2) return std::nullopt;
  double h = 0, w = 0;
  if (!ToDouble(dims[dims.size() - 2], &h) || !ToDouble(dims[dims.size() - 1], &w)) return std::nullopt;
  return h * w;
}

std::string RelationOf(const Dataset& ds, int level) {
  return level == 0 ? ds.view_name() : "level" + std::to_string(level);
}

Status Validate(const Dataset& ds, const StatsQuery& q) {
  if (q.level < 0 || q.level >= ds.num_levels()) {
    return Status::NotFound(ds.path() + ": Level " + std::to_string(q.level) +
                            " does not exist (available levels: 0 to " + std::to_string(ds.num_levels() - 1) + ")");
  }
  if (q.level > 0 && !q.id && !q.file) {
    return Status::InvalidArgument(ds.path() + ": id is required for level > 0 (level " + std::to_string(q.level) +
                                   " may differ between branches; name the level-" + std::to_string(q.level - 1) +
                                   " sample whose children to aggregate, or a file name (--file) to aggregate "
                                   "that child of every sample)");
  }
  if (q.level == 0 && q.file) {
    return Status::InvalidArgument(ds.path() + ": a file name (--file) needs a level > 0 (the level of the file)");
  }
  if (q.bands.empty()) return Status::InvalidArgument(ds.path() + ": no band given");
  return Status::OK();
}

std::string JoinOn(const std::string& child, const std::vector<std::string>& child_columns, const std::string& parent,
                   const std::vector<std::string>& parent_columns) {
  std::string on = child + "." + QuoteIdentifier("internal:parent_id") + " = " + parent + "." +
                   QuoteIdentifier("internal:current_id");
  // Ids are per source file: concat and TACOCAT rows must also come from the same source.
  for (const char* source : kSourceColumns) {
    if (Contains(child_columns, source) && Contains(parent_columns, source)) {
      on += " AND " + child + "." + QuoteIdentifier(source) + " = " + parent + "." + QuoteIdentifier(source);
    }
  }
  return on;
}

Status NeedJoinColumns(const Dataset& ds, const StatsQuery& q, int level, const std::vector<std::string>& columns,
                       const std::vector<const char*>& needed) {
  for (const char* name : needed) {
    if (!Contains(columns, name)) {
      return Status::InvalidArgument(ds.path() + ": stats at level " + std::to_string(q.level) + " need column '" +
                                     name + "' at level " + std::to_string(level) +
                                     " (select from data_raw to keep it)");
    }
  }
  return Status::OK();
}

// The view as a relation with `internal:current_id` and the source columns of the stored
// level0: the view itself when it kept them, else, when a query dropped some (`SELECT * FROM
// data`), the view joined with the stored level0 on id (ids are unique at level 0 of one
// dataset) — for concat/TACOCAT, whose ids repeat per source, on `internal:gdal_vsi` (kept by
// `data`; one path per row: its own member or folder of its own source; a concat given one
// source twice has each path twice, with the same children: one stored row per path is taken).
Result<std::string> ViewWithIds(Dataset& ds) {
  TACO_ASSIGN_OR_RETURN(std::vector<std::string> columns, ColumnsOf(ds, ds.view_name()));
  if (!Contains(columns, "id")) return ds.view_name();
  TACO_ASSIGN_OR_RETURN(std::vector<std::string> stored, ColumnsOf(ds, "level0"));
  if (!Contains(stored, "internal:current_id") || !Contains(stored, "id")) return ds.view_name();
  std::string keep;  // the stored columns the view dropped that the joins use
  for (const char* name :
       {"internal:current_id", "internal:source_path", "internal:source_part", "internal:source_file"}) {
    if (Contains(stored, name) && !Contains(columns, name)) keep += ", s." + QuoteIdentifier(name);
  }
  if (keep.empty()) return ds.view_name();
  std::string key = "id";
  for (const char* source : kSourceColumns) {
    if (Contains(stored, source)) key = "internal:gdal_vsi";
  }
  if (key != "id" && (!Contains(columns, key) || !Contains(stored, key))) return ds.view_name();
  const std::string k = QuoteIdentifier(key);
  return "(SELECT v.*" + keep + " FROM " + ds.view_name() + " v JOIN (SELECT DISTINCT ON (" + k +
         ") * FROM level0) s ON v." + k + " = s." + k + ")";
}

struct Plan {
  std::string sql;  // SELECT stats, shape, path, type, id, member (the archive path when known)
  bool has_stats = false;
  std::string stats_column;
  std::vector<std::string> columns;  // of the aggregated level
};

Result<Plan> StatsSql(Dataset& ds, const StatsQuery& q, bool need_stats) {
  Plan plan;
  const std::string relation = RelationOf(ds, q.level);
  TACO_ASSIGN_OR_RETURN(plan.columns, ColumnsOf(ds, relation));
  for (const char* candidate : kStatsColumns) {
    if (Contains(plan.columns, candidate)) {
      plan.stats_column = candidate;
      break;
    }
  }
  plan.has_stats = !plan.stats_column.empty();
  if (!plan.has_stats && need_stats) {
    return Status::InvalidArgument(ds.path() + ": Level " + std::to_string(q.level) +
                                   " does not contain statistics (expected one of: geotiff:stats, internal:stats; "
                                   "columns: " +
                                   JoinNames(plan.columns) + ")");
  }
  const std::string a = q.level == 0 ? "t" : "p" + std::to_string(q.level);  // alias of the aggregated level
  auto col = [&](const char* name) {
    return Contains(plan.columns, name) ? a + "." + QuoteIdentifier(name) : std::string("NULL");
  };
  const std::string base = "SELECT " + (plan.has_stats ? a + "." + QuoteIdentifier(plan.stats_column) : "NULL") + ", " +
                           col(kWeightColumn) + ", " + col(kPathColumn) + ", " + col("type") + ", " + col("id");
  // The archive path of the aggregated rows, from the ids of the levels joined above them
  // (`aliases`: p0 .. p<level-1> when all are joined), else NULL (only the id is known).
  auto with_member = [&](const std::vector<std::string>& aliases) {
    if (!Contains(plan.columns, "id") || static_cast<int>(aliases.size()) != q.level) return base + ", NULL";
    std::string path = "'DATA/'";
    for (const std::string& p : aliases) path += " || " + p + ".id || '/'";
    return base + ", " + path + " || " + a + ".id";
  };
  if (q.level == 0) {
    // Rows of the view are level-0 rows only when it reads nothing deeper.
    plan.sql = (ds.view_name() == "data_raw" ? with_member({}) : base + ", NULL") + " FROM " + relation + " t";
    return plan;
  }
  std::string parent = RelationOf(ds, q.level - 1);
  if (q.level == 1) {
    TACO_ASSIGN_OR_RETURN(parent, ViewWithIds(ds));
  }
  TACO_ASSIGN_OR_RETURN(std::vector<std::string> parent_columns, ColumnsOf(ds, parent));
  if (q.id) {
    TACO_RETURN_IF_ERROR(NeedJoinColumns(ds, q, q.level - 1, parent_columns, {"id", "internal:current_id"}));
    TACO_ASSIGN_OR_RETURN(Table found,
                          ds.QueryRaw("SELECT count(*) FROM " + parent + " WHERE id = " + QuoteString(*q.id)));
    if (found.num_rows() != 1 || !found.columns[0].values[0].is<int64_t>() ||
        found.columns[0].values[0].get<int64_t>() == 0) {
      return Status::NotFound(ds.path() + ": no sample with id '" + *q.id + "' at level " +
                              std::to_string(q.level - 1));
    }
  }
  if (!q.file) {
    // The children of the row(s) `id` one level up (level 0: the view; deeper: stored).
    const std::string p = "p" + std::to_string(q.level - 1);
    const std::vector<std::string> joined = q.level == 1 ? std::vector<std::string>{p} : std::vector<std::string>{};
    plan.sql = with_member(joined) + " FROM " + relation + " " + a + " JOIN " + parent + " " + p + " ON " +
               JoinOn(a, plan.columns, p, parent_columns) + " WHERE " + p + ".id = " + QuoteString(*q.id);
    return plan;
  }
  // `file` under every row of the view: join the view down level by level.
  TACO_ASSIGN_OR_RETURN(const std::string view, ViewWithIds(ds));
  std::string from = view + " p0";
  TACO_ASSIGN_OR_RETURN(std::vector<std::string> upper, ColumnsOf(ds, view));
  for (int level = 1; level <= q.level; ++level) {
    TACO_RETURN_IF_ERROR(NeedJoinColumns(ds, q, level - 1, upper, {"internal:current_id"}));
    std::vector<std::string> lower;
    if (level == q.level) {
      lower = plan.columns;
    } else {
      TACO_ASSIGN_OR_RETURN(lower, ColumnsOf(ds, RelationOf(ds, level)));
    }
    TACO_RETURN_IF_ERROR(NeedJoinColumns(ds, q, level, lower, {"id", "internal:parent_id"}));
    const std::string c = "p" + std::to_string(level);
    from +=
        " JOIN " + RelationOf(ds, level) + " " + c + " ON " + JoinOn(c, lower, "p" + std::to_string(level - 1), upper);
    upper = std::move(lower);
  }
  std::vector<std::string> chain;
  for (int level = 0; level < q.level; ++level) chain.push_back("p" + std::to_string(level));
  plan.sql = with_member(chain) + " FROM " + from + " WHERE " + a + ".id = " + QuoteString(*q.file);
  if (q.id) plan.sql += " AND p" + std::to_string(q.level - 1) + ".id = " + QuoteString(*q.id);
  return plan;
}

// What to do about rows whose statistics differ in shape: widths of 9 are continuous
// statistics, others class probabilities (include/taco/stats.h).
std::string RaggedHint(const StatsQuery& q, size_t width_a, size_t width_b) {
  constexpr size_t kContinuous = 9;
  if ((width_a == kContinuous) != (width_b == kContinuous)) {
    return " (mixed continuous/categorical" +
           std::string(q.level > 0 && !q.file ? "; choose one child file with --file NAME (Python: file=))" : ")");
  }
  if (width_a != kContinuous && width_b != kContinuous) {
    return " (categorical files with different class lists: write them with one class list, "
           "`taco create --classes V,V,...`)";
  }
  return "";
}

// A NaN or infinite statistic cannot be aggregated (the writer never stores one): refused,
// naming the sample, band and value, instead of propagating (or looping on) it.
Status CheckFinite(const std::string& where, const Value& id, const std::vector<std::vector<double>>& bands) {
  for (size_t b = 0; b < bands.size(); ++b) {
    for (size_t i = 0; i < bands[b].size(); ++i) {
      const double v = bands[b][i];
      if (std::isfinite(v)) continue;
      const std::string sample = id.is<std::string>() ? "'" + id.get<std::string>() + "'" : "(no id)";
      const std::string what = std::isnan(v) ? "NaN or null" : (v > 0 ? "+inf" : "-inf");
      return Status::InvalidArgument(where + ": sample " + sample + " band " + std::to_string(b) + " value " +
                                     std::to_string(i) + " of its statistics is " + what +
                                     "; statistics must be finite (taco validate reports such rows)");
    }
  }
  return Status::OK();
}

}  // namespace

std::string StatsWhere(const Dataset& ds, const StatsQuery& q) {
  std::string where = ds.path() + ": level " + std::to_string(q.level);
  if (q.level > 0 && q.id) where += " under '" + *q.id + "'";
  if (q.level > 0 && q.file) where += " file '" + *q.file + "'";
  return where;
}

Result<StatsRows> FetchStatsRows(Dataset& ds, const StatsQuery& q, bool need_stats) {
  TACO_RETURN_IF_ERROR(Validate(ds, q));
  TACO_ASSIGN_OR_RETURN(Plan plan, StatsSql(ds, q, need_stats));
  auto table = ds.QueryRaw(plan.sql);
  if (!table.ok()) return table.status().WithPrefix(ds.path());
  StatsRows out;
  const std::string where = StatsWhere(ds, q);
  const Column& stats = table->columns.at(0);
  const Column& shapes = table->columns.at(1);
  const Column& paths = table->columns.at(2);
  const Column& types = table->columns.at(3);
  const Column& ids = table->columns.at(4);
  const Column& members = table->columns.at(5);
  auto add_path = [&](size_t r) {
    out.gdal_paths.push_back(paths.values[r].get<std::string>());
    if (members.values[r].is<std::string>()) {
      out.members.push_back(members.values[r].get<std::string>());
    } else if (ids.values[r].is<std::string>()) {
      out.members.push_back("/" + ids.values[r].get<std::string>());
    } else {
      out.members.emplace_back();  // nothing known: not checked
    }
  };
  for (size_t r = 0; r < table->num_rows(); ++r) {
    if (CancelRequested()) return Cancelled(where);
    const Value& cell = stats.values[r];
    const bool is_file = !types.values[r].is<std::string>() || types.values[r].get<std::string>() == "FILE";
    if (!plan.has_stats) {
      if (is_file && paths.values[r].is<std::string>()) add_path(r);
      continue;
    }
    if (!cell.is<ValueList>() || cell.get<ValueList>().empty()) continue;  // null/empty: dropped
    std::vector<std::vector<double>> bands;
    for (const Value& band : cell.get<ValueList>()) {
      std::vector<double> values;
      if (band.is<ValueList>()) {
        for (const Value& v : band.get<ValueList>()) {
          double d = std::numeric_limits<double>::quiet_NaN();
          if (!v.is_null() && !ToDouble(v, &d)) {
            return Status::InvalidArgument(where + ": statistics hold a non-numeric value");
          }
          values.push_back(d);
        }
      }
      bands.push_back(std::move(values));
    }
    TACO_RETURN_IF_ERROR(CheckFinite(where, ids.values[r], bands));
    if (out.rows.empty()) {
      out.bands = bands.size();
      out.width = bands.front().size();
    }
    size_t width = out.width;
    for (const auto& band : bands) {
      if (band.size() != out.width) width = band.size();
    }
    if (bands.size() != out.bands || width != out.width) {
      return Status::InvalidArgument(where + ": statistics are ragged: one row has " + std::to_string(out.bands) +
                                     " bands of " + std::to_string(out.width) + " values, another " +
                                     std::to_string(bands.size()) + " bands of " + std::to_string(width) +
                                     " values; cannot aggregate them" + RaggedHint(q, out.width, width));
    }
    out.rows.push_back(std::move(bands));
    const std::optional<double> pixels = PixelsOf(shapes.values[r]);
    out.pixels.push_back(pixels.value_or(1.0));
    out.pixels_known.push_back(pixels.has_value());
    if (is_file && paths.values[r].is<std::string>()) {
      add_path(r);
    } else {
      ++out.rows_without_path;
    }
  }
  if (need_stats && out.rows.empty()) {
    return Status::InvalidArgument(where + ": no rows with statistics to aggregate");
  }
  if (!need_stats && out.gdal_paths.empty()) {
    return Status::InvalidArgument(where + ": no FILE samples to read");
  }
  if (!out.rows.empty()) {
    for (int b : q.bands) {
      if (b < 0 || static_cast<size_t>(b) >= out.bands) {
        return Status::InvalidArgument(ds.path() + ": Band " + std::to_string(b) +
                                       " out of range (available bands: 0 to " + std::to_string(out.bands - 1) + ")");
      }
    }
  }
  return out;
}

}  // namespace taco::read
