// Hugging Face dataset card (EXPORTERS §3.4, §4.4): README.md opening with a YAML header the Hub
// reads (license, pretty_name, task_categories, task_ids, size_categories, tags, configs), then
// the body: description, structure, fields, coverage, extension blocks, files, usage, citation.
#include <set>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>

#include "publish/text.h"
#include "publish/writers.h"

namespace taco::publish {
namespace {

std::string Q(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c >= 0x20) {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

// Markdown table cell: no newlines, pipes escaped, raw HTML shown as text.
std::string Cell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n' || c == '\r') {
      out += ' ';
    } else if (c == '<') {
      out += "&lt;";
    } else {
      out += c;
    }
  }
  return out.empty() ? "–" : out;
}

// Markdown text: raw HTML shown as text.
std::string Md(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '<' ? std::string("&lt;") : std::string(1, c);
  return out;
}

void List(std::string& y, const char* key, const std::vector<std::string>& values) {
  if (values.empty()) return;
  y += std::string(key) + ":\n";
  for (const auto& v : values) y += "- " + Q(v) + "\n";
}

}  // namespace

Result<std::string> WriteHfCard(const Model& m) {
  // ---- YAML header ----
  std::string y = "---\n";
  std::vector<std::string> hf_licenses;
  std::vector<LicenseInfo> others;
  for (const auto& l : m.licenses) {
    LicenseInfo info = LookupLicense(l);
    if (info.hf == "other") {
      others.push_back(info);
      info.hf = "other";
    }
    if (std::find(hf_licenses.begin(), hf_licenses.end(), info.hf) == hf_licenses.end()) hf_licenses.push_back(info.hf);
  }
  if (hf_licenses.size() == 1) {
    y += "license: " + Q(hf_licenses[0]) + "\n";
  } else {
    List(y, "license", hf_licenses);
  }
  if (!others.empty()) {
    y += "license_name: " + Q(others[0].given) + "\n";
    if (!m.pub.landing_url.empty()) y += "license_link: " + Q(m.pub.landing_url) + "\n";
  }
  y += "pretty_name: " + Q(m.title) + "\n";
  std::vector<std::string> categories, task_ids;
  for (const auto& t : m.tasks) {
    HfTask hf = MapTask(t);
    if (!hf.category.empty() && std::find(categories.begin(), categories.end(), hf.category) == categories.end()) {
      categories.push_back(hf.category);
    }
    if (!hf.task_id.empty() && std::find(task_ids.begin(), task_ids.end(), hf.task_id) == task_ids.end()) {
      task_ids.push_back(hf.task_id);
    }
  }
  List(y, "task_categories", categories);
  List(y, "task_ids", task_ids);
  List(y, "size_categories", {SizeCategory(m.samples())});
  std::vector<std::string> tags = {"earth-observation", "geospatial", "taco"};
  for (const auto& k : m.keywords) {
    if (std::find(tags.begin(), tags.end(), k) == tags.end()) tags.push_back(k);
  }
  for (const auto& t : m.tasks) {
    if (MapTask(t).category.empty() && std::find(tags.begin(), tags.end(), t) == tags.end()) tags.push_back(t);
  }
  if (!m.sensor.empty()) tags.push_back(m.sensor);
  List(y, "tags", tags);
  if (!m.pub.language.empty()) List(y, "language", {m.pub.language});
  // Plain Parquet levels the Hub can index (not the ones inside a ZIP).
  std::vector<std::pair<std::string, std::string>> configs;
  for (const auto& f : m.files) {
    if (f.media_type != "application/x-parquet" || !f.contained_in.empty()) continue;
    std::string stem = f.name.substr(f.name.rfind('/') + 1);
    configs.emplace_back(stem.substr(0, stem.find('.')), f.name);
  }
  if (!configs.empty()) {
    y += "configs:\n";
    for (const auto& [name, path] : configs) {
      y += "- config_name: " + Q(name) + "\n  data_files: " + Q(path) + "\n";
      if (name == "level0") y += "  default: true\n";
    }
  }
  y += "---\n\n";

  // ---- body ----
  std::string b = "# " + Md(m.title) + "\n\n";
  if (!m.description.empty()) b += Md(m.description) + "\n\n";
  b += "## Dataset Details\n\n| | |\n|---|---|\n";
  b += "| TACO id | `" + Cell(m.id) + "` |\n";
  if (!m.dataset_version.empty()) b += "| Version | " + Cell(m.dataset_version) + " |\n";
  if (!m.pub.doi.empty()) b += "| DOI | [" + m.pub.doi + "](" + DoiUrl(m.pub.doi) + ") |\n";
  std::string lic;
  for (const auto& l : m.licenses) {
    LicenseInfo info = LookupLicense(l);
    lic += (lic.empty() ? "" : ", ") + (info.url().empty() ? Cell(l) : "[" + Cell(l) + "](" + info.url() + ")");
  }
  b += "| Licenses | " + Cell(lic) + " |\n";
  std::string tasks;
  for (const auto& t : m.tasks) tasks += (tasks.empty() ? "" : ", ") + t;
  b += "| Tasks | " + Cell(tasks) + " |\n";
  b += "| Format | TACO " + Cell(m.format) +
       (m.taco_version.empty() ? "" : " (taco_version " + Cell(m.taco_version) + ")") + " |\n";
  b += "| Samples | " + FormatCount(m.samples()) + " |\n";
  b += "| Size | " + FormatBytes(m.total_bytes()) + " |\n";
  if (m.bbox) {
    const auto& x = *m.bbox;
    b += "| Spatial extent [W, S, E, N] | " + FormatNumber(x[0]) + ", " + FormatNumber(x[1]) + ", " +
         FormatNumber(x[2]) + ", " + FormatNumber(x[3]) + (x[0] > x[2] ? " (crosses the antimeridian)" : "") + " |\n";
  }
  if (!m.time_start.empty()) b += "| Temporal extent | " + m.time_start + " / " + m.time_end + " |\n";
  b += "\n";

  b += "## Dataset Structure\n\n| Level | Samples | Padding | FILE | FOLDER |\n|---|---:|---:|---:|---:|\n";
  for (const auto& l : m.levels) {
    b += "| " + std::to_string(l.level) + " | " + FormatCount(l.samples()) + " | " + FormatCount(l.padding_rows) +
         " | " + FormatCount(l.files) + " | " + FormatCount(l.folders) + " |\n";
  }
  b += "\n";
  for (const auto& l : m.levels) {
    b += "### Fields of level " + std::to_string(l.level) + "\n\n| Field | Type | Description |\n|---|---|---|\n";
    for (const auto& f : l.fields) {
      if (f.name.rfind("internal:", 0) == 0) continue;
      b += "| `" + Cell(f.name) + "` | `" + Cell(f.type) + "` | " + Cell(f.description) + " |\n";
    }
    b += "\n";
  }
  if (!m.splits.empty()) {
    b += "### Splits\n\n| Split | Samples |\n|---|---:|\n";
    for (const auto& s : m.splits) b += "| " + Cell(s.value) + " | " + FormatCount(s.count) + " |\n";
    if (!m.split_strategy.empty()) b += "\nSplit strategy: " + Md(m.split_strategy) + "\n";
    b += "\n";
  }
  if (!m.crs.empty() || !m.gsd.empty() || !m.tensor_shapes.empty()) {
    b += "### Geometry\n\n";
    auto line = [&](const char* what, const std::vector<CountedValue>& values) {
      if (values.empty()) return;
      b += "- " + std::string(what) + ": ";
      for (size_t i = 0; i < values.size(); ++i) {
        b += (i ? ", " : "") + Md(values[i].value) + " (" + FormatCount(values[i].count) + ")";
      }
      b += "\n";
    };
    line("CRS", m.crs);
    line("GSD (CRS units per pixel)", m.gsd);
    line("Tensor shapes", m.tensor_shapes);
    b += "\n";
  }
  if (!m.label_classes.empty()) {
    b += "### Labels\n\n";
    if (!m.labels_description.empty()) b += Md(m.labels_description) + "\n\n";
    b += "| # | Name | Category | Description |\n|---:|---|---|---|\n";
    for (size_t i = 0; i < m.label_classes.size(); ++i) {
      const auto& l = m.label_classes[i];
      b += "| " + std::to_string(i) + " | " + Cell(l.name) + " | " + Cell(l.category) + " | " + Cell(l.description) +
           " |\n";
    }
    b += "\n";
  }
  if (!m.bands.empty()) {
    b += "### Bands" + (m.sensor.empty() ? std::string() : " (" + Md(m.sensor) + ")") +
         "\n\n| Name | Common name | Center wavelength | FWHM | Unit |\n|---|---|---:|---:|---|\n";
    for (const auto& x : m.bands) {
      b += "| " + Cell(x.name) + " | " + Cell(x.common_name) + " | " +
           (x.center_wavelength ? FormatNumber(*x.center_wavelength) : "–") + " | " +
           (x.fwhm ? FormatNumber(*x.fwhm) : "–") + " | " + Cell(x.unit) + " |\n";
    }
    b += "\n";
  }
  b += "## Files\n\n| File | Size | SHA-256 |\n|---|---:|---|\n";
  for (const auto& f : m.files) {
    if (!f.contained_in.empty()) continue;
    std::string name = f.file_count > 1 ? f.name + " (" + FormatCount(f.file_count) + " files)" : f.name;
    std::string url = m.download_url(f.name);
    b += "| " + (url.empty() || f.file_count > 1 ? "`" + Cell(name) + "`" : "[`" + Cell(name) + "`](" + url + ")") +
         " | " + FormatBytes(f.size) + " | " + (f.sha256.empty() ? "–" : "`" + f.sha256 + "`") + " |\n";
  }
  b += "\n## Uses\n\nLoad it with the taco-cpp command line or Python `tacoreader`:\n\n```sh\ntaco info " +
       m.source_name + "\ntaco sql " + m.source_name +
       " \"SELECT * FROM data LIMIT 5\"\n```\n\n```python\nimport tacoreader\nds = tacoreader.load(\"" + m.source_name +
       "\")\nprint(ds.data)\n```\n\n";
  bool any_rai = !m.pub.rai.empty();
  if (any_rai) {
    b += "## Responsible AI\n\n";
    for (const auto& [key, text] : m.pub.rai) b += "- **" + key + "**: " + Md(text) + "\n";
    b += "\n";
  }
  if (!m.providers.empty() || !m.curators.empty()) {
    b += "## Providers and Curators\n\n";
    for (const auto& p : m.providers) {
      std::string roles;
      for (const auto& r : p.roles) roles += (roles.empty() ? "" : ", ") + r;
      b += "- " + (p.url.empty() ? Md(p.name) : "[" + Md(p.name) + "](" + p.url + ")") +
           (roles.empty() ? "" : " (" + roles + ")") + "\n";
    }
    for (const auto& c : m.curators) {
      b += "- Curator: " + Md(c.name.empty() ? c.organization : c.name) +
           (c.name.empty() || c.organization.empty() ? "" : ", " + Md(c.organization)) +
           (c.email.empty() ? "" : " <" + c.email + ">") + "\n";
    }
    b += "\n";
  }
  b += "## Citation\n\n```bibtex\n" + BibTex(m) + "```\n\n" + Md(PlainCitation(m)) + "\n\n";
  if (!m.publications.empty()) {
    b += "### Publications\n\n";
    for (const auto& p : m.publications) {
      b += "- " + Md(p.citation.empty() ? p.doi : p.citation) + (p.doi.empty() ? "" : " " + DoiUrl(p.doi)) + "\n";
    }
    b += "\n";
  }
  b += "## More Information\n\nGenerated by " + m.generator + " on " + m.generated_at + " from `" + m.source_name +
       "`. Companion files: `stac-collection.json`, `croissant.json`, `datacite.xml`, "
       "`datacite.json`, `index.html`.\n";
  return y + b;
}

}  // namespace taco::publish
