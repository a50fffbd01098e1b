"""Bock rounds as tables play them (docs/rules.md §9): what a trigger during a round does
(`bock_overlap`), what a round does to a deal (`bock_effect`), rounds declared by hand, the
triggers (heart trick, schwarz, lost announcement beside today's), and why a deal is a bock
deal."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from helpers import cards

from doko_ledger.doppelkopf.game.record import RecordError, SummaryRecord
from doko_ledger.doppelkopf.nights.decide import StartNight
from doko_ledger.doppelkopf.nights.night import Night
from doko_ledger.doppelkopf.rules.announcements import Party
from doko_ledger.doppelkopf.rules.bock import (
    Bock,
    BockRounds,
    deal_triggers,
    extra_points,
    heart_trick_matters,
)
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.order import card_order, is_heart_trick, plain_hearts
from doko_ledger.doppelkopf.rules.ruleset import RuleSet, rules_from_mapping
from doko_ledger.doppelkopf.rules.scoring import DealFacts

OVERLAPS = ("queue", "stack", "extend", "ignore")
EFFECTS = ("multiply", "extra_point")


def rules(*triggers: str, **options: Any) -> RuleSet:
    return rules_from_mapping({"bock_triggers": list(triggers), **options})


def course(
    bock: BockRounds, triggers_by_deal: dict[int, tuple[str, ...]], last: int, first: int = 1
) -> list[tuple[int, int]]:
    """Play scored deals `first` to `last`; each deal's (multiplier, extra), 1 and 0 outside bock."""
    out = []
    for number in range(first, last + 1):
        played = bock.play(number, True, triggers_by_deal.get(number, ())).bock
        out.append((1, 0) if played is None else (played.multiplier, played.extra))
    return out


def as_effect(rounds_in_force: list[int], effect: str, multiplier: int = 2) -> list[tuple[int, int]]:
    """What each deal gets with so many rounds in force under `effect`."""
    if effect == "multiply":
        return [(multiplier**n, 0) for n in rounds_in_force]
    return [(1, n) for n in rounds_in_force]


# -- overlap and effect: one rule table ----------------------------------------------------------

# Four at the table. Deal 1 ties (a round starts); deal 2, a bock deal, loses a solo: what that
# trigger during the round does is the overlap's. Rounds in force at deals 1-10:
DURING = {
    "queue": [0, 1, 1, 1, 1, 1, 1, 1, 1, 0],  # a second round after the first
    "stack": [0, 1, 2, 2, 2, 1, 0, 0, 0, 0],  # a second round beside the first: Doppelbock
    "extend": [0, 1, 1, 1, 1, 1, 1, 1, 1, 0],  # the first round grows by four deals
    "ignore": [0, 1, 1, 1, 1, 0, 0, 0, 0, 0],  # nothing more
}

# Deal 1 sets off two triggers at once, outside bock:
AT_ONCE = {
    "queue": [0, 1, 1, 1, 1, 1, 1, 1, 1, 0],  # two rounds, one after the other
    "stack": [0, 2, 2, 2, 2, 0, 0, 0, 0, 0],  # two rounds at once: Doppelbock
    "extend": [0, 1, 1, 1, 1, 1, 1, 1, 1, 0],  # one round, extended by the second trigger
    "ignore": [0, 1, 1, 1, 1, 0, 0, 0, 0, 0],  # one round, the second trigger ignored
}


@pytest.mark.parametrize("effect", EFFECTS)
@pytest.mark.parametrize("overlap", OVERLAPS)
def test_a_trigger_during_a_bock_round_does_what_the_overlap_says(overlap: str, effect: str) -> None:
    bock = BockRounds(rules("tie", "lost_solo", bock_overlap=overlap, bock_effect=effect), 4)
    got = course(bock, {1: ("tie",), 2: ("lost_solo",)}, 10)
    assert got == as_effect(DURING[overlap], effect)
    assert bock.deals_left == 0 and bock.causes() == ()


