"""Card nights through typer's CliRunner (docs/rules.md §9): `doko session start|list|close`,
`record`, `undo`, `correct`, `standings`, `settle`, `deal --seed` and `play`.

The runner's stdin is not a terminal, so every command runs without prompts: `record` and
`correct` append only with `--yes`. A refused command must leave the ledger's bytes as they
were and say why in one line on stderr.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from backends import ledger_path_on_both  # noqa: F401  (every test on both databases)
from cli_helpers import as_json, exists, flat, ok, refused, snapshot
from typer.testing import Result

from doko_ledger.doppelkopf.book import card_nights
from doko_ledger.doppelkopf.events import CardPlayed
from doko_ledger.doppelkopf.game.evolve import evolve
from doko_ledger.doppelkopf.game.record import SummaryRecord
from doko_ledger.doppelkopf.rules.play import legal_plays
from doko_ledger.ledger import Ledger
from doko_ledger.numbers import counted

Cli = Callable[..., Result]

PLAYERS = ("Anna", "Ben", "Clara", "Dirk")
FOUR = ",".join(PLAYERS)
FIVE = "Anna,Ben,Clara,Dirk,Emil"
SEED = "2026-11-30"


# -- helpers ---------------------------------------------------------------------------


def start(cli: Cli, session: str = "n", players: str = FOUR, *options: str | Path) -> Result:
    return ok(cli("session", "start", session, "--players", players, *options))


def record(cli: Cli, *args: str) -> Result:
    return ok(cli("record", *args, "--yes"))


def standings(cli: Cli, *args: str) -> Any:
    return as_json(cli("standings", "--json", *args))


def points(cli: Cli) -> list[dict[str, int]]:
    return [d["points"] for d in standings(cli)["deals"]]


def zero_sum_everywhere(night: Any) -> None:
    """Every deal's points and the running totals after it sum to zero; the totals are the
    running sums of the points; the table's totals are the last running totals."""
    running = dict.fromkeys(night["players"], 0)
    for deal in night["deals"]:
        assert sum(deal["points"].values()) == 0, deal
        assert sum(deal["totals"].values()) == 0, deal
        for player, value in deal["points"].items():
            running[player] += value
        assert deal["totals"] == running, deal
    assert {s["player"]: s["total"] for s in night["table"]} == running


@pytest.fixture
def bock_rules(tmp_path: Path) -> Path:
    path = tmp_path / "bock.yaml"
    path.write_text("preset: standard\nbock_triggers: [tie]\nbock_multiplier: 2\n", encoding="utf-8")
    return path


# -- session start, list, close --------------------------------------------------------


@pytest.mark.parametrize("count", [4, 5, 6, 7])
def test_session_start_takes_four_to_seven_players(cli: Cli, count: int) -> None:
    names = ["Anna", "Ben", "Clara", "Dirk", "Emil", "Fritz", "Greta"][:count]
    result = start(cli, "n", ",".join(names))
    assert f"card night n started: {', '.join(names)}; Anna deals first" in flat(result.stdout)
    [night] = as_json(cli("session", "list", "--json"))
    assert night == {"session": "n", "players": names, "deals": 0, "closed": False, "game": "doppelkopf"}
    upcoming = standings(cli)["next"]
    assert upcoming["dealer"] == "Anna"
    # the four to the dealer's left play; with five or more the dealer sits out
    assert upcoming["playing"] == (names if count == 4 else names[1:5])


def test_session_start_with_dealer_rate_date_and_preset(cli: Cli) -> None:
    result = start(cli, "n", FOUR, "--dealer", "Clara", "--rate", "0.05", "--date", "2026-11-28", "--rules", "bistro")
    assert "Clara deals first" in result.stdout
    night = standings(cli)
    assert night["rate"] == "0.05"
    assert night["next"]["dealer"] == "Clara"
    record(cli, "--re", "Anna,Ben", "--re-points", "150")
    [game] = as_json(cli("games", "--json"))
    assert game["game_id"] == "n-01"
    assert game["played_on"] == "2026-11-28"
    assert game["rules"] == "bistro"
    assert game["dealer"] == "Clara"
    assert standings(cli)["deals"][0]["dealer"] == "Clara"


@pytest.mark.parametrize("typed", ["0,05", "0.05"])
def test_a_rate_is_taken_with_a_decimal_comma_as_it_is_typed_in_german(cli: Cli, typed: str) -> None:
    start(cli, "n", FOUR, "--rate", typed)
    assert standings(cli)["rate"] == "0.05"


@pytest.mark.parametrize("typed", ["0,0,5", "0.05,1", "5%", "-1"])
def test_a_rate_that_is_no_decimal_amount_is_refused_in_one_line(cli: Cli, typed: str) -> None:
    result = cli("session", "start", "n", "--players", FOUR, "--rate", typed)
    assert result.exit_code != 0
    assert f"the money rate must be a decimal amount per point such as 0.05, not {typed!r}" in result.output
    start(cli, "n", FOUR, "--rate", "0,05")  # nothing of the refused night was written


def test_session_start_with_a_rule_file(cli: Cli, bock_rules: Path) -> None:
    start(cli, "n", FOUR, "--rules", bock_rules)
    result = record(cli, "--re", "Anna,Clara", "--re-points", "150")
    [game] = as_json(cli("games", "--json"))
    assert game["rules"] == "standard"
    stored = as_json(cli("replay", "n-01", "--json"))["rules"]
    assert (stored["bock_triggers"], stored["bock_multiplier"]) == (["tie"], 2)
    # the score shown is under the night's house rules (a changed preset is starred)
    assert "standard*" in result.stdout


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        ("Anna,Ben,Clara", [], "a card night has 4 to 7 players, not 3"),
        ("A,B,C,D,E,F,G,H", [], "a card night has 4 to 7 players, not 8"),
        ("Anna,Ben,Anna,Dirk", [], "player 'Anna' is at the table twice"),
        (FOUR, ["--dealer", "Zed"], "--dealer: 'Zed' is not one of the players"),
        (FOUR, ["--rules", "fancy"], "no preset, house-rule set or rule file 'fancy'"),
        (FOUR, ["--rate", "lots"], "the money rate must be a decimal amount"),
    ],
)
def test_session_start_refused(cli: Cli, ledger_path: Path, players: str, options: list[str], message: str) -> None:
    # a closed night in the ledger, so that the named problem is the only one
    ok(cli("session", "start", "first", "--players", FOUR))
    ok(cli("session", "close"))
    before = snapshot(ledger_path)
    refused(cli("session", "start", "n", "--players", players, *options), message)
    assert snapshot(ledger_path) == before
    assert [s["session"] for s in as_json(cli("session", "list", "--json"))] == ["first"]


