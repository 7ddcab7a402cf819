// TACO 2.0 ↔ legacy mappings (see legacy_tree.h, spec/LEGACY.md §13).
#include <cpl_vsi.h>
#include <gdal.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "legacy/legacy_tree.h"
#include "model/wkb.h"
#include "taco/legacy.h"

namespace taco::legacy {
namespace {

using json = nlohmann::ordered_json;

bool IsSet(const json& j, const char* key) { return j.is_object() && j.contains(key) && !j[key].is_null(); }

// Seconds for a timestamp[us]: int64 when whole, else double.
Value TimestampToSeconds(const Value& v) {
  if (!v.is<TimestampUs>()) return v;
  const int64_t us = v.get<TimestampUs>().micros;
  if (us % 1000000 == 0) return us / 1000000;
  return static_cast<double>(us) / 1e6;
}

}  // namespace

std::string WktPoint(double x, double y) {
  auto repr = [](double v) {
    char buf[40];
    for (int p = 1; p <= 17; ++p) {
      std::snprintf(buf, sizeof buf, "%.*g", p, v);
      if (std::strtod(buf, nullptr) == v) break;
    }
    std::string s = buf;
    if (s.find_first_of(".eninf") == std::string::npos) s += ".0";
    return s;
  };
  return "POINT (" + repr(x) + " " + repr(y) + ")";
}

std::string DetectFileFormat(const Sample& sample) {
  static std::once_flag once;
  std::call_once(once, [] { GDALAllRegister(); });
  std::string path;
  std::string mem;
  if (!sample.file_path().empty()) {
    path = sample.file_path();
  } else if (sample.range_reader() != nullptr) {
    path = "/vsisubfile/" + std::to_string(sample.range_offset()) + "_" + std::to_string(sample.size_bytes()) + "," +
           ToVsiPath(sample.range_reader()->name());
  } else {
    if (sample.bytes().empty()) return "BYTES";
    static int counter = 0;
    mem = "/vsimem/taco_legacy_detect_" + std::to_string(reinterpret_cast<uintptr_t>(&sample)) + "_" +
          std::to_string(counter++);
    VSILFILE* f = VSIFileFromMemBuffer(mem.c_str(), reinterpret_cast<GByte*>(const_cast<char*>(sample.bytes().data())),
                                       sample.bytes().size(), FALSE);
    if (f == nullptr) return "BYTES";
    VSIFCloseL(f);
    path = mem;
  }
  CPLPushErrorHandler(CPLQuietErrorHandler);
  GDALDriverH driver = GDALIdentifyDriverEx(path.c_str(), GDAL_OF_RASTER | GDAL_OF_VECTOR, nullptr, nullptr);
  CPLPopErrorHandler();
  if (!mem.empty()) VSIUnlink(mem.c_str());
  if (driver == nullptr) return "BYTES";
  return GDALGetDriverShortName(driver);
}

namespace {

struct Mapper {
  const std::set<std::string>& invented;
  std::vector<std::string>& notes;
  std::set<std::string> noted;

  void Note(const std::string& s) {
    if (noted.insert(s).second) notes.push_back(s);
  }

  Result<Item> FromSample(const Sample& s, const std::string& path) {
    Item item;
    item.id = s.id();
    for (const Field& f : s.extensions()) {
      const std::string& n = f.name;
      if (n == "tortilla:id") {
        if (f.value.is<std::string>()) item.id = f.value.get<std::string>();
      } else if (n == "tortilla:file_format") {
        if (f.value.is<std::string>()) item.format = f.value.get<std::string>();
      } else if (n == "tortilla:offset" || n == "tortilla:length") {
        continue;  // recomputed
      } else if (invented.count(n)) {
        continue;  // invented by a conversion from v1: dropped again
      } else if (n == "split") {
        item.columns.push_back({"tortilla:data_split", DataType::String(), f.value, f.description});
      } else if (n == "stac:tensor_shape" && f.type.id == TypeId::kList) {
        Value v = f.value;
        if (v.is<ValueList>() && v.get<ValueList>().size() > 2) {
          ValueList last(v.get<ValueList>().end() - 2, v.get<ValueList>().end());
          v = std::move(last);
          Note("stac:tensor_shape has a band dimension: stac:raster_shape keeps [rows, cols]");
        }
        item.columns.push_back({"stac:raster_shape", f.type, v, f.description});
      } else if ((n == "stac:time_start" || n == "stac:time_end" || n == "stac:time_middle") &&
                 f.type.id == TypeId::kTimestampUs) {
        Value v = TimestampToSeconds(f.value);
        item.columns.push_back({n, v.is<double>() ? DataType::Double() : DataType::Int64(), v, f.description});
      } else if (n == "stac:centroid" && f.type.id == TypeId::kBinary) {
        Value v;
        if (f.value.is<Binary>()) {
          auto p = model::ParseWkbPoint(f.value.get<Binary>().bytes);
          if (!p.ok()) return p.status().WithPrefix("sample '" + path + "' stac:centroid");
          v = WktPoint(p->x, p->y);
        }
        item.columns.push_back({n, DataType::String(), v, f.description});
      } else {
        item.columns.push_back(f);
      }
    }
    if (s.type() == SampleType::kFolder) {
      item.format = "TORTILLA";
      auto nested = std::make_shared<Node>();
      TACO_ASSIGN_OR_RETURN(*nested, FromTortilla(*s.children(), path));
      item.nested = std::move(nested);
      return item;
    }
    if (item.format.empty()) item.format = DetectFileFormat(s);
    if (item.format == "TORTILLA") {
      return Status::InvalidArgument("sample '" + path + "': tortilla:file_format says TORTILLA for a FILE sample");
    }
    item.file_path = s.file_path();
    if (s.range_reader() != nullptr) {
      item.reader = s.range_reader();
      item.offset = s.range_offset();
    } else if (s.file_path().empty()) {
      item.bytes = std::make_shared<const std::string>(s.bytes());
    }
    item.size = s.size_bytes();
    return item;
  }

