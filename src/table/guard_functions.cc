// The guard scalar functions of guard_functions.h, vectorized.
#include "table/guard_functions.h"

#include <memory>
#include <string>
#include <utility>

#include "duckdb.hpp"

namespace taco::table {
namespace {

[[noreturn]] void Refuse(const std::string& message) {
  throw duckdb::InvalidInputException(std::string(kRefusalMarker) + message);
}

}  // namespace

Status RegisterStringGuard(Engine& engine, const std::string& name, StringCheck check) {
  auto* con = static_cast<duckdb::Connection*>(engine.raw_connection());
  auto shared = std::make_shared<StringCheck>(std::move(check));
  auto body = [shared](duckdb::DataChunk& args, duckdb::ExpressionState&, duckdb::Vector& result) {
    const duckdb::idx_t count = args.size();
    duckdb::UnifiedVectorFormat value_fmt, flag_fmt;
    args.data[0].ToUnifiedFormat(count, value_fmt);
    args.data[1].ToUnifiedFormat(count, flag_fmt);
    const auto* values = duckdb::UnifiedVectorFormat::GetData<duckdb::string_t>(value_fmt);
    const auto* flags = duckdb::UnifiedVectorFormat::GetData<bool>(flag_fmt);
    result.SetVectorType(duckdb::VectorType::FLAT_VECTOR);
    auto* out = duckdb::FlatVector::GetData<duckdb::string_t>(result);
    auto& validity = duckdb::FlatVector::Validity(result);
    for (duckdb::idx_t row = 0; row < count; ++row) {
      const duckdb::idx_t vi = value_fmt.sel->get_index(row);
      const duckdb::idx_t fi = flag_fmt.sel->get_index(row);
      if (!value_fmt.validity.RowIsValid(vi)) {
        validity.SetInvalid(row);
        continue;
      }
      const bool flag = flag_fmt.validity.RowIsValid(fi) && flags[fi];
      const duckdb::string_t& v = values[vi];
      std::string problem = (*shared)(std::string_view(v.GetData(), v.GetSize()), flag);
      if (!problem.empty()) Refuse(problem);
      out[row] = duckdb::StringVector::AddString(result, v);
    }
  };
  try {
    using duckdb::LogicalType;
    con->CreateVectorizedFunction(name, {LogicalType::VARCHAR, LogicalType::BOOLEAN}, LogicalType::VARCHAR, body);
  } catch (const std::exception& ex) {
    return Status::Internal("DuckDB: cannot register " + name + ": " + ex.what());
  }
  return Status::OK();
}

Status RegisterRangeGuard(Engine& engine, const std::string& name, RangeCheck check) {
  auto* con = static_cast<duckdb::Connection*>(engine.raw_connection());
  auto shared = std::make_shared<RangeCheck>(std::move(check));
  auto body = [shared](duckdb::DataChunk& args, duckdb::ExpressionState&, duckdb::Vector& result) {
    const duckdb::idx_t count = args.size();
    duckdb::UnifiedVectorFormat fmt[3];
    for (int i = 0; i < 3; ++i) args.data[i].ToUnifiedFormat(count, fmt[i]);
    result.SetVectorType(duckdb::VectorType::FLAT_VECTOR);
    auto* out = duckdb::FlatVector::GetData<duckdb::string_t>(result);
    auto& validity = duckdb::FlatVector::Validity(result);
    for (duckdb::idx_t row = 0; row < count; ++row) {
      duckdb::idx_t idx[3];
      for (int i = 0; i < 3; ++i) idx[i] = fmt[i].sel->get_index(row);
      if (!fmt[0].validity.RowIsValid(idx[0]) || !fmt[1].validity.RowIsValid(idx[1])) {
        validity.SetInvalid(row);
        continue;
      }
      auto at = [&](int i) { return duckdb::UnifiedVectorFormat::GetData<int64_t>(fmt[i])[idx[i]]; };
      const int64_t offset = at(0);
      const int64_t size = at(1);
      const int64_t limit = at(2);
      std::string problem = (*shared)(offset, size, limit);
      if (!problem.empty()) Refuse(problem);
      out[row] = duckdb::StringVector::AddString(result, std::to_string(offset) + "_" + std::to_string(size));
    }
  };
  try {
    using duckdb::LogicalType;
    con->CreateVectorizedFunction(name, {LogicalType::BIGINT, LogicalType::BIGINT, LogicalType::BIGINT},
                                  LogicalType::VARCHAR, body);
  } catch (const std::exception& ex) {
    return Status::Internal("DuckDB: cannot register " + name + ": " + ex.what());
  }
  return Status::OK();
}

Status RegisterMemberGuard(Engine& engine, const std::string& name, MemberCheck check) {
  auto* con = static_cast<duckdb::Connection*>(engine.raw_connection());
  auto shared = std::make_shared<MemberCheck>(std::move(check));
  auto body = [shared](duckdb::DataChunk& args, duckdb::ExpressionState&, duckdb::Vector& result) {
    constexpr int kArgs = 5;
    const duckdb::idx_t count = args.size();
    duckdb::UnifiedVectorFormat fmt[kArgs];
    for (int i = 0; i < kArgs; ++i) args.data[i].ToUnifiedFormat(count, fmt[i]);
    result.SetVectorType(duckdb::VectorType::FLAT_VECTOR);
    auto* out = duckdb::FlatVector::GetData<duckdb::string_t>(result);
    auto& validity = duckdb::FlatVector::Validity(result);
    std::string range;
    for (duckdb::idx_t row = 0; row < count; ++row) {
      duckdb::idx_t idx[kArgs];
      for (int i = 0; i < kArgs; ++i) idx[i] = fmt[i].sel->get_index(row);
      if (!fmt[0].validity.RowIsValid(idx[0]) || !fmt[1].validity.RowIsValid(idx[1])) {
        validity.SetInvalid(row);
        continue;
      }
      auto number = [&](int i) { return duckdb::UnifiedVectorFormat::GetData<int64_t>(fmt[i])[idx[i]]; };
      auto text = [&](int i) -> std::string_view {
        if (!fmt[i].validity.RowIsValid(idx[i])) return {};
        const duckdb::string_t& v = duckdb::UnifiedVectorFormat::GetData<duckdb::string_t>(fmt[i])[idx[i]];
        return std::string_view(v.GetData(), v.GetSize());
      };
      range.clear();
      std::string problem = (*shared)(number(0), number(1), text(2), text(3), text(4), &range);
      if (!problem.empty()) Refuse(problem);
      out[row] = duckdb::StringVector::AddString(result, range);
    }
  };
  try {
    using duckdb::LogicalType;
    con->CreateVectorizedFunction(
        name,
        {LogicalType::BIGINT, LogicalType::BIGINT, LogicalType::VARCHAR, LogicalType::VARCHAR, LogicalType::VARCHAR},
        LogicalType::VARCHAR, body);
  } catch (const std::exception& ex) {
    return Status::Internal("DuckDB: cannot register " + name + ": " + ex.what());
  }
  return Status::OK();
}

}  // namespace taco::table
