"""The threshold analysis of a game recorded card by card (docs/rules.md §7): for every card,
whether it moved the game into another result class with every hand known, or changed Re's net
special points within the class. The threshold questions alone, no exact value: much faster
than `analyze.analyze_game`, for the whole game from the first trick.

Pure: a folded `GameState` in, a `ThresholdAnalysis` out.
"""

from __future__ import annotations

from dataclasses import dataclass

from doko_ledger.doppelkopf.analysis.analyze import (
    Deal,
    Schwarz,
    deal_of,
    game_value,
    past_before,
    require_trick,
)
from doko_ledger.doppelkopf.analysis.position import TOTAL_POINTS, Position, position
from doko_ledger.doppelkopf.analysis.solver import SearchLimit, Solver
from doko_ledger.doppelkopf.analysis.specials import WEIGHT, Past, SpecialsSearch
from doko_ledger.doppelkopf.cards import Card
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.rules.play import is_revoke
from doko_ledger.doppelkopf.rules.scoring import special_points_count

QUESTION_LIMIT = 2_000_000
"""At most so many positions searched for one question about a card's special points (about a
second), those the card points' solver is asked for it included: from the first tricks such a
question can take far longer, and the card is then weighed by its class alone and says so
(`ThresholdAnalysis.unweighed`)."""

_FAR = 1 << 40


@dataclass(frozen=True, slots=True)
class ResultChange:
    """A card after which best play from both sides ends in another result class than before
    it, or in the same class with other special points: Re's card points with best play fall
    on the other side of a threshold that decides the game's value (`re_before`, `re_after`:
    a class by its lowest Re card points), or Re's net special points with best play within
    the class change (`specials_before`, `specials_after`; None where the game counts none,
    or the search did not weigh them for this card)."""

    index: int
    trick: int
    seat: int
    card: Card
    re_before: int
    re_after: int
    specials_before: int | None = None
    specials_after: int | None = None


@dataclass(frozen=True, slots=True)
class ThresholdAnalysis:
    """The cards that changed the result (`changes`), and the indices of the cards whose special
    points the search did not weigh within its limit (`unweighed`; their class is weighed)."""

    changes: tuple[ResultChange, ...]
    unweighed: tuple[int, ...] = ()


def thresholds(deal: Deal, state: GameState) -> tuple[int, ...]:
    """Re's card points at which the game's value changes (docs/rules.md §6-§7): 121 or 120 by
    the announcements, 151, 181, 211, and their mirror images for Kontra, as the score has them."""
    values = [game_value(deal, state, points) for points in range(TOTAL_POINTS + 1)]
    return tuple(p for p in range(1, TOTAL_POINTS + 1) if values[p] != values[p - 1])


def result_class(
    solver: Solver,
    pos: Position,
    re_taken: int,
    steps: tuple[int, ...],
    schwarz: Schwarz | None = None,
    tricks: tuple[int, int] = (0, 0),
) -> int:
    """The threshold class best play from `pos` ends in: the highest of `steps` Re reaches (0:
    none), found by zero-window searches only, halving the list of thresholds. With `schwarz`
    (and `tricks`, the tricks Re and Kontra took so far), the steps at 1 and 240 are asked by
    tricks: whether Re takes a trick, whether Re takes every trick."""
    return _step(steps, _steps_reached(solver, pos, re_taken, steps, schwarz, tricks, (0, len(steps))))


def _steps_reached(
    solver: Solver,
    pos: Position,
    re_taken: int,
    steps: tuple[int, ...],
    schwarz: Schwarz | None,
    tricks: tuple[int, int],
    within: tuple[int, int],
    first: int | None = None,
) -> int:
    """How many of `steps` Re reaches from `pos`, known to lie `within` (lo, hi): Re reaches
    steps[:lo] and none of steps[hi:]. `first`: the count asked about first (whether Re
    reaches steps[first - 1]); then the range left is halved."""
    lo, hi = within
    while lo < hi:
        mid = first if first is not None and lo < first <= hi else (lo + hi + 1) // 2
        first = None
        if _reaches(solver, pos, steps[mid - 1] - re_taken, steps[mid - 1], schwarz, tricks):
            lo = mid
        else:
            hi = mid - 1
    return lo


def _reaches(
    solver: Solver, pos: Position, target: int, step: int, schwarz: Schwarz | None, tricks: tuple[int, int]
) -> bool:
    if schwarz is not None and step == 1:  # Re takes a trick, with card points or without
        return tricks[0] > 0 or schwarz.solver.reaches(pos, 1)
    if schwarz is not None and step == TOTAL_POINTS:  # Re takes every trick
        cards = sum(bin(h).count("1") for h in pos.hands) + len(pos.trick)
        return tricks[1] == 0 and schwarz.solver.reaches(pos, cards)
    return solver.reaches(pos, target)


