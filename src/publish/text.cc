#include "publish/text.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace taco::publish {
namespace {

// SPDX id → Hugging Face licence id (https://huggingface.co/docs/hub/repositories-licenses; only
// the ids that are also SPDX ids). Lookup is case-insensitive on the SPDX id.
struct LicenseRow {
  const char* spdx;
  const char* hf;
};
constexpr LicenseRow kLicenses[] = {
    {"Apache-2.0", "apache-2.0"},
    {"MIT", "mit"},
    {"AFL-3.0", "afl-3.0"},
    {"Artistic-2.0", "artistic-2.0"},
    {"BSL-1.0", "bsl-1.0"},
    {"BSD-2-Clause", "bsd-2-clause"},
    {"BSD-3-Clause", "bsd-3-clause"},
    {"BSD-3-Clause-Clear", "bsd-3-clause-clear"},
    {"CC0-1.0", "cc0-1.0"},
    {"CC-BY-2.0", "cc-by-2.0"},
    {"CC-BY-2.5", "cc-by-2.5"},
    {"CC-BY-3.0", "cc-by-3.0"},
    {"CC-BY-4.0", "cc-by-4.0"},
    {"CC-BY-SA-3.0", "cc-by-sa-3.0"},
    {"CC-BY-SA-4.0", "cc-by-sa-4.0"},
    {"CC-BY-NC-2.0", "cc-by-nc-2.0"},
    {"CC-BY-NC-3.0", "cc-by-nc-3.0"},
    {"CC-BY-NC-4.0", "cc-by-nc-4.0"},
    {"CC-BY-ND-4.0", "cc-by-nd-4.0"},
    {"CC-BY-NC-ND-3.0", "cc-by-nc-nd-3.0"},
    {"CC-BY-NC-ND-4.0", "cc-by-nc-nd-4.0"},
    {"CC-BY-NC-SA-2.0", "cc-by-nc-sa-2.0"},
    {"CC-BY-NC-SA-3.0", "cc-by-nc-sa-3.0"},
    {"CC-BY-NC-SA-4.0", "cc-by-nc-sa-4.0"},
    {"CDLA-Sharing-1.0", "cdla-sharing-1.0"},
    {"CDLA-Permissive-1.0", "cdla-permissive-1.0"},
    {"CDLA-Permissive-2.0", "cdla-permissive-2.0"},
    {"WTFPL", "wtfpl"},
    {"ECL-2.0", "ecl-2.0"},
    {"EPL-1.0", "epl-1.0"},
    {"EPL-2.0", "epl-2.0"},
    {"etalab-2.0", "etalab-2.0"},
    {"EUPL-1.1", "eupl-1.1"},
    {"EUPL-1.2", "eupl-1.2"},
    {"AGPL-3.0", "agpl-3.0"},
    {"AGPL-3.0-only", "agpl-3.0"},
    {"GPL-2.0", "gpl-2.0"},
    {"GPL-2.0-only", "gpl-2.0"},
    {"GPL-3.0", "gpl-3.0"},
    {"GPL-3.0-only", "gpl-3.0"},
    {"LGPL-2.1", "lgpl-2.1"},
    {"LGPL-2.1-only", "lgpl-2.1"},
    {"LGPL-3.0", "lgpl-3.0"},
    {"LGPL-3.0-only", "lgpl-3.0"},
    {"ISC", "isc"},
    {"LPPL-1.3c", "lppl-1.3c"},
    {"MS-PL", "ms-pl"},
    {"MPL-2.0", "mpl-2.0"},
    {"ODC-By-1.0", "odc-by"},
    {"ODbL-1.0", "odbl"},
    {"OSL-3.0", "osl-3.0"},
    {"PostgreSQL", "postgresql"},
    {"OFL-1.1", "ofl-1.1"},
    {"NCSA", "ncsa"},
    {"Unlicense", "unlicense"},
    {"Zlib", "zlib"},
    {"PDDL-1.0", "pddl"},
};

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// BibTeX: braces around the value; escape the LaTeX specials.
std::string TexEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "\\&"; break;
      case '%': out += "\\%"; break;
      case '$': out += "\\$"; break;
      case '#': out += "\\#"; break;
      case '_': out += "\\_"; break;
      case '{': out += "\\{"; break;
      case '}': out += "\\}"; break;
      case '~': out += "\\textasciitilde{}"; break;
      case '^': out += "\\textasciicircum{}"; break;
      case '\\': out += "\\textbackslash{}"; break;
      default: out += c;
    }
  }
  return out;
}

