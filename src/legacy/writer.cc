// WriteLegacy: the spec layout P3 (spec/LEGACY.md §2): 200-byte header, the items back to
// back from byte 200 (nested tortillas written whole, recursively), the Parquet footer, and
// for TACO v1 the COLLECTION JSON appended (CO = FO + FL, CO + CL = size). Multi-part with
// LegacyWriteOptions::part_size.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <functional>
#include <memory>
#include <set>
#include <unordered_map>

#include "format/legacy/legacy_layout.h"
#include "legacy/legacy_tree.h"
#include "table/engine.h"
#include "taco/legacy.h"
#include "write/atomic_output.h"

namespace taco {
namespace legacy {
namespace {

constexpr uint64_t kHeader = format::kLegacyHeaderSize;
constexpr size_t kChunk = 4 << 20;

bool IsNumeric(TypeId id) {
  return id == TypeId::kInt32 || id == TypeId::kInt64 || id == TypeId::kFloat || id == TypeId::kDouble;
}

Value Widen(const Value& v, const DataType& to) {
  if (to.id == TypeId::kDouble) {
    if (v.is<int32_t>()) return static_cast<double>(v.get<int32_t>());
    if (v.is<int64_t>()) return static_cast<double>(v.get<int64_t>());
    if (v.is<float>()) return static_cast<double>(v.get<float>());
  }
  if (to.id == TypeId::kInt64 && v.is<int32_t>()) return static_cast<int64_t>(v.get<int32_t>());
  return v;
}

// One tortilla's layout: item lengths, its footer, its total size; nested plans.
struct Plan {
  std::vector<uint64_t> lengths;
  std::string footer;
  uint64_t pile = 0;
  uint64_t total = 0;
  std::vector<std::unique_ptr<Plan>> nested;  // per item (null for data items)
};

Result<std::unique_ptr<Plan>> MakePlan(const Node& node, table::Engine& engine, const std::string& where) {
  auto plan = std::make_unique<Plan>();
  for (const Item& item : node.items) {
    if (item.nested) {
      TACO_ASSIGN_OR_RETURN(auto sub, MakePlan(*item.nested, engine, where + "/" + item.id));
      plan->lengths.push_back(sub->total);
      plan->nested.push_back(std::move(sub));
    } else {
      plan->lengths.push_back(item.size);
      plan->nested.push_back(nullptr);
    }
  }
  Table t;
  Column id{"tortilla:id", DataType::String(), {}}, format{"tortilla:file_format", DataType::String(), {}};
  Column offset{"tortilla:offset", DataType::Int64(), {}}, length{"tortilla:length", DataType::Int64(), {}};
  uint64_t at = kHeader;
  for (size_t i = 0; i < node.items.size(); ++i) {
    id.values.emplace_back(node.items[i].id);
    format.values.emplace_back(node.items[i].format);
    offset.values.emplace_back(static_cast<int64_t>(at));
    length.values.emplace_back(static_cast<int64_t>(plan->lengths[i]));
    at += plan->lengths[i];
  }
  plan->pile = at - kHeader;
  t.columns = {std::move(id), std::move(format), std::move(offset), std::move(length)};
  // Extra columns: union in first-seen order, numeric types widened, missing values null.
  std::unordered_map<std::string, size_t> index;
  for (const Item& item : node.items) {
    for (const Field& f : item.columns) {
      auto it = index.find(f.name);
      if (it == index.end()) {
        if (f.name == "tortilla:id" || f.name == "tortilla:file_format" || f.name == "tortilla:offset" ||
            f.name == "tortilla:length") {
          return Status::InvalidArgument(where + ": column '" + f.name + "' is written by the format itself");
        }
        index.emplace(f.name, t.columns.size());
        t.columns.push_back(Column{f.name, f.type, {}});
        continue;
      }
      DataType& type = t.columns[it->second].type;
      if (type == f.type || f.type.id == TypeId::kNull) continue;
      if (type.id == TypeId::kNull) {
        type = f.type;
      } else if (IsNumeric(type.id) && IsNumeric(f.type.id)) {
        type = (type.id == TypeId::kDouble || f.type.id == TypeId::kDouble || type.id == TypeId::kFloat ||
                f.type.id == TypeId::kFloat)
                   ? DataType::Double()
                   : DataType::Int64();
      } else {
        return Status::InvalidArgument(where + ": column '" + f.name + "' is " + type.ToString() + " and " +
                                       f.type.ToString() + " in one footer");
      }
    }
  }
  for (size_t c = 4; c < t.columns.size(); ++c) t.columns[c].values.reserve(node.items.size());
  for (const Item& item : node.items) {
    std::vector<bool> seen(t.columns.size(), false);
    for (const Field& f : item.columns) {
      const size_t c = index.at(f.name);
      seen[c] = true;
      t.columns[c].values.push_back(Widen(f.value, t.columns[c].type));
    }
    for (size_t c = 4; c < t.columns.size(); ++c) {
      if (!seen[c]) t.columns[c].values.emplace_back();
    }
  }
  table::ParquetWriteOptions opts;
  opts.zstd_level = 9;
  TACO_ASSIGN_OR_RETURN(plan->footer, engine.ToParquet(t, opts));
  plan->total = kHeader + plan->pile + plan->footer.size();
  return plan;
}

class Output {
 public:
  Output(int fd, std::string path, const std::function<void(uint64_t, uint64_t)>& progress, uint64_t total)
      : fd_(fd), path_(std::move(path)), progress_(progress), total_(total) {}
  Status Write(const char* data, size_t n) {
    while (n > 0) {
      const ssize_t w = ::write(fd_, data, n);
      if (w < 0) {
        if (errno == EINTR) continue;
        return Status::IOError(path_ + ": write failed: " + std::strerror(errno));
      }
      data += w;
      n -= static_cast<size_t>(w);
    }
    return Status::OK();
  }
  Status Write(const std::string& s) { return Write(s.data(), s.size()); }
  void Done(uint64_t n) {
    done_ += n;
    if (progress_) progress_(done_, total_);
  }

