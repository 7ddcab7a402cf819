// Training-loop side of taco_cpp._native (taco/sample_loader.h): sample plans, the decoder
// (GDAL in C++, GIL released), the read-ahead queue, and pickling of dataset views by their
// recipe (handles.h) so that spawned DataLoader workers and Dask workers reopen them.
//
// Decoded rasters become numpy arrays that own the C++ buffer (no copy).
#include <sys/types.h>
#include <unistd.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>
#include <nlohmann/json.hpp>

#include "bindings.h"
#include "errors.h"
#include "handles.h"
#include "taco/sample_loader.h"

namespace nb = nanobind;

namespace taco::py {
namespace {

// ---- recipes as JSON ---------------------------------------------------------------------

const char* KindName(Recipe::Kind k) {
  switch (k) {
    case Recipe::Kind::kOpen: return "open";
    case Recipe::Kind::kOpenList: return "open_list";
    case Recipe::Kind::kConcat: return "concat";
    case Recipe::Kind::kSql: return "sql";
    case Recipe::Kind::kBbox: return "bbox";
    case Recipe::Kind::kDatetime: return "datetime";
  }
  return "?";
}

nlohmann::json RecipeJson(const Recipe& r) {
  nlohmann::json j;
  j["kind"] = KindName(r.kind);
  j["paths"] = r.paths;
  j["base_path"] = r.base_path;
  j["use_cache"] = r.use_cache;
  j["allow_external_rasters"] = r.allow_external_rasters;
  j["allow_external_sql"] = r.allow_external_sql;
  j["inputs"] = nlohmann::json::array();
  for (const auto& in : r.inputs) j["inputs"].push_back(RecipeJson(*in));
  j["column_mode"] = r.column_mode;
  j["parent"] = r.parent ? RecipeJson(*r.parent) : nlohmann::json();
  j["text"] = r.text;
  j["column"] = r.column;
  j["box"] = r.box;
  j["level"] = r.level;
  j["data_is_raw"] = r.data_is_raw;
  return j;
}

RecipePtr RecipeFromJson(const nlohmann::json& j) {
  auto r = std::make_shared<Recipe>();
  const std::string kind = j.at("kind").get<std::string>();
  bool known = false;
  for (Recipe::Kind k : {Recipe::Kind::kOpen, Recipe::Kind::kOpenList, Recipe::Kind::kConcat, Recipe::Kind::kSql,
                         Recipe::Kind::kBbox, Recipe::Kind::kDatetime}) {
    if (kind == KindName(k)) {
      r->kind = k;
      known = true;
    }
  }
  if (!known) throw StatusError(StatusCode::kInvalidArgument, "dataset recipe: unknown kind '" + kind + "'");
  r->paths = j.at("paths").get<std::vector<std::string>>();
  r->base_path = j.at("base_path").get<std::string>();
  r->use_cache = j.at("use_cache").get<bool>();
  r->allow_external_rasters = j.value("allow_external_rasters", false);
  r->allow_external_sql = j.value("allow_external_sql", false);
  for (const auto& in : j.at("inputs")) r->inputs.push_back(RecipeFromJson(in));
  r->column_mode = j.at("column_mode").get<std::string>();
  if (!j.at("parent").is_null()) r->parent = RecipeFromJson(j.at("parent"));
  r->text = j.at("text").get<std::string>();
  r->column = j.at("column").get<std::string>();
  r->box = j.at("box").get<std::array<double, 4>>();
  r->level = j.at("level").get<int>();
  r->data_is_raw = j.at("data_is_raw").get<bool>();
  const bool derived =
      r->kind == Recipe::Kind::kSql || r->kind == Recipe::Kind::kBbox || r->kind == Recipe::Kind::kDatetime;
  if (derived != (r->parent != nullptr)) {
    throw StatusError(StatusCode::kInvalidArgument, "dataset recipe: '" + kind + "' with a wrong parent");
  }
  return r;
}

// ---- the decoder --------------------------------------------------------------------------

// A plan (plain data: usable in any process, e.g. after fork) and the recipe of the view it
// came from, for the decoder's navigation fallback.
struct PlanHandle {
  std::shared_ptr<const SamplePlan> plan;
  RecipePtr recipe;
};

struct DecoderHandle {
  std::shared_ptr<const SampleDecoder> decoder;  // its fallback holds the dataset
  pid_t pid = ::getpid();

