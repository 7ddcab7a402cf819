// Bringing a directory tree up to date with a freshly written copy of it, touching only the
// files whose content differs: `taco edit` of a FOLDER dataset writes the edited dataset
// beside the old one, then moves into the old tree only what changed, so that the unchanged
// files (the sample bytes, the `__meta__` of untouched folders) keep their inode and mtime
// (a backup, rsync or a deduplicating store sees no change there).
//
// Contract (ReplaceChangedFiles(dest, fresh)):
//  * Every regular file of `fresh` whose bytes differ from the file at the same relative
//    path of `dest` (or that `dest` lacks) is renamed over it (rename(2): each file is
//    replaced atomically); then files and directories of `dest` that `fresh` lacks are
//    removed; then `fresh` is removed. Files equal in size and bytes are left untouched.
//  * Order: files under DATA/ first, then the rest, COLLECTION.json last, so that a crash
//    midway leaves the new collection only once everything it describes is in place. The
//    replacement as a whole is not atomic: a crash can leave some metadata files new and
//    others old (each whole).
//  * Both trees on the same file system (rename). Errors (IOError) name the path; `fresh`
//    is left for the caller to remove on error. Returns the number of files replaced.
#ifndef TACO_UTIL_TREE_SYNC_H_
#define TACO_UTIL_TREE_SYNC_H_

#include <cstdint>
#include <string>

#include "taco/status.h"

namespace taco {

Result<uint64_t> ReplaceChangedFiles(const std::string& dest, const std::string& fresh);

}  // namespace taco

#endif  // TACO_UTIL_TREE_SYNC_H_
