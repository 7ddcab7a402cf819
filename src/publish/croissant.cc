// Croissant 1.0 JSON-LD (EXPORTERS §3.2, §4.2): the Appendix-1 context, FileObjects for the
// container files (sha256), level Parquet files, one RecordSet per level with the fields whose
// Arrow types have a Croissant type, RAI properties from the sidecar, GeoCroissant properties
// where the levels give one value.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>

#include "publish/text.h"
#include "publish/writers.h"

namespace taco::publish {
namespace {

using json = nlohmann::ordered_json;

json Context() {
  return json{{"@language", "en"},
              {"@vocab", "https://schema.org/"},
              {"citeAs", "cr:citeAs"},
              {"column", "cr:column"},
              {"conformsTo", "dct:conformsTo"},
              {"cr", "http://mlcommons.org/croissant/"},
              {"geocr", "http://mlcommons.org/croissant/geo/"},
              {"rai", "http://mlcommons.org/croissant/RAI/"},
              {"data", {{"@id", "cr:data"}, {"@type", "@json"}}},
              {"dataType", {{"@id", "cr:dataType"}, {"@type", "@vocab"}}},
              {"dct", "http://purl.org/dc/terms/"},
              {"equivalentProperty", "cr:equivalentProperty"},
              {"examples", {{"@id", "cr:examples"}, {"@type", "@json"}}},
              {"extract", "cr:extract"},
              {"field", "cr:field"},
              {"fileProperty", "cr:fileProperty"},
              {"fileObject", "cr:fileObject"},
              {"fileSet", "cr:fileSet"},
              {"format", "cr:format"},
              {"includes", "cr:includes"},
              {"isLiveDataset", "cr:isLiveDataset"},
              {"jsonPath", "cr:jsonPath"},
              {"key", "cr:key"},
              {"md5", "cr:md5"},
              {"parentField", "cr:parentField"},
              {"path", "cr:path"},
              {"recordSet", "cr:recordSet"},
              {"references", "cr:references"},
              {"regex", "cr:regex"},
              {"repeated", "cr:repeated"},
              {"replace", "cr:replace"},
              {"samplingRate", "cr:samplingRate"},
              {"sc", "https://schema.org/"},
              {"separator", "cr:separator"},
              {"source", "cr:source"},
              {"subField", "cr:subField"},
              {"transform", "cr:transform"}};
}

// Arrow type → Croissant dataType; `repeated` for a one-level list of an atomic type. Empty when
// Croissant 1.0 has no atomic type for it (binary/WKB, nested lists, structs).
std::string DataType(const std::string& arrow, bool* repeated) {
  *repeated = false;
  std::string t = arrow;
  if (t.rfind("list<item: ", 0) == 0 && t.back() == '>') {
    t = t.substr(11, t.size() - 12);
    *repeated = true;
    if (t.rfind("list<", 0) == 0) return "";
  }
  if (t == "string" || t == "large_string") return "sc:Text";
  if (t == "int64" || t == "int32" || t == "int16" || t == "int8" || t == "uint8" || t == "uint16" || t == "uint32" ||
      t == "uint64")
    return "sc:Integer";
  if (t == "double" || t == "float" || t == "halffloat") return "sc:Float";
  if (t == "bool") return "sc:Boolean";
  if (t.rfind("timestamp[", 0) == 0) return "sc:DateTime";
  if (t == "date32[day]") return "sc:Date";
  return "";
}

std::string SafeId(const std::string& s) {
  std::string out;
  for (char c : s) out += (c == ':' || c == ' ' || c == '#') ? '_' : c;
  return out;
}

// Croissant place(s) for a W,S,E,N box: "S W N E"; split in two across the antimeridian.
json Places(const std::array<double, 4>& b) {
  auto place = [](double w, double s, double e, double n) {
    return json{{"@type", "sc:Place"},
                {"geo",
                 {{"@type", "sc:GeoShape"},
                  {"box", FormatNumber(s) + " " + FormatNumber(w) + " " + FormatNumber(n) + " " + FormatNumber(e)}}}};
  };
  if (b[0] > b[2]) return json::array({place(b[0], b[1], 180, b[3]), place(-180, b[1], b[2], b[3])});
  return place(b[0], b[1], b[2], b[3]);
}

}  // namespace

Result<json> BuildCroissant(const Model& m) {
  std::vector<std::string> missing;
  if (m.description.empty()) missing.push_back("'description' (set it in COLLECTION.json)");
  if (m.licenses.empty()) missing.push_back("'license' (COLLECTION.json licenses is empty)");
  if (m.landing_url().empty()) {
    missing.push_back("'url', the dataset's web page: give \"landing_url\" or \"doi\" in --publication FILE");
  }
  if (m.pub.publication_date.empty()) {
    missing.push_back("'datePublished': give \"publication_date\" in --publication FILE");
  }
  auto authors = CitationAuthors(m);
  if (authors.empty())
    missing.push_back("'creator': give \"creators\" in --publication FILE or providers in COLLECTION.json");
  TACO_RETURN_IF_ERROR(MissingFields("croissant.json", "Croissant 1.0", missing));

  json c = json::object();
  c["@context"] = Context();
  c["@type"] = "sc:Dataset";
  json conforms = json::array({"http://mlcommons.org/croissant/1.0"});
  if (!m.pub.rai.empty()) conforms.push_back("http://mlcommons.org/croissant/RAI/1.0");
  const bool geo = m.crs.size() == 1 || m.gsd.size() == 1 || !m.bands.empty();
  if (geo) conforms.push_back("http://mlcommons.org/croissant/geo/1.0");
  c["conformsTo"] = conforms.size() == 1 ? conforms[0] : conforms;
  c["name"] = m.title;
  c["alternateName"] = m.id;
  c["description"] = m.description;
  json licenses = json::array();
  for (const auto& l : m.licenses) {
    LicenseInfo info = LookupLicense(l);
    licenses.push_back(info.url().empty() ? l : info.url());
  }
  c["license"] = licenses.size() == 1 ? licenses[0] : licenses;
  c["url"] = m.landing_url();
  json creators = json::array();
  for (const auto& a : authors) {
    json cj = {{"@type", a.organization ? "sc:Organization" : "sc:Person"}, {"name", a.display}};
    if (!a.orcid.empty()) cj["sameAs"] = "https://orcid.org/" + a.orcid;
    creators.push_back(std::move(cj));
  }
  c["creator"] = creators.size() == 1 ? creators[0] : creators;
  c["datePublished"] = m.pub.publication_date;
  if (!m.dataset_version.empty()) c["version"] = m.dataset_version;
  std::vector<std::string> keywords = m.keywords;
  for (const auto& t : m.tasks) {
    if (std::find(keywords.begin(), keywords.end(), t) == keywords.end()) keywords.push_back(t);
  }
  if (!keywords.empty()) c["keywords"] = keywords;
  if (!m.pub.publisher.empty()) {
    json p = {{"@type", "sc:Organization"}, {"name", m.pub.publisher}};
    if (!m.pub.publisher_ror.empty()) p["sameAs"] = m.pub.publisher_ror;
    c["publisher"] = p;
  }
  if (!m.curators.empty()) {
    json contributors = json::array();
    for (const auto& cu : m.curators) {
      json cj = {{"@type", cu.name.empty() ? "sc:Organization" : "sc:Person"},
                 {"name", cu.name.empty() ? cu.organization : cu.name}};
      if (!cu.name.empty() && !cu.organization.empty())
        cj["affiliation"] = {{"@type", "sc:Organization"}, {"name", cu.organization}};
      if (!cu.email.empty()) cj["email"] = cu.email;
      contributors.push_back(std::move(cj));
    }
    c["contributor"] = contributors;
  }
  c["citeAs"] = BibTex(m);
  if (!m.pub.doi.empty()) c["identifier"] = DoiUrl(m.pub.doi);
  if (!m.pub.same_as.empty()) c["sameAs"] = m.pub.same_as;
  if (!m.pub.language.empty()) c["inLanguage"] = m.pub.language;
  c["dateModified"] = m.subset_date.empty() ? m.generated_at.substr(0, 10) : m.subset_date.substr(0, 10);
  if (m.bbox) c["spatialCoverage"] = Places(*m.bbox);
  if (!m.time_start.empty() && !m.time_end.empty()) c["temporalCoverage"] = m.time_start + "/" + m.time_end;
  for (const auto& [key, text] : m.pub.rai) c["rai:" + key] = text;

  // GeoCroissant properties where the levels give one value.
  if (m.crs.size() == 1) c["geocr:coordinateReferenceSystem"] = m.crs[0].value;
  if (m.gsd.size() == 1) {
    c["geocr:spatialResolution"] = {
        {"@type", "sc:QuantitativeValue"}, {"value", std::stod(m.gsd[0].value)}, {"unitText", "CRS units per pixel"}};
  }
  if (!m.bands.empty()) {
    json names = json::array();
    for (const auto& b : m.bands) names.push_back(b.name);
    c["geocr:bandConfiguration"] = {{"totalBands", m.bands.size()}, {"bandNameList", names}};
  }

  // Distribution.
  json dist = json::array();
  std::string level_container;  // FileObject id holding METADATA/levelN.parquet (ZIP)
  for (const auto& f : m.files) {
    if (f.file_count > 1 || (f.role == "data" && f.sha256.empty() && f.contained_in.empty())) {
      // FOLDER DATA/: a FileSet.
      dist.push_back({{"@type", "cr:FileSet"},
                      {"@id", SafeId(f.name)},
                      {"name", f.name},
                      {"description", FormatCount(f.file_count) + " sample files, " + FormatBytes(f.size)},
                      {"encodingFormat", f.media_type},
                      {"includes", f.name + "**"}});
      continue;
    }
    json fo = {{"@type", "cr:FileObject"}, {"@id", SafeId(f.name)}, {"name", f.name}};
    if (f.contained_in.empty()) {
      std::string url = m.download_url(f.name);
      fo["contentUrl"] = url.empty() ? f.name : url;
      fo["sha256"] = f.sha256;
    } else {
      fo["containedIn"] = {{"@id", SafeId(f.contained_in)}};
    }
    fo["contentSize"] = std::to_string(f.size) + " B";
    fo["encodingFormat"] = f.media_type;
    dist.push_back(std::move(fo));
  }
  // TACOLLECTION: the level Parquets inside every part, as one FileSet per level.
  bool tacollection = m.format == "tacollection";
  if (tacollection) {
    for (const auto& l : m.levels) {
      json contained = json::array();
      for (const auto& f : m.files) {
        if (f.media_type == "application/zip") contained.push_back({{"@id", SafeId(f.name)}});
      }
      std::string name = "METADATA/level" + std::to_string(l.level) + ".parquet";
      dist.push_back({{"@type", "cr:FileSet"},
                      {"@id", "level" + std::to_string(l.level) + "-parquet"},
                      {"name", name},
                      {"containedIn", contained},
                      {"encodingFormat", "application/x-parquet"},
                      {"includes", name}});
    }
  }
  c["distribution"] = dist;

  // Record sets.
  json record_sets = json::array();
  for (const auto& l : m.levels) {
    std::string lv = "level" + std::to_string(l.level);
    std::string file_id;
    for (const auto& f : m.files) {
      if (f.name == "METADATA/" + lv + ".parquet" || f.name == ".tacocat/" + lv + ".parquet") file_id = SafeId(f.name);
    }
    json source_ref =
        tacollection ? json{{"fileSet", {{"@id", lv + "-parquet"}}}} : json{{"fileObject", {{"@id", file_id}}}};
    if (!tacollection && file_id.empty()) continue;  // e.g. __TACOCAT__: levels not addressable
    json fields = json::array();
    std::vector<std::string> omitted;
    for (const auto& f : l.fields) {
      if (f.name.rfind("internal:", 0) == 0 && f.name != "internal:current_id" && f.name != "internal:parent_id") {
        continue;
      }
      bool repeated = false;
      std::string type = DataType(f.type, &repeated);
      if (type.empty()) {
        omitted.push_back(f.name + " (" + f.type + ")");
        continue;
      }
      json src = source_ref;
      src["extract"] = {{"column", f.name}};
      json fj = {{"@type", "cr:Field"}, {"@id", lv + "/" + SafeId(f.name)}, {"name", f.name}, {"dataType", type}};
      if (!f.description.empty()) fj["description"] = f.description;
      if (repeated) fj["repeated"] = true;
      fj["source"] = src;
      if (f.name == "internal:parent_id" && l.level > 0) {
        fj["references"] = {{"field", {{"@id", "level" + std::to_string(l.level - 1) + "/internal_current_id"}}}};
      }
      fields.push_back(std::move(fj));
    }
    std::string description = FormatCount(l.samples()) + " samples at level " + std::to_string(l.level) +
                              (l.padding_rows ? " (" + FormatCount(l.padding_rows) + " padding rows excluded)" : "");
    if (!omitted.empty()) {
      description += ". Columns without a Croissant 1.0 type, not listed as fields: ";
      for (size_t i = 0; i < omitted.size(); ++i) description += (i ? ", " : "") + omitted[i];
    }
    json rs = {{"@type", "cr:RecordSet"}, {"@id", lv}, {"name", lv}, {"description", description}};
    if (l.level == 0) {
      rs["key"] = {{"@id", lv + "/id"}};
    }
    rs["field"] = fields;
    record_sets.push_back(std::move(rs));
  }
  if (!m.label_classes.empty()) {
    json data = json::array();
    for (size_t i = 0; i < m.label_classes.size(); ++i) {
      data.push_back({{"label_classes/index", i}, {"label_classes/name", m.label_classes[i].name}});
    }
    record_sets.push_back(
        {{"@type", "cr:RecordSet"},
         {"@id", "label_classes"},
         {"name", "label_classes"},
         {"description", "labels:classes of the collection"},
         {"key", {{"@id", "label_classes/index"}}},
         {"field",
          json::array(
              {{{"@type", "cr:Field"}, {"@id", "label_classes/index"}, {"name", "index"}, {"dataType", "sc:Integer"}},
               {{"@type", "cr:Field"}, {"@id", "label_classes/name"}, {"name", "name"}, {"dataType", "sc:Text"}}})},
         {"data", data}});
  }
  c["recordSet"] = record_sets;
  return c;
}

Result<std::string> WriteCroissant(const Model& m) {
  TACO_ASSIGN_OR_RETURN(json c, BuildCroissant(m));
  return c.dump(2) + "\n";
}

}  // namespace taco::publish
