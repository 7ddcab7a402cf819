"""Notebook and ecosystem behaviour of taco_cpp (issue 24 item 12): docstrings on the public
API, the repr of a view (its steps, a readable extent), TacoFrame._repr_html_, progress of
create/from_directory/export/convert, the core's log in Python's logging, and publish()."""

import inspect
import io
import json
import logging
import os

import pytest

import taco_cpp
import taco_cpp.compat.tacoreader
from taco_cpp import _progress

COLLECTION = {"id": "eco", "dataset_version": "1.0.0", "description": "demo tiles", "licenses": ["CC-BY-4.0"],
              "providers": [{"name": "taco-cpp tests", "roles": ["producer"]}], "tasks": ["semantic-segmentation"],
              "title": "Ecosystem test"}


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    root = tmp_path_factory.mktemp("eco")
    tiles = taco_cpp.demo_tree(root / "tiles", tiles=4, size=16)
    taco = taco_cpp.from_directory(root / "tiles", COLLECTION, ext=["stac"], progress=False)
    out = str(root / "demo.tacozip")
    taco_cpp.create(taco, out, progress=False)
    return root, tiles, out


# ---- docstrings ------------------------------------------------------------------------------

def _public_members(module):
    for name in getattr(module, "__all__", None) or [n for n in dir(module) if not n.startswith("_")]:
        obj = getattr(module, name)
        if inspect.ismodule(obj) or not callable(obj) or not getattr(obj, "__module__", "").startswith("taco_cpp"):
            continue
        yield f"{module.__name__}.{name}", obj
        if inspect.isclass(obj):
            for attr, value in vars(obj).items():
                if attr.startswith("_"):
                    continue
                if isinstance(value, (property, staticmethod, classmethod)) or inspect.isfunction(value):
                    yield f"{module.__name__}.{name}.{attr}", getattr(obj, attr) if not isinstance(value, property) \
                        else value


def missing_docstrings(modules) -> list[str]:
    missing = []
    for module in modules:
        for qualname, obj in _public_members(module):
            doc = obj.__doc__ if isinstance(obj, property) else inspect.getdoc(obj)
            if not (doc or "").strip():
                missing.append(qualname)
    return missing


def test_every_public_function_has_a_docstring():
    import taco_cpp.dask
    import taco_cpp.torch

    assert missing_docstrings([taco_cpp, taco_cpp.torch, taco_cpp.dask, taco_cpp.compat.tacoreader]) == []


def test_the_docstring_walk_sees_a_missing_docstring():
    class Probe:
        """Documented."""

        def documented(self):
            """Yes."""

        def bare(self):
            pass

        @property
        def bare_property(self):
            return 1

    Probe.__module__ = "taco_cpp.probe"
    module = type(taco_cpp)("taco_cpp.probe")
    module.__all__ = ["Probe"]
    module.Probe = Probe
    assert missing_docstrings([module]) == ["taco_cpp.probe.Probe.bare", "taco_cpp.probe.Probe.bare_property"]


# ---- repr --------------------------------------------------------------------------------------

def test_repr_of_a_view_shows_its_steps_and_a_readable_extent(demo):
    _, tiles, out = demo
    ds = taco_cpp.load(out)
    view = ds.sql("SELECT *\n  FROM data WHERE id <> 'tile_01'").filter_bbox(-180, -90, 180, 90).filter_datetime("2000/2100")
    text = repr(view)
    assert "(zip, view)" in text
    assert f"from:    load({out!r})" in text
    lines = [line.strip() for line in text.splitlines() if line.strip().startswith("then:")]
    assert lines == ["then:    .sql(\"SELECT * FROM data WHERE id <> 'tile_01'\")",
                     "then:    .filter_bbox(-180, -90, 180, 90)", "then:    .filter_datetime('2000/2100')"]
    extent = [line for line in text.splitlines() if line.strip().startswith("extent:")][0]
    lons = [t["lon"] for t in tiles]
    west = min(lons)
    assert f"{abs(west):.4g}°{'W' if west < 0 else 'E'}" in extent.split("–")[0], extent
    assert "view" not in repr(ds).splitlines()[0] and "then:" not in repr(ds)
    assert ".sql(" in view._repr_html_() and "→ .filter_bbox(" in view._repr_html_()