def test_a_second_open_night_is_refused(cli: Cli, ledger_path: Path) -> None:
    start(cli, "n1")
    before = snapshot(ledger_path)
    refused(cli("session", "start", "n2", "--players", FOUR), "card night 'n1' is still open")
    assert snapshot(ledger_path) == before
    ok(cli("session", "close"))
    refused(cli("session", "start", "n1", "--players", FOUR), "a card night 'n1' is already in the ledger")
    start(cli, "n2")
    assert [(s["session"], s["closed"]) for s in as_json(cli("session", "list", "--json"))] == [
        ("n1", True),
        ("n2", False),
    ]


def test_session_list_table_and_json(cli: Cli) -> None:
    start(cli, "2026-11-28-kitchen")
    record(cli, "--game", "club_solo", "--re", "Dirk", "--re-points", "130")
    ok(cli("session", "close"))
    start(cli, "2026-12-05-verein", FIVE)
    table = flat(ok(cli("session", "list")).stdout)
    assert "card nights" in table
    assert "2026-11-28-kitchen │ Anna, Ben, Clara, Dirk │ 1 │ Dirk +3 │ closed" in table
    assert "2026-12-05-verein │ Anna, Ben, Clara, Dirk, Emil │ 0 │ │ open" in table
    assert as_json(cli("session", "list", "--json")) == [
        {"session": "2026-11-28-kitchen", "players": list(PLAYERS), "deals": 1, "closed": True, "game": "doppelkopf"},
        {"session": "2026-12-05-verein", "players": FIVE.split(","), "deals": 0, "closed": False, "game": "doppelkopf"},
    ]


def test_session_list_without_a_ledger_is_refused(cli: Cli, ledger_path: Path) -> None:
    refused(cli("session", "list", "--json"), "no ledger at")
    assert not exists(ledger_path)


def test_a_closed_night_takes_nothing_more(cli: Cli, ledger_path: Path) -> None:
    start(cli, "n")
    record(cli, "--re", "Anna,Clara", "--re-points", "150")
    assert ok(cli("session", "close")).stdout.strip() == "card night n closed"
    assert standings(cli, "--session", "n")["closed"] is True
    before = snapshot(ledger_path)
    refused(cli("record", "--re", "Anna,Clara", "--re-points", "150", "--yes"), "no open card night")
    refused(
        cli("record", "--session", "n", "--re", "Anna,Clara", "--re-points", "150", "--yes"),
        "session 'n' is closed: nothing more can be added or changed",
    )
    refused(cli("undo", "-y", "--session", "n"), "is closed")
    refused(cli("correct", "n-01", "--session", "n", "--re", "Ben,Dirk", "--re-points", "150", "--yes"), "is closed")
    refused(cli("session", "close", "n"), "is closed")
    assert snapshot(ledger_path) == before
    # still readable
    assert len(standings(cli, "--session", "n")["deals"]) == 1


def test_commands_without_any_night_are_refused(cli: Cli) -> None:
    start(cli, "n")
    ok(cli("session", "close"))
    for args in (["undo"], ["deal", "--seed", SEED], ["play", "CQ"]):
        refused(cli(*args), "no open card night")
    refused(cli("standings", "--session", "nope"), "no card night 'nope' in the ledger")


# -- record ----------------------------------------------------------------------------


def test_record_shows_the_score_before_appending(cli: Cli) -> None:
    start(cli, "n")
    result = record(cli, "--re", "Anna,Clara", "--re-points", "150")
    out = flat(result.stdout)
    assert out.startswith("deal 1: Anna deals; playing Anna, Ben, Clara, Dirk")
    assert "Re took 150 card points; reached" in out
    assert "Re wins │ Re │ 1" in out
    assert out.index("Re wins") < out.index("recorded deal 1 as n-01")
    assert out.endswith("recorded deal 1 as n-01")
    assert points(cli) == [{"Anna": 1, "Ben": -1, "Clara": 1, "Dirk": -1}]


def test_record_a_solo(cli: Cli) -> None:
    start(cli, "n")
    result = record(cli, "--game", "club_solo", "--re", "Dirk", "--re-points", "130")
    assert "recorded deal 1 as n-01" in result.stdout
    [deal] = standings(cli)["deals"]
    assert deal["game_type"] == "club_solo"
    assert deal["points"] == {"Anna": -1, "Ben": -1, "Clara": -1, "Dirk": 3}
    table = flat(ok(cli("standings")).stdout)
    assert "club solo (Dirk)" in table


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        # Re 150 wins: 1, +2 for Re
        (["--call", "Anna=re"], 3),
        # +2 for Re, +2 for Kontra; calls repeated or comma-separated alike
        (["--call", "Anna=re", "--call", "Ben=kontra"], 5),
        (["--call", "Anna=re,Ben=kontra"], 5),
        # a fox caught by Re: +1
        (["--special", "re:fox_caught:Ben"], 2),
        # each party scores its own special points: 1 + 1 - 1
        (["--special", "re:fox_caught:Ben", "--special", "kontra:doppelkopf"], 1),
    ],
)
def test_record_calls_and_special_points(cli: Cli, args: list[str], expected: int) -> None:
    start(cli, "n")
    record(cli, "--re", "Anna,Clara", "--re-points", "150", *args)
    assert points(cli) == [{"Anna": expected, "Ben": -expected, "Clara": expected, "Dirk": -expected}]


def test_record_schwarz_with_tricks(cli: Cli) -> None:
    start(cli, "n")
    record(cli, "--re", "Anna,Clara", "--re-points", "240", "--tricks", "12:0")
    # won 1, below 90, 60, 30, and schwarz: 1 each
    assert points(cli) == [{"Anna": 5, "Ben": -5, "Clara": 5, "Dirk": -5}]
    # 240 card points but Kontra won a trick: no schwarz point
    record(cli, "--re", "Anna,Clara", "--re-points", "240", "--tricks", "11:1")
    assert points(cli)[1] == {"Anna": 4, "Ben": -4, "Clara": 4, "Dirk": -4}


def test_record_a_misdeal(cli: Cli) -> None:
    start(cli, "n")
    result = record(cli, "--misdeal")
    assert "recorded deal 1 as n-01" in result.stdout
    night = standings(cli)
    [deal] = night["deals"]
    assert deal["thrown_in"] is True
    assert deal["points"] == dict.fromkeys(PLAYERS, 0)
    assert deal["dealer"] == "Anna"
    assert night["next"]["dealer"] == "Anna"
    assert "thrown in" in ok(cli("standings")).stdout


