"""The taco-eo side of bench/peers/peers_bench.py, run with .venv-peers/taco-eo/bin/python:
    taco_eo_side.py NAME SRC META.parquet OUT.zip RUNS
writes the benchmark's samples in taco-eo's own format (TACO 3.0: a cozip archive) and times
`create` and `open` inside this process (imports done before timing). Prints one
JSON line {operation: [median seconds, runs]}.
"""

import datetime as dt
import json
import pathlib
import shutil
import statistics
import sys
import time

import pyarrow.parquet as pq
import pydantic
import taco


class Meta(pydantic.BaseModel):
    cloud: float
    time_start: dt.datetime


def main() -> None:
    name, src, meta_pq, out, runs = sys.argv[1], pathlib.Path(sys.argv[2]), sys.argv[3], pathlib.Path(sys.argv[4]), int(sys.argv[5])
    rows = pq.read_table(meta_pq, columns=["path", "cloud", "istac:time_start"]).to_pylist()
    files = ("before.tif", "after.tif") if name == "small" else ("data.bin",)
    contract = taco.Contract(structure=list(files), metadata=[taco.Level("sample", meta=Meta)])
    coll = taco.Collection(contract=contract, id=f"bench_{name}", description="peer benchmark dataset",
                           licenses=["CC-BY-4.0"], providers=["taco-cpp bench"])

    def create():
        if out.exists():
            out.unlink()
        with taco.open_writer(coll, out) as w:
            for r in rows:
                sid = r["path"]
                if name == "small":
                    assets = [taco.Asset(src / sid / f, path=f) for f in files]
                else:
                    assets = [taco.Asset(src / sid, path="data.bin")]
                w.add(taco.Sample(id=sid, assets=assets,
                                  metadata=taco.Metadata(meta=Meta(cloud=r["cloud"], time_start=r["istac:time_start"]))))
            w.run()

    def timed(fn, n):
        t = []
        for _ in range(n):
            t0 = time.perf_counter()
            fn()
            t.append(time.perf_counter() - t0)
        return [statistics.median(t), n]

    result = {"create": timed(create, 3 if name == "small" else 1)}
    # Only open: taco-eo's queries (count, filters, read) connect DuckDB with TimeZone=UTC, which
    # needs DuckDB's icu extension downloaded at run time; offline that fails, so no count here.
    result["open"] = timed(lambda: taco.open_dataset(out), runs)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