 private:
  int fd_;
  std::string path_;
  const std::function<void(uint64_t, uint64_t)>& progress_;
  uint64_t total_;
  uint64_t done_ = 0;
};

Status WriteData(Output& out, const Item& item) {
  if (item.bytes) {
    TACO_RETURN_IF_ERROR(out.Write(*item.bytes));
  } else {
    RangeReaderPtr reader = item.reader;
    uint64_t offset = item.offset;
    if (!reader) {
      TACO_ASSIGN_OR_RETURN(reader, OpenRangeReader(item.file_path));
      offset = 0;
      if (reader->size() != item.size) {
        return Status::IOError(item.file_path + ": changed size while writing (" + std::to_string(reader->size()) +
                               " bytes, expected " + std::to_string(item.size) + ")");
      }
    }
    std::string buf;
    for (uint64_t done = 0; done < item.size;) {
      const size_t n = static_cast<size_t>(std::min<uint64_t>(kChunk, item.size - done));
      buf.resize(n);
      TACO_RETURN_IF_ERROR(reader->ReadAt(offset + done, n, buf.data()));
      TACO_RETURN_IF_ERROR(out.Write(buf));
      done += n;
    }
  }
  out.Done(item.size);
  return Status::OK();
}

Status WriteTortilla(Output& out, const Node& node, const Plan& plan, bool is_taco, uint64_t partitions,
                     const std::string& collection) {
  const uint64_t fo = kHeader + plan.pile;
  TACO_RETURN_IF_ERROR(out.Write(format::EncodeLegacyHeader(
      is_taco, fo, plan.footer.size(), partitions, is_taco ? plan.total : 0, is_taco ? collection.size() : 0)));
  for (size_t i = 0; i < node.items.size(); ++i) {
    const Item& item = node.items[i];
    if (item.nested) {
      TACO_RETURN_IF_ERROR(WriteTortilla(out, *item.nested, *plan.nested[i], false, 1, ""));
    } else {
      TACO_RETURN_IF_ERROR(WriteData(out, item));
    }
  }
  TACO_RETURN_IF_ERROR(out.Write(plan.footer));
  if (is_taco) TACO_RETURN_IF_ERROR(out.Write(collection));
  return Status::OK();
}

std::string PartPath(const std::string& output, size_t index) {
  // "x.taco" → "x.0000.part.taco"; the extension is the user's.
  const size_t slash = output.find_last_of('/');
  const size_t dot = output.find_last_of('.');
  const bool has_ext = dot != std::string::npos && (slash == std::string::npos || dot > slash + 1);
  const std::string stem = has_ext ? output.substr(0, dot) : output;
  const std::string ext = has_ext ? output.substr(dot) : "";
  char digits[32];
  std::snprintf(digits, sizeof digits, ".%04zu", index);
  return stem + digits + ".part" + ext;
}

}  // namespace

Result<std::vector<std::string>> WriteNode(const Node& root, const std::string& output,
                                           const LegacyWriteOptions& options, const std::string& collection_json) {
  if (root.items.empty()) return Status::InvalidArgument(output + ": nothing to write (no samples)");
  TACO_ASSIGN_OR_RETURN(auto engine, table::Engine::Open());
  // Greedy, in order: an item joins the current part while the data fits.
  std::vector<Node> parts(1);
  uint64_t used = 0;
  for (const Item& item : root.items) {
    TACO_ASSIGN_OR_RETURN(auto sub, item.nested ? MakePlan(*item.nested, *engine, item.id)
                                                : Result<std::unique_ptr<Plan>>(std::unique_ptr<Plan>()));
    const uint64_t length = sub ? sub->total : item.size;
    if (options.part_size > 0 && !parts.back().items.empty() && used + length > options.part_size) {
      parts.emplace_back();
      used = 0;
    }
    parts.back().items.push_back(item);
    used += length;
  }
  const bool is_taco = options.flavor == LegacyFlavor::kTacoV1;
  std::vector<std::unique_ptr<AtomicOutput>> outputs;
  std::vector<std::string> written;
  uint64_t total = 0;
  std::vector<std::unique_ptr<Plan>> plans;
  for (size_t p = 0; p < parts.size(); ++p) {
    TACO_ASSIGN_OR_RETURN(auto plan, MakePlan(parts[p], *engine, output));
    total += plan->pile;
    plans.push_back(std::move(plan));
  }
  for (size_t p = 0; p < parts.size(); ++p) {
    const std::string path = parts.size() == 1 ? output : PartPath(output, p);
    TACO_ASSIGN_OR_RETURN(auto atomic, AtomicOutput::Begin(path, /*is_directory=*/false));
    outputs.push_back(std::move(atomic));
    written.push_back(path);
  }
  uint64_t done_before = 0;
  for (size_t p = 0; p < parts.size(); ++p) {
    const std::string& temp = outputs[p]->temp_path();
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) return Status::IOError(temp + ": cannot create: " + std::strerror(errno));
    std::function<void(uint64_t, uint64_t)> progress;
    if (options.progress) {
      progress = [&, done_before](uint64_t done, uint64_t) { options.progress(done_before + done, total); };
    }
    Output out(fd, written[p], progress, total);
    Status st = WriteTortilla(out, parts[p], *plans[p], is_taco, parts.size(), collection_json);
    if (st.ok() && ::fsync(fd) != 0) st = Status::IOError(written[p] + ": fsync failed: " + std::strerror(errno));
    ::close(fd);
    TACO_RETURN_IF_ERROR(st);
    done_before += plans[p]->pile;
  }
  for (auto& o : outputs) TACO_RETURN_IF_ERROR(o->Commit());
  return written;
}

}  // namespace legacy

Result<std::vector<std::string>> WriteLegacy(const Taco& taco, const std::string& output,
                                             const LegacyWriteOptions& options, std::vector<std::string>* notes) {
  std::vector<std::string> local_notes;
  std::vector<std::string>& n = notes ? *notes : local_notes;
  std::set<std::string> invented;
  const auto& c = taco.collection();
  if (c.contains("legacy:conversion") && c["legacy:conversion"].is_object() &&
      c["legacy:conversion"].contains("invented_columns") && c["legacy:conversion"]["invented_columns"].is_array()) {
    for (const auto& v : c["legacy:conversion"]["invented_columns"]) {
      if (v.is_string()) invented.insert(v.get<std::string>());
    }
  }
  TACO_ASSIGN_OR_RETURN(legacy::Node root, legacy::NodeFromTaco(taco, invented, n));
  std::string json;
  if (options.flavor == LegacyFlavor::kTacoV1) {
    json = CollectionToV1(c).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  }
  return legacy::WriteNode(root, output, options, json);
}

}  // namespace taco
