// Navigation (FORMAT §6.8): Dataset::Read / ReadPath / ReadBytes and Frame.
#include <limits>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "read/dataset_state.h"
#include "read/sample_bytes.h"
#include "util/limits.h"
#include "table/engine.h"
#include "taco/dataset.h"
#include "taco/io.h"

namespace taco {

using table::QuoteIdentifier;
using table::QuoteString;

namespace {

constexpr std::string_view kVsiSubfile = "/vsisubfile/";
constexpr std::string_view kMetaSuffix = "/__meta__";

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// The bytes at a GDAL path of the dataset: a /vsisubfile/ range (through the already open
// container when it is ours: one ranged read; CRC-checked) or a whole file.
Result<std::string> ReadGdalPath(const Dataset::State& s, const std::string& gdal_path) {
  return read::ReadSampleBytes(s, gdal_path);
}

const Value* Cell(const Table& t, std::string_view column, size_t row) {
  int c = t.FindColumn(column);
  if (c < 0) return nullptr;
  return &t.columns[static_cast<size_t>(c)].values[row];
}

Result<std::string> StringCell(const Dataset::State& s, const Table& t, std::string_view column, size_t row) {
  const Value* v = Cell(t, column, row);
  if (v == nullptr) return s.Error("navigation needs column '" + std::string(column) + "' (not in the rows)");
  if (!v->is<std::string>()) return s.Error("row " + std::to_string(row) + " has no " + std::string(column));
  return v->get<std::string>();
}

Table SliceRow(const Table& t, size_t row) {
  Table out;
  for (const auto& c : t.columns) out.columns.push_back(Column{c.name, c.type, {c.values.at(row)}});
  return out;
}

// The parent's internal:current_id for joining with a filtered child level.
Result<int64_t> CurrentId(const Dataset::State& s, const Table& row, int level, const std::string& gdal_path) {
  if (const Value* v = Cell(row, kCurrentId, 0); v != nullptr && v->is<int64_t>()) return v->get<int64_t>();
  if (level == 0) {
    TACO_ASSIGN_OR_RETURN(Table t, s.engine->Query("SELECT " + QuoteIdentifier(kCurrentId) + " FROM level0 WHERE " +
                                                   QuoteIdentifier(kGdalVsi) + " = " + QuoteString(gdal_path) +
                                                   " LIMIT 1"));
    if (t.num_rows() == 1 && t.columns[0].values[0].is<int64_t>()) return t.columns[0].values[0].get<int64_t>();
  }
  return s.Error("cannot match '" + gdal_path + "' with the filtered level " + std::to_string(level + 1) +
                 ": the row has no internal:current_id");
}

// Children of a FOLDER row, from its __meta__ (and the cascade-filtered level, if any).
Result<Table> ReadChildren(const Frame::Context& ctx, const Table& row, int level, const std::string& gdal_path) {
  const Dataset::State& s = *ctx.state;
  auto ref = ParseVsiSubfile(gdal_path);
  std::string meta_path = gdal_path;
  if (!ref && !EndsWith(meta_path, kMetaSuffix)) meta_path += kMetaSuffix;
  TACO_ASSIGN_OR_RETURN(std::string bytes, ReadGdalPath(s, meta_path));
  TACO_ASSIGN_OR_RETURN(Table children,
                        s.engine->ReadParquet(MemoryReader(std::move(bytes), meta_path), util::kMaxFolderChildren));
  if (children.FindColumn("id") < 0 || children.FindColumn("type") < 0) {
    return Status::Corruption(meta_path + ": __meta__ has no id/type columns");
  }

  Column vsi{std::string(kGdalVsi), DataType::String(), {}};
  const Column& ids = children.column("id");
  const Column& types = children.column("type");
  for (size_t i = 0; i < children.num_rows(); ++i) {
    const std::string id = ids.values[i].is<std::string>() ? ids.values[i].get<std::string>() : "";
    if (ref) {
      const Value* off = Cell(children, "internal:offset", i);
      const Value* size = Cell(children, "internal:size", i);
      if (off == nullptr || size == nullptr || !off->is<int64_t>() || !size->is<int64_t>()) {
        return Status::Corruption(meta_path + ": child '" + id + "' has no internal:offset/internal:size");
      }
      vsi.values.emplace_back(std::string(kVsiSubfile) + std::to_string(off->get<int64_t>()) + "_" +
                              std::to_string(size->get<int64_t>()) + "," + ref->root);
    } else {
      const std::string folder = meta_path.substr(0, meta_path.size() - kMetaSuffix.size());
      const bool is_folder = types.values[i].is<std::string>() && types.values[i].get<std::string>() == "FOLDER";
      vsi.values.emplace_back(folder + "/" + id + (is_folder ? std::string(kMetaSuffix) : ""));
    }
  }
  int existing = children.FindColumn(kGdalVsi);
  if (existing >= 0) children.columns.erase(children.columns.begin() + existing);
  children.columns.push_back(std::move(vsi));

  auto filtered = ctx.filtered.find(level + 1);
  if (filtered == ctx.filtered.end()) return children;

  // Keep the surviving children (matched by id within this parent), in __meta__ order.
  TACO_ASSIGN_OR_RETURN(int64_t parent, CurrentId(s, row, level, gdal_path));
  std::string where = QuoteIdentifier(kParentId) + " = " + std::to_string(parent);
  if (s.format == DatasetFormat::kTacocat) {
    const Value* source = Cell(row, kSourceFile, 0);
    if (source == nullptr || !source->is<std::string>()) return s.Error("cannot match '" + gdal_path + "' without internal:source_file");
    where += " AND " + QuoteIdentifier(kSourceFile) + " = " + QuoteString(source->get<std::string>());
  }
  if (s.concatenated) {
    const Value* source = Cell(row, kSourcePath, 0);
    if (source == nullptr || !source->is<std::string>()) {
      return s.Error("cannot match '" + gdal_path + "' without internal:source_path");
    }
    where += " AND " + QuoteIdentifier(kSourcePath) + " = " + QuoteString(source->get<std::string>());
  }
  TACO_ASSIGN_OR_RETURN(Table survivors, s.engine->Query("SELECT id, " + QuoteIdentifier(kCurrentId) + ", " +
                                                         QuoteIdentifier(kParentId) + " FROM " + filtered->second +
                                                         " WHERE " + where));
  Table kept;
  for (const auto& c : children.columns) {
    if (c.name != kCurrentId && c.name != kParentId) kept.columns.push_back(Column{c.name, c.type, {}});
  }
  Column current{std::string(kCurrentId), DataType::Int64(), {}};
  Column parent_col{std::string(kParentId), DataType::Int64(), {}};
  for (size_t i = 0; i < children.num_rows(); ++i) {
    for (size_t j = 0; j < survivors.num_rows(); ++j) {
      if (!(survivors.columns[0].values[j] == ids.values[i])) continue;
      size_t k = 0;
      for (const auto& c : children.columns) {
        if (c.name != kCurrentId && c.name != kParentId) kept.columns[k++].values.push_back(c.values[i]);
      }
      current.values.push_back(survivors.columns[1].values[j]);
      parent_col.values.push_back(survivors.columns[2].values[j]);
      break;
    }
  }
  kept.columns.push_back(std::move(current));
  kept.columns.push_back(std::move(parent_col));
  return kept;
}

Result<Node> NodeFromRow(const std::shared_ptr<Frame::Context>& ctx, int level, const Table& rows, size_t i) {
  const Dataset::State& s = *ctx->state;
  Node node;
  node.level = level;
  node.row = SliceRow(rows, i);
  TACO_ASSIGN_OR_RETURN(node.id, StringCell(s, rows, "id", i));
  TACO_ASSIGN_OR_RETURN(node.type, StringCell(s, rows, "type", i));
  TACO_ASSIGN_OR_RETURN(node.gdal_path, StringCell(s, rows, kGdalVsi, i));
  if (node.type == "FILE") return node;
  if (node.type != "FOLDER") return s.Error("sample '" + node.id + "' has unknown type '" + node.type + "'");
  auto children = ReadChildren(*ctx, node.row, level, node.gdal_path);
  if (!children.ok()) return children.status().WithPrefix("sample '" + node.id + "'");
  node.children = std::make_shared<Frame>(ctx, level + 1, std::move(*children));
  return node;
}

Result<std::string> NodeBytes(const Dataset::State& s, const Node& node) {
  if (!node.is_file()) return s.Error("sample '" + node.id + "' is a " + node.type + ", not a FILE");
  auto bytes = ReadGdalPath(s, node.gdal_path);
  if (!bytes.ok()) return bytes.status().WithPrefix("sample '" + node.id + "'");
  return bytes;
}

std::string KeyText(const SampleKey& key) {
  if (const auto* i = std::get_if<int64_t>(&key)) return std::to_string(*i);
  return "'" + std::get<std::string>(key) + "'";
}

}  // namespace

// ---- Frame ------------------------------------------------------------------------------

Frame::Frame(std::shared_ptr<Context> context, int level, Table rows)
    : context_(std::move(context)), level_(level), rows_(std::move(rows)) {}
Frame::~Frame() = default;

Table Frame::Data() const { return HideInternalColumns(rows_); }

Result<Node> Frame::Read(const SampleKey& key) const {
  const Dataset::State& s = *context_->state;
  const size_t n = rows_.num_rows();
  if (const auto* index = std::get_if<int64_t>(&key)) {
    if (*index < 0 || static_cast<uint64_t>(*index) >= n) {
      return s.Error("index " + std::to_string(*index) + " out of range: level " + std::to_string(level_) +
                     " frame has " + std::to_string(n) + " rows");
    }
    return NodeFromRow(context_, level_, rows_, static_cast<size_t>(*index));
  }
  const std::string& id = std::get<std::string>(key);
  if (rows_.FindColumn("id") < 0) return s.Error("the rows have no id column");
  for (size_t i = 0; i < n; ++i) {
    const Value* v = Cell(rows_, "id", i);
    if (v->is<std::string>() && v->get<std::string>() == id) return NodeFromRow(context_, level_, rows_, i);
  }
  return Status::NotFound(s.path + ": no sample with id '" + id + "' at level " + std::to_string(level_));
}

Result<std::string> Frame::ReadBytes(const SampleKey& key) const {
  TACO_ASSIGN_OR_RETURN(Node node, Read(key));
  return NodeBytes(*context_->state, node);
}

// ---- Dataset ----------------------------------------------------------------------------

struct Dataset::RowCache {
  Table rows;
  std::unordered_map<std::string, size_t> first_with_id;

