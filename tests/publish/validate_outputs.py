#!/usr/bin/env python3
"""Offline validators for the files `taco publish` writes (used by tests/publish).

Usage: validate_outputs.py KIND FILE [--root DIR]
  stac           STAC Collection 1.0.0: the vendored official JSON Schema (no network), and no
                 null outside extent.temporal.interval.
  datacite-xml   DataCite 4.5: `xmllint --noout --nonet --schema` against a 4.5 view of the
                 vendored kernel-4 XSD (schemas/README.md).
  datacite-json  DataCite JSON: the vendored Invenio datacite-v4.5 JSON Schema.
  croissant      Croissant 1.0: JSON-LD parse (rdflib), our checks of the required properties,
                 then mlcroissant (pinned) loading the document offline.
  hf             Hugging Face card: the Hub's front-matter regex, YAML, and the Hub's field rules
                 (licence ids, task categories/ids of @huggingface/tasks, size buckets; with
                 --root, every configs data_files path exists under DIR).
Exit 0 when valid; 1 with one line per problem on stderr.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMAS = os.path.join(HERE, "schemas")

# Values DataCite 4.6 added to 4.5 (schema revision history of kernel-4.6 metadata.xsd).
DATACITE_46_ONLY = {
    "datacite-resourceType-v4.xsd": ["Award", "Project"],
    "datacite-relatedIdentifierType-v4.xsd": ["CSTR", "RRID"],  # absent in this copy (README)
    "datacite-contributorType-v4.xsd": ["Translator"],
    "datacite-relationType-v4.xsd": ["HasTranslation", "IsTranslationOf"],
    "datacite-dateType-v4.xsd": ["Coverage"],
}

# Hugging Face licence ids (https://huggingface.co/docs/hub/repositories-licenses).
HF_LICENSES = set("""apache-2.0 mit openrail bigscience-openrail-m creativeml-openrail-m
bigscience-bloom-rail-1.0 bigcode-openrail-m afl-3.0 artistic-2.0 bsl-1.0 bsd bsd-2-clause
bsd-3-clause bsd-3-clause-clear c-uda cc cc0-1.0 cc-by-2.0 cc-by-2.5 cc-by-3.0 cc-by-4.0
cc-by-sa-3.0 cc-by-sa-4.0 cc-by-nc-2.0 cc-by-nc-3.0 cc-by-nc-4.0 cc-by-nd-4.0 cc-by-nc-nd-3.0
cc-by-nc-nd-4.0 cc-by-nc-sa-2.0 cc-by-nc-sa-3.0 cc-by-nc-sa-4.0 cdla-sharing-1.0
cdla-permissive-1.0 cdla-permissive-2.0 wtfpl ecl-2.0 epl-1.0 epl-2.0 etalab-2.0 eupl-1.1
eupl-1.2 agpl-3.0 gfdl gpl gpl-2.0 gpl-3.0 lgpl lgpl-2.1 lgpl-3.0 isc h-research
intel-research lppl-1.3c ms-pl apple-ascl apple-amlr mpl-2.0 odc-by odbl openmdw-1.0
openrail++ osl-3.0 postgresql ofl-1.1 ncsa unlicense zlib pddl lgpl-lr
deepfloyd-if-license fair-noncommercial-research-license llama2 llama3 llama3.1 llama3.2
llama3.3 llama4 grok2-community gemma unknown other""".split())

HF_SIZES = ["n<1K", "1K<n<10K", "10K<n<100K", "100K<n<1M", "1M<n<10M", "10M<n<100M",
            "100M<n<1B", "1B<n<10B", "10B<n<100B", "100B<n<1T", "n>1T", "other"]

# The Hub's front-matter regex (huggingface_hub repocard.py).
FRONT_MATTER = re.compile(r"^(\s*---(?:\r\n|\r|\n))([\S\s]*?)((?:\r\n|\r|\n)---[ \t]*(\r\n|\n|$))")


def fail(problems):
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


def no_network(uri):
    raise LookupError(f"refusing to fetch {uri} (offline validation)")


def check_stac(path):
    import jsonschema
    from referencing import Registry, Resource
    schema_path = os.path.join(SCHEMAS, "stac-1.0.0", "collection-spec", "json-schema", "collection.json")
    schema = json.load(open(schema_path))
    registry = Registry(retrieve=lambda uri: no_network(uri)).with_resource(
        schema["$id"].rstrip("#"), Resource.from_contents(schema))
    doc = json.load(open(path))
    validator = jsonschema.Draft7Validator(schema, registry=registry)
    problems = [f"{path}: {'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(doc)]

    def walk(node, where):
        if node is None and not where.startswith("/extent/temporal/interval"):
            problems.append(f"{path}: {where}: null")
        elif isinstance(node, dict):
            for k, v in node.items():
                walk(v, f"{where}/{k}")
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, f"{where}/{i}")
    walk(doc, "")
    return problems


def datacite45_view(tmp):
    src = os.path.join(SCHEMAS, "datacite-kernel-4.6")
    dst = os.path.join(tmp, "kernel-4.5-view")
    shutil.copytree(src, dst)
    for name, values in DATACITE_46_ONLY.items():
        p = os.path.join(dst, "include", name)
        text = open(p).read()
        for v in values:
            text, n = re.subn(r'\s*<xs:enumeration value="%s"\s*/>' % re.escape(v), "", text)
            if n > 1:
                raise RuntimeError(f"{name}: enumeration {v} found {n} times")
        open(p, "w").write(text)
    return os.path.join(dst, "metadata.xsd")


def check_datacite_xml(path):
    with tempfile.TemporaryDirectory() as tmp:
        xsd = datacite45_view(tmp)
        r = subprocess.run(["xmllint", "--noout", "--nonet", "--schema", xsd, path],
                           capture_output=True, text=True)
        if r.returncode != 0:
            return [line for line in r.stderr.splitlines() if line.strip()] or [f"xmllint exit {r.returncode}"]
    return []


def check_datacite_json(path):
    import jsonschema
    schema = json.load(open(os.path.join(SCHEMAS, "datacite-json", "datacite-v4.5.json")))
    doc = json.load(open(path))
    validator = jsonschema.Draft201909Validator(schema)
    return [f"{path}: {'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(doc)]


def check_croissant(path):
    problems = []
    doc = json.load(open(path))
    # 1. JSON-LD well-formedness (inline context, nothing fetched).
    import rdflib
    graph = rdflib.Graph()
    try:
        graph.parse(data=json.dumps(doc), format="json-ld")
    except Exception as e:  # noqa: BLE001
        return [f"{path}: not well-formed JSON-LD: {e}"]
    if len(graph) == 0:
        problems.append(f"{path}: JSON-LD yields no triples")
    # 2. Croissant 1.0 required properties (croissant-spec.md "Required") and mlcroissant's
    #    FileObject/FileSet/Field rules.
    if not isinstance(doc.get("@context"), dict):
        problems.append(f"{path}: @context must be the inline Croissant context")
    if doc.get("@type") != "sc:Dataset":
        problems.append(f"{path}: @type must be sc:Dataset")
    conforms = doc.get("conformsTo")
    conforms = conforms if isinstance(conforms, list) else [conforms]
    if "http://mlcommons.org/croissant/1.0" not in conforms:
        problems.append(f"{path}: conformsTo must name http://mlcommons.org/croissant/1.0")
    for key in ["name", "description", "license", "url", "creator", "datePublished"]:
        if not doc.get(key):
            problems.append(f"{path}: required property {key} missing or empty")
    ids = set()
    for res in doc.get("distribution", []):
        rid = res.get("@id")
        if not rid:
            problems.append(f"{path}: distribution entry without @id")
        ids.add(rid)
        if not res.get("encodingFormat"):
            problems.append(f"{path}: {rid}: encodingFormat missing")
        if res.get("@type") == "cr:FileObject" and "containedIn" not in res:
            if not res.get("contentUrl"):
                problems.append(f"{path}: {rid}: contentUrl missing")
            if not (res.get("sha256") or res.get("md5")):
                problems.append(f"{path}: {rid}: sha256/md5 missing")
        if res.get("@type") == "cr:FileSet" and not res.get("includes"):
            problems.append(f"{path}: {rid}: includes missing")
    for rs in doc.get("recordSet", []):
        for f in rs.get("field", []):
            if not f.get("dataType"):
                problems.append(f"{path}: {f.get('@id')}: dataType missing")
            src = f.get("source", {})
            ref = (src.get("fileObject") or src.get("fileSet") or {}).get("@id")
            if src and ref not in ids:
                problems.append(f"{path}: {f.get('@id')}: source names unknown resource {ref}")
    if problems:
        return problems
    # 3. The reference validator.
    import logging
    import mlcroissant as mlc
    logging.disable(logging.WARNING)
    try:
        mlc.Dataset(jsonld=path)
    except Exception as e:  # noqa: BLE001  (mlc.ValidationError and friends)
        return [f"{path}: mlcroissant: {str(e).strip()}"]
    return []


def hf_tasks():
    script = ("import('@huggingface/tasks').then(m => { const out = {}; "
              "for (const [k, v] of Object.entries(m.PIPELINE_DATA)) out[k] = (v.subtasks || []).map(s => s.type); "
              "console.log(JSON.stringify(out)); })")
    r = subprocess.run(["node", "-e", script], cwd=os.path.join(HERE, "browser"), capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("cannot read @huggingface/tasks (run npm ci in tests/publish/browser): " + r.stderr.strip())
    return json.loads(r.stdout)


def check_hf(path, root=None):
    import yaml
    text = open(path, encoding="utf-8").read()
    m = FRONT_MATTER.search(text)
    if not m or m.start() != 0:
        return [f"{path}: no YAML front matter at the top (the Hub's regex does not match)"]
    try:
        meta = yaml.safe_load(m.group(2))
    except yaml.YAMLError as e:
        return [f"{path}: front matter is not valid YAML: {e}"]
    if not isinstance(meta, dict):
        return [f"{path}: front matter is not a mapping"]
    problems = []
    lic = meta.get("license")
    lics = lic if isinstance(lic, list) else [lic]
    for item in lics:
        if not isinstance(item, str) or item not in HF_LICENSES:
            problems.append(f"{path}: license {item!r} is not a Hugging Face licence id")
    if "other" in lics and not meta.get("license_name"):
        problems.append(f"{path}: license other needs license_name")
    if "pretty_name" in meta and not isinstance(meta["pretty_name"], str):
        problems.append(f"{path}: pretty_name must be a string")
    tasks = hf_tasks()
    categories = meta.get("task_categories", [])
    if not isinstance(categories, list):
        problems.append(f"{path}: task_categories must be a list")
        categories = []
    for c in categories:
        if c not in tasks:
            problems.append(f"{path}: task_categories {c!r} is not a Hub task")
    allowed_ids = {s for c in categories for s in tasks.get(c, [])}
    for t in meta.get("task_ids", []) or []:
        if t not in allowed_ids:
            problems.append(f"{path}: task_ids {t!r} is not a subtask of {categories}")
    sizes = meta.get("size_categories", [])
    if not isinstance(sizes, list) or not sizes or any(s not in HF_SIZES for s in sizes):
        problems.append(f"{path}: size_categories {sizes!r} not in {HF_SIZES}")
    tags = meta.get("tags", [])
    if not isinstance(tags, list) or any(not isinstance(t, str) for t in tags):
        problems.append(f"{path}: tags must be a list of strings")
    for cfg in meta.get("configs", []) or []:
        if not isinstance(cfg, dict) or "config_name" not in cfg or "data_files" not in cfg:
            problems.append(f"{path}: configs entry needs config_name and data_files")
            continue
        files = cfg["data_files"]
        files = [files] if isinstance(files, str) else [f["path"] if isinstance(f, dict) else f for f in files]
        if root:
            for f in files:
                if not os.path.exists(os.path.join(root, f)):
                    problems.append(f"{path}: configs data_files {f!r} does not exist under {root}")
    return problems


def main():
    args = sys.argv[1:]
    root = None
    if "--root" in args:
        i = args.index("--root")
        root = args[i + 1]
        del args[i:i + 2]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    kind, path = args
    checks = {"stac": check_stac, "datacite-xml": check_datacite_xml, "datacite-json": check_datacite_json,
              "croissant": check_croissant, "hf": lambda p: check_hf(p, root)}
    if kind not in checks:
        print(f"unknown kind {kind}", file=sys.stderr)
        return 2
    return fail(checks[kind](path))


if __name__ == "__main__":
    sys.exit(main())
