// Publish(): sidecar parsing, output selection, rendering every chosen document first, then
// writing them atomically into OUTDIR (all or nothing).
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "publish/model.h"
#include "publish/writers.h"
#include "util/quote.h"

namespace taco {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;
using util::Quote;

// Croissant RAI 1.0 properties (the rai: namespace).
constexpr const char* kRaiProperties[] = {"dataCollection",
                                          "dataCollectionType",
                                          "dataCollectionMissingData",
                                          "dataCollectionRawData",
                                          "dataCollectionTimeframe",
                                          "dataImputationProtocol",
                                          "dataManipulationProtocol",
                                          "dataPreprocessingProtocol",
                                          "dataAnnotationProtocol",
                                          "dataAnnotationPlatform",
                                          "dataAnnotationAnalysis",
                                          "dataReleaseMaintenancePlan",
                                          "personalSensitiveInformation",
                                          "dataSocialImpact",
                                          "dataBiases",
                                          "dataLimitations",
                                          "dataUseCases",
                                          "annotationsPerItem",
                                          "annotatorDemographics",
                                          "machineAnnotationTools"};

Status Bad(const std::string& source, const std::string& key, const std::string& why) {
  return Status::InvalidArgument(source + ": \"" + key + "\" " + why);
}

Result<std::string> GetString(const json& j, const char* key, const std::string& source, const std::string& where) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::string();
  if (!it->is_string()) return Bad(source, where + key, "must be a string");
  return it->get<std::string>();
}

bool IsDate(const std::string& s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  }
  int month = std::atoi(s.substr(5, 2).c_str()), day = std::atoi(s.substr(8, 2).c_str());
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

bool IsOrcid(const std::string& s) {
  if (s.size() != 19) return false;
  for (size_t i = 0; i < 19; ++i) {
    if (i % 5 == 4) {
      if (s[i] != '-') return false;
    } else if (!std::isdigit(static_cast<unsigned char>(s[i])) && !(i == 18 && s[i] == 'X')) {
      return false;
    }
  }
  return true;
}

Status CheckKeys(const json& j, const std::vector<std::string>& allowed, const std::string& source,
                 const std::string& where) {
  for (const auto& [key, value] : j.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      return Bad(source, where + key, "is not a sidecar key (known: " + list + ")");
    }
    (void)value;
  }
  return Status::OK();
}

}  // namespace

