// Fetching the metadata of a remote `.tacocat/` folder or FOLDER dataset with few, parallel requests
// and the disk cache (FORMAT §2, §5.1, §5.4, §6.11). Called by OpenTacocat (tacocat_open.h;
// a `__TACOCAT__` file is read through io/container_reader.h instead)
// and the FOLDER open (dataset.cc) for remote paths; local paths never come here.
//
// `path` is a URL (http(s)://, s3://, gs://, az://) or a GDAL /vsi… path. http(s) objects
// (also plain /vsicurl/http(s)://…) are read with our libcurl client, everything else
// through GDAL VSI. Every request of one stage runs in its own thread.
//
// FetchRemoteTacocatFolder(path, use_cache): `path` is the `.tacocat` folder.
//  * ONE whole-object GET of COLLECTION.json. Its taco:pit_schema names the levels:
//    0..max_depth, max_depth = the largest `hierarchy` key (0 when there is none). Then ONE
//    whole-object GET per level, all in parallel; nothing else is probed. A level the
//    pit_schema names but the server does not have is an error naming its URL.
//  * With a cache entry (keyed by the folder URL): every cached file is revalidated with ONE
//    small request (http: a ranged GET of bytes=0-0, whose ETag, Last-Modified and
//    Content-Range total are compared; VSI: VsiValidator), all in parallel. Files whose
//    version differs, or that the (new) COLLECTION.json adds, are fetched again as above and
//    the entry rewritten. A full hit costs 1 + levels small requests and no bodies.
//    With the cache on, a VSI fetch asks the file's validator first (VsiValidator: one
//    request, which replaces the one GDAL's stat would make).
// FetchRemoteFolderDataset(path, use_cache): the same for a remote FOLDER dataset, whose
//    COLLECTION.json is at `path` and levels under METADATA/ (FORMAT §2): 1 + levels
//    requests, the levels in parallel, cached and revalidated alike.
// `use_cache` false (OpenOptions::use_cache, whose default follows TACO_NO_CACHE): the cache is neither
// read nor written. A cache that cannot be written only costs requests later.
#ifndef TACO_READ_REMOTE_TACOCAT_H_
#define TACO_READ_REMOTE_TACOCAT_H_

#include <string>
#include <vector>

#include "taco/status.h"

namespace taco {

struct RemoteLevelFiles {
  std::string collection;                // COLLECTION.json bytes
  std::vector<std::string> levels;       // level0..levelN Parquet bytes
  std::vector<std::string> level_names;  // where each level came from (URL or /vsi… path)
  bool from_cache = false;               // no bytes were fetched beyond the validation
};

Result<RemoteLevelFiles> FetchRemoteTacocatFolder(const std::string& path, bool use_cache);
Result<RemoteLevelFiles> FetchRemoteFolderDataset(const std::string& path, bool use_cache);

// The deepest level named by COLLECTION.json's taco:pit_schema: the largest numeric key of
// `hierarchy` (0 when there is no pit_schema or no hierarchy). Corruption naming `name` for
// JSON that is not an object, a non-numeric key or a key above 5.
Result<int> TacocatMaxDepth(const std::string& collection_json, const std::string& name);

}  // namespace taco

#endif  // TACO_READ_REMOTE_TACOCAT_H_
