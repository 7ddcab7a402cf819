// The extension interfaces (spec §7.1.2): checked Run() wrappers and ExtendWith().
#include <string>
#include <vector>

#include "taco/extensions.h"
#include "util/quote.h"

namespace taco::ext {
namespace {

using util::Quote;

// Checks (name, type) of `fields` against `schema`, in order.
Status CheckAgainstSchema(const taco::Schema& schema, const std::vector<std::pair<std::string, DataType>>& got) {
  if (got.size() != schema.size()) {
    return Status::Internal("returned " + std::to_string(got.size()) + " fields, its schema has " +
                            std::to_string(schema.size()));
  }
  for (size_t i = 0; i < schema.size(); ++i) {
    if (got[i].first != schema[i].first) {
      return Status::Internal("field " + std::to_string(i) + " is " + Quote(got[i].first) + ", its schema says " +
                              Quote(schema[i].first));
    }
    if (!(got[i].second == schema[i].second)) {
      return Status::Internal("field " + Quote(got[i].first) + " has type " + got[i].second.ToString() +
                              ", its schema says " + schema[i].second.ToString());
    }
  }
  return Status::OK();
}

}  // namespace

std::string SampleExtension::Description(std::string_view) const { return ""; }

std::vector<Field> SampleExtension::SchemaOnly() const {
  std::vector<Field> fields;
  for (auto& [name, type] : Schema()) fields.push_back(Field{name, type, Value(), Description(name)});
  return fields;
}

Result<std::vector<Field>> SampleExtension::Run(const Sample& sample) const {
  // Padding samples stand for missing data: they always get nulls.
  if (schema_only_ || sample.is_padding()) return SchemaOnly();
  const std::string prefix = "sample " + Quote(sample.id()) + ": " + name();
  auto fields = Compute(sample);
  if (!fields.ok()) return fields.status().WithPrefix(prefix);
  std::vector<std::pair<std::string, DataType>> got;
  for (const Field& f : *fields) got.emplace_back(f.name, f.type);
  TACO_RETURN_IF_ERROR(CheckAgainstSchema(Schema(), got).WithPrefix(prefix));
  for (Field& f : *fields) {
    if (f.description.empty()) f.description = Description(f.name);
  }
  return fields;
}

std::string TortillaExtension::Description(std::string_view) const { return ""; }

Result<Table> TortillaExtension::Run(const Tortilla& tortilla) const {
  const std::string prefix = "tortilla: " + name();
  auto table = Compute(tortilla);
  if (!table.ok()) return table.status().WithPrefix(prefix);
  if (table->num_columns() > 0 && table->num_rows() != tortilla.size()) {
    return Status::Internal(prefix + ": returned " + std::to_string(table->num_rows()) + " rows for " +
                            std::to_string(tortilla.size()) + " samples");
  }
  std::vector<std::pair<std::string, DataType>> got;
  for (const Column& c : table->columns) {
    if (c.values.size() != tortilla.size()) {
      return Status::Internal(prefix + ": column " + Quote(c.name) + " has " + std::to_string(c.values.size()) +
                              " rows for " + std::to_string(tortilla.size()) + " samples");
    }
    got.emplace_back(c.name, c.type);
  }
  TACO_RETURN_IF_ERROR(CheckAgainstSchema(Schema(), got).WithPrefix(prefix));
  return table;
}

Result<Sample> ExtendWith(const Sample& sample, const SampleExtension& extension) {
  TACO_ASSIGN_OR_RETURN(std::vector<Field> fields, extension.Run(sample));
  Sample out = sample;
  TACO_RETURN_IF_ERROR(out.Extend(std::move(fields)));
  return out;
}

Result<Tortilla> ExtendWith(const Tortilla& tortilla, const TortillaExtension& extension) {
  TACO_ASSIGN_OR_RETURN(Table table, extension.Run(tortilla));
  for (const Column& c : table.columns) {
    for (const auto& [name, type] : tortilla.schema()) {
      if (name == c.name) {
        return Status::InvalidArgument("tortilla: " + extension.name() + ": column " + Quote(c.name) +
                                       " already exists");
      }
    }
  }
  std::vector<Sample> samples = tortilla.samples();
  for (size_t i = 0; i < samples.size(); ++i) {
    std::vector<Field> fields;
    for (const Column& c : table.columns) {
      fields.push_back(Field{c.name, c.type, c.values[i], extension.Description(c.name)});
    }
    TACO_RETURN_IF_ERROR(samples[i].Extend(std::move(fields)));
  }
  return Tortilla::Make(std::move(samples), tortilla.options());
}

Result<Taco> ExtendWith(const Taco& taco, const TacoExtension& extension) {
  TACO_ASSIGN_OR_RETURN(nlohmann::ordered_json fragment, extension.Compute(taco));
  if (!fragment.is_object()) {
    return Status::InvalidArgument("collection: " + extension.name() + ": extension did not return a JSON object");
  }
  nlohmann::ordered_json collection = taco.collection();
  for (const auto& [key, value] : fragment.items()) {
    if (collection.contains(key)) {
      return Status::InvalidArgument("collection: " + extension.name() + ": key " + Quote(key) + " already exists");
    }
    collection[key] = value;
  }
  return Taco::Make(taco.root(), std::move(collection));
}

}  // namespace taco::ext