@pytest.mark.parametrize("effect", EFFECTS)
@pytest.mark.parametrize("overlap", OVERLAPS)
def test_several_triggers_of_one_deal_outside_bock(overlap: str, effect: str) -> None:
    bock = BockRounds(rules("tie", "lost_re", bock_overlap=overlap, bock_effect=effect, bock_multiplier=3), 4)
    got = course(bock, {1: ("tie", "lost_re")}, 10)
    assert got == as_effect(AT_ONCE[overlap], effect, multiplier=3)


@pytest.mark.parametrize(("rounds", "multiplier"), [(1, 2), (2, 4), (3, 8)])
def test_stacked_rounds_multiply_bock_per_round(rounds: int, multiplier: int) -> None:
    """Bock, Doppelbock, Triplebock: x2, x4, x8 with one, two, three rounds declared at once."""
    bock = BockRounds(rules(bock_overlap="stack"), 4)
    bock.declare(0, "Anna", "", rounds)
    assert course(bock, {}, 5) == [(multiplier, 0)] * 4 + [(1, 0)]


@pytest.mark.parametrize("overlap", OVERLAPS)
def test_a_trigger_on_the_last_bock_deal_is_during_the_round(overlap: str) -> None:
    """The deal that set it off was a bock deal, though no round is left after it."""
    bock = BockRounds(rules("tie", "lost_solo", bock_overlap=overlap), 4)
    got = course(bock, {1: ("tie",), 5: ("lost_solo",)}, 10)
    after = {"queue": 4, "stack": 4, "extend": 4, "ignore": 0}[overlap]
    assert [m for m, _ in got] == [1, 2, 2, 2, 2] + [2] * after + [1] * (5 - after)


def test_the_queue_and_multiply_words_are_todays() -> None:
    """A night recorded before keeps its derivation's words: the read models hold them."""
    bock = BockRounds(rules("tie", "lost_solo"), 4)
    bock.play(1, True, ())
    bock.play(2, True, ("tie",))
    deal = bock.play(3, True, ("lost_solo",))
    assert deal.bock == Bock(2, "deal 2, 120:120 tie") and deal.multiplier == 2 and deal.cause == "deal 2, 120:120 tie"
    assert deal.started == ("lost_solo",)
    line = deal.bock.line()
    assert (line.item, line.factor, line.points, line.party, line.cause) == (
        "bock x2",
        2,
        0,
        None,
        "deal 2, 120:120 tie",
    )


def test_a_stacked_deal_names_every_round_in_force() -> None:
    bock = BockRounds(rules("tie", "lost_solo", bock_overlap="stack"), 4)
    bock.play(1, True, ("lost_solo",))
    bock.play(2, True, ("tie",))
    bock.declare(2, "Anna", "Hochzeit", 1)
    deal = bock.play(3, True, ())
    assert deal.bock == Bock(8, "deal 1, lost solo; deal 2, 120:120 tie; deal 2, declared by Anna (Hochzeit)")


def test_an_extended_round_names_what_extended_it() -> None:
    bock = BockRounds(rules("tie", "lost_solo", bock_overlap="extend"), 4)
    bock.play(1, True, ("tie",))
    bock.play(2, True, ("lost_solo",))
    assert bock.next_bock == Bock(2, "deal 1, 120:120 tie, extended by deal 2, lost solo")
    assert bock.deals_left == 7
    first, second = bock.causes()
    assert (first.deal, first.triggers, first.deals_left, first.in_force) == (1, ("tie",), 3, True)
    assert (second.deal, second.triggers, second.deals_left, second.in_force) == (2, ("lost_solo",), 4, True)


def test_extra_point_bock_adds_one_game_point_per_round_in_force() -> None:
    bock = BockRounds(rules("tie", bock_overlap="stack", bock_effect="extra_point"), 4)
    bock.play(1, True, ("tie",))
    bock.declare(1, "Ben", "", 1)
    deal = bock.play(2, True, ())
    assert deal.bock == Bock(1, "deal 1, 120:120 tie; deal 1, declared by Ben", extra=2)
    assert deal.bock.item == "bock +2" and deal.multiplier == 1
    line = deal.bock.line(Party.KONTRA)
    assert (line.item, line.party, line.points, line.factor) == ("bock +2", Party.KONTRA, 2, 1)
    assert deal.bock.line().points == 0 and "nobody won" in deal.bock.line().item


