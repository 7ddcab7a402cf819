// taco publish: the model's facts, every writer on the upstream fixtures and on generated
// datasets (padding, antimeridian, TACOCAT parts, TACOLLECTION, 1 sample), each output checked
// by its offline validator, and each validator shown to reject a broken variant.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

#include "publish/markdown.h"
#include "publish/model.h"
#include "publish/sha256.h"
#include "publish/text.h"
#include "publish/writers.h"
#include "publish_test_util.h"
#include "support/paths.h"
#include "taco/dataset.h"
#include "taco/tacocat.h"

namespace taco {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;
using publishtest::FullOptions;
using publishtest::Validate;
using testing::ReadFile;
using testing::TempDir;
using testing::WriteFile;

std::string Fixture(const std::string& rel) { return testing::UpstreamFixtures() + "/" + rel; }

// Publishes `dataset` into `out` with the full sidecar and validates every file.
void PublishAndValidate(const std::string& dataset, const std::string& out, PublishOptions options = FullOptions()) {
  auto result = Publish(dataset, out, options);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  ASSERT_EQ(result->written.size(), 6u);
  for (const auto& [kind, file] : std::vector<std::pair<std::string, std::string>>{{"stac", "stac-collection.json"},
                                                                                   {"datacite-xml", "datacite.xml"},
                                                                                   {"datacite-json", "datacite.json"},
                                                                                   {"croissant", "croissant.json"},
                                                                                   {"hf", "README.md"}}) {
    auto r = Validate(kind, out + "/" + file);
    EXPECT_EQ(r.exit_code, 0) << dataset << " " << file << ":\n" << r.err << r.out;
  }
}

// ---- small units ----------------------------------------------------------------------------

TEST(PublishSha256, KnownVectors) {
  EXPECT_EQ(publish::Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(publish::Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(publish::Sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(publish::Sha256Hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(PublishSha256, FileMatchesSha256sum) {
  std::string zip = Fixture("zip/flat/flat.tacozip");
  auto r = testing::RunCommand("sha256sum " + testing::ShellQuote(zip));
  ASSERT_EQ(r.exit_code, 0);
  auto digest = publish::Sha256File(zip);
  ASSERT_TRUE(digest.ok());
  EXPECT_EQ(*digest, r.out.substr(0, 64));
}

TEST(PublishMarkdown, ListsCodeAndEscapedHtml) {
  std::string html = publish::MarkdownToHtml(
      "Intro *x*\n\n- a\n- b\n\n1. one\n2. two\n\n```\ncode "
      "<b>\n```\n\n<script>alert(1)</script>\n\n[ok](https://e.org) "
      "[bad](javascript:alert(1))",
      2);
  EXPECT_NE(html.find("<ul>\n<li>a</li>\n<li>b</li>\n</ul>"), std::string::npos) << html;
  EXPECT_NE(html.find("<ol>\n<li>one</li>\n<li>two</li>\n</ol>"), std::string::npos) << html;
  EXPECT_NE(html.find("<pre><code>code &lt;b&gt;\n</code></pre>"), std::string::npos) << html;
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos) << html;
  EXPECT_EQ(html.find("<script"), std::string::npos) << html;
  EXPECT_NE(html.find("<a href=\"https://e.org\""), std::string::npos);
  EXPECT_EQ(html.find("href=\"javascript"), std::string::npos) << html;
  EXPECT_NE(html.find("<em>x</em>"), std::string::npos);
}

TEST(PublishText, TablesAndCitation) {
  EXPECT_EQ(publish::LookupLicense("cc-by-4.0").spdx, "CC-BY-4.0");
  EXPECT_EQ(publish::LookupLicense("CC-BY-4.0").hf, "cc-by-4.0");
  EXPECT_EQ(publish::LookupLicense("My licence").hf, "other");
  EXPECT_EQ(publish::FormatNumber(180), "180");
  EXPECT_EQ(publish::FormatNumber(-20), "-20");
  EXPECT_EQ(publish::FormatNumber(0.1), "0.1");
  EXPECT_EQ(publish::FormatNumber(-33.85), "-33.85");
  EXPECT_EQ(publish::FormatNumber(1e20), "1e+20");
  EXPECT_EQ(publish::SizeCategory(999), "n<1K");
  EXPECT_EQ(publish::SizeCategory(1000), "1K<n<10K");
  EXPECT_EQ(publish::SizeCategory(10000000), "10M<n<100M");
  EXPECT_EQ(publish::MapTask("semantic-segmentation").category, "image-segmentation");
  EXPECT_EQ(publish::MapTask("regression").category, "");
  publish::Model m;
  m.id = "my-ds";
  m.title = "A & B {x}";
  m.generated_at = "2026-02-01T00:00:00Z";
  m.pub.publication_date = "2025-06-30";
  m.providers.push_back({"Org % One", "", "", {}, "", {}});
  std::string bib = publish::BibTex(m);
  EXPECT_NE(bib.find("@misc{my_ds_2025,"), std::string::npos) << bib;
  EXPECT_NE(bib.find("year = {2025}"), std::string::npos) << bib;
  EXPECT_NE(bib.find("author = {{Org \\% One}}"), std::string::npos) << bib;
  EXPECT_NE(bib.find("title = {{A \\& B \\{x\\}}}"), std::string::npos) << bib;
  EXPECT_EQ(bib.find("None"), std::string::npos);
}

TEST(PublishSidecar, ParsesAndRejects) {
  auto ok =
      ParsePublication(json::parse(R"({"doi": "https://doi.org/10.5281/zenodo.1", "publication_date": "2026-01-02",
      "creators": [{"family_name": "Doe", "given_name": "J", "orcid": "https://orcid.org/0000-0002-1825-0097"}],
      "rai": {"rai:dataBiases": "x"}})"),
                       "side.json");
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(ok->doi, "10.5281/zenodo.1");
  EXPECT_EQ(ok->creators[0].name, "Doe, J");
  EXPECT_EQ(ok->creators[0].orcid, "0000-0002-1825-0097");
  EXPECT_EQ(ok->rai[0].first, "dataBiases");
  for (const char* bad : {R"({"doy": "x"})", R"({"doi": "11.1/x"})", R"({"publication_date": "2026-13-01"})",
                          R"({"creators": [{"name": "A", "orcid": "123"}]})", R"({"rai": {"dataBias": "x"}})",
                          R"({"landing_url": "ftp://x"})", R"([1])"}) {
    auto r = ParsePublication(json::parse(bad), "side.json");
    EXPECT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.status().message().find("side.json"), std::string::npos) << r.status().ToString();
  }
}

// ---- the model -------------------------------------------------------------------------------

TEST(PublishModel, NestedFixtureFacts) {
  auto m = publish::BuildModel(Fixture("folder/nested"), FullOptions());
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->format, "folder");
  EXPECT_EQ(m->title, "test_dataset");  // title null → id, never "None"
  EXPECT_FALSE(m->title_given);
  ASSERT_EQ(m->levels.size(), 2u);
  EXPECT_EQ(m->levels[0].samples(), 3u);
  EXPECT_EQ(m->levels[0].folders, 3u);
  EXPECT_EQ(m->levels[1].samples(), 9u);
  EXPECT_EQ(m->providers.size(), 1u);  // contact-style provider
  EXPECT_EQ(m->providers[0].name, "Test");
  ASSERT_TRUE(m->bbox.has_value());
  EXPECT_DOUBLE_EQ((*m->bbox)[0], 2.35);  // the extent tacotoolbox 0.26.9 wrote (antimeridian rule)
  EXPECT_EQ(m->time_start, "2023-01-01T00:00:00Z");
  EXPECT_FALSE(m->histogram.empty());
  EXPECT_FALSE(m->centroids.empty());  // istac:centroid of level 1
  // FOLDER files: COLLECTION.json, two level Parquets (hashed), DATA/ summary.
  bool level1 = false, data = false;
  for (const auto& f : m->files) {
    if (f.name == "METADATA/level1.parquet") {
      level1 = true;
      auto expect = publish::Sha256File(Fixture("folder/nested/METADATA/level1.parquet"));
      EXPECT_EQ(f.sha256, *expect);
    }
    if (f.name == "DATA/") {
      data = true;
      EXPECT_EQ(f.file_count, 9u);
    }
  }
  EXPECT_TRUE(level1);
  EXPECT_TRUE(data);
}

TEST(PublishModel, PaddingIsCountedApart) {
  TempDir dir;
  auto spots = publishtest::SomeSpots(7);
  auto parts =
      Create(publishtest::FlatTaco(spots, publishtest::BaseCollection("padded", "Padded."), 5), dir / "p.tacozip");
  ASSERT_TRUE(parts.ok()) << parts.status().ToString();
  auto m = publish::BuildModel(dir / "p.tacozip", FullOptions());
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->levels[0].stored_rows, 10u);
  EXPECT_EQ(m->levels[0].padding_rows, 3u);
  EXPECT_EQ(m->samples(), 7u);
  ASSERT_EQ(m->crs.size(), 1u);
  EXPECT_EQ(m->crs[0].value, "EPSG:32630");
  EXPECT_EQ(m->crs[0].count, 7u);
  ASSERT_EQ(m->gsd.size(), 1u);
  EXPECT_EQ(m->gsd[0].value, "10.0");
  ASSERT_EQ(m->tensor_shapes.size(), 1u);
  EXPECT_EQ(m->tensor_shapes[0].value, "3x64x64");
  ASSERT_EQ(m->splits.size(), 2u);
  EXPECT_EQ(m->splits[0].value, "train");
  EXPECT_EQ(m->splits[0].count, 5u);
  EXPECT_EQ(m->centroids.size(), 7u);
  auto card = publish::WriteHfCard(*m);
  ASSERT_TRUE(card.ok());
  EXPECT_NE(card->find("size_categories:\n- \"n<1K\""), std::string::npos);
}

// ---- every writer, validated ------------------------------------------------------------------

TEST(PublishOutputs, UpstreamFixturesValidate) {
  for (const char* rel : {"zip/flat/flat.tacozip", "zip/nested/nested.tacozip", "folder/flat", "folder/nested"}) {
    TempDir out;
    SCOPED_TRACE(rel);
    PublishAndValidate(Fixture(rel), out / "pub");
    std::string html = ReadFile(out / "pub/index.html");
    EXPECT_NE(html.find("<title>test_dataset</title>"), std::string::npos);
    EXPECT_EQ(html.find("None"), std::string::npos);
    EXPECT_EQ(html.find("<link"), std::string::npos);  // nothing to fetch
    EXPECT_EQ(html.find(" src="), std::string::npos);
    EXPECT_LT(html.size(), 200u * 1024u);
  }
}

TEST(PublishOutputs, GeneratedDatasetWithAntimeridianExtent) {
  TempDir dir;
  auto parts =
      Create(publishtest::FlatTaco(publishtest::SomeSpots(), publishtest::BaseCollection("anti", "Crosses 180°.")),
             dir / "anti");
  ASSERT_TRUE(parts.ok()) << parts.status().ToString();
  publishtest::PatchFolderCollection(
      dir / "anti",
      {{"extent",
        {{"spatial", {170.5, -20.0, -170.25, 10.0}}, {"temporal", {"2023-01-01T00:00:00Z", "2023-09-28T00:00:00Z"}}}}});
  PublishAndValidate(dir / "anti", dir / "pub");
  auto stac = json::parse(ReadFile(dir / "pub/stac-collection.json"));
  EXPECT_EQ(stac["extent"]["spatial"]["bbox"][0], json::parse("[170.5, -20.0, -170.25, 10.0]"));
  std::string xml = ReadFile(dir / "pub/datacite.xml");
  EXPECT_NE(
      xml.find("<westBoundLongitude>170.5</westBoundLongitude>\n        <eastBoundLongitude>180</eastBoundLongitude>"),
      std::string::npos)
      << xml;
  EXPECT_NE(
      xml.find(
          "<westBoundLongitude>-180</westBoundLongitude>\n        <eastBoundLongitude>-170.25</eastBoundLongitude>"),
      std::string::npos);
  auto croissant = json::parse(ReadFile(dir / "pub/croissant.json"));
  ASSERT_TRUE(croissant["spatialCoverage"].is_array());
  EXPECT_EQ(croissant["spatialCoverage"].size(), 2u);
  std::string html = ReadFile(dir / "pub/index.html");
  EXPECT_NE(html.find("crosses the antimeridian"), std::string::npos);
  // Two extent rectangles: 170.5..180 and -180..-170.25.
  size_t first = html.find("<rect class=\"extent\"");
  ASSERT_NE(first, std::string::npos);
  EXPECT_NE(html.find("<rect class=\"extent\"", first + 1), std::string::npos);
  // Labels and the title's special characters survive escaping.
  EXPECT_NE(html.find("<title>Publish &lt;Test&gt; &amp; Co</title>"), std::string::npos);
  EXPECT_NE(ReadFile(dir / "pub/README.md").find("| 1 | urban | built | built-up |"), std::string::npos);
}

TEST(PublishOutputs, TacocatPartsAndTacollection) {
  TempDir dir;
  CreateOptions options;
  options.split_size = 1;  // one part per sample
  auto parts = Create(publishtest::FlatTaco(publishtest::SomeSpots(4), publishtest::BaseCollection("parts", "Parts.")),
                      dir / "ds.tacozip", options);
  ASSERT_TRUE(parts.ok()) << parts.status().ToString();
  ASSERT_EQ(parts->size(), 4u);
  ASSERT_TRUE(fs::exists(dir / ".tacocat"));
  PublishAndValidate(dir.path(), dir / "pub-cat");
  auto m = publish::BuildModel(dir.path(), FullOptions());
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->format, "tacocat");
  EXPECT_EQ(m->samples(), 4u);
  int zips = 0;
  for (const auto& f : m->files) zips += f.media_type == "application/zip" && f.sha256.size() == 64;
  EXPECT_EQ(zips, 4);
  EXPECT_EQ(m->partitions.size(), 4u);

  ASSERT_TRUE(CreateTacollection(*parts, dir / "TACOLLECTION.json").ok());
  PublishAndValidate(dir / "TACOLLECTION.json", dir / "pub-coll");
  auto mc = publish::BuildModel(dir / "TACOLLECTION.json", FullOptions());
  ASSERT_TRUE(mc.ok()) << mc.status().ToString();
  EXPECT_EQ(mc->format, "tacollection");
  EXPECT_EQ(mc->samples(), 4u);
  EXPECT_EQ(mc->splits.size(), 2u);
  std::string html = ReadFile(dir / "pub-coll/index.html");
  EXPECT_NE(html.find("<rect class=\"part\""), std::string::npos);
  EXPECT_NE(html.find("ds_part0004.tacozip"), std::string::npos);
}

TEST(PublishOutputs, OneSample) {
  TempDir dir;
  ASSERT_TRUE(Create(publishtest::FlatTaco(publishtest::SomeSpots(1), publishtest::BaseCollection("one", "One.")),
                     dir / "one.tacozip")
                  .ok());
  PublishAndValidate(dir / "one.tacozip", dir / "pub");
  EXPECT_NE(ReadFile(dir / "pub/index.html").find("<b id=\"samples\">1</b>"), std::string::npos);
}

// ---- nothing invented; atomic outputs; CLI ----------------------------------------------------

TEST(PublishRequired, MissingSidecarFieldsAreNamed) {
  TempDir out;
  PublishOptions none;
  auto r = Publish(Fixture("zip/flat/flat.tacozip"), out / "pub", none);
  ASSERT_FALSE(r.ok());
  const std::string msg = r.status().message();
  EXPECT_NE(msg.find("datacite.xml: DataCite 4.5 requires identifier"), std::string::npos) << msg;
  EXPECT_NE(msg.find("publicationYear"), std::string::npos) << msg;
  EXPECT_NE(msg.find("croissant.json: Croissant 1.0 requires 'url'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("datePublished"), std::string::npos) << msg;
  EXPECT_FALSE(fs::exists(out / "pub"));  // nothing written
  // Without a sidecar, STAC, the card and the page work, with no invented year or author.
  none.only = {PublishOutput::kStac, PublishOutput::kHuggingFace, PublishOutput::kHtml};
  none.generated_at = "2026-02-01T12:00:00Z";
  auto ok = Publish(Fixture("zip/flat/flat.tacozip"), out / "pub", none);
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(ok->written.size(), 3u);
  EXPECT_EQ(Validate("stac", out / "pub/stac-collection.json").exit_code, 0);
  EXPECT_EQ(Validate("hf", out / "pub/README.md").exit_code, 0);
  std::string html = ReadFile(out / "pub/index.html");
  EXPECT_EQ(html.find("year = "), std::string::npos);  // no year invented: not the export's, not the data's
  EXPECT_NE(html.find("(n.d.)"), std::string::npos);
  EXPECT_NE(html.find("No publication date was given"), std::string::npos);
}

TEST(PublishAtomic, ExistingFilesAreKept) {
  TempDir out;
  fs::create_directories(out / "pub");
  WriteFile(out / "pub/index.html", "mine");
  PublishOptions o = FullOptions();
  auto r = Publish(Fixture("folder/flat"), out / "pub", o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(ReadFile(out / "pub/index.html"), "mine");
  EXPECT_EQ(std::distance(fs::directory_iterator(out / "pub"), fs::directory_iterator()), 1);
  o.overwrite = true;
  ASSERT_TRUE(Publish(Fixture("folder/flat"), out / "pub", o).ok());
  EXPECT_NE(ReadFile(out / "pub/index.html"), "mine");
}

TEST(PublishCli, WritesFilesAndExplainsErrors) {
  TempDir dir;
  WriteFile(dir / "side.json", json{{"doi", "10.5072/cli"},
                                    {"landing_url", "https://example.org/x"},
                                    {"publisher", "P"},
                                    {"publication_date", "2026-03-04"}}
                                   .dump());
  auto r = testing::RunTaco("publish " + testing::ShellQuote(Fixture("zip/nested/nested.tacozip")) + " " +
                            testing::ShellQuote(dir / "out") + " --publication " +
                            testing::ShellQuote(dir / "side.json") + " --base-url https://data.example.org/nested/");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("/out/index.html"), std::string::npos);
  auto croissant = json::parse(ReadFile(dir / "out/croissant.json"));
  EXPECT_EQ(croissant["distribution"][0]["contentUrl"], "https://data.example.org/nested/nested.tacozip");
  auto bad = testing::RunTaco("publish " + testing::ShellQuote(Fixture("zip/flat/flat.tacozip")) + " " +
                              testing::ShellQuote(dir / "out2"));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err.rfind("taco: publish: ", 0), 0u) << bad.err;
  EXPECT_NE(bad.err.find("give \"doi\" in --publication FILE"), std::string::npos) << bad.err;
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1);
  auto only = testing::RunTaco("publish " + testing::ShellQuote(Fixture("zip/flat/flat.tacozip")) + " " +
                               testing::ShellQuote(dir / "out3") + " --only stac,nope");
  EXPECT_EQ(only.exit_code, 2);
  EXPECT_NE(only.err.find("unknown output 'nope'"), std::string::npos) << only.err;
  auto help = testing::RunTaco("publish --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("publication_date"), std::string::npos);
  EXPECT_NE(help.out.find("sidecar"), std::string::npos);
}

// ---- each validator rejects a broken variant ---------------------------------------------------

class BrokenVariants : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    auto r = Publish(Fixture("zip/nested/nested.tacozip"), *dir_ / "pub", FullOptions());
    ASSERT_TRUE(r.ok()) << r.status().ToString();
  }
  static void TearDownTestSuite() { delete dir_; }
  std::string Doc(const std::string& name) { return ReadFile(*dir_ / ("pub/" + name)); }
  // Writes `text` as a variant and returns the validator's exit code.
  int Check(const std::string& kind, const std::string& name, const std::string& text) {
    std::string path = *dir_ / ("variant-" + name);
    WriteFile(path, text);
    auto r = Validate(kind, path);
    EXPECT_NE(r.exit_code, 0) << kind << " accepted a broken " << name;
    EXPECT_FALSE(r.err.empty());
    return r.exit_code;
  }
  static TempDir* dir_;
};
TempDir* BrokenVariants::dir_ = nullptr;