  DecoderHandle(std::shared_ptr<const SampleDecoder> d) : decoder(std::move(d)) {}
  DecoderHandle(DecoderHandle&&) = default;
  DecoderHandle& operator=(DecoderHandle&&) = default;
  ~DecoderHandle() {
    if (pid != ::getpid()) new std::shared_ptr<const SampleDecoder>(std::move(decoder));
  }
  void CheckProcess() const {
    if (pid != ::getpid()) {
      throw StatusError(StatusCode::kInternal, "a sample decoder made before fork() was used in the child process");
    }
  }
};

struct ReadAheadHandle {
  // The arrays given to provide(), with the position after their last row: kept alive until
  // Next() has handed those rows out (the threads write into them until then). Declared
  // before `queue` so that they outlive it (its destructor joins the threads).
  std::vector<std::pair<size_t, nb::object>> targets;
  std::unique_ptr<ReadAhead> queue;
  pid_t pid = ::getpid();

  explicit ReadAheadHandle(std::unique_ptr<ReadAhead> q) : queue(std::move(q)) {}
  ReadAheadHandle(ReadAheadHandle&&) = default;
  ReadAheadHandle& operator=(ReadAheadHandle&&) = default;
  ~ReadAheadHandle() {
    if (pid != ::getpid()) (void)queue.release();  // its threads and dataset belong to the parent
  }
  ReadAhead& Get() {
    if (pid != ::getpid()) {
      throw StatusError(StatusCode::kInternal, "a read-ahead made before fork() was used in the child process");
    }
    if (!queue) throw StatusError(StatusCode::kInvalidArgument, "the read-ahead is closed");
    return *queue;
  }
};

std::optional<PixelWindow> WindowOf(const std::optional<std::tuple<int64_t, int64_t, int64_t, int64_t>>& w) {
  if (!w) return std::nullopt;
  auto [col_off, row_off, cols, rows] = *w;
  return PixelWindow{col_off, row_off, cols, rows};
}

nb::dlpack::dtype DlType(PixelType t) {
  switch (t) {
    case PixelType::kUInt8: return nb::dtype<uint8_t>();
    case PixelType::kInt8: return nb::dtype<int8_t>();
    case PixelType::kUInt16: return nb::dtype<uint16_t>();
    case PixelType::kInt16: return nb::dtype<int16_t>();
    case PixelType::kUInt32: return nb::dtype<uint32_t>();
    case PixelType::kInt32: return nb::dtype<int32_t>();
    case PixelType::kUInt64: return nb::dtype<uint64_t>();
    case PixelType::kInt64: return nb::dtype<int64_t>();
    case PixelType::kFloat32: return nb::dtype<float>();
    case PixelType::kFloat64: return nb::dtype<double>();
    case PixelType::kNative:
    case PixelType::kTorch: break;
  }
  throw StatusError(StatusCode::kInternal, "decoded raster without a concrete pixel type");
}

// A numpy array owning the raster's buffer. GIL held.
nb::object ArrayOf(DecodedRaster& r) {
  using Buffer = std::unique_ptr<std::byte[]>;
  auto* holder = new Buffer(std::move(r.data));
  nb::capsule owner(holder, [](void* p) noexcept { delete static_cast<Buffer*>(p); });
  const size_t shape[3] = {static_cast<size_t>(r.bands), static_cast<size_t>(r.rows), static_cast<size_t>(r.cols)};
  nb::ndarray<nb::numpy> array(holder->get(), 3, shape, owner, nullptr, DlType(r.type));
  return nb::cast(array);
}

// (row, [array per file]; None for a file written into its DecodeTarget). GIL held.
nb::tuple SampleTuple(DecodedSample& s) {
  nb::list arrays;
  for (DecodedRaster& r : s.files) arrays.append(r.in_target ? nb::none() : ArrayOf(r));
  return nb::make_tuple(s.row, arrays);
}

PixelType PixelTypeOf(nb::dlpack::dtype t) {
  for (PixelType p :
       {PixelType::kUInt8, PixelType::kInt8, PixelType::kUInt16, PixelType::kInt16, PixelType::kUInt32,
        PixelType::kInt32, PixelType::kUInt64, PixelType::kInt64, PixelType::kFloat32, PixelType::kFloat64}) {
    if (DlType(p) == t) return p;
  }
  throw StatusError(StatusCode::kInvalidArgument, "read-ahead target: unsupported array type");
}

// Writable (nanobind refuses read-only arrays for a non-const scalar type), C-contiguous, CPU.
using TargetArray = nb::ndarray<nb::c_contig, nb::device::cpu>;

// provide(count, targets): the next `count` rows' slots, from one array (count, bands, rows,
// cols) per plan file or None (that file gets buffers of its own). GIL held.
void ProvideTargets(ReadAheadHandle& q, ReadAhead& queue, size_t count,
                    const std::vector<std::optional<TargetArray>>& arrays, nb::handle keep) {
  std::vector<std::vector<DecodeTarget>> rows(count);
  if (!arrays.empty()) {
    for (auto& r : rows) r.resize(arrays.size());
  }
  for (size_t f = 0; f < arrays.size(); ++f) {
    if (!arrays[f]) continue;
    const TargetArray& a = *arrays[f];
    if (a.ndim() != 4 || a.shape(0) != count) {
      throw StatusError(StatusCode::kInvalidArgument,
                        "read-ahead target: expected an array (count, bands, rows, cols)");
    }
    const PixelType type = PixelTypeOf(a.dtype());
    const size_t stride = count == 0 ? 0 : a.nbytes() / count;
    for (size_t i = 0; i < count; ++i) {
      DecodeTarget& t = rows[i][f];
      t.data = static_cast<std::byte*>(a.data()) + i * stride;
      t.type = type;
      t.bands = static_cast<int64_t>(a.shape(1));
      t.rows = static_cast<int64_t>(a.shape(2));
      t.cols = static_cast<int64_t>(a.shape(3));
    }
  }
  const size_t end = queue.provided() + count;
  Check(queue.Provide(std::move(rows)));
  q.targets.emplace_back(end, nb::borrow(keep));
}

// Drops the kept target arrays whose rows were all handed out. GIL held.
void ReleaseTaken(ReadAheadHandle& q, ReadAhead& queue) {
  const size_t taken = queue.taken();
  size_t n = 0;
  while (n < q.targets.size() && q.targets[n].first <= taken) ++n;
  if (n > 0) q.targets.erase(q.targets.begin(), q.targets.begin() + static_cast<std::ptrdiff_t>(n));
}

}  // namespace

void BindLoader(nb::module_& m) {
  m.def(
      "dataset_recipe",
      [](DatasetHandle& h) {
        Check(CheckRebuildable(*h.recipe));
        return RecipeJson(*h.recipe).dump();
      },
      nb::arg("dataset"));
  m.def(
      "dataset_from_recipe",
      [](const std::string& text) {
        nlohmann::json j;
        try {
          j = nlohmann::json::parse(text);
        } catch (const std::exception& e) {
          throw StatusError(StatusCode::kInvalidArgument, std::string("dataset recipe: not JSON: ") + e.what());
        }
        RecipePtr recipe;
        try {
          recipe = RecipeFromJson(j);
        } catch (const nlohmann::json::exception& e) {
          throw StatusError(StatusCode::kInvalidArgument, std::string("dataset recipe: ") + e.what());
        }
        std::shared_ptr<Dataset> ds;
        {
          nb::gil_scoped_release release;
          ds = Take(Build(*recipe));
        }
        return DatasetHandle(std::move(ds), std::make_shared<Engine>(), recipe);
      },
      nb::arg("recipe"));

  nb::class_<PlanHandle>(m, "SamplePlan")
      .def_prop_ro("num_rows", [](const PlanHandle& p) { return p.plan->num_rows(); })
      .def_prop_ro("files", [](const PlanHandle& p) { return p.plan->files(); })
      .def_prop_ro("containers", [](const PlanHandle& p) { return p.plan->containers(); })
      .def(
          "id",
          [](const PlanHandle& p, size_t row) {
            if (row >= p.plan->num_rows()) throw nb::index_error("row out of range");
            return p.plan->id(row);
          },
          nb::arg("row"))
      .def(
          "location",
          [](const PlanHandle& p, size_t row, size_t file) {
            if (row >= p.plan->num_rows() || file >= p.plan->files_per_row()) throw nb::index_error("out of range");
            const SamplePlan::Location& loc = p.plan->location(row, file);
            return std::make_tuple(loc.container, loc.offset, loc.size, loc.path);
          },
          nb::arg("row"), nb::arg("file"));

  m.def(
      "plan_samples",
      [](DatasetHandle& h, std::vector<std::string> files) {
        h.EnsureProcess();
        PlanHandle p;
        p.recipe = h.recipe;
        std::shared_ptr<Dataset> ds = h.ds;
        std::shared_ptr<Engine> engine = h.engine;
        {
          nb::gil_scoped_release release;
          std::lock_guard<std::mutex> lock(engine->mu);
          p.plan = Take(SamplePlan::Build(*ds, files));
        }
        return p;
      },
      nb::arg("dataset"), nb::arg("files"));

  // selections: one (bands or None, (col_off, row_off, cols, rows) or None, type name) per
  // file, or one for all. fallback: navigate the view when the ZIP does not confirm an offset.
  using Selection = std::tuple<std::optional<std::vector<int>>,
                               std::optional<std::tuple<int64_t, int64_t, int64_t, int64_t>>, std::string>;
  m.def(
      "make_decoder",
      [](const PlanHandle& p, const std::vector<Selection>& selections, bool fallback) {
        std::vector<RasterSelection> sel;
        for (const auto& [bands, window, type] : selections) {
          RasterSelection s;
          if (bands) s.bands = *bands;
          s.window = WindowOf(window);
          s.type = Take(ParsePixelType(type));
          sel.push_back(std::move(s));
        }
        LocationFallback fb;
        if (fallback) {
          RecipePtr recipe = p.recipe;
          fb = NavigationFallback(
              [recipe]() -> Result<std::shared_ptr<const Dataset>> {
                TACO_ASSIGN_OR_RETURN(std::shared_ptr<Dataset> ds, Build(*recipe));
                return std::shared_ptr<const Dataset>(std::move(ds));
              },
              p.plan->files());
        }
        return DecoderHandle(Take(SampleDecoder::Make(p.plan, std::move(sel), std::move(fb))));
      },
      nb::arg("plan"), nb::arg("selections"), nb::arg("fallback") = true);

  nb::class_<DecoderHandle>(m, "SampleDecoder")
      .def(
          "decode",
          [](DecoderHandle& d, int64_t row) {
            d.CheckProcess();
            DecodedSample s;
            {
              nb::gil_scoped_release release;
              s = Take(d.decoder->Decode(row));
            }
            return SampleTuple(s);
          },
          nb::arg("row"))
      .def(
          "read_ahead",
          [](DecoderHandle& d, std::vector<int64_t> rows, int threads, size_t memory_budget, size_t max_ahead,
             bool targeted) {
            d.CheckProcess();
            if (threads < 0) throw StatusError(StatusCode::kInvalidArgument, "read-ahead threads must be >= 0");
            ReadAheadOptions o;
            o.threads = threads;
            o.memory_budget = memory_budget;
            o.max_ahead = max_ahead;
            o.targeted = targeted;
            return ReadAheadHandle(std::make_unique<ReadAhead>(d.decoder, std::move(rows), o));
          },
          nb::arg("rows"), nb::arg("threads"), nb::arg("memory_budget"), nb::arg("max_ahead"),
          nb::arg("targeted") = false);

  nb::class_<ReadAheadHandle>(m, "ReadAhead")
      .def("next",
           [](ReadAheadHandle& q) -> nb::object {
             ReadAhead& queue = q.Get();
             std::optional<DecodedSample> s;
             {
               nb::gil_scoped_release release;
               s = Take(queue.Next());
             }
             ReleaseTaken(q, queue);
             if (!s) return nb::none();
             return SampleTuple(*s);
           })
      .def(
          "provide",
          [](ReadAheadHandle& q, size_t count, std::vector<std::optional<TargetArray>> arrays, nb::handle keep) {
            ProvideTargets(q, q.Get(), count, arrays, keep);
          },
          nb::arg("count"), nb::arg("targets"), nb::arg("keep").none())
      .def("__len__", [](ReadAheadHandle& q) { return q.Get().size(); })
      .def_prop_ro("held_bytes", [](ReadAheadHandle& q) { return q.Get().held_bytes(); })
      .def_prop_ro("peak_held_bytes", [](ReadAheadHandle& q) { return q.Get().peak_held_bytes(); })
      .def("close", [](ReadAheadHandle& q) {
        if (q.pid != ::getpid()) return;
        std::unique_ptr<ReadAhead> queue = std::move(q.queue);
        {
          nb::gil_scoped_release release;
          queue.reset();
        }
        q.targets.clear();  // the threads are joined: nothing writes into them any more
      });
}

}  // namespace taco::py