@pytest.mark.parametrize(
    ("parties", "winner", "lone", "expected"),
    [
        ((Party.RE, Party.RE, Party.KONTRA, Party.KONTRA), Party.RE, False, (1, 1, -1, -1)),
        ((Party.RE, Party.RE, Party.KONTRA, Party.KONTRA), Party.KONTRA, False, (-1, -1, 1, 1)),
        ((Party.KONTRA, Party.RE, Party.KONTRA, Party.KONTRA), Party.RE, True, (-1, 3, -1, -1)),
        ((Party.KONTRA, Party.RE, Party.KONTRA, Party.KONTRA), Party.KONTRA, True, (1, -3, 1, 1)),
        ((Party.RE, Party.RE, Party.KONTRA, Party.KONTRA), None, False, (0, 0, 0, 0)),
        ((Party.RE, None, Party.RE, Party.KONTRA, Party.KONTRA), Party.RE, False, (1, 0, 1, -1, -1)),
    ],
)
def test_extra_points_grow_the_winners_value(
    parties: tuple[Party | None, ...], winner: Party | None, lone: bool, expected: tuple[int, ...]
) -> None:
    """Each winner one point more, a lone player three, nobody winning nothing, one who sits out
    nothing; zero-sum."""
    assert extra_points(parties, winner, lone, 1) == expected
    assert extra_points(parties, winner, lone, 2) == tuple(2 * e for e in expected)
    assert sum(expected) == 0


def test_extra_point_leaves_penalties_as_they_are_and_multiply_multiplies_them() -> None:
    parties = (Party.RE, Party.RE, Party.KONTRA, Party.KONTRA)
    points = (2 - 4, 2, -2, -2 + 4)  # Re won 2; a minor penalty moved 4 from seat 0 to seat 3
    assert Bock(1, "", extra=1).applied(points, parties, Party.RE, False) == (-1, 3, -3, 1)
    assert Bock(2, "").applied(points, parties, Party.RE, False) == (-4, 4, -4, 4)


def test_a_deal_thrown_in_uses_no_bock_deal() -> None:
    bock = BockRounds(rules("tie"), 4)
    bock.play(1, True, ("tie",))
    assert bock.play(2, False, ()).bock is None and bock.deals_left == 4


# -- rounds declared by hand --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("overlap", "multipliers"),
    [
        ("queue", [1, 2, 2, 2, 2, 2, 2, 2, 2, 1]),
        ("stack", [1, 2, 4, 4, 4, 2, 1, 1, 1, 1]),
        ("extend", [1, 2, 2, 2, 2, 2, 2, 2, 2, 1]),
        ("ignore", [1, 2, 2, 2, 2, 1, 1, 1, 1, 1]),
    ],
)
def test_a_round_declared_by_hand_obeys_the_overlap(overlap: str, multipliers: list[int]) -> None:
    bock = BockRounds(rules("tie", bock_overlap=overlap), 4)
    bock.play(1, True, ("tie",))
    bock.play(2, True, ())
    bock.declare(2, "Clara", "Doppelkopf with Karlchen", 1)
    got = [1, 2] + [m for m, _ in course(bock, {}, 10, first=3)]
    assert got == multipliers


def test_a_declared_round_says_who_and_why() -> None:
    bock = BockRounds(rules(), 4)
    bock.declare(0, "Anna", "Hochzeit", 2)
    first, queued = bock.causes()
    assert first.view() == {
        "deal": 0,
        "triggers": ["declared"],
        "deals_left": 4,
        "rounds": 1,
        "in_force": True,
        "declared_by": "Anna",
        "reason": "Hochzeit",
    }
    assert queued.view() == {**first.view(), "in_force": False}
    assert bock.next_bock == Bock(2, "before the first deal, declared by Anna (Hochzeit)")
    bock.play(1, True, ())
    first, queued = bock.causes()
    assert (first.deals_left, first.in_force, queued.deals_left, queued.in_force) == (3, True, 4, False)
    assert bock.deals_left == 7


