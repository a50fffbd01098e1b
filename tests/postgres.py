"""PostgreSQL for the tests: one real server per test session, a fresh, empty database per test.

Fixtures (conftest.py imports them, so any test may ask for them):

- ``postgres_url``: the URL of a new, empty database (``doko_test_<pid>_<n>``, from template0,
  UTF8, sorting text by ICU's German collation as a club's server might), dropped after the test.
  The ledger must not depend on the collation: it compares stream names as bytes itself.
- ``make_postgres_database``: a function returning the URL of one more such database; all of
  them are dropped after the test.
- ``postgres_server`` (session): the server they live on, a ``PostgresServer``.

The server is the one in ``$DOKO_TEST_POSTGRES`` (a URL, e.g. ``postgresql://me@localhost/postgres``,
whose user may create databases) when that is set; otherwise a throwaway cluster that
``tools/postgres-cluster`` starts under a temporary directory and stops when the session ends,
also when it ends in a failure or Ctrl-C. Without either, every test that needs PostgreSQL fails
with one line saying what to install: a missing database is a failure here, never a skip.
"""

from __future__ import annotations

import atexit
import itertools
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent
CLUSTER_SCRIPT = ROOT / "tools" / "postgres-cluster"
SERVER_VARIABLE = "DOKO_TEST_POSTGRES"
HOW_TO = (
    f"or set {SERVER_VARIABLE}=postgresql://USER@HOST:PORT/DBNAME to a running server whose user may create databases"
)

_numbers = itertools.count(1)


class PostgresUnavailable(Exception):
    """No PostgreSQL server for the tests; the message is one line saying what to do."""


def database_url(server_url: str, name: str) -> str:
    """`server_url` with its database replaced by `name`."""
    return urlunsplit(urlsplit(server_url)._replace(path="/" + quote(name)))


@dataclass
class Cluster:
    """A throwaway cluster in its own directory, run by tools/postgres-cluster."""

    directory: Path
    url: str

    @classmethod
    def start(cls, directory: Path) -> Cluster:
        """Start a cluster in `directory` (new or empty); `PostgresUnavailable` when it cannot."""
        done = _run_script("start", directory)
        if done.returncode != 0:
            raise PostgresUnavailable(_last_line(done.stderr) or f"{CLUSTER_SCRIPT.name} start failed")
        return cls(directory, done.stdout.strip())

    def stop(self) -> None:
        """Stop the server (nothing to do when it is not running); `PostgresUnavailable` when it does not stop."""
        done = _run_script("stop", self.directory)
        if done.returncode != 0:
            raise PostgresUnavailable(_last_line(done.stderr) or f"{CLUSTER_SCRIPT.name} stop failed")


def _run_script(command: str, directory: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(CLUSTER_SCRIPT), command, str(directory)], capture_output=True, text=True, check=False, timeout=120
    )


def _last_line(text: str) -> str:
    """The script's reason, without its `error: `."""
    lines = text.strip().splitlines()
    return lines[-1].removeprefix("error: ") if lines else ""


@dataclass
class PostgresServer:
    """A server the tests may create and drop databases on; `url` names its maintenance database."""

    url: str
    cluster: Cluster | None = None
    _created: set[str] = field(default_factory=set)

    def check(self) -> None:
        """`PostgresUnavailable` unless the server answers and its user may create databases."""
        import psycopg

        try:
            with psycopg.connect(self.url, autocommit=True, connect_timeout=10) as connection:
                row = connection.execute(
                    "SELECT rolcreatedb OR rolsuper FROM pg_roles WHERE rolname = current_user"
                ).fetchone()
        except psycopg.Error as error:
            raise PostgresUnavailable(
                f"the PostgreSQL server does not answer: {' '.join(str(error).split())}"
            ) from error
        if not (row and row[0]):
            raise PostgresUnavailable("the PostgreSQL user may not create databases (it needs CREATEDB)")

    def create_database(self) -> str:
        """A new, empty database; returns its URL."""
        import psycopg
        from psycopg import sql

        name = f"doko_test_{os.getpid()}_{next(_numbers)}"
        with psycopg.connect(self.url, autocommit=True) as connection:
            connection.execute(
                sql.SQL(
                    "CREATE DATABASE {} TEMPLATE template0 ENCODING 'UTF8' LOCALE_PROVIDER icu ICU_LOCALE 'de-DE'"
                    " LC_COLLATE 'C' LC_CTYPE 'C'"
                ).format(sql.Identifier(name))
            )
        self._created.add(name)
        return database_url(self.url, name)

    def drop_database(self, url: str) -> None:
        """Drop a database `create_database` made, ending the connections still open to it."""
        import psycopg
        from psycopg import sql

        name = urlsplit(url).path.lstrip("/")
        if name not in self._created:
            raise ValueError(f"{name!r} is not a database these tests created")
        with psycopg.connect(self.url, autocommit=True) as connection:
            connection.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        self._created.discard(name)

    def databases(self) -> set[str]:
        """The names of every database on the server."""
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as connection:
            return {name for (name,) in connection.execute("SELECT datname FROM pg_database").fetchall()}


def start_server() -> tuple[PostgresServer, Callable[[], None]]:
    """The server for a test session and the function that ends it (stops a throwaway cluster)."""
    url = os.environ.get(SERVER_VARIABLE)
    if url:
        server = PostgresServer(url)
        try:
            server.check()
        except PostgresUnavailable as error:
            raise PostgresUnavailable(f"{SERVER_VARIABLE}: {error}") from error
        return server, lambda: None
    directory = Path(tempfile.mkdtemp(prefix="doko-pg-"))
    try:
        cluster = Cluster.start(directory)
    except PostgresUnavailable as error:
        shutil.rmtree(directory, ignore_errors=True)
        raise PostgresUnavailable(f"{error}; {HOW_TO}") from error

    def stop() -> None:
        atexit.unregister(stop)
        try:
            cluster.stop()
        finally:
            shutil.rmtree(directory, ignore_errors=True)

    atexit.register(stop)  # should the session die without tearing its fixtures down
    return PostgresServer(cluster.url, cluster), stop


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """The session's PostgreSQL server; fails (never skips) when there is none."""
    try:
        server, stop = start_server()
    except PostgresUnavailable as error:
        unavailable = str(error)
    else:
        unavailable = ""
    if unavailable:  # outside the except clause, so that the failure is one line and no chain of causes
        pytest.fail(f"PostgreSQL tests: {unavailable}", pytrace=False)
    try:
        yield server
    finally:
        stop()


@pytest.fixture
def make_postgres_database(postgres_server: PostgresServer) -> Iterator[Callable[[], str]]:
    """A function returning the URL of a new, empty database; each one is dropped after the test."""
    urls: list[str] = []

    def make() -> str:
        urls.append(postgres_server.create_database())
        return urls[-1]

    yield make
    for url in urls:
        postgres_server.drop_database(url)


@pytest.fixture
def postgres_url(make_postgres_database: Callable[[], str]) -> str:
    """The URL of a new, empty database of its own for the test, dropped after it."""
    return make_postgres_database()