def test_record_without_yes_off_a_terminal_appends_nothing(cli: Cli, ledger_path: Path) -> None:
    start(cli, "n")
    before = snapshot(ledger_path)
    result = cli("record", "--re", "Anna,Clara", "--re-points", "150")
    refused(result, "nothing was appended: confirm with --yes when not at a terminal")
    assert "Re wins" in result.stdout  # the score was shown
    assert snapshot(ledger_path) == before
    assert standings(cli)["deals"] == []


def test_record_without_facts_off_a_terminal_is_refused(cli: Cli, ledger_path: Path) -> None:
    start(cli, "n")
    before = snapshot(ledger_path)
    refused(cli("record", "--yes"), "give --re and --re-points")
    refused(cli("record", "--re", "Anna,Clara", "--yes"), "give --re and --re-points")
    assert snapshot(ledger_path) == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--re", "Anna,Zed", "--re-points", "150"], "unknown player 'Zed'"),
        (["--re", "Anna,Clara", "--re-points", "241"], "Re's card points must be 0-240, not 241"),
        (["--re", "Anna,Clara", "--re-points", "-1"], "Re's card points must be 0-240, not -1"),
        (["--re", "Ben,Clara", "--re-points", "150", "--call", "Anna=re"], "Anna is Kontra"),
        (["--re", "Anna,Clara", "--re-points", "150", "--call", "Anna=kontra"], "Anna is Re"),
        (["--re", "Anna,Clara", "--re-points", "150", "--call", "Anna:re"], "--call: write PLAYER=CALL"),
        (["--re", "Anna,Clara", "--re-points", "150", "--call", "Anna=no100"], "--call: write PLAYER=CALL"),
        (["--re", "Anna,Clara", "--re-points", "150", "--call", "Zed=re"], "Zed"),
        (["--re", "Anna,Clara", "--re-points", "150", "--special", "re:fox_caught:Zed"], "unknown player 'Zed'"),
        (
            ["--re", "Anna,Clara", "--re-points", "150", "--special", "re:fox_caught:Clara"],
            "fox caught (Fuchs) from Clara, who is Re too",
        ),
        (["--re", "Anna,Clara", "--re-points", "150", "--special", "re:wolf"], "--special: write PARTY:KIND[:FROM]"),
        (
            ["--game", "club_solo", "--re", "Dirk", "--re-points", "150", "--special", "re:doppelkopf"],
            "special points in a solo",
        ),
        (
            ["--re", "Anna,Clara", "--re-points", "150", "--tricks", "12:0"],
            "schwarz claimed while Kontra has 90 card points",
        ),
        (["--re", "Anna,Clara", "--re-points", "150", "--tricks", "9"], "--tricks: write Re's and Kontra's tricks"),
        (["--game", "skat", "--re", "Anna", "--re-points", "150"], "--game: unknown game type 'skat'"),
        (["--game", "club_solo", "--re", "Anna,Ben", "--re-points", "150"], "played by one soloist"),
    ],
)
def test_record_refuses_bad_facts(cli: Cli, ledger_path: Path, args: list[str], message: str) -> None:
    start(cli, "n")
    record(cli, "--re", "Anna,Clara", "--re-points", "150")
    before = snapshot(ledger_path)
    refused(cli("record", *args, "--yes"), message)
    assert snapshot(ledger_path) == before
    assert len(standings(cli)["deals"]) == 1


def test_record_refuses_a_player_who_sits_out(cli: Cli, ledger_path: Path) -> None:
    start(cli, "n", FIVE)
    before = snapshot(ledger_path)
    # with five, the dealer (Anna) sits out deal 1
    message = refused(cli("record", "--re", "Anna,Clara", "--re-points", "150", "--yes"), "'Anna'")
    assert "Ben, Clara, Dirk, Emil" in message
    assert snapshot(ledger_path) == before


# -- dealer rotation and sit-outs ------------------------------------------------------


def test_dealer_passes_to_the_left_with_four(cli: Cli) -> None:
    start(cli, "n", FOUR, "--dealer", "Ben")
    for _ in range(5):
        record(cli, "--re", "Anna,Clara", "--re-points", "150")
    night = standings(cli)
    assert [d["dealer"] for d in night["deals"]] == ["Ben", "Clara", "Dirk", "Anna", "Ben"]
    assert all(d["playing"] == list(PLAYERS) and d["sitting_out"] == [] for d in night["deals"])
    assert night["next"]["dealer"] == "Clara"
    zero_sum_everywhere(night)


def test_with_five_the_dealer_sits_out(cli: Cli) -> None:
    names = FIVE.split(",")
    start(cli, "n", FIVE, "--dealer", "Ben")
    for number in range(1, 7):
        upcoming = standings(cli)["next"]
        dealer = names.index(upcoming["dealer"])
        assert upcoming["playing"] == [names[(dealer + i) % 5] for i in range(1, 5)]
        result = record(cli, "--re", ",".join(upcoming["playing"][:2]), "--re-points", "150")
        assert flat(result.stdout).startswith(
            f"deal {number}: {upcoming['dealer']} deals; playing {', '.join(upcoming['playing'])}"
        )
    night = standings(cli)
    assert [d["dealer"] for d in night["deals"]] == ["Ben", "Clara", "Dirk", "Emil", "Anna", "Ben"]
    for deal in night["deals"]:
        assert deal["sitting_out"] == [deal["dealer"]]
        assert deal["dealer"] not in deal["playing"] and len(deal["playing"]) == 4
        assert deal["points"][deal["dealer"]] == 0
    zero_sum_everywhere(night)
    # the one sitting out shows as a dot in the table
    row = next(line for line in ok(cli("standings")).stdout.splitlines() if line.startswith("│ 1 "))
    assert row.count("·") == 1
    # a sitting-out player did not play that deal
    assert {s["player"]: s["played"] for s in night["table"]} == {
        "Anna": 5,
        "Ben": 4,
        "Clara": 5,
        "Dirk": 5,
        "Emil": 5,
    }


def test_a_misdeal_keeps_the_dealer(cli: Cli) -> None:
    start(cli, "n", FIVE, "--dealer", "Clara")
    record(cli, "--re", "Dirk,Emil", "--re-points", "150")
    record(cli, "--misdeal")
    record(cli, "--misdeal")
    result = record(cli, "--re", "Emil,Anna", "--re-points", "150")
    assert flat(result.stdout).startswith("deal 4: Dirk deals; playing Emil, Anna, Ben, Clara")
    night = standings(cli)
    assert [d["dealer"] for d in night["deals"]] == ["Clara", "Dirk", "Dirk", "Dirk"]
    assert [d["thrown_in"] for d in night["deals"]] == [False, True, True, False]
    assert [d["sitting_out"] for d in night["deals"]] == [["Clara"], ["Dirk"], ["Dirk"], ["Dirk"]]
    assert night["next"]["dealer"] == "Emil"
    zero_sum_everywhere(night)