def test_the_causes_put_the_rounds_in_force_first() -> None:
    bock = BockRounds(rules("tie", "lost_solo"), 4)
    bock.play(1, True, ("tie",))
    bock.play(2, True, ("lost_solo",))
    assert [(c.deal, c.triggers, c.deals_left, c.in_force) for c in bock.causes()] == [
        (1, ("tie",), 3, True),
        (2, ("lost_solo",), 4, False),
    ]
    bock.change(dataclasses.replace(bock.rules, bock_overlap="stack"), 4)  # the queued round still waits its turn
    assert [c.in_force for c in bock.causes()] == [True, False] and bock.deals_left == 7


def test_a_round_keeps_the_length_it_started_with() -> None:
    """A round's length is the players at the table when it starts; a change counts from the next deal."""
    bock = BockRounds(rules("tie"), 4)
    bock.play(1, True, ("tie",))
    bock.change(rules("tie"), 6)
    got = course(bock, {4: ("tie",)}, 12, first=2)
    assert [m for m, _ in got] == [2] * 4 + [2] * 6 + [1]  # deals 2-5 of four, then deals 6-11 of six


# -- the triggers -------------------------------------------------------------------------------


def facts(
    re_points: int = 151,
    *,
    game: GameType = GameType.NORMAL,
    lone: bool = False,
    tricks: tuple[int, int] = (7, 5),
    announced: tuple[int, int] = (-1, -1),
    heart_trick: bool = False,
) -> DealFacts:
    return DealFacts(
        game_type=game,
        lone=lone,
        re_points=re_points,
        re_tricks=tricks[0],
        kontra_tricks=tricks[1],
        announced={Party.RE: announced[0], Party.KONTRA: announced[1]},
        heart_trick=heart_trick,
    )


@pytest.mark.parametrize(
    ("deal", "winner", "expected"),
    [
        (facts(), Party.RE, ()),
        (facts(120), Party.KONTRA, ("tie",)),
        (facts(100, game=GameType.CLUB_SOLO, lone=True), Party.KONTRA, ("lost_solo",)),
        (facts(100, announced=(0, -1)), Party.KONTRA, ("lost_re", "lost_announcement")),
        (facts(151, announced=(-1, 0)), Party.RE, ("lost_kontra", "lost_announcement")),
        (facts(140, announced=(1, 1)), None, ("nobody_wins", "lost_re", "lost_kontra", "lost_announcement")),
        (facts(heart_trick=True), Party.RE, ("heart_trick",)),
        (facts(240, tricks=(12, 0)), Party.RE, ("schwarz",)),
        (facts(0, tricks=(0, 12)), Party.KONTRA, ("schwarz",)),
        (facts(200, announced=(0, 0)), Party.RE, ("lost_kontra", "lost_announcement")),
    ],
)
def test_what_a_deal_sets_off(deal: DealFacts, winner: Party | None, expected: tuple[str, ...]) -> None:
    assert deal_triggers(deal, winner) == expected


@pytest.mark.parametrize(
    ("trick", "game", "heart"),
    [
        ("HA HK HA H9", GameType.NORMAL, True),
        ("HA HK HA H10", GameType.NORMAL, False),  # the ♥10 is a trump
        ("HA HK HA H10", GameType.JACK_SOLO, True),  # not in a jack solo
        ("HA HK HA HQ", GameType.QUEEN_SOLO, False),  # the ♥Q is a trump there
        ("HA HK HA H9", GameType.HEART_SOLO, False),  # hearts are trumps
        ("HA HK HA H9", GameType.PURE_HEART_SOLO, False),
        ("HA HK HA H9", GameType.CLUB_SOLO, True),
        ("HA HK HA SA", GameType.NORMAL, False),
        ("HA HK HA", GameType.NORMAL, False),  # not a whole trick
    ],
)
def test_a_heart_trick_is_four_hearts_that_are_not_trumps(trick: str, game: GameType, heart: bool) -> None:
    assert is_heart_trick(cards(trick), card_order(game)) is heart


def test_the_deck_has_four_plain_hearts_only_where_hearts_are_not_trumps() -> None:
    assert plain_hearts(GameType.NORMAL) == 6 and plain_hearts(GameType.NORMAL, with_nines=False) == 4
    assert plain_hearts(GameType.HEART_SOLO) == 0 and plain_hearts(GameType.ACE_SOLO) == 12


