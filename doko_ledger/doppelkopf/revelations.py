"""When each party became public: a fold over a game's events (docs/rules.md §4).

A revelation is one player's party becoming known to the table, with the event
that showed it: a CQ played, an announcement, a declared solo or poverty, a
marriage partner's trick, a poverty taken, or deduction from the others. The cause is a
message, shown in the reader's language; what is meant for scripts renders it in English.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import chain
from typing import Any

from doko_ledger.doppelkopf.cards import ALTE, Cards
from doko_ledger.doppelkopf.events import (
    AnnouncementMade,
    CardPlayed,
    PovertyAnswered,
    ReservationDeclared,
    ReservationNamed,
)
from doko_ledger.doppelkopf.game.evolve import cards_played, evolve, fold
from doko_ledger.doppelkopf.game.parties import public_parties, queens_played, shown_parties
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.rules.announcements import Party
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.play import SEATS
from doko_ledger.frozen import frozen
from doko_ledger.i18n import Message, msg


@frozen
class Revelation:
    """`seat` became known as `party` during trick `trick` (0: with the reservations), because of `cause`."""

    seat: int
    party: Party
    trick: int
    cause: Message


_THE_ALTE = Cards([ALTE])
_PLAYED_ALTE = msg("played {card}", card=_THE_ALTE)
_SILENT_SOLO = msg("silent solo shown")
_SECOND_ALTE = msg("played the second {card}: a silent solo", card=_THE_ALTE)
_FROM_THE_OTHERS = msg("follows from the others")


def _cause(trick_done: bool, after: GameState, event: Any, seat: int) -> Message:
    """Why `seat`'s party became known with `event` (`trick_done`: the event completed a trick)."""
    match event:
        case CardPlayed(seat=player, card=card) if card is ALTE and after.game_type is not GameType.MARRIAGE:
            silent = after.game_type is GameType.SILENT_SOLO
            second = silent and player == seat and after.played_by(seat).count(ALTE) == 2
            return _queen_cause(after.game_type, player, seat, second)
        case CardPlayed(seat=player, card=card) if card is ALTE and player == seat:
            return _PLAYED_ALTE
        case CardPlayed() if after.game_type is GameType.SILENT_SOLO:
            return _SILENT_SOLO
        case CardPlayed() if after.game_type is GameType.MARRIAGE and trick_done:
            trick = after.tricks[-1]
            if trick.winner == seat and seat != after.declarer:
                return msg("won trick {trick}: the marriage partner", trick=trick.number)
            return msg("marriage clarified in trick {trick}", trick=trick.number)
        case AnnouncementMade(seat=player, announcement=announcement) if player == seat:
            return msg("announced {call}", call=announcement)
        case ReservationNamed() | ReservationDeclared() if after.game_type is not None:
            game = after.game_type
            return msg("declared {game}", game=game) if seat == after.declarer else msg("against the {game}", game=game)
        case PovertyAnswered(seat=player, accepted=True):
            return msg("took the poverty") if player == seat else msg("poverty taken")
    return _FROM_THE_OTHERS


def _queen_cause(game_type: GameType | None, player: int, seat: int, second: bool) -> Message:
    """Why `seat`'s party became known when `player` played a CQ, outside a marriage
    (`second`: the second CQ `player` played)."""
    if player == seat:
        return _SECOND_ALTE if game_type is GameType.SILENT_SOLO and second else _PLAYED_ALTE
    return _SILENT_SOLO if game_type is GameType.SILENT_SOLO else _FROM_THE_OTHERS


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
    never changes whether the game is ready). In a normal game or a silent solo whose hands
    are recorded a run does not even end at a CQ: there only the CQs played and the calls
    show a party, and no card changes the game or the calls, so `shown_parties` (what
    `public_parties` itself uses there) tells what the table knows after each CQ without
    the state at that card. Once every party is public, nothing more can be revealed: the
    rest is a plain `fold`.
    """
    state = _START
    known: list[Party | None] = [None] * 4
    out: list[Revelation] = []
    run: list[CardPlayed] = []
    queens: list[int] | None = None  # in a run where only cards and calls show a party: the CQs played
    shown, played, ready = GameType.NORMAL, 0, False  # with `queens`: the game, cards played before the run, ready
    marriage = GameType.MARRIAGE
    rest = iter(events)
    for event in rest:
        if type(event) is CardPlayed and state.game_type is not marriage:
            run.append(event)
            if event.card is not ALTE:
                continue
            if queens is None and (game_type := _shown_by_cards(state)) is not None:
                # `state` is still the run's first, and no card of the run changes the game or the calls
                shown, queens, ready = game_type, queens_played(state), state.ready
                played = len(state.tricks) * SEATS + (0 if state.current is None else len(state.current.cards))
            if queens is not None:
                queens.append(event.seat)
                earlier = played + len(run) - 1  # cards before this CQ: every complete trick has four
                trick = earlier // SEATS + 1 if ready else 0
                second = queens.count(event.seat) == 2
                for seat, party in enumerate(shown_parties(shown, state.declarer, queens, state.calls)):
                    if party is not None and known[seat] is None:
                        cause = _queen_cause(shown, event.seat, seat, second)
                        out.append(Revelation(seat, party, trick, cause))
                        known[seat] = party
                if None not in known:  # the rest of the run and what follows, as one run
                    return fold(chain(run, rest), state), out
                continue
            before_state = state = cards_played(state, run)  # `ready`: a card does not change it
            run = []
            trick_done = state.current is None  # the CQ was a trick's last card
            tricks_before = len(state.tricks) - trick_done
            if state.game_type is None:
                continue
        else:
            if run:
                state = cards_played(state, run)
                run = []
                queens = None
            before_state, state = state, evolve(state, event)
            if state.game_type is None:
                continue
            tricks_before = len(before_state.tricks)
            trick_done = len(state.tricks) > tricks_before
            if not _may_reveal(trick_done, state, event):
                continue
        trick = tricks_before + 1 if before_state.ready else 0
        for seat, party in enumerate(public_parties(state)):
            if party is not None and known[seat] is None:
                out.append(Revelation(seat, party, trick, _cause(trick_done, state, event, seat)))
                known[seat] = party
        if None not in known:
            return fold(rest, state), out
    if run:
        state = cards_played(state, run)
    return state, out


def _shown_by_cards(state: GameState) -> GameType | None:
    """The game type where only the cards and the calls show a party and no card changes the
    game: a normal game or a silent solo with recorded hands (without them, a CQ may reveal a
    silent solo); else None."""
    game_type = state.game_type
    shown = game_type is GameType.NORMAL or game_type is GameType.SILENT_SOLO
    return game_type if shown and state.hands is not None and state.summary is None else None


_START = GameState()