def test_extent_text_formats_boxes_and_times():
    from taco_cpp._display import extent_text

    assert extent_text({"spatial": [-3.7, 40.4, 2.35, 48.9], "temporal": ["2023-01-02T00:00:00Z", None]}) == \
        "3.7°W–2.35°E, 40.4°N–48.9°N; 2023-01-02 – .."
    assert extent_text({"spatial": [[10, -20, 11, -19]]}) == "10°E–11°E, 20°S–19°S"
    assert extent_text({}) == "" and extent_text(None) == ""


def test_taco_frame_repr_html_is_a_table_of_its_rows(demo):
    _, _, out = demo
    frame = taco_cpp.load(out).read(2)
    page = frame._repr_html_()
    assert page.startswith("<div class='taco-cpp-frame'>") and "level 1: 3 rows" in page
    for name in ("before.tif", "after.tif", "label.tif", "internal:gdal_vsi"):
        assert name in page
    assert page.count("<tr>") == 1 + 3


# ---- progress ----------------------------------------------------------------------------------

def test_progress_callables_see_every_write_to_the_end(demo, tmp_path):
    root, _, out = demo
    seen = {"from_directory": [], "create": [], "export": [], "convert": []}
    taco = taco_cpp.from_directory(root / "tiles", COLLECTION, ext=["stac"],
                                   progress=lambda d, t: seen["from_directory"].append((d, t)))
    taco_cpp.create(taco, tmp_path / "a.tacozip", progress=lambda d, t: seen["create"].append((d, t)))
    view = taco_cpp.load(out).sql("SELECT * FROM data WHERE id IN ('tile_00', 'tile_03')")
    taco_cpp.export(view, tmp_path / "b.tacozip", progress=lambda d, t: seen["export"].append((d, t)))
    taco_cpp.convert(out, tmp_path / "c", progress=lambda d, t: seen["convert"].append((d, t)))
    for what, calls in seen.items():
        assert calls, what
        done, total = calls[-1]
        assert done == total > 0, (what, calls)
        assert [d for d, _ in calls] == sorted(d for d, _ in calls), (what, calls)
    assert seen["from_directory"][-1] == (12, 12)  # 4 tiles x 3 files with the stac extension
    size = sum(os.path.getsize(root / "tiles" / t / f) for t in os.listdir(root / "tiles")
               for f in os.listdir(root / "tiles" / t))
    assert seen["create"][-1] == (size, size)


def test_a_progress_callable_that_raises_raises_after_the_write(demo, tmp_path):
    _, _, out = demo

    def broken(done, total):
        raise RuntimeError("callback broke")

    with pytest.raises(RuntimeError, match="callback broke"):
        taco_cpp.convert(out, tmp_path / "c", progress=broken)
    assert taco_cpp.validate(tmp_path / "c").ok  # the write itself completed


