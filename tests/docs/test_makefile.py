"""The Makefile's quick start, run by the real `make` in a copy of it with a stand-in `doko`
that notes its arguments: `make serve` never deletes a ledger, and imports the samples only
into one that is missing; `make demo` rebuilds its own file, never the served one."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FAKE_DOKO = """#!/bin/sh
echo "$*" >> calls.log
if [ "$3" = import ]; then echo made-from-the-samples > "$2"; fi
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the Makefile with an installed-looking venv whose `doko` only notes its calls."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    (tmp_path / "pyproject.toml").write_text("")
    bin_ = tmp_path / ".venv" / "bin"
    bin_.mkdir(parents=True)
    (bin_ / "doko").write_text(FAKE_DOKO)
    (bin_ / "doko").chmod(0o755)
    stamp = tmp_path / ".venv" / ".installed-stamp"
    stamp.write_text("")
    os.utime(tmp_path / "pyproject.toml", (1_000_000, 1_000_000))  # installed after the last change
    return tmp_path


def make(project: Path, *args: str) -> list[str]:
    """Run make in `project`; the `doko` calls it made."""
    log = project / "calls.log"
    log.unlink(missing_ok=True)
    done = subprocess.run(["make", "-s", *args], cwd=project, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    return log.read_text().splitlines() if log.exists() else []


def test_make_serve_serves_the_ledger_it_finds_and_never_deletes_it(project: Path) -> None:
    ledger = project / "table.sqlite"
    ledger.write_text("deals recorded from the phones")
    calls = make(project, "serve")
    assert ledger.read_text() == "deals recorded from the phones"
    assert calls == ["--db table.sqlite serve --host 0.0.0.0 --port 8000"]
    dry = subprocess.run(["make", "-n", "serve"], cwd=project, capture_output=True, text=True, check=True).stdout
    assert "rm " not in dry and "import" not in dry


def test_make_serve_makes_its_ledger_from_the_samples_only_when_missing(project: Path) -> None:
    calls = make(project, "serve", "HOST=127.0.0.1")
    assert [c.split()[:3] for c in calls] == [["--db", "table.sqlite", "import"], ["--db", "table.sqlite", "serve"]]
    assert "sample_games/sessions/*.yaml" in calls[0]
    assert (project / "table.sqlite").read_text().strip() == "made-from-the-samples"
    assert [c.split()[2] for c in make(project, "serve")] == ["serve"]


def test_make_demo_rebuilds_its_own_file_and_leaves_the_served_one(project: Path) -> None:
    served = project / "table.sqlite"
    served.write_text("deals recorded from the phones")
    (project / "demo.sqlite").write_text("an old demo")
    calls = make(project, "demo")
    assert all(c.startswith("--db demo.sqlite ") for c in calls) and "--db demo.sqlite replay #1" in calls
    assert (project / "demo.sqlite").read_text().strip() == "made-from-the-samples"
    assert served.read_text() == "deals recorded from the phones"
    make(project, "clean")
    assert served.read_text() == "deals recorded from the phones" and not (project / "demo.sqlite").exists()


def test_make_test_fast_leaves_out_the_marked_tests_and_installs_nothing(project: Path) -> None:
    pytest_stub = project / ".venv" / "bin" / "pytest"
    pytest_stub.write_text('#!/bin/sh\necho "pytest $*" >> calls.log\n')
    pytest_stub.chmod(0o755)
    assert make(project, "test-fast") == ["pytest -m not postgres and not browser and not slow"]
    fast = subprocess.run(
        ["make", "-n", "--no-print-directory", "test-fast"], cwd=project, capture_output=True, text=True, check=True
    ).stdout
    full = subprocess.run(
        ["make", "-n", "--no-print-directory", "test"], cwd=project, capture_output=True, text=True, check=True
    ).stdout
    assert "install-system-deps" not in fast
    assert full.splitlines() == ["tools/install-system-deps", ".venv/bin/pytest"]  # everything, no -m
