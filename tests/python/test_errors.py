"""Every error class: raised for the right Status code, also the matching builtin, with the
message the CLI prints after "taco: "."""

import shutil

import pytest

import taco_cpp
from taco_cpp import _native, errors
from conftest import COLLECTION, FLAT_ZIP, NESTED_ZIP

# taco::StatusCode numbers (include/taco/status.h) → class and the builtin it also is.
CODES = [
    (1, errors.InvalidArgumentError, ValueError),
    (2, errors.NotFoundError, FileNotFoundError),
    (3, errors.CorruptionError, ValueError),
    (4, errors.TacoIOError, OSError),
    (5, errors.NotSupportedError, NotImplementedError),
    (6, errors.AlreadyExistsError, FileExistsError),
    (7, errors.InternalError, RuntimeError),
]


@pytest.mark.parametrize("code,cls,builtin", CODES)
def test_each_status_code_maps_to_its_class(code, cls, builtin):
    with pytest.raises(cls) as info:
        _native._raise_status(code, "x.tacozip: what is wrong")
    assert isinstance(info.value, builtin)
    assert isinstance(info.value, taco_cpp.TacoError)
    assert str(info.value) == "x.tacozip: what is wrong"
    assert type(info.value) is cls


def test_other_cpp_exceptions_become_internal_errors():
    with pytest.raises(taco_cpp.InternalError, match="internal error: boom"):
        _native._raise_cpp_exception("boom")


def test_classes_are_exported_at_top_level():
    for _, cls, _ in CODES:
        assert getattr(taco_cpp, cls.__name__) is cls


def test_message_is_the_cli_line(taco_cli, tmp_path):
    missing = tmp_path / "missing.tacozip"
    with pytest.raises(FileNotFoundError) as info:
        taco_cpp.load(missing)
    r = taco_cli("info", missing)
    assert r.returncode == 2
    assert r.stderr.strip() == f"taco: {info.value}"


def test_invalid_argument_bad_sql():
    ds = taco_cpp.load(FLAT_ZIP)
    with pytest.raises(ValueError) as info:
        ds.sql("SELEC nonsense")
    assert isinstance(info.value, taco_cpp.InvalidArgumentError)


def test_not_found_column_and_sample():
    ds = taco_cpp.load(FLAT_ZIP)
    with pytest.raises(taco_cpp.TacoError):
        ds.sql("SELECT no_such_column FROM data")
    with pytest.raises(taco_cpp.TacoError, match="nope"):
        ds.read("nope")
    with pytest.raises(taco_cpp.TacoError, match="out of range"):
        ds.read(99)


def test_corruption_truncated_zip(tmp_path):
    bad = tmp_path / "bad.tacozip"
    bad.write_bytes(FLAT_ZIP.read_bytes()[:100])
    with pytest.raises(taco_cpp.CorruptionError) as info:
        taco_cpp.load(bad)
    assert isinstance(info.value, ValueError)
    assert str(bad) in str(info.value)


def test_corruption_wrong_magic(tmp_path):
    bad = tmp_path / "bad.tacozip"
    bad.write_bytes(b"not a zip at all" * 40)
    with pytest.raises(taco_cpp.CorruptionError):
        taco_cpp.load(bad)


def test_io_error_connection_refused(monkeypatch):
    # nothing listens on port 9 of the loopback: the connection is refused at once
    monkeypatch.setenv("GDAL_HTTP_MAX_RETRY", "0")
    with pytest.raises(taco_cpp.TacoIOError) as info:
        taco_cpp.load("http://127.0.0.1:9/x.tacozip", cache=False)
    assert isinstance(info.value, OSError)
    assert "127.0.0.1:9" in str(info.value)


def test_not_supported_struct_without_fields(tmp_path):
    # a struct<> column is a valid model value that Parquet cannot store
    s = taco_cpp.Sample("a", data=b"1")
    s.extend([taco_cpp.Field("empty", {}, type="struct<>")])
    taco = taco_cpp.Taco(taco_cpp.Tortilla([s]), COLLECTION)
    with pytest.raises(taco_cpp.NotSupportedError) as info:
        taco_cpp.create(taco, tmp_path / "x.tacozip")
    assert isinstance(info.value, NotImplementedError)
    assert "struct<>" in str(info.value)
    assert not (tmp_path / "x.tacozip").exists()


def test_already_exists(tmp_path):
    out = tmp_path / "out.tacozip"
    shutil.copy(FLAT_ZIP, out)
    ds = taco_cpp.load(FLAT_ZIP)
    with pytest.raises(taco_cpp.AlreadyExistsError) as info:
        ds.export(out)
    assert isinstance(info.value, FileExistsError)


def test_type_errors_stay_type_errors():
    ds = taco_cpp.load(NESTED_ZIP)
    with pytest.raises(TypeError):
        ds.read(1.5)
    with pytest.raises(TypeError):
        taco_cpp.load(42)


def _damage_central_directory_name(path, leaf: bytes):
    """Makes the first byte of the central-directory name of the first member ending in `leaf`
    0xFF (not UTF-8); the local header keeps the right name."""
    data = bytearray(path.read_bytes())
    at = data.find(b"PK\x01\x02")
    while at != -1:
        name_len = int.from_bytes(data[at + 28:at + 30], "little")
        name = bytes(data[at + 46:at + 46 + name_len])
        if name.endswith(leaf):
            data[at + 46] = 0xFF
            path.write_bytes(bytes(data))
            return name
        at = data.find(b"PK\x01\x02", at + 4)
    raise AssertionError(f"no central directory entry ends with {leaf!r}")


def test_names_that_are_not_utf8_reach_python_escaped(raster_tree, tmp_path, taco_cli):
    # A damaged ZIP whose central directory names a member with a byte that is not UTF-8:
    # validate's findings and error messages quote it as \xff, never UnicodeDecodeError.
    out = tmp_path / "damaged.tacozip"
    taco_cli("create", raster_tree / "tiles", out, "--collection", raster_tree / "collection.json", check=True)
    _damage_central_directory_name(out, b"image.tif")
    try:
        report = taco_cpp.validate(out)
        assert not report.ok
        quoted = " ".join(f"{v}" for v in report.violations)
    except taco_cpp.CorruptionError as e:
        quoted = str(e)
    assert "\\xffATA/tile_0/image.tif" in quoted, quoted
    try:
        ds = taco_cpp.load(out)
        for i in range(len(ds.data)):
            ds.read(i)
    except taco_cpp.TacoError as e:
        str(e)  # a taco error with a printable message is fine; UnicodeDecodeError is not


def test_error_messages_with_bytes_that_are_not_utf8():
    with pytest.raises(errors.CorruptionError) as info:
        _native._raise_status_bytes(3, b"x.tacozip: member '\xffmage.tif' is damaged")
    assert "\\xffmage.tif" in str(info.value)