// YAML double-quoted scalar.
std::string YamlQuote(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string Trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

}  // namespace

std::string XmlEscape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string FormatNumber(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[64];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  // "%g" picks exponents for round numbers ("1.8e+02"); people and some parsers want "180".
  if (std::strchr(buf, 'e') != nullptr && std::fabs(v) >= 1e-4 && std::fabs(v) < 1e15) {
    for (int decimals = 0; decimals <= 17; ++decimals) {
      std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
      if (std::strtod(buf, nullptr) == v) break;
    }
  }
  return buf;
}

std::string FormatCount(uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string FormatBytes(uint64_t bytes) {
  if (bytes < 1024) return FormatCount(bytes) + " B";
  const char* units[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
  double v = static_cast<double>(bytes);
  int u = -1;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

std::string LicenseInfo::url() const { return spdx.empty() ? "" : "https://spdx.org/licenses/" + spdx + ".html"; }

LicenseInfo LookupLicense(const std::string& license) {
  LicenseInfo info;
  info.given = license;
  info.hf = "other";
  std::string key = Lower(Trim(license));
  for (const auto& row : kLicenses) {
    if (Lower(row.spdx) == key) {
      info.spdx = row.spdx;
      info.hf = row.hf;
      break;
    }
  }
  return info;
}

HfTask MapTask(const std::string& taco_task) {
  const std::string t = Lower(taco_task);
  if (t == "classification" || t == "scene-classification")
    return {"image-classification", "multi-class-image-classification"};
  if (t == "detection" || t == "object-detection") return {"object-detection", ""};
  if (t == "segmentation" || t == "semantic-segmentation") return {"image-segmentation", "semantic-segmentation"};
  if (t == "instance-segmentation") return {"image-segmentation", "instance-segmentation"};
  if (t == "panoptic-segmentation") return {"image-segmentation", "panoptic-segmentation"};
  if (t == "super-resolution") return {"image-to-image", "super-resolution"};
  if (t == "inpainting") return {"image-to-image", "image-inpainting"};
  if (t == "colorization") return {"image-to-image", "image-colorization"};
  if (t == "denoising" || t == "deblurring" || t == "dehazing" || t == "style-transfer") return {"image-to-image", ""};
  if (t == "image-captioning") return {"image-to-text", "image-captioning"};
  if (t == "generative") return {"unconditional-image-generation", ""};
  if (t == "similarity-search" || t == "foundation-model") return {"image-feature-extraction", ""};
  return {};
}

std::string SizeCategory(uint64_t n) {
  struct Bucket {
    uint64_t below;
    const char* name;
  };
  constexpr Bucket kBuckets[] = {{1000ULL, "n<1K"},
                                 {10000ULL, "1K<n<10K"},
                                 {100000ULL, "10K<n<100K"},
                                 {1000000ULL, "100K<n<1M"},
                                 {10000000ULL, "1M<n<10M"},
                                 {100000000ULL, "10M<n<100M"},
                                 {1000000000ULL, "100M<n<1B"},
                                 {10000000000ULL, "1B<n<10B"},
                                 {100000000000ULL, "10B<n<100B"},
                                 {1000000000000ULL, "100B<n<1T"}};
  for (const auto& b : kBuckets) {
    if (n < b.below) return b.name;
  }
  return "n>1T";
}

std::string DoiUrl(const std::string& doi) { return doi.empty() ? "" : "https://doi.org/" + doi; }

std::vector<Author> CitationAuthors(const Model& m) {
  std::vector<Author> out;
  for (const auto& c : m.pub.creators) {
    Author a;
    a.organization = c.organization;
    a.given = c.given_name;
    a.family = c.family_name;
    a.display = c.name;
    a.orcid = c.orcid;
    if (a.display.empty() && !a.family.empty()) a.display = a.family + (a.given.empty() ? "" : ", " + a.given);
    out.push_back(std::move(a));
  }
  if (out.empty()) {
    for (const auto& p : m.providers) {
      Author a;
      a.organization = true;
      a.display = p.name;
      out.push_back(std::move(a));
    }
  }
  return out;
}

std::string CitationYear(const Model& m) {
  if (!m.pub.publication_date.empty()) return m.pub.publication_date.substr(0, 4);
  return "";
}

std::string BibTex(const Model& m) {
  std::string key;
  for (char c : m.id) key += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  if (std::string year = CitationYear(m); !year.empty()) key += '_' + year;
  std::string authors;
  for (const auto& a : CitationAuthors(m)) {
    if (!authors.empty()) authors += " and ";
    if (a.organization) {
      authors += '{';
      authors += TexEscape(a.display);
      authors += '}';
    } else {
      authors += TexEscape(a.display);
    }
  }
  std::string out = "@misc{" + key + ",\n";
  auto field = [&](const std::string& name, const std::string& value) {
    if (!value.empty()) out += "  " + name + " = {" + value + "},\n";
  };
  field("author", authors);
  field("title", std::string("{").append(TexEscape(m.title)).append("}"));
  field("year", CitationYear(m));
  field("publisher", TexEscape(m.pub.publisher));
  field("version", TexEscape(m.dataset_version));
  field("doi", TexEscape(m.pub.doi));
  std::string url = m.landing_url();
  if (url.empty() && !m.pub.doi.empty()) url = DoiUrl(m.pub.doi);
  field("url", url.empty() ? "" : "\\url{" + url + "}");
  field("note", "TACO dataset " + TexEscape(m.id));
  out.resize(out.size() - 2);  // the last ",\n"
  return out + "\n}\n";
}

std::string CitationCff(const Model& m) {
  std::string out =
      "cff-version: 1.2.0\nmessage: \"If you use this dataset, please cite it as below.\"\ntype: dataset\n";
  out += "title: " + YamlQuote(m.title) + "\n";
  auto authors = CitationAuthors(m);
  if (!authors.empty()) {
    out += "authors:\n";
    for (const auto& a : authors) {
      if (a.organization || a.family.empty()) {
        out += "  - name: " + YamlQuote(a.display) + "\n";
      } else {
        out += "  - family-names: " + YamlQuote(a.family) + "\n";
        if (!a.given.empty()) out += "    given-names: " + YamlQuote(a.given) + "\n";
      }
      if (!a.orcid.empty()) out += "    orcid: " + YamlQuote("https://orcid.org/" + a.orcid) + "\n";
    }
  }
  if (!m.dataset_version.empty()) out += "version: " + YamlQuote(m.dataset_version) + "\n";
  if (!m.pub.doi.empty()) out += "doi: " + YamlQuote(m.pub.doi) + "\n";
  if (!m.pub.publication_date.empty()) out += "date-released: " + YamlQuote(m.pub.publication_date) + "\n";
  if (!m.licenses.empty()) {
    LicenseInfo l = LookupLicense(m.licenses[0]);
    if (!l.spdx.empty() && m.licenses.size() == 1) out += "license: " + YamlQuote(l.spdx) + "\n";
  }
  if (std::string url = m.landing_url(); !url.empty()) out += "url: " + YamlQuote(url) + "\n";
  return out;
}

std::string PlainCitation(const Model& m) {
  std::string authors;
  auto list = CitationAuthors(m);
  for (size_t i = 0; i < list.size(); ++i) {
    if (i > 0) authors += i + 1 == list.size() ? " & " : "; ";
    authors += list[i].display;
  }
  std::string out = authors.empty() ? "" : authors + " ";
  std::string year = CitationYear(m);
  out += '(' + (year.empty() ? std::string("n.d.") : year) + "). ";
  out += m.title;
  if (!m.dataset_version.empty()) out += " (Version " + m.dataset_version + ")";
  out += " [Data set].";
  if (!m.pub.publisher.empty()) out += " " + m.pub.publisher + ".";
  if (!m.pub.doi.empty()) {
    out += ' ';
    out += DoiUrl(m.pub.doi);
  } else if (std::string url = m.landing_url(); !url.empty()) {
    out += " " + url;
  }
  return out;
}

}  // namespace taco::publish