# -- bock rounds -----------------------------------------------------------------------


def test_a_tie_starts_a_bock_round(cli: Cli, bock_rules: Path) -> None:
    start(cli, "b", FOUR, "--rules", bock_rules)
    # 120:120, nothing announced: Kontra wins with 120 (1 + 1 against the old ones)
    record(cli, "--re", "Anna,Clara", "--re-points", "120")
    night = standings(cli)
    assert night["deals"][0]["points"] == {"Anna": -2, "Ben": 2, "Clara": -2, "Dirk": 2}
    assert night["next"]["multiplier"] == 2
    shown = flat(ok(cli("standings")).stdout)
    assert "bock ×2" in shown
    assert "bock deals still queued: 4" in shown
    for _ in range(5):
        record(cli, "--re", "Anna,Ben", "--re-points", "150")
    night = standings(cli)
    assert [d["multiplier"] for d in night["deals"]] == [1, 2, 2, 2, 2, 1]
    # a won normal game is worth 1: doubled during the bock round
    for deal in night["deals"][1:5]:
        assert deal["points"] == {"Anna": 2, "Ben": 2, "Clara": -2, "Dirk": -2}
    assert night["deals"][5]["points"] == {"Anna": 1, "Ben": 1, "Clara": -1, "Dirk": -1}
    assert night["next"]["multiplier"] == 1
    zero_sum_everywhere(night)
    csv_rows = ok(cli("standings", "--csv")).stdout.splitlines()
    assert [row.split(",")[5] for row in csv_rows[1:]] == ["1", "2", "2", "2", "2", "1"]


def test_undoing_the_tie_takes_the_bock_round_away(cli: Cli, bock_rules: Path) -> None:
    start(cli, "b", FOUR, "--rules", bock_rules)
    record(cli, "--re", "Anna,Clara", "--re-points", "120")
    assert standings(cli)["next"]["multiplier"] == 2
    assert ok(cli("undo", "-y")).stdout.strip() == "took back deal 1 (b-01)"
    night = standings(cli)
    assert night["deals"] == []
    assert night["next"]["multiplier"] == 1
    assert "bock" not in ok(cli("standings")).stdout
    for _ in range(2):
        record(cli, "--re", "Anna,Ben", "--re-points", "150")
    assert [d["multiplier"] for d in standings(cli)["deals"]] == [1, 1]


def test_correcting_the_tie_takes_the_bock_round_away(cli: Cli, bock_rules: Path) -> None:
    start(cli, "b", FOUR, "--rules", bock_rules)
    record(cli, "--re", "Anna,Clara", "--re-points", "120")
    record(cli, "--re", "Anna,Ben", "--re-points", "150")
    record(cli, "--re", "Anna,Ben", "--re-points", "150")
    assert [d["multiplier"] for d in standings(cli)["deals"]] == [1, 2, 2]
    ok(cli("correct", "b-01", "--re", "Anna,Clara", "--re-points", "130", "--yes"))
    night = standings(cli)
    assert [d["multiplier"] for d in night["deals"]] == [1, 1, 1]
    assert [d["points"]["Anna"] for d in night["deals"]] == [1, 1, 1]
    assert night["next"]["multiplier"] == 1
    zero_sum_everywhere(night)


# -- undo and correct ------------------------------------------------------------------


def test_undo_takes_back_the_last_deal(cli: Cli) -> None:
    start(cli, "n")
    record(cli, "--re", "Anna,Clara", "--re-points", "150")
    record(cli, "--game", "club_solo", "--re", "Dirk", "--re-points", "130")
    assert ok(cli("undo", "-y")).stdout.strip() == "took back deal 2 (n-02)"
    night = standings(cli)
    assert [d["game_id"] for d in night["deals"]] == ["n-01"]
    assert night["next"] == {**night["next"], "number": 2, "dealer": "Ben"}
    assert {s["player"]: s["total"] for s in night["table"]} == {"Anna": 1, "Ben": -1, "Clara": 1, "Dirk": -1}
    # the voided deal stays in the ledger
    games = {g["game_id"]: g for g in as_json(cli("games", "--json"))}
    assert set(games) == {"n-01", "n-02"}
    assert games["n-02"]["game_type"] == "club_solo"
    # the next deal gets a new id that keeps its number
    assert "recorded deal 2 as n-02b" in record(cli, "--re", "Anna,Ben", "--re-points", "150").stdout
    ok(cli("undo", "-y"))
    ok(cli("undo", "-y"))
    refused(cli("undo", "-y"), "card night 'n' has nothing to take back")


def test_record_with_a_deal_number_refuses_a_deal_recorded_already(cli: Cli, ledger_path: Path) -> None:
    """`--deal N` makes trying again safe: after deal N was recorded it is refused, in one line
    that names who recorded it and the next deal; a number past the next deal is bad input."""
    start(cli, "n")
    assert "recorded deal 1 as n-01" in record(cli, "--deal", "1", "--re", "Anna,Clara", "--re-points", "150").stdout
    before = snapshot(ledger_path)
    retry = cli("record", "--deal", "1", "--re", "Anna,Clara", "--re-points", "150", "--yes")
    assert retry.exit_code == 1
    line = refused(retry, "deal 1 is already recorded (n-01, by tester), so it is not recorded again")
    assert line.endswith("the next deal is deal 2 (`doko record --deal 2`)")
    past = cli("record", "--deal", "3", "--re", "Anna,Clara", "--re-points", "150", "--yes")
    assert past.exit_code == 2
    refused(past, "card night 'n' has 1 deal: the next is deal 2, not 3")
    assert snapshot(ledger_path) == before
    assert [d["game_id"] for d in standings(cli)["deals"]] == ["n-01"]
    record(cli, "--deal", "2", "--misdeal")
    # a deal taken back is the next deal again
    ok(cli("undo", "-y"))
    assert "recorded deal 2 as n-02b" in record(cli, "--deal", "2", "--re", "Anna,Ben", "--re-points", "150").stdout
    assert [d["game_id"] for d in standings(cli)["deals"]] == ["n-01", "n-02b"]