  // The row a key names, or nullopt.
  std::optional<size_t> Find(const SampleKey& key) const {
    if (const auto* index = std::get_if<int64_t>(&key)) {
      if (*index < 0 || static_cast<uint64_t>(*index) >= rows.num_rows()) return std::nullopt;
      return static_cast<size_t>(*index);
    }
    auto it = first_with_id.find(std::get<std::string>(key));
    if (it == first_with_id.end()) return std::nullopt;
    return it->second;
  }
};

namespace {
constexpr int64_t kMaxCachedRows = 1000000;
}  // namespace

Result<Node> Dataset::Read(const SampleKey& key) const {
  if (const auto* index = std::get_if<int64_t>(&key); index != nullptr && *index < 0) {
    return state_->Error("index " + std::to_string(*index) + " is negative");
  }
  std::shared_ptr<const RowCache> row_cache;  // this call's view of row_cache_
  {
  std::lock_guard<std::mutex> lock(mu_);  // many threads may Read() one Dataset
  if (row_cache_ == nullptr && ++reads_before_cache_ >= 2) {
    reads_before_cache_ = std::numeric_limits<int>::min();  // decide once
    TACO_ASSIGN_OR_RETURN(int64_t count, RowCount());
    if (count <= kMaxCachedRows) {
      auto rows = state_->engine->Query("SELECT * FROM " + view_);
      if (!rows.ok()) return state_->Prefixed(rows.status());
      auto cache = std::make_shared<RowCache>();
      cache->rows = std::move(*rows);
      if (cache->rows.FindColumn("id") >= 0) {
        const Column& ids = cache->rows.column("id");
        for (size_t i = 0; i < ids.values.size(); ++i) {
          if (ids.values[i].is<std::string>()) cache->first_with_id.emplace(ids.values[i].get<std::string>(), i);
        }
      }
      row_cache_ = std::move(cache);
    }
  }
  row_cache = row_cache_;
  }
  const Table* rows = nullptr;
  size_t row = 0;
  Table queried;
  if (row_cache != nullptr) {
    if (std::optional<size_t> found = row_cache->Find(key)) {
      rows = &row_cache->rows;
      row = *found;
    }
  } else {
    std::string sql = "SELECT * FROM " + view_;
    if (const auto* index = std::get_if<int64_t>(&key)) {
      sql += " LIMIT 1 OFFSET " + std::to_string(*index);
    } else {
      sql += " WHERE id = " + QuoteString(std::get<std::string>(key)) + " LIMIT 1";
    }
    auto result = state_->engine->Query(sql);
    if (!result.ok()) return state_->Prefixed(result.status());
    if (result->num_rows() > 0) {
      queried = std::move(*result);
      rows = &queried;
    }
  }
  if (rows == nullptr) {
    if (std::holds_alternative<std::string>(key)) {
      return Status::NotFound(state_->path + ": no sample with id " + KeyText(key) + " at level 0");
    }
    TACO_ASSIGN_OR_RETURN(int64_t count, RowCount());
    return state_->Error("index " + KeyText(key) + " out of range: the dataset has " + std::to_string(count) +
                         " rows");
  }
  return NodeFromRow(context_, 0, *rows, row);
}

Result<Node> Dataset::ReadPath(const std::vector<SampleKey>& keys) const {
  if (keys.empty()) return state_->Error("no key given");
  TACO_ASSIGN_OR_RETURN(Node node, Read(keys[0]));
  for (size_t i = 1; i < keys.size(); ++i) {
    if (!node.children) {
      return state_->Error("sample '" + node.id + "' is a FILE; it has no child " + KeyText(keys[i]));
    }
    std::shared_ptr<const Frame> frame = node.children;
    TACO_ASSIGN_OR_RETURN(node, frame->Read(keys[i]));
  }
  return node;
}

Result<std::string> Dataset::ReadBytes(const Node& node) const { return NodeBytes(*state_, node); }

}  // namespace taco
