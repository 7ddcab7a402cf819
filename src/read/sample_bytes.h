// The bytes behind a sample's GDAL path (FORMAT §6.2), whole or streamed, with the ZIP
// member's CRC-32 checked (zip/stored_member.h) unless the dataset was opened with
// OpenOptions::verify_crc = false.
//
// Contract:
//  * `/vsisubfile/<offset>_<size>,<root>`: through the dataset's open container for <root>
//    (one ranged read, the member's local header included), else through ReadRange
//    (http(s): one ranged GET). Other paths (FOLDER files): the whole file, unchecked (a
//    FOLDER stores no CRC).
//  * `expected`: the archive path the member at a /vsisubfile/ range must have (checked
//    against its local header whatever verify_crc says; zip/stored_member.h MemberName);
//    MemberName::None() for ranges that are not ZIP members (legacy BLOB files).
//  * Errors name the container and the byte range; callers prefix the sample.
//  * StreamSampleBytes hands the bytes to `sink` in chunks of at most kStreamChunk bytes,
//    reading up to kStreamWindow chunks ahead (io/range_stream.h): memory stays bounded by
//    kStreamChunk × kStreamWindow whatever the sample's size. The CRC is compared after the last
//    chunk (a mismatch is reported once every byte went to the sink). A sink error stops
//    the stream and is returned as is.
#ifndef TACO_READ_SAMPLE_BYTES_H_
#define TACO_READ_SAMPLE_BYTES_H_

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "format/zip/stored_member.h"
#include "read/dataset_state.h"

namespace taco::read {

// OK when `gdal_path` stays inside the dataset (issue 16 B, read/path_safety.h): a
// /vsisubfile/ range of a container the dataset opened, or a path below one of its roots
// that does not leave it through a symbolic link; else a "refused" InvalidArgument.
// Every read below calls it first (defined in navigation.cc).
Status CheckSamplePath(const Dataset::State& s, const std::string& gdal_path);

inline constexpr size_t kStreamChunk = size_t{4} << 20;
inline constexpr size_t kStreamWindow = 4;  // chunks in flight: at most 16 MiB in memory

Result<std::string> ReadSampleBytes(const Dataset::State& s, const std::string& gdal_path,
                                    const zip::MemberName& expected);

// Dataset::Prefetch: the runs of members behind `gdal_paths`, read into s.prefetched, from
// which ReadSampleBytes serves them (falling back to the container when a run does not hold
// a member's local header).
void Prefetch(const Dataset::State& s, const std::vector<std::string>& gdal_paths, uint64_t max_run_bytes);

Status StreamSampleBytes(const Dataset::State& s, const std::string& gdal_path, const zip::MemberName& expected,
                         const std::function<Status(std::string_view)>& sink);

// The archive path expected for `node`'s bytes (its `__meta__` for a FOLDER): exact when
// navigation knows the node's place in the tree, else its id as the last part; None for
// datasets whose ranges are not ZIP members (FOLDER paths are not ranges; legacy BLOBs).
zip::MemberName ExpectedMember(const Dataset::State& s, const Node& node);

}  // namespace taco::read

#endif  // TACO_READ_SAMPLE_BYTES_H_
