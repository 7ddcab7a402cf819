// The in-place metadata rewrite of a local TACO ZIP behind `taco edit --in-place`
// (taco/edit.h): new __meta__ members, levels and COLLECTION.json appended after the end of
// the file, a new central directory and end records after them, fsync, then the TACO_HEADER
// payload and its local-header CRC rewritten with one pwrite, fsync. Data members stay where
// they are (their ranges are looked up in the central directory by archive path and must
// have the sizes the Taco says). `on_step` (may be empty) is called before each step.
#ifndef TACO_EDIT_ZIP_INPLACE_H_
#define TACO_EDIT_ZIP_INPLACE_H_

#include <functional>
#include <string>
#include <string_view>

#include "taco/model.h"
#include "taco/status.h"

namespace taco::legacy {

Status RewriteZipMetadataInPlace(const std::string& path, const Taco& taco,
                                 const std::function<void(std::string_view)>& on_step);

}  // namespace taco::legacy

#endif  // TACO_EDIT_ZIP_INPLACE_H_
