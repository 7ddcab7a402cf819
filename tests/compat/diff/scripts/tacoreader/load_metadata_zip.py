"""tacoreader.load() of a ZIP dataset: the STAC-like metadata attributes and their types."""
# inputs: flat_zip
# parity: R1 R14 R15 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

ds = tacoreader.load(f"{sys.argv[1]}/flat.tacozip")
diffkit.emit({
    "version": tacoreader.__version__,
    "type": type(ds).__name__,
    "id": ds.id, "dataset_version": ds.version, "description": ds.description, "tasks": ds.tasks,
    "licenses": ds.licenses, "providers": ds.providers, "title": ds.title, "keywords": ds.keywords,
    "curators": ds.curators, "extent": ds.extent,
    "pit_schema": ds.pit_schema.to_dict(), "max_depth": ds.pit_schema.max_depth(),
})
