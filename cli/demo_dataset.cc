#include "demo_dataset.h"

#include <cstring>

#include "taco/extensions.h"

namespace taco::cli {
namespace {

// ISO WKB point, little-endian.
std::string WkbPoint(double lon, double lat) {
  std::string wkb(21, '\0');
  wkb[0] = 1;
  wkb[1] = 1;  // type 1 (Point), little-endian uint32
  std::memcpy(&wkb[5], &lon, 8);
  std::memcpy(&wkb[13], &lat, 8);
  return wkb;
}

Result<Sample> RasterSample(const std::string& id, const std::string& path, int64_t start, int64_t end,
                            bool categorical) {
  TACO_ASSIGN_OR_RETURN(Sample s, Sample::FromFile(id, path));
  TACO_ASSIGN_OR_RETURN(std::vector<Field> stac, ext::Stac(path, start, end));
  ext::GeotiffStatsOptions stats_opts;
  stats_opts.categorical = categorical;
  if (categorical) stats_opts.class_values = {0, 1, 2, 3};
  TACO_ASSIGN_OR_RETURN(std::vector<Field> stats, ext::GeotiffStats(path, stats_opts));
  TACO_RETURN_IF_ERROR(s.Extend(std::move(stac)));
  TACO_RETURN_IF_ERROR(s.Extend(std::move(stats)));
  return s;
}

}  // namespace

Result<Taco> BuildDemoTaco(const std::string& tiles_dir, const std::vector<DemoTile>& tiles) {
  std::vector<Sample> roots;
  for (size_t i = 0; i < tiles.size(); ++i) {
    const DemoTile& t = tiles[i];
    const std::string dir = tiles_dir + "/" + t.id + "/";
    std::vector<Sample> files;
    TACO_ASSIGN_OR_RETURN(Sample before,
                          RasterSample("before.tif", dir + "before.tif", t.time_start_us, t.time_start_us, false));
    TACO_ASSIGN_OR_RETURN(Sample after,
                          RasterSample("after.tif", dir + "after.tif", t.time_end_us, t.time_end_us, false));
    TACO_ASSIGN_OR_RETURN(Sample label,
                          RasterSample("label.tif", dir + "label.tif", t.time_start_us, t.time_end_us, true));
    files.push_back(std::move(before));
    files.push_back(std::move(after));
    files.push_back(std::move(label));
    TACO_ASSIGN_OR_RETURN(Tortilla children, Tortilla::Make(std::move(files)));
    TACO_ASSIGN_OR_RETURN(Sample tile, Sample::FromTortilla(t.id, std::move(children)));
    const char* split = i % 10 < 7 ? "train" : (i % 10 < 9 ? "validation" : "test");
    TACO_RETURN_IF_ERROR(tile.Extend({
        Field{"country", DataType::String(), Value(t.country), "Country of the tile centre"},
        Field{"split", DataType::String(), Value(std::string(split)), "Machine-learning split"},
        Field{"stac:centroid", DataType::Binary(), Value(Binary{WkbPoint(t.lon, t.lat)}), "Tile centre (EPSG:4326)"},
        Field{"stac:time_start", DataType::TimestampUs(), Value(TimestampUs{t.time_start_us}), "First acquisition"},
        Field{"stac:time_end", DataType::TimestampUs(), Value(TimestampUs{t.time_end_us}), "Second acquisition"},
    }));
    roots.push_back(std::move(tile));
  }
  TACO_ASSIGN_OR_RETURN(Tortilla root, Tortilla::Make(std::move(roots)));

  nlohmann::ordered_json collection = {
      {"id", "taco_demo"},
      {"dataset_version", "1.0.0"},
      {"description",
       "Synthetic change-detection tiles (before/after Sentinel-2-like images and a land-cover "
       "label) made by `taco demo`."},
      {"licenses", {"CC0-1.0"}},
      {"providers", {{{"name", "taco-cpp"}, {"roles", {"producer"}}, {"url", "https://github.com/tacofoundation"}}}},
      {"tasks", {"semantic-segmentation", "classification"}},
      {"title", "taco-cpp demo dataset"},
      {"keywords", {"demo", "change detection", "land cover"}},
  };
  TACO_ASSIGN_OR_RETURN(
      nlohmann::ordered_json labels,
      ext::Labels({{"water", "", ""}, {"vegetation", "", ""}, {"bare soil", "", ""}, {"built-up", "", ""}},
                  "Land-cover classes of label.tif"));
  TACO_ASSIGN_OR_RETURN(nlohmann::ordered_json optical, ext::OpticalData("sentinel2msi[B02,B03,B04,B08]"));
  for (auto& [k, v] : labels.items()) collection[k] = v;
  for (auto& [k, v] : optical.items()) collection[k] = v;
  return Taco::Make(std::move(root), std::move(collection));
}

}  // namespace taco::cli
