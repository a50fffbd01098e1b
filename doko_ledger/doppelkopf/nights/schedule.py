"""The course of a card night, derived from its deals (docs/rules.md §9): who deals, who sits out,
matches and rounds, bock rounds, and a tournament's compulsory and forced solos.

Nothing here is stored: voiding or correcting a deal changes the outcomes and so
everything after it (a bock round a voided deal caused disappears).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from doko_ledger.doppelkopf.nights.outcome import DealOutcome
from doko_ledger.doppelkopf.nights.state import NightState
from doko_ledger.doppelkopf.rules.bock import Bock, BockCause, BockRounds, bocked, parties_at

TABLE = 4


def playing(players: Sequence[str], dealer: int) -> tuple[str, ...]:
    """The four who play a deal: from the dealer's left; with five or more the others sit out
    (with five, the dealer)."""
    n = len(players)
    first = 1 if n > TABLE else 0
    seats = [(dealer + first + i) % n for i in range(TABLE)] if n > TABLE else list(range(n))
    return tuple(players[s] for s in seats)


@dataclass(frozen=True, slots=True)
class DealRow:
    """One deal of the night with everything derived about it; `deltas` include the bock
    multiplier, `bock` says what started the bock round the deal is played in ("deal 3, lost
    solo"; empty outside bock), and `totals` are the running totals after it."""

    number: int
    game_id: str
    dealer: str
    playing: tuple[str, ...]
    sitting_out: tuple[str, ...]
    match: int
    round: int
    multiplier: int
    bock: str
    counts: bool
    compulsory: bool
    forced: bool
    bock_rounds_started: int
    deltas: dict[str, int]
    totals: dict[str, int]
    outcome: DealOutcome
    bock_round: Bock | None = None
    """The deal's bock (None outside bock): what its score carries (`DealPlace.bock`)."""


@dataclass(frozen=True, slots=True)
class NextDeal:
    """What the next deal must look like."""

    number: int
    dealer: str
    dealer_seat: int
    playing: tuple[str, ...]
    multiplier: int
    forced_solo_by: tuple[str, ...]
    over: bool


@dataclass(frozen=True, slots=True)
class Schedule:
    rows: tuple[DealRow, ...]
    next: NextDeal
    owed: tuple[str, ...]
    counted: int
    bock_deals_left: int
    bock_causes: tuple[BockCause, ...] = ()
    """Why bock is in force or queued after the last deal (`BockRounds.causes`)."""


def _owed(state: NightState, solos: set[str]) -> tuple[str, ...]:
    if not state.rules.compulsory_solo:
        return ()
    return tuple(p for p in state.players if p not in solos)


def _forced(state: NightState, counted: int, owed: tuple[str, ...]) -> bool:
    """A tournament's owed solos are due now (`after_deals`: after the counted deals; `when_owed`, the DDV's: when
    the deals left equal the solos owed)."""
    if not owed:
        return False
    left = state.rules.tournament_deals - counted
    if state.rules.forced_solos == "when_owed":
        return left <= len(owed)
    return left <= 0


def plan(state: NightState, outcomes: Sequence[DealOutcome]) -> Schedule:
    """Fold the night's deal outcomes into the schedule, in order."""
    course = Course(state)
    for outcome in outcomes:
        course.add(outcome)
    return course.schedule()


class Course:
    """The fold behind `plan`, one deal at a time: a night that grows by a deal extends its
    course instead of folding every deal again."""

    __slots__ = ("_bock", "_counted", "_dealer", "_rows", "_solos", "_totals", "outcomes", "state")

    def __init__(self, state: NightState) -> None:
        self.state = state
        self.outcomes: list[DealOutcome] = []
        self._rows: list[DealRow] = []
        self._dealer, self._counted = state.first_dealer, 0
        self._bock = BockRounds(state.rules, state.table_size)
        self._solos: set[str] = set()
        self._totals = dict.fromkeys(state.players, 0)

    def add(self, outcome: DealOutcome) -> None:
        """Fold the next deal's outcome."""
        state = self.state
        self.outcomes.append(outcome)
        if not state.started:
            return
        rules, n, dealer, counted, solos = state.rules, state.table_size, self._dealer, self._counted, self._solos
        number = len(self.outcomes)
        at_table = playing(state.players, dealer)
        owed = tuple(p for p in _owed(state, solos) if p in at_table)  # a player sitting out plays no solo
        forced = _forced(state, counted, _owed(state, solos)) and bool(owed)
        first_solo = outcome.solo_by is not None and outcome.solo_by not in solos and rules.compulsory_solo
        compulsory = rules.compulsory_solo and first_solo and not forced
        live = not outcome.abandoned
        bock = self._bock.play(number, live and outcome.finished, outcome.triggers if outcome.finished else ())
        multiplier = bock.multiplier
        before = [outcome.deltas.get(p, 0) for p in state.players]
        points = bocked(
            before,
            bock.bock,
            parties_at(state.players, outcome.players, outcome.re_players),
            outcome.winner,
            outcome.lone,
        )
        deltas = dict(zip(state.players, points, strict=True))
        for player, delta in deltas.items():
            self._totals[player] += delta
        counts = live and not compulsory and not (forced and rules.forced_solos == "after_deals")
        index = max(counted - 1 + counts, 0)
        self._rows.append(
            DealRow(
                number=number,
                game_id=outcome.game_id,
                dealer=state.players[dealer],
                playing=at_table,
                sitting_out=tuple(p for p in state.players if p not in at_table),
                match=index // state.match_length + 1,
                round=index // n + 1,
                multiplier=multiplier,
                bock=bock.cause,
                counts=counts,
                compulsory=compulsory,
                forced=forced and first_solo,
                bock_rounds_started=len(bock.started),
                deltas=deltas,
                totals=dict(self._totals),
                outcome=outcome,
                bock_round=bock.bock,
            )
        )
        if outcome.solo_by is not None:
            solos.add(outcome.solo_by)
        self._counted += counts
        if live and not compulsory:
            self._dealer = (dealer + 1) % n

    def schedule(self) -> Schedule:
        """The schedule of the deals folded so far."""
        state = self.state
        if not state.started:
            return Schedule((), NextDeal(1, "", 0, (), 1, (), False), (), 0, 0)
        rules, dealer, counted = state.rules, self._dealer, self._counted
        owed = _owed(state, self._solos)
        at_next = playing(state.players, dealer)
        forced_now = _forced(state, counted, owed) and any(p in at_next for p in owed)
        over = rules.compulsory_solo and counted >= rules.tournament_deals and not owed
        next_deal = NextDeal(
            number=len(self.outcomes) + 1,
            dealer=state.players[dealer],
            dealer_seat=dealer,
            playing=at_next,
            multiplier=self._bock.next_multiplier,
            forced_solo_by=tuple(p for p in owed if p in at_next) if forced_now else (),
            over=over,
        )
        bock = self._bock
        return Schedule(tuple(self._rows), next_deal, owed, counted, bock.deals_left, bock.causes())
