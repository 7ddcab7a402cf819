// `taco publish DATASET OUTDIR [--publication FILE] [--only LIST] [--base-url URL] [--overwrite]`:
// STAC Collection, Croissant, DataCite XML/JSON, Hugging Face card and a self-contained HTML page.
#include <iostream>

#include "cli_common.h"
#include "taco/publish.h"

namespace taco::cli {
namespace {

constexpr const char* kFooter = R"(Outputs (all by default; --only picks some):
  stac       stac-collection.json   STAC Collection 1.0.0
  croissant  croissant.json         Croissant 1.0 JSON-LD (+RAI, GeoCroissant properties)
  datacite   datacite.xml + .json   DataCite Metadata Schema 4.5 (XML and DataCite JSON)
  hf         README.md              Hugging Face dataset card (YAML header + body)
  html       index.html             self-contained page: no scripts, no network

The publication sidecar (--publication FILE.json) gives what TACO never stores. Every key is
optional, but some standards require some of them; taco publish names the missing key and the
standard instead of inventing a value:
  {
    "doi": "10.5281/zenodo.1234567",           DataCite identifier (required by datacite)
    "landing_url": "https://example.org/ds",   Croissant url (required by croissant, or a doi)
    "download_base_url": "https://host/data/", where the container files are (--base-url wins)
    "publisher": "Example Data Centre",        DataCite publisher (or a provider with role host)
    "publisher_ror": "https://ror.org/...",
    "publication_date": "2026-01-31",          DataCite publicationYear, Croissant datePublished
    "creators": [{"name": "Doe, Jane", "given_name": "Jane", "family_name": "Doe",
                  "orcid": "0000-0002-1825-0097", "affiliation": "Univ", "affiliation_ror": "..."},
                 {"name": "Example Agency", "organization": true, "ror": "https://ror.org/..."}],
    "language": "en",
    "funding": [{"funder_name": "...", "funder_identifier": "...", "funder_identifier_type": "ROR",
                 "award_number": "...", "award_title": "..."}],
    "rai": {"dataBiases": "...", "dataLimitations": "...", "dataUseCases": "..."},
    "same_as": ["https://huggingface.co/datasets/org/name"]
  }
Without creators, the collection's providers are the creators. Without a sidecar, only stac, hf
and html can be written: use --only stac,hf,html.

DATASET is a local .tacozip, FOLDER, .tacocat (or a directory holding one), __TACOCAT__, or a
TACOLLECTION.json whose taco:sources.files sit beside it. Each container file is hashed (sha256).
Files are written under temporary names and renamed when all are complete; existing files are
kept unless --overwrite.)";

struct PublishArgs {
  std::string dataset;
  std::string outdir;
  std::string publication;
  std::string only;
  std::string base_url;
  bool overwrite = false;
  uint64_t max_points = 2000;
};

int RunPublish(const PublishArgs& args, const Context& ctx) {
  PublishOptions options;
  options.open = DatasetOpenOptions(ctx.global);
  if (!args.publication.empty()) {
    auto pub = ReadPublicationFile(args.publication);
    if (!pub.ok()) return ReportError(pub.status().WithPrefix("publish"));
    options.publication = *pub;
  }
  if (!args.only.empty()) {
    auto only = ParsePublishOutputs(args.only);
    if (!only.ok()) return ReportError(only.status().WithPrefix("publish"));
    options.only = *only;
  }
  if (!args.base_url.empty() && args.base_url.rfind("http://", 0) != 0 && args.base_url.rfind("https://", 0) != 0) {
    return ReportError(Status::InvalidArgument("publish: --base-url must start with http:// or https://"));
  }
  options.base_url = args.base_url;
  options.overwrite = args.overwrite;
  options.max_map_points = args.max_points;
  auto result = Publish(args.dataset, args.outdir, options);
  if (!result.ok()) return ReportError(result.status().WithPrefix("publish"));
  if (!ctx.global.quiet) {
    for (const auto& path : result->written) std::cout << path << "\n";
  }
  return kExitOk;
}

void AddPublishCommand(CLI::App& app, Context& ctx) {
  auto args = std::make_shared<PublishArgs>();
  CLI::App* cmd = app.add_subcommand(
      "publish",
      "Write the dataset's STAC Collection, Croissant JSON-LD, DataCite XML/JSON, Hugging Face card and a "
      "self-contained HTML page into OUTDIR. Prints the files written.");
  cmd->add_option("dataset", args->dataset, "Local dataset (ZIP, FOLDER, TACOCAT, TACOLLECTION.json)")->required();
  cmd->add_option("outdir", args->outdir, "Output directory (created when missing)")->required();
  cmd->add_option("--publication", args->publication,
                  "Publication sidecar JSON (DOI, dates, creators, ...; see below)");
  cmd->add_option("--only", args->only, "Comma-separated outputs: stac,croissant,datacite,hf,html");
  cmd->add_option("--base-url", args->base_url, "Download base URL of the container files (http/https)");
  cmd->add_flag("--overwrite", args->overwrite, "Replace existing output files");
  cmd->add_option("--max-map-points", args->max_points,
                  "Sample centroids drawn on the HTML map at most (default 2000)");
  cmd->footer(kFooter);
  cmd->callback([args, &ctx] { ctx.exit_code = RunPublish(*args, ctx); });
}

const CommandRegistration kRegistered(145, &AddPublishCommand);

}  // namespace
}  // namespace taco::cli
