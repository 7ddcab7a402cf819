#include "io/thread_config.h"

#include <cpl_conv.h>
#include <cpl_string.h>

namespace taco::io {

std::shared_ptr<const GdalThreadOptions> GdalThreadOptions::Capture() {
  std::shared_ptr<GdalThreadOptions> out(new GdalThreadOptions());
  out->options_ = CPLGetThreadLocalConfigOptions();  // a copy, ours to free
  return out;
}

GdalThreadOptions::~GdalThreadOptions() { CSLDestroy(options_); }

GdalThreadOptions::Scope::Scope(const GdalThreadOptions& options) {
  if (options.options_ == nullptr) return;  // nothing thread-local to pass on
  previous_ = CPLGetThreadLocalConfigOptions();
  CPLSetThreadLocalConfigOptions(options.options_);  // copies the list
  installed_ = true;
}

GdalThreadOptions::Scope::~Scope() {
  if (!installed_) return;
  CPLSetThreadLocalConfigOptions(previous_);
  CSLDestroy(previous_);
}

}  // namespace taco::io
