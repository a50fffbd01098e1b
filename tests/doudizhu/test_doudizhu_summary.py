"""A Dou Dizhu deal recorded by its facts, as a score sheet holds them (`DouDizhuSummarized`):
what `decide` refuses, the stake and payments against every played sample with the same facts,
the `summary:` form of game and session files, the read models, and `doko ddz start / record /
close` with the session's standings.

The facts of a played sample (landlord, bid, bombs, rockets, who went out first) are read from
the YAML by the referee of `test_doudizhu_files.py`, never from the library.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from cli_helpers import as_json, ok, refused, snapshot
from hypothesis import given, settings
from test_doudizhu_files import (
    SAMPLE_FILES,
    SAMPLES,
    SESSION_FILE,
    Refereed,
    is_bomb,
    is_rocket,
    raw,
    read_sample,
    referee,
    referee_session,
)
from test_doudizhu_properties import PLAYERS, SEEDS, random_deal
from typer.testing import Result

from doko_ledger.doudizhu import files as doudizhu_file
from doko_ledger.doudizhu.book import DouDizhuSessionError
from doko_ledger.doudizhu.combinations import Kind
from doko_ledger.doudizhu.commands import Bid, Deal, PassTurn, Summarize, TakeKitty
from doko_ledger.doudizhu.decide import decide
from doko_ledger.doudizhu.errors import IllegalMove, IllegalSummary
from doko_ledger.doudizhu.events import CombinationPlayed, DouDizhuSummarized
from doko_ledger.doudizhu.evolve import evolve, fold
from doko_ledger.doudizhu.files import DouDizhuSummary, LoadedDeal, LoadedDouDizhuSession
from doko_ledger.doudizhu.state import DealState, Phase
from doko_ledger.formats import any_file
from doko_ledger.formats.yaml_source import SourceError
from doko_ledger.games import DOUDIZHU
from doko_ledger.ledger import Ledger
from doko_ledger.store.base import ConcurrencyError

Cli = Callable[..., Result]

THREE = ("Li", "Wang", "Zhang")
FOUR = ("Li", "Wang", "Zhang", "Zhao")


def dealt(players: tuple[str, ...] = THREE) -> DealState:
    return fold(decide(DealState(), Deal("sheet-01", players, 0, 0)))


# -- the facts, as the sheet holds them ------------------------------------------------------------


@dataclass(frozen=True)
class Facts:
    """A score sheet's line for one deal, derived by the referee from a played deal."""

    players: tuple[str, ...]
    landlord: str
    bid: int
    bombs: int
    big_bombs: int
    rockets: int
    out_first: str


def facts_of(deal: Refereed) -> Facts:
    """What a sheet writes down of a played deal: the plays are only counted, never staked here."""
    assert deal.landlord is not None and deal.out_first is not None
    n = len(deal.players)
    bombs = [cards for _, cards in deal.plays if is_bomb(list(cards), n)]
    rockets = [cards for _, cards in deal.plays if is_rocket(list(cards), n)]
    big = [cards for cards in bombs if len(cards) >= 6]
    return Facts(deal.players, deal.landlord, deal.bid, len(bombs), len(big), len(rockets), deal.out_first)


def summary_file(facts: Facts, game_id: str = "sheet-01") -> str:
    """The facts as a `doudizhu-game/1` file, written out by hand."""
    big = f"  big_bombs: {facts.big_bombs}\n" if len(facts.players) == 4 else ""
    return (
        "format: doudizhu-game/1\n"
        f"id: {game_id}\n"
        f"players: [{', '.join(facts.players)}]\n"
        f"dealer: {facts.players[0]}\n"
        f"opener: {facts.players[0]}\n"
        "summary:\n"
        f"  landlord: {facts.landlord}\n"
        f"  bid: {facts.bid}\n"
        f"  bombs: {facts.bombs}\n"
        f"  rockets: {facts.rockets}\n"
        f"{big}"
        f"  out_first: {facts.out_first}\n"
    )


def session_deals() -> list[Refereed]:
    return referee_session(SESSION_FILE.read_text(encoding="utf-8"))


PLAYED = [name for name in SAMPLE_FILES if referee(raw(name)).payments is not None]
SESSION_PLAYED = [i for i, d in enumerate(session_deals()) if d.payments is not None]


