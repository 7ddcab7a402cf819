"""Arrow hand-over, threads and fork."""

import os
import sys
import threading

import pyarrow as pa
import pytest

import taco_cpp
from taco_cpp import _native
from conftest import FLAT_ZIP, NESTED_ZIP


def test_capsule_is_an_arrow_stream():
    ds = taco_cpp.load(FLAT_ZIP)
    capsule = ds._ds.export_arrow(False)
    assert type(capsule).__name__ == "PyCapsule"
    reader = pa.RecordBatchReader._import_from_c_capsule(capsule)
    assert reader.read_all().num_rows == 5


def test_unconsumed_stream_is_released():
    ds = taco_cpp.load(FLAT_ZIP)
    for _ in range(50):
        ds._ds.export_arrow(True)  # dropped without being read: its destructor releases it


def test_table_outlives_the_dataset():
    ds = taco_cpp.load(FLAT_ZIP)
    table = ds.data
    del ds
    import gc

    gc.collect()
    assert table.column("id").to_pylist()[4] == "sample_4"


def test_empty_view_keeps_the_schema():
    t = taco_cpp.load(FLAT_ZIP).sql("SELECT * FROM data WHERE false").data
    assert t.num_rows == 0
    assert "cloud_cover" in t.column_names


def test_threads_share_one_dataset():
    ds = taco_cpp.load(NESTED_ZIP)
    errors = []

    def work(k):
        try:
            for _ in range(20):
                assert len(ds.filter_bbox(-180, -90, 180, 90)) == 3
                assert ds.read_bytes(k % 3, 1).startswith(b"data_")
                assert ds.data.num_rows == 3
        except Exception as e:  # noqa: BLE001 - collected for the assertion below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_gil_is_released_during_calls():
    # While the main thread is inside one long native call, another Python thread runs:
    # impossible if the call held the GIL.
    ds = taco_cpp.load(FLAT_ZIP)
    ticks = []
    inside = threading.Event()
    done = threading.Event()

    def ticker():
        inside.wait()
        while not done.is_set():
            ticks.append(1)
            done.wait(0.001)

    t = threading.Thread(target=ticker)
    t.start()
    inside.set()
    before = len(ticks)
    ds.query("SELECT sum(hash(i)) AS n FROM range(20000000) t(i)")  # a few hundred ms
    during = len(ticks) - before
    done.set()
    t.join()
    assert during >= 3


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_dataset_survives_fork():
    ds = taco_cpp.load(NESTED_ZIP)
    view = ds.filter_bbox(-74.2, 40.5, -73.8, 40.9, level=1)
    frame = ds.read("europe")
    assert len(view) == 1  # used in the parent before the fork
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: every object reopens itself on first use
        try:
            ok = (len(view) == 1 and view.data.column("id").to_pylist() == ["americas"]
                  and ds.read_bytes("asia", 2) == b"data_asia_2" and frame.read_bytes(0) == b"data_europe_0"
                  and len(view.read("americas")) == 2)
            os.write(w, b"ok" if ok else b"wrong")
        except BaseException as e:  # noqa: BLE001
            os.write(w, repr(e).encode()[:500])
        finally:
            os._exit(0)
    os.close(w)
    answer = os.read(r, 1000)
    os.waitpid(pid, 0)
    assert answer == b"ok"
    assert len(view) == 1  # the parent's objects still work


def test_native_module_has_no_python_level_state_leak():
    assert _native.__version__ == taco_cpp.__version__
    assert sys.modules["taco_cpp._native"] is _native
