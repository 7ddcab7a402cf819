#include "read/lazy_engine.h"

#include "taco/diagnostics.h"

namespace taco {

uint64_t EnginesStarted() { return table::EnginesOpened(); }

namespace read {

void LazyEngine::Adopt(std::unique_ptr<table::Engine> engine) {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  engine_ = std::move(engine);
  status_ = Status::OK();
  setup_ = nullptr;
  started_.store(true, std::memory_order_release);
}

Status LazyEngine::Start() const {
  if (started()) return status_;
  std::lock_guard<std::recursive_mutex> lock(mu_);
  if (started_.load(std::memory_order_relaxed) || starting_) return status_;
  Result<std::unique_ptr<table::Engine>> opened = table::Engine::Open();
  if (!opened.ok()) {
    status_ = opened.status();
    engine_ = table::Engine::Failed(status_);
  } else {
    engine_ = std::move(*opened);
    starting_ = true;
    if (setup_) status_ = setup_(*engine_);
    starting_ = false;
    if (!status_.ok()) engine_ = table::Engine::Failed(status_);
  }
  setup_ = nullptr;  // releases what the setup captured
  started_.store(true, std::memory_order_release);
  return status_;
}

table::Engine* LazyEngine::get() const {
  if (started()) return engine_.get();
  std::lock_guard<std::recursive_mutex> lock(mu_);
  Status st = Start();
  (void)st;  // a failed start left an Engine::Failed that reports it
  return engine_.get();
}

}  // namespace read
}  // namespace taco
