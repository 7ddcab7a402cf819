// RebuildTaco: a Taco from the rows of a dataset view (see taco/convert.h).
#include <sys/stat.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "format/container.h"
#include "io/location.h"
#include "taco/convert.h"
#include "taco/io.h"

namespace taco {
namespace {

constexpr std::string_view kGdalVsiColumn = "internal:gdal_vsi";
constexpr std::string_view kSubfilePrefix = "/vsisubfile/";

bool StartsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

bool IsCoreOrInternal(std::string_view name) { return name == "id" || name == "type" || StartsWith(name, "internal:"); }

std::string QuoteSql(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

// The GDAL paths of the FOLDER rows in [begin, end) of `rows`: their `__meta__`, which the
// rebuild reads next (Dataset::Prefetch reads them in runs: one request per run remotely).
std::vector<std::string> FolderPaths(const Table& rows, size_t begin, size_t end) {
  std::vector<std::string> paths;
  const int type = rows.FindColumn("type");
  const int vsi = rows.FindColumn(kGdalVsiColumn);
  if (type < 0 || vsi < 0) return paths;
  for (size_t i = begin; i < std::min(end, rows.num_rows()); ++i) {
    const Value& t = rows.columns[static_cast<size_t>(type)].values[i];
    const Value& v = rows.columns[static_cast<size_t>(vsi)].values[i];
    if (t.is<std::string>() && t.get<std::string>() == "FOLDER" && v.is<std::string>())
      paths.push_back(v.get<std::string>());
  }
  return paths;
}

// Rows of the level-0 selection whose FOLDERs are read ahead together.
constexpr size_t kPrefetchRows = 4096;

// State of one rebuild: the source, where sample bytes come from, column descriptions.
class Rebuilder {
 public:
  Rebuilder(const Dataset& source)
      : source_(source), zip_members_(format::Container::For(source.format()).samples_are_zip_members()) {
    const auto& c = source.collection();
    auto fs = c.find("taco:field_schema");
    if (fs != c.end() && fs->is_object()) {
      for (const auto& [level, fields] : fs->items()) {
        if (!fields.is_array()) continue;
        for (const auto& f : fields) {
          if (f.is_array() && f.size() >= 3 && f[0].is_string() && f[2].is_string()) {
            descriptions_.emplace(f[0].get<std::string>(), f[2].get<std::string>());
          }
        }
      }
    }
  }

  Status Error(const std::string& where, const Status& st) const {
    return Status(st.code(), source_.path() + ": sample '" + where + "': " + st.message());
  }

  // One sample from row `i` of `rows` (a level-0 view or a child frame). `where` is the
  // sample's path from the root, for messages. `frame` is null at level 0.
  Result<Sample> MakeSample(const Table& rows, size_t i, const std::string& parent_path, const Frame* frame) {
    const Value& id_value = rows.column("id").values[i];
    const Value& type_value = rows.column("type").values[i];
    if (!id_value.is<std::string>() || !type_value.is<std::string>()) {
      return Status::Corruption(source_.path() + ": row " + std::to_string(i) + " below '" + parent_path +
                                "' has no id or type");
    }
    const std::string& id = id_value.get<std::string>();
    const std::string& type = type_value.get<std::string>();
    const std::string where = parent_path.empty() ? id : parent_path + "/" + id;
    if (IsPaddingId(id)) {
      uint64_t k = 0;
      if (!ParseDecimal(std::string_view(id).substr(kPaddingPrefix.size()), &k) || type != "FILE") {
        return Error(where, Status::InvalidArgument("malformed padding sample (expected a FILE '__TACOPAD__<k>')"));
      }
      return Sample::Padding(static_cast<size_t>(k));
    }
    // Before any path is built from the id: refuses "..", '/', '\\', ':' and the like.
    Status id_status = ValidateSampleId(id);
    if (!id_status.ok()) return Error(where, id_status);

    Result<Sample> sample = Status::Internal("unset");
    if (type == "FILE") {
      const Value& vsi = rows.column(kGdalVsiColumn).values[i];
      if (!vsi.is<std::string>()) return Error(where, Status::Corruption("no internal:gdal_vsi"));
      sample = FileSample(id, vsi.get<std::string>(), where);
    } else if (type == "FOLDER") {
      Result<Node> node = frame != nullptr ? frame->Read(static_cast<int64_t>(i)) : RootNode(rows, i, id);
      if (!node.ok()) return node.status();
      if (node->children == nullptr) return Error(where, Status::Corruption("FOLDER without children"));
      Result<Tortilla> children = MakeTortilla(*node->children, where);
      if (!children.ok()) return children.status();
      sample = Sample::FromTortilla(id, std::move(*children));
    } else {
      return Error(where, Status::Corruption("unknown type '" + type + "'"));
    }
    if (!sample.ok()) return Error(where, sample.status());

    std::vector<Field> fields;
    for (const Column& c : rows.columns) {
      if (IsCoreOrInternal(c.name)) continue;
      auto d = descriptions_.find(c.name);
      fields.push_back({c.name, c.type, c.values[i], d == descriptions_.end() ? "" : d->second});
    }
    Status ext = sample->Extend(std::move(fields));
    if (!ext.ok()) return Error(where, ext);
    return sample;
  }

  Result<Tortilla> MakeTortilla(const Frame& frame, const std::string& path) {
    const Table& rows = frame.rows();
    if (rows.FindColumn("id") < 0 || rows.FindColumn("type") < 0 || rows.FindColumn(kGdalVsiColumn) < 0) {
      return Status::Corruption(source_.path() + ": the children of '" + path + "' lack id/type/internal:gdal_vsi");
    }
    std::vector<Sample> samples;
    samples.reserve(rows.num_rows());
    source_.Prefetch(FolderPaths(rows, 0, rows.num_rows()));
    for (size_t i = 0; i < rows.num_rows(); ++i) {
      TACO_ASSIGN_OR_RETURN(Sample s, MakeSample(rows, i, path, &frame));
      samples.push_back(std::move(s));
    }
    return MakeTortillaFrom(std::move(samples));
  }

  static Result<Tortilla> MakeTortillaFrom(std::vector<Sample> samples) {
    // Every row of one table has the same columns: strict works unless the source mixed
    // schemas; then align them as the source writer did.
    Result<Tortilla> strict = Tortilla::Make(samples, TortillaOptions{});
    if (strict.ok()) return strict;
    TortillaOptions loose;
    loose.strict_schema = false;
    Result<Tortilla> aligned = Tortilla::Make(std::move(samples), loose);
    if (aligned.ok()) return aligned;
    return strict.status();
  }

 private:
  // A level-0 FOLDER, navigated in the unfiltered source (whole subtree).
  Result<Node> RootNode(const Table& rows, size_t i, const std::string& id) {
    const Value& vsi = rows.column(kGdalVsiColumn).values[i];
    const std::string want = vsi.is<std::string>() ? vsi.get<std::string>() : "";
    Result<Node> node = source_.Read(SampleKey(id));
    if (node.ok() && node->gdal_path == want) return node;
    // Duplicate ids at level 0 (TACOCAT; Read refuses a shared id): select the row by its
    // GDAL path instead.
    TACO_ASSIGN_OR_RETURN(auto one,
                          source_.Sql("SELECT * FROM data_raw WHERE \"internal:gdal_vsi\" = " + QuoteSql(want)));
    return one->Read(SampleKey(int64_t{0}));
  }

  Result<RangeReaderPtr> Reader(const std::string& path) {
    auto it = readers_.find(path);
    if (it != readers_.end()) return it->second;
    TACO_ASSIGN_OR_RETURN(RangeReaderPtr r, OpenRangeReader(path));
    readers_.emplace(path, r);
    return r;
  }

  // FOLDER sources: no symbolic link on the way from the dataset root to the file.
  Status CheckNoSymlinks(const std::string& path) const {
    const std::string& root = source_.vsi_root();
    if (!StartsWith(path, root + "/")) {
      return Status::InvalidArgument("'" + path + "' is outside the dataset directory '" + root + "'");
    }
    size_t pos = root.size();
    while (pos != std::string::npos) {
      size_t next = path.find('/', pos + 1);
      const std::string prefix = path.substr(0, next);
      struct stat st;
      if (::lstat(prefix.c_str(), &st) != 0) {
        return Status::NotFound("cannot stat '" + prefix + "': " + std::strerror(errno));
      }
      if (S_ISLNK(st.st_mode)) return Status::InvalidArgument("'" + prefix + "' is a symbolic link (refused)");
      pos = next;
    }
    return Status::OK();
  }

  // A ZIP member is copied to the archive path it has in the source ("DATA/<where>"): the
  // writer checks that the source member has that name (write/rebuild_copy.h).
  Result<Sample> FileSample(const std::string& id, const std::string& gdal_path, const std::string& where) {
    if (auto sub = ParseVsiSubfile(gdal_path)) {
      TACO_ASSIGN_OR_RETURN(RangeReaderPtr reader, Reader(sub->root));
      if (zip_members_) return Sample::FromZipMember(id, reader, sub->offset, sub->size);
      return Sample::FromRange(id, reader, sub->offset, sub->size);
    }
    if (StartsWith(gdal_path, kSubfilePrefix)) return Status::Corruption("malformed GDAL path '" + gdal_path + "'");
    if (!io::Location::Of(gdal_path).is_local_filesystem()) {  // no symbolic links to check, no file to open
      TACO_ASSIGN_OR_RETURN(RangeReaderPtr reader, OpenRangeReader(gdal_path));
      return Sample::FromRange(id, reader, 0, reader->size());
    }
    Status links = CheckNoSymlinks(gdal_path);
    if (!links.ok()) return Error(where, links);
    return Sample::FromFile(id, gdal_path);
  }

  const Dataset& source_;
  // The /vsisubfile/ ranges of ZIP and TACOCAT sources are STORE members (CRC-checked when
  // copied); those of legacy BLOB files are not.
  const bool zip_members_;
  std::unordered_map<std::string, std::string> descriptions_;
  std::map<std::string, RangeReaderPtr> readers_;
};

nlohmann::ordered_json RebuildCollection(const Dataset& source, const RebuildOptions& options) {
  nlohmann::ordered_json c = source.collection();
  for (const char* key : {"taco:pit_schema", "taco:field_schema", "taco:sources", "_tacocat"}) c.erase(key);
  c["taco_version"] = std::string(kTacoVersion);
  if (options.is_export) {
    c.erase("extent");
    c["taco:subset_of"] = c.contains("id") ? c["id"] : nlohmann::ordered_json(nullptr);
    c["taco:subset_date"] = options.subset_date.empty() ? UtcNowIsoformat() : options.subset_date;
  }
  return c;
}

}  // namespace

std::string UtcNowIsoformat() {
  const auto now = std::chrono::system_clock::now();
  const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count();
  const std::time_t seconds = static_cast<std::time_t>(micros / 1000000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%06lld+00:00", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<long long>(micros % 1000000));
  return buf;
}

Result<Taco> RebuildTaco(const Dataset& view, const Dataset& source, const RebuildOptions& options) {
  TACO_ASSIGN_OR_RETURN(Table rows, view.DataRaw());
  for (std::string_view col : {std::string_view("id"), std::string_view("type"), kGdalVsiColumn}) {
    if (rows.FindColumn(col) < 0) {
      return Status::InvalidArgument(view.path() + ": the selected rows have no '" + std::string(col) +
                                     "' column (select * to keep id, type and internal:gdal_vsi)");
    }
  }
  if (rows.num_rows() == 0) return Status::InvalidArgument(view.path() + ": the selection is empty");

  Rebuilder rebuilder(source);
  std::vector<Sample> samples;
  samples.reserve(rows.num_rows());
  for (size_t i = 0; i < rows.num_rows(); ++i) {
    if (i % kPrefetchRows == 0) source.Prefetch(FolderPaths(rows, i, i + kPrefetchRows));
    TACO_ASSIGN_OR_RETURN(Sample s, rebuilder.MakeSample(rows, i, "", nullptr));
    samples.push_back(std::move(s));
  }
  if (options.keep_root_padding) {
    TACO_ASSIGN_OR_RETURN(auto pad_view, source.Sql("SELECT id FROM level0_table WHERE starts_with(id, " +
                                                    QuoteSql(kPaddingPrefix) + ")"));
    TACO_ASSIGN_OR_RETURN(Table pads_table, pad_view->DataRaw());
    const Table* pads = &pads_table;
    if (pads->num_columns() == 1) {
      for (const Value& v : pads->columns[0].values) {
        uint64_t k = 0;
        if (v.is<std::string>() &&
            ParseDecimal(std::string_view(v.get<std::string>()).substr(kPaddingPrefix.size()), &k)) {
          samples.push_back(Sample::Padding(static_cast<size_t>(k)));
        }
      }
    }
  }
  Result<Tortilla> root = Rebuilder::MakeTortillaFrom(std::move(samples));
  if (!root.ok()) return root.status().WithPrefix(source.path());
  Result<Taco> taco = Taco::Make(std::move(*root), RebuildCollection(source, options));
  if (!taco.ok()) return taco.status().WithPrefix(source.path());
  return taco;
}

}  // namespace taco
