"""A training-style loop: ds.read(i).read('image.tif') for every sample."""
# inputs: nested_zip
# parity: R27 R40 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

ds = tacoreader.load(f"{W}/nested.tacozip")
paths = [ds.read(i).read("image.tif") for i in range(len(ds.data))]
df = ds.data
paths2 = [df.read(i).read("label.tif") for i in range(len(df))]
diffkit.emit({"paths": paths, "labels": paths2})