def test_undo_with_a_deal_number_takes_back_only_that_deal(cli: Cli, ledger_path: Path) -> None:
    """Trying `doko undo --deal N` again after deal N was taken back is refused: it never takes
    back the deal before it."""
    start(cli, "n")
    record(cli, "--re", "Anna,Clara", "--re-points", "150")
    record(cli, "--re", "Anna,Ben", "--re-points", "150")
    before = snapshot(ledger_path)
    refused(cli("undo", "-y", "--deal", "1"), "deal 1 is not the last deal of card night 'n' (deal 2 is)")
    refused(cli("undo", "-y", "--deal", "2", "--game", "n-02"), "give --game or --deal, not both")
    assert snapshot(ledger_path) == before
    assert ok(cli("undo", "-y", "--deal", "2")).stdout.strip() == "took back deal 2 (n-02)"
    retry = cli("undo", "-y", "--deal", "2")
    assert retry.exit_code == 1
    refused(retry, "card night 'n' has 1 deal, so deal 2 is not taken back")
    assert [d["game_id"] for d in standings(cli)["deals"]] == ["n-01"]


def test_a_correction_tried_again_is_refused(cli: Cli, ledger_path: Path) -> None:
    start(cli, "n")
    record(cli, "--re", "Anna,Clara", "--re-points", "150")
    ok(cli("correct", "1", "--re", "Ben,Dirk", "--re-points", "150", "--yes"))
    before = snapshot(ledger_path)
    again = cli("correct", "1", "--re", "Ben,Dirk", "--re-points", "150", "--yes")
    assert again.exit_code == 1
    refused(again, "deal 1 (n-01-c1) has these facts already, so nothing is corrected")
    assert snapshot(ledger_path) == before
    ok(cli("correct", "1", "--misdeal", "--yes"))
    refused(cli("correct", "1", "--misdeal", "--yes"), "deal 1 (n-01-c2) is a misdeal already")
    assert [d["game_id"] for d in standings(cli)["deals"]] == ["n-01-c2"]
    assert sorted(g["game_id"] for g in as_json(cli("games", "--json"))) == ["n-01", "n-01-c1", "n-01-c2"]


def test_correct_replaces_a_deal(cli: Cli, ledger_path: Path) -> None:
    start(cli, "n")
    record(cli, "--re", "Anna,Clara", "--re-points", "150")
    record(cli, "--re", "Anna,Ben", "--re-points", "150")
    before = snapshot(ledger_path)
    refused(cli("correct", "n-01", "--re", "Ben,Dirk", "--re-points", "150"), "confirm with --yes")
    refused(cli("correct", "n-09", "--re", "Ben,Dirk", "--re-points", "150", "--yes"), "'n-09' is not a deal")
    refused(cli("correct", "n-01", "--re", "Ben,Zed", "--re-points", "150", "--yes"), "unknown player 'Zed'")
    assert snapshot(ledger_path) == before
    result = ok(cli("correct", "n-01", "--re", "Ben,Dirk", "--re-points", "150", "--call", "Ben=re", "--yes"))
    assert result.stdout.splitlines()[-1] == "deal 1 (n-01) corrected: now n-01-c1"
    night = standings(cli)
    assert [d["game_id"] for d in night["deals"]] == ["n-01-c1", "n-02"]
    assert night["deals"][0]["dealer"] == "Anna"
    assert night["deals"][0]["points"] == {"Anna": -3, "Ben": 3, "Clara": -3, "Dirk": 3}
    assert {s["player"]: s["total"] for s in night["table"]} == {"Anna": -2, "Ben": 4, "Clara": -4, "Dirk": 2}
    zero_sum_everywhere(night)
    games = {g["game_id"]: g for g in as_json(cli("games", "--json"))}
    assert set(games) == {"n-01", "n-02", "n-01-c1"}
    assert games["n-01"]["re_players"] == ["Anna", "Clara"]
    assert games["n-01-c1"]["re_players"] == ["Ben", "Dirk"]
    # a corrected deal can be corrected again; the replaced one cannot
    refused(cli("correct", "n-01", "--re", "Ben,Dirk", "--re-points", "100", "--yes"), "'n-01' is not a deal")
    result = ok(cli("correct", "n-01-c1", "--re", "Ben,Dirk", "--re-points", "100", "--yes"))
    assert result.stdout.splitlines()[-1] == "deal 1 (n-01-c1) corrected: now n-01-c2"


def test_correct_keeps_the_night_in_the_new_id(cli: Cli) -> None:
    start(cli, "kitchen-corner")
    record(cli, "--re", "Anna,Clara", "--re-points", "150")
    ok(cli("correct", "kitchen-corner-01", "--re", "Anna,Clara", "--re-points", "100", "--yes"))
    ok(cli("session", "close"))
    start(cli, "kitchen-cafe")
    record(cli, "--re", "Anna,Clara", "--re-points", "150")
    result = ok(cli("correct", "kitchen-cafe-01", "--re", "Anna,Clara", "--re-points", "100", "--yes"))
    assert result.stdout.splitlines()[-1] == "deal 1 (kitchen-cafe-01) corrected: now kitchen-cafe-01-c1"


def test_correcting_a_misdeal_keeps_the_later_deals_consistent(cli: Cli) -> None:
    start(cli, "m", FIVE)
    record(cli, "--misdeal")
    record(cli, "--re", "Ben,Clara", "--re-points", "150")  # Anna deals again and sits out
    result = cli("correct", "m-01", "--re", "Ben,Clara", "--re-points", "150", "--yes")
    if result.exit_code != 0:
        refused(result)  # refusing the correction is a fine answer
        return
    night = standings(cli)
    game = as_json(cli("replay", "m-02", "--json"))
    assert sorted(night["deals"][1]["playing"]) == sorted(game["players"])
    for deal in night["deals"]:
        assert all(deal["points"][p] == 0 for p in deal["sitting_out"]), deal


# -- standings -------------------------------------------------------------------------


def _three_deals(cli: Cli) -> None:
    start(cli, "n")
    record(cli, "--re", "Anna,Clara", "--re-points", "150")
    record(cli, "--game", "club_solo", "--re", "Dirk", "--re-points", "130")
    record(cli, "--re", "Anna,Ben", "--re-points", "100", "--call", "Dirk=kontra")


def test_standings_table(cli: Cli) -> None:
    _three_deals(cli)
    out = ok(cli("standings")).stdout
    text = flat(out)
    assert "card night n" in text
    assert "running totals" in text
    assert "club solo (Dirk)" in text
    for player in PLAYERS:
        assert player in text
    # the summary, highest total first: player, total, played, won, solos, solos won
    deals_end = out.index("running totals")
    summary = [
        line.split()
        for line in out[:deals_end].splitlines()
        if line.split()[:1] in ([p] for p in PLAYERS) and "│" not in line
    ]
    assert summary == [
        ["Dirk", "+6", "3", "2", "1", "1"],
        ["Clara", "+4", "3", "2", "0", "0"],
        ["Anna", "-4", "3", "1", "0", "0"],
        ["Ben", "-6", "3", "0", "0", "0"],
    ]
    chart = {line.split()[0]: line.split()[1:] for line in out[deals_end:].splitlines()[1:5]}
    assert chart == {"Anna": ["▅▄▂", "-4"], "Ben": ["▃▃▁", "-6"], "Clara": ["▅▄▆", "+4"], "Dirk": ["▃▅█", "+6"]}
    assert "from -6 to +6" in out[deals_end:]
    assert "deal 4: Dirk deals; playing Anna, Ben, Clara, Dirk" in text


