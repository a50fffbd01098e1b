"""Hypothesis over nights that change between deals: under any mix of deals, joins, leaves, rule
changes, bock declared by hand, undos and corrections, the standings are the fold of the deals
(each sheet row the deal's points under the counting in force at it, the totals their sums for
everyone who ever sat), the course extended step by step is the course folded at once and the
night read back from its events, and plus/minus counting and the money stay zero-sum."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

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
from doko_ledger.doppelkopf.nights.schedule import plan, steps
from doko_ledger.doppelkopf.nights.standings import payments, standings
from doko_ledger.doppelkopf.nights.state import Change
from doko_ledger.doppelkopf.rules.counting import sheet_points
from doko_ledger.doppelkopf.rules.ruleset import RuleSet, rules_from_mapping

NAMES = ("Anna", "Ben", "Clara", "Dirk", "Emil", "Fritz", "Gabi", "Hans", "Ida")
TRIGGERS = ("tie", "lost_solo", "lost_re", "lost_kontra", "nobody_wins")

RULES = st.builds(
    lambda triggers, overlap, effect, counting: rules_from_mapping(
        {"bock_triggers": list(triggers), "bock_overlap": overlap, "bock_effect": effect, "counting": counting}
    ),
    st.lists(st.sampled_from(TRIGGERS), unique=True, max_size=2),
    st.sampled_from(["queue", "stack", "extend", "ignore"]),
    st.sampled_from(["multiply", "extra_point"]),
    st.sampled_from(["plus_minus", "winners_only", "losers_only"]),
)
OPS = st.lists(
    st.tuples(
        st.sampled_from(
            ["deal", "deal", "deal", "solo", "misdeal", "join", "leave", "rules", "bock", "undo", "correct"]
        ),
        st.integers(0, 1000),
        RULES,
    ),
    min_size=10,
    max_size=40,
)


def _deal(night: Night, pick: int, kind: str) -> None:
    at_table = night.schedule().next.playing
    if kind == "misdeal":
        night.add(night.deal_record(None, abandoned=True))
        return
    if kind == "solo":
        summary = SummaryRecord("club_solo", (at_table[pick % 4],), (60, 120, 121, 180)[pick % 4])
    else:
        re = (at_table[pick % 4], at_table[(pick + 1 + pick % 3) % 4])
        summary = SummaryRecord("normal", re, (0, 90, 120, 121, 151, 240)[pick % 6])
    night.add(night.deal_record(summary))


def _undo(night: Night) -> None:
    last = night.state.last_entry
    if isinstance(last, Change) and last.game_id is None:
        night.change(TakeBackChange(last.version))
    else:
        night.void_last()


def _correct(night: Night, pick: int) -> None:
    if not night.state.deals:
        return
    game_id = night.state.deals[pick % len(night.state.deals)]
    old = night.games[game_id]
    if old.summary is None:
        return  # a misdeal stays one here: correcting it could move the dealer of later deals
    re = tuple(old.players[s] for s in old.summary.re_seats)
    night.correct(game_id, SummaryRecord(old.game_type.value if old.game_type else "normal", re, (pick * 7) % 241))


def act(night: Night, op: str, pick: int, rules: RuleSet) -> None:
    """One step; a step the night refuses must leave it as it was."""
    before = (night.state, len(night.history))
    try:
        if op in ("deal", "solo", "misdeal"):
            _deal(night, pick, op)
        elif op == "join":
            seated = night.state.players
            night.change(JoinTable(NAMES[pick % len(NAMES)], seated[pick % len(seated)] if pick % 2 else None))
        elif op == "leave":
            night.change(LeaveTable(NAMES[pick % len(NAMES)]))
        elif op == "rules":
            night.change(ChangeRules(rules))
        elif op == "bock":
            with_deal = night.state.deals[-1] if pick % 2 and night.state.deals else None
            night.change(DeclareBock(NAMES[pick % 4], "", pick % 3 + 1, with_deal))
        elif op == "undo":
            _undo(night)
        else:
            _correct(night, pick)
    except IllegalMove:
        assert (night.state, len(night.history)) == before


def rules_at_each_deal(night: Night) -> list[RuleSet]:
    """The rules in force at each deal, read off the timeline without the course."""
    rules, out = night.state.first_rules, []
    for step in steps(night.state):
        if isinstance(step, str):
            out.append(rules)
        elif hasattr(step.event, "rules"):
            rules = step.event.rules
    return out


@settings(max_examples=60, deadline=None, derandomize=True)
@given(size=st.integers(4, 7), first=RULES, ops=OPS, rate=st.sampled_from([None, "0.05", "0.1"]))
def test_the_standings_are_the_fold_of_the_deals_under_any_changes(
    size: int, first: RuleSet, ops: list[tuple[str, int, RuleSet]], rate: str | None
) -> None:
    night = Night()
    night.start(StartNight("p", NAMES[:size], 0, first, rate=rate))
    for op, pick, rules in ops:
        act(night, op, pick, rules)
    schedule = night.schedule()
    assert schedule == plan(night.state, night.outcomes())  # extended step by step = folded at once
    again = Night.load(list(night.history), {g: events for g, events in night.new_games.items()})
    assert again.schedule() == schedule  # read back from its events
    running: dict[str, int] = {}
    for row, rules in zip(schedule.rows, rules_at_each_deal(night), strict=True):
        assert row.rules == rules
        assert row.sheet == sheet_points(row.deltas, rules.counting)
        assert set(row.playing) | set(row.sitting_out) == set(row.deltas)
        assert row.dealer in row.deltas and all(row.deltas[p] == 0 for p in row.sitting_out)
        if not row.outcome.abandoned:
            assert sum(row.deltas.values()) == 0
        for player, points in row.sheet.items():
            running[player] = running.get(player, 0) + points
        assert row.totals == {p: running.get(p, 0) for p in row.totals}
    table = standings(night.state, schedule)
    assert table.players == night.state.everyone
    assert {s.player: s.total for s in table.table} == {p: running.get(p, 0) for p in night.state.everyone}
    if table.zero_sum:
        assert sum(s.total for s in table.table) == 0
    if rate is not None:
        assert sum(s.money or Decimal(0) for s in table.table) == 0
    paid: dict[str, Any] = {}
    for payment in payments(table):
        paid[payment.payer] = paid.get(payment.payer, 0) - payment.amount
        paid[payment.payee] = paid.get(payment.payee, 0) + payment.amount
    assert sum(paid.values()) == 0
