// taco_wkb_intersects_box as a vectorized DuckDB scalar function.
#include "table/wkb_functions.h"

#include <string>

#include "duckdb.hpp"
#include "table/wkb_geometry.h"

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

}  // namespace

Status RegisterWkbFunctions(Engine& engine) {
  std::lock_guard<std::recursive_mutex> lock(engine.mutex());
  auto* con = static_cast<duckdb::Connection*>(engine.raw_connection());
  try {
    using duckdb::LogicalType;
    con->CreateVectorizedFunction(kWkbIntersectsBox,
                                  {LogicalType::BLOB, LogicalType::DOUBLE, LogicalType::DOUBLE, LogicalType::DOUBLE,
                                   LogicalType::DOUBLE},
                                  LogicalType::BOOLEAN, &IntersectsBox);
  } catch (const std::exception& ex) {
    return Status::Internal(std::string("DuckDB: cannot register ") + kWkbIntersectsBox + ": " + ex.what());
  }
  return Status::OK();
}

}  // namespace taco::table
