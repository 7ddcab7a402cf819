// `taco edit`: replace COLLECTION fields or one level's metadata columns of a dataset (ZIP,
// FOLDER, Tortilla / TACO v1) — the v0.2 paper's edit() (spec/LEGACY.md §10, §11).
//
// Contract:
//  * Collection: `collection_file` (a JSON object) is merged key by key, then `set`
//    (KEY=VALUE, VALUE parsed as JSON when it parses, else taken as a string), then `unset`.
//    taco:pit_schema / taco:field_schema are generated, never set. The result must pass the
//    collection rules (Taco::Make) or nothing is written.
//  * Metadata: `metadata_file` (.csv, .parquet, .json/.jsonl) has a key column `id` (the
//    sample ids at `level`, which must then be unique there) or `path` (ids from the root
//    joined with '/'); every other column replaces (or adds) that extension column at
//    `level`; samples without a row keep their value (a new column: null). A key that names
//    no sample, a type that differs from the stored column, or a reserved name (id, type,
//    internal:*) is an error naming the file and the key.
//  * Output: `output` set → a new dataset there (same format). Otherwise the dataset is
//    replaced: written under a temporary sibling name, then renamed over it. A FOLDER: the
//    edited tree is written beside it, then only the files whose bytes changed are renamed
//    into the old tree (each atomically; DATA/ first, COLLECTION.json last) and files it no
//    longer has are removed: unchanged files keep their inode and mtime. `in_place` (local TACO ZIP only):
//    the new metadata members are appended after the old end of the file with a new central
//    directory, synced, and only then is the 157-byte TACO_HEADER rewritten (one pwrite), so
//    a crash at any point leaves a ZIP that opens as the old dataset or as the new one.
//    Sample bytes are never copied by an in-place edit.
//  * Returns the paths written.
#ifndef TACO_EDIT_H_
#define TACO_EDIT_H_

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "taco/dataset.h"
#include "taco/status.h"

namespace taco {

struct EditOptions {
  std::string collection_file;
  std::vector<std::pair<std::string, std::string>> set;
  std::vector<std::string> unset;
  std::string metadata_file;
  int level = 0;
  std::string output;
  bool in_place = false;
  // Tests: called with the name of each step of an in-place edit as it starts.
  std::function<void(std::string_view step)> on_step;
  // How datasets are opened (TACOCAT base path, disk cache of remote metadata; taco/dataset.h).
  OpenOptions open;
};

Result<std::vector<std::string>> Edit(const std::string& path, const EditOptions& options);

}  // namespace taco

#endif  // TACO_EDIT_H_
