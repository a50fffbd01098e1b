"""A ledger written before the code moved into one package per game (every kind of event the
commands write: games from files, a card night with a correction, an undone deal, a deal being
played card by card, notes, a penalty, Dou Dizhu) opens with today's code, verifies with the same
head, rebuilds to the same read models and answers every read command as it did then.

`ledger-2026-12.json` holds what those commands printed with `--json` when the ledger was made."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from cli_helpers import run_doko

from doko_ledger.doppelkopf.rules.ruleset import RuleSet

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
LEDGER = FIXTURES / "ledger-2026-12.sqlite"
ANSWERS: dict[str, object] = json.loads((FIXTURES / "ledger-2026-12.json").read_text(encoding="utf-8"))
NEW_OPTIONS = {"bock_overlap", "bock_effect", "counting"}
"""Rule options added since the ledger was written: a rule set printed today shows them too."""
HEAD = "8b59edeeb6a24d09a789765f93e67a68849f7275a88bc5a28e5461945ca05bd6"


def _read_models(path: Path) -> dict[str, list[tuple[object, ...]]]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        tables = [
            name
            for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            if name not in {"events", "ledger"} and not name.startswith("sqlite_")
        ]
        return {table: sorted(conn.execute(f'SELECT * FROM "{table}"').fetchall(), key=repr) for table in tables}
    finally:
        conn.close()


@pytest.fixture
def ledger(tmp_path: Path) -> Path:
    path = tmp_path / "ledger.sqlite"
    shutil.copyfile(LEDGER, path)
    return path


def test_it_verifies_with_the_head_it_was_written_with(ledger: Path) -> None:
    head = run_doko(ledger, "head")
    assert head.returncode == 0, head.stderr
    assert HEAD in head.stdout and "2396 events" in head.stdout
    checked = run_doko(ledger, "verify", "--expect", HEAD)
    assert checked.returncode == 0, checked.stderr
    assert "read models: exactly what folding the log gives" in checked.stdout


def test_a_rebuild_gives_the_read_models_it_was_written_with(ledger: Path) -> None:
    before = _read_models(ledger)
    assert sum(map(len, before.values())) > 1000
    rebuilt = run_doko(ledger, "rebuild")
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert _read_models(ledger) == before


@pytest.mark.parametrize("command", sorted(ANSWERS))
def test_every_read_command_answers_as_it_did(ledger: Path, command: str) -> None:
    done = run_doko(ledger, *command.split(), "--json")
    assert done.returncode == 0, done.stderr
    assert _as_written_then(json.loads(done.stdout)) == ANSWERS[command]


def _as_written_then(answer: object) -> object:
    """The answer without the rule options added since, each of which must hold its default
    (the rules the ledger's games were played under are unchanged)."""
    if isinstance(answer, list):
        return [_as_written_then(item) for item in answer]
    if not isinstance(answer, dict):
        return answer
    if "preset" in answer and "with_nines" in answer:
        defaults = RuleSet().to_dict()
        assert {k: answer[k] for k in NEW_OPTIONS} == {k: defaults[k] for k in NEW_OPTIONS}
        answer = {k: v for k, v in answer.items() if k not in NEW_OPTIONS}
    return {k: _as_written_then(v) for k, v in answer.items()}
