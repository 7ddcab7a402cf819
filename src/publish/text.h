// Shared vocabulary of the publication writers: escaping, number and size formatting, licence
// and task tables, size buckets, and the citation texts (BibTeX, CFF, plain).
#ifndef TACO_SRC_PUBLISH_TEXT_H_
#define TACO_SRC_PUBLISH_TEXT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "publish/model.h"

namespace taco::publish {

// &, <, >, ", ' as entities (valid in XML text, attributes and HTML).
std::string XmlEscape(std::string_view s);
// Shortest text that reads back as the same double ("10", "0.5", "-77.0123").
std::string FormatNumber(double v);
// "9,193 B" style for people: "9.0 KiB", "1.2 GiB"; exact bytes below 1 KiB.
std::string FormatBytes(uint64_t bytes);
// 1234567 → "1,234,567".
std::string FormatCount(uint64_t n);

// A licence as written in COLLECTION.json, looked up in the vendored table (SPDX id ↔ Hugging
// Face id). `spdx` is empty for a licence that is not a known SPDX id.
struct LicenseInfo {
  std::string given;
  std::string spdx;         // canonical SPDX id, or empty
  std::string hf;           // Hugging Face id, or "other"
  std::string url() const;  // https://spdx.org/licenses/<id>.html, or empty
};
LicenseInfo LookupLicense(const std::string& license);

// TACO task → Hugging Face task category (EXPORTERS §4.4), or empty; `task_id` the sub task.
struct HfTask {
  std::string category;
  std::string task_id;
};
HfTask MapTask(const std::string& taco_task);

// Hugging Face size bucket of a sample count: "n<1K", "1K<n<10K", …
std::string SizeCategory(uint64_t n);

// Authors for citations: sidecar creators, else providers (organisations).
struct Author {
  std::string display;  // "Family, Given" or the organisation
  std::string given, family;
  bool organization = false;
  std::string orcid;
};
std::vector<Author> CitationAuthors(const Model& m);
// The year a citation names: the publication date's, else "" (never invented: BibTeX then
// has no year field and the plain citation says "n.d.").
std::string CitationYear(const Model& m);

std::string BibTex(const Model& m);
std::string CitationCff(const Model& m);
std::string PlainCitation(const Model& m);

// "https://doi.org/<doi>" or empty.
std::string DoiUrl(const std::string& doi);

}  // namespace taco::publish

#endif  // TACO_SRC_PUBLISH_TEXT_H_
