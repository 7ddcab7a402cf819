// AtomicOutput: all-or-nothing creation of an output file or directory tree.
//
// Every writer creates its output under a temporary sibling name and renames it into place
// only when the whole output is written, so a failed or interrupted write never leaves a
// partial output at the final path.
//
// Contract:
//  * Begin() refuses a final path that already exists (even a dangling symlink) with
//    AlreadyExists "<final_path>: already exists", and creates missing parent directories.
//  * temp_path() is "<dir>/.<name>.tmp-<16 hex digits>" beside the final path. In directory
//    mode it is created as an empty directory; in file mode nothing is created and the caller
//    creates the file there.
//  * Commit() renames temp -> final without ever replacing an existing entry
//    (renameat2(RENAME_NOREPLACE), or link()/checked rename() where the file system lacks it).
//  * Destroying an uncommitted AtomicOutput removes the temporary (file or whole tree) and the
//    parent directories Begin() created, if they are empty. A committed one does nothing.
//  * Not thread-safe; one writer owns it.
#ifndef TACO_SRC_UTIL_ATOMIC_OUTPUT_H_
#define TACO_SRC_UTIL_ATOMIC_OUTPUT_H_

#include <memory>
#include <string>
#include <vector>

#include "taco/status.h"

namespace taco {

class AtomicOutput {
 public:
  static Result<std::unique_ptr<AtomicOutput>> Begin(const std::string& final_path, bool is_directory);

  ~AtomicOutput();
  AtomicOutput(const AtomicOutput&) = delete;
  AtomicOutput& operator=(const AtomicOutput&) = delete;

  const std::string& temp_path() const { return temp_path_; }
  const std::string& final_path() const { return final_path_; }
  bool is_directory() const { return is_directory_; }
  bool committed() const { return committed_; }

  // Moves the temporary into place. Fails with AlreadyExists if something appeared at the
  // final path meanwhile (the temporary is then kept until destruction, then removed).
  Status Commit();

 private:
  AtomicOutput(std::string final_path, std::string temp_path, bool is_directory,
               std::vector<std::string> created_dirs);

  std::string final_path_;
  std::string temp_path_;
  bool is_directory_;
  bool committed_ = false;
  std::vector<std::string> created_dirs_;  // parents made by Begin(), deepest first
};

}  // namespace taco

#endif  // TACO_SRC_UTIL_ATOMIC_OUTPUT_H_