TEST_F(BrokenVariants, Stac) {
  auto stac = json::parse(Doc("stac-collection.json"));
  ASSERT_EQ(Validate("stac", *dir_ / "pub/stac-collection.json").exit_code, 0);
  auto v = stac;
  v.erase("license");
  Check("stac", "no-license.json", v.dump());
  v = stac;
  v["extent"]["temporal"]["interval"][0][0] = "2023-01-01T00:00:00";  // no Z
  Check("stac", "naive-time.json", v.dump());
  v = stac;
  v["providers"][0]["url"] = nullptr;
  Check("stac", "null-url.json", v.dump());
}

TEST_F(BrokenVariants, DataciteXml) {
  std::string xml = Doc("datacite.xml");
  ASSERT_EQ(Validate("datacite-xml", *dir_ / "pub/datacite.xml").exit_code, 0);
  Check("datacite-xml", "no-year.xml",
        std::regex_replace(xml, std::regex("  <publicationYear>.*</publicationYear>\n"), ""));
  // A value only DataCite 4.6 knows is refused by the 4.5 view.
  Check("datacite-xml", "award.xml",
        std::regex_replace(xml, std::regex("resourceTypeGeneral=\"Dataset\""), "resourceTypeGeneral=\"Award\""));
}

TEST_F(BrokenVariants, DataciteJson) {
  auto d = json::parse(Doc("datacite.json"));
  ASSERT_EQ(Validate("datacite-json", *dir_ / "pub/datacite.json").exit_code, 0);
  auto v = d;
  v["publisher"] = "Example Data Centre";  // a string, not {name}
  Check("datacite-json", "publisher-string.json", v.dump());
  v = d;
  v["publicationYear"] = "26";
  Check("datacite-json", "short-year.json", v.dump());
}