def test_standings_csv(cli: Cli) -> None:
    _three_deals(cli)
    lines = ok(cli("standings", "--csv")).stdout.splitlines()
    assert lines[0] == (
        "deal,game,dealer,match,round,multiplier,"
        "Anna points,Ben points,Clara points,Dirk points,Anna total,Ben total,Clara total,Dirk total"
    )
    assert lines[1:] == [
        "1,n-01,Anna,1,1,1,1,-1,1,-1,1,-1,1,-1",
        "2,n-02,Ben,1,1,1,-1,-1,-1,3,0,-2,0,2",
        # Kontra (Clara, Dirk) wins with 140 and its Kontra: 1 + 1 + 2 = 4
        "3,n-03,Clara,1,1,1,-4,-4,4,4,-4,-6,4,6",
    ]
    for line in lines[1:]:
        assert sum(int(v) for v in line.split(",")[6:10]) == 0
        assert sum(int(v) for v in line.split(",")[10:]) == 0


def test_standings_json_sums_to_zero_after_every_deal(cli: Cli) -> None:
    start(cli, "n", FIVE)
    deals = [
        ["--re", "Ben,Clara", "--re-points", "150"],
        ["--game", "heart_solo", "--re", "Emil", "--re-points", "100", "--call", "Emil=re"],
        ["--misdeal"],
        ["--re", "Dirk,Anna", "--re-points", "240", "--tricks", "12:0", "--special", "re:doppelkopf"],
        ["--re", "Emil,Anna", "--re-points", "120"],
    ]
    for args in deals:
        record(cli, *args)
        zero_sum_everywhere(standings(cli))
    night = standings(cli)
    assert len(night["deals"]) == 5
    # Emil's heart solo lost with his Re: 1 + 2, three times for the soloist; Ben deals and sits out
    assert night["deals"][1]["points"] == {"Anna": 3, "Ben": 0, "Clara": 3, "Dirk": 3, "Emil": -9}


# -- settle ----------------------------------------------------------------------------


def _check_payments(payments: list[dict[str, str]], balances: dict[str, Decimal]) -> None:
    net = dict.fromkeys(balances, Decimal(0))
    for p in payments:
        amount = Decimal(p["amount"])
        assert amount > 0
        net[p["payer"]] -= amount
        net[p["payee"]] += amount
    assert net == balances
    assert len(payments) <= len(balances) - 1


def test_settle_with_a_rate(cli: Cli) -> None:
    start(cli, "n", FOUR, "--rate", "0.05")
    record(cli, "--re", "Anna,Clara", "--re-points", "150", "--call", "Anna=re")
    record(cli, "--game", "club_solo", "--re", "Dirk", "--re-points", "130")
    record(cli, "--re", "Anna,Ben", "--re-points", "200")
    night = standings(cli)
    totals = {s["player"]: s["total"] for s in night["table"]}
    # 1 + 2 for Re; Dirk's solo 1 (x3); Kontra below 90 and 60: 3
    assert totals == {"Anna": 5, "Ben": -1, "Clara": -1, "Dirk": -3}
    assert {s["player"]: s["money"] for s in night["table"]} == {
        "Anna": "0.25",
        "Ben": "-0.05",
        "Clara": "-0.05",
        "Dirk": "-0.15",
    }
    payments = as_json(cli("settle", "--json"))["payments"]
    _check_payments(payments, {p: t * Decimal("0.05") for p, t in totals.items()})
    text = ok(cli("settle")).stdout
    for p in payments:
        assert f"{p['payer']} pays {p['payee']} €{Decimal(p['amount']):.2f}\n" in text
    assert counted(len(payments), "payment") in text
    assert "points" not in text
    assert "money" in ok(cli("standings")).stdout


def test_settle_without_a_rate_is_in_points(cli: Cli) -> None:
    _three_deals(cli)
    payments = as_json(cli("settle", "--json"))["payments"]
    _check_payments(payments, {"Anna": Decimal(-4), "Ben": Decimal(-6), "Clara": Decimal(4), "Dirk": Decimal(6)})
    text = ok(cli("settle")).stdout
    for p in payments:
        assert f"{p['payer']} pays {p['payee']} {p['amount']} points" in text


def test_settle_takes_the_fewest_payments(cli: Cli) -> None:
    # Anna/Clara +1 and Ben/Dirk -1 twice over: two pairs that settle among themselves
    start(cli, "n", FIVE, "--rate", "0.50")
    record(cli, "--re", "Ben,Dirk", "--re-points", "150")  # Anna deals and sits out
    record(cli, "--misdeal")
    night = standings(cli)
    totals = {s["player"]: s["total"] for s in night["table"]}
    assert totals == {"Anna": 0, "Ben": 1, "Clara": -1, "Dirk": 1, "Emil": -1}
    payments = as_json(cli("settle", "--json"))["payments"]
    _check_payments(payments, {p: t * Decimal("0.50") for p, t in totals.items()})
    assert len(payments) == 2


def test_settle_when_everybody_is_even(cli: Cli) -> None:
    start(cli, "n")
    assert "everybody is even: nothing to pay" in ok(cli("settle")).stdout
    settled = as_json(cli("settle", "--json"))
    assert settled["payments"] == []
    assert settled["ledger_head"] == as_json(cli("head", "--json"))
    assert ok(cli("settle")).stdout.rstrip().endswith(ok(cli("head")).stdout.strip())


def test_the_standings_end_with_the_ledger_head(cli: Cli) -> None:
    _three_deals(cli)
    head = as_json(cli("head", "--json"))
    assert standings(cli)["ledger_head"] == head
    text = ok(cli("standings")).stdout
    assert (
        text.rstrip().splitlines()[-1]
        == f"ledger head {head['head']} (position {head['position']}, {head['events']} events)"
    )
    ok(cli("verify", "--expect", head["head"]))


# -- deal and play ---------------------------------------------------------------------


def _hands(cli: Cli, game: str, db: Path | None = None) -> dict[str, list[str]]:
    kwargs = {} if db is None else {"db": db}
    data = as_json(cli("replay", game, "--json", **kwargs))
    return {p: sorted(h) for p, h in data["hands_dealt"].items()}


