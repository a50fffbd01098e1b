"""Calling the Schweinchen, where the rules have them called rather than seen in the deal
(option `schweinchen_shown`, docs/rules.md §2)."""

from __future__ import annotations

from doko_ledger.doppelkopf.events import SchweinchenShown
from doko_ledger.doppelkopf.game.commands import IllegalMove, seat_name
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.rules.order import has_schweinchen, schweinchen_card
from doko_ledger.doppelkopf.rules.play import SEATS


def call_schweinchen(state: GameState, seat: int) -> SchweinchenShown:
    """The call of a player holding both aces of the trump suit, or `IllegalMove` saying why not:
    the game must be known and have Schweinchen, nobody has called them yet, and the caller
    holds both, before the first card (`before_play`) or any time while holding both
    (`while_held`)."""
    if not 0 <= seat < SEATS:
        raise IllegalMove(f"there is no seat {seat}")
    game = state.game_type
    if game is None:
        raise IllegalMove("the Schweinchen are called once the reservations have settled the game (docs/rules.md §2)")
    card = schweinchen_card(game)
    if card is None or not has_schweinchen(game, state.rules):
        raise IllegalMove(f"a {game.value.replace('_', ' ')} has no Schweinchen under these rules (docs/rules.md §2)")
    who = seat_name(state, seat)
    if state.schweinchen_seat is not None:
        raise IllegalMove(f"{seat_name(state, state.schweinchen_seat)} already called the Schweinchen")
    if state.rules.schweinchen_shown == "before_play" and state.cards_played:
        raise IllegalMove(
            f"{who} calls the Schweinchen too late: they are called before the first card "
            "(option schweinchen_shown, docs/rules.md §2)"
        )
    if state.hands is not None:
        if state.hands[seat].count(card) != 2:
            raise IllegalMove(f"{who} does not hold both {card}: the Schweinchen are both of them (docs/rules.md §2)")
    elif card in state.cards_played:
        raise IllegalMove(f"{who} cannot hold both {card}: one is already played")
    return SchweinchenShown(seat)
