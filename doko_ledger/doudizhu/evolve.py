"""`evolve(state, event) -> state`: the fold of a deal's events. Total; never validates.

Replaying an old log must never fail because a check changed: evolve records what the events
say, and ignores event types it does not know (annotations, corrections handled elsewhere).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from functools import reduce
from typing import Any

from doko_ledger.doudizhu.bidding import PASS
from doko_ledger.doudizhu.cards import Hand, hand, hand_size, kitty_size
from doko_ledger.doudizhu.events import (
    BidMade,
    BidPassed,
    CombinationPlayed,
    DouDizhuAbandoned,
    DouDizhuDealt,
    DouDizhuSummarized,
    KittyTaken,
    TurnPassed,
)
from doko_ledger.doudizhu.state import DealState, Move, Trick


def evolve(state: DealState, event: Any) -> DealState:
    """The state after one event. Unknown events leave the state as it is."""
    match event:
        case DouDizhuDealt():
            return _dealt(event)
        case BidMade(seat=seat, bid=bid):
            return replace(state, calls=state.calls + ((seat, bid),))
        case BidPassed(seat=seat):
            return replace(state, calls=state.calls + ((seat, PASS),))
        case DouDizhuAbandoned(reason=reason):
            return replace(state, abandoned=reason.value)
        case KittyTaken(seat=seat, cards=cards):
            return _kitty_taken(state, seat, cards)
        case CombinationPlayed(seat=seat, cards=cards):
            return _played(state, Move(seat, cards, event.combination))
        case TurnPassed(seat=seat):
            return _played(state, Move(seat))
        case DouDizhuSummarized(out_first=out):
            return replace(state, summary=event, out_first=out)
    return state


def fold(events: Iterable[Any], state: DealState | None = None) -> DealState:
    """Replay: the state after all `events`, from `state` or from nothing."""
    return reduce(evolve, events, state or DealState())


def _dealt(event: DouDizhuDealt) -> DealState:
    n = len(event.players)
    hands = tuple(hand(h) for h in event.hands) if event.hands is not None else None
    unknown = (hand_size(n) if n in (3, 4) else 0,) * n
    left = tuple(len(h) for h in hands) if hands is not None else unknown
    return DealState(
        game_id=event.game_id,
        players=event.players,
        dealer=event.dealer,
        opener=event.opener,
        played_on=event.played_on,
        note=event.note,
        dealt=True,
        dealt_hands=hands,
        kitty=hand(event.kitty) if event.kitty is not None else None,
        hands=hands,
        left=left,
    )


def _at(values: tuple[Any, ...], seat: int, value: Any) -> tuple[Any, ...]:
    """`values` with the seat's entry replaced (unchanged for a seat that is not there)."""
    if not 0 <= seat < len(values):
        return values
    return values[:seat] + (value,) + values[seat + 1 :]


def _kitty_taken(state: DealState, seat: int, cards: Hand | None) -> DealState:
    taken = cards if cards is not None else state.kitty
    hands = state.hands
    if hands is not None and taken is not None and 0 <= seat < len(hands):
        hands = _at(hands, seat, hand(hands[seat] + taken))
    n = len(state.players)
    size = len(taken) if taken is not None else (kitty_size(n) if n in (3, 4) else 0)
    left = _at(state.left, seat, state.left[seat] + size) if 0 <= seat < len(state.left) else state.left
    return replace(state, kitty=taken, hands=hands, left=left, kitty_taken=True)


def _without(cards: Hand, taken: Hand) -> Hand:
    rest = list(cards)
    for card in taken:
        if card in rest:
            rest.remove(card)
    return tuple(rest)


def _played(state: DealState, move: Move) -> DealState:
    seat = move.seat
    current = state.current or Trick(seat)
    current = Trick(current.leader, current.moves + (move,))
    if move.passed:
        if current.passes >= state.seats - 1:
            return replace(state, tricks=state.tricks + (current,), current=None)
        return replace(state, current=current)
    hands = state.hands
    if hands is not None and 0 <= seat < len(hands):
        hands = _at(hands, seat, _without(hands[seat], move.cards))
    left = state.left
    if 0 <= seat < len(left):
        left = _at(left, seat, max(left[seat] - len(move.cards), 0))
    if 0 <= seat < len(left) and left[seat] == 0 and state.out_first is None:
        return replace(state, hands=hands, left=left, tricks=state.tricks + (current,), current=None, out_first=seat)
    return replace(state, hands=hands, left=left, current=current)
