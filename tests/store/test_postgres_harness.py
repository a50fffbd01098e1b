"""The PostgreSQL test harness (tests/postgres.py, tools/postgres-cluster) against a real server:
each test's database is new, empty, its own and dropped after it; the throwaway cluster starts,
answers and stops without leaving a process behind, also when a session fails or is interrupted;
and without PostgreSQL the tests fail with one line instead of being skipped."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import psycopg
import pytest
from postgres import CLUSTER_SCRIPT, SERVER_VARIABLE, PostgresServer, database_url

TESTS = Path(__file__).resolve().parents[1]


def _tables(url: str) -> list[str]:
    """Every relation outside the system schemas (tables, views, sequences, ...)."""
    with psycopg.connect(url) as connection:
        rows = connection.execute(
            "SELECT n.nspname || '.' || c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'"
        ).fetchall()
    return [name for (name,) in rows]


def _current_database(url: str) -> str:
    with psycopg.connect(url) as connection:
        row = connection.execute("SELECT current_database()").fetchone()
    assert row is not None
    return str(row[0])


def _processes_of(directory: Path) -> set[int]:
    """The live processes whose command line names `directory`, and their children."""
    found: set[int] = set()
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue  # ended meanwhile
        if str(directory) in command:
            found.add(int(entry.name))
    return found | {pid for pid, parent in parents.items() if parent in found}


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.fixture
def cluster_dir() -> Iterator[Path]:
    """A new directory directly in the temporary directory, which the `postgres` user can enter when
    the tests run as root (pytest's own tmp_path is closed to other users)."""
    directory = Path(tempfile.mkdtemp(prefix="doko-pg-test-"))
    yield directory
    subprocess.run([str(CLUSTER_SCRIPT), "stop", str(directory)], capture_output=True, check=False)
    shutil.rmtree(directory, ignore_errors=True)


def _cluster(command: str, directory: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(CLUSTER_SCRIPT), command, str(directory)],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, **env},
        timeout=120,
    )