def test_the_same_seed_deals_the_same_hands(cli: Cli, tmp_path: Path) -> None:
    other = tmp_path / "other.sqlite"
    third = tmp_path / "third.sqlite"
    for db, session, seed in ((None, "kitchen", SEED), (other, "verein", SEED), (third, "pub", "2026-12-01")):
        kwargs = {} if db is None else {"db": db}
        ok(cli("session", "start", session, "--players", FOUR, **kwargs))
        result = ok(cli("deal", "--seed", seed, **kwargs))
        assert f"{session}-01" in result.stdout
        assert "reservations open" in result.stdout
    kitchen, verein = _hands(cli, "kitchen-01"), _hands(cli, "verein-01", other)
    assert kitchen == verein
    assert sorted(c for h in kitchen.values() for c in h) == sorted(
        f"{s}{r}" for s in "CSHD" for r in ("A", "10", "K", "Q", "J", "9") for _ in range(2)
    )
    assert all(len(h) == 12 for h in kitchen.values())
    assert _hands(cli, "pub-01", third) != kitchen
    # the deal is a deal of the night, being played
    night = standings(cli)
    assert [d["game_id"] for d in night["deals"]] == ["kitchen-01"]
    assert night["deals"][0]["game_type"] is None
    refused(cli("record", "--re", "Anna,Ben", "--re-points", "150", "--yes"), "still being played")


def _rest_of_the_game(ledger_path: Path, session: str, game: str) -> list[str]:
    """The remaining cards of a dealt game in play order: each time the first legal card."""
    with Ledger.open(ledger_path) as ledger:
        state = card_nights(ledger).night(session).games[game]
    cards = []
    while not state.finished:
        seat = state.to_play
        assert seat is not None and state.hands is not None
        on_table = state.current.cards if state.current is not None else ()
        card = legal_plays(state.hands[seat], on_table, state.order)[0]
        cards.append(str(card))
        state = evolve(state, CardPlayed(seat, card))
    return cards


def test_play_a_dealt_deal_card_by_card(cli: Cli, ledger_path: Path) -> None:
    start(cli, "p")
    ok(cli("deal", "--seed", SEED))
    hands = _hands(cli, "p-01")
    # what this test relies on in the seed's deal (club solo: the queens and jacks are trump)
    assert "S10" in hands["Ben"]
    assert [c for c in hands["Clara"] if c[0] == "S" and c[1:] not in ("Q", "J")] == ["S9"]
    assert "CQ" in hands["Clara"]
    assert {"SA", "S9"} <= set(hands["Dirk"])
    assert "SK" in hands["Anna"]

    result = ok(cli("play", "Dirk=club_solo"))
    assert "club solo by Dirk" in result.stdout
    assert "Ben to play" in result.stdout
    result = ok(cli("play", "S10"))
    assert "Clara to play: S9" in flat(result.stdout)

    # Clara holds a spade: CQ (trump) is a revoke, refused and not appended
    before = snapshot(ledger_path)
    refused(cli("play", "CQ"), "revoke: Clara must follow the led suit of S10 with one of S9, not CQ")
    refused(cli("play", "S9", "XX"), "unknown card 'XX'")
    refused(cli("play", "Zed=re"), "unknown player 'Zed'")
    refused(cli("play", "S9", "Ben=re"), "Ben is Kontra")
    assert snapshot(ledger_path) == before

    # the soloist says Re before his first card: in time
    result = ok(cli("play", "S9", "Dirk=re", "SA"))
    assert "trick 1: Ben S10 Clara S9 Dirk SA" in flat(result.stdout)
    assert "Anna to play" in result.stdout
    ok(cli("play", "SK"))

    # undo takes back the newest card only, and says which
    took = ok(cli("undo", "-y")).stdout.strip()
    assert took == "took back Anna's SK in trick 1 (deal 1, p-01)"
    log = as_json(cli("log", "p-01", "--json"))
    assert log[-1]["type"] == "EventVoided"
    voided = next(e for e in log if e["version"] == log[-1]["payload"]["version"])
    assert voided["type"] == "CardPlayed" and voided["payload"]["card"] == "SK"
    assert any(e["type"] == "AnnouncementMade" and e["payload"]["announcement"] == "re" for e in log)

    # the rest, each time a legal card, in one go
    rest = _rest_of_the_game(ledger_path, "p", "p-01")
    assert len(rest) == 48 - 3
    assert "the deal is complete" in ok(cli("play", *rest)).stdout
    night = standings(cli)
    [deal] = night["deals"]
    assert deal["game_type"] == "club_solo"
    assert deal["points"]["Dirk"] == -3 * deal["points"]["Ben"] != 0
    zero_sum_everywhere(night)
    assert night["next"]["dealer"] == "Ben"


def test_play_without_tokens_off_a_terminal_is_refused(cli: Cli) -> None:
    start(cli, "p")
    refused(cli("play"), "give cards and calls as arguments")


def test_play_without_a_deal_starts_one_without_hands(cli: Cli) -> None:
    start(cli, "p", FOUR, "--dealer", "Dirk")
    result = ok(cli("play", "CQ", "SQ"))
    text = flat(result.stdout)
    assert "p-01" in text
    # Dirk deals: Anna leads
    assert "trick 1: Anna CQ Ben SQ" in text
    assert "Clara to play" in text
    assert "Clara to play:" not in text  # no hands: no legal cards to show
    replay = as_json(cli("replay", "p-01", "--json"))
    assert replay["hands_dealt"] is None
    assert replay["game_type"] == "normal"
    assert [p["card"] for p in replay["tricks"][0]["plays"]] == ["CQ", "SQ"]
    night = standings(cli)
    assert [(d["game_id"], d["dealer"]) for d in night["deals"]] == [("p-01", "Dirk")]
    # undo of a card, then of the deal
    assert ok(cli("undo", "-y")).stdout.strip() == "took back Ben's SQ in trick 1 (deal 1, p-01)"
    assert [p["card"] for p in as_json(cli("replay", "p-01", "--json"))["tricks"][0]["plays"]] == ["CQ"]


def test_undo_right_after_a_deal_takes_the_deal_back(cli: Cli) -> None:
    start(cli, "p")
    ok(cli("deal", "--seed", SEED))
    assert ok(cli("undo", "-y")).stdout.strip() == "took back deal 1 (p-01)"


# -- tournament ------------------------------------------------------------------------


