// Library and format versions.
#ifndef TACO_VERSION_H_
#define TACO_VERSION_H_

namespace taco {
// The one place the version is written: CMakeLists.txt and pyproject.toml read it from here.
inline constexpr const char* kLibraryVersion = "0.1.0";
// The `taco_version` written into COLLECTION.json. Any version is read.
inline constexpr const char* kTacoSpecVersion = "2.0.0";
}  // namespace taco

#endif  // TACO_VERSION_H_