Result<Publication> ParsePublication(const json& s, const std::string& source) {
  if (!s.is_object()) return Status::InvalidArgument(source + ": the publication sidecar must be a JSON object");
  TACO_RETURN_IF_ERROR(CheckKeys(s,
                                 {"doi", "landing_url", "download_base_url", "publisher", "publisher_ror",
                                  "publication_date", "creators", "language", "funding", "rai", "same_as"},
                                 source, ""));
  Publication p;
  TACO_ASSIGN_OR_RETURN(p.doi, GetString(s, "doi", source, ""));
  for (const char* prefix : {"https://doi.org/", "http://doi.org/", "https://dx.doi.org/", "doi:"}) {
    if (p.doi.rfind(prefix, 0) == 0) p.doi = p.doi.substr(std::string(prefix).size());
  }
  if (!p.doi.empty()) {
    size_t slash = p.doi.find('/');
    bool ok = p.doi.rfind("10.", 0) == 0 && slash != std::string::npos && slash >= 7 && slash + 1 < p.doi.size() &&
              p.doi.find_first_of(" \t\n") == std::string::npos;
    for (size_t i = 3; ok && i < slash; ++i) ok = std::isdigit(static_cast<unsigned char>(p.doi[i])) || p.doi[i] == '.';
    if (!ok) return Bad(source, "doi", "is not a DOI like 10.5281/zenodo.123: " + p.doi);
  }
  TACO_ASSIGN_OR_RETURN(p.landing_url, GetString(s, "landing_url", source, ""));
  TACO_ASSIGN_OR_RETURN(p.download_base_url, GetString(s, "download_base_url", source, ""));
  for (const auto* url : {&p.landing_url, &p.download_base_url}) {
    if (!url->empty() && url->rfind("http://", 0) != 0 && url->rfind("https://", 0) != 0) {
      return Bad(source, url == &p.landing_url ? "landing_url" : "download_base_url",
                 "must start with http:// or https://");
    }
  }
  TACO_ASSIGN_OR_RETURN(p.publisher, GetString(s, "publisher", source, ""));
  TACO_ASSIGN_OR_RETURN(p.publisher_ror, GetString(s, "publisher_ror", source, ""));
  TACO_ASSIGN_OR_RETURN(p.publication_date, GetString(s, "publication_date", source, ""));
  if (!p.publication_date.empty() && !IsDate(p.publication_date)) {
    return Bad(source, "publication_date", "must be a date YYYY-MM-DD: " + p.publication_date);
  }
  TACO_ASSIGN_OR_RETURN(p.language, GetString(s, "language", source, ""));
  if (auto it = s.find("creators"); it != s.end() && !it->is_null()) {
    if (!it->is_array()) return Bad(source, "creators", "must be a list of objects");
    for (size_t i = 0; i < it->size(); ++i) {
      const json& c = (*it)[i];
      std::string where = "creators[" + std::to_string(i) + "].";
      if (!c.is_object()) return Bad(source, "creators[" + std::to_string(i) + "]", "must be an object");
      TACO_RETURN_IF_ERROR(CheckKeys(c,
                                     {"name", "given_name", "family_name", "organization", "orcid", "ror",
                                      "affiliation", "affiliation_ror", "email"},
                                     source, where));
      PublicationCreator pc;
      TACO_ASSIGN_OR_RETURN(pc.name, GetString(c, "name", source, where));
      TACO_ASSIGN_OR_RETURN(pc.given_name, GetString(c, "given_name", source, where));
      TACO_ASSIGN_OR_RETURN(pc.family_name, GetString(c, "family_name", source, where));
      if (auto o = c.find("organization"); o != c.end() && !o->is_null()) {
        if (!o->is_boolean()) return Bad(source, where + "organization", "must be true or false");
        pc.organization = o->get<bool>();
      }
      TACO_ASSIGN_OR_RETURN(pc.orcid, GetString(c, "orcid", source, where));
      if (pc.orcid.rfind("https://orcid.org/", 0) == 0) pc.orcid = pc.orcid.substr(18);
      if (!pc.orcid.empty() && !IsOrcid(pc.orcid))
        return Bad(source, where + "orcid", "is not an ORCID iD like 0000-0002-1825-0097");
      TACO_ASSIGN_OR_RETURN(pc.ror, GetString(c, "ror", source, where));
      TACO_ASSIGN_OR_RETURN(pc.affiliation, GetString(c, "affiliation", source, where));
      TACO_ASSIGN_OR_RETURN(pc.affiliation_ror, GetString(c, "affiliation_ror", source, where));
      TACO_ASSIGN_OR_RETURN(pc.email, GetString(c, "email", source, where));
      if (pc.name.empty() && pc.family_name.empty()) return Bad(source, where + "name", "is required (or family_name)");
      if (pc.name.empty()) pc.name = pc.family_name + (pc.given_name.empty() ? "" : ", " + pc.given_name);
      p.creators.push_back(std::move(pc));
    }
  }
  if (auto it = s.find("funding"); it != s.end() && !it->is_null()) {
    if (!it->is_array()) return Bad(source, "funding", "must be a list of objects");
    for (size_t i = 0; i < it->size(); ++i) {
      const json& f = (*it)[i];
      std::string where = "funding[" + std::to_string(i) + "].";
      if (!f.is_object()) return Bad(source, "funding[" + std::to_string(i) + "]", "must be an object");
      TACO_RETURN_IF_ERROR(
          CheckKeys(f, {"funder_name", "funder_identifier", "funder_identifier_type", "award_number", "award_title"},
                    source, where));
      PublicationFunding pf;
      TACO_ASSIGN_OR_RETURN(pf.funder_name, GetString(f, "funder_name", source, where));
      TACO_ASSIGN_OR_RETURN(pf.funder_identifier, GetString(f, "funder_identifier", source, where));
      TACO_ASSIGN_OR_RETURN(pf.funder_identifier_type, GetString(f, "funder_identifier_type", source, where));
      TACO_ASSIGN_OR_RETURN(pf.award_number, GetString(f, "award_number", source, where));
      TACO_ASSIGN_OR_RETURN(pf.award_title, GetString(f, "award_title", source, where));
      if (pf.funder_name.empty()) return Bad(source, where + "funder_name", "is required");
      const std::vector<std::string> types = {"", "Crossref Funder ID", "GRID", "ISNI", "ROR", "Other"};
      if (std::find(types.begin(), types.end(), pf.funder_identifier_type) == types.end()) {
        return Bad(source, where + "funder_identifier_type",
                   "must be one of Crossref Funder ID, GRID, ISNI, ROR, Other");
      }
      p.funding.push_back(std::move(pf));
    }
  }
  if (auto it = s.find("rai"); it != s.end() && !it->is_null()) {
    if (!it->is_object()) return Bad(source, "rai", "must be an object of Croissant RAI properties");
    for (const auto& [key, value] : it->items()) {
      std::string k = key.rfind("rai:", 0) == 0 ? key.substr(4) : key;
      if (std::find(std::begin(kRaiProperties), std::end(kRaiProperties), k) == std::end(kRaiProperties)) {
        return Bad(source, "rai." + key,
                   "is not a Croissant RAI 1.0 property (e.g. dataBiases, dataLimitations, dataUseCases)");
      }
      if (!value.is_string()) return Bad(source, "rai." + key, "must be a string");
      p.rai.emplace_back(k, value.get<std::string>());
    }
  }
  if (auto it = s.find("same_as"); it != s.end() && !it->is_null()) {
    if (!it->is_array()) return Bad(source, "same_as", "must be a list of URLs");
    for (const auto& v : *it) {
      if (!v.is_string()) return Bad(source, "same_as", "must be a list of URLs");
      p.same_as.push_back(v.get<std::string>());
    }
  }
  return p;
}

