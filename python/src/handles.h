// The Python-side handles of datasets and frames: a taco::Dataset (or Frame) plus what makes
// it safe to use from Python.
//
// Contract:
//  * Thread safety: a taco::Dataset and every view and Frame derived from it share one DuckDB
//    engine that is not thread-safe. Every handle derived from one opened dataset shares one
//    `Engine` guard; each native call locks its mutex after releasing the GIL (never the
//    other way round), so Python threads may share a dataset and run truly in parallel on
//    different datasets.
//  * Fork safety: a handle remembers how it was made (a Recipe: open arguments, then the
//    chain of sql/filter calls, concat inputs, navigation keys). The first call in a process
//    other than the one that opened it (a DataLoader worker after fork) rebuilds the handle
//    from its recipe; the parent's engine is never used nor destroyed in the child (its
//    threads do not exist there), it is deliberately leaked.
#ifndef TACO_PYTHON_HANDLES_H_
#define TACO_PYTHON_HANDLES_H_

#include <sys/types.h>
#include <unistd.h>

#include <array>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "taco/dataset.h"

namespace taco::py {

// One per opened dataset per process.
struct Engine {
  std::mutex mu;
  pid_t pid = ::getpid();
};

// How a dataset view was made, for rebuilding it after fork.
struct Recipe {
  enum class Kind { kOpen, kOpenList, kConcat, kSql, kBbox, kDatetime };
  Kind kind = Kind::kOpen;
  // kOpen / kOpenList
  std::vector<std::string> paths;
  std::string base_path;
  bool use_cache = true;
  bool allow_external_rasters = false;  // OpenOptions::allow_external_rasters
  bool allow_external_sql = false;      // OpenOptions::allow_external_sql
  // kConcat
  std::vector<std::shared_ptr<const Recipe>> inputs;
  std::string column_mode;
  // kSql / kBbox / kDatetime: applied to `parent`
  std::shared_ptr<const Recipe> parent;
  std::string text;    // the query, or the datetime range
  std::string column;  // geometry_col / time_col
  std::array<double, 4> box{};
  int level = 0;
  bool data_is_raw = false;  // kSql: `data` means every column (Dataset::Sql)
  // kSql: the query is non-deterministic and was evaluated once (Dataset::Sql, view_name()
  // "fixed_…"): running it again would give other rows, so Build() refuses it.
  bool fixed = false;
};
using RecipePtr = std::shared_ptr<const Recipe>;

// The OpenOptions of a kOpen / kOpenList recipe.
OpenOptions RecipeOpenOptions(const Recipe& recipe);

// Opens / derives the dataset a recipe describes (no locking: the result is new). A recipe
// with a `fixed` step (see above) is an InvalidArgument naming the query.
Result<std::shared_ptr<Dataset>> Build(const Recipe& recipe);

// The error Build() gives for `recipe` when a step of it is `fixed`; OK otherwise.
Status CheckRebuildable(const Recipe& recipe);

struct DatasetHandle {
  std::shared_ptr<Dataset> ds;
  std::shared_ptr<Engine> engine;
  RecipePtr recipe;
  // The dataset the chain of views starts at (open, open_list or concat; null when `ds` is
  // that one): what export navigates for whole subtrees (ExportOptions::source).
  std::shared_ptr<Dataset> root;

  DatasetHandle(std::shared_ptr<Dataset> d, std::shared_ptr<Engine> e, RecipePtr r)
      : ds(std::move(d)), engine(std::move(e)), recipe(std::move(r)) {}
  DatasetHandle(DatasetHandle&&) = default;
  DatasetHandle& operator=(DatasetHandle&&) = default;
  ~DatasetHandle();

  // Rebuilds after fork (see above); throws StatusError when that fails. GIL held.
  void EnsureProcess();
};

struct FrameHandle {
  std::shared_ptr<const Frame> frame;
  std::shared_ptr<Engine> engine;
  RecipePtr recipe;             // the dataset the keys start from
  std::vector<SampleKey> keys;  // its path from that dataset's level 0

  FrameHandle(std::shared_ptr<const Frame> f, std::shared_ptr<Engine> e, RecipePtr r, std::vector<SampleKey> k)
      : frame(std::move(f)), engine(std::move(e)), recipe(std::move(r)), keys(std::move(k)) {}
  FrameHandle(FrameHandle&&) = default;
  FrameHandle& operator=(FrameHandle&&) = default;
  ~FrameHandle();

  void EnsureProcess();
};

}  // namespace taco::py

#endif  // TACO_PYTHON_HANDLES_H_
