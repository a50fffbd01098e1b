"""`evolve(state, event) -> state`: the fold of a game's events. Total; never validates."""

from __future__ import annotations

from collections.abc import Iterable
from functools import reduce
from typing import Any

from doko_ledger.events.doppelkopf import CardPlayed, CardsDealt, GameStarted, GameTypeSet, SchweinchenShown
from doko_ledger.game.state import GameState, Trick, schweinchen_holder
from doko_ledger.rules.play import winning_index


def evolve(state: GameState, event: Any) -> GameState:
    """The state after one event. Unknown events leave the state as it is."""
    match event:
        case CardPlayed(seat=seat, card=card):
            return _card_played(state, seat, card)
        case GameStarted():
            return GameState(
                game_id=event.game_id,
                players=event.players,
                dealer=event.dealer,
                rules=event.rules,
                played_on=event.played_on,
                started=True,
            )
        case CardsDealt(hands=hands):
            holder = schweinchen_holder(hands) if state.rules.schweinchen else None
            return state.but(dealt=hands, hands=hands, schweinchen_seat=holder)
        case GameTypeSet(game_type=game_type, declarer=declarer):
            return state.but(game_type=game_type, declarer=declarer)
        case SchweinchenShown(seat=seat):
            return state.but(schweinchen_seat=seat)
    return state


def _card_played(state: GameState, seat: int, card: Any) -> GameState:
    hands = state.hands
    if hands is not None:
        hand = hands[seat]
        if card in hand:
            i = hand.index(card)
            hands = (*hands[:seat], hand[:i] + hand[i + 1 :], *hands[seat + 1 :])
    current = state.current
    if current is None:
        current = Trick(len(state.tricks) + 1, seat, (card,))
    else:
        current = Trick(current.number, current.leader, current.cards + (card,))
    if not current.complete:
        return state.but(hands=hands, current=current)
    index = winning_index(
        current.cards,
        state.order,
        second_dulle_beats_first=state.rules.second_dulle_beats_first,
        last_trick=current.number == state.hand_size,
    )
    done = Trick(current.number, current.leader, current.cards, current.seat_of(index))
    return state.but(hands=hands, current=None, tricks=state.tricks + (done,))


def fold(events: Iterable[Any], state: GameState | None = None) -> GameState:
    """Replay: the state after all `events`, from `state` or from nothing."""
    return reduce(evolve, events, state or GameState())
