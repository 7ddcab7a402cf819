"""taco_cpp.compat.tacotoolbox / tacobridge in the project venv (no tacotoolbox, pydantic or
pyproj installed: the drop-ins must stand alone). The differential suite
(tests/compat/diff) compares them with the real packages; these check the wiring."""

import json
import logging

import pytest

import taco_cpp
from taco_cpp import _native
from taco_cpp.compat.tacotoolbox import create, verbose
from taco_cpp.compat.tacotoolbox.datamodel import Sample, Taco, Tortilla
from taco_cpp.compat.tacotoolbox.datamodel.sample import STAC
from taco_cpp.compat.tacotoolbox._exceptions import TacoValidationError

T0 = 1672531200000000


def _taco(tmp_path, n=3):
    samples = []
    for k in range(n):
        p = tmp_path / f"f{k}.bin"
        p.write_bytes(bytes([k]) * (100 + k))
        s = Sample(id=f"s{k}", path=p)
        s.extend_with(STAC(crs="EPSG:32630", tensor_shape=(1, 8, 8),
                           geotransform=(500000.0 + 80 * k, 10.0, 0.0, 4500000.0, 0.0, -10.0), time_start=T0))
        s.extend_with({"cloud": k / 2})
        samples.append(s)
    return Taco(tortilla=Tortilla(samples), id="compat_py", dataset_version="1", description="d",
                licenses=["MIT"], providers=[{"name": "p"}], tasks=["classification"])


def test_create_zip_readable_by_core(tmp_path):
    out = create(_taco(tmp_path), tmp_path / "o.tacozip")
    assert [p.name for p in out] == ["o.tacozip"]
    ds = taco_cpp.load(str(out[0]))
    assert ds.data.column("cloud").to_pylist() == [0.0, 0.5, 1.0]
    assert ds.collection["taco_version"] == "2.0.0"
    assert ds.read_bytes(1) == bytes([1]) * 101


def test_extend_with_changes_the_object(tmp_path):
    t = _taco(tmp_path)
    assert t.extend_with({"project": "x"}) is None
    assert t.project == "x"
    s = t.tortilla.samples[0]
    assert s.extend_with({"extra": 1}) is None and s.extra == 1


def test_split_none_never_splits_and_existing_output_refused(tmp_path):
    t = _taco(tmp_path)
    assert len(create(t, tmp_path / "one.tacozip", split_size=None)) == 1
    with pytest.raises(TacoValidationError):
        create(t, tmp_path / "one.tacozip")
    parts = create(t, tmp_path / "p" / "x.tacozip", split_size="150B")
    assert len(parts) == 3 and (tmp_path / "p" / ".tacocat").is_dir()


def test_verbose_switches_the_core_log():
    try:
        verbose("debug")
        assert _native.get_log_level() == 2
        verbose(True)
        assert _native.get_log_level() == 1
        assert logging.getLogger("tacotoolbox").level == logging.INFO
    finally:
        verbose(False)
    assert _native.get_log_level() == 0


def test_export_accepts_a_compat_dataset(tmp_path):
    import taco_cpp.compat.tacoreader as tacoreader
    from taco_cpp.compat import tacobridge

    src = create(_taco(tmp_path), tmp_path / "src.tacozip")[0]
    ds = tacoreader.load(str(src))
    out = taco_cpp.export(ds, str(tmp_path / "copy.tacozip"))
    assert taco_cpp.load(out[0]).data.num_rows == 3
    folder = tacobridge.zip2folder(src, tmp_path / "f")
    assert json.loads((folder / "COLLECTION.json").read_text())["id"] == "compat_py"