  Result<Node> FromTortilla(const Tortilla& t, const std::string& path) {
    Node node;
    size_t dropped = 0;
    for (const Sample& s : t.samples()) {
      if (s.is_padding()) {
        ++dropped;
        continue;
      }
      const std::string where = path.empty() ? s.id() : path + "/" + s.id();
      TACO_ASSIGN_OR_RETURN(Item item, FromSample(s, where));
      node.items.push_back(std::move(item));
    }
    if (dropped > 0) Note("padding samples (__TACOPAD__*) are dropped: Tortilla has no padding");
    std::set<std::string> ids;
    for (const Item& i : node.items) {
      if (!ids.insert(i.id).second) {
        return Status::InvalidArgument("'" + (path.empty() ? std::string("root") : path) +
                                       "': two items with tortilla:id '" + i.id + "'");
      }
    }
    return node;
  }
};

}  // namespace

Result<Node> NodeFromTaco(const Taco& taco, const std::set<std::string>& invented, std::vector<std::string>& notes) {
  Mapper m{invented, notes, {}};
  return m.FromTortilla(taco.root(), "");
}

// ---- collections ------------------------------------------------------------------------

namespace {

json ContactFromV1(const json& c) {
  json out = json::object();
  if (IsSet(c, "name")) out["name"] = c["name"];
  if (IsSet(c, "organization")) out["organization"] = c["organization"];
  if (!out.contains("name") && !out.contains("organization")) out["name"] = "unknown";
  if (IsSet(c, "emails") && c["emails"].is_array() && !c["emails"].empty() && IsSet(c["emails"][0], "value")) {
    out["email"] = c["emails"][0]["value"];
  }
  if (IsSet(c, "roles") && c["roles"].is_array() && !c["roles"].empty() && c["roles"][0].is_string()) {
    out["role"] = c["roles"][0];
  }
  return out;
}

json ContactToV1(const json& c) {
  json out = json::object();
  out["name"] = IsSet(c, "name") ? c["name"] : json(nullptr);
  out["organization"] = IsSet(c, "organization") ? c["organization"] : json(nullptr);
  if (IsSet(c, "email")) out["emails"] = json::array({json{{"value", c["email"]}, {"roles", nullptr}}});
  if (IsSet(c, "role")) out["roles"] = json::array({c["role"]});
  if (IsSet(c, "roles")) out["roles"] = c["roles"];
  return out;
}

const std::vector<std::string> kV1Tasks = {"regression",
                                           "classification",
                                           "scene-classification",
                                           "detection",
                                           "object-detection",
                                           "segmentation",
                                           "semantic-segmentation",
                                           "instance-segmentation",
                                           "panoptic-segmentation",
                                           "similarity-search",
                                           "generative",
                                           "image-captioning",
                                           "super-resolution",
                                           "denoising",
                                           "inpainting",
                                           "colorization",
                                           "style-transfer",
                                           "deblurring",
                                           "dehazing",
                                           "general"};

}  // namespace

json CollectionFromV1(const json& v1, std::vector<std::string>* notes) {
  auto note = [&](const std::string& s) {
    if (notes) notes->push_back(s);
  };
  json out = json::object();
  for (const char* key : {"id", "dataset_version", "description"}) {
    if (IsSet(v1, key)) out[key] = v1[key];
  }
  out["licenses"] = IsSet(v1, "licenses") ? v1["licenses"] : json::array({"unknown"});
  json providers = json::array();
  if (IsSet(v1, "providers") && v1["providers"].is_array()) {
    for (const auto& c : v1["providers"]) providers.push_back(ContactFromV1(c));
  }
  if (providers.empty()) {
    providers.push_back(json{{"name", "unknown"}});
    note("collection: providers invented ([{\"name\": \"unknown\"}])");
  }
  out["providers"] = providers;
  std::string task = IsSet(v1, "task") && v1["task"].is_string() ? v1["task"].get<std::string>() : "";
  const auto& known = KnownTasks();
  if (task == "general" || task.empty() || std::find(known.begin(), known.end(), task) == known.end()) {
    if (!task.empty()) note("collection: task '" + task + "' has no TACO 2.0 equivalent: tasks [\"other\"]");
    task = "other";
  }
  out["tasks"] = json::array({task});
  out["taco_version"] = std::string(kTacoVersion);
  if (IsSet(v1, "title")) out["title"] = v1["title"];
  if (IsSet(v1, "curators") && v1["curators"].is_array()) {
    json curators = json::array();
    for (const auto& c : v1["curators"]) curators.push_back(ContactFromV1(c));
    out["curators"] = curators;
  }
  if (IsSet(v1, "keywords")) out["keywords"] = v1["keywords"];
  if (IsSet(v1, "extent") && v1["extent"].is_object()) {
    const json& e = v1["extent"];
    double w = 180, s = 90, east = -180, n = -90;
    bool any = false;
    if (IsSet(e, "spatial") && e["spatial"].is_array()) {
      for (const auto& box : e["spatial"]) {
        if (!box.is_array() || (box.size() != 4 && box.size() != 6)) continue;
        const size_t half = box.size() / 2;
        bool numbers = true;
        for (const auto& v : box) numbers = numbers && v.is_number();
        if (!numbers) continue;
        w = std::min(w, box[0].get<double>());
        s = std::min(s, box[1].get<double>());
        east = std::max(east, box[half].get<double>());
        n = std::max(n, box[half + 1].get<double>());
        any = true;
      }
      if (e["spatial"].size() > 1)
        note("collection: extent.spatial: the union of " + std::to_string(e["spatial"].size()) + " boxes");
    }
    if (any) {
      json extent = json::object();
      extent["spatial"] = json::array({w, s, east, n});
      if (IsSet(e, "temporal") && e["temporal"].is_array() && !e["temporal"].empty()) {
        std::string a, b;
        for (const auto& range : e["temporal"]) {
          if (!range.is_array() || range.size() != 2 || !range[0].is_string() || !range[1].is_string()) continue;
          if (a.empty() || range[0].get<std::string>() < a) a = range[0].get<std::string>();
          if (b.empty() || range[1].get<std::string>() > b) b = range[1].get<std::string>();
        }
        if (!a.empty()) extent["temporal"] = json::array({a, b});
      }
      out["extent"] = extent;
    }
  }
  if (IsSet(v1, "split_strategy")) out["split:strategy"] = v1["split_strategy"];
  if (IsSet(v1, "optical_data") && v1["optical_data"].is_object()) {
    const json& o = v1["optical_data"];
    if (IsSet(o, "sensor")) out["optical:sensor"] = o["sensor"];
    if (IsSet(o, "bands") && o["bands"].is_array()) {
      out["optical:bands"] = o["bands"];
      out["optical:num_bands"] = o["bands"].size();
    }
  }
  if (IsSet(v1, "labels") && v1["labels"].is_object()) {
    const json& l = v1["labels"];
    if (IsSet(l, "label_classes") && l["label_classes"].is_array()) {
      json classes = json::array();
      for (json c : l["label_classes"]) {
        if (c.is_object() && c.contains("category") && c["category"].is_number()) c["category"] = c["category"].dump();
        classes.push_back(c);
      }
      out["labels:classes"] = classes;
      out["labels:num_classes"] = classes.size();
    }
    if (IsSet(l, "label_description")) out["labels:description"] = l["label_description"];
  }
  if (IsSet(v1, "scientific") && v1["scientific"].is_object()) {
    const json& sc = v1["scientific"];
    json pubs = json::array();
    json primary = json::object();
    for (const char* k : {"doi", "citation", "summary"}) {
      if (IsSet(sc, k)) primary[k] = sc[k];
    }
    if (!primary.empty()) pubs.push_back(primary);
    if (IsSet(sc, "publications") && sc["publications"].is_array()) {
      for (const auto& p : sc["publications"]) pubs.push_back(p);
    }
    if (!pubs.empty()) out["publications"] = pubs;
  }
  for (const char* lost : {"discuss_link", "raw_link"}) {
    if (IsSet(v1, lost))
      note(std::string("collection: ") + lost + " has no TACO 2.0 field (kept in legacy:collection)");
  }
  return out;
}

}  // namespace taco::legacy

