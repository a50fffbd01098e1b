"""A ledger written before the code moved into one package per game (every kind of event the
commands write: games from files, a card night with a correction, an undone deal, a deal being
played card by card, notes, a penalty, Dou Dizhu) opens with today's code, verifies with the same
head, rebuilds to the same read models and answers every read command as it did then.

`ledger-2026-12.json` holds what those commands printed with `--json` when the ledger was made."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli_helpers import run_doko
from old_ledgers import FIXTURES, as_then, as_written_then, read_models

LEDGER = FIXTURES / "ledger-2026-12.sqlite"
ANSWERS: dict[str, object] = json.loads((FIXTURES / "ledger-2026-12.json").read_text(encoding="utf-8"))
HEAD = "8b59edeeb6a24d09a789765f93e67a68849f7275a88bc5a28e5461945ca05bd6"


@pytest.fixture
def ledger(tmp_path: Path) -> Path:
    path = tmp_path / "ledger.sqlite"
    shutil.copyfile(LEDGER, path)
    return path


def test_it_verifies_with_the_head_it_was_written_with(ledger: Path) -> None:
    head = run_doko(ledger, "head")
    assert head.returncode == 0, head.stderr
    assert HEAD in head.stdout and "2,396 events" in head.stdout
    checked = run_doko(ledger, "verify", "--expect", HEAD)
    assert checked.returncode == 0, checked.stderr
    assert "read models: exactly what folding the log gives" in checked.stdout


def test_a_rebuild_gives_the_read_models_it_was_written_with(ledger: Path) -> None:
    before = read_models(ledger)
    assert sum(len(rows) for _, rows in before.values()) > 1000
    rebuilt = run_doko(ledger, "rebuild")
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert as_then(read_models(ledger), before) == before


@pytest.mark.parametrize("command", sorted(ANSWERS))
def test_every_read_command_answers_as_it_did(ledger: Path, command: str) -> None:
    done = run_doko(ledger, *command.split(), "--json")
    assert done.returncode == 0, done.stderr
    assert as_written_then(json.loads(done.stdout), ANSWERS[command]) == ANSWERS[command]
