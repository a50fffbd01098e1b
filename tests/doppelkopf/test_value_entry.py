"""A deal entered by its value only (`EnterValue`, docs/rules.md §7): every refusal in one line,
the points as §7 gives them for a value (two against two ±value, a lone player three times),
zero-sum for any entry, the one derivation line, the bock trigger a solo mark can set off, and
what the audit can and cannot check of such a deal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import run
from hypothesis import given
from hypothesis import strategies as st

from doko_ledger.doppelkopf.book import card_nights
from doko_ledger.doppelkopf.cards import seeded_deal
from doko_ledger.doppelkopf.events import DealValued
from doko_ledger.doppelkopf.files import night_file
from doko_ledger.doppelkopf.game import GameState, IllegalMove, StartGame, decide
from doko_ledger.doppelkopf.game.commands import DealCards, EnterValue
from doko_ledger.doppelkopf.game.record import GameRecord, RecordError, ValueRecord, from_events, to_events
from doko_ledger.doppelkopf.nights.decide import StartNight
from doko_ledger.doppelkopf.nights.night import Night
from doko_ledger.doppelkopf.nights.outcome import deal_outcome
from doko_ledger.doppelkopf.rules.ruleset import RuleSet, preset, rules_from_mapping
from doko_ledger.doppelkopf.rules.value import MOST_VALUE, VALUE_ONLY
from doko_ledger.doppelkopf.score import score_game
from doko_ledger.doppelkopf.views import score_view
from doko_ledger.games import DOPPELKOPF
from doko_ledger.ledger import Ledger

PLAYERS = ("Anna", "Ben", "Clara", "Dirk")
ANNA, BEN, CLARA, DIRK = range(4)
STANDARD = preset("standard")


def started(rules: RuleSet = STANDARD) -> GameState:
    return run(GameState(), StartGame("value-1", PLAYERS, DIRK, rules))


def entered(entry: ValueRecord, rules: RuleSet = STANDARD) -> GameState:
    """The game of a record entered by its value (through the record path the files use)."""
    _, state = to_events(GameRecord("value-1", PLAYERS, "Dirk", rules, value=entry))
    return state


# -- refusals ---------------------------------------------------------------------------------

REFUSED: list[Any] = [
    pytest.param(ValueRecord(3, winners=("Emil",)), "unknown player 'Emil'", ("winners", 0), id="unknown-player"),
    pytest.param(ValueRecord(3, losers=("Anna", "Zoe")), "unknown player 'Zoe'", ("losers", 1), id="unknown-loser"),
    pytest.param(ValueRecord(3), "name the winners or the losers", ("winners",), id="nobody-named"),
    pytest.param(ValueRecord(3, losers=PLAYERS), "all four lost: a deal has one to three winners", ("losers",), id="0"),
    pytest.param(
        ValueRecord(3, winners=PLAYERS), "all four won: a deal has one to three winners", ("winners",), id="4"
    ),
    pytest.param(
        ValueRecord(3, winners=("Anna", "Ben"), losers=("Clara",)),
        "the winners and the losers given do not make up the table (Dirk neither)",
        ("winners",),
        id="not-complementary",
    ),
    pytest.param(
        ValueRecord(3, winners=("Anna",), losers=("Anna", "Ben")),
        "Anna cannot both win and lose",
        ("winners",),
        id="both-win-and-lose",
    ),
    pytest.param(
        ValueRecord(3, winners=("Ben", "Ben")), "Ben is named twice among the winners", ("winners",), id="twice"
    ),
    pytest.param(
        ValueRecord(-1, winners=("Anna", "Ben")),
        "a deal's value is a whole number from 0 to 99 before bock, not -1",
        ("value",),
        id="negative",
    ),
    pytest.param(
        ValueRecord(MOST_VALUE + 1, winners=("Anna", "Ben")),
        f"a deal's value is a whole number from 0 to 99 before bock, not {MOST_VALUE + 1}",
        ("value",),
        id="absurd",
    ),
    pytest.param(
        ValueRecord(3, winners=("Anna", "Ben"), solo=True),
        "the solo mark needs a player alone: one winner or one loser, not two against two (docs/rules.md §7)",
        ("solo",),
        id="solo-with-two-winners",
    ),
]


@pytest.mark.parametrize(("entry", "message", "path"), REFUSED)
def test_a_value_entry_that_does_not_fit_is_refused_in_one_line(entry: ValueRecord, message: str, path: Any) -> None:
    with pytest.raises(RecordError) as refused:
        entered(entry)
    assert message in str(refused.value)
    assert "\n" not in str(refused.value)
    assert refused.value.path == path


def test_a_player_sitting_out_is_named_as_such_not_as_unknown() -> None:
    night = Night()
    night.start(StartNight("n", (*PLAYERS, "Emil"), 0, STANDARD))  # Anna deals deal 1 and sits out
    with pytest.raises(IllegalMove, match=r"'Anna' sits out deal 1 \(Anna deals\): Ben, Clara, Dirk, Emil play"):
        night.add(night.deal_record(ValueRecord(2, winners=("Anna", "Ben"))))
    assert not night.new_games  # nothing decided


def test_a_value_entry_stands_alone() -> None:
    state = run(started(), DealCards(seeded_deal("value")))
    with pytest.raises(IllegalMove, match="a deal entered by its value has no other record"):
        decide(state, EnterValue((ANNA, BEN), (), 2))
    twice = run(started(), EnterValue((ANNA, BEN), (), 2))
    with pytest.raises(IllegalMove, match="a deal entered by its value has no other record"):
        decide(twice, EnterValue((ANNA,), (), 2))


def test_under_duel_rules_a_computer_seat_is_never_marked_a_soloist() -> None:
    duel = preset("duel")  # Ben and Dirk are computer seats
    with pytest.raises(RecordError, match=r"Ben is a computer seat: computers never play a solo") as refused:
        entered(ValueRecord(2, winners=("Ben",), solo=True), duel)
    assert refused.value.path == ("solo",)
    assert score_game(entered(ValueRecord(2, winners=("Ben",)), duel)).deltas == (-2, 6, -2, -2)  # alone, no solo


def test_the_winners_and_losers_given_together_may_make_up_the_table() -> None:
    state = entered(ValueRecord(2, winners=("Anna", "Clara"), losers=("Ben", "Dirk")))
    assert state.valued is not None and state.valued.winners == (ANNA, CLARA)


# -- the points -------------------------------------------------------------------------------

POINTS: list[Any] = [
    pytest.param(ValueRecord(3, winners=("Anna", "Clara")), (3, -3, 3, -3), None, id="two-against-two"),
    pytest.param(ValueRecord(3, losers=("Ben", "Dirk")), (3, -3, 3, -3), None, id="two-against-two-by-losers"),
    pytest.param(ValueRecord(2, winners=("Ben",)), (-2, 6, -2, -2), None, id="lone-winner"),
    pytest.param(ValueRecord(2, losers=("Ben",)), (2, -6, 2, 2), None, id="lone-loser"),
    pytest.param(ValueRecord(4, winners=("Dirk",), solo=True), (-4, -4, -4, 12), "Dirk", id="solo-won"),
    pytest.param(ValueRecord(4, losers=("Dirk",), solo=True), (4, 4, 4, -12), "Dirk", id="solo-lost"),
    pytest.param(ValueRecord(0, winners=("Anna", "Ben")), (0, 0, 0, 0), None, id="value-0"),
]


@pytest.mark.parametrize(("entry", "deltas", "solo_by"), POINTS)
def test_a_value_scores_as_the_rules_give_it(entry: ValueRecord, deltas: tuple[int, ...], solo_by: str | None) -> None:
    state = entered(entry)
    result = score_game(state)
    assert result.deltas == deltas
    assert result.score is not None and result.score.value == entry.value
    outcome = deal_outcome(state)
    assert outcome.solo_by == solo_by  # the solo mark counts as the lone player's solo (a tournament's too)
    assert outcome.deltas == dict(zip(PLAYERS, deltas, strict=True))
    assert outcome.game_type is None and outcome.finished


def test_the_derivation_is_one_line_saying_value_only_and_who_won() -> None:
    result = score_game(entered(ValueRecord(3, losers=("Clara",), solo=True)))
    assert result.score is not None
    (line,) = result.score.lines
    assert line.item == VALUE_ONLY
    assert line.points == 3
    assert line.cause == "Clara lost a solo; value 3, three times for the lone player"
    view = score_view(result)
    assert [item["item"] for item in view["lines"]] == [VALUE_ONLY]
    assert view["value_only"] == {
        "winners": ["Anna", "Ben", "Dirk"],
        "value": 3,
        "solo": True,
        "words": "Clara lost a solo; value 3",
    }


def test_a_deal_by_its_facts_has_no_value_only_in_its_view() -> None:
    from doko_ledger.doppelkopf.game.record import SummaryRecord

    _, state = to_events(
        GameRecord("f", PLAYERS, "Dirk", STANDARD, summary=SummaryRecord("normal", ("Anna", "Ben"), 130))
    )
    assert "value_only" not in score_view(score_game(state))


@given(
    winners=st.sets(st.integers(0, 3), min_size=1, max_size=3),
    value=st.integers(0, MOST_VALUE),
    solo=st.booleans(),
)
def test_every_value_entry_adds_up_to_zero(winners: set[int], value: int, solo: bool) -> None:
    lone = len(winners) != 2
    entry = ValueRecord(value, winners=tuple(PLAYERS[s] for s in sorted(winners)), solo=solo and lone)
    state = entered(entry)
    deltas = score_game(state).deltas
    assert sum(deltas) == 0
    assert {abs(d) for d in deltas} <= {value, 3 * value}
    assert all((d > 0) == (s in winners) for s, d in enumerate(deltas) if value)


def test_the_record_path_round_trips_the_entry() -> None:
    for entry in (
        ValueRecord(3, winners=("Anna", "Clara")),
        ValueRecord(2, losers=("Ben",), solo=True),
        ValueRecord(5, winners=("Dirk",)),
    ):
        events, _ = to_events(GameRecord("value-1", PLAYERS, "Dirk", STANDARD, value=entry))
        assert isinstance(events[-1], DealValued)
        assert from_events(events).value == entry


# -- bock -------------------------------------------------------------------------------------


def night_of(*deals: str, triggers: str = "[tie, lost_solo, lost_re, lost_kontra, nobody_wins]") -> Night:
    text = "\n".join(
        [
            "format: doko-session/1",
            "id: n",
            "players: [Anna, Ben, Clara, Dirk]",
            "first_dealer: Anna",
            f"rules: {{preset: standard, bock_triggers: {triggers}}}",
            "deals:",
            *(f"  - {deal}" for deal in deals),
        ]
    )
    return night_file.to_night(night_file.loads(text + "\n"))


@pytest.mark.parametrize(
    ("deal", "triggers"),
    [
        ("{losers: [Dirk], value: 2, solo: true}", ("lost_solo",)),
        ("{winners: [Dirk], value: 2, solo: true}", ()),
        ("{losers: [Dirk], value: 2}", ()),
        ("{winners: [Anna, Ben], value: 0}", ()),
        ("{winners: [Anna, Ben], value: 4}", ()),
    ],
)
def test_only_a_solo_marked_lost_sets_off_bock(deal: str, triggers: tuple[str, ...]) -> None:
    night = night_of(deal, "{winners: [Anna, Ben], value: 1}")
    first, second = night.schedule().rows
    assert first.outcome.triggers == triggers
    assert first.bock_rounds_started == len(triggers)
    assert second.multiplier == (2 if triggers else 1)
    assert second.deltas == ({"Anna": 2, "Ben": 2, "Clara": -2, "Dirk": -2} if triggers else second.outcome.deltas)
    if triggers:
        assert second.bock == "deal 1, lost solo"


def test_a_value_deal_in_bock_counts_its_value_times_the_multiplier_in_its_score() -> None:
    night = night_of("{game: normal, re: [Anna, Ben], re_points: 120}", "{losers: [Clara], value: 2}")
    game_id = night.state.deals[1]
    place = night.places()[game_id]
    result = score_game(night.games[game_id], place=place)
    assert result.deltas == (4, 4, -12, 4)
    assert result.score is not None and [line.item for line in result.score.lines] == [VALUE_ONLY, "bock x2"]


# -- the audit --------------------------------------------------------------------------------


def test_the_audit_says_what_it_checks_of_a_value_deal_and_what_it_cannot(tmp_path: Path) -> None:
    with Ledger.open(tmp_path / "l.sqlite", create=True) as ledger:
        nights = card_nights(ledger)
        rules = rules_from_mapping({"preset": "standard"})
        nights.start(StartNight("n", PLAYERS, 0, rules), by="t", at="2026-12-01T18:00:00+00:00")
        prepared = nights.prepare("n", ValueRecord(3, winners=("Ben",), solo=True))
        nights.commit(prepared, by="t", at="2026-12-01T18:10:00+00:00")
        ledger.refresh()
        report = ledger.book_of(DOPPELKOPF).audit(prepared.game_id)
    checks = {c["name"]: c for c in (check.view() for check in report.checks)}
    assert report.ok
    entered = checks["value only: who won and the value"]
    assert entered["ok"] is True
    assert entered["details"] == [
        "the winners are one to three players of the deal: Ben; a solo by Ben",
        "the value is a whole number from 0 to 99: 3",
    ]
    unknown = checks["value only: how the value came about"]
    assert unknown["ok"] is None
    assert unknown["details"] == [
        "only who won and the value were entered: the card points, the announcements and the special points"
        " cannot be checked"
    ]
    assert checks["240 card points"]["ok"] is None
    assert checks["240 card points"]["details"] == ["value only: the card points are not known"]
    assert checks["every announcement in time"]["details"] == ["value only: no announcements were entered"]
    assert checks["scores sum to zero"]["ok"] is True
    assert checks["every other event legal"]["ok"] is True


# -- statistics -------------------------------------------------------------------------------


def test_the_statistics_count_who_won_a_value_deal_and_no_card_points(tmp_path: Path) -> None:
    from doko_ledger.doppelkopf.stats import ledger_stats

    night = night_of("{winners: [Anna, Ben], value: 3}", "{losers: [Clara], value: 1, solo: true}")
    with Ledger.open(tmp_path / "l.sqlite", create=True) as ledger:
        card_nights(ledger).import_night(night, by="t", at="2026-12-01T18:00:00+00:00")
        ledger.refresh()
        table = {p.player: p for p in ledger_stats(ledger, "n").players}
    assert {name: (p.games, p.wins, p.total) for name, p in table.items()} == {
        "Anna": (2, 2, 4),
        "Ben": (2, 2, 4),
        "Clara": (2, 0, -6),
        "Dirk": (2, 1, -2),
    }
    assert all(p.party_point_games == 0 and p.own_point_games == 0 for p in table.values())


# -- game files -------------------------------------------------------------------------------

GAME = """\
format: doko-game/1
id: value-1
players: [Anna, Ben, Clara, Dirk]
dealer: Dirk
rules: standard
value: {losers: [Clara], value: 2, solo: true}  # value only
"""


def test_a_game_file_holds_a_deal_by_its_value_and_writes_it_back_byte_for_byte() -> None:
    from doko_ledger.doppelkopf.files import game_file

    record = game_file.loads(GAME)
    assert record.value == ValueRecord(2, losers=("Clara",), solo=True)
    assert game_file.dumps(record) == GAME
    _, state = to_events(record)
    assert score_game(state).deltas == (2, 2, -6, 2)


def test_a_game_file_value_with_an_unknown_field_is_refused_by_its_path() -> None:
    from doko_ledger.doppelkopf.files import game_file
    from doko_ledger.formats.yaml_source import SourceError

    with pytest.raises(SourceError) as refused:
        game_file.loads(GAME.replace("solo: true", "solo: true, re_points: 90"))
    assert refused.value.field.startswith("value")
