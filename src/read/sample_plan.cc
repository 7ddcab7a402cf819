// SamplePlan::Build (taco/sample_loader.h): where each requested FILE of each level-0 row of
// a view lives, from one query over the view's `files` (Dataset::Files()).
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gdal/sample_raster.h"
#include "taco/io.h"
#include "taco/sample_loader.h"

namespace taco {
namespace {

constexpr const char* kRowColumn = "taco:plan_row";

const Column* FindColumn(const Table& t, std::string_view name) {
  const int c = t.FindColumn(name);
  return c < 0 ? nullptr : &t.columns[static_cast<size_t>(c)];
}

std::string Text(const Value& v) { return v.is<std::string>() ? v.get<std::string>() : std::string(); }

int64_t Integer(const Value& v) {
  if (v.is<int64_t>()) return v.get<int64_t>();
  if (v.is<int32_t>()) return v.get<int32_t>();
  return -1;
}

std::string Quoted(const std::string& s) { return "'" + s + "'"; }

std::string Sample(const std::string& dataset, const std::string& id, size_t row) {
  return dataset + ": sample " + Quoted(id) + " (row " + std::to_string(row) + ")";
}

// Up to 8 names of `names`, comma-separated, "..." after.
std::string Listed(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size() && i < 8; ++i) out += (i ? ", " : "") + names[i];
  if (names.size() > 8) out += ", ...";
  return out.empty() ? "none" : out;
}

class Builder {
 public:
  Builder(const Dataset& view, std::vector<std::string> files) : view_(view), files_(std::move(files)) {}

  std::vector<std::string> ids;
  std::vector<std::string> containers;
  std::vector<SamplePlan::Location> locations;

  Status Run() {
    for (size_t i = 0; i < files_.size(); ++i) {
      const std::string& f = files_[i];
      if (f.empty() || f.front() == '/' || f.back() == '/' || f.find("//") != std::string::npos) {
        return Status::InvalidArgument(view_.path() + ": file name '" + f +
                                       "' is not a path of ids below a sample ('image.tif', 'sensor_A/band_R')");
      }
      for (size_t j = 0; j < i; ++j) {
        if (files_[j] == f) return Status::InvalidArgument(view_.path() + ": file name '" + f + "' is given twice");
      }
    }
    // The plan's own queries read id and type of every row: a view without them is the
    // user's to fix, said in the user's terms (not as a failing internal query).
    TACO_ASSIGN_OR_RETURN(std::vector<std::string> columns, view_.Columns());
    for (const char* needed : {"id", "type"}) {
      bool has = false;
      for (const auto& c : columns) has = has || c == needed;
      if (!has) {
        return Status::InvalidArgument(view_.path() + ": the view has no column '" + needed +
                                       "', which the sample loader needs for every row (keep id and type, e.g. "
                                       "SELECT * FROM data WHERE ..., or SELECT id, type, ... FROM data)");
      }
    }
    return files_.empty() ? Flat() : Nested();
  }

 private:
  // Records where `gdal_path` is: inside a ZIP container (checked by `member` when not empty)
  // or a plain GDAL path.
  SamplePlan::Location Locate(const std::string& gdal_path, std::string member, std::vector<std::string>* containers) {
    SamplePlan::Location loc;
    if (auto sub = ParseVsiSubfile(gdal_path)) {
      auto [it, added] = container_index_.emplace(sub->root, static_cast<int32_t>(containers->size()));
      if (added) containers->push_back(sub->root);
      loc.container = it->second;
      loc.offset = sub->offset;
      loc.size = sub->size;
      loc.path = std::move(member);
    } else {
      loc.path = gdal_path;
    }
    return loc;
  }