Result<Publication> ReadPublicationFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::NotFound(Quote(path) + ": cannot open the publication sidecar");
  std::stringstream buf;
  buf << in.rdbuf();
  json j = json::parse(buf.str(), nullptr, false);
  if (j.is_discarded()) return Status::InvalidArgument(Quote(path) + ": the publication sidecar is not valid JSON");
  return ParsePublication(j, Quote(path));
}

std::string_view PublishOutputName(PublishOutput output) {
  switch (output) {
    case PublishOutput::kStac: return "stac";
    case PublishOutput::kCroissant: return "croissant";
    case PublishOutput::kDatacite: return "datacite";
    case PublishOutput::kHuggingFace: return "hf";
    case PublishOutput::kHtml: return "html";
  }
  return "";
}

std::vector<std::string> PublishOutputFiles(PublishOutput output) {
  switch (output) {
    case PublishOutput::kStac: return {"stac-collection.json"};
    case PublishOutput::kCroissant: return {"croissant.json"};
    case PublishOutput::kDatacite: return {"datacite.xml", "datacite.json"};
    case PublishOutput::kHuggingFace: return {"README.md"};
    case PublishOutput::kHtml: return {"index.html"};
  }
  return {};
}

Result<std::vector<PublishOutput>> ParsePublishOutputs(const std::string& list) {
  std::vector<PublishOutput> out;
  std::stringstream ss(list);
  std::string item;
  const PublishOutput all[] = {PublishOutput::kStac, PublishOutput::kCroissant, PublishOutput::kDatacite,
                               PublishOutput::kHuggingFace, PublishOutput::kHtml};
  while (std::getline(ss, item, ',')) {
    if (item.empty()) continue;
    bool found = false;
    for (PublishOutput o : all) {
      if (PublishOutputName(o) == item) {
        if (std::find(out.begin(), out.end(), o) == out.end()) out.push_back(o);
        found = true;
      }
    }
    if (!found)
      return Status::InvalidArgument("--only: unknown output " + Quote(item) +
                                     " (known: stac, croissant, datacite, hf, html)");
  }
  if (out.empty())
    return Status::InvalidArgument("--only: no output named (known: stac, croissant, datacite, hf, html)");
  return out;
}

