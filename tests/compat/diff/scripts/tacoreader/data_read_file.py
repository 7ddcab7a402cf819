"""ds.data columns and types; read(int) and read(id) of a FILE give its GDAL path."""
# inputs: flat_zip
# parity: R19 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

ds = tacoreader.load(f"{sys.argv[1]}/flat.tacozip")
tdf = ds.data
diffkit.emit({"frame": type(tdf).__name__, "len": len(tdf), "columns": list(tdf.columns),
              "read0": tdf.read(0), "read_id": tdf.read("s3"), "ds_read": ds.read(1),
              "missing": diffkit.run(tdf.read, "nope")})
