"""load() of a .tacocat folder: metadata and PIT schema of the consolidated dataset."""
# inputs: tacocat
# parity: R1 R14 R15 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/cat/.tacocat")
diffkit.emit({"id": ds.id, "version": ds.version, "extent": ds.extent, "pit": ds.pit_schema.to_dict(),
              "max_depth": ds.pit_schema.max_depth(), "n": len(ds.data)})
