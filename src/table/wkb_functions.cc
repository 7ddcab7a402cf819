// The WKB scalar functions of wkb_functions.h as vectorized DuckDB functions.
#include "table/wkb_functions.h"

#include <optional>
#include <string>

#include "duckdb.hpp"
#include "table/wkb_geometry.h"
#include "taco/geometry.h"

namespace taco::table {
namespace {

void IntersectsBox(duckdb::DataChunk& args, duckdb::ExpressionState&, duckdb::Vector& result) {
  const duckdb::idx_t count = args.size();
  duckdb::UnifiedVectorFormat fmt[5];
  for (int i = 0; i < 5; ++i) args.data[i].ToUnifiedFormat(count, fmt[i]);
  result.SetVectorType(duckdb::VectorType::FLAT_VECTOR);
  bool* out = duckdb::FlatVector::GetData<bool>(result);
  auto& validity = duckdb::FlatVector::Validity(result);
  const auto* wkb = duckdb::UnifiedVectorFormat::GetData<duckdb::string_t>(fmt[0]);
  for (duckdb::idx_t row = 0; row < count; ++row) {
    duckdb::idx_t idx[5];
    bool valid = true;
    for (int i = 0; i < 5; ++i) {
      idx[i] = fmt[i].sel->get_index(row);
      valid = valid && fmt[i].validity.RowIsValid(idx[i]);
    }
    if (!valid) {
      validity.SetInvalid(row);
      continue;
    }
    auto coord = [&](int i) { return duckdb::UnifiedVectorFormat::GetData<double>(fmt[i])[idx[i]]; };
    Box box{coord(1), coord(2), coord(3), coord(4)};
    const duckdb::string_t& g = wkb[idx[0]];
    Result<bool> hit = WkbIntersectsBox(std::string_view(g.GetData(), g.GetSize()), box);
    if (!hit.ok()) {
      throw duckdb::InvalidInputException(std::string(kWkbIntersectsBox) + ": " + hit.status().message());
    }
    out[row] = *hit;
  }
}

// One BLOB argument; `write(row, wkb)` fills the result row or throws.
template <typename Write>
void ForEachWkb(duckdb::DataChunk& args, duckdb::Vector& result, Write write) {
  const duckdb::idx_t count = args.size();
  duckdb::UnifiedVectorFormat fmt;
  args.data[0].ToUnifiedFormat(count, fmt);
  result.SetVectorType(duckdb::VectorType::FLAT_VECTOR);
  const auto* wkb = duckdb::UnifiedVectorFormat::GetData<duckdb::string_t>(fmt);
  for (duckdb::idx_t row = 0; row < count; ++row) {
    const duckdb::idx_t idx = fmt.sel->get_index(row);
    if (!fmt.validity.RowIsValid(idx)) {
      duckdb::FlatVector::SetNull(result, row, true);
      continue;
    }
    write(row, std::string_view(wkb[idx].GetData(), wkb[idx].GetSize()));
  }
}

void AsText(const char* name, duckdb::DataChunk& args, duckdb::Vector& result) {
  auto* out = duckdb::FlatVector::GetData<duckdb::string_t>(result);
  ForEachWkb(args, result, [&](duckdb::idx_t row, std::string_view wkb) {
    Result<std::string> text = WkbToWkt(wkb);
    if (!text.ok()) throw duckdb::InvalidInputException(std::string(name) + ": " + text.status().message());
    out[row] = duckdb::StringVector::AddString(result, *text);
  });
}

void TacoAsText(duckdb::DataChunk& args, duckdb::ExpressionState&, duckdb::Vector& result) {
  AsText(kWkbAsText, args, result);
}
void StAsText(duckdb::DataChunk& args, duckdb::ExpressionState&, duckdb::Vector& result) {
  AsText(kStAsText, args, result);
}

void BboxOf(duckdb::DataChunk& args, duckdb::ExpressionState&, duckdb::Vector& result) {
  auto& fields = duckdb::StructVector::GetEntries(result);
  for (auto& f : fields) f->SetVectorType(duckdb::VectorType::FLAT_VECTOR);
  ForEachWkb(args, result, [&](duckdb::idx_t row, std::string_view wkb) {
    Result<std::optional<Bounds>> box = WkbBounds(wkb);
    if (!box.ok()) throw duckdb::InvalidInputException(std::string(kWkbBbox) + ": " + box.status().message());
    if (!*box) {
      duckdb::FlatVector::SetNull(result, row, true);
      return;
    }
    const double v[4] = {(*box)->min_x, (*box)->min_y, (*box)->max_x, (*box)->max_y};
    for (size_t i = 0; i < 4; ++i) duckdb::FlatVector::GetData<double>(*fields[i])[row] = v[i];
  });
}

}  // namespace

Status RegisterWkbFunctions(Engine& engine) {
  std::lock_guard<std::recursive_mutex> lock(engine.mutex());
  auto* con = static_cast<duckdb::Connection*>(engine.raw_connection());
  try {
    using duckdb::LogicalType;
    con->CreateVectorizedFunction(
        kWkbIntersectsBox,
        {LogicalType::BLOB, LogicalType::DOUBLE, LogicalType::DOUBLE, LogicalType::DOUBLE, LogicalType::DOUBLE},
        LogicalType::BOOLEAN, &IntersectsBox);
    con->CreateVectorizedFunction(kWkbAsText, {LogicalType::BLOB}, LogicalType::VARCHAR, &TacoAsText);
    con->CreateVectorizedFunction(kStAsText, {LogicalType::BLOB}, LogicalType::VARCHAR, &StAsText);
    duckdb::child_list_t<LogicalType> box;
    for (const char* field : {"xmin", "ymin", "xmax", "ymax"}) box.emplace_back(field, LogicalType::DOUBLE);
    con->CreateVectorizedFunction(kWkbBbox, {LogicalType::BLOB}, LogicalType::STRUCT(std::move(box)), &BboxOf);
  } catch (const std::exception& ex) {
    return Status::Internal(std::string("DuckDB: cannot register the WKB functions: ") + ex.what());
  }
  return Status::OK();
}

}  // namespace taco::table
