#include "legacy/legacy_files.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>

#include "support/paths.h"

namespace taco::testing {
namespace {

std::string Str(const std::string& s) { return "'" + s + "'"; }

LegacyFiles Build() {
  static TempDir dir;  // removed at exit
  LegacyFiles f;
  f.dir = dir.path();
  for (int k = 0; k < 3; ++k) {
    f.image.push_back(SynthGeoTiff(10 * k + 1, 440000 + 1000 * k, 4480000));
    f.sub_a.push_back(SynthGeoTiff(10 * k + 2, 440000 + 1000 * k, 4470000));
    f.notes.push_back("notes of sample " + std::to_string(k));
    f.sub_b.push_back(std::string("\x00\x01raw-b", 7) + std::to_string(k));
  }
  f.collection_json =
      "{\"id\":\"demo\",\"dataset_version\":\"1.0.0\",\"description\":\"A synthesised TACO v1 dataset\","
      "\"licenses\":[\"CC-BY-4.0\"],\"extent\":{\"spatial\":[[-4.0,40.0,-3.0,41.0]],\"temporal\":[["
      "\"2021-01-01T00:00:00Z\",\"2021-12-31T00:00:00Z\"]]},\"providers\":[{\"name\":\"ESA\",\"organization\":null,"
      "\"identifier\":null,\"position\":null,\"logo\":null,\"phones\":null,\"emails\":[{\"value\":\"a@b.org\","
      "\"roles\":[\"work\"]}],\"addresses\":null,\"links\":null,\"contactInstructions\":null,\"roles\":["
      "\"producer\"]}],\"task\":\"segmentation\",\"taco_version\":\"0.4.0\",\"title\":\"Demo\",\"curators\":null,"
      "\"keywords\":[\"sentinel-2\",\"demo\"],\"split_strategy\":\"random\",\"discuss_link\":null,\"raw_link\":{"
      "\"href\":\"https://example.org/raw\",\"rel\":\"source\",\"type\":null,\"title\":null},\"optical_data\":null,"
      "\"labels\":null,\"scientific\":null}";

  std::vector<SynthItem> top;
  for (int k = 0; k < 3; ++k) top.push_back({"s" + std::to_string(k + 1), "TORTILLA", NestedSample(k)});
  SynthFooter footer;
  footer.pandas_index = true;
  footer.extra = TopColumns(3);
  const std::string tortilla = SynthTortilla(top, footer);
  f.tortilla = f.dir + "/demo.tortilla";
  f.taco = f.dir + "/demo.taco";
  WriteFile(f.tortilla, tortilla);
  WriteFile(f.taco, SynthToTaco(tortilla, f.collection_json));

  std::filesystem::create_directories(f.dir + "/parts");
  std::filesystem::create_directories(f.dir + "/parts1");
  SynthFooter footer01;
  footer01.extra = TopColumns(2);
  SynthFooter footer2;
  footer2.extra = TopColumns(3);
  for (auto& c : footer2.extra) c.values = {c.values[2]};
  std::vector<SynthItem> first(top.begin(), top.begin() + 2), second(top.begin() + 2, top.end());
  f.part0 = f.dir + "/parts/demo.0000.part.taco";
  f.part1 = f.dir + "/parts/demo.0001.part.taco";
  WriteFile(f.part0, SynthToTaco(SynthTortilla(first, footer01, 2), f.collection_json));
  WriteFile(f.part1, SynthToTaco(SynthTortilla(second, footer2, 2), f.collection_json));
  f.part1_1 = f.dir + "/parts1/demo.0001.part.tortilla";
  f.part1_2 = f.dir + "/parts1/demo.0002.part.tortilla";
  WriteFile(f.part1_1, SynthTortilla(first, footer01, 2));
  WriteFile(f.part1_2, SynthTortilla(second, footer2, 2));

  std::vector<SynthItem> flat;
  for (int k = 0; k < 3; ++k) flat.push_back({"tile_" + std::to_string(k), "GTiff", f.image[static_cast<size_t>(k)]});
  SynthFooter flat_footer;
  flat_footer.extra = TopColumns(3);
  f.flat = f.dir + "/flat.taco";
  const std::string flat_bytes = SynthToTaco(SynthTortilla(flat, flat_footer), f.collection_json);
  WriteFile(f.flat, flat_bytes);

  SynthFooter p2;
  p2.with_file_format = false;
  p2.extra = TopColumns(3);
  f.p2_tortilla = f.dir + "/p2.tortilla";
  f.p2_taco = f.dir + "/p2.taco";
  WriteFile(f.p2_tortilla, SynthP2(flat, "GTiff", p2));
  WriteFile(f.p2_taco, SynthP2(flat, "GTiff", p2, f.collection_json));
  f.proto = f.dir + "/proto.tortilla";
  WriteFile(f.proto, SynthP0(flat, "GTiff"));

  // chain.taco: the footer points at two more Parquet files appended after the COLLECTION
  // (fixed-width numbers, so that the footers' sizes do not depend on the values).
  {
    auto pointer = [](uint64_t offset, uint64_t length) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "OFFSETLENGTH(%010llu, %010llu)", static_cast<unsigned long long>(offset),
                    static_cast<unsigned long long>(length));
      return std::string(buf);
    };
    SynthFooter top_footer = flat_footer, level1, level2;
    level1.extra = level2.extra = {{"root", "BIGINT", {"0", "1", "2"}}};
    level2.kv = {{"pointer", "NULL"}};
    const std::string third = SynthFooterBytes(flat, level2);
    level1.kv = {{"pointer", "\"" + pointer(0, 0) + "\""}};
    top_footer.kv = {{"pointer", pointer(0, 0)}};
    const uint64_t second_size = SynthFooterBytes(flat, level1).size();
    const uint64_t end = SynthToTaco(SynthTortilla(flat, top_footer), f.collection_json).size();
    level1.kv = {{"pointer", "\"" + pointer(end + second_size, third.size()) + "\""}};
    top_footer.kv = {{"pointer", pointer(end, second_size)}};
    const std::string second = SynthFooterBytes(flat, level1);
    f.chain = f.dir + "/chain.taco";
    WriteFile(f.chain, SynthToTaco(SynthTortilla(flat, top_footer), f.collection_json) + second + third);
  }
  return f;
}

}  // namespace

