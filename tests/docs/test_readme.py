"""The README's promises: its `doko` examples run, and its quick start names real make targets."""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import Result

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _doko_examples() -> list[list[str]]:
    """Every `.venv/bin/doko --db demo.sqlite ...` line of the README's shell blocks, as arguments."""
    out = []
    for block in re.findall(r"```sh\n(.*?)```", README, flags=re.S):
        for line in block.splitlines():
            command = line.split("  #")[0].strip()
            if command.startswith(".venv/bin/doko "):
                words = shlex.split(command)[1:]
                assert words[:2] == ["--db", "demo.sqlite"], command
                out.append(words[2:])
    return out


def test_the_readme_has_doko_examples() -> None:
    assert len(_doko_examples()) >= 3


def test_every_readme_example_runs_against_the_samples(
    cli: Callable[..., Result], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What `make demo` imports, in its order (games, card nights, Dou Dizhu), then every
    example, run in an empty directory so that files the examples write land there."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^\t\$\(BIN\)/doko --db \$\(DEMO_DB\) import \$\(SAMPLES\)$", makefile, flags=re.M)
    (line,) = re.findall(r"^SAMPLES := (.*)$", makefile, flags=re.M)
    samples = [p for pattern in line.split() for p in sorted(ROOT.glob(pattern))]
    assert len(samples) > 40
    imported = cli("import", *samples)
    assert imported.exit_code == 0, imported.output
    monkeypatch.chdir(tmp_path)
    for args in _doko_examples():
        result = cli(*args)
        assert result.exit_code == 0, (args, result.output)
        assert result.output.strip(), args


def test_the_quick_start_targets_exist() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    for target in re.findall(r"^make (\w+)", README, flags=re.M):
        assert re.search(rf"^{target}:", makefile, flags=re.M), target
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "make test" in ci
