"""`make test` installs the Debian packages the tests need, in one place (tools/install-system-deps),
as root; otherwise it names the one command to run and fails. `.ci/run` calls `make test`.

The script is run on a copy with one more package that is never there, and with `id` and
`apt-get` stand-ins on PATH, so nothing is installed on this machine.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tools" / "install-system-deps"


def _stand_ins(tmp_path: Path, uid: int) -> dict[str, str]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "id").write_text(f"#!/bin/sh\necho {uid}\n")
    (bin_dir / "apt-get").write_text(f'#!/bin/sh\necho "apt-get $*" >> {tmp_path / "apt.log"}\n')
    for tool in ("id", "apt-get"):
        (bin_dir / tool).chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"}


def _with_a_missing_package(tmp_path: Path) -> Path:
    """The script with one more line, for a package whose test is never true."""
    text = SCRIPT.read_text()
    marker = "PACKAGES=(\n"
    assert marker in text
    copy = tmp_path / "tools" / "install-system-deps"
    copy.parent.mkdir()
    copy.write_text(text.replace(marker, marker + '    "doko-never-installed  false"\n', 1))
    copy.chmod(0o755)
    return copy


def test_nothing_to_do_when_everything_is_there() -> None:
    result = subprocess.run([SCRIPT], capture_output=True, text=True, check=False)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_not_root_names_the_one_command_and_fails(tmp_path: Path) -> None:
    script = _with_a_missing_package(tmp_path)
    result = subprocess.run([script], capture_output=True, text=True, env=_stand_ins(tmp_path, 1000), check=False)
    assert result.returncode == 1
    assert result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line == (f"error: the tests need the Debian packages doko-never-installed; run: sudo {script.resolve()}")
    assert not (tmp_path / "apt.log").exists()


def test_root_installs_only_what_is_missing(tmp_path: Path) -> None:
    script = _with_a_missing_package(tmp_path)
    result = subprocess.run([script], capture_output=True, text=True, env=_stand_ins(tmp_path, 0), check=False)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "apt.log").read_text().splitlines() == [
        "apt-get update -q",
        "apt-get install -y -q --no-install-recommends doko-never-installed",
    ]


def test_make_test_runs_it_before_the_tests_and_ci_calls_make_test() -> None:
    plan = subprocess.run(
        ["make", "-n", "-C", str(ROOT), "test"], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    steps = [line for line in plan if "install-system-deps" in line or "pytest" in line]
    assert steps[0] == "tools/install-system-deps" and steps[-1].endswith("pytest")
    ci = (ROOT / ".ci" / "run").read_text()
    assert "make test" in ci
    assert "apt-get" not in ci  # one place installs: the script
    for need in ("chromium ", "chromium-driver ", "postgresql "):
        assert any(line.strip().startswith(f'"{need}') for line in SCRIPT.read_text().splitlines()), need