std::string NestedSample(int k) {
  std::string a = SynthGeoTiff(10 * k + 2, 440000 + 1000 * k, 4470000);
  std::string b = std::string("\x00\x01raw-b", 7) + std::to_string(k);
  SynthFooter sub_footer;
  sub_footer.extra = {{"kind", "VARCHAR", {"'image'", "'raw'"}}};
  const std::string sub = SynthTortilla({{"a", "GTiff", a}, {"b", "BYTES", b}}, sub_footer);
  std::string image = SynthGeoTiff(10 * k + 1, 440000 + 1000 * k, 4480000);
  SynthFooter footer;
  footer.extra = {{"bands", "INTEGER", {"1", "NULL", "NULL"}}};
  return SynthTortilla(
      {{"image", "GTiff", image}, {"notes", "BYTES", "notes of sample " + std::to_string(k)}, {"sub", "TORTILLA", sub}},
      footer);
}

std::vector<SynthColumn> TopColumns(size_t n) {
  const char* splits[] = {"train", "test", "validation"};
  SynthColumn split{"tortilla:data_split", "VARCHAR", {}}, crs{"stac:crs", "VARCHAR", {}},
      gt{"stac:geotransform", "DOUBLE[]", {}}, shape{"stac:raster_shape", "BIGINT[]", {}},
      start{"stac:time_start", "BIGINT", {}}, end{"stac:time_end", "BIGINT", {}},
      centroid{"stac:centroid", "VARCHAR", {}}, ele{"rai:ele", "DOUBLE", {}};
  for (size_t k = 0; k < n; ++k) {
    split.values.push_back(Str(splits[k % 3]));
    crs.values.push_back(Str("EPSG:32630"));
    gt.values.push_back("[" + std::to_string(440000 + 1000 * k) + ".0, 10.0, 0.0, 4480000.0, 0.0, -10.0]");
    shape.values.push_back("[8, 8]");
    start.values.push_back(std::to_string(1609459200 + 86400 * 40 * k));  // 2021-01-01 + 40 k days
    end.values.push_back(std::to_string(1609459200 + 86400 * 40 * k + 3600));
    centroid.values.push_back(Str("POINT (" +
                                  std::string(k == 0   ? "-3.70379"
                                              : k == 1 ? "-3.5"
                                                       : "2.1734") +
                                  " " + std::string(k == 2 ? "41.3851" : "40.416775") + ")"));
    ele.values.push_back(std::to_string(600.5 + k));
  }
  return {split, crs, gt, shape, start, end, centroid, ele};
}

const LegacyFiles& Files() {
  static const LegacyFiles files = Build();
  return files;
}

}  // namespace taco::testing