def result_changes(
    state: GameState,
    *,
    game_id: str,
    from_trick: int = 1,
    plain: bool = False,
    limit: int | None = None,
    question_limit: int = QUESTION_LIMIT,
    specials: bool = True,
) -> ThresholdAnalysis:
    """The cards from trick `from_trick` on that moved the game into another result class with
    every hand known, or, where the game counts special points, changed Re's net special points
    within the class (the class first, then the special points, as `analyze_game` weighs
    them); schwarz by tricks. Refuses what `analyze_game` refuses; `plain` as there; `limit`:
    at most so many positions searched in all by the card points' solver (`SearchLimit`
    beyond); `question_limit`: at most so many for one question about special points;
    `specials`: whether to weigh them at all (the benchmark measures the classes alone)."""
    deal = deal_of(state, game_id)
    tricks = state.all_tricks
    require_trick(game_id, from_trick, len(tricks))
    steps = thresholds(deal, state)
    solver = Solver(deal.tables, deal.re, plain=plain, limit=limit)
    schwarz = Schwarz(deal, state.hand_size)
    counted = specials and special_points_count(deal.game_type, deal.lone, state.rules)
    search = (
        SpecialsSearch(
            state,
            deal.tables,
            deal.re,
            deal.game_type,
            deal.lone,
            deal.levels,
            limit=question_limit,
            native=True,
            cards=solver,
        )
        if counted
        else None
    )
    hands = [list(hand) for hand in deal.hands]
    if search is not None:  # best play's special points are guessed to be those the game made
        made = search.re_specials(past_before(state, deal.re, len(tricks) + 1, True).earned)
    re_taken = index = re_tricks = kontra_tricks = 0
    before: int | None = None  # how many steps Re reaches before the card
    value: int | None = None  # the special points' search's value before the card, where known
    changes: list[ResultChange] = []
    unweighed: list[int] = []
    for trick in tricks:
        for i, (seat, card) in enumerate(trick.plays):
            revoke = is_revoke(card, hands[seat], trick.cards[:i], state.order)
            if trick.number >= from_trick and i == 0:  # a trick's start: the first, or one after a question failed
                past = past_before(state, deal.re, trick.number, counted)
                pos = position(deal.tables, hands, trick.leader, (), deal.re)
                if before is None:
                    whole = (0, len(steps))
                    before = _steps_reached(solver, pos, re_taken, steps, schwarz, (re_tricks, kontra_tricks), whole)
                if search is not None and value is None:
                    value = _value(search, pos, past, game_value(deal, state, _step(steps, before)) * WEIGHT + made)
            hands[seat].remove(card)
            if trick.number >= from_trick:
                assert before is not None
                done = i == len(trick.cards) - 1 and trick.complete and trick.winner is not None
                taken, taken_tricks = re_taken, (re_tricks, kontra_tricks)
                if done and trick.winner is not None:
                    re_won = deal.re[trick.winner]
                    taken += trick.points if re_won else 0
                    taken_tricks = (re_tricks + re_won, kontra_tricks + (not re_won))
                leader, on_table = (
                    (trick.winner, ()) if done and trick.winner is not None else (trick.leader, trick.cards[: i + 1])
                )
                pos = position(deal.tables, hands, leader, on_table, deal.re)
                # Best play before the card chose among this card and the others: a card of Re
                # can only lose Re a step, one of Kontra only give Re one (a revoke was no
                # choice of best play). Asked first: whether the card kept the class.
                if revoke:
                    within, first = (0, len(steps)), before
                elif deal.re[seat]:
                    within, first = (0, before), before
                else:
                    within, first = (before, len(steps)), before + 1
                after = _steps_reached(solver, pos, taken, steps, schwarz, taken_tricks, within, first)
                nets: tuple[int, int] | tuple[None, None] = (None, None)
                if search is not None:
                    now = None
                    if value is not None:
                        played = position(deal.tables, hands, trick.leader, trick.cards[: i + 1], deal.re)
                        known = (-_FAR, _FAR) if revoke else (-_FAR, value) if deal.re[seat] else (value, _FAR)
                        now = _value(search, played, past, value, known)
                    if value is None or now is None:
                        unweighed.append(index)
                    else:
                        nets = _net(value), _net(now)
                    value = now
                if after != before or nets[0] != nets[1]:
                    changes.append(
                        ResultChange(index, trick.number, seat, card, _step(steps, before), _step(steps, after), *nets)
                    )
                before = after
            index += 1
        if trick.winner is not None:
            if deal.re[trick.winner]:
                re_taken += trick.points
                re_tricks += 1
            else:
                kontra_tricks += 1
    return ThresholdAnalysis(tuple(changes), tuple(unweighed))


def _value(
    search: SpecialsSearch, pos: Position, past: Past, guess: int, known: tuple[int, int] = (-_FAR, _FAR)
) -> int | None:
    """The special points' search's value of best play from `pos` (`SpecialsSearch.value`), one
    question, or None past its limit."""
    search.question()
    try:
        return search.value(pos, past, guess, known)
    except SearchLimit:
        return None


def _net(value: int) -> int:
    """Re's net special points in a value of the special points' search (`Outcome.value`)."""
    return value - (value + WEIGHT // 2) // WEIGHT * WEIGHT


def _step(steps: tuple[int, ...], reached: int) -> int:
    """The class of a position from which Re reaches `reached` of `steps`: its lowest Re card points."""
    return 0 if reached == 0 else steps[reached - 1]