Result<std::vector<std::pair<std::string, std::string>>> RenderPublication(const std::string& dataset_path,
                                                                           const PublishOptions& options) {
  std::vector<PublishOutput> outputs = options.only;
  if (outputs.empty()) {
    outputs = {PublishOutput::kStac, PublishOutput::kCroissant, PublishOutput::kDatacite, PublishOutput::kHuggingFace,
               PublishOutput::kHtml};
  }
  TACO_ASSIGN_OR_RETURN(publish::Model model, publish::BuildModel(dataset_path, options));
  std::vector<std::pair<std::string, std::string>> docs;
  std::vector<std::string> problems;
  auto add = [&](const std::string& name, Result<std::string> doc) {
    if (doc.ok()) {
      docs.emplace_back(name, std::move(*doc));
    } else {
      problems.push_back(doc.status().message());
    }
  };
  for (PublishOutput o : outputs) {
    switch (o) {
      case PublishOutput::kStac: add("stac-collection.json", publish::WriteStacCollection(model)); break;
      case PublishOutput::kCroissant: add("croissant.json", publish::WriteCroissant(model)); break;
      case PublishOutput::kDatacite:
        add("datacite.xml", publish::WriteDataciteXml(model));
        if (problems.empty() || problems.back().rfind("datacite.xml", 0) != 0) {
          add("datacite.json", publish::WriteDataciteJson(model));
        }
        break;
      case PublishOutput::kHuggingFace: add("README.md", publish::WriteHfCard(model)); break;
      case PublishOutput::kHtml: add("index.html", publish::WriteHtmlPage(model)); break;
    }
  }
  if (!problems.empty()) {
    std::string msg;
    for (const auto& p : problems) msg += (msg.empty() ? "" : " | ") + p;
    return Status::InvalidArgument(msg + " (or leave those outputs out with --only)");
  }
  return docs;
}

Result<PublishResult> Publish(const std::string& dataset_path, const std::string& outdir,
                              const PublishOptions& options) {
  TACO_ASSIGN_OR_RETURN(auto docs, RenderPublication(dataset_path, options));
  std::error_code ec;
  fs::path dir(outdir);
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
    return Status::InvalidArgument(Quote(outdir) + ": exists and is not a directory");
  bool made_dir = false;
  if (!fs::exists(dir, ec)) {
    fs::create_directories(dir, ec);
    if (ec) return Status::IOError(Quote(outdir) + ": cannot create: " + ec.message());
    made_dir = true;
  }
  for (const auto& [name, text] : docs) {
    if (!options.overwrite && fs::exists(dir / name, ec)) {
      return Status::AlreadyExists(Quote((dir / name).string()) + ": already exists (use --overwrite)");
    }
  }
  // Write every document under a temporary name, then rename them all.
  std::vector<std::pair<fs::path, fs::path>> staged;
  auto cleanup = [&] {
    for (const auto& [tmp, fin] : staged) fs::remove(tmp, ec);
    if (made_dir) fs::remove(dir, ec);
  };
  for (const auto& [name, text] : docs) {
    fs::path tmp = dir / ("." + name + ".tmp-publish");
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    staged.emplace_back(tmp, dir / name);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    if (!out) {
      cleanup();
      return Status::IOError(Quote(tmp.string()) + ": write failed");
    }
  }
  PublishResult result;
  for (const auto& [tmp, fin] : staged) {
    fs::rename(tmp, fin, ec);
    if (ec) {
      Status st = Status::IOError(Quote(fin.string()) + ": cannot rename into place: " + ec.message());
      for (const auto& done : result.written) fs::remove(done, ec);
      cleanup();
      return st;
    }
    result.written.push_back(fin.string());
  }
  return result;
}

}  // namespace taco