def _pytest(tmp_path: Path, test_text: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run `test_text` as a test file in a pytest session of its own, with these fixtures (on a throwaway
    cluster unless `env` names a server)."""
    (tmp_path / "conftest.py").write_text(
        "from postgres import make_postgres_database, postgres_server, postgres_url  # noqa: F401\n"
    )
    (tmp_path / "test_inner.py").write_text(test_text)
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    inherited = {name: value for name, value in os.environ.items() if name not in (SERVER_VARIABLE, "PYTEST_ADDOPTS")}
    variables = {**inherited, "PYTHONPATH": str(TESTS), **env}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rA", str(tmp_path / "test_inner.py")],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
        env=variables,
        timeout=300,
    )


def test_a_tests_database_connects_is_empty_and_exists_on_the_server(
    postgres_url: str, postgres_server: PostgresServer
) -> None:
    name = _current_database(postgres_url)
    assert name.startswith("doko_test_")
    assert urlsplit(postgres_url).path == f"/{name}"
    assert _tables(postgres_url) == []
    assert name in postgres_server.databases()
    with psycopg.connect(postgres_url) as connection:
        row = connection.execute(
            "SELECT pg_encoding_to_char(encoding), datlocprovider, daticulocale FROM pg_database"
            " WHERE datname = current_database()"
        ).fetchone()
        order = connection.execute(
            "SELECT string_agg(x, ' ' ORDER BY x) FROM unnest(ARRAY['b', 'Ä', 'a']) x"
        ).fetchone()
    assert row == ("UTF8", "i", "de-DE")
    assert order == ("a Ä b",)  # not the order of the bytes (a b Ä): names must not be sorted by the database


def test_what_a_test_writes_stays_in_its_database(make_postgres_database: Callable[[], str]) -> None:
    first, second = make_postgres_database(), make_postgres_database()
    assert _current_database(first) != _current_database(second)
    with psycopg.connect(first) as connection:
        connection.execute("CREATE TABLE events (position bigint PRIMARY KEY)")
    assert sorted(_tables(first)) == ["public.events", "public.events_pkey"]
    assert _tables(second) == []


def test_two_tests_get_different_databases_each_dropped_after_it(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    """Two tests in a session of their own on this session's server: each sees a database of its own
    that exists while it runs; after the session neither is left, though the first kept a connection open."""
    seen = tmp_path / "seen.txt"
    done = _pytest(
        tmp_path,
        f"""
import psycopg

SEEN = {str(seen)!r}
kept = []


def _note(postgres_url, postgres_server):
    connection = psycopg.connect(postgres_url)
    name = connection.execute("SELECT current_database()").fetchone()[0]
    assert name in postgres_server.databases()
    with open(SEEN, "a") as seen:
        seen.write(name + "\\n")
    return connection


def test_first(postgres_url, postgres_server):
    kept.append(_note(postgres_url, postgres_server))  # still open when the database is dropped


def test_second(postgres_url, postgres_server):
    _note(postgres_url, postgres_server).close()
""",
        **{SERVER_VARIABLE: postgres_server.url},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    first, second = seen.read_text().split()
    assert first != second
    assert {first, second}.isdisjoint(postgres_server.databases())


@pytest.mark.postgres  # starts a cluster of Debian's postgresql
def test_the_cluster_script_starts_a_cluster_and_stop_leaves_no_process(cluster_dir: Path) -> None:
    started = _cluster("start", cluster_dir)
    assert started.returncode == 0, started.stderr
    (url,) = started.stdout.splitlines()
    parts = urlsplit(url)
    assert (parts.scheme, parts.username, parts.hostname, parts.path) == ("postgresql", "postgres", None, "/postgres")
    assert parse_qs(parts.query) == {"host": [str(cluster_dir / "socket")], "port": ["5432"]}
    with psycopg.connect(url) as connection:
        row = connection.execute("SELECT current_user, current_setting('listen_addresses')").fetchone()
    assert row == ("postgres", "")
    assert _tables(url) == []
    postmaster = int((cluster_dir / "data" / "postmaster.pid").read_text().split()[0])
    running = _processes_of(cluster_dir)
    assert postmaster in running and len(running) > 1  # the postmaster and its helpers

    stopped = _cluster("stop", cluster_dir)
    assert (stopped.returncode, stopped.stdout, stopped.stderr) == (0, "", "")
    assert not any(_alive(pid) for pid in running)
    assert _processes_of(cluster_dir) == set()
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(url, connect_timeout=5)
    again = _cluster("stop", cluster_dir)  # stopping what is not running is nothing to do
    assert (again.returncode, again.stderr) == (0, "")


@pytest.mark.postgres  # starts a cluster of Debian's postgresql
def test_the_cluster_script_refuses_a_directory_in_use(cluster_dir: Path) -> None:
    (cluster_dir / "something").write_text("mine\n")
    done = _cluster("start", cluster_dir)
    assert done.returncode == 1
    assert done.stderr == f"error: {cluster_dir} is not empty; give start a new or empty directory\n"
    assert sorted(path.name for path in cluster_dir.iterdir()) == ["something"]


def test_the_cluster_script_without_a_server_says_what_to_install(cluster_dir: Path, tmp_path: Path) -> None:
    done = _cluster("start", cluster_dir, DOKO_POSTGRES_BIN=str(tmp_path))
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        f"error: no PostgreSQL server in {tmp_path}; install Debian's postgresql (sudo tools/install-system-deps)\n"
    )
    usage = subprocess.run([str(CLUSTER_SCRIPT), "begin"], capture_output=True, text=True, check=False)
    assert (usage.returncode, usage.stderr) == (2, f"usage: {CLUSTER_SCRIPT} start|stop DIR\n")


def test_without_postgresql_a_test_fails_with_one_line_and_is_never_skipped(tmp_path: Path) -> None:
    empty = tmp_path / "no-server"
    empty.mkdir()
    done = _pytest(tmp_path, "def test_needs_postgres(postgres_url):\n    pass\n", DOKO_POSTGRES_BIN=str(empty))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 error" in done.stdout and "skipped" not in done.stdout
    message = (
        f"PostgreSQL tests: no PostgreSQL server in {empty}; install Debian's postgresql"
        f" (sudo tools/install-system-deps); or set {SERVER_VARIABLE}=postgresql://USER@HOST:PORT/DBNAME"
        " to a running server whose user may create databases"
    )
    lines = done.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if "ERROR at setup of test_needs_postgres" in line)
    assert lines[start + 1] == message, done.stdout
    assert "short test summary" in lines[start + 2], done.stdout  # one line, no traceback


@pytest.mark.postgres  # starts a cluster of Debian's postgresql
def test_a_failing_or_interrupted_session_still_stops_its_cluster(tmp_path: Path) -> None:
    for ending in ("assert False", "raise KeyboardInterrupt"):
        where = tmp_path / "cluster.txt"
        where.unlink(missing_ok=True)
        done = _pytest(
            tmp_path,
            f"""
def test_ends_badly(postgres_server):
    with open({str(where)!r}, "w") as out:
        out.write(str(postgres_server.cluster.directory))
    {ending}
""",
        )
        assert done.returncode in (1, 2), done.stdout + done.stderr  # failed; interrupted
        directory = Path(where.read_text())
        assert _processes_of(directory) == set(), ending
        assert not directory.exists(), ending


def test_a_database_url_names_another_database_on_the_same_server() -> None:
    assert database_url("postgresql://postgres@/postgres?host=/tmp/d/socket&port=5432", "doko_test_1_2") == (
        "postgresql://postgres@/doko_test_1_2?host=/tmp/d/socket&port=5432"
    )
    assert database_url("postgresql://me:secret@db.example:6543/", "x") == "postgresql://me:secret@db.example:6543/x"


def _ci_copy(tmp_path: Path, fail_on: str = "") -> tuple[Path, dict[str, str]]:
    """A copy of .ci/run and tools/postgres-cluster, with a stand-in `make` on PATH that logs its target
    and the server it was handed, checks that server answers, and fails on target `fail_on`."""
    tree = tmp_path / "tree"
    for path in (Path(".ci/run"), Path("tools/postgres-cluster")):
        (tree / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(TESTS.parent / path, tree / path)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "make.log"
    answers = f"import os, psycopg; psycopg.connect(os.environ['{SERVER_VARIABLE}']).close()"
    (bin_dir / "make").write_text(
        f"""#!/bin/sh
echo "$1 ${{{SERVER_VARIABLE}:-}}" >> {log}
[ -z "${{{SERVER_VARIABLE}:-}}" ] || {sys.executable} -c '{answers}'
[ "$1" != "{fail_on}" ]
"""
    )
    (bin_dir / "make").chmod(0o755)
    env = {name: value for name, value in os.environ.items() if name != SERVER_VARIABLE}
    return tree, {**env, "PATH": f"{bin_dir}:{env['PATH']}"}


@pytest.mark.postgres  # starts a cluster of Debian's postgresql
@pytest.mark.parametrize("fail_on", ["", "test"])
def test_ci_runs_the_tests_on_a_cluster_it_starts_and_stops(tmp_path: Path, fail_on: str) -> None:
    tree, env = _ci_copy(tmp_path, fail_on)
    done = subprocess.run([str(tree / ".ci" / "run")], capture_output=True, text=True, env=env, check=False)
    assert done.returncode == (1 if fail_on else 0), done.stderr
    steps = [line.split(" ", 1) for line in (tmp_path / "make.log").read_text().splitlines()]
    assert [target for target, _ in steps] == (["system-deps", "test"] if fail_on else ["system-deps", "test", "lint"])
    assert steps[0][1] == ""  # the packages come before the cluster
    url = steps[1][1]
    assert {server for _, server in steps[1:]} == {url}
    (socket,) = parse_qs(urlsplit(url).query)["host"]
    directory = Path(socket).parent
    assert not directory.exists()
    assert _processes_of(directory) == set()
