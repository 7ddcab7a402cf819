// AtomicOutput: all-or-nothing creation of an output file or directory tree.
//
// Every writer creates its output under a temporary sibling name and renames it into place
// only when the whole output is written, so a failed or interrupted write never leaves a
// partial output at the final path.
//
// Contract:
//  * Begin() refuses a final path that already exists (even a dangling symlink) with
//    AlreadyExists "<final_path>: already exists", and creates missing parent directories.
//  * temp_path() is "<dir>/.<name>.tmp-<pid>-<host>-<8 hex random>" beside the final path
//    (<host>: 8 hex digits of a hash of the host name). In directory mode it is created as an
//    empty directory; in file mode nothing is created and the caller creates the file there.
//  * Stale temporaries: Begin() first removes "<dir>/.<name>.tmp-<pid>-<host>-*" entries of
//    THIS host whose process no longer exists (a writer killed with SIGKILL, a power cut's
//    survivors), whether or not the final path exists. Entries of other hosts, of live
//    processes and of other names are never touched.
//  * While uncommitted, an AtomicOutput is listed in a process-wide registry:
//    RemoveTemporaryOutputs() deletes every listed temporary (and the parents Begin()
//    created), and InstallTemporaryOutputCleanup() makes SIGINT, SIGTERM and SIGHUP do that
//    before the process dies of the signal. Commit() and the cleanup exclude each other, so
//    a signal leaves either the committed output or nothing.
//  * Commit() renames temp -> final without ever replacing an existing entry
//    (renameat2(RENAME_NOREPLACE), or link()/checked rename() where the file system lacks it).
//  * Destroying an uncommitted AtomicOutput removes the temporary (file or whole tree) and the
//    parent directories Begin() created, if they are empty. A committed one does nothing.
//  * Not thread-safe; one writer owns it (the registry itself is thread-safe).
#ifndef TACO_SRC_WRITE_ATOMIC_OUTPUT_H_
#define TACO_SRC_WRITE_ATOMIC_OUTPUT_H_

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
  AtomicOutput(std::string final_path, std::string temp_path, bool is_directory, std::vector<std::string> created_dirs);

  std::string final_path_;
  std::string temp_path_;
  bool is_directory_;
  bool committed_ = false;
  std::vector<std::string> created_dirs_;  // parents made by Begin(), deepest first

  friend void RemoveTemporaryOutputsLocked();
};

// Deletes the temporaries of every uncommitted AtomicOutput of this process (see above).
// Returns how many were removed.
size_t RemoveTemporaryOutputs();

// Blocks SIGINT, SIGTERM and SIGHUP in the calling thread (and so in every thread created
// after it: call it first in main(), before any thread exists) and starts a thread that
// waits for them: on one, it removes every temporary (RemoveTemporaryOutputs), then
// restores the default action and re-raises the signal, so the process ends as if killed
// by it (exit status 128 + signal in a shell). Idempotent.
void InstallTemporaryOutputCleanup();

// For hosts that cannot block signals in every thread (the Python module): where SIGTERM
// and SIGHUP have their default action, installs a handler that hands the signal to a
// watcher thread (through a pipe: the handler only write()s), which removes every temporary,
// restores the default action and re-sends the signal, so the process ends as if killed by
// it. Handlers the host installed are left alone; SIGINT is left to the host. A forked child
// gets the default actions back (it has no watcher thread). Idempotent.
void InstallTemporaryOutputCleanupHandlers();

// "<pid>-<host>-" for the temporaries of this process (tests).
std::string TemporaryOwnerTag();

}  // namespace taco

#endif  // TACO_SRC_WRITE_ATOMIC_OUTPUT_H_
