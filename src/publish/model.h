// The publication model: one dataset's collection (null-tolerant, both provider shapes) plus the
// facts computed from its levels and files, plus the sidecar. Every writer is a function of it.
//
// Contract: BuildPublicationModel reads only metadata (levels through SQL, COLLECTION.json) and
// hashes the container files (sha256, whole files); it never reads a sample's bytes.
// Strings are as found (trimmed); absent or null values are empty/nullopt, never "None".
#ifndef TACO_SRC_PUBLISH_MODEL_H_
#define TACO_SRC_PUBLISH_MODEL_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "taco/publish.h"
#include "taco/status.h"

namespace taco::publish {

struct Provider {
  std::string name;          // name, else organization
  std::string organization;  // contact style only
  std::string email;
  std::vector<std::string> roles;  // "roles" list or the single contact-style "role"
  std::string url;
  std::vector<std::pair<std::string, std::string>> links;  // (rel or title, href)
};

struct Curator {
  std::string name;
  std::string organization;
  std::string email;
  std::string role;
};

struct PublicationRef {  // collection `publications[]`
  std::string doi;
  std::string citation;
  std::string summary;
};

struct LabelClass {
  std::string name;
  std::string category;
  std::string description;
};

struct Band {
  std::string name;
  std::string common_name;
  std::string description;
  std::string unit;
  std::optional<double> center_wavelength;
  std::optional<double> fwhm;
};

struct FieldInfo {
  std::string name;
  std::string type;  // PyArrow spelling
  std::string description;
  uint64_t nulls = 0;  // non-padding rows where the value is null
};

struct LevelFacts {
  int level = 0;
  uint64_t stored_rows = 0;  // padding included
  uint64_t padding_rows = 0;
  uint64_t samples() const { return stored_rows - padding_rows; }
  uint64_t files = 0;    // FILE rows (padding excluded)
  uint64_t folders = 0;  // FOLDER rows
  std::vector<FieldInfo> fields;
  // pit pattern(s) of this level: each is a list of (id, type).
  std::vector<std::vector<std::pair<std::string, std::string>>> patterns;
};

struct FileFact {
  std::string name;  // path relative to the dataset root (what a user downloads)
  std::string role;  // "data", "metadata", "collection"
  std::string media_type;
  uint64_t size = 0;
  std::string sha256;        // hex; empty when not computed (FOLDER data summary)
  uint64_t file_count = 1;   // > 1 for the FOLDER data summary entry (a FileSet)
  std::string contained_in;  // a member of this container file (name), else empty
};

struct Partition {
  std::string file;
  std::string id;
  std::optional<std::array<double, 4>> bbox;
  std::string start, end;
};

struct CountedValue {
  std::string value;
  uint64_t count = 0;
};

struct Model {
  nlohmann::ordered_json collection;
  std::string format;       // "zip", "folder", "tacocat", "tacollection"
  std::string source_name;  // base name of what was published
  std::string id, title, description, dataset_version, taco_version;
  bool title_given = false;
  std::vector<std::string> licenses, keywords, tasks;
  std::vector<Provider> providers;
  std::vector<Curator> curators;
  std::vector<PublicationRef> publications;
  std::optional<std::array<double, 4>> bbox;  // W, S, E, N (W > E crosses the antimeridian)
  std::string time_start, time_end;           // ISO-8601 UTC with Z, or empty
  std::vector<Partition> partitions;
  std::vector<LevelFacts> levels;
  std::string root_type;                             // FILE / FOLDER
  std::vector<CountedValue> crs;                     // distinct stac:crs / istac:crs (all levels)
  std::vector<CountedValue> gsd;                     // distinct |geotransform[1]|, as text
  std::vector<CountedValue> tensor_shapes;           // "3x64x64"
  std::vector<CountedValue> splits;                  // level0 `split`
  std::string time_column;                           // the column the histogram counts
  std::string histogram_unit;                        // "month" or "year"
  std::vector<CountedValue> histogram;               // "2023-01" → n
  std::vector<std::pair<double, double>> centroids;  // (lon, lat), thinned
  uint64_t centroid_total = 0;
  std::string centroid_column;
  std::vector<LabelClass> label_classes;
  std::string labels_description;
  std::string sensor;
  std::vector<Band> bands;
  std::string split_strategy;
  std::string subset_of, subset_date;
  std::vector<FileFact> files;
  Publication pub;
  std::string generated_at;  // ISO UTC
  std::string generator;     // "taco-cpp 0.1.0"

  uint64_t samples() const { return levels.empty() ? 0 : levels[0].samples(); }
  uint64_t total_bytes() const;
  // Year of publication: sidecar date, else none (never the data's years).
  std::string publication_year() const { return pub.publication_date.substr(0, 4); }
  // Landing page: sidecar, else https://doi.org/<doi>, else empty.
  std::string landing_url() const;
  // base URL + name when a download base URL is known, else empty.
  std::string download_url(const std::string& name) const;
};

// Opens `dataset_path` and computes the model.
Result<Model> BuildModel(const std::string& dataset_path, const PublishOptions& options);

}  // namespace taco::publish

#endif  // TACO_SRC_PUBLISH_MODEL_H_
