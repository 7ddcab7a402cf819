// Export() and Convert(): RebuildTaco() followed by Create() (see taco/convert.h).
#include <sys/stat.h>

#include <cerrno>
#include <memory>

#include "format/container.h"
#include "taco/convert.h"
#include "util/exception_guard.h"
#include "write/outputs.h"

namespace taco {
namespace {

Status CheckOutputFree(const std::string& output) {
  if (output.empty()) return Status::InvalidArgument("the output path is empty");
  struct stat st;
  if (::lstat(output.c_str(), &st) == 0) return Status::AlreadyExists(output + ": already exists");
  return Status::OK();
}

}  // namespace

static Result<std::vector<std::string>> ExportUnguarded(const Dataset& view, const std::string& output,
                                                        const ExportOptions& options) {
  TACO_RETURN_IF_ERROR(CheckOutputFree(output));
  std::unique_ptr<Dataset> reopened;
  const Dataset* source = options.source;
  if (source == nullptr) {
    TACO_ASSIGN_OR_RETURN(reopened, Dataset::Open(view.path(), options.open));
    source = reopened.get();
  }
  RebuildOptions rebuild;
  rebuild.is_export = true;
  rebuild.subset_date = options.subset_date;
  TACO_ASSIGN_OR_RETURN(Taco taco, RebuildTaco(view, *source, rebuild));
  CreateOptions create;
  create.format = options.format;
  create.split_size = 0;
  create.progress = options.progress;
  create.copy_threads = options.copy_threads;
  return write::CreateWithMetaLayout(taco, output, create, options.meta_with_ids);
}

// The library boundary: nothing a dependency throws escapes (util/exception_guard.h).
Result<std::vector<std::string>> Export(const Dataset& view, const std::string& output, const ExportOptions& options) {
  return util::GuardExceptions(output, [&] { return ExportUnguarded(view, output, options); });
}

static Result<std::vector<std::string>> ConvertUnguarded(const std::string& input, const std::string& output,
                                                         const ConvertOptions& options) {
  TACO_RETURN_IF_ERROR(CheckOutputFree(output));
  TACO_ASSIGN_OR_RETURN(std::unique_ptr<Dataset> dataset, Dataset::Open(input, options.open));
  OutputFormat format = options.format;
  if (format == OutputFormat::kAuto) {
    format = format::Container::For(dataset->format()).is_tree() ? OutputFormat::kZip : OutputFormat::kFolder;
  }
  RebuildOptions rebuild;
  rebuild.keep_root_padding = true;
  TACO_ASSIGN_OR_RETURN(Taco taco, RebuildTaco(*dataset, *dataset, rebuild));
  CreateOptions create;
  create.format = format;
  create.split_size = 0;
  create.progress = options.progress;
  create.copy_threads = options.copy_threads;
  return write::CreateWithMetaLayout(taco, output, create, options.meta_with_ids);
}

// The library boundary: nothing a dependency throws escapes (util/exception_guard.h).
Result<std::vector<std::string>> Convert(const std::string& input, const std::string& output,
                                         const ConvertOptions& options) {
  return util::GuardExceptions(input, [&] { return ConvertUnguarded(input, output, options); });
}

}  // namespace taco
