"""filter_datetime((datetime, datetime)) and a datetime object."""
# inputs: flat_zip
# parity: R31 R32 R33 R34 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

import datetime as dt

ds = tacoreader.load(f"{W}/flat.tacozip")
a = ds.filter_datetime((dt.datetime(2023, 1, 1), dt.datetime(2023, 4, 1))).data["id"].to_pylist()
b = ds.filter_datetime(dt.datetime(2023, 1, 1)).data["id"].to_pylist()
diffkit.emit({"tuple": a, "dt": b})