@pytest.mark.parametrize("seed", range(40))
def test_a_heart_trick_from_the_cards(make_game: Any, seed: int) -> None:
    """A game played card by card sets off `heart_trick` exactly when one of its tricks is four
    hearts none of which is a trump (H10, a queen or jack; every heart in a heart solo)."""
    from doko_ledger.doppelkopf.game.facts import deal_facts

    game = make_game(seed).final
    trumps_hearts = game.game_type in (GameType.HEART_SOLO, GameType.PURE_HEART_SOLO)
    queens_jacks_trump = {
        GameType.QUEEN_SOLO: ("Q",),
        GameType.JACK_SOLO: ("J",),
        GameType.ACE_SOLO: (),
    }.get(game.game_type, ("Q", "J"))
    h10_trump = game.game_type not in (GameType.QUEEN_SOLO, GameType.JACK_SOLO, GameType.ACE_SOLO)
    h10_trump = h10_trump and not game.game_type.is_pure_suit_solo

    def plain_heart(text: str) -> bool:
        if not text.startswith("H") or trumps_hearts:
            return False
        rank = text[1:]
        return rank not in queens_jacks_trump and not (rank == "10" and h10_trump)

    expected = any(all(plain_heart(str(card)) for card in trick.cards) for trick in game.tricks)
    assert deal_facts(game).heart_trick is expected


def test_a_heart_trick_as_a_fact_of_the_deal_starts_bock() -> None:
    night = Night()
    night.start(StartNight("n", ("Anna", "Ben", "Clara", "Dirk"), 0, rules("heart_trick")))
    night.add(night.deal_record(SummaryRecord("normal", ("Anna", "Ben"), 151, heart_trick=True)))
    (row,) = night.schedule().rows
    assert "heart_trick" in row.outcome.triggers and row.bock_rounds_started == 1
    assert night.schedule().next.multiplier == 2
    night.add(night.deal_record(SummaryRecord("normal", ("Anna", "Ben"), 151)))
    assert night.schedule().rows[-1].bock == "deal 1, trick of four hearts"


def test_a_heart_trick_is_refused_where_hearts_are_trumps() -> None:
    night = Night()
    night.start(StartNight("n", ("Anna", "Ben", "Clara", "Dirk"), 0, rules("heart_trick")))
    with pytest.raises(RecordError, match="trick of four hearts in a heart solo"):
        night.add(night.deal_record(SummaryRecord("heart_solo", ("Anna",), 151, heart_trick=True)))


def test_schwarz_from_the_recorded_tricks_starts_bock() -> None:
    night = Night()
    night.start(StartNight("n", ("Anna", "Ben", "Clara", "Dirk"), 0, rules("schwarz")))
    night.add(night.deal_record(SummaryRecord("normal", ("Anna", "Ben"), 240, (12, 0))))
    (row,) = night.schedule().rows
    assert "schwarz" in row.outcome.triggers and night.schedule().next.multiplier == 2


def test_the_heart_trick_is_asked_only_where_it_starts_bock() -> None:
    assert heart_trick_matters(rules("heart_trick")) and not heart_trick_matters(rules("tie"))


def test_every_trigger_has_words() -> None:
    from doko_ledger.doppelkopf.rules.bock import TRIGGER_WORDS
    from doko_ledger.doppelkopf.rules.ruleset import BOCK_TRIGGERS

    assert set(BOCK_TRIGGERS) | {"declared"} == set(TRIGGER_WORDS)


# -- the heart trick where the facts of a deal are written ---------------------------------------

HEARTS_NIGHT = """\
format: doko-session/1
id: hearts
players: [Anna, Ben, Clara, Dirk]
first_dealer: Anna
rules: {preset: standard, bock_triggers: [heart_trick], bock_effect: extra_point}
deals:
  - {game: normal, re: [Ben, Clara], re_points: 130, heart_trick: true}
  - {game: normal, re: [Ben, Clara], re_points: 130}
"""