  // files empty: every row is itself the FILE to decode.
  Status Flat() {
    TACO_ASSIGN_OR_RETURN(std::vector<std::string> columns, view_.Columns());
    bool has_path = false;
    for (const auto& c : columns) has_path = has_path || c == "internal:gdal_vsi";
    if (!has_path) {
      return Status::InvalidArgument(view_.path() +
                                     ": the view has no internal:gdal_vsi column (keep it, e.g. SELECT * FROM data)");
    }
    TACO_ASSIGN_OR_RETURN(auto q, view_.Sql("SELECT id, type, \"internal:gdal_vsi\" FROM data_raw"));
    TACO_ASSIGN_OR_RETURN(Table t, q->DataRaw());
    const Column* id = FindColumn(t, "id");
    const Column* type = FindColumn(t, "type");
    const Column* path = FindColumn(t, "internal:gdal_vsi");
    if (id == nullptr || type == nullptr || path == nullptr) return Status::Internal("sample plan: columns missing");
    for (size_t r = 0; r < t.num_rows(); ++r) {
      const std::string sample_id = Text(id->values[r]);
      if (Text(type->values[r]) != "FILE") {
        return Status::InvalidArgument(Sample(view_.path(), sample_id, r) +
                                       " is a FOLDER: name the FILE children to decode (files=[...])");
      }
      const std::string gdal_path = Text(path->values[r]);
      if (gdal_path.empty()) {
        return Status::InvalidArgument(Sample(view_.path(), sample_id, r) + " has no GDAL path (a missing member?)");
      }
      ids.push_back(sample_id);
      // Level-0 offsets are right in every writer's output: nothing to check.
      locations.push_back(Locate(gdal_path, "", &containers));
    }
    return Status::OK();
  }

  Status Nested() {
    // Number the view's rows, so that each FILE below them knows its level-0 row.
    TACO_ASSIGN_OR_RETURN(auto numbered, view_.Sql(std::string("SELECT *, row_number() OVER () - 1 AS \"") +
                                                   kRowColumn + "\" FROM data_raw"));
    TACO_ASSIGN_OR_RETURN(auto rows_view, numbered->Sql("SELECT id, type FROM data_raw"));
    TACO_ASSIGN_OR_RETURN(Table rows, rows_view->DataRaw());
    const Column* id = FindColumn(rows, "id");
    const Column* type = FindColumn(rows, "type");
    if (id == nullptr || type == nullptr) return Status::Internal("sample plan: id/type missing");
    const size_t n = rows.num_rows();
    for (size_t r = 0; r < n; ++r) ids.push_back(Text(id->values[r]));

    TACO_ASSIGN_OR_RETURN(auto files_view, numbered->Files());
    TACO_ASSIGN_OR_RETURN(std::vector<std::string> file_columns, files_view->Columns());
    bool has_level0 = false, has_own = false;
    for (const auto& c : file_columns) {
      has_level0 = has_level0 || c == "level0";
      has_own = has_own || c == kRowColumn;
    }
    std::string row_expr = "NULL";
    if (has_level0 && has_own) {
      row_expr = std::string("CASE WHEN level = 0 THEN \"") + kRowColumn + "\" ELSE struct_extract(\"level0\", '" +
                 kRowColumn + "') END";
    } else if (has_level0) {
      row_expr = std::string("struct_extract(\"level0\", '") + kRowColumn + "')";
    } else if (has_own) {
      row_expr = std::string("\"") + kRowColumn + "\"";
    }
    TACO_ASSIGN_OR_RETURN(
        auto q, files_view->Sql("SELECT " + row_expr + " AS r, level, path, \"internal:gdal_vsi\" AS g FROM data_raw"));
    TACO_ASSIGN_OR_RETURN(Table t, q->DataRaw());
    const Column* rcol = FindColumn(t, "r");
    const Column* level = FindColumn(t, "level");
    const Column* path = FindColumn(t, "path");
    const Column* gdal = FindColumn(t, "g");
    if (rcol == nullptr || level == nullptr || path == nullptr || gdal == nullptr) {
      return Status::Internal("sample plan: files columns missing");
    }

    std::map<std::string, size_t> wanted;
    for (size_t i = 0; i < files_.size(); ++i) wanted.emplace(files_[i], i);
    const size_t k = files_.size();
    locations.assign(n * k, SamplePlan::Location{});
    std::vector<char> found(n * k, 0);
    for (size_t i = 0; i < t.num_rows(); ++i) {
      const int64_t r = Integer(rcol->values[i]);
      if (r < 0 || static_cast<size_t>(r) >= n) return Status::Internal("sample plan: a FILE without its row");
      if (Integer(level->values[i]) == 0) continue;  // the row itself is a FILE
      const std::string& sample_id = ids[static_cast<size_t>(r)];
      const std::string full = Text(path->values[i]);
      if (full.size() <= sample_id.size() + 1 || full.compare(0, sample_id.size(), sample_id) != 0) {
        return Status::InvalidArgument(view_.path() + ": the view gave other rows on a second query (file '" + full +
                                       "' is not below sample '" + sample_id +
                                       "'); the rows of a view must not change between queries");
      }
      auto it = wanted.find(full.substr(sample_id.size() + 1));
      if (it == wanted.end()) continue;
      const size_t slot = static_cast<size_t>(r) * k + it->second;
      if (found[slot]) {
        return Status::InvalidArgument(Sample(view_.path(), sample_id, static_cast<size_t>(r)) + " has two files '" +
                                       it->first + "'");
      }
      const std::string gdal_path = Text(gdal->values[i]);
      if (gdal_path.empty()) {
        return Status::InvalidArgument(Sample(view_.path(), sample_id, static_cast<size_t>(r)) + ", file '" +
                                       it->first + "' has no GDAL path (a missing member?)");
      }
      found[slot] = 1;
      locations[slot] = Locate(gdal_path, "DATA/" + full, &containers);
    }
    for (size_t r = 0; r < n; ++r) {
      for (size_t f = 0; f < k; ++f) {
        if (!found[r * k + f]) return Missing(t, r, files_[f], Text(type->values[r]), ids[r]);
      }
    }
    return Status::OK();
  }