def test_the_cross_check_covers_bombs_rockets_big_bombs_and_both_sides_winning() -> None:
    every = [facts_of(referee(raw(name))) for name in PLAYED] + [facts_of(session_deals()[i]) for i in SESSION_PLAYED]
    assert len(PLAYED) == len(SAMPLE_FILES) - 1  # one sample is thrown in: nobody bid
    assert any(f.bombs > f.big_bombs for f in every if len(f.players) == 4)  # four-player bombs that do not double
    assert any(f.big_bombs for f in every) and any(f.rockets for f in every)
    assert any(f.bombs for f in every if len(f.players) == 3)
    assert {f.landlord == f.out_first for f in every} == {True, False}


@pytest.mark.parametrize("name", PLAYED)
def test_a_summary_stakes_and_pays_like_the_played_sample_with_the_same_facts(name: str) -> None:
    played = read_sample(name).state
    expected = referee(raw(name))
    summary = doudizhu_file.read(summary_file(facts_of(expected)), "sheet.yaml").state
    assert summary.phase is Phase.OVER and summary.summary is not None
    assert summary.stake.amount == played.stake.amount == expected.stake
    assert summary.stake.times == len(played.stake.doublings)
    assert summary.payments == played.payments
    assert dict(zip(summary.players, summary.payments or (), strict=True)) == expected.payments
    assert summary.winner_side == played.winner_side


@pytest.mark.parametrize("index", SESSION_PLAYED)
def test_a_summary_stakes_and_pays_like_each_played_deal_of_the_session_sample(index: int) -> None:
    loaded = doudizhu_file.read_session_file(SESSION_FILE)
    played = loaded.deals[index].state
    summary = doudizhu_file.read(summary_file(facts_of(session_deals()[index]))).state
    assert (summary.stake.amount, summary.payments) == (played.stake.amount, played.payments)


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_the_facts_of_any_legal_deal_are_accepted_and_stake_and_pay_the_same(seed: int, players: int) -> None:
    deal = random_deal(seed, players)
    played = deal.final
    if played.landlord is None or played.out_first is None:
        return  # thrown in: a sheet has no facts to stake
    plays = [e for e in deal.events if isinstance(e, CombinationPlayed)]
    bombs = [e for e in plays if e.kind is Kind.BOMB]
    facts = Summarize(
        played.landlord,
        played.bid,
        played.out_first,
        bombs=len(bombs),
        rockets=sum(1 for e in plays if e.kind is Kind.ROCKET),
        big_bombs=sum(1 for e in bombs if len(e.cards) >= 6),
    )
    start = fold(decide(DealState(), Deal("sheet", played.players, played.dealer, played.opener)))
    summary = fold(decide(start, facts), start)
    assert (summary.stake.amount, summary.payments, summary.winner_side) == (
        played.stake.amount,
        played.payments,
        played.winner_side,
    )


# -- decide ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("facts", "expected_stake", "expected_payments"),
    [
        (Summarize(0, 1, 0), 1, (2, -1, -1)),
        (Summarize(0, 3, 1, bombs=2, rockets=1), 24, (-48, 24, 24)),
        (Summarize(2, 2, 2, bombs=13), 2 << 13, (-(2 << 13), -(2 << 13), 2 << 14)),
    ],
)
def test_given_a_three_player_deal_when_summarized_then_every_bomb_and_rocket_doubles(
    facts: Summarize, expected_stake: int, expected_payments: tuple[int, ...]
) -> None:
    events = decide(dealt(), facts)
    assert events == [
        DouDizhuSummarized(facts.landlord, facts.bid, facts.out_first, facts.bombs, facts.rockets, facts.big_bombs)
    ]
    state = evolve(dealt(), events[0])
    assert (state.phase, state.landlord, state.bid, state.out_first) == (
        Phase.OVER,
        facts.landlord,
        facts.bid,
        facts.out_first,
    )
    assert state.stake.amount == expected_stake
    assert state.payments == expected_payments and sum(expected_payments) == 0


