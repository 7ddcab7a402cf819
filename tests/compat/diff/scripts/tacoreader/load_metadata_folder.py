"""load() of a FOLDER dataset: metadata attributes, pit_schema, format-independent fields."""
# inputs: flat_folder
# parity: R1 R14 R15 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/flat_folder")
diffkit.emit({"id": ds.id, "version": ds.version, "description": ds.description, "tasks": ds.tasks,
              "licenses": ds.licenses, "providers": ds.providers, "title": ds.title, "keywords": ds.keywords,
              "extent": ds.extent, "pit": ds.pit_schema.to_dict()})
