"""Issue 29, item 8: SQL over a dataset is sandboxed in Python too.

By default ``sql()`` and ``query()`` read only the dataset (no read_csv/read_text/glob of
other files) and run only read statements (no COPY, ATTACH, INSTALL, CREATE MACRO
taco_checked_id, SET, ...: nothing written, no network attempt).
``load(..., allow_external_sql=True)`` lets a user join their own files.
"""

import socket
import threading

import pytest

import taco_cpp
from taco_cpp import Sample, Taco, Tortilla
from conftest import COLLECTION


@pytest.fixture(params=["zip", "folder"])
def dataset(request, tmp_path):
    taco = Taco(Tortilla([Sample(f"s{i}", data=f"content_{i}".encode()) for i in range(3)]), COLLECTION)
    out = tmp_path / ("ds.tacozip" if request.param == "zip" else "ds")
    taco_cpp.create(taco, out, format=request.param)
    return out


@pytest.fixture
def labels(tmp_path):
    path = tmp_path / "labels.csv"
    path.write_text("id,label\ns0,TOP-SECRET\ns2,forest\n")
    return path


def _outside_reads(labels):
    return [
        f"SELECT * FROM read_csv('{labels}')",
        f"SELECT * FROM read_text('{labels}')",
        f"SELECT * FROM glob('{labels.parent}/*')",
        f"SELECT * FROM '{labels}'",
        f"SELECT d.id, l.label FROM data d JOIN read_csv('{labels}') l USING (id)",
    ]


def test_reads_outside_the_dataset_are_refused(dataset, labels):
    ds = taco_cpp.load(dataset)
    for sql in _outside_reads(labels):
        for run in (ds.sql, ds.query):
            with pytest.raises(taco_cpp.InvalidArgumentError) as err:
                result = run(sql)
                if hasattr(result, "data"):
                    result.data  # noqa: B018 (a view is bound when made; read it anyway)
            text = str(err.value)
            assert "refused" in text and "allow_external_sql" in text, text
            assert "TOP-SECRET" not in text
    assert ds.query("SELECT count(*) AS n FROM data").column("n").to_pylist() == [3]


def test_statements_other_than_reads_are_refused_and_run_nothing(dataset, tmp_path):
    ds = taco_cpp.load(dataset)
    copied, attached, exported = tmp_path / "copied.csv", tmp_path / "attached.db", tmp_path / "exported"
    statements = {
        f"COPY (SELECT * FROM data) TO '{copied}'": "COPY",
        f"ATTACH '{attached}' AS a": "ATTACH",
        f"EXPORT DATABASE '{exported}'": "EXPORT",
        "CREATE OR REPLACE MACRO taco_checked_id(v, f) AS v": "CREATE",
        "CREATE MACRO taco_checked_id(v, f) AS v": "CREATE",
        "SET enable_external_access = true": "SET",
        "PRAGMA enable_profiling": "PRAGMA",
    }
    for sql, keyword in statements.items():
        for run in (ds.query, ds.sql):
            with pytest.raises(taco_cpp.InvalidArgumentError, match=f"refused: {keyword}"):
                run(sql)
    assert not copied.exists() and not attached.exists() and not exported.exists()
    # Our id check is still ours.
    with pytest.raises(taco_cpp.InvalidArgumentError, match="refused"):
        ds.query("SELECT taco_checked_id('../secret.txt', false) AS x")
    assert ds.query("SELECT id FROM data ORDER BY id").column("id").to_pylist() == ["s0", "s1", "s2"]


def test_install_is_refused_without_a_network_attempt(dataset):
    """INSTALL ... FROM a repository on 127.0.0.1: refused before DuckDB connects to it."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    server.settimeout(0.5)
    port = server.getsockname()[1]
    connections = []

    def accept():
        try:
            conn, _ = server.accept()
            connections.append(conn)
            conn.close()
        except OSError:
            pass

    listener = threading.Thread(target=accept)
    listener.start()
    try:
        ds = taco_cpp.load(dataset)
        with pytest.raises(taco_cpp.InvalidArgumentError, match="refused: INSTALL"):
            ds.query(f"INSTALL httpfs FROM 'http://127.0.0.1:{port}'")
        with pytest.raises(taco_cpp.InvalidArgumentError, match="refused: INSTALL"):
            ds.query("INSTALL httpfs")
    finally:
        listener.join()
        server.close()
    assert connections == []


def test_allow_external_sql_joins_a_users_file(dataset, labels, tmp_path):
    ds = taco_cpp.load(dataset, allow_external_sql=True)
    join = f"SELECT d.id, l.label FROM data d JOIN read_csv('{labels}') l USING (id) ORDER BY d.id"
    assert ds.sql(join).data.column("label").to_pylist() == ["TOP-SECRET", "forest"]
    assert ds.query(join).column("id").to_pylist() == ["s0", "s2"]
    # Reading is all it allows.
    copied = tmp_path / "copied.csv"
    with pytest.raises(taco_cpp.InvalidArgumentError, match="refused: COPY"):
        ds.query(f"COPY (SELECT * FROM data) TO '{copied}'")
    assert not copied.exists()
    # A list (concat) of datasets opened with it allows it too; without it, refused.
    both = taco_cpp.load([dataset, dataset], allow_external_sql=True)
    assert both.query(f"SELECT count(*) AS n FROM read_csv('{labels}')").column("n").to_pylist() == [2]
    with pytest.raises(taco_cpp.InvalidArgumentError, match="allow_external_sql"):
        taco_cpp.load([dataset, dataset]).query(f"SELECT * FROM read_csv('{labels}')")
