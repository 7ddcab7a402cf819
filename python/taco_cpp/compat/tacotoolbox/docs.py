"""``generate_markdown``/``generate_html`` render tacotoolbox's own templates (jinja2, d3):
not reimplemented. Use ``taco publish DATASET OUT --only hf,html`` for a dataset card and a
page. Both raise NotSupportedError naming that command."""

from __future__ import annotations

from ._exceptions import NotSupportedError


def generate_markdown(input, output="README.md", dataset_example_path=None):
    raise NotSupportedError("tacotoolbox.generate_markdown is not reimplemented by taco_cpp.compat; "
                            "use `taco publish DATASET OUTDIR --only hf` for a dataset card")


def generate_html(input, output="index.html", inline_deps=True, catalogue_url=None, download_base_url=None,
                  theme_color="#4CAF50", dataset_example_path=None):
    raise NotSupportedError("tacotoolbox.generate_html is not reimplemented by taco_cpp.compat; "
                            "use `taco publish DATASET OUTDIR --only html`")
