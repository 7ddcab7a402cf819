// DecodeRasterPath / DecodeRasterBytes (read/raster_decode.h) and the PixelType names of
// taco/sample_loader.h.
#include "read/raster_decode.h"

#include <cpl_vsi.h>
#include <gdal_priv.h>

#include <array>
#include <atomic>
#include <limits>
#include <string>
#include <vector>

#include "gdal/gdal_util.h"
#include "gdal/sample_raster.h"

namespace taco {

namespace {

struct TypeName {
  PixelType type;
  std::string_view name;
};
constexpr std::array<TypeName, 12> kTypeNames = {{
    {PixelType::kNative, "native"},
    {PixelType::kTorch, "torch"},
    {PixelType::kUInt8, "uint8"},
    {PixelType::kInt8, "int8"},
    {PixelType::kUInt16, "uint16"},
    {PixelType::kInt16, "int16"},
    {PixelType::kUInt32, "uint32"},
    {PixelType::kInt32, "int32"},
    {PixelType::kUInt64, "uint64"},
    {PixelType::kInt64, "int64"},
    {PixelType::kFloat32, "float32"},
    {PixelType::kFloat64, "float64"},
}};

}  // namespace

std::string_view PixelTypeName(PixelType type) {
  for (const auto& t : kTypeNames) {
    if (t.type == type) return t.name;
  }
  return "?";
}

Result<PixelType> ParsePixelType(std::string_view name) {
  if (name == "float") return PixelType::kFloat32;
  if (name == "double") return PixelType::kFloat64;
  std::string names;
  for (const auto& t : kTypeNames) {
    if (t.name == name) return t.type;
    names += (names.empty() ? "" : ", ") + std::string(t.name);
  }
  return Status::InvalidArgument("pixel type '" + std::string(name) + "' is not one of " + names);
}

size_t PixelTypeSize(PixelType type) {
  switch (type) {
    case PixelType::kUInt8:
    case PixelType::kInt8: return 1;
    case PixelType::kUInt16:
    case PixelType::kInt16: return 2;
    case PixelType::kUInt32:
    case PixelType::kInt32:
    case PixelType::kFloat32: return 4;
    case PixelType::kUInt64:
    case PixelType::kInt64:
    case PixelType::kFloat64: return 8;
    case PixelType::kNative:
    case PixelType::kTorch: return 0;
  }
  return 0;
}

namespace read {
namespace {

using ext::internal::DatasetPtr;
using ext::internal::QuietGdalErrors;

// GDAL type → PixelType (nullopt for complex and unknown types).
std::optional<PixelType> FromGdal(GDALDataType t) {
  switch (t) {
    case GDT_Byte: return PixelType::kUInt8;
    case GDT_UInt16: return PixelType::kUInt16;
    case GDT_Int16: return PixelType::kInt16;
    case GDT_UInt32: return PixelType::kUInt32;
    case GDT_Int32: return PixelType::kInt32;
    case GDT_UInt64: return PixelType::kUInt64;
    case GDT_Int64: return PixelType::kInt64;
    case GDT_Float32: return PixelType::kFloat32;
    case GDT_Float64: return PixelType::kFloat64;
    default: return std::nullopt;
  }
}

GDALDataType ToGdal(PixelType t) {
  switch (t) {
    case PixelType::kUInt8: return GDT_Byte;
    case PixelType::kUInt16: return GDT_UInt16;
    case PixelType::kInt16: return GDT_Int16;
    case PixelType::kUInt32: return GDT_UInt32;
    case PixelType::kInt32: return GDT_Int32;
    case PixelType::kUInt64: return GDT_UInt64;
    case PixelType::kInt64: return GDT_Int64;
    case PixelType::kFloat32: return GDT_Float32;
    case PixelType::kFloat64: return GDT_Float64;
    case PixelType::kInt8:  // GDAL 3.6 has no Int8 buffers (Resolve refuses it)
    case PixelType::kNative:
    case PixelType::kTorch: break;
  }
  return GDT_Unknown;
}

// The output type for a raster of type `native` under the requested type or policy.
Result<PixelType> Resolve(PixelType requested, PixelType native, const std::string& what) {
  if (requested == PixelType::kInt8) {
    return Status::NotSupported(what + ": converting to int8 is not supported (GDAL 3.6 has no int8 buffers)");
  }
  if (requested == PixelType::kNative) return native;
  if (requested != PixelType::kTorch) return requested;
  switch (native) {
    case PixelType::kUInt16: return PixelType::kInt32;
    case PixelType::kUInt32: return PixelType::kInt64;
    case PixelType::kUInt64:
      return Status::NotSupported(what +
                                  ": uint64 pixels have no PyTorch type; ask for dtype='int64' or "
                                  "'float64', or as_tensor=False");
    default: return native;
  }
}

std::string Range(int n) { return n == 1 ? "0" : "0.." + std::to_string(n - 1); }

Result<DecodedRaster> Decode(GDALDataset& ds, const RasterSelection& sel, const std::string& what,
                             const DecodeTarget* target) {
  const int count = ds.GetRasterCount();
  const int width = ds.GetRasterXSize();
  const int height = ds.GetRasterYSize();
  if (count < 1) return Status::InvalidArgument(what + ": the raster has no bands");
  std::vector<int> band_map;
  if (sel.bands.empty()) {
    for (int b = 1; b <= count; ++b) band_map.push_back(b);
  } else {
    for (int b : sel.bands) {
      if (b < 0 || b >= count) {
        return Status::InvalidArgument(what + ": band " + std::to_string(b) + " is out of range (the raster has " +
                                       std::to_string(count) + " band" + (count == 1 ? "" : "s") + ": " + Range(count) +
                                       ", 0-based)");
      }
      band_map.push_back(b + 1);
    }
  }
  PixelWindow w{0, 0, width, height};
  if (sel.window) {
    w = *sel.window;
    if (w.col_off < 0 || w.row_off < 0 || w.cols < 1 || w.rows < 1 || w.col_off + w.cols > width ||
        w.row_off + w.rows > height) {
      return Status::InvalidArgument(what + ": window (col_off " + std::to_string(w.col_off) + ", row_off " +
                                     std::to_string(w.row_off) + ", " + std::to_string(w.cols) + " x " +
                                     std::to_string(w.rows) + ") is not inside the raster (" + std::to_string(width) +
                                     " x " + std::to_string(height) + " pixels)");
    }
  }
  GDALDataType native_gdal = ds.GetRasterBand(band_map[0])->GetRasterDataType();
  for (int b : band_map) native_gdal = GDALDataTypeUnion(native_gdal, ds.GetRasterBand(b)->GetRasterDataType());
  auto native = FromGdal(native_gdal);
  if (!native) {
    return Status::NotSupported(what + ": pixels of type " + GDALGetDataTypeName(native_gdal) +
                                " cannot be decoded (not a real number type)");
  }
  TACO_ASSIGN_OR_RETURN(PixelType out, Resolve(sel.type, *native, what));
  const size_t item = PixelTypeSize(out);
  const size_t plane = static_cast<size_t>(w.cols) * static_cast<size_t>(w.rows);
  DecodedRaster r;
  r.type = out;
  r.bands = static_cast<int64_t>(band_map.size());
  r.rows = w.rows;
  r.cols = w.cols;
  r.nbytes = plane * band_map.size() * item;
  r.in_target = target != nullptr && target->data != nullptr && target->type == out && target->bands == r.bands &&
                target->rows == r.rows && target->cols == r.cols;
  if (!r.in_target) r.data = std::make_unique_for_overwrite<std::byte[]>(r.nbytes == 0 ? 1 : r.nbytes);
  std::byte* pixels = r.in_target ? target->data : r.data.get();
  const GSpacing pixel = static_cast<GSpacing>(item);
  const GSpacing line = pixel * w.cols;
  const GSpacing band = line * w.rows;
  const CPLErr err =
      ds.RasterIO(GF_Read, static_cast<int>(w.col_off), static_cast<int>(w.row_off), static_cast<int>(w.cols),
                  static_cast<int>(w.rows), pixels, static_cast<int>(w.cols), static_cast<int>(w.rows), ToGdal(out),
                  static_cast<int>(band_map.size()), band_map.data(), pixel, line, band, nullptr);
  if (err != CE_None) {
    return Status::Corruption(what +
                              ": GDAL failed to decode the pixels: " + QuietGdalErrors::LastError("unknown error"));
  }
  return r;
}

}  // namespace

Result<DecodedRaster> DecodeRasterPath(const std::string& path, const RasterSelection& selection,
                                       const std::string& what, const ext::internal::RasterAccess& access,
                                       const DecodeTarget* target) {
  auto ds = ext::internal::OpenSampleRaster(path, access);
  if (!ds.ok()) {
    // The status names the path: keep only its reason after `what`.
    const std::string& m = ds.status().message();
    const std::string marker = "GDAL cannot open it as a raster: ";
    const size_t at = m.find(marker);
    return Status::InvalidArgument(what + ": " + (at == std::string::npos ? m : m.substr(at)));
  }
  ext::internal::QuietGdalErrors quiet;
  return Decode(**ds, selection, what, target);
}

Result<DecodedRaster> DecodeRasterBytes(const char* data, size_t size, const std::string& leaf,
                                        const RasterSelection& selection, const std::string& what,
                                        const ext::internal::RasterAccess& access, const DecodeTarget* target) {
  static std::atomic<uint64_t> counter{0};
  std::string name = leaf;
  const size_t slash = name.find_last_of('/');
  if (slash != std::string::npos) name = name.substr(slash + 1);
  if (name.empty()) name = "sample";
  const std::string vsimem = "/vsimem/taco_loader/" + std::to_string(counter.fetch_add(1)) + "/" + name;
  VSILFILE* fp = VSIFileFromMemBuffer(vsimem.c_str(), reinterpret_cast<GByte*>(const_cast<char*>(data)),
                                      static_cast<vsi_l_offset>(size), FALSE);
  if (fp == nullptr) return Status::Internal(what + ": cannot create " + vsimem);
  VSIFCloseL(fp);
  auto result = DecodeRasterPath(vsimem, selection, what, access, target);
  VSIUnlink(vsimem.c_str());
  return result;
}

}  // namespace read
}  // namespace taco
