// The C ABI (include/taco/taco.h): navigation (keys → nodes, FOLDER children) and sample bytes.
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "capi_internal.h"
#include "taco/io.h"

using taco::Status;
using taco::capi::Guard;
using taco::capi::Require;

namespace {

taco::SampleKey ToKey(const taco_key& key) {
  if (key.id != nullptr) return taco::SampleKey(std::string(key.id));
  return taco::SampleKey(key.position);
}

Status RequireFile(const taco_node* node, const char* what) {
  TACO_RETURN_IF_ERROR(Require(node, what));
  if (!node->node.is_file()) {
    return Status::InvalidArgument(std::string(what) + ": sample '" + node->node.id + "' is a " + node->node.type +
                                   ", not a FILE");
  }
  return Status::OK();
}

void StoreNode(std::shared_ptr<taco::Dataset> origin, taco::Node node, taco_node** out) {
  *out = new taco_node{std::move(origin), std::move(node)};
}

}  // namespace

extern "C" {

taco_status taco_dataset_read(const taco_dataset* dataset, const taco_key* keys, size_t num_keys, taco_node** out,
                              taco_error** error) {
  return Guard(error, [&]() -> Status {
    TACO_RETURN_IF_ERROR(Require(dataset, "taco_dataset_read: dataset"));
    TACO_RETURN_IF_ERROR(Require(out, "taco_dataset_read: out"));
    if (keys == nullptr || num_keys == 0) return Status::InvalidArgument("taco_dataset_read: no key given");
    std::vector<taco::SampleKey> path;
    for (size_t i = 0; i < num_keys; ++i) path.push_back(ToKey(keys[i]));
    TACO_ASSIGN_OR_RETURN(taco::Node node, dataset->dataset->ReadPath(path));
    StoreNode(dataset->dataset, std::move(node), out);
    return Status::OK();
  });
}

void taco_node_free(taco_node* node) { delete node; }
const char* taco_node_id(const taco_node* node) { return node == nullptr ? "" : node->node.id.c_str(); }
const char* taco_node_type(const taco_node* node) { return node == nullptr ? "" : node->node.type.c_str(); }
int taco_node_is_file(const taco_node* node) { return node != nullptr && node->node.is_file() ? 1 : 0; }
int taco_node_level(const taco_node* node) { return node == nullptr ? -1 : node->node.level; }
const char* taco_node_gdal_path(const taco_node* node) {
  return node == nullptr ? "" : node->node.gdal_path.c_str();
}

taco_status taco_node_children(const taco_node* node, taco_frame** out, taco_error** error) {
  return Guard(error, [&]() -> Status {
    TACO_RETURN_IF_ERROR(Require(node, "taco_node_children: node"));
    TACO_RETURN_IF_ERROR(Require(out, "taco_node_children: out"));
    if (node->node.is_file() || node->node.children == nullptr) {
      return Status::InvalidArgument("taco_node_children: sample '" + node->node.id + "' is a FILE: it has no children");
    }
    *out = new taco_frame{node->origin, node->node.children};
    return Status::OK();
  });
}

taco_status taco_node_size(const taco_node* node, uint64_t* out, taco_error** error) {
  return Guard(error, [&]() -> Status {
    TACO_RETURN_IF_ERROR(RequireFile(node, "taco_node_size"));
    TACO_RETURN_IF_ERROR(Require(out, "taco_node_size: out"));
    const taco::Table& row = node->node.row;
    int column = row.FindColumn("internal:size");
    if (column >= 0 && row.num_rows() == 1) {
      const taco::Value& v = row.columns[static_cast<size_t>(column)].values[0];
      if (v.is<int64_t>() && v.get<int64_t>() >= 0) {
        *out = static_cast<uint64_t>(v.get<int64_t>());
        return Status::OK();
      }
      if (v.is<int32_t>() && v.get<int32_t>() >= 0) {
        *out = static_cast<uint64_t>(v.get<int32_t>());
        return Status::OK();
      }
    }
    // No size in the row (a FOLDER dataset stores none): the size in a /vsisubfile/ path, else
    // the file's (local: a stat; http(s): a 1-byte ranged GET). No sample byte is read. The
    // path was checked to lie inside the dataset when navigation made the node.
    const std::string& path = node->node.gdal_path;
    if (std::optional<taco::VsiSubfile> ref = taco::ParseVsiSubfile(path)) {
      *out = ref->size;
      return Status::OK();
    }
    TACO_ASSIGN_OR_RETURN(std::optional<uint64_t> size, taco::FileSize(path));
    if (!size) return Status::NotFound("sample '" + node->node.id + "': " + path + ": no such file");
    *out = *size;
    return Status::OK();
  });
}

taco_status taco_node_read_bytes(const taco_node* node, void* buffer, size_t capacity, size_t* size,
                                 taco_error** error) {
  return Guard(error, [&]() -> Status {
    TACO_RETURN_IF_ERROR(RequireFile(node, "taco_node_read_bytes"));
    TACO_RETURN_IF_ERROR(Require(size, "taco_node_read_bytes: size"));
    uint64_t expected = 0;
    taco_error* size_error = nullptr;
    if (taco_node_size(node, &expected, &size_error) != TACO_OK) {
      Status status(taco::StatusCode::kIOError, taco_error_message(size_error));
      taco_error_free(size_error);
      return status;
    }
    *size = static_cast<size_t>(expected);
    if (buffer == nullptr) return Status::OK();
    if (capacity < expected) {
      return Status::InvalidArgument("taco_node_read_bytes: sample '" + node->node.id + "' has " +
                                     std::to_string(expected) + " bytes, the buffer holds " +
                                     std::to_string(capacity));
    }
    size_t written = 0;
    TACO_RETURN_IF_ERROR(node->origin->StreamBytes(node->node, [&](std::string_view chunk) -> Status {
      if (chunk.size() > capacity - written) {
        return Status::Corruption("sample '" + node->node.id + "': more bytes than its stored size " +
                                  std::to_string(expected));
      }
      std::memcpy(static_cast<char*>(buffer) + written, chunk.data(), chunk.size());
      written += chunk.size();
      return Status::OK();
    }));
    if (written != expected) {
      return Status::Corruption("sample '" + node->node.id + "': read " + std::to_string(written) +
                                " bytes, its stored size is " + std::to_string(expected));
    }
    return Status::OK();
  });
}

taco_status taco_node_stream_bytes(const taco_node* node, taco_bytes_sink sink, void* user_data,
                                   taco_error** error) {
  return Guard(error, [&]() -> Status {
    TACO_RETURN_IF_ERROR(RequireFile(node, "taco_node_stream_bytes"));
    if (sink == nullptr) return Status::InvalidArgument("taco_node_stream_bytes: sink: must not be NULL");
    return node->origin->StreamBytes(node->node, [&](std::string_view chunk) -> Status {
      if (sink(user_data, chunk.data(), chunk.size()) != 0) {
        return Status::IOError("sample '" + node->node.id + "': the sink stopped the stream");
      }
      return Status::OK();
    });
  });
}

void taco_frame_free(taco_frame* frame) { delete frame; }
int64_t taco_frame_row_count(const taco_frame* frame) {
  return frame == nullptr ? -1 : static_cast<int64_t>(frame->frame->num_rows());
}
int taco_frame_level(const taco_frame* frame) { return frame == nullptr ? -1 : frame->frame->level(); }

taco_status taco_frame_arrow_stream(const taco_frame* frame, int raw, struct ArrowArrayStream* out,
                                    taco_error** error) {
  return Guard(error, [&]() -> Status {
    TACO_RETURN_IF_ERROR(Require(frame, "taco_frame_arrow_stream: frame"));
    TACO_RETURN_IF_ERROR(Require(out, "taco_frame_arrow_stream: out"));
    out->release = nullptr;
    return frame->frame->ExportArrow(raw != 0, out);
  });
}

taco_status taco_frame_read(const taco_frame* frame, taco_key key, taco_node** out, taco_error** error) {
  return Guard(error, [&]() -> Status {
    TACO_RETURN_IF_ERROR(Require(frame, "taco_frame_read: frame"));
    TACO_RETURN_IF_ERROR(Require(out, "taco_frame_read: out"));
    TACO_ASSIGN_OR_RETURN(taco::Node node, frame->frame->Read(ToKey(key)));
    StoreNode(frame->origin, std::move(node), out);
    return Status::OK();
  });
}

}  // extern "C"
