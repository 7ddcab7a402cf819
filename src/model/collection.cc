// ValidateCollection and KnownTasks: the collection-field rules (FORMAT §4, spec §5.5.2).
#include <cmath>
#include <string>

#include "model/schema_util.h"
#include "taco/model.h"
#include "util/iso_datetime.h"

namespace taco {
namespace {

using nlohmann::ordered_json;

Status Bad(const std::string& what) { return Status::InvalidArgument("collection: " + what); }

size_t CodePoints(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

bool IsSet(const ordered_json& obj, const char* key) { return obj.contains(key) && !obj.at(key).is_null(); }

Status CheckString(const ordered_json& v, const std::string& where) {
  if (!v.is_string()) return Bad(where + " must be a string");
  return Status::OK();
}

Status CheckStringArray(const ordered_json& v, const std::string& where) {
  if (!v.is_array()) return Bad(where + " must be an array of strings");
  for (size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_string()) return Bad(where + "[" + std::to_string(i) + "] must be a string");
  }
  return Status::OK();
}

Status CheckOptionalString(const ordered_json& obj, const char* key, const std::string& where) {
  if (!IsSet(obj, key)) return Status::OK();
  return CheckString(obj.at(key), where + "." + key);
}

// A provider or curator: the spec form {name, organization, email, role} or the STAC form
// {name, roles, url, links}.
Status CheckContact(const ordered_json& v, const std::string& where) {
  if (!v.is_object()) return Bad(where + " must be an object");
  bool spec_form = false;
  bool stac_form = false;
  for (const auto& [key, value] : v.items()) {
    if (key == "name") continue;
    if (key == "organization" || key == "email" || key == "role") {
      spec_form = true;
    } else if (key == "roles" || key == "url" || key == "links") {
      stac_form = true;
    } else {
      return Bad(where + ": unknown key " + model::Quote(key) +
                 " (expected name, organization, email, role or name, roles, url, links)");
    }
  }
  if (spec_form && stac_form) {
    return Bad(where +
               " mixes the spec form (name, organization, email, role) and the STAC form (name, roles, "
               "url, links)");
  }
  TACO_RETURN_IF_ERROR(CheckOptionalString(v, "name", where));
  if (stac_form) {
    if (!IsSet(v, "name") || v.at("name").get_ref<const std::string&>().empty()) {
      return Bad(where + ": a STAC provider needs a non-empty 'name'");
    }
    if (IsSet(v, "roles")) TACO_RETURN_IF_ERROR(CheckStringArray(v.at("roles"), where + ".roles"));
    TACO_RETURN_IF_ERROR(CheckOptionalString(v, "url", where));
    if (IsSet(v, "url")) {
      const std::string& url = v.at("url").get_ref<const std::string&>();
      if (url.rfind("http://", 0) != 0 && url.rfind("https://", 0) != 0) {
        return Bad(where + ".url " + model::Quote(url) + " must start with http:// or https://");
      }
    }
    if (IsSet(v, "links")) {
      const ordered_json& links = v.at("links");
      if (!links.is_array()) return Bad(where + ".links must be an array of objects");
      for (size_t i = 0; i < links.size(); ++i) {
        const std::string at = where + ".links[" + std::to_string(i) + "]";
        if (!links[i].is_object()) return Bad(at + " must be an object of strings");
        for (const auto& [key, value] : links[i].items()) {
          if (!value.is_string()) return Bad(at + "." + key + " must be a string");
        }
      }
    }
    return Status::OK();
  }
  TACO_RETURN_IF_ERROR(CheckOptionalString(v, "organization", where));
  TACO_RETURN_IF_ERROR(CheckOptionalString(v, "email", where));
  TACO_RETURN_IF_ERROR(CheckOptionalString(v, "role", where));
  auto non_empty = [&](const char* key) { return IsSet(v, key) && !v.at(key).get_ref<const std::string&>().empty(); };
  if (!non_empty("name") && !non_empty("organization")) return Bad(where + " needs a name or an organization");
  if (IsSet(v, "email") && v.at("email").get_ref<const std::string&>().find('@') == std::string::npos) {
    return Bad(where + ".email " + model::Quote(v.at("email").get_ref<const std::string&>()) + " has no '@'");
  }
  return Status::OK();
}

Status CheckContacts(const ordered_json& v, const std::string& where) {
  if (!v.is_array()) return Bad(where + " must be an array of objects");
  for (size_t i = 0; i < v.size(); ++i) {
    TACO_RETURN_IF_ERROR(CheckContact(v[i], where + "[" + std::to_string(i) + "]"));
  }
  return Status::OK();
}

Status CheckId(const ordered_json& v) {
  TACO_RETURN_IF_ERROR(CheckString(v, "id"));
  const std::string& id = v.get_ref<const std::string&>();
  bool alnum = false;
  bool ok = true;
  for (char c : id) {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
      alnum = true;
    } else if (c != '_' && c != '-') {
      ok = false;
    }
  }
  if (!ok || !alnum) {
    return Bad("id " + model::Quote(id) +
               " must be lowercase letters, digits, '_' and '-' (with at least one letter or digit)");
  }
  return Status::OK();
}

Status CheckTasks(const ordered_json& v) {
  TACO_RETURN_IF_ERROR(CheckStringArray(v, "tasks"));
  const auto& known = KnownTasks();
  for (size_t i = 0; i < v.size(); ++i) {
    const std::string& task = v[i].get_ref<const std::string&>();
    bool found = false;
    for (std::string_view k : known) found = found || k == task;
    if (!found) {
      std::string list;
      for (std::string_view k : known) list += (list.empty() ? "" : ", ") + std::string(k);
      return Bad("tasks[" + std::to_string(i) + "] " + model::Quote(task) + " is not a known task (" + list + ")");
    }
  }
  return Status::OK();
}

Status CheckExtent(const ordered_json& v) {
  if (!v.is_object()) return Bad("extent must be an object {\"spatial\": [...], \"temporal\": [...]}");
  for (const auto& [key, value] : v.items()) {
    if (key != "spatial" && key != "temporal") {
      return Bad("extent: unknown key " + model::Quote(key) + " (expected spatial, temporal)");
    }
  }
  if (!IsSet(v, "spatial")) return Bad("extent: missing 'spatial' [west, south, east, north]");
  const ordered_json& spatial = v.at("spatial");
  if (!spatial.is_array() || spatial.size() != 4) {
    return Bad("extent.spatial must be an array of 4 numbers [west, south, east, north]");
  }
  double bbox[4];
  for (size_t i = 0; i < 4; ++i) {
    if (!spatial[i].is_number() || !std::isfinite(spatial[i].get<double>())) {
      return Bad("extent.spatial[" + std::to_string(i) + "] must be a finite number");
    }
    bbox[i] = spatial[i].get<double>();
  }
  const bool lon_ok = bbox[0] >= -180 && bbox[0] <= 180 && bbox[2] >= -180 && bbox[2] <= 180;
  const bool lat_ok = bbox[1] >= -90 && bbox[1] <= 90 && bbox[3] >= -90 && bbox[3] <= 90;
  if (!lon_ok || !lat_ok) {
    const std::string what = std::string("extent.spatial: ") +
                             (!lon_ok ? "longitudes must be within [-180, 180]" : "latitudes must be within [-90, 90]");
    bool projected = false;
    for (double v : bbox) projected = projected || std::fabs(v) > 360;
    if (projected) {
      return Bad(what + " (got " + spatial.dump() +
                 "); these look like projected coordinates (e.g. UTM "
                 "metres): the extent is WGS84 longitude/latitude in degrees (EPSG:4326)");
    }
    return Bad(what);
  }
  if (bbox[1] > bbox[3]) return Bad("extent.spatial: south is greater than north");
  if (IsSet(v, "temporal")) {
    const ordered_json& temporal = v.at("temporal");
    if (!temporal.is_array() || temporal.size() != 2 || !temporal[0].is_string() || !temporal[1].is_string()) {
      return Bad("extent.temporal must be null or an array of 2 ISO-8601 strings [start, end]");
    }
    int64_t when[2] = {0, 0};
    for (size_t i = 0; i < 2; ++i) {
      const std::string& text = temporal[i].get_ref<const std::string&>();
      if (!util::ParseIsoDatetime(text, &when[i])) {
        return Bad(std::string("extent.temporal[") + (i == 0 ? "0] (start) " : "1] (end) ") + model::Quote(text) +
                   " is not an ISO-8601 date or datetime (e.g. \"2023-01-01T00:00:00Z\")");
      }
    }
    if (when[0] > when[1]) {
      return Bad("extent.temporal: start " + model::Quote(temporal[0].get<std::string>()) + " is after end " +
                 model::Quote(temporal[1].get<std::string>()));
    }
  }
  return Status::OK();
}

// MAJOR.MINOR.PATCH (Semantic Versioning 2.0.0), optionally -prerelease and +build.
bool IsSemanticVersion(std::string_view v) {
  size_t i = 0;
  for (int part = 0; part < 3; ++part) {
    const size_t start = i;
    while (i < v.size() && v[i] >= '0' && v[i] <= '9') ++i;
    if (i == start || (i - start > 1 && v[start] == '0')) return false;
    if (part < 2 && (i >= v.size() || v[i++] != '.')) return false;
  }
  // Identifiers of [0-9A-Za-z-] separated by dots, after '-' (prerelease) then '+' (build).
  for (char lead : {'-', '+'}) {
    if (i >= v.size() || v[i] != lead) continue;
    ++i;
    bool empty = true;
    for (; i < v.size() && v[i] != '+'; ++i) {
      const char c = v[i];
      if (c == '.') {
        if (empty) return false;
        empty = true;
        continue;
      }
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-')) return false;
      empty = false;
      if (lead == '+' && c == '+') return false;
    }
    if (empty) return false;
  }
  return i == v.size();
}

Status CheckTacoVersion(const ordered_json& v) {
  TACO_RETURN_IF_ERROR(CheckString(v, "taco_version"));
  const std::string& text = v.get_ref<const std::string&>();
  if (!IsSemanticVersion(text)) {
    return Bad("taco_version " + model::Quote(text) + " is not a version MAJOR.MINOR.PATCH (e.g. \"2.0.0\")");
  }
  return Status::OK();
}

}  // namespace

