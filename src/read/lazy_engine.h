// The SQL engine of an opened dataset, started on first use (issue 28): opening a ZIP or
// FOLDER dataset reads its header, COLLECTION.json and level footers without DuckDB, and the
// engine (Engine::Open, the level views, the path guards) starts with the first statement.
//
// Contract:
//  * Thread-safe: the first Start() (or operator->) from any thread runs the setup once;
//    the others wait for it. Later calls return the same engine and status. The setup
//    itself may use operator-> (it gets the engine being set up).
//  * operator-> / operator* / get() start the engine. When starting failed, they return an
//    engine whose every statement fails with the start's error (Engine::Failed), so call
//    sites that only hold an Engine* still report it.
//  * Adopt() installs an engine that is already set up (concat, TACOCAT, legacy): nothing
//    is deferred.
#ifndef TACO_READ_LAZY_ENGINE_H_
#define TACO_READ_LAZY_ENGINE_H_

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <utility>

#include "table/engine.h"
#include "taco/status.h"

namespace taco::read {

class LazyEngine {
 public:
  // What starting does after Engine::Open(): mounts, views, functions. Called once.
  using Setup = std::function<Status(table::Engine&)>;

  void set_setup(Setup setup) { setup_ = std::move(setup); }
  void Adopt(std::unique_ptr<table::Engine> engine);
  // Starts the engine unless started; the first start's status.
  Status Start() const;
  bool started() const { return started_.load(std::memory_order_acquire); }

  // Const like std::unique_ptr's: starting is not a change a const State can see.
  table::Engine* get() const;
  table::Engine* operator->() const { return get(); }
  table::Engine& operator*() const { return *get(); }

 private:
  mutable std::recursive_mutex mu_;
  mutable bool starting_ = false;  // the setup is running (on the thread holding mu_)
  mutable std::atomic<bool> started_{false};
  mutable Setup setup_;
  mutable std::unique_ptr<table::Engine> engine_;
  mutable Status status_;
};

}  // namespace taco::read

#endif  // TACO_READ_LAZY_ENGINE_H_
