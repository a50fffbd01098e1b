"""A night that changed downloads as its night file and imports into a new ledger with the same
standings: players who joined and left, a rule change to stacking bock and winners-only counting,
bock declared by hand with a deal and without, a deal by its value only."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from cli_helpers import as_json, ok
from typer.testing import Result
from web_helpers import app_for, client

from doko_ledger.doppelkopf.book import card_nights
from doko_ledger.doppelkopf.files import night_file
from doko_ledger.ledger import Ledger

Cli = Callable[..., Result]


def record_a_changing_night(cli: Cli) -> None:
    """A night as a table plays it, from the command line."""
    ok(cli("rules", "save", "kitchen", "--preset", "standard", "--set", "bock_triggers=[tie]"))
    ok(cli("session", "start", "n", "--players", "Anna,Ben,Clara,Dirk", "--rules", "kitchen", "--rate", "0.05"))
    ok(cli("record", "--re", "Anna,Ben", "--re-points", "150", "--yes"))
    ok(cli("session", "join", "Erik", "--after", "Anna"))
    ok(cli("record", "--re", "Ben,Clara", "--re-points", "120", "--yes"))  # a tie: a bock round
    ok(cli("bock", "--by", "Anna", "--reason", "Hochzeit", "--with-deal", "2"))
    rules = ("--set", "bock_overlap=stack", "--set", "counting=winners_only", "--set", "bock_triggers=[tie,lost_solo]")
    ok(cli("session", "rules", *rules))
    ok(cli("record", "--re", "Clara,Dirk", "--re-points", "120", "--yes"))  # another tie: stacked
    ok(cli("bock", "--rounds", "2", "--by", "Ben"))
    ok(cli("record", "--winners", "Dirk,Anna", "--value", "3", "--yes"))
    ok(cli("session", "leave", "Ben"))
    ok(cli("record", "--re", "Anna,Erik", "--re-points", "100", "--yes"))
    ok(cli("record", "--re", "Clara", "--game", "queen_solo", "--re-points", "60", "--yes"))  # a lost solo


def standings_of(cli: Cli, db: Path) -> Any:
    """`doko standings --json` of the night, without the ledger's head (another ledger, other events)."""
    shown = as_json(cli("standings", "--session", "n", "--json", db=db))
    return {k: v for k, v in shown.items() if k != "ledger_head"}


def test_a_changed_night_downloads_and_imports_with_the_same_standings(
    cli: Cli, ledger_path: Path, tmp_path: Path
) -> None:
    record_a_changing_night(cli)
    answer = client(app_for(ledger_path)).get("/nights/n/night.yaml")
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-disposition"] == 'attachment; filename="n.yaml"'
    with Ledger.open(ledger_path) as ledger:
        written = night_file.dumps(night_file.from_night(card_nights(ledger).night("n")))
    assert answer.text == written
    assert "rules_name: kitchen\n" in written and "  - {leaves: Ben}  # Ben leaves, from deal 5\n" in written
    assert "  - {bock: {by: Anna, reason: Hochzeit, with_deal: true}}" in written
    assert night_file.dumps(night_file.loads(written)) == written
    before = standings_of(cli, ledger_path)
    assert [c["kind"] for c in before["changes"]] == ["join", "bock", "rules", "bock", "leave"]
    assert any(d["bock"] for d in before["deals"]) and before["counting"] == "winners_only"
    for name, text in (("downloaded", answer.text), ("library", written)):
        kept = tmp_path / f"{name}.yaml"
        kept.write_text(text, encoding="utf-8")
        other = tmp_path / f"{name}.sqlite"
        ok(cli("import", kept, db=other))
        assert standings_of(cli, other) == before
        with Ledger.open(other) as ledger:
            assert card_nights(ledger).state("n").rules_name == "kitchen"
