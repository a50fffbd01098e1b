"""When each party became public: a fold over a game's events (RULES.md §4).

A revelation is one player's party becoming known to the table, with the event
that showed it: a CQ played, an announcement, a declared solo or poverty, a
marriage partner's trick, a poverty taken, or deduction from the others.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from doko_ledger.cards import ALTE
from doko_ledger.events.doppelkopf import (
    AnnouncementMade,
    CardPlayed,
    PovertyAnswered,
    ReservationDeclared,
    ReservationNamed,
)
from doko_ledger.game.evolve import cards_played, evolve
from doko_ledger.game.parties import public_parties
from doko_ledger.game.state import GameState
from doko_ledger.rules.announcements import Party
from doko_ledger.rules.game_types import GameType


@dataclass(frozen=True, slots=True)
class Revelation:
    """`seat` became known as `party` during trick `trick` (0: with the reservations), because of `cause`."""

    seat: int
    party: Party
    trick: int
    cause: str


def _cause(trick_done: bool, after: GameState, event: Any, seat: int) -> str:
    """Why `seat`'s party became known with `event` (`trick_done`: the event completed a trick)."""
    match event:
        case CardPlayed(seat=player, card=card) if card is ALTE and player == seat:
            if after.game_type is GameType.SILENT_SOLO and after.played_by(seat).count(ALTE) == 2:
                return "played the second CQ: a silent solo"
            return "played CQ"
        case CardPlayed() if after.game_type is GameType.SILENT_SOLO:
            return "silent solo shown"
        case CardPlayed() if after.game_type is GameType.MARRIAGE and trick_done:
            trick = after.tricks[-1]
            if trick.winner == seat and seat != after.declarer:
                return f"won trick {trick.number}: the marriage partner"
            return f"marriage clarified in trick {trick.number}"
        case AnnouncementMade(seat=player, announcement=announcement) if player == seat:
            return f"announced {announcement.label}"
        case ReservationNamed() | ReservationDeclared() if after.game_type is not None:
            game = after.game_type.value.replace("_", " ")
            return f"declared {game}" if seat == after.declarer else f"against the {game}"
        case PovertyAnswered(seat=player, accepted=True):
            return "took the poverty" if player == seat else "poverty taken"
    return "follows from the others"


def _may_reveal(trick_done: bool, after: GameState, event: Any) -> bool:
    """False for the many events that cannot change what the table knows (a plain card)."""
    if not isinstance(event, CardPlayed):
        return True
    return event.card is ALTE or (trick_done and after.game_type is GameType.MARRIAGE)


def revelations(events: Iterable[Any]) -> list[Revelation]:
    """Every party revelation of a game, in the order they happened."""
    return fold_revealing(events)[1]


def fold_revealing(events: Iterable[Any]) -> tuple[GameState, list[Revelation]]:
    """The final state and every revelation, in one fold.

    Outside a marriage a card can reveal a party only when it is a CQ, so the cards are
    played in runs (`cards_played`) that end with a CQ or another event (and a card there
    never changes whether the game is ready). Once every party is public, nothing more can
    be revealed.
    """
    state = _START
    known: list[Party | None] = [None] * 4
    out: list[Revelation] = []
    run: list[CardPlayed] = []
    marriage = GameType.MARRIAGE
    for event in events:
        if type(event) is CardPlayed and state.game_type is not marriage:
            run.append(event)
            if event.card is not ALTE:
                continue
            state = cards_played(state, run)
            run = []
            trick_done = state.current is None  # the CQ was a trick's last card
            tricks_before = len(state.tricks) - trick_done
            ready_before = state.ready
        else:
            if run:
                state = cards_played(state, run)
                run = []
            before, state = state, evolve(state, event)
            tricks_before = len(before.tricks)
            trick_done = len(state.tricks) > tricks_before
            ready_before = before.ready
        if state.game_type is None or None not in known or not _may_reveal(trick_done, state, event):
            continue
        trick = tricks_before + 1 if ready_before else 0
        for seat, party in enumerate(public_parties(state)):
            if party is not None and known[seat] is None:
                out.append(Revelation(seat, party, trick, _cause(trick_done, state, event, seat)))
                known[seat] = party
    if run:
        state = cards_played(state, run)
    return state, out


_START = GameState()
