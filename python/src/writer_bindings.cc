// Writer side of taco_cpp._native: the model (Sample, Tortilla, Taco), the built-in
// extensions, and create / tacocat / tacollection / convert / build-from-directory. Thin:
// the rules are the C++ library's (include/taco/model.h, extensions.h, writer.h, ...).
#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nanobind/nanobind.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "errors.h"
#include "progress.h"
#include "taco/convert.h"
#include "taco/extensions.h"
#include "taco/legacy.h"
#include "taco/model.h"
#include "taco/tacocat.h"
#include "taco/tree_builder.h"
#include "taco/writer.h"
#include "values.h"

namespace nb = nanobind;

namespace taco::py {
namespace {

using FieldTuple = std::tuple<std::string, std::string, nb::object, std::string>;  // name, type, value, description

std::vector<FieldTuple> FieldTuples(const std::vector<Field>& fields) {
  std::vector<FieldTuple> out;
  for (const auto& f : fields) out.emplace_back(f.name, f.type.ToString(), FromValue(f.value), f.description);
  return out;
}

std::vector<std::pair<std::string, std::string>> SchemaPairs(const Schema& schema) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [name, type] : schema) out.emplace_back(name, type.ToString());
  return out;
}

std::vector<Field> ToFields(const std::string& owner, const std::vector<FieldTuple>& tuples) {
  std::vector<Field> fields;
  for (const auto& [name, type_text, value, description] : tuples) {
    DataType type = ParseType(type_text);
    fields.push_back(Field{name, type, ToValue(value, type, owner + ": field '" + name + "'"), description});
  }
  return fields;
}

nlohmann::ordered_json ParseJson(const std::string& text, const std::string& what) {
  try {
    return nlohmann::ordered_json::parse(text);
  } catch (const std::exception& e) {
    throw StatusError(StatusCode::kInvalidArgument, what + ": not JSON: " + e.what());
  }
}

OutputFormat FormatByName(const std::string& name) {
  if (name.empty() || name == "auto") return OutputFormat::kAuto;
  if (name == "zip") return OutputFormat::kZip;
  if (name == "folder") return OutputFormat::kFolder;
  throw StatusError(StatusCode::kInvalidArgument, "format '" + name + "' is not one of auto, zip, folder");
}

std::string SampleName(const Sample& s) { return "sample '" + s.id() + "'"; }

// Extensions hold the C++ extension object by shared_ptr (the Python classes are factories).
struct SampleExt {
  std::shared_ptr<ext::SampleExtension> impl;
};
struct TortillaExt {
  std::shared_ptr<ext::TortillaExtension> impl;
};

}  // namespace