def test_tournament_compulsory_solo(cli: Cli) -> None:
    start(cli, "t", FOUR, "--rules", "tournament")
    night = standings(cli)
    assert all(s["owes_solo"] for s in night["table"])
    assert night["next"]["dealer"] == "Anna"

    record(cli, "--game", "queen_solo", "--re", "Anna", "--re-points", "140")
    night = standings(cli)
    [deal] = night["deals"]
    assert deal["compulsory_solo"] is True
    assert deal["counts"] is False
    assert deal["points"] == {"Anna": 3, "Ben": -1, "Clara": -1, "Dirk": -1}
    # the same dealer deals again
    assert night["next"]["dealer"] == "Anna"
    assert {s["player"]: s["owes_solo"] for s in night["table"]} == {
        "Anna": False,
        "Ben": True,
        "Clara": True,
        "Dirk": True,
    }
    out = ok(cli("standings")).stdout
    assert "queen solo (Anna) compulsory" in flat(out)
    owing = {line.split()[0] for line in out.splitlines() if "owes a solo" in line}
    assert owing == {"Ben", "Clara", "Dirk"}

    # a silent solo is not the compulsory solo: counts, and the dealer passes on
    record(cli, "--game", "silent_solo", "--re", "Ben", "--re-points", "140")
    # Anna's second solo counts too
    record(cli, "--game", "queen_solo", "--re", "Anna", "--re-points", "140")
    night = standings(cli)
    assert [(d["dealer"], d["compulsory_solo"], d["counts"]) for d in night["deals"]] == [
        ("Anna", True, False),
        ("Anna", False, True),
        ("Ben", False, True),
    ]
    assert night["next"]["dealer"] == "Clara"
    assert [s["player"] for s in night["table"] if s["owes_solo"]] == ["Ben", "Clara", "Dirk"]


def test_tournament_forced_solos_after_the_deals(cli: Cli, tmp_path: Path, ledger_path: Path) -> None:
    rules = tmp_path / "short.yaml"
    rules.write_text("preset: tournament\ntournament_deals: 2\n", encoding="utf-8")
    start(cli, "t", FOUR, "--rules", rules)
    record(cli, "--game", "queen_solo", "--re", "Anna", "--re-points", "140")
    record(cli, "--re", "Anna,Ben", "--re-points", "140")
    record(cli, "--re", "Anna,Ben", "--re-points", "140")
    night = standings(cli)
    assert night["next"]["forced_solo_by"] == ["Ben", "Clara", "Dirk"]
    assert "forced solo due: Ben, Clara, Dirk" in flat(ok(cli("standings")).stdout)
    before = snapshot(ledger_path)
    refused(cli("record", "--re", "Anna,Ben", "--re-points", "140", "--yes"), "a forced solo is due")
    assert snapshot(ledger_path) == before
    for soloist in ("Ben", "Clara", "Dirk"):
        record(cli, "--game", "jack_solo", "--re", soloist, "--re-points", "100")
    night = standings(cli)
    assert [d["forced_solo"] for d in night["deals"]] == [False, False, False, True, True, True]
    # after a forced solo the next dealer deals
    assert [d["dealer"] for d in night["deals"][3:]] == ["Clara", "Dirk", "Anna"]
    assert night["next"]["over"] is True
    assert "the tournament is complete" in ok(cli("standings")).stdout
    refused(cli("record", "--re", "Anna,Ben", "--re-points", "140", "--yes"), "the tournament is complete")
    zero_sum_everywhere(night)


def test_a_dealt_compulsory_solo_is_led_by_the_soloist(cli: Cli) -> None:
    start(cli, "t", FOUR, "--rules", "tournament")
    ok(cli("deal", "--seed", SEED))
    assert "Dirk to play" in ok(cli("play", "Dirk=club_solo")).stdout


def test_an_undealt_compulsory_solo_is_led_by_the_soloist(cli: Cli) -> None:
    start(cli, "t", FOUR, "--rules", "tournament")
    result = ok(cli("play", "Dirk=club_solo"))
    assert "Dirk to play" in result.stdout


def _recorded_facts(ledger_path: Path, deal: str) -> SummaryRecord | None:
    with Ledger.open(ledger_path) as ledger:
        return card_nights(ledger).deal_record("n", deal)[1].summary


def test_correct_changes_only_the_facts_given(cli: Cli, ledger_path: Path) -> None:
    start(cli, "n")
    record(cli, "--game", "marriage", "--re", "Anna,Clara", "--re-points", "150", "--call", "Anna=re")
    record(cli, "--re", "Ben,Clara", "--re-points", "150", "--tricks", "7:5", "--special", "kontra:fox:Ben")
    ok(cli("correct", "1", "--re-points", "190", "-y"))
    first = standings(cli)["deals"][0]
    # a marriage of Anna and Clara still, Re still announced: won 1, Kontra under 90 and 60: 2, Re 2
    assert first["game_type"] == "marriage"
    assert first["points"] == {"Anna": 5, "Ben": -5, "Clara": 5, "Dirk": -5}
    ok(cli("correct", "2", "--re", "Ben,Dirk", "-y"))
    assert _recorded_facts(ledger_path, "2") == SummaryRecord(
        "normal", ("Ben", "Dirk"), 150, (7, 5), (), (("fox_caught", "kontra", "Ben"),)
    )
    # an empty --call clears the calls
    ok(cli("correct", "1", "--call", "", "-y"))
    assert standings(cli)["deals"][0]["points"]["Anna"] == 3


def test_a_misdeal_corrected_into_a_deal_needs_its_facts(cli: Cli) -> None:
    start(cli, "n")
    ok(cli("record", "--misdeal", "-y"))
    refused(cli("correct", "1", "--re-points", "190", "-y"), "give --re and --re-points")
    ok(cli("correct", "1", "--re", "Ben,Dirk", "--re-points", "190", "-y"))
    assert standings(cli)["deals"][0]["points"]["Ben"] == 3  # won 1, Kontra under 90 and 60: 2


@pytest.mark.parametrize(
    ("special", "kind"),
    [
        ("kontra:fox:Anna", "fox_caught"),
        ("kontra:Fuchs:Anna", "fox_caught"),
        ("kontra:fox caught:Anna", "fox_caught"),
        ("re:karlchen", "karlchen"),
        ("re:Charlie", "karlchen"),
        ("re:karlchen caught:Ben", "karlchen_captured"),
        ("kontra:doko", "doppelkopf"),
        ("kontra:Doppelkopf", "doppelkopf"),
    ],
)
def test_special_points_take_short_and_german_names(cli: Cli, ledger_path: Path, special: str, kind: str) -> None:
    start(cli, "n")
    record(cli, "--re", "Anna,Clara", "--re-points", "150", "--special", special)
    facts = _recorded_facts(ledger_path, "1")
    assert facts is not None
    assert [k for k, _, _ in facts.specials] == [kind]
