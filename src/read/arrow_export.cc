// Dataset::ExportArrow / QueryArrow and Frame::ExportArrow: rows handed to Arrow consumers
// through the Arrow C stream interface (taco/arrow_c.h), converted by DuckDB column by column
// (table/engine.h Engine::QueryArrow), never row by row.
#include <string>
#include <vector>

#include "read/dataset_state.h"
#include "table/table_arrow.h"
#include "taco/dataset.h"

namespace taco {

Status Dataset::ExportArrow(bool raw, ArrowArrayStream* out) const {
  if (view_ == "data_raw" && data_view_ == "data") {  // the whole dataset: maybe without the engine
    auto direct = DirectLevelRows(*state_, raw);
    if (!direct.ok()) return state_->Prefixed(direct.status());
    if (*direct && table::CanExportTableArrow(**direct)) {
      Status st = table::TableToArrowStream(**direct, out);
      if (st.ok() || st.code() != StatusCode::kNotSupported) return st;
    }
  }
  std::string select = "SELECT * FROM " + (raw ? view_ : data_view_);
  if (!raw && data_view_ == view_) {
    // A view whose hidden columns were not split off into a `_data` view (Data() hides
    // them after the query): hide them in the SELECT list instead.
    TACO_ASSIGN_OR_RETURN(std::vector<Column> columns, state_->ColumnsOf(view_));
    const std::string list = DataSelectList(columns);
    if (!list.empty()) select = "SELECT " + list + " FROM " + view_;
  }
  Status st = state_->engine->QueryArrow(select, out);
  return st.ok() ? st : state_->Prefixed(st);
}

Status Dataset::QueryArrow(const std::string& sql, ArrowArrayStream* out) {
  TACO_RETURN_IF_ERROR(state_->engine->CheckReadOnly(sql));
  return state_->engine->QueryArrow(sql, out);
}

Status Frame::ExportArrow(bool raw, ArrowArrayStream* out) const {
  Dataset::State& s = *context_->state;
  const Table rows = raw ? rows_ : Data();
  if (rows.num_columns() == 0) return s.Error("a frame without columns cannot be exported");
  if (table::CanExportTableArrow(rows)) {  // the layout the engine gives these rows, without it
    Status st = table::TableToArrowStream(rows, out);
    if (st.ok() || st.code() != StatusCode::kNotSupported) return st.ok() ? st : s.Prefixed(st);
  }
  const std::string name = s.NewName("frame_export");
  Status st = s.engine->CreateTable(name, rows);
  if (!st.ok()) return s.Prefixed(st);
  st = s.engine->QueryArrow("SELECT * FROM " + name, out);
  Status dropped = s.engine->Execute("DROP TABLE IF EXISTS " + name);
  if (!st.ok()) return s.Prefixed(st);
  if (!dropped.ok()) {
    out->release(out);
    return s.Prefixed(dropped);
  }
  return Status::OK();
}

}  // namespace taco
