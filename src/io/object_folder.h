// ObjectFolder: the reader of a directory of whole objects (a FOLDER dataset's COLLECTION.json
// and METADATA/level{i}.parquet, a `.tacocat/` folder's COLLECTION.json and level{i}.parquet),
// opened by OpenObjectFolder(), the one place that decides how such files are fetched: the
// counterpart of OpenContainer() (io/container_reader.h) for folder-shaped datasets. The open
// code of those formats is then the same for a local directory and a remote one: it opens
// COLLECTION.json, declares the level files COLLECTION.json names with Declare(), and opens
// level after level until one is absent.
//
// OpenObjectFolder(dir, options), `dir` without a trailing slash:
//  * a local directory: Open(name) opens the file in place (pread); Declare() does nothing
//    (a local directory lists itself: a file is there or not).
//  * a remote directory (http(s) URL or plain /vsicurl/http(s)://…: our libcurl client;
//    s3://, gs://, az://, other /vsi… paths: GDAL VSI): it cannot be listed, so what it holds
//    is what the open declares.
//     - Open(name) before any Declare(): ONE whole-object GET (no Range), served from memory.
//     - Declare(names): the named objects not yet read, ONE whole-object GET each, every one
//       in its own thread (one round trip); the first failure in name order is returned
//       (NotFound naming the object's URL and the HTTP status). After it, Open() serves the
//       declared objects from memory and answers NotFound, without a request, for a name
//       that was neither declared nor opened.
//     - `use_cache` (OpenOptions::use_cache): a disk-cache entry (io/cache.h, TACOCAT kind,
//       keyed by the folder's URL) is loaded at open and every file in it revalidated with
//       ONE small request (http: a ranged GET of bytes=0-0, whose ETag, Last-Modified and
//       Content-Range total are compared; VSI: VsiValidator), all in parallel. Files of the
//       live version are served from the entry; the others are fetched as above, a VSI
//       fetch asking the file's validator first (VsiValidator: one request, which replaces
//       the one GDAL's stat would make). Declare() then writes the entry again (every object
//       read through the folder, in the order read) when anything was fetched or the set of
//       files changed; a cache that cannot be written only costs requests later. A warm open
//       of COLLECTION.json and N levels costs 1 + N small requests and no body.
// Thread safety: one opening thread uses a folder; the readers Open() returns are
// RangeReaders (safe from many threads) that outlive the folder.
#ifndef TACO_SRC_IO_OBJECT_FOLDER_H_
#define TACO_SRC_IO_OBJECT_FOLDER_H_

#include <memory>
#include <string>
#include <vector>

#include "taco/io.h"

namespace taco::io {

struct FolderOpenOptions {
  bool use_cache = false;  // the disk cache of remote metadata (io/cache.h)
};

class ObjectFolder {
 public:
  virtual ~ObjectFolder() = default;
  // Where object `name` is (the folder, '/', name): a local path or the URL that names it
  // in errors.
  virtual std::string PathOf(const std::string& name) const = 0;
  // The object `name` (relative to the folder); NotFound when it is not there.
  virtual Result<RangeReaderPtr> Open(const std::string& name) = 0;
  // The objects the open will read next, fetched together (see above).
  virtual Status Declare(const std::vector<std::string>& names) = 0;
};

Result<std::unique_ptr<ObjectFolder>> OpenObjectFolder(const std::string& dir, const FolderOpenOptions& options);

}  // namespace taco::io

#endif  // TACO_SRC_IO_OBJECT_FOLDER_H_
