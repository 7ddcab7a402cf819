"""taco_cpp.convert() with legacy Tortilla 0.5 / TACO v1 inputs and outputs, as `taco convert`
does (issue 23: the Python call refused a .tortilla with "collection: missing required field
'id'" while the CLI converted it)."""

import warnings

import taco_cpp


def _zip(tmp_path):
    a = tmp_path / "a.bin"
    b = tmp_path / "b.bin"
    a.write_bytes(b"first sample")
    b.write_bytes(b"second")
    taco = taco_cpp.Taco(taco_cpp.Tortilla([taco_cpp.Sample("a", str(a), cloud=1.5),
                                            taco_cpp.Sample("b", str(b), cloud=2.5)]),
                         id="legacy_py", dataset_version="1.0.0", description="d", licenses=["MIT"],
                         providers=[{"name": "p"}], tasks=["classification"])
    out = tmp_path / "src.tacozip"
    taco_cpp.create(taco, str(out))
    return out


def test_tortilla_round_trip(tmp_path):
    src = _zip(tmp_path)
    tortilla = tmp_path / "x.tortilla"
    assert taco_cpp.convert(src, tortilla) == [str(tortilla)]
    assert tortilla.read_bytes()[:2] == b"#y"  # Tortilla 0.5 magic
    back = tmp_path / "back.tacozip"
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        assert taco_cpp.convert(tortilla, back) == [str(back)]
    ds = taco_cpp.load(str(back))
    assert sorted(ds.data.column("id").to_pylist()) == ["a", "b"]
    assert ds.read_bytes(0) in (b"first sample", b"second")
    assert all(issubclass(w.category, UserWarning) and str(w.message).startswith("convert: ") for w in got)


def test_tortilla_to_folder_explicit_format(tmp_path):
    src = _zip(tmp_path)
    tortilla = tmp_path / "x.tortilla"
    taco_cpp.convert(src, tortilla, format="tortilla")
    out = tmp_path / "folder"
    taco_cpp.convert(tortilla, out, format="folder")
    assert (out / "COLLECTION.json").is_file()
    assert taco_cpp.load(str(out)).data.num_rows == 2
