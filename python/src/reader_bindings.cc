// Reader side of taco_cpp._native: open/concat, lazy views, Arrow export, navigation,
// statistics, export, info/validate and the remote cache. Thin: every rule lives in the
// C++ library (include/taco/); this file only converts arguments, releases the GIL, takes
// the engine lock (handles.h) and turns Status errors into exceptions (errors.h).
#include <algorithm>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nanobind/nanobind.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/variant.h>
#include <nanobind/stl/vector.h>

#include "arrow_capsule.h"
#include "bindings.h"
#include "errors.h"
#include "handles.h"
#include "interrupt.h"
#include "progress.h"
#include "taco/convert.h"
#include "taco/dataset.h"
#include "taco/info.h"
#include "taco/io.h"
#include "taco/stats.h"
#include "taco/validate.h"
#include "taco/writer.h"

namespace nb = nanobind;

namespace taco::py {
namespace {

// Runs f(dataset) with the GIL released and the engine locked, interruptible by SIGINT
// (interrupt.h).
template <typename F>
auto WithDataset(DatasetHandle& h, F&& f) {
  h.EnsureProcess();
  std::shared_ptr<Engine> engine = h.engine;
  std::shared_ptr<Dataset> ds = h.ds;
  return Interruptible([&] {
    std::lock_guard<std::mutex> lock(engine->mu);
    return f(*ds);
  });
}

template <typename F>
auto WithFrame(FrameHandle& h, F&& f) {
  h.EnsureProcess();
  std::shared_ptr<Engine> engine = h.engine;
  std::shared_ptr<const Frame> frame = h.frame;
  return Interruptible([&] {
    std::lock_guard<std::mutex> lock(engine->mu);
    return f(*frame);
  });
}

DatasetHandle Opened(Recipe recipe) {
  auto r = std::make_shared<const Recipe>(std::move(recipe));
  std::shared_ptr<Dataset> ds;
  {
    nb::gil_scoped_release release;
    ds = Take(Build(*r));
  }
  return DatasetHandle(std::move(ds), std::make_shared<Engine>(), r);
}

// A view derived from `h` by `recipe` (whose parent is h's recipe).
template <typename F>
DatasetHandle Derived(DatasetHandle& h, Recipe recipe, F&& derive) {
  std::unique_ptr<Dataset> view = WithDataset(h, [&](Dataset& ds) { return Take(derive(ds)); });
  recipe.parent = h.recipe;
  DatasetHandle out(std::shared_ptr<Dataset>(std::move(view)), h.engine,
                    std::make_shared<const Recipe>(std::move(recipe)));
  out.root = h.root ? h.root : h.ds;
  return out;
}

nb::object NodeObject(Node node, const std::shared_ptr<Engine>& engine, const RecipePtr& recipe,
                      std::vector<SampleKey> keys) {
  nb::dict d;
  d["id"] = node.id;
  d["type"] = node.type;
  d["level"] = node.level;
  d["gdal_path"] = node.gdal_path;
  if (node.children) {
    d["children"] = nb::cast(FrameHandle(node.children, engine, recipe, std::move(keys)));
  } else {
    d["children"] = nb::none();
  }
  return d;
}

StatsMeasure MeasureByName(const std::string& name) {
  for (StatsMeasure m : kAllStatsMeasures) {
    if (StatsMeasureName(m) == name) return m;
  }
  throw StatusError(StatusCode::kInvalidArgument, "unknown statistic '" + name + "'");
}

// Sets `q.file` when this build's StatsQuery has per-file statistics (a template, so that
// the branch for the other case is discarded at compile time).
template <typename Q>
void SetStatsFile(Q& q, std::optional<std::string> file) {
  if constexpr (requires { q.file = std::move(file); }) {
    q.file = std::move(file);
  } else {
    throw StatusError(StatusCode::kNotSupported,
                      "statistics of one child file (file='" + *file + "') are not in this build of taco-cpp yet");
  }
}

// Sets `q.method` ("pooled", "exact", "upstream") when this build's StatsQuery has methods;
// a build without them computes tacoreader's arithmetic ("upstream") only.
template <typename Q>
void SetStatsMethod(Q& q, const std::string& method) {
  if constexpr (requires { q.method; }) {
    using Method = decltype(q.method);
    if (method == "pooled") {
      q.method = Method::kPooled;
    } else if (method == "exact") {
      q.method = Method::kExact;
    } else if (method == "upstream") {
      q.method = Method::kUpstream;
    } else {
      throw StatusError(StatusCode::kInvalidArgument,
                        "statistics method '" + method + "' is not one of pooled, exact, upstream");
    }
  } else if (method != "upstream") {
    throw StatusError(StatusCode::kNotSupported,
                      "statistics method '" + method + "' is not in this build of taco-cpp yet (it has 'upstream')");
  }
}

// StatsQuery for the arguments; `file` and `method` need the C++ per-file statistics and
// methods (StatsQuery::file, StatsQuery::method); an empty method is the library's default.
StatsQuery MakeStatsQuery(std::vector<int> bands, int level, std::optional<std::string> id,
                          std::optional<std::string> file, const std::string& method) {
  StatsQuery q;
  q.bands = std::move(bands);
  q.level = level;
  q.id = std::move(id);
  if (file) SetStatsFile(q, std::move(file));
  if (!method.empty()) SetStatsMethod(q, method);
  return q;
}

OutputFormat FormatByName(const std::string& name) {
  if (name.empty() || name == "auto") return OutputFormat::kAuto;
  if (name == "zip") return OutputFormat::kZip;
  if (name == "folder") return OutputFormat::kFolder;
  throw StatusError(StatusCode::kInvalidArgument, "format '" + name + "' is not one of auto, zip, folder");
}

// `taco info --json` of an opened dataset (taco/info.h, as the CLI prints it).
nlohmann::ordered_json InfoJson(Dataset& ds) { return Take(DatasetInfoJson(ds)); }

nb::dict ReportDict(const ValidationReport& report) {
  // Findings quote what the dataset holds (member names of a damaged ZIP may not be UTF-8).
  nb::dict d;
  d["path"] = report.path;
  d["format"] = report.format;
  nb::list violations;
  for (const auto& v : report.violations) {
    nb::dict e;
    e["rule"] = v.rule;
    e["where"] = SafeStr(v.where);
    e["found"] = SafeStr(v.found);
    e["expected"] = SafeStr(v.expected);
    violations.append(e);
  }
  d["violations"] = violations;
  nb::dict omitted;
  for (const auto& [rule, n] : report.omitted) omitted[nb::str(rule.c_str())] = n;
  d["omitted"] = omitted;
  nb::list notes;
  for (const auto& note : report.notes) notes.append(SafeStr(note));
  d["notes"] = notes;
  return d;
}

}  // namespace

void BindReader(nb::module_& m) {
  nb::class_<FrameHandle>(m, "Frame")
      .def_prop_ro("level",
                   [](FrameHandle& h) {
                     h.EnsureProcess();
                     return h.frame->level();
                   })
      .def_prop_ro("num_rows",
                   [](FrameHandle& h) {
                     h.EnsureProcess();
                     return h.frame->num_rows();
                   })
      .def(
          "export_arrow",
          [](FrameHandle& h, bool raw) {
            ArrowArrayStream stream{};
            WithFrame(h, [&](const Frame& f) {
              Check(f.ExportArrow(raw, &stream));
              return 0;
            });
            return StreamCapsule(&stream);
          },
          nb::arg("raw"))
      .def(
          "read",
          [](FrameHandle& h, SampleKey key) {
            Node node = WithFrame(h, [&](const Frame& f) { return Take(f.Read(key)); });
            std::vector<SampleKey> keys = h.keys;
            keys.push_back(key);
            return NodeObject(std::move(node), h.engine, h.recipe, std::move(keys));
          },
          nb::arg("key"))
      .def(
          "read_bytes",
          [](FrameHandle& h, SampleKey key) {
            std::string bytes = WithFrame(h, [&](const Frame& f) { return Take(f.ReadBytes(key)); });
            return nb::bytes(bytes.data(), bytes.size());
          },
          nb::arg("key"));

  nb::class_<DatasetHandle>(m, "Dataset")
      .def_prop_ro("format",
                   [](DatasetHandle& h) {
                     h.EnsureProcess();
                     return std::string(DatasetFormatName(h.ds->format()));
                   })
      .def_prop_ro("path",
                   [](DatasetHandle& h) {
                     h.EnsureProcess();
                     return h.ds->path();
                   })
      .def_prop_ro("vsi_root",
                   [](DatasetHandle& h) {
                     h.EnsureProcess();
                     return h.ds->vsi_root();
                   })
      .def_prop_ro("num_levels",
                   [](DatasetHandle& h) {
                     h.EnsureProcess();
                     return h.ds->num_levels();
                   })
      .def_prop_ro("header",
                   [](DatasetHandle& h) {
                     h.EnsureProcess();
                     std::vector<std::pair<uint64_t, uint64_t>> out;
                     for (const auto& p : h.ds->header()) out.emplace_back(p.offset, p.length);
                     return out;
                   })
      .def("collection_json",
           [](DatasetHandle& h) {
             // collection() of a derived view counts its rows on first use: a query.
             return WithDataset(h, [](Dataset& ds) { return ds.collection().dump(); });
           })
      .def(
          "describe_level",
          [](DatasetHandle& h, int level) {
            LevelInfo info = WithDataset(h, [&](Dataset& ds) { return Take(ds.DescribeLevel(level)); });
            std::vector<std::pair<std::string, std::string>> cols;
            for (const auto& c : info.columns) cols.emplace_back(c.name, c.type);
            return std::make_pair(info.rows, cols);
          },
          nb::arg("level"))
      .def("row_count",
           [](DatasetHandle& h) { return WithDataset(h, [](Dataset& ds) { return Take(ds.RowCount()); }); })
      .def("columns", [](DatasetHandle& h) { return WithDataset(h, [](Dataset& ds) { return Take(ds.Columns()); }); })
      .def(
          "sql",
          [](DatasetHandle& h, const std::string& query, bool data_is_raw) {
            Recipe r;
            r.kind = Recipe::Kind::kSql;
            r.text = query;
            r.data_is_raw = data_is_raw;
            DatasetHandle view = Derived(h, std::move(r), [&](Dataset& ds) { return ds.Sql(query, data_is_raw); });
            if (view.ds->view_name().rfind("fixed_", 0) == 0) {
              auto fixed = std::make_shared<Recipe>(*view.recipe);
              fixed->fixed = true;
              view.recipe = std::move(fixed);
            }
            return view;
          },
          nb::arg("query"), nb::arg("data_is_raw") = false)
      .def(
          "filter_bbox",
          [](DatasetHandle& h, double minx, double miny, double maxx, double maxy, const std::string& column,
             int level) {
            Recipe r;
            r.kind = Recipe::Kind::kBbox;
            r.box = {minx, miny, maxx, maxy};
            r.column = column;
            r.level = level;
            return Derived(h, std::move(r),
                           [&](Dataset& ds) { return ds.FilterBbox(minx, miny, maxx, maxy, column, level); });
          },
          nb::arg("minx"), nb::arg("miny"), nb::arg("maxx"), nb::arg("maxy"), nb::arg("geometry_col"), nb::arg("level"))
      .def(
          "filter_datetime",
          [](DatasetHandle& h, const std::string& range, const std::string& column, int level) {
            Recipe r;
            r.kind = Recipe::Kind::kDatetime;
            r.text = range;
            r.column = column;
            r.level = level;
            return Derived(h, std::move(r), [&](Dataset& ds) { return ds.FilterDatetime(range, column, level); });
          },
          nb::arg("range"), nb::arg("time_col"), nb::arg("level"))
      .def(
          "export_arrow",
          [](DatasetHandle& h, bool raw) {
            ArrowArrayStream stream{};
            WithDataset(h, [&](Dataset& ds) {
              Check(ds.ExportArrow(raw, &stream));
              return 0;
            });
            return StreamCapsule(&stream);
          },
          nb::arg("raw"))
      .def(
          "query_arrow",
          [](DatasetHandle& h, const std::string& sql) {
            ArrowArrayStream stream{};
            WithDataset(h, [&](Dataset& ds) {
              Check(ds.QueryArrow(sql, &stream));
              return 0;
            });
            return StreamCapsule(&stream);
          },
          nb::arg("sql"))
      .def(
          "read",
          [](DatasetHandle& h, std::vector<SampleKey> keys) {
            Node node = WithDataset(h, [&](Dataset& ds) { return Take(ds.ReadPath(keys)); });
            return NodeObject(std::move(node), h.engine, h.recipe, std::move(keys));
          },
          nb::arg("keys"))
      .def(
          "read_bytes",
          [](DatasetHandle& h, std::vector<SampleKey> keys) {
            std::string bytes = WithDataset(h, [&](Dataset& ds) {
              Node node = Take(ds.ReadPath(keys));
              return Take(ds.ReadBytes(node));
            });
            return nb::bytes(bytes.data(), bytes.size());
          },
          nb::arg("keys"))
      .def(
          "stats",
          [](DatasetHandle& h, const std::string& measure, std::vector<int> bands, int level,
             std::optional<std::string> id, std::optional<std::string> file, const std::string& method) {
            const StatsMeasure which = MeasureByName(measure);
            StatsQuery q = MakeStatsQuery(std::move(bands), level, std::move(id), std::move(file), method);
            return WithDataset(h, [&](Dataset& ds) { return Take(ComputeStats(ds, which, q)); });
          },
          nb::arg("measure"), nb::arg("bands"), nb::arg("level"), nb::arg("id").none(), nb::arg("file").none(),
          nb::arg("method") = "")
      .def(
          "stats_categorical",
          [](DatasetHandle& h, std::vector<int> bands, int level, std::optional<std::string> id,
             std::optional<std::string> file, const std::string& method) {
            StatsQuery q = MakeStatsQuery(std::move(bands), level, std::move(id), std::move(file), method);
            return WithDataset(h, [&](Dataset& ds) { return Take(ComputeCategoricalStats(ds, q)); });
          },
          nb::arg("bands"), nb::arg("level"), nb::arg("id").none(), nb::arg("file").none(), nb::arg("method") = "")
      .def(
          "export",
          [](DatasetHandle& h, const std::string& output, const std::string& format, const std::string& subset_date,
             nb::object progress, bool meta_with_ids) {
            ExportOptions options;
            options.format = FormatByName(format);
            options.subset_date = subset_date;
            options.meta_with_ids = meta_with_ids;
            ProgressRelay relay(std::move(progress));
            options.progress = relay.callback<uint64_t>();
            RemoveTemporaryOutputsOnTerminationSignals();  // SIGTERM/SIGHUP leave no temporary
            h.EnsureProcess();
            // Whole subtrees are navigated in the dataset the views start at (as `taco export`
            // does); without it Export reopens view.path(), which a concat does not have.
            std::shared_ptr<Dataset> root = h.root;
            if (!root && !h.recipe->parent) root = h.ds;
            if (!root) {  // after fork (EnsureProcess drops the root)
              const Recipe* r = h.recipe.get();
              while (r->parent) r = r->parent.get();
              if (r->kind != Recipe::Kind::kOpen) {
                nb::gil_scoped_release release;
                root = Take(Build(*r));  // after fork: the start of the chain, made again
              }
            }
            options.source = root.get();
            std::vector<std::string> written =
                WithDataset(h, [&](Dataset& ds) { return Take(Export(ds, output, options)); });
            relay.RaiseIfFailed();
            return written;
          },
          nb::arg("output"), nb::arg("format"), nb::arg("subset_date"), nb::arg("progress").none() = nb::none(),
          nb::arg("meta_with_ids") = false)
      .def("info_json",
           [](DatasetHandle& h) { return WithDataset(h, [](Dataset& ds) { return InfoJson(ds).dump(); }); });

  m.def(
      "open",
      [](const std::string& path, const std::string& base_path, bool use_cache, bool allow_external_rasters,
         bool allow_external_sql) {
        Recipe r;
        r.kind = Recipe::Kind::kOpen;
        r.paths = {path};
        r.base_path = base_path;
        r.use_cache = use_cache;
        r.allow_external_rasters = allow_external_rasters;
        r.allow_external_sql = allow_external_sql;
        return Opened(std::move(r));
      },
      nb::arg("path"), nb::arg("base_path"), nb::arg("use_cache"), nb::arg("allow_external_rasters") = false,
      nb::arg("allow_external_sql") = false);
  // OpenRouted (taco/dataset.h): (the dataset, parts skipped or None when nothing was routed).
  // The recipe: the path as given (as `open`) when nothing was routed, else the parts opened,
  // so that another process opens the same dataset.
  m.def(
      "open_routed",
      [](const std::string& path, std::optional<std::array<double, 4>> bbox, const std::string& datetime,
         const std::string& base_path, bool use_cache, bool allow_external_rasters, bool allow_external_sql) {
        Recipe r;
        r.base_path = base_path;
        r.use_cache = use_cache;
        r.allow_external_rasters = allow_external_rasters;
        r.allow_external_sql = allow_external_sql;
        Result<RoutedOpen> opened = Status::Internal("not opened");
        {
          nb::gil_scoped_release release;
          opened = OpenRouted({path}, bbox, datetime, RecipeOpenOptions(r));
        }
        RoutedOpen o = Take(std::move(opened));
        r.kind = o.routing ? Recipe::Kind::kOpenList : Recipe::Kind::kOpen;
        r.paths = o.routing ? o.opened : std::vector<std::string>{path};
        nb::object skipped = o.routing ? nb::cast(o.routing->skipped) : nb::none();
        DatasetHandle h(std::shared_ptr<Dataset>(std::move(o.dataset)), std::make_shared<Engine>(),
                        std::make_shared<const Recipe>(std::move(r)));
        return nb::make_tuple(std::move(h), skipped);
      },
      nb::arg("path"), nb::arg("bbox").none(), nb::arg("datetime"), nb::arg("base_path"), nb::arg("use_cache"),
      nb::arg("allow_external_rasters") = false, nb::arg("allow_external_sql") = false);
  m.def(
      "open_list",
      [](std::vector<std::string> paths, const std::string& base_path, bool use_cache, bool allow_external_rasters,
         bool allow_external_sql) {
        Recipe r;
        r.kind = Recipe::Kind::kOpenList;
        r.paths = std::move(paths);
        r.base_path = base_path;
        r.use_cache = use_cache;
        r.allow_external_rasters = allow_external_rasters;
        r.allow_external_sql = allow_external_sql;
        return Opened(std::move(r));
      },
      nb::arg("paths"), nb::arg("base_path"), nb::arg("use_cache"), nb::arg("allow_external_rasters") = false,
      nb::arg("allow_external_sql") = false);
  m.def(
      "concat",
      [](std::vector<DatasetHandle*> inputs, const std::string& column_mode) {
        std::vector<std::shared_ptr<Engine>> engines;
        std::vector<std::shared_ptr<Dataset>> keep;
        std::vector<const Dataset*> raw;
        Recipe r;
        r.kind = Recipe::Kind::kConcat;
        r.column_mode = column_mode;
        for (DatasetHandle* h : inputs) {
          if (h == nullptr) throw StatusError(StatusCode::kInvalidArgument, "concat: None is not a dataset");
          h->EnsureProcess();
          engines.push_back(h->engine);
          keep.push_back(h->ds);
          raw.push_back(h->ds.get());
          r.inputs.push_back(h->recipe);
        }
        // Lock every distinct engine, in address order (no lock-order inversion between threads).
        std::vector<Engine*> order;
        for (const auto& e : engines) order.push_back(e.get());
        std::sort(order.begin(), order.end());
        order.erase(std::unique(order.begin(), order.end()), order.end());
        std::shared_ptr<Dataset> result;
        {
          nb::gil_scoped_release release;
          std::vector<std::unique_lock<std::mutex>> locks;
          for (Engine* e : order) locks.emplace_back(e->mu);
          result = std::shared_ptr<Dataset>(Take(Dataset::Concat(raw, column_mode)));
        }
        return DatasetHandle(std::move(result), std::make_shared<Engine>(),
                             std::make_shared<const Recipe>(std::move(r)));
      },
      nb::arg("datasets"), nb::arg("column_mode"));

  m.def(
      "validate",
      [](const std::string& path, size_t max_per_rule) {
        ValidateOptions options;
        options.max_per_rule = max_per_rule;
        ValidationReport report;
        {
          nb::gil_scoped_release release;
          report = Take(Validate(path, options));
        }
        return ReportDict(report);
      },
      nb::arg("path"), nb::arg("max_per_rule"));
  m.def("cache_info", []() {
    RemoteCacheInfo info;
    {
      nb::gil_scoped_release release;
      info = Take(GetRemoteCacheInfo());
    }
    nb::dict d;
    d["dir"] = info.dir;
    d["entries"] = info.entries;
    d["bytes"] = info.bytes;
    d["enabled"] = RemoteCacheEnabled();
    return d;
  });
  m.def("cache_clear", []() {
    nb::gil_scoped_release release;
    return Take(ClearRemoteCache());
  });
  m.def(
      "detect_format",
      [](const std::string& path) {
        nb::gil_scoped_release release;
        return std::string(DatasetFormatName(Take(DetectFormat(path))));
      },
      nb::arg("path"));
  m.def(
      "to_vsi_path", [](const std::string& path) { return ToVsiPath(path); }, nb::arg("path"));
  m.def(
      "in_process_gdal_path",
      [](const std::string& path, const std::string& leaf) {
        nb::gil_scoped_release release;
        return Take(InProcessGdalPath(path, leaf));
      },
      nb::arg("path"), nb::arg("leaf") = "");
}

}  // namespace taco::py
