// `taco info PATH [--json]`: format, collection fields, header entries (ZIP), levels with
// row counts and column types, and the pit schema.
#include <algorithm>
#include <iostream>
#include <map>
#include <sstream>

#include "cli_common.h"
#include "taco/dataset.h"
#include "taco/info.h"
#include "taco/legacy.h"

namespace taco::cli {
namespace {

struct InfoArgs {
  std::string path;
  bool json = false;
};

std::string JoinStrings(const nlohmann::ordered_json& list) {
  if (!list.is_array()) return list.is_null() ? "-" : list.dump();
  std::string out;
  for (const auto& item : list) {
    if (!out.empty()) out += ", ";
    out += item.is_string() ? item.get<std::string>() : item.dump();
  }
  return out.empty() ? "-" : out;
}

std::string Field(const nlohmann::ordered_json& collection, const char* key) {
  auto it = collection.find(key);
  if (it == collection.end() || it->is_null()) return "-";
  return it->is_string() ? it->get<std::string>() : it->dump();
}

// "providers:     Name (organization, email, role); Other (roles: a, b; url)", "-" when none.
std::string ContactText(const nlohmann::ordered_json& c) {
  if (!c.is_object()) return c.dump();
  std::string name = c.value("name", nlohmann::ordered_json()).is_string() ? c["name"].get<std::string>() : "";
  std::vector<std::string> details;
  for (const char* key : {"organization", "email", "role", "url"}) {
    if (c.contains(key) && c[key].is_string() && !c[key].get<std::string>().empty()) {
      details.push_back(c[key].get<std::string>());
    }
  }
  if (c.contains("roles") && c["roles"].is_array() && !c["roles"].empty())
    details.push_back("roles: " + JoinStrings(c["roles"]));
  if (name.empty() && !details.empty()) {
    name = details.front();
    details.erase(details.begin());
  }
  std::string out = name.empty() ? "?" : name;
  if (!details.empty()) {
    out += " (";
    for (size_t i = 0; i < details.size(); ++i) out += (i ? ", " : "") + details[i];
    out += ")";
  }
  return out;
}

void PrintContacts(const char* label, const nlohmann::ordered_json& list) {
  std::string text;
  if (list.is_array()) {
    for (const auto& c : list) text += (text.empty() ? "" : "; ") + ContactText(c);
  } else if (!list.is_null()) {
    text = list.dump();
  }
  std::string head = std::string(label) + ":";
  head.resize(std::max<size_t>(head.size() + 1, 15), ' ');
  std::cout << head << (text.empty() ? "-" : text) << "\n";
}

std::string OneLine(std::string s) {
  for (char& ch : s) {
    if (ch == '\n' || ch == '\r' || ch == '\t') ch = ' ';
  }
  return s;
}

// Column name -> description of level `level` in taco:field_schema.
std::map<std::string, std::string> Descriptions(const nlohmann::ordered_json& fields, int level) {
  std::map<std::string, std::string> out;
  const std::string key = "level" + std::to_string(level);
  if (!fields.is_object() || !fields.contains(key) || !fields[key].is_array()) return out;
  for (const auto& e : fields[key]) {
    if (e.is_array() && e.size() >= 3 && e[0].is_string() && e[2].is_string()) {
      out[e[0].get<std::string>()] = e[2].get<std::string>();
    }
  }
  return out;
}

// One line per pit level: "root: 3 FOLDER", "level 1: 9 rows, pattern FILE item_0, ...".
void PrintPit(const nlohmann::ordered_json& pit) {
  if (!pit.is_object()) {
    std::cout << "pit schema: -\n";
    return;
  }
  std::cout << "pit schema:\n";
  const auto& root = pit.value("root", nlohmann::ordered_json::object());
  std::cout << "  root: " << root.value("n", 0) << " " << root.value("type", std::string("?")) << "\n";
  const nlohmann::ordered_json hierarchy = pit.value("hierarchy", nlohmann::ordered_json::object());
  for (const auto& [depth, patterns] : hierarchy.items()) {
    // Below level 1 there is one pattern per FOLDER position of the level above's first
    // pattern (FORMAT §4.1): name that position so that the lines can be told apart.
    std::vector<std::string> parents;
    const std::string above = std::to_string(std::atoi(depth.c_str()) - 1);
    if (depth != "1" && hierarchy.contains(above) && hierarchy[above].is_array() && !hierarchy[above].empty()) {
      const auto& parent = hierarchy[above][0];
      const auto& ids = parent.value("id", nlohmann::ordered_json::array());
      const auto& types = parent.value("type", nlohmann::ordered_json::array());
      for (size_t i = 0; i < ids.size() && i < types.size(); ++i) {
        if (types[i] == "FOLDER" && ids[i].is_string()) parents.push_back(ids[i].get<std::string>());
      }
    }
    size_t k = 0;
    for (const auto& p : patterns) {
      std::cout << "  level " << depth;
      if (patterns.size() > 1 && k < parents.size()) std::cout << " under " << parents[k];
      ++k;
      std::cout << ": n " << p.value("n", 0) << ", children";
      const auto& ids = p.value("id", nlohmann::ordered_json::array());
      const auto& types = p.value("type", nlohmann::ordered_json::array());
      for (size_t i = 0; i < ids.size() && i < types.size(); ++i) {
        std::cout << (i ? ", " : " ") << ids[i].get<std::string>() << " (" << types[i].get<std::string>() << ")";
      }
      std::cout << "\n";
    }
  }
}

}  // namespace

int PrintInfo(const std::string& path, bool json, const OpenOptions& options) {
  InfoArgs args{path, json};
  auto opened = Dataset::Open(args.path, options);
  if (!opened.ok()) return ReportError(opened.status());
  Dataset& ds = **opened;
  if (args.json) {  // taco/info.h (the Python package prints the same object)
    auto j = DatasetInfoJson(ds);
    if (!j.ok()) return ReportError(j.status());
    PrintJson(*j);
    return kExitOk;
  }
  const nlohmann::ordered_json& c = ds.collection();

  std::vector<LevelInfo> levels;
  for (int i = 0; i < ds.num_levels(); ++i) {
    auto level = ds.DescribeLevel(i);
    if (!level.ok()) return ReportError(level.status());
    levels.push_back(std::move(*level));
  }
  nlohmann::ordered_json pit = c.contains("taco:pit_schema") ? c["taco:pit_schema"] : nlohmann::ordered_json();

  std::cout << "format:        " << DatasetFormatName(ds.format()) << "\n"
            << "path:          " << ds.vsi_root() << "\n"
            << "id:            " << Field(c, "id") << "\n"
            << "title:         " << Field(c, "title") << "\n"
            << "version:       " << Field(c, "dataset_version") << "\n"
            << "taco_version:  " << Field(c, "taco_version") << "\n"
            << "description:   " << Field(c, "description") << "\n"
            << "tasks:         " << JoinStrings(c.value("tasks", c.value("task", nlohmann::ordered_json()))) << "\n"
            << "licenses:      " << JoinStrings(c.value("licenses", nlohmann::ordered_json())) << "\n"
            << "keywords:      " << JoinStrings(c.value("keywords", nlohmann::ordered_json())) << "\n";
  PrintContacts("providers", c.value("providers", nlohmann::ordered_json()));
  PrintContacts("curators", c.value("curators", nlohmann::ordered_json()));
  if (c.contains("extent") && c["extent"].is_object()) {
    const auto& e = c["extent"];
    std::cout << "extent:        spatial " << e.value("spatial", nlohmann::ordered_json()).dump() << ", temporal "
              << e.value("temporal", nlohmann::ordered_json()).dump() << "\n";
  }
  if (!ds.header().empty()) {  // a TACO ZIP (the only container with a TACO_HEADER)
    std::cout << "header:        " << ds.header().size() << " entries\n";
    for (size_t i = 0; i < ds.header().size(); ++i) {
      const bool last = i + 1 == ds.header().size();
      std::cout << "  [" << i << "] offset " << ds.header()[i].offset << ", length " << ds.header()[i].length << "  "
                << (last ? std::string("COLLECTION.json") : "METADATA/level" + std::to_string(i) + ".parquet") << "\n";
    }
  }
  if (const LegacyInfo* legacy = ds.legacy()) {
    std::cout << "layout:        " << legacy->Describe() << "\n";
    for (const LegacyPart& p : legacy->parts) {
      std::cout << "  " << p.path << ": " << p.size << " bytes, footer at " << p.footer_offset << " ("
                << p.footer_length << " bytes)";
      if (p.collection_length > 0)
        std::cout << ", collection at " << p.collection_offset << " (" << p.collection_length << " bytes)";
      std::cout << ", DP " << p.partitions << "\n";
    }
    for (const std::string& note : legacy->notes) std::cout << "note: " << note << "\n";
  }
  const nlohmann::ordered_json fields = c.value("taco:field_schema", nlohmann::ordered_json::object());
  for (const auto& level : levels) {
    std::cout << "level " << level.level << ":       " << level.rows << " rows, " << level.columns.size()
              << " columns\n";
    const auto descriptions = Descriptions(fields, level.level);
    size_t name_width = 0, type_width = 0;
    for (const auto& col : level.columns) {
      name_width = std::max(name_width, col.name.size());
      type_width = std::max(type_width, col.type.size());
    }
    for (const auto& col : level.columns) {
      std::string line = "  " + col.name + std::string(name_width - col.name.size(), ' ') + "  " + col.type;
      auto it = descriptions.find(col.name);
      if (it != descriptions.end() && !it->second.empty()) {
        line += std::string(type_width - col.type.size(), ' ') + "  " + OneLine(it->second);
      }
      std::cout << line << "\n";
    }
  }
  PrintPit(pit);
  return kExitOk;
}

namespace {
void AddInfoCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<InfoArgs>();
  CLI::App* cmd = app.add_subcommand("info", "Describe a dataset: format, collection, header, levels, pit schema");
  cmd->add_option("path", args->path, "Dataset path or URL (.tacozip, FOLDER, .tacocat)")->required();
  cmd->add_flag("--json", args->json, "Print JSON for programs");
  cmd->callback([args, &ctx] { ctx.exit_code = PrintInfo(args->path, args->json, DatasetOpenOptions(ctx.global)); });
}
const CommandRegistration kRegistered(30, &AddInfoCommand);
}  // namespace

}  // namespace taco::cli