void BindWriter(nb::module_& m) {
  nb::class_<Sample>(m, "Sample")
      .def_static(
          "from_file",
          [](std::string id, std::string path) {
            nb::gil_scoped_release release;
            return Take(Sample::FromFile(std::move(id), std::move(path)));
          },
          nb::arg("id"), nb::arg("path"))
      .def_static(
          "from_bytes",
          [](std::string id, nb::bytes data) {
            std::string bytes(static_cast<const char*>(data.c_str()), data.size());
            return Take(Sample::FromBytes(std::move(id), std::move(bytes)));
          },
          nb::arg("id"), nb::arg("data"))
      .def_static(
          "from_tortilla",
          [](std::string id, const Tortilla& children) { return Take(Sample::FromTortilla(std::move(id), children)); },
          nb::arg("id"), nb::arg("children"))
      .def_static("padding", &Sample::Padding, nb::arg("k"))
      .def_prop_ro("id", &Sample::id)
      .def_prop_ro("type", [](const Sample& s) { return std::string(SampleTypeName(s.type())); })
      .def_prop_ro("is_padding", &Sample::is_padding)
      .def_prop_ro("file_path", &Sample::file_path)
      .def_prop_ro("size_bytes", &Sample::size_bytes)
      .def_prop_ro("bytes", [](const Sample& s) { return nb::bytes(s.bytes().data(), s.bytes().size()); })
      .def_prop_ro("children",
                   [](const Sample& s) -> std::optional<Tortilla> {
                     if (s.children() == nullptr) return std::nullopt;
                     return *s.children();
                   })
      .def("fields", [](const Sample& s) { return FieldTuples(s.extensions()); })
      .def("schema", [](const Sample& s) { return SchemaPairs(s.schema()); })
      .def(
          "extend",
          [](Sample& s, const std::vector<FieldTuple>& fields) {
            Check(s.Extend(ToFields(SampleName(s), fields)).WithPrefix(SampleName(s)));
          },
          nb::arg("fields"))
      .def(
          "pop", [](Sample& s, const std::string& key) { Check(s.Pop(key).WithPrefix(SampleName(s))); }, nb::arg("key"))
      .def(
          "extend_with",
          [](Sample& s, const SampleExt& e) {
            Sample out = [&] {
              nb::gil_scoped_release release;
              return Take(ext::ExtendWith(s, *e.impl));
            }();
            s = std::move(out);
          },
          nb::arg("extension"));

  nb::class_<Tortilla>(m, "TortillaModel")
      .def_static(
          "make",
          [](std::vector<Sample> samples, std::optional<size_t> pad_to, bool strict_schema) {
            TortillaOptions options;
            options.pad_to = pad_to;
            options.strict_schema = strict_schema;
            return Take(Tortilla::Make(std::move(samples), options));
          },
          nb::arg("samples"), nb::arg("pad_to").none(), nb::arg("strict_schema"))
      .def_prop_ro("samples", &Tortilla::samples)
      .def_prop_ro("depth", &Tortilla::depth)
      .def_prop_ro("size_bytes", &Tortilla::size_bytes)
      .def("__len__", &Tortilla::size)
      .def("schema", [](const Tortilla& t) { return SchemaPairs(t.schema()); })
      .def(
          "extend_with",
          [](const Tortilla& t, const TortillaExt& e) {
            nb::gil_scoped_release release;
            return Take(ext::ExtendWith(t, *e.impl));
          },
          nb::arg("extension"));

  nb::class_<Taco>(m, "TacoModel")
      .def_static(
          "make",
          [](const Tortilla& root, const std::string& collection_json) {
            return Take(Taco::Make(root, ParseJson(collection_json, "collection")));
          },
          nb::arg("root"), nb::arg("collection_json"))
      .def_prop_ro("root", &Taco::root)
      .def_prop_ro("num_levels", &Taco::num_levels)
      .def("collection_json", [](const Taco& t) { return t.collection().dump(); })
      .def(
          "extend_with_fragment",
          [](const Taco& t, const std::string& name, const std::string& fragment_json) {
            ext::JsonTacoExtension e(name, ParseJson(fragment_json, name));
            return Take(ext::ExtendWith(t, e));
          },
          nb::arg("name"), nb::arg("fragment_json"));

  // ---- extensions ----------------------------------------------------------------------
  nb::class_<SampleExt>(m, "SampleExtension")
      .def_prop_ro("name", [](const SampleExt& e) { return e.impl->name(); })
      .def("schema", [](const SampleExt& e) { return SchemaPairs(e.impl->Schema()); })
      .def(
          "compute",
          [](const SampleExt& e, const Sample& s) {
            std::vector<Field> fields = [&] {
              nb::gil_scoped_release release;
              return Take(e.impl->Run(s));
            }();
            return FieldTuples(fields);
          },
          nb::arg("sample"))
      .def_prop_rw(
          "schema_only", [](const SampleExt& e) { return e.impl->schema_only(); },
          [](SampleExt& e, bool v) { e.impl->set_schema_only(v); });
  m.def(
      "ext_stac",
      [](std::optional<int64_t> start, std::optional<int64_t> end) {
        return SampleExt{std::make_shared<ext::StacExtension>(start, end)};
      },
      nb::arg("time_start_us").none(), nb::arg("time_end_us").none());
  m.def(
      "ext_istac",
      [](std::optional<int64_t> start, std::optional<int64_t> end) {
        return SampleExt{std::make_shared<ext::IstacExtension>(start, end)};
      },
      nb::arg("time_start_us").none(), nb::arg("time_end_us").none());
  m.def(
      "ext_geotiff_stats",
      [](bool categorical, std::vector<double> classes, double factor, double offset) {
        ext::GeotiffStatsOptions o;
        o.categorical = categorical;
        o.class_values = std::move(classes);
        o.scale_factor = factor;
        o.scale_offset = offset;
        return SampleExt{std::make_shared<ext::GeotiffStatsExtension>(std::move(o))};
      },
      nb::arg("categorical"), nb::arg("class_values"), nb::arg("scale_factor"), nb::arg("scale_offset"));
  m.def(
      "ext_scaling",
      [](float factor, float offset, std::array<int32_t, 4> padding) {
        Take(ext::Scaling(factor, offset, padding));  // the same checks, now rather than per sample
        return SampleExt{std::make_shared<ext::ScalingExtension>(factor, offset, padding)};
      },
      nb::arg("scale_factor"), nb::arg("scale_offset"), nb::arg("padding"));
  m.def(
      "ext_split",
      [](std::string split) {
        Take(ext::Split(split));
        return SampleExt{std::make_shared<ext::SplitExtension>(std::move(split))};
      },
      nb::arg("split"));

  nb::class_<TortillaExt>(m, "TortillaExtension")
      .def_prop_ro("name", [](const TortillaExt& e) { return e.impl->name(); })
      .def("schema", [](const TortillaExt& e) { return SchemaPairs(e.impl->Schema()); });
  m.def(
      "ext_majortom", [](double dist_km) { return TortillaExt{std::make_shared<ext::MajorTomExtension>(dist_km)}; },
      nb::arg("dist_km"));
  m.def(
      "ext_spatial_grouping",
      [](size_t target_count) {
        if (target_count == 0)
          throw StatusError(StatusCode::kInvalidArgument, "spatialgroup: target_count must be >= 1");
        return TortillaExt{std::make_shared<ext::SpatialGroupingExtension>(target_count)};
      },
      nb::arg("target_count"));

  // Direct functions of a raster (fields as tuples).
  m.def(
      "compute_extension",
      [](const std::string& name, const std::string& path, std::vector<double> classes) {
        ext::ExtensionSettings settings;
        settings.categorical_classes = std::move(classes);
        std::vector<Field> fields = [&] {
          nb::gil_scoped_release release;
          return Take(ext::ComputeByName(name, path, settings));
        }();
        return FieldTuples(fields);
      },
      nb::arg("name"), nb::arg("path"), nb::arg("class_values"));
  m.def("known_extension_names", &ext::KnownExtensionNames);
  m.def("directory_extension_names", &DirectoryExtensionNames);
  m.def(
      "major_tom_code",
      [](double lon, double lat, double dist_km) { return Take(ext::MajorTomCode(lon, lat, dist_km)); }, nb::arg("lon"),
      nb::arg("lat"), nb::arg("dist_km"));

  // Collection fragments as JSON text.
  m.def(
      "labels",
      [](const std::vector<std::tuple<std::string, std::string, std::string>>& classes,
         const std::string& description) {
        std::vector<ext::LabelClass> list;
        for (const auto& [name, category, desc] : classes) list.push_back({name, category, desc});
        return Take(ext::Labels(list, description)).dump();
      },
      nb::arg("classes"), nb::arg("description"));
  m.def(
      "optical_data", [](const std::string& sensor) { return Take(ext::OpticalData(sensor)).dump(); },
      nb::arg("sensor"));
  m.def("known_sensors", &ext::KnownSensors);
  m.def(
      "publications",
      [](const std::vector<std::tuple<std::string, std::string, std::string>>& pubs) {
        std::vector<ext::Publication> list;
        for (const auto& [doi, citation, summary] : pubs) list.push_back({doi, citation, summary});
        return Take(ext::Publications(list)).dump();
      },
      nb::arg("publications"));
  m.def(
      "split_strategy", [](const std::string& name) { return Take(ext::SplitStrategy(name)).dump(); }, nb::arg("name"));

  // ---- writing -------------------------------------------------------------------------
  m.def(
      "create",
      [](const Taco& taco, const std::string& output, const std::string& format, std::optional<uint64_t> split_size,
         std::vector<std::string> group_by, bool consolidate, nb::object progress) {
        CreateOptions o;
        o.format = FormatByName(format);
        if (split_size) o.split_size = *split_size;
        o.group_by = std::move(group_by);
        o.consolidate = consolidate;
        ProgressRelay relay(std::move(progress));
        o.progress = relay.callback<uint64_t>();
        RemoveTemporaryOutputsOnTerminationSignals();  // SIGTERM/SIGHUP leave no temporary
        std::vector<std::string> written = [&] {
          nb::gil_scoped_release release;
          return Take(Create(taco, output, o));
        }();
        relay.RaiseIfFailed();
        return written;
      },
      nb::arg("taco"), nb::arg("output"), nb::arg("format"), nb::arg("split_size").none(), nb::arg("group_by"),
      nb::arg("consolidate"), nb::arg("progress").none() = nb::none());
  m.def(
      "parse_size", [](const std::string& text) { return Take(ParseSize(text)); }, nb::arg("text"));
  m.def(
      "tacocat",
      [](std::vector<std::string> inputs, const std::string& output_dir, bool single_file, bool align_schemas) {
        TacocatOptions o;
        o.output_dir = output_dir;
        o.single_file = single_file;
        o.align_schemas = align_schemas;
        RemoveTemporaryOutputsOnTerminationSignals();  // SIGTERM/SIGHUP leave no temporary
        nb::gil_scoped_release release;
        return Take(CreateTacocat(inputs, o));
      },
      nb::arg("inputs"), nb::arg("output_dir"), nb::arg("single_file"), nb::arg("align_schemas"));
  m.def(
      "tacollection",
      [](std::vector<std::string> inputs, const std::string& output, bool validate_pit, bool validate_fields) {
        TacollectionOptions o;
        o.validate_pit = validate_pit;
        o.validate_fields = validate_fields;
        RemoveTemporaryOutputsOnTerminationSignals();  // SIGTERM/SIGHUP leave no temporary
        nb::gil_scoped_release release;
        if (output.empty()) return Take(BuildTacollection(inputs, o)).dump();
        Check(CreateTacollection(inputs, output, o));
        return std::string();
      },
      nb::arg("inputs"), nb::arg("output"), nb::arg("validate_pit"), nb::arg("validate_fields"));
  m.def(
      "convert",
      [](const std::string& input, const std::string& output, const std::string& format, nb::object progress,
         bool meta_with_ids) {
        ConvertOptions o;
        o.format = FormatByName(format);
        o.meta_with_ids = meta_with_ids;
        ProgressRelay relay(std::move(progress));
        o.progress = relay.callback<uint64_t>();
        RemoveTemporaryOutputsOnTerminationSignals();  // SIGTERM/SIGHUP leave no temporary
        std::vector<std::string> written = [&] {
          nb::gil_scoped_release release;
          return Take(Convert(input, output, o));
        }();
        relay.RaiseIfFailed();
        return written;
      },
      nb::arg("input"), nb::arg("output"), nb::arg("format"), nb::arg("progress").none() = nb::none(),
      nb::arg("meta_with_ids") = false);
  // `taco convert` with a legacy input or output (Tortilla 0.5 / TACO v1): (paths written,
  // notes on what was invented or dropped).
  m.def(
      "is_legacy_path", [](const std::string& path) { return IsLegacyPath(path); }, nb::arg("path"));
  m.def(
      "convert_legacy",
      [](const std::string& input, const std::string& output, const std::string& format) {
        LegacyConvertOptions o;
        o.target = format == "zip"        ? ConvertTarget::kZip
                   : format == "folder"   ? ConvertTarget::kFolder
                   : format == "tortilla" ? ConvertTarget::kTortilla
                   : format == "taco-v1"  ? ConvertTarget::kTacoV1
                                          : ConvertTarget::kAuto;
        if (format != "auto" && format != "zip" && format != "folder" && format != "tortilla" && format != "taco-v1") {
          throw StatusError(StatusCode::kInvalidArgument,
                            "convert: format must be auto, zip, folder, tortilla or taco-v1");
        }
        RemoveTemporaryOutputsOnTerminationSignals();
        std::vector<std::string> notes;
        nb::gil_scoped_release release;
        std::vector<std::string> written = Take(ConvertLegacy(input, output, o, &notes));
        return std::make_pair(std::move(written), std::move(notes));
      },
      nb::arg("input"), nb::arg("output"), nb::arg("format"));
  m.def(
      "load_collection_file", [](const std::string& path) { return Take(LoadCollectionFile(path)).dump(); },
      nb::arg("path"));
  m.def(
      "taco_from_directory",
      [](const std::string& src, const std::string& collection_json, const std::string& collection_name,
         const std::string& order_file, std::vector<std::string> metadata, std::vector<std::string> extensions,
         std::vector<double> classes, std::optional<size_t> pad_to, bool strict_schema,
         std::optional<std::string> time_column, std::optional<std::vector<std::string>> exclude, nb::object progress) {
        DirectoryOptions o;
        if (exclude) o.exclude.insert(o.exclude.end(), exclude->begin(), exclude->end());
        o.collection = ParseJson(collection_json, "collection");
        o.collection_name = collection_name;
        o.order_file = order_file;
        o.metadata_files = std::move(metadata);
        o.extensions = Take(ext::ParseExtensionSpecs(extensions));
        o.extension_settings.categorical_classes = std::move(classes);
        o.pad_to = pad_to;
        o.strict_schema = strict_schema;
        if (time_column) o.time_column = *time_column;
        ProgressRelay relay(std::move(progress));
        o.progress = relay.callback<size_t>();
        Taco taco = [&] {
          nb::gil_scoped_release release;
          return Take(TacoFromDirectory(src, o));
        }();
        relay.RaiseIfFailed();
        return taco;
      },
      nb::arg("src"), nb::arg("collection_json"), nb::arg("collection_name"), nb::arg("order_file"),
      nb::arg("metadata"), nb::arg("extensions"), nb::arg("class_values"), nb::arg("pad_to").none(),
      nb::arg("strict_schema"), nb::arg("time_column").none(), nb::arg("exclude").none() = nb::none(),
      nb::arg("progress").none() = nb::none());
}

}  // namespace taco::py
