// BuildModel: collection fields (null-tolerant) + facts from the levels + files + sidecar.
#include "publish/model.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include "format/container.h"
#include "model/wkb.h"
#include "publish/sha256.h"
#include "taco/dataset.h"
#include "taco/version.h"
#include "util/quote.h"

namespace taco::publish {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;
using util::Quote;

std::string Str(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_string()) return "";
  std::string s = it->get<std::string>();
  size_t b = s.find_first_not_of(" \t\r\n");
  size_t e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<std::string> StrList(const json& j, const char* key) {
  std::vector<std::string> out;
  auto it = j.find(key);
  if (it == j.end() || !it->is_array()) return out;
  for (const auto& v : *it) {
    if (v.is_string() && !v.get<std::string>().empty()) out.push_back(v.get<std::string>());
  }
  return out;
}

std::optional<double> Num(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

std::optional<std::array<double, 4>> Bbox(const json& v) {
  if (!v.is_array() || v.size() != 4) return std::nullopt;
  std::array<double, 4> b{};
  for (size_t i = 0; i < 4; ++i) {
    if (!v[i].is_number()) return std::nullopt;
    b[i] = v[i].get<double>();
  }
  return b;
}

// "2023-01-01T00:00:00" / "...+00:00" / "...Z" → "...Z" (naive = UTC, FORMAT §4.3).
std::string IsoUtc(const std::string& s) {
  if (s.empty()) return s;
  std::string t = s;
  if (t.size() >= 6 && t.compare(t.size() - 6, 6, "+00:00") == 0) t = t.substr(0, t.size() - 6) + "Z";
  if (t.size() == 10) t += "T00:00:00Z";
  if (t.back() != 'Z' && t.find('+', 10) == std::string::npos) t += "Z";
  return t;
}

void ParseCollection(const json& c, Model& m) {
  m.id = Str(c, "id");
  m.title = Str(c, "title");
  m.title_given = !m.title.empty();
  if (!m.title_given) m.title = m.id;
  m.description = Str(c, "description");
  m.dataset_version = Str(c, "dataset_version");
  m.taco_version = Str(c, "taco_version");
  m.licenses = StrList(c, "licenses");
  m.keywords = StrList(c, "keywords");
  m.tasks = StrList(c, "tasks");
  if (auto it = c.find("providers"); it != c.end() && it->is_array()) {
    for (const auto& p : *it) {
      if (!p.is_object()) continue;
      Provider pr;
      pr.name = Str(p, "name");
      pr.organization = Str(p, "organization");
      if (pr.name.empty()) pr.name = pr.organization;
      if (pr.name.empty()) continue;
      pr.email = Str(p, "email");
      pr.roles = StrList(p, "roles");
      if (std::string role = Str(p, "role"); !role.empty()) pr.roles.push_back(role);
      pr.url = Str(p, "url");
      if (auto l = p.find("links"); l != p.end() && l->is_array()) {
        for (const auto& link : *l) {
          if (!link.is_object()) continue;
          std::string href = Str(link, "href");
          std::string label = Str(link, "title");
          if (label.empty()) label = Str(link, "rel");
          if (!href.empty()) pr.links.emplace_back(label.empty() ? href : label, href);
        }
      }
      m.providers.push_back(std::move(pr));
    }
  }
  if (auto it = c.find("curators"); it != c.end() && it->is_array()) {
    for (const auto& p : *it) {
      if (!p.is_object()) continue;
      Curator cu{Str(p, "name"), Str(p, "organization"), Str(p, "email"), Str(p, "role")};
      if (cu.name.empty() && cu.organization.empty()) continue;
      m.curators.push_back(std::move(cu));
    }
  }
  if (auto it = c.find("publications"); it != c.end() && it->is_array()) {
    for (const auto& p : *it) {
      if (!p.is_object()) continue;
      PublicationRef r{Str(p, "doi"), Str(p, "citation"), Str(p, "summary")};
      if (!r.doi.empty() || !r.citation.empty()) m.publications.push_back(std::move(r));
    }
  }
  if (auto it = c.find("extent"); it != c.end() && it->is_object()) {
    if (auto s = it->find("spatial"); s != it->end()) m.bbox = Bbox(*s);
    if (auto t = it->find("temporal"); t != it->end() && t->is_array() && t->size() == 2) {
      if ((*t)[0].is_string()) m.time_start = IsoUtc((*t)[0].get<std::string>());
      if ((*t)[1].is_string()) m.time_end = IsoUtc((*t)[1].get<std::string>());
    }
  }
  if (auto it = c.find("taco:sources"); it != c.end() && it->is_object()) {
    if (auto e = it->find("extents"); e != it->end() && e->is_array()) {
      for (const auto& x : *e) {
        if (!x.is_object()) continue;
        Partition p;
        p.file = Str(x, "file");
        p.id = Str(x, "id");
        if (auto s = x.find("spatial"); s != x.end()) p.bbox = Bbox(*s);
        if (auto t = x.find("temporal"); t != x.end() && t->is_array() && t->size() == 2) {
          if ((*t)[0].is_string()) p.start = IsoUtc((*t)[0].get<std::string>());
          if ((*t)[1].is_string()) p.end = IsoUtc((*t)[1].get<std::string>());
        }
        m.partitions.push_back(std::move(p));
      }
    }
  }
  if (auto it = c.find("labels:classes"); it != c.end() && it->is_array()) {
    for (const auto& x : *it) {
      if (x.is_object()) m.label_classes.push_back({Str(x, "name"), Str(x, "category"), Str(x, "description")});
    }
  }
  m.labels_description = Str(c, "labels:description");
  m.sensor = Str(c, "optical:sensor");
  if (auto it = c.find("optical:bands"); it != c.end() && it->is_array()) {
    for (const auto& x : *it) {
      if (!x.is_object()) continue;
      Band b{Str(x, "name"), Str(x, "common_name"),       Str(x, "description"),
             Str(x, "unit"), Num(x, "center_wavelength"), Num(x, "full_width_half_max")};
      m.bands.push_back(std::move(b));
    }
  }
  m.split_strategy = Str(c, "split:strategy");
  m.subset_of = Str(c, "taco:subset_of");
  m.subset_date = Str(c, "taco:subset_date");
  if (auto it = c.find("taco:pit_schema"); it != c.end() && it->is_object()) {
    if (auto r = it->find("root"); r != it->end() && r->is_object()) m.root_type = Str(*r, "type");
  }
}

// ---- facts from the levels ------------------------------------------------------------------

std::string Ident(const std::string& name) {
  std::string out = "\"";
  for (char ch : name) {
    if (ch == '"') out += '"';
    out += ch;
  }
  return out + "\"";
}

int64_t AsInt(const Value& v) {
  if (v.is<int64_t>()) return v.get<int64_t>();
  if (v.is<int32_t>()) return v.get<int32_t>();
  if (v.is<double>()) return static_cast<int64_t>(v.get<double>());
  return 0;
}

Result<Table> Query(Dataset& ds, const std::string& sql) {
  auto t = ds.QueryRaw(sql);
  if (!t.ok()) return t.status().WithPrefix(ds.path());
  return t;
}

void Accumulate(std::vector<CountedValue>& into, const std::string& value, uint64_t count) {
  for (auto& cv : into) {
    if (cv.value == value) {
      cv.count += count;
      return;
    }
  }
  into.push_back({value, count});
}

// SELECT <expr>, count(*) ... GROUP BY 1 into `into`.
Status CountValues(Dataset& ds, int level, const std::string& expr, std::vector<CountedValue>& into, int limit) {
  auto t =
      Query(ds, "SELECT CAST(" + expr + " AS VARCHAR) AS v, count(*) AS n FROM level" + std::to_string(level) +
                    " WHERE " + expr + " IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT " + std::to_string(limit));
  if (!t.ok()) return t.status();
  const Table& tb = *t;
  for (size_t r = 0; r < tb.num_rows(); ++r) {
    const Value& v = tb.columns[0].values[r];
    if (v.is_null()) continue;
    Accumulate(into, v.ToString(), static_cast<uint64_t>(AsInt(tb.columns[1].values[r])));
  }
  return Status::OK();
}

bool Has(const LevelInfo& info, const std::string& name) {
  return std::any_of(info.columns.begin(), info.columns.end(), [&](const ColumnInfo& c) { return c.name == name; });
}

bool IsComputedColumn(const std::string& name) {
  return name == "internal:gdal_vsi" || name == "internal:source_path" || name == "internal:source_part";
}

struct LevelScan {
  std::vector<LevelInfo> infos;
};

Status ScanLevels(Dataset& ds, const json& field_schema, Model& m, LevelScan& scan) {
  for (int i = 0; i < ds.num_levels(); ++i) {
    auto info = ds.DescribeLevel(i);
    if (!info.ok()) return info.status().WithPrefix(ds.path());
    scan.infos.push_back(*info);
    if (static_cast<int>(m.levels.size()) <= i) {
      LevelFacts lf;
      lf.level = i;
      // Field order and descriptions: taco:field_schema, then any stored column it lacks.
      const std::string key = "level" + std::to_string(i);
      if (auto fsit = field_schema.find(key); fsit != field_schema.end() && fsit->is_array()) {
        for (const auto& e : *fsit) {
          if (!e.is_array() || e.size() < 2 || !e[0].is_string() || !e[1].is_string()) continue;
          if (!Has(*info, e[0].get<std::string>())) continue;
          lf.fields.push_back({e[0].get<std::string>(), e[1].get<std::string>(),
                               e.size() > 2 && e[2].is_string() ? e[2].get<std::string>() : "", 0});
        }
      }
      for (const auto& c : info->columns) {
        if (IsComputedColumn(c.name)) continue;
        bool listed =
            std::any_of(lf.fields.begin(), lf.fields.end(), [&](const FieldInfo& f) { return f.name == c.name; });
        if (!listed) lf.fields.push_back({c.name, c.type, "", 0});
      }
      m.levels.push_back(std::move(lf));
    }
    LevelFacts& lf = m.levels[static_cast<size_t>(i)];
    lf.stored_rows += info->rows;
    const std::string lv = "level" + std::to_string(i);
    auto pad = Query(ds, "SELECT count(*) FROM " + lv + "_table WHERE starts_with(id, '__TACOPAD__')");
    if (!pad.ok()) return pad.status();
    lf.padding_rows += static_cast<uint64_t>(AsInt(pad->columns[0].values[0]));
    auto types = Query(ds, "SELECT type, count(*) FROM " + lv + " GROUP BY 1");
    if (!types.ok()) return types.status();
    for (size_t r = 0; r < types->num_rows(); ++r) {
      std::string t = types->columns[0].values[r].ToString();
      uint64_t n = static_cast<uint64_t>(AsInt(types->columns[1].values[r]));
      (t == "FOLDER" ? lf.folders : lf.files) += n;
    }
    // Null counts of every listed field, one query.
    std::string sql = "SELECT count(*)";
    std::vector<size_t> which;
    for (size_t f = 0; f < lf.fields.size(); ++f) {
      if (!Has(*info, lf.fields[f].name)) continue;
      sql += ", count(" + Ident(lf.fields[f].name) + ")";
      which.push_back(f);
    }
    auto nulls = Query(ds, sql + " FROM " + lv);
    if (!nulls.ok()) return nulls.status();
    uint64_t n = static_cast<uint64_t>(AsInt(nulls->columns[0].values[0]));
    for (size_t k = 0; k < which.size(); ++k) {
      lf.fields[which[k]].nulls += n - static_cast<uint64_t>(AsInt(nulls->columns[k + 1].values[0]));
    }
  }
  return Status::OK();
}

Status ScanFacts(Dataset& ds, const LevelScan& scan, Model& m) {
  for (size_t i = 0; i < scan.infos.size(); ++i) {
    const LevelInfo& info = scan.infos[i];
    int level = static_cast<int>(i);
    for (const char* col : {"stac:crs", "istac:crs"}) {
      if (Has(info, col)) TACO_RETURN_IF_ERROR(CountValues(ds, level, Ident(col), m.crs, 100));
    }
    if (Has(info, "stac:geotransform")) {
      TACO_RETURN_IF_ERROR(CountValues(ds, level, "round(abs(" + Ident("stac:geotransform") + "[2]), 6)", m.gsd, 50));
    }
    if (Has(info, "stac:tensor_shape")) {
      TACO_RETURN_IF_ERROR(
          CountValues(ds, level, "array_to_string(" + Ident("stac:tensor_shape") + ", 'x')", m.tensor_shapes, 50));
    }
    if (i == 0 && Has(info, "split")) TACO_RETURN_IF_ERROR(CountValues(ds, 0, "split", m.splits, 20));
  }
  // Temporal histogram: the first level with a start time.
  for (size_t i = 0; i < scan.infos.size() && m.time_column.empty(); ++i) {
    for (const char* col : {"istac:time_start", "stac:time_start"}) {
      if (!Has(scan.infos[i], col)) continue;
      m.time_column = "level" + std::to_string(i) + "." + col;
      const std::string lv = "level" + std::to_string(i);
      auto span = Query(ds, "SELECT min(" + Ident(col) + "), max(" + Ident(col) + ") FROM " + lv);
      if (!span.ok()) return span.status();
      const Value& lo = span->columns[0].values[0];
      const Value& hi = span->columns[1].values[0];
      if (lo.is_null() || hi.is_null()) break;
      std::string a = lo.ToString(), b = hi.ToString();
      int years = std::atoi(b.substr(0, 4).c_str()) - std::atoi(a.substr(0, 4).c_str());
      if (m.histogram_unit.empty()) m.histogram_unit = years > 3 ? "year" : "month";
      const char* pattern = m.histogram_unit == "year" ? "'%Y'" : "'%Y-%m'";
      TACO_RETURN_IF_ERROR(
          CountValues(ds, static_cast<int>(i), "strftime(" + Ident(col) + ", " + pattern + ")", m.histogram, 5000));
      if (m.time_start.empty() || m.time_end.empty()) {
        std::string s = IsoUtc(a), e = IsoUtc(b);
        if (m.time_start.empty() || s < m.time_start) m.time_start = s;
        if (m.time_end.empty() || e > m.time_end) m.time_end = e;
      }
      break;
    }
  }
  return Status::OK();
}

Status ScanCentroids(Dataset& ds, const LevelScan& scan, uint64_t budget, Model& m) {
  for (size_t i = 0; i < scan.infos.size(); ++i) {
    for (const char* col : {"stac:centroid", "istac:centroid"}) {
      if (!Has(scan.infos[i], col)) continue;
      const std::string lv = "level" + std::to_string(i);
      auto n = Query(ds, "SELECT count(" + Ident(col) + ") FROM " + lv);
      if (!n.ok()) return n.status();
      uint64_t total = static_cast<uint64_t>(AsInt(n->columns[0].values[0]));
      m.centroid_total += total;
      m.centroid_column = lv + "." + col;
      std::string inner = "SELECT " + Ident(col) + " AS c FROM " + lv + " WHERE " + Ident(col) + " IS NOT NULL";
      std::string sql = total <= budget ? inner
                                        : "SELECT c FROM (" + inner + ") USING SAMPLE reservoir(" +
                                              std::to_string(budget) + " ROWS) REPEATABLE (7)";
      auto rows = Query(ds, sql);
      if (!rows.ok()) return rows.status();
      for (const Value& v : rows->columns[0].values) {
        if (!v.is<Binary>()) continue;
        bool empty = false;
        auto p = model::ParseWkbPoint(v.get<Binary>().bytes, &empty);
        if (!p.ok() || empty || !std::isfinite(p->x) || !std::isfinite(p->y)) continue;
        m.centroids.emplace_back(p->x, p->y);
      }
      return Status::OK();
    }
  }
  return Status::OK();
}

// ---- files ----------------------------------------------------------------------------------

Status AddFile(const fs::path& path, const std::string& name, const std::string& role, const std::string& media,
               Model& m) {
  std::error_code ec;
  uint64_t size = fs::file_size(path, ec);
  if (ec) return Status::NotFound(path.string() + ": cannot read size: " + ec.message());
  FileFact f;
  f.name = name;
  f.role = role;
  f.media_type = media;
  f.size = size;
  f.sha256 = path.string();  // replaced by the digest in HashFiles
  m.files.push_back(std::move(f));
  return Status::OK();
}

Status HashFiles(Model& m) {
  std::vector<FileFact*> todo;
  for (auto& f : m.files) {
    if (!f.sha256.empty() && f.contained_in.empty()) todo.push_back(&f);
  }
  std::vector<Status> results(todo.size(), Status::OK());
  size_t workers = std::min<size_t>(todo.size(), std::max(1u, std::min(4u, std::thread::hardware_concurrency())));
  std::vector<std::thread> threads;
  std::atomic<size_t> next{0};
  for (size_t w = 0; w < workers; ++w) {
    threads.emplace_back([&] {
      for (size_t k = next++; k < todo.size(); k = next++) {
        auto digest = Sha256File(todo[k]->sha256);
        if (!digest.ok()) {
          results[k] = digest.status();
        } else {
          todo[k]->sha256 = *digest;
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  for (const auto& st : results) TACO_RETURN_IF_ERROR(st);
  return Status::OK();
}

// FOLDER DATA/: one summary entry (count and bytes); hashing every sample would read the data.
Status AddDataSummary(const fs::path& data, const std::string& name, Model& m) {
  std::error_code ec;
  if (!fs::is_directory(data, ec)) return Status::OK();
  FileFact f;
  f.name = name;
  f.role = "data";
  f.media_type = "application/octet-stream";
  f.file_count = 0;
  for (auto it = fs::recursive_directory_iterator(data, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    if (it->path().filename() == "__meta__") continue;
    ++f.file_count;
    f.size += it->file_size(ec);
  }
  if (ec) return Status::IOError(data.string() + ": cannot list: " + ec.message());
  m.files.push_back(std::move(f));
  return Status::OK();
}

void AddZipMembers(const Dataset& ds, const std::string& zip_name, Model& m) {
  const auto& header = ds.header();
  for (size_t i = 0; i < header.size(); ++i) {
    FileFact f;
    bool last = i + 1 == header.size();
    f.name = last ? "COLLECTION.json" : "METADATA/level" + std::to_string(i) + ".parquet";
    f.role = last ? "collection" : "metadata";
    f.media_type = last ? "application/json" : "application/x-parquet";
    f.size = header[i].length;
    f.contained_in = zip_name;
    m.files.push_back(std::move(f));
  }
}

bool IsRemote(const std::string& path) {
  for (const char* p : {"http://", "https://", "s3://", "gs://", "az://", "/vsi"}) {
    if (path.rfind(p, 0) == 0) return true;
  }
  return false;
}

bool LooksLikeTacollection(const fs::path& p, json* out) {
  std::error_code ec;
  if (!fs::is_regular_file(p, ec) || p.extension() != ".json") return false;
  std::ifstream in(p);
  json j = json::parse(in, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("taco:sources")) return false;
  *out = std::move(j);
  return true;
}

std::string NowIso() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace

uint64_t Model::total_bytes() const {
  uint64_t n = 0;
  for (const auto& f : files) {
    if (f.contained_in.empty()) n += f.size;
  }
  return n;
}

std::string Model::landing_url() const {
  if (!pub.landing_url.empty()) return pub.landing_url;
  if (!pub.doi.empty()) return "https://doi.org/" + pub.doi;
  return "";
}

std::string Model::download_url(const std::string& name) const {
  if (pub.download_base_url.empty()) return "";
  std::string base = pub.download_base_url;
  if (base.back() != '/') base += '/';
  return base + name;
}

Result<Model> BuildModel(const std::string& dataset_path, const PublishOptions& options) {
  if (IsRemote(dataset_path)) {
    return Status::InvalidArgument(Quote(dataset_path) +
                                   ": publish reads local datasets only (it computes the sha256 of every "
                                   "container file); download the dataset first");
  }
  Model m;
  m.pub = options.publication;
  if (!options.base_url.empty()) m.pub.download_base_url = options.base_url;
  m.generated_at = options.generated_at.empty() ? NowIso() : options.generated_at;
  m.generator = std::string("taco-cpp ") + kLibraryVersion;

  fs::path input(dataset_path);
  while (input.has_filename() == false && input.has_parent_path() && input != input.root_path()) {
    input = input.parent_path();  // strip a trailing '/'
  }
  std::vector<std::string> open_paths;
  json collection;
  if (LooksLikeTacollection(input, &collection)) {
    m.format = "tacollection";
    m.source_name = input.filename().string();
    const json& files = collection["taco:sources"].value("files", json::array());
    if (!files.is_array() || files.empty()) {
      return Status::InvalidArgument(Quote(dataset_path) + ": TACOLLECTION has no taco:sources.files");
    }
    for (const auto& f : files) {
      if (!f.is_string())
        return Status::InvalidArgument(Quote(dataset_path) + ": taco:sources.files holds a non-string");
      std::string name = f.get<std::string>();
      if (name.find('/') != std::string::npos || name == ".." || name.empty()) {
        return Status::InvalidArgument(Quote(dataset_path) + ": taco:sources.files entry " + Quote(name) +
                                       " is not a file name beside the TACOLLECTION");
      }
      open_paths.push_back((input.parent_path() / name).string());
    }
    TACO_RETURN_IF_ERROR(AddFile(input, m.source_name, "collection", "application/json", m));
  } else {
    open_paths.push_back(input.string());
  }

  LevelScan first_scan;
  uint64_t budget = std::max<uint64_t>(1, options.max_map_points / open_paths.size());
  for (size_t k = 0; k < open_paths.size(); ++k) {
    auto opened = Dataset::Open(open_paths[k], options.open);
    if (!opened.ok()) return opened.status();
    Dataset& ds = **opened;
    if (k == 0 && m.format.empty()) {
      m.format = std::string(DatasetFormatName(ds.format()));
      collection = ds.collection();
      m.source_name = input.filename().string();
    }
    if (k == 0) ParseCollection(collection, m);
    const json field_schema =
        collection.is_object() ? collection.value("taco:field_schema", json::object()) : json::object();
    LevelScan scan;
    TACO_RETURN_IF_ERROR(ScanLevels(ds, field_schema.is_object() ? field_schema : json::object(), m, scan));
    TACO_RETURN_IF_ERROR(ScanFacts(ds, scan, m));
    TACO_RETURN_IF_ERROR(ScanCentroids(ds, scan, budget, m));

    // Container files: the ones its container lists (format/container.h).
    const format::Container& container = format::Container::For(ds.format());
    if (!container.publishable()) {
      return Status::NotSupported(open_paths[k] +
                                  ": a Tortilla / TACO v1 file; convert it to TACO 2.0 first (taco convert)");
    }
    for (const format::StoredFile& f : container.StoredFiles(open_paths[k], ds.num_levels())) {
      using Kind = format::StoredFile::Kind;
      switch (f.kind) {
        case Kind::kContainerFile:
          TACO_RETURN_IF_ERROR(AddFile(f.path, f.name, "data", "application/zip", m));
          if (open_paths.size() == 1) AddZipMembers(ds, f.name, m);
          break;
        case Kind::kCollection:
          TACO_RETURN_IF_ERROR(AddFile(f.path, f.name, "collection", "application/json", m));
          break;
        case Kind::kLevel: TACO_RETURN_IF_ERROR(AddFile(f.path, f.name, "metadata", "application/x-parquet", m)); break;
        case Kind::kIndexFile:
          TACO_RETURN_IF_ERROR(AddFile(f.path, f.name, "metadata", "application/octet-stream", m));
          break;
        case Kind::kDataTree: TACO_RETURN_IF_ERROR(AddDataSummary(f.path, f.name, m)); break;
        case Kind::kPartsBeside: {
          auto parts = Query(ds, "SELECT DISTINCT \"internal:source_file\" FROM level0_table ORDER BY 1");
          if (!parts.ok()) return parts.status();
          for (const Value& v : parts->columns[0].values) {
            if (v.is_null()) continue;
            std::string name = v.ToString();
            if (name.find('/') != std::string::npos) continue;
            TACO_RETURN_IF_ERROR(AddFile(fs::path(f.path) / name, name, "data", "application/zip", m));
          }
          break;
        }
      }
    }
  }
  TACO_RETURN_IF_ERROR(HashFiles(m));
  m.collection = std::move(collection);

  // Patterns from the pit schema (display only).
  const json pit = m.collection.is_object() ? m.collection.value("taco:pit_schema", json::object()) : json::object();
  if (pit.is_object()) {
    const json hierarchy = pit.value("hierarchy", json::object());
    if (hierarchy.is_object()) {
      for (const auto& [depth, patterns] : hierarchy.items()) {
        size_t d = static_cast<size_t>(std::atoi(depth.c_str()));
        if (d >= m.levels.size() || !patterns.is_array()) continue;
        for (const auto& p : patterns) {
          if (!p.is_object()) continue;
          std::vector<std::pair<std::string, std::string>> pattern;
          const json ids = p.value("id", json::array()), types = p.value("type", json::array());
          for (size_t i = 0; i < ids.size() && i < types.size(); ++i) {
            if (ids[i].is_string() && types[i].is_string())
              pattern.emplace_back(ids[i].get<std::string>(), types[i].get<std::string>());
          }
          m.levels[d].patterns.push_back(std::move(pattern));
        }
      }
    }
  }
  if (m.root_type.empty() && !m.levels.empty()) m.root_type = m.levels[0].folders > 0 ? "FOLDER" : "FILE";
  if (m.id.empty()) return Status::InvalidArgument(Quote(dataset_path) + ": the collection has no id");
  return m;
}

}  // namespace taco::publish
