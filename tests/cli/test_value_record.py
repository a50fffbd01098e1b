"""`doko record --winners A,B --value 3` (or `--losers`, `--solo`): a deal by its value only,
recorded as the night's next deal, shown as "value only" in `doko score`, `doko standings` and
`--json`, audited in plain words, and refused cleanly (exit 2 for flags that do not go
together, 1 for what the rules refuse) with nothing written."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import as_json, flat, ok, refused, snapshot
from conftest import CLI_ENV
from typer.testing import CliRunner, Result

from doko_ledger.cli import table
from doko_ledger.cli.app import app

Cli = Callable[..., Result]

FIVE = "Anna,Ben,Clara,Dirk,Emil"  # Anna deals deal 1 and sits out


@pytest.fixture
def cli(ledger_path: Path, monkeypatch: pytest.MonkeyPatch) -> Cli:
    monkeypatch.delenv("DOKO_DB", raising=False)
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None) -> Result:
        return runner.invoke(app, ["--db", str(ledger_path), *args], input=input, env=CLI_ENV, catch_exceptions=True)

    return invoke


@pytest.fixture
def night(cli: Cli, tmp_path: Path) -> None:
    rules = tmp_path / "bock.yaml"
    rules.write_text("preset: standard\nbock_triggers: [lost_solo]\n", encoding="utf-8")
    ok(cli("session", "start", "n", "--players", FIVE, "--rules", str(rules)))


def deals(cli: Cli) -> list[Any]:
    return list(as_json(cli("standings", "--json"))["deals"])


@pytest.mark.usefixtures("night")
def test_a_deal_by_its_value_is_the_nights_next_deal(cli: Cli) -> None:
    done = as_json(cli("record", "--winners", "Ben,Clara", "--value", "3", "--yes", "--json"))
    assert done["number"] == 1 and done["game_id"] == "n-01"
    assert done["score"]["players"] == {"Ben": 3, "Clara": 3, "Dirk": -3, "Emil": -3}
    assert done["score"]["value_only"]["words"] == "Ben, Clara won; value 3"
    assert [line["item"] for line in done["score"]["lines"]] == ["value only"]
    [deal] = deals(cli)
    assert deal["value_only"] == "Ben, Clara won; value 3"
    assert deal["game_type"] is None and deal["points"]["Anna"] == 0


@pytest.mark.usefixtures("night")
def test_a_solo_lost_by_its_value_starts_bock_for_the_next_deal(cli: Cli) -> None:
    ok(cli("record", "--losers", "Dirk", "--solo", "--value", "2", "--yes"))
    ok(cli("record", "--re", "Clara,Dirk", "--re-points", "150", "--yes"))  # Ben deals and sits out
    first, second = deals(cli)
    assert first["points"] == {"Anna": 0, "Ben": 2, "Clara": 2, "Dirk": -6, "Emil": 2}
    assert first["value_only"] == "Dirk lost a solo; value 2"
    assert (second["multiplier"], second["bock"]) == (2, "deal 1, lost solo")
    assert "value_only" not in second
    table = as_json(cli("standings", "--json"))["table"]
    dirk = next(row for row in table if row["player"] == "Dirk")
    assert (dirk["solos"], dirk["solos_won"]) == (1, 0)


@pytest.mark.usefixtures("night")
def test_score_standings_and_audit_say_value_only(cli: Cli) -> None:
    ok(cli("record", "--winners", "Emil", "--value", "1", "--yes"))
    score = flat(ok(cli("score", "n-01")).stdout)
    assert "value only" in score and "Emil won alone; value 1, three times for the lone player" in score
    assert "Re wins" not in score and "Kontra wins" not in score
    standings = flat(ok(cli("standings")).stdout)
    assert "value only 1" in standings
    audit = as_json(cli("audit", "n-01", "--json"))
    checks = {c["name"]: c for c in audit["checks"]}
    assert checks["value only: who won and the value"]["ok"] is True
    assert checks["value only: how the value came about"]["ok"] is None
    assert (
        "the card points, the announcements and the special points cannot be checked"
        in (checks["value only: how the value came about"]["details"][0])
    )
    games = as_json(cli("games", "--json"))
    assert games[-1]["game_type"] == "value only"


@pytest.mark.usefixtures("night")
@pytest.mark.parametrize(
    ("flags", "code", "words"),
    [
        (("--value", "3"), 2, "--value: name the winners (--winners Anna,Ben) or the losers (--losers)"),
        (("--winners", "Ben,Clara"), 2, "give the deal's value before bock, e.g. --value 3"),
        (("--winners", "Ben,Clara", "--value", "3", "--re-points", "120"), 2, "takes no --game, --re, --re-points"),
        (("--winners", "Ben,Clara", "--value", "3", "--misdeal"), 2, "--heart-trick or --misdeal"),
        (("--winners", ",", "--value", "3"), 2, "--winners: name at least one player"),
        (("--winners", "Ben,Zoe", "--value", "3"), 1, "unknown player 'Zoe'"),
        (("--winners", "Anna,Ben", "--value", "3"), 1, "'Anna' sits out deal 1 (Anna deals)"),
        (("--winners", "Ben,Clara,Dirk,Emil", "--value", "3"), 1, "all four won"),
        (("--winners", "Ben,Clara", "--losers", "Dirk", "--value", "3"), 1, "do not make up the table (Emil neither)"),
        (("--winners", "Ben,Clara", "--value", "-1"), 1, "a deal's value is a whole number from 0 to 99"),
        (("--winners", "Ben,Clara", "--value", "250"), 1, "not 250"),
        (("--winners", "Ben,Clara", "--value", "3", "--solo"), 1, "the solo mark needs a player alone"),
    ],
)
def test_a_value_entry_that_does_not_fit_writes_nothing(
    cli: Cli, ledger_path: Path, flags: tuple[str, ...], code: int, words: str
) -> None:
    before = snapshot(ledger_path)
    result = cli("record", *flags, "--yes")
    refused(result, words)
    assert result.exit_code == code
    assert snapshot(ledger_path) == before


@pytest.mark.usefixtures("night")
def test_a_deal_by_its_value_is_corrected_by_its_value(cli: Cli) -> None:
    ok(cli("record", "--winners", "Ben,Clara", "--value", "3", "--yes"))
    ok(cli("correct", "1", "--losers", "Ben", "--value", "1", "--yes"))
    [deal] = deals(cli)
    assert deal["points"] == {"Anna": 0, "Ben": -3, "Clara": 1, "Dirk": 1, "Emil": 1}
    assert deal["value_only"] == "Ben lost alone; value 1"


@pytest.mark.usefixtures("night")
def test_at_a_terminal_the_game_type_value_asks_for_the_value_entry(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table, "interactive", lambda: True)
    result = ok(cli("record", input="value\nBen,Zoe\nBen\n2\ny\ny\n"))
    assert "or value, the value only" in flat(result.stdout)
    assert "unknown player 'Zoe'" in flat(result.stderr)  # refused when the entry is checked, asked again
    [deal] = deals(cli)
    assert deal["value_only"] == "Ben won a solo; value 2"
    assert deal["points"] == {"Anna": 0, "Ben": 6, "Clara": -2, "Dirk": -2, "Emil": -2}
