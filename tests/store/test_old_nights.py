"""Card nights recorded before nights learnt bock modes, counting, rule changes and players who
come and go (`tests/fixtures/make_nights_ledger.py` made them): five and six players, queued
bock rounds from every trigger of that time, a bock multiplier of 3, a tournament, money, a deal taken back
and one corrected. Today's code gives them the same head, read models, standings, settle-up
and statistics."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli_helpers import run_doko
from old_ledgers import FIXTURES, as_then, as_written_then, read_models

LEDGER = FIXTURES / "nights-2026-12.sqlite"
ANSWERS: dict[str, object] = json.loads((FIXTURES / "nights-2026-12.json").read_text(encoding="utf-8"))
HEAD = "3bce4c6b5f94f35b4518f71a06dea489c4e9369e222968c0d16fdd88a41e934c"


@pytest.fixture
def ledger(tmp_path: Path) -> Path:
    path = tmp_path / "nights.sqlite"
    shutil.copyfile(LEDGER, path)
    return path


def test_the_nights_verify_with_the_head_they_were_written_with(ledger: Path) -> None:
    checked = run_doko(ledger, "verify", "--expect", HEAD)
    assert checked.returncode == 0, checked.stderr
    assert "read models: exactly what folding the log gives" in checked.stdout


def test_a_rebuild_gives_the_read_models_they_were_written_with(ledger: Path) -> None:
    before = read_models(ledger)
    bock_deals = [row for row in before["scores"][1] if row[before["scores"][0].index("multiplier")] != 1]
    assert len(bock_deals) > 30
    rebuilt = run_doko(ledger, "rebuild")
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert as_then(read_models(ledger), before) == before


@pytest.mark.parametrize("command", sorted(ANSWERS))
def test_standings_settle_up_and_stats_are_what_they_were(ledger: Path, command: str) -> None:
    done = run_doko(ledger, *command.split(), "--json")
    assert done.returncode == 0, done.stderr
    assert as_written_then(json.loads(done.stdout), ANSWERS[command]) == ANSWERS[command]
