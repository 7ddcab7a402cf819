"""The submodules user code imports resolve (dataset, dataframe, schema, concat, loader)."""
# inputs: flat_zip
# parity: issue 23: private modules (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

import importlib

out = {}
for m in ("tacoreader.dataset", "tacoreader.dataframe", "tacoreader.dataframe.base", "tacoreader.schema",
          "tacoreader.concat", "tacoreader.loader", "tacoreader._constants", "tacoreader._exceptions", "tacoreader.v1"):
    try:
        importlib.import_module(m)
        out[m] = "ok"
    except Exception as e:
        out[m] = type(e).__name__
from tacoreader.dataset import TacoDataset
from tacoreader.dataframe.base import TacoDataFrame
out["same"] = TacoDataset is tacoreader.TacoDataset and TacoDataFrame is tacoreader.TacoDataFrame
diffkit.emit(out)