TEST_F(BrokenVariants, Croissant) {
  auto c = json::parse(Doc("croissant.json"));
  ASSERT_EQ(Validate("croissant", *dir_ / "pub/croissant.json").exit_code, 0);
  auto v = c;
  v["distribution"][0].erase("sha256");
  Check("croissant", "no-sha.json", v.dump());
  v = c;
  v.erase("datePublished");
  Check("croissant", "no-date.json", v.dump());
  v = c;
  v["conformsTo"] = "http://mlcommons.org/croissant/9.9";
  Check("croissant", "unknown-version.json", v.dump());
  Check("croissant", "not-json-ld.json", "{\"@context\": 5, \"@type\": \"sc:Dataset\"}");
}

TEST_F(BrokenVariants, HuggingFaceCard) {
  std::string card = Doc("README.md");
  ASSERT_EQ(Validate("hf", *dir_ / "pub/README.md").exit_code, 0);
  Check("hf", "bad-license.md", std::regex_replace(card, std::regex("license: \"cc-by-4.0\""), "license: \"cc-by-4\""));
  Check("hf", "bad-size.md", std::regex_replace(card, std::regex("\"n<1K\""), "\"tiny\""));
  Check("hf", "bad-task.md", std::regex_replace(card, std::regex("image-classification\"\n"), "image-classifying\"\n"));
  Check("hf", "no-front-matter.md", "# Title\n\n" + card);
  Check("hf", "bad-yaml.md", std::regex_replace(card, std::regex("pretty_name: "), "pretty_name: [unclosed "));
}

}  // namespace
}  // namespace taco
