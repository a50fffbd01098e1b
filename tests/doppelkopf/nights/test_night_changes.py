"""A night that changes between its deals (docs/rules.md §9): players join and leave, the rules
change, bock is declared by hand, and each change is taken back like a deal. Who deals and who
sits out follow the seating in force at each deal; the sheet counts each deal under the counting
in force at it; everyone who ever sat keeps a total."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

import pytest

from doko_ledger.doppelkopf.game.commands import IllegalMove
from doko_ledger.doppelkopf.game.record import SummaryRecord
from doko_ledger.doppelkopf.nights.decide import (
    ChangeRules,
    DeclareBock,
    JoinTable,
    LeaveTable,
    StartNight,
    TakeBackChange,
)
from doko_ledger.doppelkopf.nights.night import Night
from doko_ledger.doppelkopf.nights.schedule import DealRow, plan
from doko_ledger.doppelkopf.nights.standings import payments, standings
from doko_ledger.doppelkopf.nights.state import Change
from doko_ledger.doppelkopf.rules.ruleset import RuleSet, preset, rules_from_mapping
from doko_ledger.i18n import render

PLAYERS = ("Anna", "Ben", "Clara", "Dirk", "Emil", "Fritz", "Gabi")


def start(size: int = 4, rules: RuleSet | None = None, *, first_dealer: int = 0, rate: str | None = None) -> Night:
    night = Night()
    night.start(StartNight("n", PLAYERS[:size], first_dealer, rules or preset("standard"), rate=rate))
    return night


def play(night: Night, re_points: int = 130, re: Sequence[str] | None = None, game: str = "normal") -> DealRow:
    """The next deal by its facts; Re defaults to the first two at the table (the first alone in a solo)."""
    at_table = night.schedule().next.playing
    chosen = tuple(re) if re is not None else at_table[: 1 if game.endswith("solo") else 2]
    night.add(night.deal_record(SummaryRecord(game, chosen, re_points)))
    return night.schedule().rows[-1]


def misdeal(night: Night) -> DealRow:
    night.add(night.deal_record(None, abandoned=True))
    return night.schedule().rows[-1]


def join(night: Night, player: str, after: str | None = None) -> Any:
    return night.change(JoinTable(player, after))


def leave(night: Night, player: str) -> Any:
    return night.change(LeaveTable(player))


def rules(**options: Any) -> RuleSet:
    return rules_from_mapping(options)


def take_back(night: Night) -> None:
    """Take back the newest change (what `undo` does when a change is the newest entry)."""
    last = night.state.last_entry
    assert isinstance(last, Change)
    night.change(TakeBackChange(last.version))


# -- joining and leaving: the seating ------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "after", "seating"),
    [
        (4, None, ("Anna", "Ben", "Clara", "Dirk", "Erik")),  # after the last seat: right of the first
        (4, "Anna", ("Anna", "Erik", "Ben", "Clara", "Dirk")),
        (4, "dirk", ("Anna", "Ben", "Clara", "Dirk", "Erik")),  # a name in any case
        (6, "Clara", ("Anna", "Ben", "Clara", "Erik", "Dirk", "Emil", "Fritz")),
    ],
)
def test_a_player_joins_at_a_seat_after_a_named_player(size: int, after: str | None, seating: tuple[str, ...]) -> None:
    night = start(size)
    before = play(night)
    join(night, "Erik", after)
    assert night.state.players == seating
    assert night.schedule().rows[-1] == before  # the deal before is as it was
    assert set(night.schedule().next.playing) | set(night.schedule().next.sitting_out) == set(seating)


@pytest.mark.parametrize(
    ("size", "command", "message"),
    [
        (4, JoinTable("Ben"), "Ben is already at the table"),
        (4, JoinTable("ben"), "Ben is already at the table"),
        (7, JoinTable("Hans"), "7 players are at the table already, and a card night has 4 to 7"),
        (4, JoinTable("Erik", "Zoe"), "'Zoe' is not at the table (Anna, Ben, Clara, Dirk)"),
        (4, JoinTable("\u0410nna"), "differ only in look-alike letters"),  # a Cyrillic A
        (4, JoinTable(" Erik"), "starts or ends with white space"),
        (4, LeaveTable("Zoe"), "'Zoe' is not at the table (Anna, Ben, Clara, Dirk)"),
        (4, LeaveTable("Anna"), "that would leave 3 players, and a card night has 4 to 7"),
    ],
)
def test_joins_and_leaves_are_refused_with_the_reason(size: int, command: Any, message: str) -> None:
    night = start(size)
    before = night.state
    with pytest.raises(IllegalMove) as refusal:
        night.change(command)
    assert message in str(refusal.value)
    assert night.state == before


def test_a_player_who_left_cannot_leave_again_but_may_join_again() -> None:
    night = start(5)
    play(night)
    leave(night, "Emil")
    with pytest.raises(IllegalMove, match="Emil has left the table already"):
        leave(night, "emil")
    play(night)
    join(night, "emil", "Anna")  # the name as it was written first
    assert night.state.players == ("Anna", "Emil", "Ben", "Clara", "Dirk")
    assert night.state.everyone == ("Anna", "Emil", "Ben", "Clara", "Dirk")


@pytest.mark.parametrize(
    "command", [JoinTable("Erik"), LeaveTable("Emil"), ChangeRules(rules(counting="winners_only"))]
)
def test_nothing_changes_while_a_deal_is_played_card_by_card(command: Any) -> None:
    night = start(5)
    night.add(night.deal_record(None, live=True))
    with pytest.raises(IllegalMove, match="deal 1 is still being played card by card"):
        night.change(command)


def test_a_closed_night_does_not_change() -> None:
    night = start(4)
    night.close()
    with pytest.raises(IllegalMove, match="is closed"):
        join(night, "Erik")


# -- who deals and who sits out --------------------------------------------------------------


def dealers(night: Night) -> list[str]:
    return [r.dealer for r in night.schedule().rows]


@pytest.mark.parametrize(
    ("steps", "expected_dealers", "next_dealer"),
    [
        # the deal passes to the left in the seating in force: a player seated after the dealer deals next
        (["deal", "join Erik after Anna", "deal"], ["Anna", "Erik"], "Ben"),
        # the last dealer leaves: the next player after their old seat who is still there deals
        (["deal", "deal", "join Erik", "leave Ben", "deal"], ["Anna", "Ben", "Clara"], "Dirk"),
        (["deal", "join Erik", "deal", "leave Anna", "deal"], ["Anna", "Ben", "Clara"], "Dirk"),
        # a deal thrown in keeps its dealer; if that dealer leaves, the next after the seat deals
        (["deal", "misdeal", "join Erik", "leave Ben", "deal"], ["Anna", "Ben", "Clara"], "Dirk"),
        (["deal", "misdeal", "join Erik", "deal"], ["Anna", "Ben", "Ben"], "Clara"),
        # the first dealer leaves before the first deal: the player after their seat deals first
        (["join Erik", "leave Anna", "deal"], ["Ben"], "Clara"),
        # several seats left empty in a row are passed over
        (["join Erik", "join Fritz", "deal", "leave Ben", "leave Clara", "deal"], ["Anna", "Dirk"], "Erik"),
        # a player who left and joins again deals when the deal comes to their new seat
        (["join Erik", "deal", "leave Ben", "deal", "join Ben after Clara", "deal"], ["Anna", "Clara", "Ben"], "Dirk"),
    ],
)
def test_the_dealer_follows_the_seating_in_force(
    steps: list[str], expected_dealers: list[str], next_dealer: str
) -> None:
    night = start(4)
    for step in steps:
        words = step.split()
        if words[0] == "deal":
            play(night)
        elif words[0] == "misdeal":
            misdeal(night)
        elif words[0] == "join":
            join(night, words[1], words[3] if len(words) > 2 else None)
        else:
            leave(night, words[1])
    assert dealers(night) == expected_dealers
    assert night.schedule().next.dealer == next_dealer


def test_a_compulsory_solo_keeps_the_dealer_across_a_join() -> None:
    night = start(4, preset("tournament"))
    play(night)
    assert play(night, 150, ("Clara",), "club_solo").compulsory
    join(night, "Erik", "Ben")
    row = play(night)
    assert row.dealer == "Ben" and row.sitting_out == ("Ben",)
    assert night.schedule().owed == ("Anna", "Ben", "Erik", "Dirk")  # the new player owes a solo too


@pytest.mark.parametrize(
    ("size", "joins", "sitting_out"),
    [
        (4, 1, ("Ben",)),  # five: the dealer sits out (Ben deals deal 2)
        (4, 2, ("Anna", "Ben")),  # six: the dealer and the player at the dealer's right
        (5, 2, ("Hans", "Anna", "Ben")),  # seven: the dealer and the two at the right
    ],
)
def test_who_sits_out_follows_the_table_in_force(size: int, joins: int, sitting_out: tuple[str, ...]) -> None:
    night = start(size)
    play(night)
    for name in ("Erik", "Hans")[:joins]:
        join(night, name)  # after the last seat
    row = play(night)
    assert row.dealer == "Ben"
    assert set(row.sitting_out) == set(sitting_out)
    assert len(row.playing) == 4 and not set(row.playing) & set(row.sitting_out)
    assert all(row.deltas[p] == 0 for p in row.sitting_out)


def test_a_player_who_left_keeps_their_deals_and_total_and_gets_no_new_ones() -> None:
    night = start(5, rate="0.10")
    for _ in range(4):
        play(night, 150)
    leave(night, "Ben")
    for _ in range(3):
        play(night, 150)
    rows = night.schedule().rows
    assert all("Ben" not in r.playing and "Ben" not in r.sitting_out for r in rows[4:])
    table = {s.player: s for s in standings(night.state, night.schedule()).table}
    assert set(table) == set(PLAYERS[:5])
    assert table["Ben"].total == sum(r.sheet.get("Ben", 0) for r in rows) != 0
    assert sum(s.total for s in table.values()) == 0


def test_everyone_who_ever_sat_has_a_total_and_the_running_totals_grow_with_the_table() -> None:
    night = start(4)
    play(night)
    join(night, "Erik", "Anna")
    first, second = night.schedule().rows[0], play(night)
    assert set(first.totals) == set(PLAYERS[:4])
    assert set(second.totals) == {*PLAYERS[:4], "Erik"}
    assert [render(c, "en") for c in second.changes] == ["Erik joins after Anna"]
    table = standings(night.state, night.schedule())
    assert table.players == ("Anna", "Erik", "Ben", "Clara", "Dirk")


# -- the rules change from the next deal -------------------------------------------------------


def test_earlier_deals_keep_their_rules_and_the_next_deal_takes_the_new_ones() -> None:
    night = start(4)
    first = play(night)
    counted_winners = rules(counting="winners_only")
    night.change(ChangeRules(counted_winners, "kitchen"))
    assert night.deal_record(SummaryRecord("normal", ("Anna", "Ben"), 150)).rules == counted_winners
    second = play(night)
    assert first.rules == preset("standard") and second.rules == counted_winners
    assert night.games[first.game_id].rules == preset("standard")
    assert night.games[second.game_id].rules == counted_winners
    assert [render(c, "en") for c in second.changes] == ["the rules change to kitchen: counting winners_only"]
    assert (
        render(night.schedule().changes[0].text, "en")
        == "the rules change to kitchen: counting winners_only, from deal 2"
    )


def test_the_same_rules_again_are_refused() -> None:
    night = start(4)
    with pytest.raises(IllegalMove, match="these are the rules in force already"):
        night.change(ChangeRules(preset("standard")))


def test_bock_triggers_switched_on_during_the_night_count_from_then_on() -> None:
    night = start(4)
    play(night, 120)  # a tie, but no bock triggers yet
    night.change(ChangeRules(rules(bock_triggers=["tie"])))
    play(night, 120)  # a tie under the new rules: a bock round follows
    assert [play(night).multiplier for _ in range(5)] == [2, 2, 2, 2, 1]


@pytest.mark.parametrize(
    ("counting", "sheet"),
    [
        ("plus_minus", {"Anna": 2, "Ben": 2, "Clara": -2, "Dirk": -2}),
        ("winners_only", {"Anna": 2, "Ben": 2, "Clara": 0, "Dirk": 0}),
        ("losers_only", {"Anna": 0, "Ben": 0, "Clara": -2, "Dirk": -2}),
    ],
)
def test_the_sheet_counts_each_deal_under_the_counting_in_force(counting: str, sheet: dict[str, int]) -> None:
    night = start(4, rules(bock_triggers=["tie"]))
    play(night, 120)  # Kontra wins 2 under plus/minus: a tie, bock follows
    if counting != "plus_minus":
        night.change(ChangeRules(rules(bock_triggers=["tie"], counting=counting)))
    row = play(night, 130)  # Re wins 1, doubled in bock
    assert row.deltas == {"Anna": 2, "Ben": 2, "Clara": -2, "Dirk": -2}  # the deal's points never change
    assert row.sheet == sheet
    first = night.schedule().rows[0].sheet
    assert row.totals == {p: first[p] + sheet[p] for p in sheet}


@pytest.mark.parametrize(
    ("counting", "money"),
    [
        ("plus_minus", {"Anna": "0.30", "Ben": "-0.10", "Clara": "-0.10", "Dirk": "-0.10"}),
        # winners only: Anna 3 (a lone winner), the others 0: each pair settles the difference
        ("winners_only", {"Anna": "0.90", "Ben": "-0.30", "Clara": "-0.30", "Dirk": "-0.30"}),
        ("losers_only", {"Anna": "0.30", "Ben": "-0.10", "Clara": "-0.10", "Dirk": "-0.10"}),
    ],
)
def test_money_is_exact_and_zero_sum_under_every_counting(counting: str, money: dict[str, str]) -> None:
    night = start(4, rules(counting=counting), rate="0.10")
    play(night, 150, ("Anna",), "club_solo")
    table = standings(night.state, night.schedule())
    assert {s.player: s.money for s in table.table} == {p: Decimal(m) for p, m in money.items()}
    assert sum(s.money for s in table.table if s.money is not None) == 0
    assert table.zero_sum == (counting == "plus_minus")
    paid = payments(table)
    assert sum(p.amount for p in paid if p.payee == "Anna") == Decimal(money["Anna"])


def test_settling_without_a_rate_uses_the_same_differences() -> None:
    night = start(4, rules(counting="winners_only"))
    play(night, 150, ("Anna",), "club_solo")
    assert sorted((p.payer, p.payee, p.amount) for p in payments(standings(night.state, night.schedule()))) == [
        ("Ben", "Anna", 3),
        ("Clara", "Anna", 3),
        ("Dirk", "Anna", 3),
    ]


# -- bock declared by hand -------------------------------------------------------------------


@pytest.mark.parametrize(("rounds", "bock_deals"), [(1, 4), (2, 8), (3, 12)])
def test_bock_declared_by_hand_queues_its_rounds(rounds: int, bock_deals: int) -> None:
    night = start(4)
    play(night)
    night.change(DeclareBock("anna", "Hochzeit", rounds))
    assert night.schedule().next.multiplier == 2
    multipliers = [play(night).multiplier for _ in range(bock_deals + 1)]
    assert multipliers == [2] * bock_deals + [1]
    assert night.schedule().rows[1].bock == "deal 1, declared by Anna (Hochzeit)"


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (DeclareBock("Anna", rounds=0), "bock is declared for 1 to 3 rounds at once, not 0"),
        (DeclareBock("Anna", rounds=4), "bock is declared for 1 to 3 rounds at once, not 4"),
        (DeclareBock("", "x"), "who declares bock: '' is empty"),
        (DeclareBock("Anna", "two\nlines"), "holds a control character or line break"),
        (DeclareBock("Anna", "x" * 101), "is longer than 100 characters"),
        (DeclareBock("Anna", game_id="n-01"), "bock comes with the deal just recorded (deal 2)"),
    ],
)
def test_bock_by_hand_is_refused_with_the_reason(command: DeclareBock, message: str) -> None:
    night = start(4)
    play(night)
    play(night)
    with pytest.raises(IllegalMove) as refusal:
        night.change(command)
    assert message in str(refusal.value)


def test_a_bock_declared_with_a_deal_goes_when_the_deal_is_taken_back() -> None:
    night = start(4)
    play(night)
    row = play(night)
    night.change(DeclareBock("Ben", "Hochzeit", 1, row.game_id))
    assert night.schedule().next.multiplier == 2
    assert render(night.schedule().changes[-1].text, "en") == "bock declared by Ben (Hochzeit) with deal 2"
    night.void_last()
    schedule = night.schedule()
    assert schedule.next.multiplier == 1 and schedule.bock_causes == () and schedule.changes == ()
    assert night.state.changes == ()


def test_a_bock_declared_with_a_deal_follows_a_correction_of_it() -> None:
    night = start(4)
    row = play(night)
    night.change(DeclareBock("Ben", "", 1, row.game_id))
    after = play(night)
    assert after.multiplier == 2
    night.correct(row.game_id, SummaryRecord("normal", ("Anna", "Ben"), 200))
    rows = night.schedule().rows
    assert rows[0].game_id != row.game_id and rows[1].multiplier == 2
    assert rows[1].bock == "deal 1, declared by Ben"


def test_a_declared_bock_taken_back_disappears_with_its_rounds() -> None:
    night = start(4)
    play(night)
    night.change(DeclareBock("Ben"))
    take_back(night)
    assert play(night).multiplier == 1
    assert night.schedule().bock_deals_left == 0


# -- taking changes back ---------------------------------------------------------------------


def test_a_change_taken_back_is_as_if_never_made() -> None:
    night = start(4)
    play(night)
    plain = night.schedule()
    join(night, "Erik", "Anna")
    night.change(ChangeRules(rules(counting="losers_only")))
    take_back(night)
    take_back(night)
    again = night.schedule()
    assert again.next == plain.next and again.changes == () and again.rules == preset("standard")
    assert night.state.players == PLAYERS[:4] and night.state.everyone == PLAYERS[:4]
    assert len(night.state.taken_back) == 2


def test_only_the_newest_entry_is_taken_back() -> None:
    night = start(5)
    play(night)
    change = leave(night, "Emil")
    play(night)
    with pytest.raises(IllegalMove, match="not the newest entry"):
        night.change(TakeBackChange(night.state.version - 1))
    first = night.state.deals[0]
    with pytest.raises(IllegalMove, match="the night changed after deal 1: take back that change first"):
        night._apply(_void(first))
    night.void_last()
    assert isinstance(night.state.last_entry, Change) and night.state.last_entry.event == change
    take_back(night)
    assert night.state.players == PLAYERS[:5]


def _void(game_id: str) -> Any:
    from doko_ledger.doppelkopf.nights.decide import VoidDeal

    return VoidDeal(game_id)


def test_the_course_extended_step_by_step_is_the_course_folded_at_once() -> None:
    """`Night.schedule` extends its cached course by the deals and changes added since; the
    night loaded again folds every step at once: both agree after any change."""
    night = start(4, rules(bock_triggers=["tie"]))
    play(night, 120)
    join(night, "Erik", "Ben")
    play(night)
    night.change(ChangeRules(rules(bock_triggers=["tie"], counting="winners_only")))
    play(night, 90)
    night.change(DeclareBock("Clara", "", 2))
    play(night)
    leave(night, "Anna")
    take_back(night)
    play(night)
    assert night.schedule() == plan(night.state, night.outcomes())
