// Metadata is untrusted input: the checks that keep every path built from it inside the
// dataset root (issue 16 B). Used by the level views (as SQL guard functions), navigation,
// concat and the TACOCAT reader.
//
// Contract:
//  * StoredIdProblem: "" when `id` may be used as a path component: the sample id rule of
//    FORMAT §7.1 (ValidateSampleId: not empty, no '/', '\\', ':' or NUL, valid UTF-8, not
//    '.' or '..', not starting with '__') — except the stored padding ids '__TACOPAD__<k>'
//    (k decimal digits), which are accepted. Else a sentence saying what is wrong.
//  * RelativePathProblem: `internal:relative_path` of a FOLDER level >= 1: ids joined by '/',
//    each passing StoredIdProblem; a FOLDER's path ends with one '/'.
//  * SourceFileProblem: `internal:source_file` of a TACOCAT: a path relative to the TACOCAT's
//    directory, made of '/'-separated non-empty components, none '.' or '..', no '\\', NUL,
//    and not absolute.
//  * `url`: the root is an http(s) URL (`/vsicurl/`), where a server decodes '%xx' and
//    would turn '%2e%2e' into '..': there '%', '?' and '#' are refused too.
//  * RangeProblem: offset and size not negative and, when `limit` >= 0 (the container's
//    size), offset + size <= limit.
//  * CheckInsideRoot (local FOLDER / TACOCAT navigation): the real path of `path` (symbolic
//    links resolved) lies inside the real path of `root`; NotFound when it does not exist,
//    InvalidArgument naming both when it leaves the root.
//  * RegisterPathGuards: the SQL scalar functions below on `engine`, throwing (a DuckDB
//    error that becomes the query's Status, which the caller prefixes with the dataset)
//    "refused: <problem> (metadata is untrusted: ...)" when a value fails its check; NULL in
//    → NULL out:
//      taco_checked_id(id VARCHAR, url BOOLEAN) → id
//      taco_checked_relative_path(path VARCHAR, url BOOLEAN) → path
//      taco_checked_source_file(path VARCHAR, url BOOLEAN) → path
//      taco_checked_range(offset BIGINT, size BIGINT, limit BIGINT) → '<offset>_<size>'
#ifndef TACO_READ_PATH_SAFETY_H_
#define TACO_READ_PATH_SAFETY_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "table/engine.h"
#include "taco/status.h"

namespace taco::read {

inline constexpr const char* kCheckedId = "taco_checked_id";
inline constexpr const char* kCheckedRelativePath = "taco_checked_relative_path";
inline constexpr const char* kCheckedSourceFile = "taco_checked_source_file";
inline constexpr const char* kCheckedRange = "taco_checked_range";

std::string StoredIdProblem(std::string_view id, bool url);
std::string RelativePathProblem(std::string_view path, bool folder, bool url);
std::string SourceFileProblem(std::string_view path, bool url);
std::string RangeProblem(int64_t offset, int64_t size, int64_t limit);

// "<dataset>: refused: <problem> (...)" as InvalidArgument.
Status Refused(const std::string& dataset, const std::string& problem);

Status CheckInsideRoot(const std::string& dataset, const std::string& root, const std::string& path);

Status RegisterPathGuards(table::Engine& engine, const std::string& dataset);

}  // namespace taco::read

#endif  // TACO_READ_PATH_SAFETY_H_