namespace taco {

nlohmann::ordered_json CollectionToV1(const nlohmann::ordered_json& c) {
  using legacy::CollectionFromV1;
  using json = nlohmann::ordered_json;
  const json stored =
      c.contains("legacy:collection") && c["legacy:collection"].is_object() ? c["legacy:collection"] : json();
  const json forward = stored.is_object() ? CollectionFromV1(stored, nullptr) : json::object();
  // Unchanged since the conversion from v1: the stored v1 value, else the mapping of c's.
  auto same = [&](std::initializer_list<const char*> keys) {
    if (!stored.is_object()) return false;
    for (const char* k : keys) {
      const bool in_c = c.contains(k), in_f = forward.contains(k);
      if (in_c != in_f || (in_c && c[k] != forward[k])) return false;
    }
    return true;
  };
  json v1 = json::object();
  auto direct = [&](const char* key) {
    if (same({key}) && stored.contains(key)) {
      v1[key] = stored[key];
    } else {
      v1[key] = c.contains(key) ? c[key] : json(nullptr);
    }
  };
  direct("id");
  direct("dataset_version");
  direct("description");
  direct("licenses");
  if (same({"extent"}) && stored.contains("extent")) {
    v1["extent"] = stored["extent"];
  } else if (c.contains("extent") && c["extent"].is_object()) {
    json e = {{"spatial", json::array({c["extent"].value("spatial", json::array())})}};
    const json t = c["extent"].value("temporal", json());
    e["temporal"] = t.is_array() ? json::array({t}) : json::array();
    v1["extent"] = e;
  } else {
    v1["extent"] = nullptr;
  }
  auto contacts = [&](const char* key) {
    if (same({key}) && stored.contains(key)) {
      v1[key] = stored[key];
    } else if (c.contains(key) && c[key].is_array()) {
      json list = json::array();
      for (const auto& p : c[key]) list.push_back(legacy::ContactToV1(p));
      v1[key] = list;
    } else {
      v1[key] = nullptr;
    }
  };
  contacts("providers");
  if (same({"tasks"}) && stored.contains("task")) {
    v1["task"] = stored["task"];
  } else {
    std::string task = "general";
    if (c.contains("tasks") && c["tasks"].is_array() && !c["tasks"].empty() && c["tasks"][0].is_string()) {
      task = c["tasks"][0].get<std::string>();
      if (std::find(legacy::kV1Tasks.begin(), legacy::kV1Tasks.end(), task) == legacy::kV1Tasks.end()) task = "general";
    }
    v1["task"] = task;
  }
  v1["taco_version"] = stored.is_object() && stored.contains("taco_version") ? stored["taco_version"] : json("0.4.0");
  direct("title");
  contacts("curators");
  direct("keywords");
  if (same({"split:strategy"}) && stored.contains("split_strategy")) {
    v1["split_strategy"] = stored["split_strategy"];
  } else {
    v1["split_strategy"] = c.contains("split:strategy") ? c["split:strategy"] : json(nullptr);
  }
  for (const char* key : {"discuss_link", "raw_link"}) {
    v1[key] = stored.is_object() && stored.contains(key) ? stored[key] : json(nullptr);
  }
  if (same({"optical:sensor", "optical:bands", "optical:num_bands"}) && stored.contains("optical_data")) {
    v1["optical_data"] = stored["optical_data"];
  } else if (c.contains("optical:sensor") || c.contains("optical:bands")) {
    v1["optical_data"] = {{"sensor", c.value("optical:sensor", json())}, {"bands", c.value("optical:bands", json())}};
  } else {
    v1["optical_data"] = nullptr;
  }
  if (same({"labels:classes", "labels:description", "labels:num_classes"}) && stored.contains("labels")) {
    v1["labels"] = stored["labels"];
  } else if (c.contains("labels:classes")) {
    v1["labels"] = {{"label_classes", c["labels:classes"]},
                    {"label_description", c.value("labels:description", json())}};
  } else {
    v1["labels"] = nullptr;
  }
  if (same({"publications"}) && stored.contains("scientific")) {
    v1["scientific"] = stored["scientific"];
  } else if (c.contains("publications") && c["publications"].is_array() && !c["publications"].empty()) {
    json sc = c["publications"][0];
    json rest = json::array();
    for (size_t i = 1; i < c["publications"].size(); ++i) rest.push_back(c["publications"][i]);
    sc["publications"] = rest;
    v1["scientific"] = sc;
  } else {
    v1["scientific"] = nullptr;
  }
  // Keys of the stored v1 object this function does not know: back as they were.
  if (stored.is_object()) {
    for (const auto& [k, v] : stored.items()) {
      if (!v1.contains(k)) v1[k] = v;
    }
  }
  return v1;
}

}  // namespace taco
