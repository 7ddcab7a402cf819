#include "handles.h"

#include <utility>

#include "errors.h"

namespace taco::py {
namespace {

// Keeps `p` alive forever: an object of the parent process must not run its destructor in
// a forked child (DuckDB would join threads that do not exist there).
template <typename T>
void Leak(std::shared_ptr<T>& p) {
  if (p) new std::shared_ptr<T>(std::move(p));
}

bool Forked(const std::shared_ptr<Engine>& engine) { return engine && engine->pid != ::getpid(); }

}  // namespace

Status CheckRebuildable(const Recipe& r) {
  if (r.fixed) {
    return Status::InvalidArgument(
        "the view of SQL \"" + r.text +
        "\" is non-deterministic (random(), a sample, the time, ...): it was evaluated once in the process "
        "that made it and cannot be made again in another process (a pickled copy, a spawned DataLoader worker, "
        "a Dask worker); use it in this process, or make the query deterministic, e.g. "
        "ORDER BY hash(id || 'my-seed') LIMIT n for a seeded random choice");
  }
  if (r.parent) TACO_RETURN_IF_ERROR(CheckRebuildable(*r.parent));
  for (const auto& in : r.inputs) TACO_RETURN_IF_ERROR(CheckRebuildable(*in));
  return Status::OK();
}

OpenOptions RecipeOpenOptions(const Recipe& r) {
  OpenOptions options;
  options.base_path = r.base_path;
  // Python's cache=True is the library's default: off when TACO_NO_CACHE is set (taco/io.h).
  options.use_cache = r.use_cache && RemoteCacheEnabled();
  options.allow_external_rasters = r.allow_external_rasters;
  options.allow_external_sql = r.allow_external_sql;
  return options;
}

Result<std::shared_ptr<Dataset>> Build(const Recipe& r) {
  TACO_RETURN_IF_ERROR(CheckRebuildable(r));
  const OpenOptions options = RecipeOpenOptions(r);
  switch (r.kind) {
    case Recipe::Kind::kOpen: {
      TACO_ASSIGN_OR_RETURN(auto ds, Dataset::Open(r.paths.at(0), options));
      return std::shared_ptr<Dataset>(std::move(ds));
    }
    case Recipe::Kind::kOpenList: {
      TACO_ASSIGN_OR_RETURN(auto ds, Dataset::OpenList(r.paths, options));
      return std::shared_ptr<Dataset>(std::move(ds));
    }
    case Recipe::Kind::kConcat: {
      std::vector<std::shared_ptr<Dataset>> inputs;
      std::vector<const Dataset*> raw;
      for (const auto& in : r.inputs) {
        TACO_ASSIGN_OR_RETURN(auto ds, Build(*in));
        raw.push_back(ds.get());
        inputs.push_back(std::move(ds));
      }
      TACO_ASSIGN_OR_RETURN(auto ds, Dataset::Concat(raw, r.column_mode));
      return std::shared_ptr<Dataset>(std::move(ds));
    }
    case Recipe::Kind::kSql:
    case Recipe::Kind::kBbox:
    case Recipe::Kind::kDatetime: break;
  }
  TACO_ASSIGN_OR_RETURN(auto parent, Build(*r.parent));
  Result<std::unique_ptr<Dataset>> derived = Status::Internal("unreachable");
  if (r.kind == Recipe::Kind::kSql) {
    derived = parent->Sql(r.text, r.data_is_raw);
  } else if (r.kind == Recipe::Kind::kBbox) {
    derived = parent->FilterBbox(r.box[0], r.box[1], r.box[2], r.box[3], r.column, r.level);
  } else {
    derived = parent->FilterDatetime(r.text, r.column, r.level);
  }
  TACO_ASSIGN_OR_RETURN(auto ds, std::move(derived));
  return std::shared_ptr<Dataset>(std::move(ds));
}

DatasetHandle::~DatasetHandle() {
  if (Forked(engine)) {
    Leak(ds);
    Leak(root);
    Leak(engine);
  }
}

void DatasetHandle::EnsureProcess() {
  if (!Forked(engine)) return;
  Leak(ds);
  Leak(root);
  Leak(engine);
  ds = Take(Build(*recipe));
  engine = std::make_shared<Engine>();
}

FrameHandle::~FrameHandle() {
  if (Forked(engine)) {
    Leak(frame);
    Leak(engine);
  }
}

void FrameHandle::EnsureProcess() {
  if (!Forked(engine)) return;
  Leak(frame);
  Leak(engine);
  std::shared_ptr<Dataset> ds = Take(Build(*recipe));
  Node node = Take(ds->ReadPath(keys));
  if (!node.children) Check(Status::Internal("navigation path no longer reaches a FOLDER after fork"));
  frame = node.children;
  engine = std::make_shared<Engine>();
}

}  // namespace taco::py
