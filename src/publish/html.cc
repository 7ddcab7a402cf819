// The self-contained dataset page (EXPORTERS §2.5): one HTML file, no scripts, no network
// (CSP default-src 'none'), readable without JavaScript; inline SVG world map (extent,
// partitions, thinned centroids), SVG PIT tree, temporal histogram, per-level field tables,
// extension blocks, providers, citation (BibTeX, CFF, plain), files with checksums, how to load
// it, and the Croissant JSON-LD (or a schema.org subset) for dataset search engines.
#include <cmath>
#include <map>

#include <algorithm>
#include <cstdio>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include "publish/markdown.h"

#include "publish/text.h"
#include "publish/writers.h"

namespace taco::publish {
namespace {

using json = nlohmann::ordered_json;

const char* kWorldLand =
#include "publish/world_land_path.inc"
    ;

std::string E(const std::string& s) { return XmlEscape(s); }

// JSON inside <script type="application/ld+json">: no "</script>" or "<!--" can appear.
std::string ScriptSafeJson(const json& j) {
  std::string s = j.dump(1);
  std::string out;
  for (char c : s) {
    if (c == '<') {
      out += "\\u003c";
    } else if (c == '>') {
      out += "\\u003e";
    } else if (c == '&') {
      out += "\\u0026";
    } else {
      out += c;
    }
  }
  return out;
}

std::string Fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

double X(double lon) { return 2 * (std::clamp(lon, -180.0, 180.0) + 180); }
double Y(double lat) { return 2 * (90 - std::clamp(lat, -90.0, 90.0)); }

// Rectangles of a W,S,E,N box on the 720 x 360 canvas (two across the antimeridian); at least
// 3 units wide/high so that a point extent stays visible.
std::string BoxRects(const std::array<double, 4>& b, const std::string& cls, const std::string& title) {
  auto rect = [&](double w, double s, double e, double n) {
    double x0 = X(w), x1 = X(e), y0 = Y(n), y1 = Y(s);
    double width = std::max(3.0, x1 - x0), height = std::max(3.0, y1 - y0);
    if (x1 - x0 < 3) x0 -= (3 - (x1 - x0)) / 2;
    if (y1 - y0 < 3) y0 -= (3 - (y1 - y0)) / 2;
    return "<rect class=\"" + cls + "\" x=\"" + Fixed(x0, 2) + "\" y=\"" + Fixed(y0, 2) + "\" width=\"" +
           Fixed(width, 2) + "\" height=\"" + Fixed(height, 2) + "\"><title>" + E(title) + "</title></rect>";
  };
  if (b[0] > b[2]) return rect(b[0], b[1], 180, b[3]) + rect(-180, b[1], b[2], b[3]);
  return rect(b[0], b[1], b[2], b[3]);
}

// At most 6 decimals (about 0.1 m), trailing zeros dropped: "-77", "151.2", "-33.859381".
std::string Degrees(double v) {
  std::string s = Fixed(v, 6);
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

std::string BoxText(const std::array<double, 4>& b) {
  return "[" + Degrees(b[0]) + ", " + Degrees(b[1]) + ", " + Degrees(b[2]) + ", " + Degrees(b[3]) + "]";
}

std::string MapSvg(const Model& m) {
  std::string s =
      "<svg class=\"map\" viewBox=\"0 0 720 360\" role=\"img\" aria-labelledby=\"map-title\" "
      "xmlns=\"http://www.w3.org/2000/svg\"><title id=\"map-title\">Spatial coverage of " +
      E(m.title) + "</title><rect class=\"sea\" width=\"720\" height=\"360\"/><path class=\"land\" d=\"" + kWorldLand +
      "\"/><g class=\"grid\">";
  for (int lon = -150; lon <= 150; lon += 30)
    s += "<line x1=\"" + Fixed(X(lon), 0) + "\" y1=\"0\" x2=\"" + Fixed(X(lon), 0) + "\" y2=\"360\"/>";
  for (int lat = -60; lat <= 60; lat += 30)
    s += "<line x1=\"0\" y1=\"" + Fixed(Y(lat), 0) + "\" x2=\"720\" y2=\"" + Fixed(Y(lat), 0) + "\"/>";
  s += "</g>";
  for (const auto& p : m.partitions) {
    if (p.bbox) s += BoxRects(*p.bbox, "part", p.file + " " + BoxText(*p.bbox));
  }
  if (m.bbox) s += BoxRects(*m.bbox, "extent", "Dataset extent " + BoxText(*m.bbox));
  if (!m.centroids.empty()) {
    s += "<g class=\"pts\">";
    for (const auto& [lon, lat] : m.centroids) {
      s += "<circle cx=\"" + Fixed(X(lon), 1) + "\" cy=\"" + Fixed(Y(lat), 1) + "\" r=\"2.2\"/>";
    }
    s += "</g>";
  }
  return s + "</svg>";
}

std::string HistogramSvg(const Model& m) {
  if (m.histogram.empty()) return "";
  std::vector<CountedValue> bars = m.histogram;
  std::sort(bars.begin(), bars.end(), [](const CountedValue& a, const CountedValue& b) { return a.value < b.value; });
  uint64_t max = 1;
  for (const auto& b : bars) max = std::max(max, b.count);
  const double width = 720, height = 120, base = 100;
  // At most 48 units per bar, centred when there are few.
  double bw = std::min(48.0, width / static_cast<double>(bars.size()));
  double x0 = (width - bw * static_cast<double>(bars.size())) / 2;
  std::string s = "<svg class=\"hist\" viewBox=\"0 0 720 " + Fixed(height, 0) +
                  "\" role=\"img\" aria-label=\"Samples per " + m.histogram_unit +
                  "\" xmlns=\"http://www.w3.org/2000/svg\">";
  for (size_t i = 0; i < bars.size(); ++i) {
    double h = std::max(1.0, 90.0 * static_cast<double>(bars[i].count) / static_cast<double>(max));
    s += "<rect x=\"" + Fixed(x0 + static_cast<double>(i) * bw + bw * 0.1, 2) + "\" y=\"" + Fixed(base - h, 2) +
         "\" width=\"" + Fixed(std::max(0.5, bw * 0.8), 2) + "\" height=\"" + Fixed(h, 2) + "\"><title>" +
         E(bars[i].value) + ": " + FormatCount(bars[i].count) + "</title></rect>";
  }
  s += "<text x=\"" + Fixed(x0, 1) + "\" y=\"116\">" + E(bars.front().value) + "</text>";
  if (bars.size() > 1) {
    s += "<text x=\"" + Fixed(width - x0, 1) + "\" y=\"116\" text-anchor=\"end\">" + E(bars.back().value) + "</text>";
  }
  s += "<text x=\"0\" y=\"10\">max " + FormatCount(max) + " per " + E(m.histogram_unit) + "</text></svg>";
  return s;
}

// The PIT tree as indented rows: (depth, label, type).
struct TreeRow {
  int depth;
  std::string label;
  std::string type;
};

void PatternRows(const Model& m, size_t level, size_t pattern, int depth, std::vector<TreeRow>& rows) {
  if (level >= m.levels.size() || pattern >= m.levels[level].patterns.size()) return;
  const auto& pat = m.levels[level].patterns[pattern];
  size_t folder_index = 0;
  const size_t shown = std::min<size_t>(pat.size(), 8);
  for (size_t i = 0; i < shown; ++i) {
    rows.push_back({depth, pat[i].first, pat[i].second});
    if (pat[i].second == "FOLDER") {
      // Level+1 patterns follow the FOLDER positions of this level's first pattern.
      if (pattern == 0) PatternRows(m, level + 1, folder_index, depth + 1, rows);
      ++folder_index;
    }
  }
  if (pat.size() > shown) rows.push_back({depth, "… " + std::to_string(pat.size() - shown) + " more", ""});
}

std::string TreeSvg(const Model& m) {
  std::vector<TreeRow> rows;
  rows.push_back({0, m.id, "TACO"});
  if (!m.levels.empty()) {
    rows.push_back({1, FormatCount(m.levels[0].samples()) + " samples at level 0", m.root_type});
    if (m.root_type == "FOLDER") PatternRows(m, 1, 0, 2, rows);
  }
  const int row_h = 22;
  int height = static_cast<int>(rows.size()) * row_h + 8;
  std::string s = "<svg class=\"tree\" viewBox=\"0 0 720 " + std::to_string(height) +
                  "\" role=\"img\" aria-label=\"Position-Isomorphic Tree\" xmlns=\"http://www.w3.org/2000/svg\">";
  std::vector<int> last_at_depth(16, -1);
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    int x = 10 + r.depth * 28, y = 8 + static_cast<int>(i) * row_h + 12;
    if (r.depth > 0 && last_at_depth[static_cast<size_t>(r.depth - 1)] >= 0) {
      int py = 8 + last_at_depth[static_cast<size_t>(r.depth - 1)] * row_h + 18;
      int px = 10 + (r.depth - 1) * 28 + 6;
      s += "<path class=\"edge\" d=\"M" + std::to_string(px) + " " + std::to_string(py) + "V" + std::to_string(y - 4) +
           "H" + std::to_string(x - 3) + "\"/>";
    }
    last_at_depth[static_cast<size_t>(r.depth)] = static_cast<int>(i);
    std::string cls = r.type == "FOLDER" ? "folder" : r.type == "FILE" ? "file" : r.type == "TACO" ? "root" : "more";
    s += "<rect class=\"node " + cls + "\" x=\"" + std::to_string(x - 3) + "\" y=\"" + std::to_string(y - 11) +
         "\" width=\"12\" height=\"12\" rx=\"2\"/>";
    s += "<text x=\"" + std::to_string(x + 14) + "\" y=\"" + std::to_string(y) + "\">" + E(r.label) +
         (r.type.empty() || r.type == "TACO" ? "" : " <tspan class=\"muted\">" + E(r.type) + "</tspan>") + "</text>";
  }
  return s + "</svg>";
}

std::string Group(const std::string& name) {
  size_t colon = name.find(':');
  if (colon == std::string::npos) return name == "id" || name == "type" ? "core" : "user";
  return name.substr(0, colon);
}

std::string FieldRows(const LevelFacts& l, bool internal) {
  std::string s;
  for (const auto& f : l.fields) {
    bool is_internal = f.name.rfind("internal:", 0) == 0;
    if (is_internal != internal) continue;
    s += "<tr><td><code>" + E(f.name) + "</code></td><td><code>" + E(f.type) + "</code></td><td>" + E(Group(f.name)) +
         "</td><td class=\"num\">" + FormatCount(f.nulls) + "</td><td>" +
         (f.description.empty() ? "" : E(f.description)) + "</td></tr>\n";
  }
  return s;
}

std::string Counted(const std::vector<CountedValue>& values) {
  std::string s;
  for (size_t i = 0; i < values.size(); ++i) {
    s +=
        (i ? ", " : "") + std::string("<code>") + E(values[i].value) + "</code> (" + FormatCount(values[i].count) + ")";
  }
  return s;
}

std::string Css() {
  return R"CSS(
:root{--fg:#1d2329;--muted:#5c6670;--bg:#fff;--card:#f5f7f8;--line:#d5dbe0;--accent:#1f7a4d;--sea:#e8f1f7;--land:#cfd8c6;--ext:#d1495b;--part:#2b6cb0}
@media (prefers-color-scheme:dark){:root{--fg:#e6e9ec;--muted:#9aa5ae;--bg:#15191d;--card:#1e242a;--line:#343d45;--accent:#5cc08b;--sea:#1b2833;--land:#39423a;--ext:#ff7a8a;--part:#72a8e8}}
*{box-sizing:border-box}body{margin:0;font:15px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:var(--bg)}
header{padding:28px 32px 18px;border-bottom:1px solid var(--line)}main{max-width:1100px;margin:0 auto;padding:8px 32px 48px}
h1{margin:0 0 6px;font-size:28px}h2{margin:34px 0 10px;font-size:20px;border-bottom:1px solid var(--line);padding-bottom:4px}h3{font-size:16px;margin:18px 0 6px}
.badges>span{display:inline-block;margin:2px 6px 2px 0;padding:1px 8px;border-radius:10px;background:var(--card);border:1px solid var(--line);font-size:13px}
nav a{margin-right:14px;color:var(--accent);text-decoration:none;font-size:14px}a{color:var(--accent)}
table{border-collapse:collapse;width:100%;margin:6px 0 12px;font-size:14px}th,td{border-bottom:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
th{background:var(--card)}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}caption{text-align:left;color:var(--muted);font-size:13px;padding:2px 0}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px}pre{background:var(--card);border:1px solid var(--line);padding:10px;overflow:auto;white-space:pre-wrap;word-break:break-all}
.grid2{display:grid;grid-template-columns:repeat(auto-fit,minmax(180px,1fr));gap:10px;margin:10px 0}.stat{background:var(--card);border:1px solid var(--line);border-radius:6px;padding:8px 12px}.stat b{display:block;font-size:20px}.stat span{color:var(--muted);font-size:13px}
svg.map{width:100%;height:auto;border:1px solid var(--line);border-radius:6px}svg .sea{fill:var(--sea)}svg .land{fill:var(--land);stroke:none}svg .grid line{stroke:var(--line);stroke-width:.5}
svg .extent{fill:var(--ext);fill-opacity:.18;stroke:var(--ext);stroke-width:1.5}svg .part{fill:var(--part);fill-opacity:.12;stroke:var(--part);stroke-width:1}svg .pts circle{fill:var(--ext);fill-opacity:.85;stroke:#fff;stroke-width:.5}
svg.hist{width:100%;height:auto}svg.hist rect{fill:var(--accent)}svg text{fill:var(--fg);font:12px system-ui,sans-serif}svg.tree{width:100%;max-width:720px;height:auto}
svg .edge{fill:none;stroke:var(--muted);stroke-width:1}svg .node{stroke:var(--muted)}svg .folder{fill:#e0a83a}svg .file{fill:#5b8def}svg .root{fill:var(--accent)}svg .more{fill:none}svg .muted{fill:var(--muted)}
.muted{color:var(--muted)}details{margin:6px 0}summary{cursor:pointer;color:var(--muted)}.desc{max-width:860px}footer{color:var(--muted);font-size:13px;border-top:1px solid var(--line);padding:16px 32px}
@media print{nav{display:none}header,main{padding:8px}pre{white-space:pre-wrap}}
)CSS";
}

}  // namespace

Result<std::string> WriteHtmlPage(const Model& m) {
  std::string h;
  h += "<!DOCTYPE html>\n<html lang=\"" + E(m.pub.language.empty() ? "en" : m.pub.language) +
       "\">\n<head>\n<meta charset=\"utf-8\">\n";
  h += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src "
       "data:\">\n";
  h += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  h += "<meta name=\"referrer\" content=\"no-referrer\">\n";
  h += "<meta name=\"generator\" content=\"" + E(m.generator) + "\">\n";
  std::string meta_desc = m.description.substr(0, 300);
  if (!meta_desc.empty()) h += "<meta name=\"description\" content=\"" + E(meta_desc) + "\">\n";
  h += "<title>" + E(m.title) + "</title>\n<style>" + Css() + "</style>\n";
  // Machine-readable metadata: the Croissant document when it can be built, else schema.org.
  auto croissant = BuildCroissant(m);
  json ld;
  if (croissant.ok()) {
    ld = *croissant;
  } else {
    ld = {{"@context", "https://schema.org/"}, {"@type", "Dataset"}, {"name", m.title}};
    if (!m.description.empty()) ld["description"] = m.description;
    json lic = json::array();
    for (const auto& l : m.licenses) {
      LicenseInfo info = LookupLicense(l);
      lic.push_back(info.url().empty() ? l : info.url());
    }
    if (!lic.empty()) ld["license"] = lic;
    if (!m.keywords.empty()) ld["keywords"] = m.keywords;
    if (!m.dataset_version.empty()) ld["version"] = m.dataset_version;
    if (!m.time_start.empty() && !m.time_end.empty()) ld["temporalCoverage"] = m.time_start + "/" + m.time_end;
  }
  h += "<script type=\"application/ld+json\">" + ScriptSafeJson(ld) + "</script>\n</head>\n<body>\n";

  // 1. Identity.
  h += "<header>\n<div class=\"muted\">TACO dataset</div>\n<h1 id=\"title\">" + E(m.title) +
       "</h1>\n<div class=\"badges\">";
  h += "<span>id <code>" + E(m.id) + "</code></span>";
  if (!m.dataset_version.empty()) h += "<span>version " + E(m.dataset_version) + "</span>";
  if (!m.taco_version.empty()) h += "<span>taco_version " + E(m.taco_version) + "</span>";
  for (const auto& l : m.licenses) {
    LicenseInfo info = LookupLicense(l);
    h += info.url().empty() ? "<span>" + E(l) + "</span>"
                            : "<span><a href=\"" + E(info.url()) + "\">" + E(l) + "</a></span>";
  }
  if (!m.pub.doi.empty()) h += "<span>DOI <a href=\"" + E(DoiUrl(m.pub.doi)) + "\">" + E(m.pub.doi) + "</a></span>";
  h += "<span>" + E(m.format) + "</span>";
  h += "</div>\n<nav><a href=\"#description\">Description</a><a href=\"#coverage\">Coverage</a><a "
       "href=\"#structure\">Structure</a>"
       "<a href=\"#fields\">Fields</a><a href=\"#extensions\">Extensions</a><a href=\"#providers\">Providers</a>"
       "<a href=\"#citation\">Citation</a><a href=\"#files\">Files</a><a "
       "href=\"#usage\">Usage</a></nav>\n</header>\n<main>\n";

  // 2. Description.
  h += "<section id=\"description\"><h2>Description</h2><div class=\"desc\">" +
       (m.description.empty() ? std::string("<p class=\"muted\">No description.</p>")
                              : MarkdownToHtml(m.description, 2)) +
       "</div>\n";
  if (!m.tasks.empty() || !m.keywords.empty()) {
    h += "<div class=\"badges\">";
    for (const auto& t : m.tasks) {
      HfTask hf = MapTask(t);
      h += "<span>task " + E(t) +
           (hf.category.empty() ? "" : " <span class=\"muted\">(" + E(hf.category) + ")</span>") + "</span>";
    }
    for (const auto& k : m.keywords) h += "<span>" + E(k) + "</span>";
    h += "</div>\n";
  }
  h += "</section>\n";

  // 3. Coverage.
  h += "<section id=\"coverage\"><h2>Coverage</h2>\n<div class=\"grid2\">";
  h +=
      "<div class=\"stat\"><b id=\"samples\">" + FormatCount(m.samples()) + "</b><span>samples at level 0</span></div>";
  h += "<div class=\"stat\"><b>" + FormatBytes(m.total_bytes()) + "</b><span>in " + FormatCount(m.files.size()) +
       " file entries</span></div>";
  if (!m.time_start.empty()) {
    h += "<div class=\"stat\"><b>" + E(m.time_start.substr(0, 10)) + " – " + E(m.time_end.substr(0, 10)) +
         "</b><span>temporal extent</span></div>";
  }
  if (!m.partitions.empty())
    h += "<div class=\"stat\"><b>" + FormatCount(m.partitions.size()) + "</b><span>partitions</span></div>";
  h += "</div>\n";
  h += "<p id=\"extent\">Spatial extent [W, S, E, N]: " +
       (m.bbox ? "<code>" + E(BoxText(*m.bbox)) + "</code>" +
                     ((*m.bbox)[0] > (*m.bbox)[2] ? " (crosses the antimeridian)" : "")
               : std::string("<span class=\"muted\">not given</span>")) +
       (m.time_start.empty()
            ? ""
            : " · temporal extent <code>" + E(m.time_start) + "</code> / <code>" + E(m.time_end) + "</code>") +
       "</p>\n";
  h += MapSvg(m) + "\n<p class=\"muted\">Red: dataset extent";
  if (!m.partitions.empty()) h += "; blue: partitions";
  if (!m.centroids.empty()) {
    h += "; dots: " + FormatCount(m.centroids.size()) + " of " + FormatCount(m.centroid_total) + " sample centroids (" +
         E(m.centroid_column) + (m.centroids.size() < m.centroid_total ? ", a deterministic random sample" : "") + ")";
  }
  h += ". Land: Natural Earth.</p>\n";
  if (!m.histogram.empty()) {
    h += "<h3>Samples per " + E(m.histogram_unit) + " <span class=\"muted\">(" + E(m.time_column) + ")</span></h3>\n" +
         HistogramSvg(m) + "\n";
  }
  if (!m.partitions.empty()) {
    h += "<table><caption>Partitions (taco:sources)</caption><thead><tr><th scope=\"col\">File</th><th "
         "scope=\"col\">id</th>"
         "<th scope=\"col\">Extent [W, S, E, N]</th><th scope=\"col\">Time</th></tr></thead><tbody>\n";
    for (const auto& p : m.partitions) {
      h += "<tr><td><code>" + E(p.file) + "</code></td><td>" + E(p.id) + "</td><td>" +
           (p.bbox ? E(BoxText(*p.bbox)) : "") + "</td><td>" + E(p.start.substr(0, 10)) +
           (p.end.empty() ? "" : " – " + E(p.end.substr(0, 10))) + "</td></tr>\n";
    }
    h += "</tbody></table>\n";
  }
  h += "</section>\n";

  // 4. Structure.
  h += "<section id=\"structure\"><h2>Structure</h2>\n<table><caption>Levels: real sample counts from the Parquet "
       "levels, "
       "padding rows counted apart</caption><thead><tr><th scope=\"col\">Level</th><th scope=\"col\" "
       "class=\"num\">Samples</th>"
       "<th scope=\"col\" class=\"num\">Padding</th><th scope=\"col\" class=\"num\">FILE</th><th scope=\"col\" "
       "class=\"num\">FOLDER</th>"
       "<th scope=\"col\">Pattern</th></tr></thead><tbody>\n";
  for (const auto& l : m.levels) {
    std::string pattern;
    if (!l.patterns.empty()) {
      const auto& p = l.patterns[0];
      for (size_t i = 0; i < p.size() && i < 8; ++i)
        pattern += (i ? ", " : "") + E(p[i].first) + " <span class=\"muted\">" + E(p[i].second) + "</span>";
      if (p.size() > 8) pattern += ", …";
      if (l.patterns.size() > 1)
        pattern += " <span class=\"muted\">(+" + std::to_string(l.patterns.size() - 1) + " patterns)</span>";
    }
    h += "<tr class=\"level\" data-level=\"" + std::to_string(l.level) + "\"><td>" + std::to_string(l.level) +
         "</td><td class=\"num\">" + FormatCount(l.samples()) + "</td><td class=\"num\">" +
         FormatCount(l.padding_rows) + "</td><td class=\"num\">" + FormatCount(l.files) + "</td><td class=\"num\">" +
         FormatCount(l.folders) + "</td><td>" + pattern + "</td></tr>\n";
  }
  h += "</tbody></table>\n<h3>Position-Isomorphic Tree</h3>\n" + TreeSvg(m) + "\n</section>\n";

  // 5. Fields.
  h += "<section id=\"fields\"><h2>Fields</h2>\n";
  for (const auto& l : m.levels) {
    h += "<table class=\"fields\" data-level=\"" + std::to_string(l.level) + "\"><caption>Level " +
         std::to_string(l.level) +
         "</caption><thead><tr><th scope=\"col\">Field</th><th scope=\"col\">Type</th><th scope=\"col\">Group</th>"
         "<th scope=\"col\" class=\"num\">Nulls</th><th scope=\"col\">Description</th></tr></thead><tbody>\n" +
         FieldRows(l, false) + "</tbody></table>\n";
    std::string internal = FieldRows(l, true);
    if (!internal.empty()) {
      h += "<details><summary>internal:* columns of level " + std::to_string(l.level) +
           "</summary><table><thead><tr><th scope=\"col\">Field</th><th scope=\"col\">Type</th><th "
           "scope=\"col\">Group</th>"
           "<th scope=\"col\" class=\"num\">Nulls</th><th scope=\"col\">Description</th></tr></thead><tbody>\n" +
           internal + "</tbody></table></details>\n";
    }
  }
  h += "</section>\n";

  // 6. Extensions.
  h += "<section id=\"extensions\"><h2>Extensions</h2>\n";
  bool any_ext = false;
  if (!m.label_classes.empty()) {
    any_ext = true;
    h += "<h3>Labels</h3>" + (m.labels_description.empty() ? std::string() : "<p>" + E(m.labels_description) + "</p>") +
         "<table><thead><tr><th scope=\"col\" class=\"num\">#</th><th scope=\"col\">Name</th><th "
         "scope=\"col\">Category</th>"
         "<th scope=\"col\">Description</th></tr></thead><tbody>\n";
    for (size_t i = 0; i < m.label_classes.size(); ++i) {
      const auto& c = m.label_classes[i];
      h += "<tr><td class=\"num\">" + std::to_string(i) + "</td><td>" + E(c.name) + "</td><td>" + E(c.category) +
           "</td><td>" + E(c.description) + "</td></tr>\n";
    }
    h += "</tbody></table>\n";
  }
  if (!m.bands.empty()) {
    any_ext = true;
    h += "<h3>Bands" + (m.sensor.empty() ? std::string() : " <span class=\"muted\">" + E(m.sensor) + "</span>") +
         "</h3><table><thead><tr><th scope=\"col\">Name</th><th scope=\"col\">Common name</th><th scope=\"col\" "
         "class=\"num\">"
         "Center wavelength</th><th scope=\"col\" class=\"num\">FWHM</th><th "
         "scope=\"col\">Unit</th></tr></thead><tbody>\n";
    for (const auto& b : m.bands) {
      h += "<tr><td>" + E(b.name) + "</td><td>" + E(b.common_name) + "</td><td class=\"num\">" +
           (b.center_wavelength ? FormatNumber(*b.center_wavelength) : "") + "</td><td class=\"num\">" +
           (b.fwhm ? FormatNumber(*b.fwhm) : "") + "</td><td>" + E(b.unit) + "</td></tr>\n";
    }
    h += "</tbody></table>\n";
  }
  if (!m.splits.empty() || !m.split_strategy.empty()) {
    any_ext = true;
    h +=
        "<h3>Splits</h3>" + (m.split_strategy.empty() ? std::string() : "<p>Strategy: " + E(m.split_strategy) + "</p>");
    if (!m.splits.empty()) {
      h += "<table><thead><tr><th scope=\"col\">Split</th><th scope=\"col\" "
           "class=\"num\">Samples</th></tr></thead><tbody>";
      for (const auto& s : m.splits)
        h += "<tr><td>" + E(s.value) + "</td><td class=\"num\">" + FormatCount(s.count) + "</td></tr>";
      h += "</tbody></table>\n";
    }
  }
  if (!m.crs.empty() || !m.gsd.empty() || !m.tensor_shapes.empty()) {
    any_ext = true;
    h += "<h3>Geometry</h3><ul>";
    if (!m.crs.empty()) h += "<li>CRS: " + Counted(m.crs) + "</li>";
    if (!m.gsd.empty()) h += "<li>GSD (CRS units per pixel): " + Counted(m.gsd) + "</li>";
    if (!m.tensor_shapes.empty()) h += "<li>Tensor shapes: " + Counted(m.tensor_shapes) + "</li>";
    h += "</ul>\n";
  }
  if (!any_ext) h += "<p class=\"muted\">No labels, bands, splits or geometry columns.</p>\n";
  h += "</section>\n";

  // 7. Providers and curators.
  h += "<section id=\"providers\"><h2>Providers and curators</h2>\n";
  if (m.providers.empty() && m.curators.empty()) h += "<p class=\"muted\">None given.</p>\n";
  if (!m.providers.empty()) {
    h += "<table><thead><tr><th scope=\"col\">Provider</th><th scope=\"col\">Roles</th><th "
         "scope=\"col\">Contact</th></tr></thead><tbody>\n";
    for (const auto& p : m.providers) {
      std::string roles;
      for (const auto& r : p.roles) roles += (roles.empty() ? "" : ", ") + r;
      std::string contact;
      if (p.url.rfind("http", 0) == 0) contact += "<a href=\"" + E(p.url) + "\">" + E(p.url) + "</a> ";
      for (const auto& [label, href] : p.links) {
        contact += href.rfind("http", 0) == 0 ? "<a href=\"" + E(href) + "\">" + E(label) + "</a> " : E(label) + " ";
      }
      if (!p.email.empty()) contact += E(p.email);
      h += "<tr><td>" + E(p.name) +
           (p.organization.empty() || p.organization == p.name ? "" : " (" + E(p.organization) + ")") + "</td><td>" +
           E(roles) + "</td><td>" + contact + "</td></tr>\n";
    }
    h += "</tbody></table>\n";
  }
  if (!m.curators.empty()) {
    h += "<table><thead><tr><th scope=\"col\">Curator</th><th scope=\"col\">Organization</th><th "
         "scope=\"col\">Email</th>"
         "<th scope=\"col\">Role</th></tr></thead><tbody>\n";
    for (const auto& c : m.curators) {
      h += "<tr><td>" + E(c.name) + "</td><td>" + E(c.organization) + "</td><td>" + E(c.email) + "</td><td>" +
           E(c.role) + "</td></tr>\n";
    }
    h += "</tbody></table>\n";
  }
  h += "</section>\n";

  // 8. Citation.
  h += "<section id=\"citation\"><h2>Citation</h2>\n<p>" + E(PlainCitation(m)) + "</p>\n";
  if (m.pub.publication_date.empty()) {
    h += "<p class=\"muted\">No publication date was given (sidecar key <code>publication_date</code>), so the "
         "citation has no year.</p>\n";
  }
  h += "<h3>BibTeX</h3><pre id=\"bibtex\">" + E(BibTex(m)) + "</pre>\n<h3>CITATION.cff</h3><pre>" + E(CitationCff(m)) +
       "</pre>\n";
  if (!m.publications.empty()) {
    h += "<h3>Publications</h3><ul>";
    for (const auto& p : m.publications) {
      h += "<li>" + E(p.citation.empty() ? p.doi : p.citation) +
           (p.doi.empty() ? "" : " <a href=\"" + E(DoiUrl(p.doi)) + "\">" + E(p.doi) + "</a>") +
           (p.summary.empty() ? "" : "<br><span class=\"muted\">" + E(p.summary) + "</span>") + "</li>";
    }
    h += "</ul>\n";
  }
  if (!m.pub.rai.empty()) {
    h += "<h3>Responsible AI</h3><dl>";
    for (const auto& [k, v] : m.pub.rai) h += "<dt>" + E(k) + "</dt><dd>" + E(v) + "</dd>";
    h += "</dl>\n";
  }
  h += "</section>\n";

  // 9. Files.
  h += "<section id=\"files\"><h2>Files</h2>\n<table><thead><tr><th scope=\"col\">File</th><th scope=\"col\">Role</th>"
       "<th scope=\"col\" class=\"num\">Size</th><th scope=\"col\">SHA-256</th></tr></thead><tbody>\n";
  for (const auto& f : m.files) {
    std::string name = f.name + (f.contained_in.empty() ? "" : " in " + f.contained_in) +
                       (f.file_count > 1 ? " (" + FormatCount(f.file_count) + " files)" : "");
    std::string url = f.contained_in.empty() && f.file_count <= 1 ? m.download_url(f.name) : "";
    h +=
        "<tr><td>" +
        (url.empty() ? "<code>" + E(name) + "</code>" : "<a href=\"" + E(url) + "\"><code>" + E(name) + "</code></a>") +
        "</td><td>" + E(f.role) + "</td><td class=\"num\">" + FormatBytes(f.size) + "</td><td><code>" + E(f.sha256) +
        "</code></td></tr>\n";
  }
  h += "</tbody></table>\n<p>Companion metadata: <a href=\"stac-collection.json\">stac-collection.json</a> · "
       "<a href=\"croissant.json\">croissant.json</a> · <a href=\"datacite.xml\">datacite.xml</a> · "
       "<a href=\"datacite.json\">datacite.json</a> · <a href=\"README.md\">README.md</a></p>\n</section>\n";

  // 10. Usage.
  h += "<section id=\"usage\"><h2>How to load it</h2>\n<h3>taco-cpp command line</h3><pre>taco info " +
       E(m.source_name) + "\ntaco sql " + E(m.source_name) + " \"SELECT * FROM data LIMIT 5\"\ntaco read " +
       E(m.source_name) +
       " 0        # the GDAL path of sample 0</pre>\n<h3>Python (tacoreader)</h3><pre>import tacoreader\nds = "
       "tacoreader.load(\"" +
       E(m.source_name) + "\")\nprint(ds.data)</pre>\n</section>\n";

  // 11. Provenance.
  h += "</main>\n<footer>";
  if (!m.subset_of.empty()) h += "Subset of <code>" + E(m.subset_of) + "</code> made " + E(m.subset_date) + ". ";
  h += "Generated by " + E(m.generator) + " on " + E(m.generated_at) + " from <code>" + E(m.source_name) +
       "</code>. This page loads nothing from the network.</footer>\n</body>\n</html>\n";
  return h;
}

}  // namespace taco::publish
