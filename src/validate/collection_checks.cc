// COLLECTION.json (FORMAT §4, spec §5.5.2): the collection fields, taco:pit_schema and
// taco:field_schema against what the level tables imply.
#include <algorithm>
#include <string>

#include "model/metadata.h"
#include "taco/model.h"
#include "validate/checks.h"

namespace taco::validate {
namespace {

using nlohmann::ordered_json;

const std::string kWhere(kCollectionMember);

struct KnownField {
  const char* key;
  bool required;
  const char* expected;
};

constexpr KnownField kFields[] = {
    {"id", true, "a lowercase id of letters, digits, '_' and '-'"},
    {"dataset_version", true, "a string"},
    {"description", true, "a string"},
    {"licenses", true, "an array of strings"},
    {"providers", true, "an array of providers {name, organization, email, role} or {name, roles, url, links}"},
    {"tasks", true, "an array of known tasks"},
    {"taco_version", false, "a version MAJOR.MINOR.PATCH, e.g. \"2.0.0\""},
    {"title", false, "null or a string of at most 250 characters"},
    {"curators", false, "null or an array of {name, organization, email, role}"},
    {"keywords", false, "null or an array of strings"},
    {"extent", false,
     "{\"spatial\": [west, south, east, north], \"temporal\": null or [start, end] (ISO-8601, start <= end)}"},
};

std::string Strip(const std::string& message) {
  const std::string prefix = "collection: ";
  return message.rfind(prefix, 0) == 0 ? message.substr(prefix.size()) : message;
}

// Each known field on its own inside an otherwise valid collection, so that every bad field
// is reported (ValidateCollection stops at the first).
void CheckFields(const ordered_json& c, Reporter& rep) {
  const ordered_json base = {{"id", "x"},
                             {"dataset_version", "1"},
                             {"description", ""},
                             {"licenses", ordered_json::array()},
                             {"providers", ordered_json::array()},
                             {"tasks", ordered_json::array()}};
  for (const KnownField& f : kFields) {
    const bool present = c.contains(f.key) && !c.at(f.key).is_null();
    if (!present) {
      if (f.required) rep.Add("collection-field", kWhere + " " + f.key, "missing", f.expected);
      continue;
    }
    ordered_json probe = base;
    probe[f.key] = c.at(f.key);
    Status s = ValidateCollection(probe);
    if (!s.ok()) rep.Add("collection-field", kWhere + " " + f.key, Strip(s.message()), f.expected);
  }
}

// Keys that are neither known fields nor generated ones are extension keys (spec §5.5.2).
void CheckExtensionKeys(const ordered_json& c, Reporter& rep) {
  for (const auto& [key, value] : c.items()) {
    if (IsKnownCollectionKey(key)) continue;
    Status s = ValidateExtensionKey(key);
    if (!s.ok()) {
      rep.Add("extension-key", kWhere + " key " + Quoted(key), s.message(),
              "a key matching ^[a-zA-Z0-9_]+(:\\w+)?$, not internal:*");
    }
  }
}

void CheckPitSchema(const ordered_json& c, const std::vector<Table>& levels, bool levels_complete, Reporter& rep) {
  const std::string where = "taco:pit_schema";
  if (!c.contains(where)) {
    rep.Add("pit-schema", kWhere, "no taco:pit_schema", "taco:pit_schema (required by readers)");
    return;
  }
  if (!levels_complete) return;
  const ordered_json& stored = c.at(where);
  const ordered_json want = model::PitSchema(levels);
  if (!stored.is_object()) {
    rep.Add("pit-schema", where, stored.dump(), want.dump());
    return;
  }
  const ordered_json none;
  const ordered_json& root = stored.contains("root") ? stored.at("root") : none;
  if (root != want.at("root")) rep.Add("pit-schema", where + ".root", root.dump(), want.at("root").dump());
  const ordered_json& hierarchy = stored.contains("hierarchy") ? stored.at("hierarchy") : none;
  const ordered_json& want_h = want.at("hierarchy");
  if (!hierarchy.is_object()) {
    rep.Add("pit-schema", where + ".hierarchy", hierarchy.dump(), want_h.dump());
    return;
  }
  for (const auto& [key, patterns] : want_h.items()) {
    const ordered_json& got = hierarchy.contains(key) ? hierarchy.at(key) : none;
    if (got != patterns) {
      rep.Add("pit-schema", where + ".hierarchy." + key, got.is_null() ? "missing" : got.dump(), patterns.dump());
    }
  }
  for (const auto& [key, patterns] : hierarchy.items()) {
    if (!want_h.contains(key)) {
      rep.Add("pit-schema", where + ".hierarchy." + key, patterns.dump(),
              "no such key (the tables have " + std::to_string(levels.size()) + " levels)");
    }
  }
}

// "name: type" of a field_schema entry, or its JSON when malformed.
std::string EntryText(const ordered_json& e) {
  if (e.is_array() && e.size() >= 2 && e[0].is_string() && e[1].is_string()) {
    return e[0].get<std::string>() + ": " + e[1].get<std::string>();
  }
  return e.dump();
}

void CheckFieldSchema(const ordered_json& c, const std::vector<Table>& levels, bool levels_complete, Reporter& rep) {
  const std::string where = "taco:field_schema";
  if (!c.contains(where)) {
    rep.Add("field-schema", kWhere, "no taco:field_schema", "taco:field_schema (one list per level)");
    return;
  }
  if (!levels_complete) return;
  const ordered_json& stored = c.at(where);
  const ordered_json want = model::FieldSchema(levels, {});
  if (!stored.is_object()) {
    rep.Add("field-schema", where, stored.is_null() ? "null" : stored.type_name(), "an object {\"level0\": [...]}");
    return;
  }
  for (const auto& [key, fields] : want.items()) {
    const std::string at = where + "." + key;
    if (!stored.contains(key)) {
      rep.Add("field-schema", at, "missing", std::to_string(fields.size()) + " columns");
      continue;
    }
    const ordered_json& got = stored.at(key);
    if (!got.is_array()) {
      rep.Add("field-schema", at, got.dump(), "a list of [name, type, description]");
      continue;
    }
    for (size_t i = 0; i < std::max(got.size(), fields.size()); ++i) {
      const std::string expected = i < fields.size()
                                       ? EntryText(fields[i])
                                       : "nothing (the level has " + std::to_string(fields.size()) + " listed columns)";
      const std::string found = i < got.size() ? EntryText(got[i]) : "nothing";
      if (found == expected) continue;
      rep.Add("field-schema", at + "[" + std::to_string(i) + "]", found, expected);
    }
  }
  for (const auto& [key, fields] : stored.items()) {
    if (!want.contains(key)) {
      rep.Add("field-schema", where + "." + key, std::to_string(fields.size()) + " entries",
              "no such level (the dataset has " + std::to_string(levels.size()) + ")");
    }
  }
}

}  // namespace

void CheckCollectionFields(const ordered_json& collection, const std::vector<Table>& levels, Reporter& rep) {
  CheckFields(collection, rep);
  CheckExtensionKeys(collection, rep);
  CheckOpticalBands(collection, levels, rep);
}

void CheckCollection(const std::optional<ordered_json>& collection, const std::vector<Table>& levels,
                     bool levels_complete, Reporter& rep) {
  if (!collection) return;
  CheckCollectionFields(*collection, levels, rep);
  CheckPitSchema(*collection, levels, levels_complete, rep);
  CheckFieldSchema(*collection, levels, levels_complete, rep);
}

}  // namespace taco::validate
