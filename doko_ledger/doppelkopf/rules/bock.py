"""Bock rounds (*Bockrunde*, a house rule, docs/rules.md §9): what starts one, what it does to a
deal's points, and why bock is in force after a deal.

Pure: a night's course plays its deals through `BockRounds` in order; nothing here is stored,
so a deal taken back takes the rounds it started with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from doko_ledger.doppelkopf.rules.announcements import Party
from doko_ledger.doppelkopf.rules.ruleset import RuleSet
from doko_ledger.doppelkopf.rules.scoring import DealFacts, ScoreLine

TRIGGER_WORDS = {
    "tie": "120:120 tie",
    "lost_solo": "lost solo",
    "lost_re": "lost Re",
    "lost_kontra": "lost Kontra",
    "nobody_wins": "nobody won",
}
"""Each bock trigger (`RuleSet.bock_triggers`) as the derivation names it."""


def deal_triggers(facts: DealFacts, winner: Party | None) -> tuple[str, ...]:
    """Which bock triggers a scored deal sets off, before the rules pick theirs: a 120:120 tie,
    nobody winning, a lost solo (a lone marriage included), a lost Re or Kontra announcement."""
    out = []
    if facts.re_points == 120:
        out.append("tie")
    if winner is None:
        out.append("nobody_wins")
    if (facts.lone or facts.game_type.is_solo) and winner is Party.KONTRA:
        out.append("lost_solo")
    if facts.level(Party.RE) >= 0 and winner is not Party.RE:
        out.append("lost_re")
    if facts.level(Party.KONTRA) >= 0 and winner is not Party.KONTRA:
        out.append("lost_kontra")
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Bock:
    """The bock round a deal is played in: the multiplier and what started the round."""

    multiplier: int
    cause: str

    @property
    def item(self) -> str:
        return f"bock x{self.multiplier}"

    def line(self) -> ScoreLine:
        """The score's last line: the whole value multiplied."""
        return ScoreLine(self.item, None, 0, factor=self.multiplier, cause=self.cause)


def multiplied(points: Sequence[int], multiplier: int) -> tuple[int, ...]:
    """Each player's points in a bock deal: every point, special points and penalties
    included, times the deal's multiplier (1 outside bock)."""
    return tuple(p * multiplier for p in points)


@dataclass(frozen=True, slots=True)
class BockCause:
    """A deal whose bock rounds are not over: the triggers it set off and the bock deals left."""

    deal: int
    triggers: tuple[str, ...]
    deals_left: int

    def view(self) -> dict[str, Any]:
        return {"deal": self.deal, "triggers": list(self.triggers), "deals_left": self.deals_left}


@dataclass(frozen=True, slots=True)
class BockDeal:
    """A deal as the bock rounds see it: its multiplier, what started the round it is played in
    ("deal 3, lost solo"; empty outside bock), and the triggers of the rules it set off."""

    multiplier: int
    cause: str
    started: tuple[str, ...]


class BockRounds:
    """The bock rounds of a night, played deal by deal: each trigger of the rules queues one
    round of `table_size` deals; a scored deal while a round is queued is a bock deal and uses
    one deal of the first round. A deal thrown in uses none."""

    __slots__ = ("_rounds", "rules", "table_size")

    def __init__(self, rules: RuleSet, table_size: int) -> None:
        self.rules = rules
        self.table_size = table_size
        self._rounds: list[tuple[int, int, str, tuple[str, ...]]] = []
        """Deals left, the deal that started the round, its trigger, and all that deal started."""

    def copy(self) -> BockRounds:
        other = BockRounds(self.rules, self.table_size)
        other._rounds = list(self._rounds)
        return other

    @property
    def next_multiplier(self) -> int:
        """The next scored deal's multiplier."""
        return self.rules.bock_multiplier if self._rounds else 1

    @property
    def deals_left(self) -> int:
        return sum(left for left, *_ in self._rounds)

    def play(self, number: int, scored: bool, triggers: Sequence[str]) -> BockDeal:
        """Play deal `number`: `scored` says it was played out (not thrown in), `triggers` what
        it set off (`deal_triggers`; none for a deal not scored)."""
        multiplier = self.next_multiplier if scored else 1
        cause = ""
        if multiplier > 1:
            left, deal, trigger, started = self._rounds[0]
            cause = f"deal {deal}, {TRIGGER_WORDS.get(trigger, trigger)}"
            self._rounds[0:1] = [(left - 1, deal, trigger, started)] if left > 1 else []
        started = tuple(t for t in triggers if t in self.rules.bock_triggers)
        self._rounds += [(self.table_size, number, t, started) for t in started]
        return BockDeal(multiplier, cause, started)

    def causes(self) -> tuple[BockCause, ...]:
        """Why bock is in force or queued: each deal whose rounds are not over, in order."""
        out: list[BockCause] = []
        for left, deal, _, started in self._rounds:
            if out and out[-1].deal == deal:
                out[-1] = BockCause(deal, started, out[-1].deals_left + left)
            else:
                out.append(BockCause(deal, started, left))
        return tuple(out)
