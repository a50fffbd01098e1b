"""The course of a card night (docs/rules.md §9): dealer, sit-outs, matches and rounds, bock rounds,
a tournament's compulsory and forced solos, standings, and settling up in money."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

import pytest

from doko_ledger.doppelkopf.game.commands import IllegalMove
from doko_ledger.doppelkopf.game.record import RecordError, SummaryRecord
from doko_ledger.doppelkopf.nights.decide import StartNight
from doko_ledger.doppelkopf.nights.night import Night
from doko_ledger.doppelkopf.nights.schedule import DealRow, playing
from doko_ledger.doppelkopf.nights.standings import Payment, settle, standings
from doko_ledger.doppelkopf.rules.ruleset import RuleSet, preset, rules_from_mapping

PLAYERS = ("Anna", "Ben", "Clara", "Dirk", "Emil", "Fritz", "Gabi")


def start(
    size: int = 4,
    rules: RuleSet | None = None,
    *,
    first_dealer: int = 0,
    match_length: int = 8,
    session_id: str = "night",
) -> Night:
    night = Night()
    night.start(StartNight(session_id, PLAYERS[:size], first_dealer, rules or preset("standard"), match_length))
    return night


def play(
    night: Night,
    re_points: int = 130,
    game: str = "normal",
    re: Sequence[str] | None = None,
    announcements: tuple[tuple[str, str], ...] = (),
) -> DealRow:
    """Add the next deal by its facts; Re defaults to the first one or two players at the table."""
    at_table = night.schedule().next.playing
    lone = game.endswith("solo")
    chosen = tuple(re) if re is not None else at_table[: 1 if lone else 2]
    night.add(night.deal_record(SummaryRecord(game, chosen, re_points, None, announcements)))
    return night.schedule().rows[-1]


def solo(night: Night, player: str, re_points: int = 150, game: str = "club_solo") -> DealRow:
    return play(night, re_points, game, (player,))


def misdeal(night: Night) -> DealRow:
    night.add(night.deal_record(None, abandoned=True))
    return night.schedule().rows[-1]


def bock(*triggers: str, **options: Any) -> RuleSet:
    return rules_from_mapping({"bock_triggers": list(triggers), **options})


def tournament(**options: Any) -> RuleSet:
    return rules_from_mapping({"preset": "tournament", **options})


def multipliers(night: Night) -> list[int]:
    return [r.multiplier for r in night.schedule().rows]


def totals(night: Night) -> dict[str, int]:
    return {s.player: s.total for s in standings(night.state, night.schedule()).table}


# -- dealer and sit-outs ------------------------------------------------------------------


@pytest.mark.parametrize("size", [4, 5, 6, 7])
@pytest.mark.parametrize("first", [0, 2])
def test_the_deal_passes_to_the_left(size: int, first: int) -> None:
    night = start(size, first_dealer=first)
    deals = 2 * size + 1
    for _ in range(deals):
        play(night)
    assert [r.dealer for r in night.schedule().rows] == [PLAYERS[(first + i) % size] for i in range(deals)]
    assert night.schedule().next.dealer == PLAYERS[(first + deals) % size]


@pytest.mark.parametrize(
    ("size", "dealer", "at_table"),
    [
        (4, 2, ("Anna", "Ben", "Clara", "Dirk")),
        (5, 0, ("Ben", "Clara", "Dirk", "Emil")),  # with five, the dealer sits out
        (5, 3, ("Emil", "Anna", "Ben", "Clara")),
        (6, 0, ("Ben", "Clara", "Dirk", "Emil")),  # the dealer and Fritz, at the dealer's right
        (6, 4, ("Fritz", "Anna", "Ben", "Clara")),
        (7, 0, ("Ben", "Clara", "Dirk", "Emil")),
        (7, 5, ("Gabi", "Anna", "Ben", "Clara")),
    ],
)
def test_the_four_to_the_dealers_left_play(size: int, dealer: int, at_table: tuple[str, ...]) -> None:
    assert playing(PLAYERS[:size], dealer) == at_table


@pytest.mark.parametrize("size", [5, 6, 7])
def test_over_a_round_everybody_sits_out_alike_and_scores_nothing_then(size: int) -> None:
    night = start(size)
    for i in range(2 * size):
        play(night, 100 if i % 3 else 160)
    rows = night.schedule().rows
    for row in rows:
        assert len(row.playing) == 4 and len(row.sitting_out) == size - 4
        assert row.dealer in row.sitting_out
        assert set(row.playing) | set(row.sitting_out) == set(PLAYERS[:size])
        assert all(row.deltas[p] == 0 for p in row.sitting_out)
        assert set(row.outcome.players) == set(row.playing)
    for player in PLAYERS[:size]:
        assert sum(player in r.sitting_out for r in rows) == 2 * (size - 4)


@pytest.mark.parametrize("size", [4, 5, 6])
def test_the_player_left_of_the_dealer_leads(size: int) -> None:
    night = start(size, first_dealer=1)
    row = play(night)
    game = night.games[row.game_id]
    assert game.players[game.first_leader] == PLAYERS[2]


def test_a_deal_by_the_wrong_players_is_refused() -> None:
    night = start(5)
    record = night.deal_record(SummaryRecord("normal", ("Ben", "Clara"), 130))
    wrong = dataclasses.replace(record, players=PLAYERS[:4], dealer="Dirk", dealt_by=None)
    with pytest.raises(IllegalMove, match=r"deal 1 is played by Ben, Clara, Dirk, Emil \(dealer Anna\)"):
        night.add(wrong)


@pytest.mark.parametrize("count", [3, 8])
def test_a_night_has_four_to_seven_players(count: int) -> None:
    names = tuple(f"P{i}" for i in range(count))
    with pytest.raises(IllegalMove, match=f"4 to 7 players, not {count}"):
        Night().start(StartNight("night", names, 0, preset("standard")))


def test_a_misdeal_keeps_the_dealer_and_scores_nothing() -> None:
    night = start(5)
    play(night)
    thrown = misdeal(night)
    again = play(night)
    assert thrown.dealer == again.dealer == "Ben"
    assert thrown.playing == again.playing
    assert not thrown.counts and again.counts
    assert set(thrown.deltas.values()) == {0}
    assert night.schedule().next.dealer == "Clara"


# -- matches and rounds ----------------------------------------------------------------


def test_matches_and_rounds_follow_the_counted_deals() -> None:
    night = start(4, match_length=8)
    for i in range(18):
        misdeal(night) if i == 5 else play(night)
    rows = night.schedule().rows
    assert night.schedule().counted == 17
    counted = [r for r in rows if r.counts]
    assert [r.match for r in counted] == [1] * 8 + [2] * 8 + [3]
    assert [r.round for r in counted] == [1] * 4 + [2] * 4 + [3] * 4 + [4] * 4 + [5]
    assert (rows[5].match, rows[5].round) == (rows[4].match, rows[4].round)  # the misdeal


@pytest.mark.parametrize(("size", "length"), [(5, 3), (6, 10)])
def test_a_round_is_every_player_dealing_once(size: int, length: int) -> None:
    night = start(size, match_length=length)
    for _ in range(3 * size):
        play(night)
    rows = night.schedule().rows
    assert [r.round for r in rows] == [i // size + 1 for i in range(3 * size)]
    assert [r.match for r in rows] == [i // length + 1 for i in range(3 * size)]
    assert all(r.dealer == PLAYERS[i % size] for i, r in enumerate(rows))


# -- bock rounds ----------------------------------------------------------------------


@pytest.mark.parametrize("size", [4, 5, 6])
def test_a_trigger_queues_one_round_of_doubled_deals(size: int) -> None:
    night = start(size, bock("tie"))
    first = play(night, 120)  # 120:120: Kontra wins, and a bock round starts
    assert first.outcome.triggers[:1] == ("tie",) and first.bock_rounds_started == 1
    assert night.schedule().next.multiplier == 2
    for _ in range(size + 2):
        play(night)
    assert multipliers(night) == [1] + [2] * size + [1, 1]
    for row in night.schedule().rows:
        assert row.deltas == {p: row.outcome.deltas.get(p, 0) * row.multiplier for p in PLAYERS[:size]}


def test_the_multiplier_is_a_rule_option() -> None:
    night = start(4, bock("lost_solo", bock_multiplier=3))
    lost = solo(night, "Anna", 100)
    assert lost.bock_rounds_started == 1 and lost.multiplier == 1
    row = play(night, 150)
    assert row.multiplier == 3 and row.deltas["Anna"] == 3 * row.outcome.deltas["Anna"]


def test_only_the_triggers_of_the_rules_start_a_bock_round() -> None:
    night = start(4, bock("lost_solo"))
    tie = play(night, 120)
    assert "tie" in tie.outcome.triggers and tie.bock_rounds_started == 0
    assert night.schedule().next.multiplier == 1
    assert start(4).schedule().next.multiplier == 1


def test_triggers_queue() -> None:
    night = start(4, bock("tie", "lost_solo"))
    play(night, 120)
    solo(night, "Clara", 90)  # a lost solo inside the bock round: one more round after it
    for _ in range(9):
        play(night)
    assert multipliers(night) == [1] + [2] * 8 + [1, 1]


def test_a_bock_deals_trigger_queues_after_the_round() -> None:
    night = start(4, bock("tie"))
    play(night, 120)
    play(night)
    play(night, 120)  # the second bock deal ties again
    for _ in range(7):
        play(night)
    assert multipliers(night) == [1, 2, 2, 2, 2, 2, 2, 2, 2, 1]


def test_one_deal_can_start_two_bock_rounds() -> None:
    night = start(4, bock("tie", "lost_kontra"))
    row = play(night, 120, announcements=(("Clara", "kontra"),))  # Re needs only 120 against Kontra
    assert set(row.outcome.triggers) >= {"tie", "lost_kontra"} and row.bock_rounds_started == 2
    assert night.schedule().bock_deals_left == 8


def test_a_misdeal_uses_up_no_bock_deal() -> None:
    night = start(4, bock("tie"))
    play(night, 120)
    play(night)
    misdeal(night)
    for _ in range(4):
        play(night)
    assert multipliers(night) == [1, 2, 1, 2, 2, 2, 1]


@pytest.mark.parametrize("seed", range(12))
def test_standings_are_the_sum_of_the_multiplied_deals_and_sum_to_zero(seed: int) -> None:
    rng = random.Random(seed)
    size = rng.choice([4, 5, 6, 7])
    triggers = rng.sample(["tie", "lost_solo", "lost_re", "lost_kontra", "nobody_wins"], 2)
    night = start(size, bock(*triggers, bock_multiplier=rng.choice([2, 3])))
    for _ in range(rng.randrange(10, 30)):
        at_table = night.schedule().next.playing
        kind = rng.random()
        if kind < 0.1:
            misdeal(night)
        elif kind < 0.35:
            solo(night, rng.choice(at_table), rng.choice([60, 100, 120, 121, 150, 200]), "queen_solo")
        else:
            re = rng.sample(at_table, 2)
            kontra = [p for p in at_table if p not in re]
            calls = tuple(c for c in ((re[0], "re"), (kontra[0], "kontra")) if rng.random() < 0.3)  # by the right party
            play(night, rng.choice([0, 85, 119, 120, 121, 151, 240]), "normal", re, calls)
    rows = night.schedule().rows
    for row in rows:
        assert sum(row.deltas.values()) == 0
        assert row.deltas == {p: row.outcome.deltas.get(p, 0) * row.multiplier for p in PLAYERS[:size]}
    assert totals(night) == {p: sum(r.deltas[p] for r in rows) for p in PLAYERS[:size]}
    assert sum(totals(night).values()) == 0
    assert rows[-1].totals == totals(night)


def test_voiding_the_deal_that_started_a_bock_round_removes_the_round() -> None:
    night = start(4, bock("tie"))
    play(night)
    play(night, 120)
    assert night.schedule().next.multiplier == 2
    night.void_last()
    schedule = night.schedule()
    assert schedule.next.multiplier == 1 and schedule.bock_deals_left == 0
    assert len(schedule.rows) == 1
    assert play(night, 150).multiplier == 1


def test_correcting_the_deal_that_started_a_bock_round_removes_the_round() -> None:
    night = start(4, bock("tie"))
    tie = play(night, 120)
    play(night, 150)
    play(night, 90)
    before = totals(night)
    assert multipliers(night) == [1, 2, 2]
    night.correct(tie.game_id, SummaryRecord("normal", tie.outcome.re_players, 125))
    rows = night.schedule().rows
    assert multipliers(night) == [1, 1, 1] and night.schedule().bock_deals_left == 0
    assert rows[0].game_id != tie.game_id and rows[0].bock_rounds_started == 0
    assert totals(night) == {p: sum(r.outcome.deltas[p] for r in rows) for p in PLAYERS[:4]}
    assert totals(night) != before


def test_correcting_a_deal_into_a_trigger_starts_a_bock_round() -> None:
    night = start(4, bock("tie"))
    first = play(night, 130)
    play(night, 150)
    night.correct(first.game_id, SummaryRecord("normal", first.outcome.re_players, 120))
    assert multipliers(night) == [1, 2]
    assert night.schedule().bock_deals_left == 3


def test_a_correction_must_keep_the_players() -> None:
    night = start(5)
    row = play(night)
    with pytest.raises(RecordError, match="unknown player 'Anna'"):
        night.correct(row.game_id, SummaryRecord("normal", ("Anna", "Ben"), 130))


def test_a_corrected_deal_keeps_its_night_and_number_in_its_game_id() -> None:
    ids = []
    for session_id in ("2026-11-28-cafe", "2026-11-28-club"):
        night = start(4, session_id=session_id)
        play(night)
        row = play(night)
        night.correct(row.game_id, SummaryRecord("normal", row.outcome.re_players, 150))
        ids.append(night.state.deals[1])
    assert ids[0] != ids[1]  # one ledger holds the games of both nights
    assert all(i.startswith(s) for i, s in zip(ids, ("2026-11-28-cafe-02", "2026-11-28-club-02"), strict=True))


def test_correcting_a_deal_twice_gives_each_correction_its_own_game() -> None:
    night = start(4)
    row = play(night)
    night.correct(row.game_id, SummaryRecord("normal", row.outcome.re_players, 150))
    first = night.state.deals[0]
    night.correct(first, SummaryRecord("normal", row.outcome.re_players, 160))
    second = night.state.deals[0]
    assert len({row.game_id, first, second}) == 3
    assert night.state.replaced == (row.game_id, first)
    assert night.schedule().rows[0].outcome.deltas == night.schedule().rows[0].deltas


def test_correcting_a_misdeal_into_a_game_never_seats_a_player_who_sat_out() -> None:
    night = start(5)
    play(night)
    thrown = misdeal(night)
    play(night)
    play(night)
    try:
        night.correct(thrown.game_id, SummaryRecord("normal", ("Clara", "Dirk"), 150))
    except IllegalMove:
        return  # refusing the correction is fine too
    for row in night.schedule().rows:
        assert set(row.outcome.players) == set(row.playing), row.number
        assert all(row.deltas[p] == 0 for p in row.sitting_out), row.number


# -- tournaments -----------------------------------------------------------------------


def test_a_first_solo_does_not_count_and_the_dealer_deals_again() -> None:
    night = start(4, tournament())
    play(night)
    first = solo(night, "Clara")
    assert first.compulsory and not first.counts and first.dealer == "Ben"
    assert night.schedule().next.dealer == "Ben" and night.schedule().counted == 1
    second = solo(night, "Clara", 90)
    assert not second.compulsory and second.counts and second.dealer == "Ben"
    assert night.schedule().next.dealer == "Clara" and night.schedule().counted == 2


@pytest.mark.parametrize(("game", "re"), [("silent_solo", ("Anna",)), ("marriage", ("Anna",))])
def test_a_silent_solo_or_a_lone_marriage_is_not_the_compulsory_solo(game: str, re: tuple[str, ...]) -> None:
    night = start(4, tournament())
    row = play(night, 150, game, re)
    assert row.counts and not row.compulsory
    assert "Anna" in night.schedule().owed


def test_the_standings_show_who_owes_a_solo() -> None:
    night = start(4, tournament())
    solo(night, "Ben")
    play(night)
    table = {s.player: s for s in standings(night.state, night.schedule()).table}
    assert [p for p, s in table.items() if s.owes_solo] == ["Anna", "Clara", "Dirk"]
    assert table["Ben"].solos == 1 and table["Ben"].solos_won == 1
    assert not any(s.owes_solo for s in standings(start(4).state, start(4).schedule()).table)


def test_forced_solos_after_the_counted_deals() -> None:
    night = start(4, tournament(tournament_deals=4))
    solo(night, "Anna")
    solo(night, "Ben", 100)
    for _ in range(4):
        assert night.schedule().next.forced_solo_by == ()
        play(night)
    schedule = night.schedule()
    assert schedule.counted == 4 and schedule.next.forced_solo_by == ("Clara", "Dirk") and not schedule.next.over
    with pytest.raises(IllegalMove, match=r"a forced solo is due \(docs/rules.md §9\): Clara, Dirk"):
        play(night)
    with pytest.raises(IllegalMove, match="a forced solo is due"):
        solo(night, "Anna")
    dealer = night.schedule().next.dealer
    thrown = misdeal(night)  # a misdeal is still allowed, and keeps the dealer
    assert thrown.dealer == dealer == night.schedule().next.dealer
    forced = solo(night, "Dirk")
    assert forced.forced and not forced.compulsory and not forced.counts and forced.dealer == dealer
    assert night.schedule().next.dealer != dealer  # after a forced solo the next dealer deals
    assert night.schedule().next.forced_solo_by == ("Clara",)
    solo(night, "Clara", 80)
    schedule = night.schedule()
    assert schedule.next.over and schedule.owed == () and schedule.counted == 4
    with pytest.raises(IllegalMove, match="the tournament is complete"):
        play(night)
    night.close()
    assert night.state.closed


def test_forced_solos_when_the_deals_left_equal_the_solos_owed() -> None:
    """DDV: 24 deals; an owed solo is forced as soon as the deals left equal the solos owed."""
    night = start(4, tournament(tournament_deals=24, forced_solos="when_owed"))
    solo(night, "Anna")
    solo(night, "Ben")
    for _ in range(22):
        assert night.schedule().next.forced_solo_by == ()
        play(night)
    assert night.schedule().counted == 22
    assert night.schedule().next.forced_solo_by == ("Clara", "Dirk")
    with pytest.raises(IllegalMove, match="a forced solo is due"):
        play(night)
    forced = solo(night, "Clara")
    assert forced.forced and forced.counts  # the DDV's forced solos are among the 24
    assert night.schedule().next.forced_solo_by == ("Dirk",)
    solo(night, "Dirk")
    assert night.schedule().counted == 24 and night.schedule().next.over


def test_the_tournament_completes() -> None:
    night = start(4, tournament())
    for player in PLAYERS[:4]:
        solo(night, player)
    for _ in range(20):
        play(night)
    schedule = night.schedule()
    assert schedule.counted == 20 and schedule.next.over and schedule.owed == ()
    assert len(schedule.rows) == 24
    with pytest.raises(IllegalMove, match="complete"):
        play(night)


def test_a_night_without_compulsory_solos_never_forces_one() -> None:
    night = start(4)
    for _ in range(25):
        play(night)
    schedule = night.schedule()
    assert schedule.owed == () and schedule.next.forced_solo_by == () and not schedule.next.over


# -- settling up -----------------------------------------------------------------------


def nets(payments: list[Payment]) -> dict[str, Decimal]:
    out: dict[str, Decimal] = {}
    for p in payments:
        assert p.amount > 0 and p.payer != p.payee
        out[p.payer] = out.get(p.payer, Decimal(0)) - p.amount
        out[p.payee] = out.get(p.payee, Decimal(0)) + p.amount
    return out


def fewest(balances: dict[str, Decimal]) -> int:
    """The fewest payments, by brute force: nonzero players minus the most zero-sum groups."""
    names = [p for p, b in balances.items() if b]

    def most_groups(rest: tuple[str, ...]) -> int:
        if not rest:
            return 0
        head, others = rest[0], rest[1:]
        best = -1
        for mask in range(1 << len(others)):
            group = [head, *(o for i, o in enumerate(others) if mask >> i & 1)]
            if sum(balances[p] for p in group) == 0:
                remaining = tuple(o for o in others if o not in group)
                best = max(best, 1 + most_groups(remaining))
        return best

    return len(names) - most_groups(tuple(names))


def D(value: str) -> Decimal:
    return Decimal(value)


def test_two_pairs_that_cancel_need_two_payments() -> None:
    balances = {"Anna": D("-0.50"), "Ben": D("0.30"), "Clara": D("-0.30"), "Dirk": D("0.50")}
    payments = settle(balances)
    assert sorted((p.payer, p.payee, p.amount) for p in payments) == [
        ("Anna", "Dirk", D("0.50")),
        ("Clara", "Ben", D("0.30")),
    ]


@pytest.mark.parametrize(
    ("balances", "count"),
    [
        ({"A": "-10", "B": "-5", "C": "15"}, 2),
        ({"A": "-2", "B": "-3", "C": "5", "D": "-1", "E": "1"}, 3),
        ({"A": "0", "B": "0", "C": "0", "D": "0"}, 0),
        ({"A": "1.25", "B": "-1.25", "C": "0", "D": "0"}, 1),
        ({"A": "-4", "B": "-2", "C": "1", "D": "2", "E": "3"}, 3),
    ],
)
def test_settling_takes_the_fewest_payments(balances: dict[str, str], count: int) -> None:
    money = {p: Decimal(b) for p, b in balances.items()}
    payments = settle(money)
    assert len(payments) == count == fewest(money)
    assert nets(payments) == {p: b for p, b in money.items() if b}


@pytest.mark.parametrize("seed", range(25))
def test_settling_sums_to_the_balances(seed: int) -> None:
    rng = random.Random(seed)
    size = rng.randrange(4, 8)
    points = [rng.randrange(-30, 31) for _ in range(size - 1)]
    points.append(-sum(points))
    rate = Decimal(rng.choice(["0.05", "0.1", "1", "0.02"]))
    money = {PLAYERS[i]: p * rate for i, p in enumerate(points)}
    payments = settle(money)
    assert nets(payments) == {p: b for p, b in money.items() if b}
    assert len(payments) == fewest(money)


def test_balances_must_sum_to_zero() -> None:
    with pytest.raises(ValueError, match="do not sum to zero"):
        settle({"Anna": D("1"), "Ben": D("-0.5")})


def test_a_nights_money_settles_through_the_standings() -> None:
    night = Night()
    night.start(StartNight("money", PLAYERS[:4], 0, preset("standard"), rate="0.10"))
    play(night, 200)
    solo(night, "Clara", 90)
    table = standings(night.state, night.schedule())
    money = {s.player: s.money for s in table.table}
    assert money == {p: s.total * D("0.10") for p, s in zip(PLAYERS, table.table, strict=False)}
    balances = {p: m for p, m in money.items() if m is not None}
    assert nets(settle(balances)) == {p: b for p, b in balances.items() if b}


# -- a forced solo owed by a player who sits out (docs/rules.md §9) -----------------------------------


def test_a_forced_solo_waits_for_a_player_sitting_out() -> None:
    """The only player still owing a solo deals (and, with five, sits out): that deal is an
    ordinary one, and the solo is forced at the next deal, where the player plays."""
    night = start(5, tournament(tournament_deals=4))
    for player in ("Ben", "Clara", "Dirk"):
        solo(night, player)  # compulsory: Anna keeps dealing and sits out
    play(night)
    solo(night, "Anna")
    for _ in range(3):
        play(night)
    due = night.schedule().next
    assert due.dealer == "Emil" and "Emil" not in due.playing
    assert due.forced_solo_by == ()
    assert night.schedule().owed == ("Emil",)
    play(night)  # Emil deals and sits out: an ordinary deal
    due = night.schedule().next
    assert "Emil" in due.playing
    assert due.forced_solo_by == ("Emil",)
    with pytest.raises(IllegalMove, match="forced solo is due"):
        play(night)
    row = solo(night, "Emil")
    assert row.forced
    assert night.schedule().next.over
