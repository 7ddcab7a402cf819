// ExportMetadata (see taco/metadata_export.h).
#include <cpl_conv.h>
#include <ogr_spatialref.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>

#include <nlohmann/json.hpp>

#include "model/wkb.h"
#include "table/engine.h"
#include "taco/metadata_export.h"
#include "util/file_copy.h"
#include "write/atomic_output.h"

namespace taco {
namespace {

using json = nlohmann::ordered_json;

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// "Point", "Polygon Z", ... of a WKB geometry; empty when it cannot be read.
std::string WkbTypeName(const std::string& wkb) {
  if (wkb.size() < 5) return "";
  uint32_t code = 0;
  if (wkb[0] == 1) {
    std::memcpy(&code, wkb.data() + 1, 4);
  } else {
    for (int i = 0; i < 4; ++i) code = (code << 8) | static_cast<unsigned char>(wkb[1 + static_cast<size_t>(i)]);
  }
  const bool z = (code & 0x80000000u) != 0 || (code % 10000) / 1000 == 1 || (code % 10000) / 1000 == 3;
  code &= 0x0FFFFFFF;
  static const char* names[] = {"",           "Point",           "LineString",   "Polygon",
                                "MultiPoint", "MultiLineString", "MultiPolygon", "GeometryCollection"};
  const uint32_t base = code % 1000;
  if (base < 1 || base > 7) return "";
  return std::string(names[base]) + (z ? " Z" : "");
}

std::string Crs84ProjJson() {
  OGRSpatialReference srs;
  if (srs.SetFromUserInput("OGC:CRS84") != OGRERR_NONE) return "";
  char* out = nullptr;
  if (srs.exportToPROJJSON(&out, nullptr) != OGRERR_NONE || out == nullptr) return "";
  std::string s = out;
  CPLFree(out);
  return s;
}

const Column* Find(const Table& t, std::string_view name) {
  const int c = t.FindColumn(name);
  return c < 0 ? nullptr : &t.columns[static_cast<size_t>(c)];
}

}  // namespace

Result<uint64_t> ExportMetadata(Dataset& ds, const std::string& output, const MetadataExportOptions& options) {
  if (options.level < 0 || options.level >= ds.num_levels()) {
    return Status::InvalidArgument(ds.path() + ": level " + std::to_string(options.level) +
                                   " does not exist (levels 0.." + std::to_string(ds.num_levels() - 1) + ")");
  }
  const std::string where = ds.path() + ": level " + std::to_string(options.level);
  TACO_ASSIGN_OR_RETURN(Table rows, ds.QueryRaw("SELECT * FROM level" + std::to_string(options.level)));
  Table out;
  for (const Column& c : rows.columns) {
    if (StartsWith(c.name, "internal:") && c.name != "internal:gdal_vsi") continue;
    out.columns.push_back(c);
  }
  table::ParquetWriteOptions opts;
  if (options.flavor != MetadataFlavor::kPlain) {
    // The geometry.
    const Column* source = nullptr;
    if (options.geometry_column != "auto") {
      source = Find(rows, options.geometry_column);
      if (source == nullptr) return Status::InvalidArgument(where + " has no column '" + options.geometry_column + "'");
    } else {
      for (const char* name : {"istac:geometry", "stac:centroid", "istac:centroid"}) {
        if ((source = Find(rows, name)) != nullptr) break;
      }
      if (source == nullptr) {
        return Status::InvalidArgument(where +
                                       " has no geometry column (looked for istac:geometry, stac:centroid, "
                                       "istac:centroid): GeoParquet needs one");
      }
    }
    if (source->type.id != TypeId::kBinary) {
      return Status::InvalidArgument(where + ": column '" + source->name + "' is " + source->type.ToString() +
                                     ", not WKB binary");
    }
    Column geometry{"geometry", DataType::Binary(), source->values};
    Column bbox{"bbox",
                DataType::Struct({{"xmin", DataType::Double()},
                                  {"ymin", DataType::Double()},
                                  {"xmax", DataType::Double()},
                                  {"ymax", DataType::Double()}}),
                {}};
    std::set<std::string> types;
    model::WkbBox all;
    for (size_t i = 0; i < geometry.values.size(); ++i) {
      const Value& v = geometry.values[i];
      if (!v.is<Binary>()) {
        bbox.values.emplace_back();
        continue;
      }
      auto box = model::WkbBounds(v.get<Binary>().bytes);
      if (!box.ok()) return box.status().WithPrefix(where + " row " + std::to_string(i) + " " + source->name);
      types.insert(WkbTypeName(v.get<Binary>().bytes));
      if (box->empty) {
        bbox.values.emplace_back();
        continue;
      }
      bbox.values.emplace_back(
          ValueStruct{{"xmin", box->min_x}, {"ymin", box->min_y}, {"xmax", box->max_x}, {"ymax", box->max_y}});
      if (all.empty) {
        all = *box;
      } else {
        all.min_x = std::min(all.min_x, box->min_x);
        all.min_y = std::min(all.min_y, box->min_y);
        all.max_x = std::max(all.max_x, box->max_x);
        all.max_y = std::max(all.max_y, box->max_y);
      }
    }
    types.erase("");
    json col = {{"encoding", "WKB"}, {"geometry_types", json(std::vector<std::string>(types.begin(), types.end()))}};
    const std::string projjson = Crs84ProjJson();
    if (!projjson.empty()) col["crs"] = json::parse(projjson, nullptr, false);
    if (!all.empty) col["bbox"] = {all.min_x, all.min_y, all.max_x, all.max_y};
    if (options.flavor == MetadataFlavor::kStacGeoParquet) {
      col["covering"] = {{"bbox",
                          {{"xmin", {"bbox", "xmin"}},
                           {"ymin", {"bbox", "ymin"}},
                           {"xmax", {"bbox", "xmax"}},
                           {"ymax", {"bbox", "ymax"}}}}};
    }
    json geo = {{"version", "1.1.0"}, {"primary_column", "geometry"}, {"columns", {{"geometry", col}}}};
    opts.kv_metadata.emplace_back("geo", geo.dump());

    if (options.flavor == MetadataFlavor::kGeoParquet) {
      out.columns.insert(out.columns.begin() + (out.FindColumn("type") >= 0 ? 2 : 0), std::move(geometry));
    } else {
      // stac-geoparquet: the Item fields first, then the properties.
      const size_t n = rows.num_rows();
      Table item;
      item.columns.push_back({"type", DataType::String(), std::vector<Value>(n, Value("Feature"))});
      item.columns.push_back({"stac_version", DataType::String(), std::vector<Value>(n, Value("1.0.0"))});
      item.columns.push_back(
          {"stac_extensions", DataType::List(DataType::String()), std::vector<Value>(n, Value(ValueList{}))});
      const Column* ids = Find(rows, "id");
      item.columns.push_back({"id", DataType::String(), ids ? ids->values : std::vector<Value>(n)});
      item.columns.push_back(std::move(geometry));
      item.columns.push_back(std::move(bbox));
      auto time = [&](std::initializer_list<const char*> names) -> const Column* {
        for (const char* name : names) {
          const Column* c = Find(rows, name);
          if (c && c->type.id == TypeId::kTimestampUs) return c;
        }
        return nullptr;
      };
      const Column* start = time({"istac:time_start", "stac:time_start"});
      const Column* end = time({"istac:time_end", "stac:time_end"});
      const Column* middle = time({"istac:time_middle", "stac:time_middle"});
      const Column* when = middle ? middle : start;
      item.columns.push_back({"datetime", DataType::TimestampUs(), when ? when->values : std::vector<Value>(n)});
      if (start) item.columns.push_back({"start_datetime", DataType::TimestampUs(), start->values});
      if (end) item.columns.push_back({"end_datetime", DataType::TimestampUs(), end->values});
      std::set<std::string> taken;
      for (const Column& c : item.columns) taken.insert(c.name);
      for (const Column& c : out.columns) {
        if (c.name == "id" || c.name == "internal:gdal_vsi") continue;
        Column p = c;
        if (p.name == "type") p.name = "taco:type";
        if (taken.insert(p.name).second) item.columns.push_back(std::move(p));
      }
      const Column* vsi = Find(rows, "internal:gdal_vsi");
      const DataType asset =
          DataType::Struct({{"href", DataType::String()}, {"roles", DataType::List(DataType::String())}});
      Column assets{"assets", DataType::Struct({{"data", asset}}), {}};
      for (size_t i = 0; i < n; ++i) {
        Value href = vsi ? vsi->values[i] : Value();
        assets.values.emplace_back(
            ValueStruct{{"data", ValueStruct{{"href", href}, {"roles", ValueList{Value("data")}}}}});
      }
      item.columns.push_back(std::move(assets));
      const DataType link = DataType::Struct({{"href", DataType::String()}, {"rel", DataType::String()}});
      item.columns.push_back({"links", DataType::List(link), std::vector<Value>(n, Value(ValueList{}))});
      const auto& c = ds.collection();
      Value collection = c.contains("id") && c["id"].is_string() ? Value(c["id"].get<std::string>()) : Value();
      item.columns.push_back({"collection", DataType::String(), std::vector<Value>(n, collection)});
      out = std::move(item);
    }
  }
  TACO_ASSIGN_OR_RETURN(auto engine, table::Engine::Open());
  TACO_RETURN_IF_ERROR(engine->CreateTable("export_rows", out));
  std::string select = "SELECT * FROM export_rows";
  if (options.flavor == MetadataFlavor::kStacGeoParquet) {
    std::string replace;
    for (const char* c : {"datetime", "start_datetime", "end_datetime"}) {
      if (out.FindColumn(c) >= 0) {
        replace += std::string(replace.empty() ? "" : ", ") + "CAST(" + c + " AS TIMESTAMPTZ) AS " + c;
      }
    }
    select = "SELECT * REPLACE (" + replace + ") FROM export_rows";
    TACO_RETURN_IF_ERROR(engine->Execute("SET TimeZone = 'UTC'"));
  }
  TACO_ASSIGN_OR_RETURN(std::string bytes, engine->QueryToParquet(select, opts));
  TACO_ASSIGN_OR_RETURN(auto atomic, AtomicOutput::Begin(output, /*is_directory=*/false));
  TACO_RETURN_IF_ERROR(WriteNewFile(atomic->temp_path(), bytes));
  TACO_RETURN_IF_ERROR(atomic->Commit());
  return static_cast<uint64_t>(out.num_rows());
}

}  // namespace taco
