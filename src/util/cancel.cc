#include "taco/cancel.h"

#include <utility>

namespace taco {
namespace {

thread_local CancelScope* current_scope = nullptr;

}  // namespace

CancelScope::CancelScope(std::function<bool()> poll)
    : poll_(std::move(poll)), outer_(current_scope), next_poll_(std::chrono::steady_clock::now()) {
  current_scope = this;
}

CancelScope::~CancelScope() { current_scope = outer_; }

bool CancelRequested() {
  CancelScope* scope = current_scope;
  if (scope == nullptr) return false;
  if (scope->cancelled_) return true;
  const auto now = std::chrono::steady_clock::now();
  if (now < scope->next_poll_) return false;
  scope->next_poll_ = now + kCancelPollInterval;
  if (scope->poll_ && scope->poll_()) scope->cancelled_ = true;
  return scope->cancelled_;
}

Status Cancelled(const std::string& where) { return Status::IOError(where + ": interrupted"); }

}  // namespace taco
