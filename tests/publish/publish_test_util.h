// Helpers for the publish tests: datasets made with our own writer, a pinned sidecar, and the
// offline validators (tests/publish/validate_outputs.py, tests/publish/browser/check_page.mjs).
#ifndef TACO_TESTS_PUBLISH_PUBLISH_TEST_UTIL_H_
#define TACO_TESTS_PUBLISH_PUBLISH_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/paths.h"
#include "taco/model.h"
#include "taco/publish.h"
#include "taco/writer.h"

namespace taco::publishtest {

inline std::string WkbPoint(double x, double y) {
  std::string out(21, '\0');
  out[0] = 1;
  out[1] = 1;
  std::memcpy(&out[5], &x, 8);
  std::memcpy(&out[13], &y, 8);
  return out;
}

// The interpreter with jsonschema/mlcroissant/rdflib/pyyaml: TACO_PYTHON, else the project
// venv (scripts/bootstrap.sh), else /usr/bin/python3.
inline std::string Python() {
  if (const char* p = std::getenv("TACO_PYTHON")) return p;
  std::string venv = std::string(TACO_SOURCE_DIR) + "/.venv/bin/python3";
  if (std::filesystem::exists(venv)) return venv;
  return "/usr/bin/python3";
}

inline std::string PublishDir() { return std::string(TACO_SOURCE_DIR) + "/tests/publish"; }

// Runs the validator of `kind` on `file`; returns its result (exit 0 = valid).
inline testing::CommandResult Validate(const std::string& kind, const std::string& file, const std::string& root = "") {
  std::string cmd = testing::ShellQuote(Python()) + " " + testing::ShellQuote(PublishDir() + "/validate_outputs.py") +
                    " " + kind + " " + testing::ShellQuote(file);
  if (!root.empty()) cmd += " --root " + testing::ShellQuote(root);
  return testing::RunCommand(cmd);
}

// A sidecar with everything the standards require.
inline Publication FullPublication() {
  Publication p;
  p.doi = "10.5072/taco-test";
  p.landing_url = "https://example.org/datasets/test";
  p.publisher = "Example Data Centre";
  p.publisher_ror = "https://ror.org/05gq02987";
  p.publication_date = "2026-01-31";
  PublicationCreator person;
  person.name = "Doe, Jane";
  person.given_name = "Jane";
  person.family_name = "Doe";
  person.orcid = "0000-0002-1825-0097";
  person.affiliation = "Example University";
  PublicationCreator org;
  org.name = "Example Agency & Partners";
  org.organization = true;
  p.creators = {person, org};
  p.language = "en";
  p.funding = {{"Example Funder", "https://ror.org/00k4n6c32", "ROR", "123-456", "Open EO data"}};
  p.rai = {{"dataBiases", "Tiles over Europe are over-represented."}, {"dataLimitations", "Synthetic pixels."}};
  return p;
}

inline PublishOptions FullOptions() {
  PublishOptions o;
  o.publication = FullPublication();
  o.generated_at = "2026-02-01T12:00:00Z";
  return o;
}

struct Spot {
  std::string id;
  double lon, lat;
  int64_t time_us;
  std::string split;
};

// FILE samples with STAC-like columns: stac:crs, stac:geotransform, stac:tensor_shape,
// stac:centroid, stac:time_start, split.
inline Taco FlatTaco(const std::vector<Spot>& spots, nlohmann::ordered_json collection, size_t pad_to = 0) {
  std::vector<Sample> samples;
  for (const Spot& s : spots) {
    Sample x = *Sample::FromBytes(s.id, "bytes of " + s.id);
    EXPECT_TRUE(x.Extend(Field{"stac:crs", DataType::String(), Value(std::string("EPSG:32630")), ""}).ok());
    EXPECT_TRUE(x.Extend(Field{"stac:geotransform", DataType::List(DataType::Double()),
                               Value(ValueList{Value(500000.0), Value(10.0), Value(0.0), Value(4000000.0), Value(0.0),
                                               Value(-10.0)}),
                               ""})
                    .ok());
    EXPECT_TRUE(x.Extend(Field{"stac:tensor_shape", DataType::List(DataType::Int64()),
                               Value(ValueList{Value(int64_t{3}), Value(int64_t{64}), Value(int64_t{64})}), ""})
                    .ok());
    EXPECT_TRUE(x.Extend(Field{"stac:centroid", DataType::Binary(), Value(Binary{WkbPoint(s.lon, s.lat)}), ""}).ok());
    EXPECT_TRUE(x.Extend(Field{"stac:time_start", DataType::TimestampUs(), Value(TimestampUs{s.time_us}), ""}).ok());
    EXPECT_TRUE(x.Extend(Field{"split", DataType::String(), Value(s.split), ""}).ok());
    samples.push_back(std::move(x));
  }
  TortillaOptions options;
  if (pad_to > 0) options.pad_to = pad_to;
  auto tortilla = Tortilla::Make(std::move(samples), options);
  EXPECT_TRUE(tortilla.ok()) << tortilla.status().ToString();
  auto taco = Taco::Make(std::move(*tortilla), std::move(collection));
  EXPECT_TRUE(taco.ok()) << taco.status().ToString();
  return *taco;
}

inline nlohmann::ordered_json BaseCollection(const std::string& id, const std::string& description) {
  return {
      {"id", id},
      {"dataset_version", "1.2.0"},
      {"description", description},
      {"licenses", {"CC-BY-4.0"}},
      {"providers", {{{"name", "Example Agency"}, {"roles", {"producer", "host"}}, {"url", "https://example.org"}}}},
      {"tasks", {"semantic-segmentation"}},
      {"title", "Publish <Test> & Co"},
      {"keywords", {"sentinel-2", "land cover"}},
      {"labels:classes",
       {{{"name", "water"}, {"category", "natural"}, {"description", "open water"}},
        {{"name", "urban"}, {"category", "built"}, {"description", "built-up"}}}},
      {"split:strategy", "random"}};
}

// Ten spots in 2023, Europe and Africa.
inline std::vector<Spot> SomeSpots(size_t n = 10) {
  std::vector<Spot> out;
  for (size_t i = 0; i < n; ++i) {
    out.push_back({"tile_" + std::to_string(i), -10.0 + 3.0 * static_cast<double>(i), 35.0 + static_cast<double>(i),
                   1672531200000000LL + static_cast<int64_t>(i) * 30LL * 86400000000LL, i % 5 == 0 ? "test" : "train"});
  }
  return out;
}

// Rewrites COLLECTION.json of a FOLDER dataset with `patch` merged in.
inline void PatchFolderCollection(const std::string& folder, const nlohmann::ordered_json& patch) {
  std::string path = folder + "/COLLECTION.json";
  auto c = nlohmann::ordered_json::parse(testing::ReadFile(path));
  for (const auto& [k, v] : patch.items()) c[k] = v;
  testing::WriteFile(path, c.dump(4));
}

}  // namespace taco::publishtest

#endif  // TACO_TESTS_PUBLISH_PUBLISH_TEST_UTIL_H_
