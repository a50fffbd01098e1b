"""How the tests are laid out and selected: every test module sits in a folder named after the
package it tests (`kernel` for the modules directly in doko_ledger/, `docs` for the documents and
the Makefile), no two share a basename; the marks `make test-fast` leaves out are registered; and
the marks `postgres` and `browser` follow what a test uses, checked in a pytest session of its own
with the tests' conftest.py."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
PACKAGE = ROOT / "doko_ledger"
HELPERS = {
    "conftest.py",
    "helpers.py",
    "cli_helpers.py",
    "backends.py",
    "postgres.py",
    "web_helpers.py",
    "browser.py",
    "old_ledgers.py",
}
OWN_FOLDERS = {"kernel", "docs"}


def _test_modules() -> list[Path]:
    return sorted(TESTS.rglob("test_*.py"))


def _registered_markers() -> set[str]:
    options = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    return {line.split(":")[0].strip() for line in options["markers"]}


def test_the_tests_folder_holds_only_the_shared_helpers_and_folders() -> None:
    assert {path.name for path in TESTS.glob("*.py")} == HELPERS


def test_every_folder_of_tests_is_named_after_a_package() -> None:
    packages = {str(init.parent.relative_to(PACKAGE)) for init in PACKAGE.rglob("__init__.py")} - {"."}
    folders = {str(module.parent.relative_to(TESTS)) for module in _test_modules()}
    assert folders - packages - OWN_FOLDERS == set()
    assert {"doppelkopf", "doudizhu", "store", "cli", "web", "docs"} <= folders
    assert any(path.parent == PACKAGE for path in PACKAGE.glob("*.py"))  # what tests/kernel tests


def test_no_two_test_modules_share_a_basename() -> None:
    names = Counter(path.name for path in TESTS.rglob("*.py"))
    assert [name for name, count in names.items() if count > 1] == []
    assert not list(TESTS.rglob("__init__.py"))


def test_the_marks_make_test_fast_leaves_out_are_registered_and_strict() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    (expression,) = re.findall(r'^test-fast:.*\n\t(?:exec )?\$\(BIN\)/pytest -m "([^"]*)"', makefile, flags=re.M)
    left_out = set(expression.split()) - {"not", "and"}
    assert left_out == {"postgres", "browser", "slow"}
    assert left_out <= _registered_markers()
    options = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    assert "--strict-markers" in options["addopts"].split()


INNER_TESTS = '''
import browser
import pytest
from browser import Browser


class StubServer:
    """Stands in for the PostgreSQL server: the marks depend on the fixture, not on the server."""

    def create_database(self):
        return "postgresql://stub/doko_test"

    def drop_database(self, url):
        pass


@pytest.fixture(scope="session")
def postgres_server():
    return StubServer()


def test_on_both_databases(ledger_target):
    pass


def test_with_a_database_of_its_own(postgres_url):
    pass


@pytest.mark.parametrize("race", [("sqlite", 4), ("postgresql", 8)], ids=["sqlite-race", "postgresql-race"])
def test_a_race(race):
    pass


def test_asks_for_the_server_itself_unmarked(request):
    request.getfixturevalue("postgres_server")


@pytest.mark.postgres
def test_asks_for_the_server_itself_marked(request):
    request.getfixturevalue("postgres_server")


@pytest.fixture
def phone():
    return "a phone"


def test_with_a_phone(phone):
    pass


def test_starts_a_browser_unmarked(monkeypatch):
    monkeypatch.setattr(browser, "CHROMIUM", "/nonexistent/chromium")
    with pytest.raises(FileNotFoundError):
        Browser.start()


@pytest.mark.browser
def test_starts_a_browser_marked(monkeypatch):
    monkeypatch.setattr(browser, "CHROMIUM", "/nonexistent/chromium")
    with pytest.raises(FileNotFoundError):
        Browser.start()


def test_needs_nothing():
    pass
'''


def _inner_pytest(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run INNER_TESTS with the project's pytest settings and tests/conftest.py as a plugin."""
    (tmp_path / "test_inner.py").write_text(INNER_TESTS, encoding="utf-8")
    env = {name: value for name, value in os.environ.items() if name != "PYTEST_ADDOPTS"}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml"), "-p", "conftest", "-p", "no:cacheprovider"]
        + ["--rootdir", str(tmp_path), *args, str(tmp_path / "test_inner.py")],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(TESTS)},
        timeout=300,
    )


def _selected(tmp_path: Path, expression: str) -> set[str]:
    done = _inner_pytest(tmp_path, "--collect-only", "-m", expression)
    assert done.returncode in (0, 5), done.stdout + done.stderr  # 5: nothing selected
    return {line.split("::", 1)[1] for line in done.stdout.splitlines() if "::" in line}


@pytest.mark.slow  # three pytest sessions collecting
def test_the_marks_follow_the_fixtures_a_test_uses(tmp_path: Path) -> None:
    assert _selected(tmp_path, "postgres") == {
        "test_on_both_databases[postgresql]",
        "test_with_a_database_of_its_own",
        "test_a_race[postgresql-race]",
        "test_asks_for_the_server_itself_marked",
    }
    assert _selected(tmp_path, "browser") == {"test_with_a_phone", "test_starts_a_browser_marked"}
    assert _selected(tmp_path, "not postgres and not browser and not slow") == {
        "test_on_both_databases[sqlite]",
        "test_a_race[sqlite-race]",
        "test_asks_for_the_server_itself_unmarked",
        "test_starts_a_browser_unmarked",
        "test_needs_nothing",
    }


def test_a_test_that_uses_postgresql_or_a_browser_unmarked_fails_with_one_line(tmp_path: Path) -> None:
    done = _inner_pytest(tmp_path, "-rA")
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1].startswith("11 passed, 2 errors in "), done.stdout
    lines = done.stdout.splitlines()
    failed = {lines[i - 1].strip("_ "): lines[i] for i, line in enumerate(lines) if line.startswith("test_")}
    assert failed == {
        "ERROR at teardown of test_asks_for_the_server_itself_unmarked": (
            "test_asks_for_the_server_itself_unmarked uses PostgreSQL without @pytest.mark.postgres"
            " (see tests/conftest.py)"
        ),
        "ERROR at teardown of test_starts_a_browser_unmarked": (
            "test_starts_a_browser_unmarked starts a browser without @pytest.mark.browser (see tests/conftest.py)"
        ),
    }
