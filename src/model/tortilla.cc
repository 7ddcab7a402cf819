// Tortilla::Make: non-empty, unique sibling ids, schema uniformity or alignment, padding
// (FORMAT §3.5, §7.2).
#include <algorithm>
#include <string>
#include <unordered_map>

#include "model/schema_util.h"
#include "taco/model.h"

namespace taco {
namespace {

std::string SampleLabel(const std::vector<Sample>& samples, size_t i) {
  return "sample " + model::Quote(samples[i].id()) + " (index " + std::to_string(i) + ")";
}

// Padding samples made by Sample::Padding carry no extensions: they take nulls.
bool TakesNulls(const Sample& s) { return s.is_padding() && s.extensions().empty(); }

Status CheckStrict(const std::vector<Sample>& samples, size_t ref) {
  const std::vector<Field>& want = samples[ref].extensions();
  for (size_t i = 0; i < samples.size(); ++i) {
    if (i == ref || TakesNulls(samples[i])) continue;
    const std::vector<Field>& got = samples[i].extensions();
    std::string problem;
    for (size_t c = 0; c < std::min(got.size(), want.size()) && problem.empty(); ++c) {
      if (got[c].name != want[c].name || !(got[c].type == want[c].type)) {
        problem = "extension column " + std::to_string(c) + " is '" + got[c].name + ": " + got[c].type.ToString() +
                  "', expected '" + want[c].name + ": " + want[c].type.ToString() + "'";
      }
    }
    if (problem.empty() && got.size() != want.size()) {
      problem = "has " + std::to_string(got.size()) + " extension columns, expected " + std::to_string(want.size());
    }
    if (!problem.empty()) {
      return Status::InvalidArgument("tortilla: " + SampleLabel(samples, i) + ": " + problem + " as in " +
                                     SampleLabel(samples, ref) +
                                     " (strict schema: same names, order and types; use strict_schema=false to align)");
    }
  }
  return Status::OK();
}

struct UnionColumn {
  std::string name;
  DataType type;
  std::string description;
  size_t defined_by = 0;  // index of the sample that fixed the type
};

// Computes the union schema of non-strict samples and rewrites every sample to it.
Status AlignSchemas(const std::vector<Sample>& samples, std::vector<Field>* union_fields) {
  std::vector<UnionColumn> columns;
  std::unordered_map<std::string, size_t> index;
  for (size_t i = 0; i < samples.size(); ++i) {
    for (const Field& f : samples[i].extensions()) {
      auto [it, inserted] = index.emplace(f.name, columns.size());
      if (inserted) {
        columns.push_back({f.name, f.type, f.description, i});
        continue;
      }
      UnionColumn& col = columns[it->second];
      if (col.description.empty()) col.description = f.description;
      if (col.type == f.type || f.type.id == TypeId::kNull) continue;
      if (col.type.id == TypeId::kNull) {
        col.type = f.type;
        col.defined_by = i;
        continue;
      }
      return Status::InvalidArgument("tortilla: extension " + model::Quote(f.name) + " is " + col.type.ToString() +
                                     " in " + SampleLabel(samples, col.defined_by) + " but " + f.type.ToString() +
                                     " in " + SampleLabel(samples, i));
    }
  }
  if (samples.size() > 1) {
    std::sort(columns.begin(), columns.end(),
              [](const UnionColumn& a, const UnionColumn& b) { return a.name < b.name; });
  }
  union_fields->clear();
  for (const UnionColumn& col : columns) union_fields->push_back({col.name, col.type, Value(), col.description});
  return Status::OK();
}

}  // namespace

Result<Tortilla> Tortilla::Make(std::vector<Sample> samples, TortillaOptions options) {
  if (samples.empty()) return Status::InvalidArgument("tortilla: no samples (a tortilla needs at least one)");
  if (options.pad_to.has_value() && *options.pad_to == 0) {
    return Status::InvalidArgument("tortilla: pad_to must be at least 1");
  }

  // The reference schema: the first sample that does not take nulls.
  size_t ref = samples.size();
  for (size_t i = 0; i < samples.size() && ref == samples.size(); ++i) {
    if (!TakesNulls(samples[i])) ref = i;
  }
  std::vector<Field> schema_fields;  // names, types and descriptions; values null
  if (ref < samples.size()) {
    if (options.strict_schema) {
      TACO_RETURN_IF_ERROR(CheckStrict(samples, ref));
      for (const Field& f : samples[ref].extensions())
        schema_fields.push_back({f.name, f.type, Value(), f.description});
    } else {
      TACO_RETURN_IF_ERROR(AlignSchemas(samples, &schema_fields));
    }
  }

  if (options.pad_to.has_value()) {
    size_t rem = samples.size() % *options.pad_to;
    size_t pads = rem == 0 ? 0 : *options.pad_to - rem;
    for (size_t k = 0; k < pads; ++k) samples.push_back(Sample::Padding(k));
  }

  std::unordered_map<std::string_view, size_t> seen;
  seen.reserve(samples.size());
  for (size_t i = 0; i < samples.size(); ++i) {
    auto [it, inserted] = seen.emplace(samples[i].id(), i);
    if (!inserted) {
      return Status::InvalidArgument("tortilla: duplicate sibling id " + model::Quote(samples[i].id()) + " (samples " +
                                     std::to_string(it->second) + " and " + std::to_string(i) + ")");
    }
  }

  // Bring every sample to the schema: nulls for padding; union order when not strict.
  const bool rewrite_all = !options.strict_schema;
  for (Sample& s : samples) {
    if (!rewrite_all && !TakesNulls(s)) continue;
    if (TakesNulls(s)) {
      s.extensions_ = schema_fields;
      continue;
    }
    std::unordered_map<std::string_view, const Field*> have;
    for (const Field& f : s.extensions_) have.emplace(f.name, &f);
    std::vector<Field> aligned;
    aligned.reserve(schema_fields.size());
    for (const Field& col : schema_fields) {
      auto it = have.find(col.name);
      if (it == have.end()) {
        aligned.push_back(col);
      } else {
        Field f = *it->second;
        f.type = col.type;
        if (f.description.empty()) f.description = col.description;
        aligned.push_back(std::move(f));
      }
    }
    s.extensions_ = std::move(aligned);
  }

  Tortilla t;
  t.options_ = options;
  for (const Field& f : schema_fields) t.schema_.emplace_back(f.name, f.type);
  int child_depth = 0;
  for (const Sample& s : samples) {
    t.size_bytes_ += s.size_bytes();
    if (s.children() != nullptr) child_depth = std::max(child_depth, s.children()->depth());
  }
  t.depth_ = 1 + child_depth;
  t.samples_ = std::move(samples);
  return t;
}

}  // namespace taco