  // The error for file `name` missing below row `r`: what the row is, or what it holds.
  Status Missing(const Table& t, size_t r, const std::string& name, const std::string& type,
                 const std::string& sample_id) {
    const std::string who = Sample(view_.path(), sample_id, r);
    if (type == "FILE") return Status::InvalidArgument(who + " is a FILE: it has no file '" + name + "' below it");
    const Column& rcol = *FindColumn(t, "r");
    const Column& path = *FindColumn(t, "path");
    std::vector<std::string> held;
    bool folder = false;
    for (size_t i = 0; i < t.num_rows(); ++i) {
      if (Integer(rcol.values[i]) != static_cast<int64_t>(r)) continue;
      const std::string full = Text(path.values[i]);
      if (full.size() <= sample_id.size() + 1) continue;
      const std::string rel = full.substr(sample_id.size() + 1);
      held.push_back(rel);
      if (rel.size() > name.size() && rel.compare(0, name.size(), name) == 0 && rel[name.size()] == '/') folder = true;
    }
    if (folder) {
      return Status::InvalidArgument(who + ": '" + name + "' is a FOLDER, not a FILE (its files: " + Listed(held) +
                                     ")");
    }
    return Status::InvalidArgument(who + " has no file '" + name + "' (its files: " + Listed(held) + ")");
  }

  const Dataset& view_;
  std::vector<std::string> files_;
  std::map<std::string, int32_t> container_index_;
};

}  // namespace

Result<std::shared_ptr<const SamplePlan>> SamplePlan::Build(const Dataset& view,
                                                            const std::vector<std::string>& files) {
  Builder builder(view, files);
  TACO_RETURN_IF_ERROR(builder.Run());
  auto plan = std::make_shared<SamplePlan>();
  plan->dataset_ = view.path();
  plan->files_ = files;
  plan->ids_ = std::move(builder.ids);
  plan->containers_ = std::move(builder.containers);
  plan->locations_ = std::move(builder.locations);
  plan->allow_external_rasters_ = view.allows_external_rasters();
  plan->verify_crc_ = view.verifies_crc();
  for (const std::string& c : plan->containers_) plan->remote_ = plan->remote_ || ext::internal::NeedsNetwork(c);
  for (const Location& loc : plan->locations_) {
    if (loc.container < 0) plan->remote_ = plan->remote_ || ext::internal::NeedsNetwork(loc.path);
  }
  return std::shared_ptr<const SamplePlan>(std::move(plan));
}

}  // namespace taco
