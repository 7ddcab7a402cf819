"""filter_datetime((datetime, datetime)) and a datetime object."""
# inputs: flat_zip
import sys

import diffkit
import tacoreader

W = sys.argv[1]

import datetime as dt

ds = tacoreader.load(f"{W}/flat.tacozip")
a = ds.filter_datetime((dt.datetime(2023, 1, 1), dt.datetime(2023, 4, 1))).data["id"].to_pylist()
b = ds.filter_datetime(dt.datetime(2023, 1, 1)).data["id"].to_pylist()
diffkit.emit({"tuple": a, "dt": b})