def test_a_night_file_holds_the_heart_trick_and_the_bock_it_starts() -> None:
    from doko_ledger.doppelkopf.files import night_file

    session = night_file.loads(HEARTS_NIGHT)
    first, second = session.deals
    assert isinstance(first, SummaryRecord) and first.heart_trick
    assert isinstance(second, SummaryRecord) and not second.heart_trick
    text = night_file.dumps(session)
    assert "heart_trick: true}  # 1: Anna deals, starts a bock round" in text
    assert "# 2: Ben deals, bock +1, Anna -2 Ben +2 Clara +2 Dirk -2" in text
    assert text.count("heart_trick") == 2  # the rules' trigger and the first deal's fact
    assert night_file.loads(text) == session
    night = night_file.to_night(session)
    assert night_file.from_night(night).deals == session.deals


def test_a_game_file_summary_holds_the_heart_trick() -> None:
    from doko_ledger.doppelkopf.files import game_file
    from doko_ledger.doppelkopf.game.record import from_events, to_events

    text = """\
format: doko-game/1
id: hearts-game
players: [Anna, Ben, Clara, Dirk]
dealer: Anna
rules: standard
summary:
  game: normal
  re: [Anna, Ben]
  re_points: 130
  heart_trick: true
"""
    record = game_file.loads(text)
    assert record.summary is not None and record.summary.heart_trick
    events, state = to_events(record)
    assert from_events(events).summary == record.summary and state.summary is not None and state.summary.heart_trick
    assert "  heart_trick: true\n" in game_file.dumps(record)
    plain = game_file.loads(text.replace("  heart_trick: true\n", ""))
    assert plain.summary is not None and not plain.summary.heart_trick
    assert "heart_trick" not in game_file.dumps(plain)


def test_a_summary_without_the_heart_trick_is_read_from_older_events() -> None:
    """DealSummarized version 1 did not say: such a deal had no heart trick."""
    from doko_ledger.events.codec import decode_event

    old = '{"game_type": "normal", "re_seats": [0, 1], "re_points": 130}'
    assert decode_event("DealSummarized", 1, old).heart_trick is False


def test_quick_entry_takes_the_heart_trick_and_a_correction_keeps_it() -> None:
    from doko_ledger.doppelkopf.files import quick_entry

    entered = quick_entry.summary("normal", "Anna,Ben", 130, heart_trick=True)
    assert entered.heart_trick
    assert quick_entry.corrected(entered, None, None, 140).heart_trick
    assert not quick_entry.corrected(entered, None, None, None, heart_trick=False).heart_trick
    assert quick_entry.corrected(None, None, "Anna,Ben", 130, heart_trick=True).heart_trick


@pytest.mark.parametrize(
    ("overlap", "expected"),
    [
        ("stack", [(True, 2, 4)]),  # two rounds at once: four deals left, not eight
        ("queue", [(True, 1, 4), (False, 1, 4)]),
        ("extend", [(True, 2, 8)]),  # one round grown by a round: eight deals
        ("ignore", [(True, 1, 4)]),
    ],
)
def test_a_deals_rounds_say_how_many_and_how_long(overlap: str, expected: list[tuple[bool, int, int]]) -> None:
    bock = BockRounds(rules("tie", "heart_trick", bock_overlap=overlap), 4)
    bock.play(1, True, ("tie", "heart_trick"))
    assert [(c.in_force, c.rounds, c.deals_left) for c in bock.causes()] == expected


def test_rounds_queued_before_the_table_changes_to_stacking_wait_their_turn() -> None:
    bock = BockRounds(rules("tie", "lost_solo"), 4)
    bock.play(1, True, ("tie", "lost_solo"))  # two rounds, one after the other
    bock.change(rules("tie", "lost_solo", bock_overlap="stack"), 4)
    second = bock.play(2, True, ("tie",))  # in the first round; its tie starts a round at once
    assert second.bock is not None and second.bock.multiplier == 2
    assert bock.deals_left == 7  # the first round's 3 beside the new one, then the second round's 4
    played = [bock.play(n, True, ()).bock for n in range(3, 11)]
    assert [1 if b is None else b.multiplier for b in played] == [4, 4, 4, 4, 2, 2, 2, 1]
    assert bock.deals_left == 0
