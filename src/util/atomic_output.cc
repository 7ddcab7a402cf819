#include "util/atomic_output.h"

#include <fcntl.h>
#include <stdio.h>  // renameat2
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <random>
#include <system_error>
#include <utility>

namespace taco {
namespace fs = std::filesystem;

namespace {

std::string RandomSuffix() {
  static thread_local std::mt19937_64 rng([] {
    std::random_device rd;
    return (static_cast<uint64_t>(rd()) << 32) ^ rd();
  }());
  const uint64_t v = rng();
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 0; i < 16; ++i) out[i] = kHex[(v >> (4 * (15 - i))) & 0xf];
  return out;
}

bool EntryExists(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0;
}

// Creates the missing ancestors of `dir` (and `dir`), appending each one this call created
// to `created`, deepest first. On failure, removes what it created.
Status MakeParents(const fs::path& dir, std::vector<std::string>* created) {
  std::vector<fs::path> missing;  // deepest first
  for (fs::path p = dir; !p.empty(); p = p.parent_path()) {
    std::error_code ec;
    if (fs::exists(p, ec)) break;
    missing.push_back(p);
    if (p == p.parent_path()) break;
  }
  std::vector<std::string> made;  // shallowest first
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
    if (::mkdir(it->c_str(), 0777) == 0) {
      made.push_back(it->string());
    } else if (errno != EEXIST) {
      const int err = errno;
      for (auto undo = made.rbegin(); undo != made.rend(); ++undo) ::rmdir(undo->c_str());
      return Status::IOError(it->string() + ": cannot create directory: " + std::strerror(err));
    }
  }
  created->insert(created->end(), made.rbegin(), made.rend());
  return Status::OK();
}

// rename() that never replaces `to`. Returns 0 or an errno value.
int RenameNoReplace(const std::string& from, const std::string& to, bool is_directory) {
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return 0;
  const int err = errno;
  if (err != EINVAL && err != ENOSYS && err != ENOTSUP) return err;
  // The file system cannot do RENAME_NOREPLACE.
  if (!is_directory) {
    if (::link(from.c_str(), to.c_str()) == 0) {
      ::unlink(from.c_str());
      return 0;
    }
    if (errno == EEXIST) return EEXIST;
    // No hard links either: fall through to a checked rename.
  }
  if (EntryExists(to)) return EEXIST;
  return ::rename(from.c_str(), to.c_str()) == 0 ? 0 : errno;
}

}  // namespace

AtomicOutput::AtomicOutput(std::string final_path, std::string temp_path, bool is_directory,
                           std::vector<std::string> created_dirs)
    : final_path_(std::move(final_path)),
      temp_path_(std::move(temp_path)),
      is_directory_(is_directory),
      created_dirs_(std::move(created_dirs)) {}

Result<std::unique_ptr<AtomicOutput>> AtomicOutput::Begin(const std::string& final_path, bool is_directory) {
  std::string path = final_path;
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  if (path.empty()) return Status::InvalidArgument("<empty path>: no output name given");
  if (EntryExists(path)) return Status::AlreadyExists(path + ": already exists");

  const fs::path p(path);
  const std::string name = p.filename().string();
  if (name.empty() || name == "." || name == "..") {
    return Status::InvalidArgument(path + ": not a valid output name");
  }
  const fs::path dir = p.parent_path();
  std::vector<std::string> created;
  if (!dir.empty()) TACO_RETURN_IF_ERROR(MakeParents(dir, &created));

  const std::string prefix = (dir.empty() ? std::string() : dir.string() + "/") + "." + name + ".tmp-";
  std::string temp;
  for (int attempt = 0;; ++attempt) {
    temp = prefix + RandomSuffix();
    if (!is_directory) {
      if (!EntryExists(temp)) break;
    } else if (::mkdir(temp.c_str(), 0777) == 0) {
      break;
    } else if (errno != EEXIST) {
      const int err = errno;
      for (const std::string& d : created) ::rmdir(d.c_str());
      return Status::IOError(temp + ": cannot create temporary directory: " + std::strerror(err));
    }
    if (attempt == 100) {
      for (const std::string& d : created) ::rmdir(d.c_str());
      return Status::Internal(path + ": cannot find a free temporary name");
    }
  }
  return std::unique_ptr<AtomicOutput>(new AtomicOutput(path, temp, is_directory, std::move(created)));
}

Status AtomicOutput::Commit() {
  if (committed_) return Status::Internal(final_path_ + ": output committed twice");
  const int err = RenameNoReplace(temp_path_, final_path_, is_directory_);
  if (err == EEXIST || err == ENOTEMPTY) return Status::AlreadyExists(final_path_ + ": already exists");
  if (err == ENOENT && !EntryExists(temp_path_)) {
    return Status::Internal(final_path_ + ": nothing was written at " + temp_path_);
  }
  if (err != 0) {
    return Status::IOError(final_path_ + ": cannot move " + temp_path_ + " into place: " + std::strerror(err));
  }
  committed_ = true;
  return Status::OK();
}

AtomicOutput::~AtomicOutput() {
  if (committed_) return;
  std::error_code ec;
  fs::remove_all(temp_path_, ec);
  for (const std::string& d : created_dirs_) {
    if (::rmdir(d.c_str()) != 0) break;  // not empty (someone else uses it): keep it and its parents
  }
}

}  // namespace taco