const std::vector<std::string_view>& KnownTasks() {
  static const std::vector<std::string_view>* const kTasks = new std::vector<std::string_view>{"regression",
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
                                                                                               "foundation-model",
                                                                                               "other"};
  return *kTasks;
}

Status ValidateCollection(const ordered_json& c) {
  if (!c.is_object()) return Bad("must be a JSON object");
  for (const char* key : {"id", "dataset_version", "description", "licenses", "providers", "tasks"}) {
    if (!IsSet(c, key)) return Bad(std::string("missing required field '") + key + "'");
  }
  for (const char* key : {"taco:pit_schema", "taco:field_schema"}) {
    if (c.contains(key)) return Bad(std::string(key) + " is generated when the dataset is written; remove it");
  }
  TACO_RETURN_IF_ERROR(CheckId(c.at("id")));
  TACO_RETURN_IF_ERROR(CheckString(c.at("dataset_version"), "dataset_version"));
  TACO_RETURN_IF_ERROR(CheckString(c.at("description"), "description"));
  TACO_RETURN_IF_ERROR(CheckStringArray(c.at("licenses"), "licenses"));
  TACO_RETURN_IF_ERROR(CheckContacts(c.at("providers"), "providers"));
  TACO_RETURN_IF_ERROR(CheckTasks(c.at("tasks")));
  if (IsSet(c, "taco_version")) TACO_RETURN_IF_ERROR(CheckTacoVersion(c.at("taco_version")));
  if (IsSet(c, "title")) {
    TACO_RETURN_IF_ERROR(CheckString(c.at("title"), "title"));
    size_t n = CodePoints(c.at("title").get_ref<const std::string&>());
    if (n > 250) return Bad("title has " + std::to_string(n) + " characters, at most 250 are allowed");
  }
  if (IsSet(c, "curators")) TACO_RETURN_IF_ERROR(CheckContacts(c.at("curators"), "curators"));
  if (IsSet(c, "keywords")) TACO_RETURN_IF_ERROR(CheckStringArray(c.at("keywords"), "keywords"));
  if (IsSet(c, "extent")) TACO_RETURN_IF_ERROR(CheckExtent(c.at("extent")));
  for (const auto& [key, value] : c.items()) TACO_RETURN_IF_ERROR(ValidateCollectionKey(key));
  return Status::OK();
}

bool IsKnownCollectionKey(std::string_view key) {
  static constexpr std::string_view kKnown[] = {"id",
                                                "dataset_version",
                                                "description",
                                                "licenses",
                                                "providers",
                                                "tasks",
                                                "taco_version",
                                                "title",
                                                "curators",
                                                "keywords",
                                                "extent",
                                                "taco:pit_schema",
                                                "taco:field_schema",
                                                "taco:sources",
                                                "taco:subset_of",
                                                "taco:subset_date",
                                                "_tacocat"};
  for (std::string_view k : kKnown) {
    if (k == key) return true;
  }
  return false;
}

Status ValidateCollectionKey(std::string_view key) {
  if (IsKnownCollectionKey(key)) return Status::OK();
  Status s = ValidateExtensionKey(key);
  if (s.ok()) return s;
  return Bad(s.message());
}

}  // namespace taco