def test_given_a_four_player_deal_when_summarized_then_only_big_bombs_and_the_rocket_double() -> None:
    state = fold(decide(dealt(FOUR), Summarize(1, 2, 3, bombs=5, rockets=1, big_bombs=2)), dealt(FOUR))
    assert state.stake.counted == ("rocket", "bomb of six or more cards", "bomb of six or more cards")
    assert state.stake.amount == 2 * 2**3
    assert state.payments == (16, -48, 16, 16)


REFUSED: dict[str, tuple[tuple[str, ...], Summarize, str, str]] = {
    "bid 0": (THREE, Summarize(0, 0, 0), "bid", "the bid is 1, 2 or 3, not 0 (docs/rules.md §D2)"),
    "bid 4": (THREE, Summarize(0, 4, 0), "bid", "the bid is 1, 2 or 3, not 4"),
    "no such landlord": (THREE, Summarize(3, 1, 0), "landlord", "the landlord must be seat 0-2, not 3"),
    "no such first out": (FOUR, Summarize(0, 1, -1), "out_first", "who went out first must be seat 0-3, not -1"),
    "negative bombs": (THREE, Summarize(0, 1, 0, bombs=-1), "bombs", "-1 bombs: a count of what was played is 0"),
    "negative rockets": (THREE, Summarize(0, 1, 0, rockets=-2), "rockets", "-2 rockets"),
    "negative big bombs": (FOUR, Summarize(0, 1, 0, bombs=1, big_bombs=-1), "big_bombs", "-1 bombs of six or more"),
    "two rockets": (THREE, Summarize(0, 1, 0, rockets=2), "rockets", "the rocket is both jokers, so a deal has one"),
    "two four-joker rockets": (FOUR, Summarize(0, 1, 0, rockets=2), "rockets", "the rocket is all four jokers"),
    "big bomb with one deck": (
        THREE,
        Summarize(0, 1, 0, bombs=1, big_bombs=1),
        "big_bombs",
        "with one deck a bomb is four of a rank (docs/rules.md §D4)",
    ),
    "more big bombs than bombs": (
        FOUR,
        Summarize(0, 1, 0, bombs=1, big_bombs=2),
        "big_bombs",
        "2 bombs of six or more cards but 1 bomb in all",
    ),
    "a 14th bomb": (THREE, Summarize(0, 1, 0, bombs=14), "bombs", "13 ranks of four cards make at most 13 bombs"),
    "a 27th bomb": (FOUR, Summarize(0, 1, 0, bombs=27), "bombs", "13 ranks of eight cards make at most 26 bombs"),
    "small bombs beside a big one": (
        FOUR,
        Summarize(0, 1, 0, bombs=26, big_bombs=1),
        "bombs",
        "at most 24 bombs beside 1 of six or more cards",
    ),
    "13 bombs with a farmer out first": (
        THREE,
        Summarize(0, 1, 1, bombs=13),
        "out_first",
        "13 bombs cannot all be played when Wang goes out first: the others keep a card each",
    ),
    "13 bombs and the rocket": (
        THREE,
        Summarize(0, 1, 0, bombs=13, rockets=1),
        "bombs",
        "13 bombs and 1 rocket need more cards than the players can play before one of them goes out",
    ),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_given_impossible_facts_when_summarized_then_refused_naming_the_fact(name: str) -> None:
    players, command, fact, says = REFUSED[name]
    with pytest.raises(IllegalSummary) as caught:
        decide(dealt(players), command)
    assert caught.value.fact == fact
    assert says in str(caught.value) and "\n" not in str(caught.value)


def test_the_most_bombs_a_sheet_can_hold_are_accepted() -> None:
    assert decide(dealt(), Summarize(0, 1, 0, bombs=13))  # landlord 5, farmers 4 each: 52 cards
    assert decide(dealt(), Summarize(0, 1, 1, bombs=12, rockets=1))
    assert decide(dealt(FOUR), Summarize(0, 1, 2, bombs=26))
    assert decide(dealt(FOUR), Summarize(0, 1, 0, bombs=13, big_bombs=13, rockets=1))


def test_a_summary_stands_alone() -> None:
    with pytest.raises(IllegalMove, match="the cards have not been dealt"):
        decide(DealState(), Summarize(0, 1, 0))
    bidding = fold(decide(dealt(), Bid(0, 1)), dealt())
    with pytest.raises(IllegalMove, match="has no other record: no hands, bidding or play"):
        decide(bidding, Summarize(0, 1, 0))
    summarized = fold(decide(dealt(), Summarize(0, 1, 0)), dealt())
    with pytest.raises(IllegalMove, match="has no other record"):
        decide(summarized, Summarize(0, 1, 0))
    for command in (Bid(0, 1), TakeKitty(), PassTurn(1)):
        with pytest.raises(IllegalMove, match="recorded by its facts: no bidding or play follows"):
            decide(summarized, command)


# -- the game file ------------------------------------------------------------------------------------

SHEET3 = """\
# From the score sheet of the dorm.
format: doudizhu-game/1
id: sheet-01
players: [Li, Wang, Zhang]
dealer: Li
opener: Wang
played_on: '2026-11-30'
summary:
  landlord: Wang
  bid: 2
  bombs: 1
  rockets: 1
  out_first: Zhang
"""

SHEET4 = """\
format: doudizhu-game/1
id: sheet-02
players: [Li, Wang, Zhang, Zhao]
dealer: Zhao
opener: Li
summary:
  landlord: Li
  bid: 3
  bombs: 3
  rockets: 0
  big_bombs: 1
  out_first: Li
notes:
  - {author: Wang, at: '2026-11-30T20:00:00+00:00', text: the sheet says three bombs}
"""


@pytest.mark.parametrize("text", [SHEET3, SHEET4], ids=["3p", "4p"])
def test_a_summary_file_round_trips_byte_for_byte_through_its_record_and_its_events(text: str) -> None:
    loaded = doudizhu_file.read(text)
    assert doudizhu_file.dumps(loaded.record) == text
    assert doudizhu_file.dumps(doudizhu_file.from_events(loaded.events)) == text
    assert isinstance(loaded.events[1], DouDizhuSummarized)


def test_a_summary_file_reads_as_its_facts() -> None:
    record = doudizhu_file.loads(SHEET4)
    assert record.summary == DouDizhuSummary("Li", 3, "Li", bombs=3, rockets=0, big_bombs=1)
    assert record.bidding == () and record.play == () and record.hands is None
    state = doudizhu_file.read(SHEET4).state
    assert (state.stake.amount, state.payments) == (6, (18, -6, -6, -6))
    three = doudizhu_file.read(SHEET3).state
    assert (three.stake.amount, three.payments) == (8, (8, -16, 8))


def test_a_summary_without_counts_has_none() -> None:
    text = SHEET3.replace("  bombs: 1\n  rockets: 1\n", "")
    record = doudizhu_file.loads(text)
    assert record.summary is not None and (record.summary.bombs, record.summary.rockets) == (0, 0)
    assert doudizhu_file.dumps(record) == SHEET3.replace("bombs: 1", "bombs: 0").replace("rockets: 1", "rockets: 0")


BAD_SUMMARIES = {
    "bid 5": ("  bid: 2\n", "  bid: 5\n", 10, "summary.bid", "the bid is 1, 2 or 3, not 5"),
    "bid as text": ("  bid: 2\n", "  bid: two\n", 10, "summary.bid", "'two' is not of type 'integer'"),
    "unknown landlord": ("  landlord: Wang\n", "  landlord: Bo\n", 9, "summary.landlord", "unknown player 'Bo'"),
    "unknown first out": ("  out_first: Zhang\n", "  out_first: Bo\n", 13, "summary.out_first", "unknown player"),
    "too many bombs": ("  bombs: 1\n", "  bombs: 14\n", 11, "summary.bombs", "at most 13 bombs"),
    "two rockets": ("  rockets: 1\n", "  rockets: 2\n", 12, "summary.rockets", "a deal has one at most"),
    "big bombs with three": ("  rockets: 1\n", "  rockets: 1\n  big_bombs: 1\n", 13, "summary.big_bombs", "one deck"),
    "an unknown fact": ("  rockets: 1\n", "  rockets: 1\n  spring: true\n", 13, "summary.spring", "unknown field"),
    "no bid": ("  bid: 2\n", "", 9, "summary", "'bid' is a required property"),
    "bidding beside it": ("summary:\n", "bidding: [{Wang: 1}]\nsummary:\n", 10, "summary", "a summary stands alone"),
    "hands beside it": ("summary:\n", "kitty: [3, 4, 5]\nsummary:\n", 10, "summary", "no kitty beside it"),
}


@pytest.mark.parametrize("name", sorted(BAD_SUMMARIES))
def test_a_bad_summary_is_refused_naming_file_line_and_field(tmp_path: Path, name: str) -> None:
    old, new, line, field, says = BAD_SUMMARIES[name]
    assert old in SHEET3
    path = tmp_path / "sheet.yaml"
    path.write_text(SHEET3.replace(old, new), encoding="utf-8")
    with pytest.raises(SourceError) as caught:
        any_file.read_file(path)
    error = caught.value
    assert (error.line, error.field) == (line, field), str(error)
    assert says in error.message
    assert str(error).startswith(f"{path}:{line}: {field}: ")


SESSION = """\
format: doudizhu-session/1
id: 2026-11-30-sheet
players: [Li, Wang, Zhang]
played_on: '2026-11-30'
deals:
  - id: 2026-11-30-sheet-01
    dealer: Li
    opener: Li
    summary:
      landlord: Li
      bid: 3
      bombs: 0
      rockets: 1
      out_first: Li
  - id: 2026-11-30-sheet-02
    dealer: Wang
    opener: Zhang
    summary:
      landlord: Zhang
      bid: 1
      bombs: 2
      rockets: 0
      out_first: Wang
"""


def test_a_session_file_of_summaries_reads_pays_and_round_trips() -> None:
    loaded = doudizhu_file.read_session(SESSION)
    assert [(d.state.stake.amount, d.state.payments) for d in loaded.deals] == [
        (6, (12, -6, -6)),
        (4, (4, 4, -8)),
    ]
    again = doudizhu_file.dumps_session(
        loaded.session_id, loaded.players, loaded.played_on, [d.record for d in loaded.deals], loaded.closed
    )
    assert again == SESSION


def test_a_bad_summary_in_a_session_file_names_its_deal() -> None:
    with pytest.raises(SourceError) as caught:
        doudizhu_file.read_session(SESSION.replace("      bid: 1\n", "      bid: 0\n"), "night.yaml")
    assert str(caught.value).startswith("night.yaml:20: deals[1].summary.bid: the bid is 1, 2 or 3, not 0")


# -- the ledger and the CLI ---------------------------------------------------------------------------


def start(cli: Cli, *players: str) -> None:
    ok(cli("ddz", "start", "dorm", "--players", ",".join(players or THREE), "--date", "2026-11-30"))


def record(cli: Cli, *args: str) -> Any:
    return as_json(cli("ddz", "record", *args, "--json"))


def test_ddz_record_appends_a_deal_by_its_facts_and_shows_its_stake(cli: Cli) -> None:
    start(cli)
    result = ok(
        cli("ddz", "record", "--landlord", "Li", "--bid", "3", "--bombs", "1", "--rockets", "1", "--out-first", "Wang")
    )
    assert "deal dorm-01 recorded in Dou Dizhu session dorm" in result.stdout
    assert "rocket (counted)" in result.stdout and "bomb (counted)" in result.stdout
    shown = record(cli, "--landlord", "Zhang", "--bid", "2", "--out-first", "Zhang")
    assert shown["game_id"] == "dorm-02" and shown["version"] == 3
    assert shown["summary"] == {
        "landlord": "Zhang",
        "bid": 2,
        "bombs": 0,
        "rockets": 0,
        "big_bombs": None,
        "out_first": "Zhang",
    }
    assert (shown["stake"], shown["winner"], shown["payments"]) == (2, "landlord", {"Li": -2, "Wang": -2, "Zhang": 4})
    first = as_json(cli("score", "dorm-01", "--json"))
    assert first["stake"] == 12 and first["payments"] == {"Li": -24, "Wang": 12, "Zhang": 12}
    assert [d["combination"] for d in first["doublings"]] == ["rocket", "bomb"]
    assert all(d["player"] is None and d["move"] is None for d in first["doublings"])


def test_the_deal_passes_counter_clockwise_and_the_opener_defaults_to_the_dealer(cli: Cli) -> None:
    start(cli)
    for _ in range(4):
        record(cli, "--landlord", "Li", "--bid", "1", "--out-first", "Li")
    record(cli, "--landlord", "Li", "--bid", "1", "--out-first", "Li", "--dealer", "Zhang", "--opener", "Wang")
    deals = [as_json(cli("replay", f"dorm-0{i}", "--json")) for i in range(1, 6)]
    assert [(d["dealer"], d["opener"]) for d in deals] == [
        ("Li", "Li"),
        ("Wang", "Wang"),
        ("Zhang", "Zhang"),
        ("Li", "Li"),
        ("Zhang", "Wang"),
    ]
    assert all(d["tricks"] == [] and d["bidding"] == [] and d["cards_left"] is None for d in deals)
    assert deals[0]["played_on"] == "2026-11-30"


def test_session_standings_sum_the_summary_deals(cli: Cli) -> None:
    start(cli, *FOUR)
    sheet = [
        ("Li", "3", "2", "1", "0", "Li"),  # stake 3 * 2 (one big bomb; the small one does not double)
        ("Wang", "1", "0", "0", "1", "Zhao"),  # the rocket: stake 2, the farmers win
        ("Zhao", "2", "0", "0", "0", "Zhao"),
    ]
    for landlord, bid, bombs, big, rockets, out in sheet:
        record(
            cli,
            *("--landlord", landlord, "--bid", bid, "--bombs", bombs, "--big-bombs", big),
            *("--rockets", rockets, "--out-first", out),
        )
    expected = [
        {"Li": 18, "Wang": -6, "Zhang": -6, "Zhao": -6},
        {"Li": 2, "Wang": -6, "Zhang": 2, "Zhao": 2},
        {"Li": -2, "Wang": -2, "Zhang": -2, "Zhao": 6},
    ]
    table = as_json(cli("standings", "--session", "dorm", "--json"))
    assert [d["payments"] for d in table["deals"]] == expected
    assert [d["stake"] for d in table["deals"]] == [6, 2, 2]
    assert table["totals"] == {p: sum(e[p] for e in expected) for p in FOUR}
    assert table["closed"] is False
    text = ok(cli("standings", "--session", "dorm")).stdout
    assert "totals: Li +18  Wang -14  Zhang -6  Zhao +2" in text


def test_a_summary_deal_is_listed_audited_exported_and_imported_again(cli: Cli, tmp_path: Path) -> None:
    start(cli)
    record(cli, "--landlord", "Wang", "--bid", "2", "--bombs", "1", "--rockets", "1", "--out-first", "Zhang")
    (row,) = as_json(cli("games", "--json"))
    assert (row["summarized"], row["phase"], row["landlord"], row["stake"], row["tricks"]) == (
        True,
        "over",
        "Wang",
        8,
        0,
    )
    assert "summary" in ok(cli("games")).stdout
    report = as_json(cli("audit", "dorm-01", "--json"))
    assert report["ok"] is True and not any(c["ok"] is False for c in report["checks"])
    unchecked = {c["name"]: c["details"] for c in report["checks"] if c["ok"] is None}
    assert unchecked == {"cards add up to the deck": ["recorded by its facts: no cards to count"]}
    claim = cli("audit", "dorm-01", "--claimed", "Li=2,Wang=-4,Zhang=2", "--json")
    assert claim.exit_code == 5
    assert (
        "the rules count 2 doublings, for a rocket (counted), for a bomb (counted)"
        in json.loads(claim.stdout)["explanations"][0]
    )
    exported = ok(cli("export", "dorm-01")).stdout
    assert "summary:\n  landlord: Wang\n  bid: 2\n  bombs: 1\n  rockets: 1\n  out_first: Zhang\n" in exported
    path = tmp_path / "dorm-01.yaml"
    path.write_text(exported, encoding="utf-8")
    other = tmp_path / "other.sqlite"
    ok(cli("import", path, db=other))
    assert ok(cli("export", "dorm-01", db=other)).stdout == exported
    assert as_json(cli("score", "dorm-01", "--json", db=other)) == as_json(cli("score", "dorm-01", "--json"))
    replay = ok(cli("replay", "dorm-01")).stdout
    assert "recorded by its facts (no bidding or tricks): bid 2, 1 bomb, 1 rocket played" in replay


@pytest.mark.parametrize(
    ("args", "says", "code"),
    [
        (("--landlord", "Li", "--bid", "4", "--out-first", "Li"), "the bid is 1, 2 or 3, not 4", 1),
        (("--landlord", "Bo", "--bid", "1", "--out-first", "Li"), "landlord: 'Bo' does not play in this deal", 1),
        (("--landlord", "Li", "--bid", "1", "--out-first", "Li", "--rockets", "2"), "a deal has one at most", 1),
        (("--landlord", "Li", "--bid", "1", "--out-first", "Li", "--dealer", "Bo"), "the dealer 'Bo' does not", 1),
        (("--landlord", "Li", "--bid", "one", "--out-first", "Li"), "Invalid value for '--bid'", 2),
        (("--landlord", "Li", "--bid", "1"), "Missing option '--out-first'", 2),
        (("--landlord", "Li", "--bid", "1", "--out-first", "Li", "--session", "nope"), "no Dou Dizhu session", 1),
    ],
)
def test_ddz_record_refuses_bad_facts_and_leaves_the_ledger_untouched(
    cli: Cli, ledger_path: Path, args: tuple[str, ...], says: str, code: int
) -> None:
    start(cli)
    before = snapshot(ledger_path)
    result = cli("ddz", "record", *args)
    refused(result, says)
    assert result.exit_code == code
    assert snapshot(ledger_path) == before


def test_ddz_start_and_close_refuse_what_cannot_be(cli: Cli) -> None:
    refused(cli("ddz", "record", "--landlord", "Li", "--bid", "1", "--out-first", "Li"), "no ledger at")
    refused(cli("ddz", "start", "dorm", "--players", "Li,Wang"), "played by 3 or 4 players, not 2")
    refused(cli("ddz", "start", "dorm", "--players", "Li,Wang,Li"), "'Li' sits at the table twice")
    refused(cli("ddz", "start", "bad id", "--players", "Li,Wang,Zhang"), "session id 'bad id'")
    start(cli)
    refused(cli("ddz", "start", "dorm", "--players", "Li,Wang,Zhang"), "'dorm' is already in the ledger")
    refused(cli("ddz", "start", "other", "--players", "Li,Wang,Zhang"), "'dorm' is still open: close it first")
    assert "Dou Dizhu session dorm closed" in ok(cli("ddz", "close")).stdout
    refused(cli("ddz", "record", "--landlord", "Li", "--bid", "1", "--out-first", "Li"), "no Dou Dizhu session is open")
    after = cli("ddz", "record", "--landlord", "Li", "--bid", "1", "--out-first", "Li", "--session", "dorm")
    refused(after, "'dorm' is closed: it takes no more deals")
    listed = as_json(cli("session", "list", "--json"))
    assert listed == [{"session": "dorm", "players": list(THREE), "deals": 0, "closed": True, "game": "doudizhu"}]


def test_every_new_command_has_help(cli: Cli) -> None:
    for command in ("start", "record", "close"):
        assert "Usage" in ok(cli("ddz", command, "--help")).stdout
    assert "by its facts" in ok(cli("ddz", "--help")).stdout


# -- the library function behind the CLI (and the web form) -------------------------------------------


def test_a_stale_form_is_refused_naming_the_deal_recorded_since(ledger_path: Path) -> None:
    facts = DouDizhuSummary("Li", 2, "Wang", bombs=1)
    with Ledger.open(ledger_path, create=True) as ledger:
        games = ledger.book_of(DOUDIZHU)
        games.start_session("dorm", THREE, by="Li", at="t0")
        version = games.session_version("dorm")
        assert version == 1
        done = games.record_summary("dorm", facts, expected_version=version, by="Wang", at="t1")
        assert (done.game_id, done.version, done.state.payments) == ("dorm-01", 2, (-8, 4, 4))
        before = ledger.store.last_position()
        with pytest.raises(ConcurrencyError, match="deal dorm-01 was just recorded by Wang: look at the session"):
            games.record_summary("dorm", facts, expected_version=version, by="Zhang", at="t2")
        assert ledger.store.last_position() == before
        assert games.record_summary("dorm", facts, expected_version=2, by="Zhang", at="t2").game_id == "dorm-02"
        with pytest.raises(DouDizhuSessionError, match="the opener 'Bo' does not play in this session"):
            games.summary_deal("dorm", facts, opener="Bo")


def test_the_read_models_hold_a_summary_like_a_played_deal_and_rebuild_the_same(cli: Cli, ledger_path: Path) -> None:
    ok(cli("import", SAMPLES / SAMPLE_FILES[0]))
    start(cli, *FOUR)
    record(
        cli,
        "--landlord",
        "Zhao",
        "--bid",
        "3",
        "--bombs",
        "2",
        "--big-bombs",
        "1",
        "--rockets",
        "1",
        "--out-first",
        "Li",
    )

    def rows() -> tuple[list[Any], list[Any]]:
        with sqlite3.connect(ledger_path) as db:
            games = db.execute(
                "SELECT game_id, phase, landlord, bid, stake, winner, out_first, payments, tricks, moves, summarized "
                "FROM doudizhu_games ORDER BY game_id"
            ).fetchall()
            doublings = db.execute("SELECT * FROM doudizhu_doublings ORDER BY game_id, number").fetchall()
        return games, doublings

    games, doublings = rows()
    payments = json.dumps({"Li": 12, "Wang": 12, "Zhang": 12, "Zhao": -36})
    assert ("dorm-01", "over", "Zhao", 3, 12, "farmers", "Li", payments, 0, 0, 1) in games
    assert [g[-1] for g in games] == [0, 1]  # the sample was played
    assert [d for d in doublings if d[0] == "dorm-01"] == [
        ("dorm-01", 1, None, "rocket", None, None),
        ("dorm-01", 2, None, "bomb of six or more cards", None, None),
    ]
    ok(cli("rebuild"))
    assert rows() == (games, doublings)


def test_a_read_model_of_the_older_layout_is_folded_again(cli: Cli, ledger_path: Path) -> None:
    ok(cli("import", *(SAMPLES / name for name in SAMPLE_FILES)))
    ok(cli("games"))
    with sqlite3.connect(ledger_path) as db:
        expected = db.execute("SELECT game_id, stake, payments FROM doudizhu_games ORDER BY game_id").fetchall()
        db.execute("ALTER TABLE doudizhu_games DROP COLUMN summarized")
        db.execute("DELETE FROM doudizhu_games")
        db.execute("UPDATE projection_positions SET name = 'doudizhu' WHERE name = 'doudizhu-v2'")
    start(cli)
    record(cli, "--landlord", "Li", "--bid", "1", "--out-first", "Li")
    with sqlite3.connect(ledger_path) as db:
        now = db.execute("SELECT game_id, stake, payments FROM doudizhu_games ORDER BY game_id").fetchall()
    assert now == sorted([*expected, ("dorm-01", 1, json.dumps({"Li": 2, "Wang": -1, "Zhang": -1}))])


def test_importing_a_session_file_of_summaries_gives_its_standings(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "night.yaml"
    path.write_text(SESSION, encoding="utf-8")
    ok(cli("import", path))
    table = as_json(cli("standings", "--session", "2026-11-30-sheet", "--json"))
    assert table["totals"] == {"Li": 16, "Wang": -2, "Zhang": -14}
    loaded = any_file.read_file(path)
    assert isinstance(loaded, LoadedDouDizhuSession)
    assert all(isinstance(d, LoadedDeal) and d.state.summary is not None for d in loaded.deals)
    assert yaml.safe_load(ok(cli("export", "2026-11-30-sheet-02")).stdout)["summary"]["out_first"] == "Wang"


def test_the_next_deal_takes_the_next_free_game_id(cli: Cli, tmp_path: Path) -> None:
    taken = tmp_path / "taken.yaml"
    taken.write_text(SHEET3.replace("id: sheet-01", "id: dorm-02"), encoding="utf-8")
    ok(cli("import", taken))
    start(cli)
    ids = [record(cli, "--landlord", "Li", "--bid", "1", "--out-first", "Li")["game_id"] for _ in range(2)]
    assert ids == ["dorm-01", "dorm-03"]
    assert [d["game_id"] for d in as_json(cli("standings", "--session", "dorm", "--json"))["deals"]] == ids
