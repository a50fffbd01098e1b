"""A night that changes between deals, from the command line: `doko session join|leave|rules`,
`doko bock`, `doko undo` taking a change back, and `doko standings` marking where each change
took effect and naming the counting in force (docs/rules.md §9)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from backends import ledger_path_on_both  # noqa: F401  (every test on both databases)
from cli_helpers import as_json, flat, ok, refused, snapshot
from typer.testing import Result

Cli = Callable[..., Result]


def night(cli: Cli, players: str = "Anna,Ben,Clara,Dirk", *options: str) -> None:
    ok(cli("session", "start", "n", "--players", players, *options))


def record(cli: Cli, re: str, re_points: str = "150") -> None:
    ok(cli("record", "--re", re, "--re-points", re_points, "--yes"))


def standings(cli: Cli) -> Any:
    return as_json(cli("standings", "--json"))


def test_a_player_joins_and_another_leaves_from_the_next_deal(cli: Cli) -> None:
    night(cli, "Anna,Ben,Clara,Dirk", "--rate", "0.10")
    record(cli, "Anna,Ben")
    assert ok(cli("session", "join", "Erik", "--after", "anna")).stdout.strip() == "Erik joins after Anna, from deal 2"
    record(cli, "Ben,Clara")  # deal 2: Erik, left of Anna who dealt deal 1, deals and sits out (five)
    assert ok(cli("session", "leave", "Ben")).stdout.strip() == "Ben leaves, from deal 3"
    shown = standings(cli)
    assert shown["players"] == ["Anna", "Erik", "Ben", "Clara", "Dirk"]
    assert shown["seating"] == ["Anna", "Erik", "Clara", "Dirk"]
    assert [d["dealer"] for d in shown["deals"]] == ["Anna", "Erik"]
    assert shown["deals"][1]["sitting_out"] == ["Erik"] and shown["deals"][1]["changes"] == ["Erik joins after Anna"]
    assert shown["next"]["changes"] == ["Ben leaves"] and shown["next"]["dealer"] == "Clara"
    assert [c["words"] for c in shown["changes"]] == ["Erik joins after Anna, from deal 2", "Ben leaves, from deal 3"]
    assert {t["player"] for t in shown["table"]} == {"Anna", "Erik", "Ben", "Clara", "Dirk"}
    text = flat(ok(cli("standings")).stdout)
    assert "▸ from deal 2: Erik joins after Anna" in text and "▸ from deal 3: Ben leaves" in text
    assert "counting in force: plus/minus (winners +, losers −)" in text
    assert "at the table: Anna, Erik, Clara, Dirk" in text


@pytest.mark.parametrize(
    ("args", "code", "fragment"),
    [
        (("session", "join", "ben"), 1, "Ben is already at the table"),
        (("session", "join", "Erik", "--after", "Zoe"), 1, "'Zoe' is not at the table"),
        (("session", "leave", "Anna"), 1, "that would leave 3 players, and a card night has 4 to 7"),
        (("session", "leave", "Zoe"), 1, "'Zoe' is not at the table"),
        (("session", "rules"), 2, "give --rules PRESET|FILE and/or --set option=value"),
        (("session", "rules", "--set", "counting"), 2, "--set takes option=value"),
        (("session", "rules", "--set", "counting=sometimes"), 2, "rule option 'counting' takes one of"),
        (("session", "rules", "--set", "nonsense=1"), 2, "unknown rule option 'nonsense'"),
        (("session", "rules", "--rules", "standard"), 1, "these are the rules in force already"),
        (("bock", "--rounds", "4"), 1, "bock is declared for 1 to 3 rounds at once, not 4"),
        (("bock", "--with-deal", "2"), 1, "card night 'n' has no deal 2: it has 1 deal"),
        (("bock", "--by", "Anna", "--reason", "a\tb"), 1, "the reason"),
        (("bock", "--by", "Zoe"), 1, "who declares bock: 'Zoe' is not at the table (Anna, Ben, Clara, Dirk)"),
        (("bock",), 1, "who declares bock: 'tester' is not at the table"),  # the recorder keeps the score
    ],
)
def test_a_refused_change_says_why_in_one_line_and_writes_nothing(
    cli: Cli, ledger_path: str | Path, args: tuple[str, ...], code: int, fragment: str
) -> None:
    night(cli)
    record(cli, "Anna,Ben")
    before = snapshot(ledger_path)
    result = cli(*args)
    refused(result, fragment)
    assert result.exit_code == code
    assert snapshot(ledger_path) == before


def test_the_rules_change_from_the_next_deal_and_the_standings_say_which_counting_is_in_force(cli: Cli) -> None:
    night(cli, "Anna,Ben,Clara,Dirk", "--rate", "0.10")
    record(cli, "Anna,Ben")  # Re wins 1
    words = ok(cli("session", "rules", "--set", "counting=winners_only", "--set", "bock_triggers=[tie]")).stdout
    assert words.strip() == "the rules change: bock_triggers [tie], counting winners_only, from deal 2"
    record(cli, "Anna,Ben", "100")  # Kontra wins 2 (against the old ones): only the winners write it
    shown = standings(cli)
    assert shown["counting"] == "winners_only"
    assert [d["counting"] for d in shown["deals"]] == ["plus_minus", "winners_only"]
    assert shown["deals"][1]["points"] == {"Anna": -2, "Ben": -2, "Clara": 2, "Dirk": 2}
    assert shown["deals"][1]["sheet"] == {"Anna": 0, "Ben": 0, "Clara": 2, "Dirk": 2}
    assert {t["player"]: t["total"] for t in shown["table"]} == {"Anna": 1, "Ben": 1, "Clara": 1, "Dirk": 1}
    assert {t["player"]: t["money"] for t in shown["table"]} == dict.fromkeys(["Anna", "Ben", "Clara", "Dirk"], "0.00")
    game = as_json(cli("score", "n-02", "--json"))
    assert game["rules"]["counting"] == "winners_only"  # the deal's own game took the rules in force
    stats = {p["player"]: p["total"] for p in as_json(cli("stats", "--session", "n", "--json"))["players"]}
    assert stats == {t["player"]: t["total"] for t in shown["table"]}
    assert "counting in force: winners only (the losers write 0)" in flat(ok(cli("standings")).stdout)


def test_bock_declared_by_hand_and_taken_back_with_undo(cli: Cli) -> None:
    night(cli)
    record(cli, "Anna,Ben")
    out = ok(cli("bock", "--by", "clara", "--reason", "Hochzeit", "--rounds", "2")).stdout.strip()
    assert out == "bock declared by Clara (Hochzeit): 2 rounds, from deal 2"
    shown = standings(cli)
    assert shown["next"]["multiplier"] == 2 and shown["next"]["bock"] == "deal 1, declared by Clara (Hochzeit)"
    rounds = [(b["declared_by"], b["deals_left"], b["in_force"]) for b in shown["bock_rounds"]]
    assert rounds == [("Clara", 4, True), ("Clara", 4, False)]  # one round in force, one queued
    text = flat(ok(cli("standings")).stdout)
    assert "bock in force: deal 1, declared by Clara (Hochzeit), 4 deals left" in text
    assert "bock queued: deal 1, declared by Clara (Hochzeit), 4 deals left" in text
    undone = ok(cli("undo", "--yes")).stdout
    assert "took back bock declared by Clara (Hochzeit): 2 rounds, from deal 2" in flat(undone)
    assert standings(cli)["next"]["multiplier"] == 1 and standings(cli)["changes"] == []


def test_bock_with_the_deal_just_recorded_goes_when_that_deal_is_taken_back(cli: Cli) -> None:
    night(cli)
    record(cli, "Anna,Ben")
    assert ok(cli("bock", "--with-deal", "1", "--by", "Dirk")).stdout.strip() == "bock declared by Dirk with deal 1"
    record(cli, "Anna,Ben")
    assert standings(cli)["deals"][1]["multiplier"] == 2
    ok(cli("undo", "--yes"))
    taken = flat(ok(cli("undo", "--yes")).stdout)
    assert "took back deal 1 (n-01) with the bock declared with it" in taken
    shown = standings(cli)
    assert shown["deals"] == [] and shown["changes"] == [] and shown["bock_rounds"] == []


def test_undo_asks_before_it_takes_back_a_change(cli: Cli) -> None:
    night(cli)
    ok(cli("session", "join", "Erik"))
    refused(cli("undo"), "nothing was taken back")
    assert standings(cli)["seating"] == ["Anna", "Ben", "Clara", "Dirk", "Erik"]
    assert flat(ok(cli("undo", "-y")).stdout) == "took back Erik joins after Dirk, from deal 1"
    assert standings(cli)["seating"] == ["Anna", "Ben", "Clara", "Dirk"]
    refused(cli("undo", "-y"), "has nothing to take back")


def test_the_csv_leaves_a_player_not_at_the_table_blank(cli: Cli) -> None:
    night(cli)
    record(cli, "Anna,Ben")
    ok(cli("session", "join", "Erik", "--after", "Dirk"))
    lines = ok(cli("standings", "--csv")).stdout.splitlines()
    assert lines[0].split(",")[6:11] == ["Anna points", "Ben points", "Clara points", "Dirk points", "Erik points"]
    assert lines[1].split(",")[6:11] == ["1", "1", "-1", "-1", ""]