def test_terminal_bar_and_the_default_choice(monkeypatch):
    stream = io.StringIO()
    bar = _progress._TerminalBar("create", "B", stream)
    bar(512, 2048)
    bar(2048, 2048)
    bar.close()
    assert stream.getvalue() == ("\rcreate: [#######-----------------------]  25%  512 B / 2.0 kB"
                                 "\rcreate: [##############################] 100%  2.0 kB / 2.0 kB\n")

    class Tty(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setitem(__import__("sys").modules, "tqdm.auto", None)  # tqdm not installed
    monkeypatch.setattr("sys.stderr", io.StringIO())
    assert _progress.Progress(None, "create").callback is None  # not a terminal: nothing
    assert isinstance(_progress.Progress(True, "create").callback, _progress._TerminalBar)
    monkeypatch.setattr("sys.stderr", Tty())
    assert isinstance(_progress.Progress(None, "create").callback, _progress._TerminalBar)
    assert _progress.Progress(False, "create").callback is None


def test_tqdm_is_used_when_installed(monkeypatch, demo, tmp_path):
    tqdm_auto = pytest.importorskip("tqdm.auto")
    bars = []

    class Recording(tqdm_auto.tqdm):
        def __init__(self, *args, **kwargs):
            kwargs["file"] = io.StringIO()
            super().__init__(*args, **kwargs)
            bars.append(self)

    monkeypatch.setattr(tqdm_auto, "tqdm", Recording)
    _, _, out = demo
    taco_cpp.convert(out, tmp_path / "c", progress=True)
    assert len(bars) == 1 and bars[0].n == bars[0].total > 0 and bars[0].desc == "convert"


# ---- log ---------------------------------------------------------------------------------------

def test_the_core_log_goes_to_the_taco_cpp_logger(demo, caplog, tmp_path):
    _, _, out = demo
    try:
        with caplog.at_level(logging.DEBUG, logger="taco_cpp"):
            taco_cpp.set_log_level("debug")
            assert taco_cpp.get_log_level() == "debug"
            ds = taco_cpp.load(out)
            assert len(ds.sql("SELECT * FROM data WHERE id = 'tile_02'")) == 1
            taco_cpp.create(taco_cpp.from_directory(demo[0] / "tiles", COLLECTION, progress=False),
                            tmp_path / "x.tacozip", progress=False)
            taco_cpp.flush_log()
    finally:
        taco_cpp.set_log_level("off")
    records = [r for r in caplog.records if r.name == "taco_cpp"]
    infos = [r.getMessage() for r in records if r.levelno == logging.INFO]
    debugs = [r.getMessage() for r in records if r.levelno == logging.DEBUG]
    assert any(m.startswith(f"opened {out}: zip") for m in infos), infos
    assert any(m.startswith("wrote ") and "x.tacozip" in m for m in infos), infos
    assert any("tile_02" in m for m in debugs), debugs  # the SQL statement, at debug
    assert taco_cpp.get_log_level() == "off"
    caplog.clear()
    taco_cpp.load(out)
    taco_cpp.flush_log()
    assert not [r for r in caplog.records if r.name == "taco_cpp"]


def test_set_log_level_accepts_logging_levels_and_refuses_others():
    try:
        taco_cpp.set_log_level(logging.INFO)
        assert taco_cpp.get_log_level() == "verbose"
        taco_cpp.set_log_level(logging.DEBUG)
        assert taco_cpp.get_log_level() == "debug"
        taco_cpp.set_log_level(logging.WARNING)
        assert taco_cpp.get_log_level() == "off"
        with pytest.raises(ValueError, match="not one of off, verbose, debug"):
            taco_cpp.set_log_level("loud")
    finally:
        taco_cpp.set_log_level(None)


# ---- publish -----------------------------------------------------------------------------------

def test_publish_writes_what_the_cli_writes(demo, tmp_path):
    _, _, out = demo
    written = taco_cpp.publish(taco_cpp.load(out), tmp_path / "pub", only=["stac", "hf"],
                               generated_at="2026-01-01T00:00:00Z")
    assert [os.path.basename(p) for p in written] == ["stac-collection.json", "README.md"]
    stac = json.loads((tmp_path / "pub" / "stac-collection.json").read_text())
    assert stac["id"] == "eco" and stac["type"] == "Collection"
    with pytest.raises(taco_cpp.AlreadyExistsError):
        taco_cpp.publish(out, tmp_path / "pub", only="stac")
    assert taco_cpp.publish(out, tmp_path / "pub", only="stac", overwrite=True)


def test_publish_names_what_a_standard_lacks(demo, tmp_path):
    _, _, out = demo
    with pytest.raises(taco_cpp.InvalidArgumentError, match="(?i)datacite"):
        taco_cpp.publish(out, tmp_path / "dc", only=["datacite"])
    assert not (tmp_path / "dc").exists() or not os.listdir(tmp_path / "dc")
    sidecar = tmp_path / "pub.json"
    sidecar.write_text(json.dumps({"doi": "10.5281/zenodo.1", "publisher": "Example",
                                   "publication_date": "2026-01-31", "creators": [{"name": "Doe, Jane"}]}))
    written = taco_cpp.publish(out, tmp_path / "dc", only=["datacite"], publication=sidecar)
    assert "10.5281/zenodo.1" in open(written[0]).read()
    with pytest.raises(taco_cpp.InvalidArgumentError, match="no_such_key"):
        taco_cpp.publish(out, tmp_path / "dc2", publication={"no_such_key": 1})
