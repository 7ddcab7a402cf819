// Taco::Make: collection checks, depth limit, PIT at every depth and per-level schemas
// (spec §5.5, FORMAT §7.3 made stricter: every depth is checked, not only the first).
#include <string>
#include <unordered_map>

#include "model/schema_util.h"
#include "taco/model.h"

namespace taco {
namespace {

// One sample of a level while walking the tree.
struct Node {
  const Sample* sample;
  std::string path;  // ids joined by '/'
  size_t group;      // position class: nodes with the same group sit at the same tree position
};

std::string Quoted(const std::string& path) { return model::Quote(path); }

// Checks that the FOLDERs `members` (indices into `nodes`, one position class) are
// isomorphic. `child_level` is the level their children live on.
Status CheckGroup(int child_level, const std::vector<Node>& nodes, const std::vector<size_t>& members) {
  const std::string where = "PIT: level " + std::to_string(child_level) + ": ";
  const Node& ref = nodes[members[0]];
  const std::vector<Sample>& ref_children = ref.sample->children()->samples();
  const size_t n = ref_children.size();
  // The id at each position: the first non-padding id, and the folder it came from.
  std::vector<const Sample*> pattern(n, nullptr);
  std::vector<const Node*> pattern_owner(n, nullptr);
  for (size_t m : members) {
    const Node& node = nodes[m];
    const std::vector<Sample>& children = node.sample->children()->samples();
    if (children.size() != n) {
      // Name what differs: the ids one folder has and the other lacks.
      std::string extra, missing;
      for (const Sample& c : children) {
        bool found = false;
        for (const Sample& r : ref_children) found = found || r.id() == c.id();
        if (!found) extra += (extra.empty() ? "" : ", ") + model::Quote(c.id());
      }
      for (const Sample& r : ref_children) {
        bool found = false;
        for (const Sample& c : children) found = found || r.id() == c.id();
        if (!found) missing += (missing.empty() ? "" : ", ") + model::Quote(r.id());
      }
      std::string diff;
      if (!extra.empty()) diff += "; it has " + extra + " that " + Quoted(ref.path) + " has not";
      if (!missing.empty()) diff += "; it lacks " + missing;
      return Status::InvalidArgument(where + "folder " + Quoted(node.path) + " has " + std::to_string(children.size()) +
                                     " children, expected " + std::to_string(n) + " (as " + Quoted(ref.path) + ")" +
                                     diff);
    }
    for (size_t p = 0; p < n; ++p) {
      const Sample& child = children[p];
      if (child.type() != ref_children[p].type()) {
        return Status::InvalidArgument(where + Quoted(node.path + "/" + child.id()) + " (position " +
                                       std::to_string(p) + ") is a " + std::string(SampleTypeName(child.type())) +
                                       ", expected a " + std::string(SampleTypeName(ref_children[p].type())) + " (as " +
                                       Quoted(ref.path + "/" + ref_children[p].id()) + ")");
      }
      if (child.is_padding()) continue;
      if (pattern[p] == nullptr) {
        pattern[p] = &child;
        pattern_owner[p] = &node;
      } else if (pattern[p]->id() != child.id()) {
        return Status::InvalidArgument(where + "folder " + Quoted(node.path) + " has id " + model::Quote(child.id()) +
                                       " at position " + std::to_string(p) + ", expected " +
                                       model::Quote(pattern[p]->id()) + " (as " + Quoted(pattern_owner[p]->path) + ")");
      }
    }
  }
  return Status::OK();
}

// Schemas of the tortillas on one level: when all are strict they must be identical;
// otherwise a name may not carry two types (nulls are aligned later).
Status CheckLevelSchemas(int level, const std::vector<Node>& parents) {
  const Node* ref = nullptr;
  bool all_strict = true;
  std::unordered_map<std::string_view, std::pair<const DataType*, const Node*>> types;
  for (const Node& node : parents) {
    const Tortilla* t = node.sample->children();
    if (t == nullptr) continue;
    all_strict = all_strict && t->options().strict_schema;
    if (ref == nullptr) ref = &node;
    for (const auto& [name, type] : t->schema()) {
      auto [it, inserted] = types.emplace(name, std::make_pair(&type, &node));
      if (inserted || type.id == TypeId::kNull) continue;
      if (it->second.first->id == TypeId::kNull) {
        it->second = {&type, &node};
      } else if (!(*it->second.first == type)) {
        return Status::InvalidArgument("schema: level " + std::to_string(level) + ": extension " + model::Quote(name) +
                                       " is " + it->second.first->ToString() + " under folder " +
                                       Quoted(it->second.second->path) + " but " + type.ToString() + " under folder " +
                                       Quoted(node.path));
      }
    }
  }
  if (ref == nullptr || !all_strict) return Status::OK();
  const Schema& want = ref->sample->children()->schema();
  for (const Node& node : parents) {
    const Tortilla* t = node.sample->children();
    if (t == nullptr || t->schema() == want) continue;
    return Status::InvalidArgument("schema: level " + std::to_string(level) + ": the children of " + Quoted(node.path) +
                                   " have extension columns " + model::SchemaToString(t->schema()) + ", expected " +
                                   model::SchemaToString(want) + " (as the children of " + Quoted(ref->path) +
                                   "; strict schemas must match across a level)");
  }
  return Status::OK();
}

Status CheckTree(const Tortilla& root) {
  std::vector<Node> level;
  level.reserve(root.size());
  for (const Sample& s : root.samples()) level.push_back({&s, s.id(), 0});
  const Sample& first = root.samples()[0];
  for (const Node& node : level) {
    if (node.sample->type() != first.type()) {
      return Status::InvalidArgument("PIT: level 0: sample " + Quoted(node.path) + " is a " +
                                     std::string(SampleTypeName(node.sample->type())) + ", expected a " +
                                     std::string(SampleTypeName(first.type())) + " (as " + model::Quote(first.id()) +
                                     "; all root samples have one type)");
    }
  }
  size_t num_groups = 1;
  for (int child_level = 1; !level.empty(); ++child_level) {
    // Position classes of this level's FOLDERs.
    std::vector<std::vector<size_t>> members(num_groups);
    for (size_t i = 0; i < level.size(); ++i) {
      if (level[i].sample->type() == SampleType::kFolder) members[level[i].group].push_back(i);
    }
    for (const std::vector<size_t>& group : members) {
      if (!group.empty()) TACO_RETURN_IF_ERROR(CheckGroup(child_level, level, group));
    }
    TACO_RETURN_IF_ERROR(CheckLevelSchemas(child_level, level));
    // Next level: child at position p of a folder in group g gets the class (g, p).
    std::vector<std::vector<size_t>> class_of(num_groups);
    size_t next_groups = 0;
    std::vector<Node> next;
    for (const Node& node : level) {
      const Tortilla* t = node.sample->children();
      if (t == nullptr) continue;
      std::vector<size_t>& classes = class_of[node.group];
      if (classes.empty()) {
        for (size_t p = 0; p < t->size(); ++p) classes.push_back(next_groups++);
      }
      for (size_t p = 0; p < t->size(); ++p) {
        const Sample& child = t->samples()[p];
        next.push_back({&child, node.path + "/" + child.id(), classes[p]});
      }
    }
    level = std::move(next);
    num_groups = next_groups;
  }
  return Status::OK();
}

}  // namespace

Result<Taco> Taco::Make(Tortilla root, nlohmann::ordered_json collection) {
  TACO_RETURN_IF_ERROR(ValidateCollection(collection));
  if (!collection.contains("taco_version") || collection["taco_version"].is_null()) {
    collection["taco_version"] = std::string(kTacoVersion);
  }
  if (root.depth() > kMaxLevels) {
    return Status::InvalidArgument("taco: the tree has " + std::to_string(root.depth()) + " levels, at most " +
                                   std::to_string(kMaxLevels) + " are allowed (level0..level" +
                                   std::to_string(kMaxLevels - 1) + ")");
  }
  TACO_RETURN_IF_ERROR(CheckTree(root));
  Taco taco;
  taco.root_ = std::make_shared<const Tortilla>(std::move(root));
  taco.collection_ = std::move(collection);
  return taco;
}

}  // namespace taco
