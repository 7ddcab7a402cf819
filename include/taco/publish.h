// Publishing a dataset: STAC Collection 1.0.0, Croissant 1.0 JSON-LD, DataCite 4.5 XML and
// JSON, a Hugging Face dataset card and a self-contained HTML page (../shared/spec/EXPORTERS.md).
//
// Contract:
//  * Publish() opens a local dataset (ZIP, FOLDER, TACOCAT, or a TACOLLECTION.json whose
//    `taco:sources.files` sit beside it), computes the facts the standards want from the levels
//    (real sample counts without padding, CRS set, GSD, splits, tensor shapes, temporal
//    histogram, thinned centroids, container files with size and sha256), merges the optional
//    publication sidecar, and writes the chosen files into OUTDIR.
//  * Nothing is invented: a field a standard requires that neither the collection nor the sidecar
//    gives (e.g. DataCite's identifier and publicationYear, Croissant's url and datePublished)
//    is an InvalidArgument naming the field and the standard, and no file is written.
//  * Outputs are atomic: every file is written under a temporary name in OUTDIR and renamed when
//    all chosen files are complete; an existing file of the same name is an AlreadyExists error
//    unless `overwrite`. OUTDIR is created when missing.
//  * Errors are Status values; nothing throws.
#ifndef TACO_PUBLISH_H_
#define TACO_PUBLISH_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "taco/dataset.h"
#include "taco/status.h"

namespace taco {

// A creator of the publication (sidecar `creators[]`).
struct PublicationCreator {
  std::string name;         // "Family, Given" for people, the name for organisations
  std::string given_name;   // optional
  std::string family_name;  // optional
  bool organization = false;
  std::string orcid;        // "0000-0002-1825-0097" (people)
  std::string ror;          // "https://ror.org/..." (organisations)
  std::string affiliation;  // people: organisation name
  std::string affiliation_ror;
  std::string email;
};

struct PublicationFunding {
  std::string funder_name;
  std::string funder_identifier;       // e.g. a ROR or Crossref Funder ID URL
  std::string funder_identifier_type;  // "ROR", "Crossref Funder ID", "ISNI", "GRID", "Other"
  std::string award_number;
  std::string award_title;
};

// What TACO never carries (EXPORTERS §4.0), from the `--publication FILE.json` sidecar:
// {"doi", "landing_url", "download_base_url", "publisher", "publisher_ror",
//  "publication_date" ("YYYY-MM-DD"), "creators": [...], "language", "funding": [...],
//  "rai": {"dataBiases": "...", ...}, "same_as": [...]}. Every key is optional.
struct Publication {
  std::string doi;  // "10.5281/zenodo.123" (a "https://doi.org/" prefix is stripped)
  std::string landing_url;
  std::string download_base_url;
  std::string publisher;
  std::string publisher_ror;
  std::string publication_date;
  std::vector<PublicationCreator> creators;
  std::string language;
  std::vector<PublicationFunding> funding;
  std::vector<std::pair<std::string, std::string>> rai;  // Croissant RAI property → text
  std::vector<std::string> same_as;
};

// Parses a sidecar; InvalidArgument naming the file and the key for unknown keys, wrong types,
// a malformed date, DOI or ORCID, or an unknown RAI property.
Result<Publication> ParsePublication(const nlohmann::ordered_json& sidecar, const std::string& source);
Result<Publication> ReadPublicationFile(const std::string& path);

// Output kinds and their file names.
enum class PublishOutput { kStac, kCroissant, kDatacite, kHuggingFace, kHtml };
// "stac", "croissant", "datacite", "hf", "html".
std::string_view PublishOutputName(PublishOutput output);
// The files an output writes: stac-collection.json, croissant.json, datacite.xml + datacite.json,
// README.md, index.html.
std::vector<std::string> PublishOutputFiles(PublishOutput output);
// "stac,hf" → {kStac, kHuggingFace}; InvalidArgument naming an unknown one.
Result<std::vector<PublishOutput>> ParsePublishOutputs(const std::string& list);

struct PublishOptions {
  Publication publication;
  // Download base URL of the container files; overrides publication.download_base_url.
  std::string base_url;
  // Empty: all outputs.
  std::vector<PublishOutput> only;
  // Replace existing output files.
  bool overwrite = false;
  // "YYYY-MM-DDTHH:MM:SSZ" of this export; empty = now (tests pin it).
  std::string generated_at;
  // Centroids drawn on the HTML map at most (a deterministic sample of the level's rows).
  uint64_t max_map_points = 2000;
  // How datasets are opened (TACOCAT base path, disk cache of remote metadata; taco/dataset.h).
  OpenOptions open;
};

struct PublishResult {
  std::vector<std::string> written;  // final paths, in output order
};

Result<PublishResult> Publish(const std::string& dataset_path, const std::string& outdir,
                              const PublishOptions& options = {});

// The documents without writing them: file name → content (for bindings and tests).
Result<std::vector<std::pair<std::string, std::string>>> RenderPublication(const std::string& dataset_path,
                                                                           const PublishOptions& options = {});

}  // namespace taco

#endif  // TACO_PUBLISH_H_
