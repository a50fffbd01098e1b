"""Calling the Schweinchen, where the rules have them called rather than seen in the deal
(option `schweinchen_shown`), and showing the Hyperschweinchen (docs/rules.md §2)."""

from __future__ import annotations

from doko_ledger.doppelkopf.cards import Cards
from doko_ledger.doppelkopf.events import HyperschweinchenShown, SchweinchenShown
from doko_ledger.doppelkopf.game.commands import IllegalMove, seat_name
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.rules.order import (
    has_hyperschweinchen,
    has_schweinchen,
    hyperschweinchen_card,
    schweinchen_card,
)
from doko_ledger.doppelkopf.rules.play import SEATS
from doko_ledger.i18n import msg


def call_schweinchen(state: GameState, seat: int) -> SchweinchenShown:
    """The call of a player holding both aces of the trump suit, or `IllegalMove` saying why not:
    the game must be known and have Schweinchen, nobody has called them yet, and the caller
    holds both, before the first card (`before_play`) or any time while holding both
    (`while_held`)."""
    if not 0 <= seat < SEATS:
        raise IllegalMove(msg("there is no seat {seat}", seat=seat))
    game = state.game_type
    if game is None:
        raise IllegalMove(
            msg("the Schweinchen are called once the reservations have settled the game (docs/rules.md §2)")
        )
    card = schweinchen_card(game)
    if card is None or not has_schweinchen(game, state.rules):
        raise IllegalMove(msg("a {game} has no Schweinchen under these rules (docs/rules.md §2)", game=game))
    who = seat_name(state, seat)
    if state.schweinchen_seat is not None:
        raise IllegalMove(msg("{who} already called the Schweinchen", who=seat_name(state, state.schweinchen_seat)))
    if state.rules.schweinchen_shown == "before_play" and state.cards_played:
        raise IllegalMove(
            msg(
                "{who} calls the Schweinchen too late: they are called before the first card"
                " (option schweinchen_shown, docs/rules.md §2)",
                who=who,
            )
        )
    if state.hands is not None:
        if state.hands[seat].count(card) != 2:
            raise IllegalMove(
                msg(
                    "{who} does not hold both {card}: the Schweinchen are both of them (docs/rules.md §2)",
                    who=who,
                    card=Cards([card]),
                )
            )
    elif card in state.cards_played:
        raise IllegalMove(msg("{who} cannot hold both {card}: one is already played", who=who, card=Cards([card])))
    return SchweinchenShown(seat)


def show_hyperschweinchen(state: GameState, seat: int) -> HyperschweinchenShown:
    """A player's Hyperschweinchen, or `IllegalMove` saying why not: the rules have them in this
    game, somebody's Schweinchen are known, the player is not their holder (unless
    `hyperschweinchen_joint`) and holds both of the trump suit's nines (kings without nines).
    They are shown as the Schweinchen are: called in time where those are called, and only where
    the hands were not recorded when the deal shows them."""
    rules = state.rules
    if not rules.hyperschweinchen:
        raise IllegalMove(msg("these rules have no Hyperschweinchen (option hyperschweinchen)"))
    if not 0 <= seat < SEATS:
        raise IllegalMove(msg("there is no seat {seat}", seat=seat))
    game = state.game_type
    card = None if game is None else hyperschweinchen_card(game, rules.with_nines)
    if game is None or card is None or not has_hyperschweinchen(game, rules):
        if game is None:
            raise IllegalMove(msg("the game has no Hyperschweinchen under these rules (docs/rules.md §2)"))
        raise IllegalMove(msg("a {game} has no Hyperschweinchen under these rules (docs/rules.md §2)", game=game))
    if rules.schweinchen_shown == "automatic" and state.hands is not None:
        raise IllegalMove(
            msg("the hands are recorded, so the Hyperschweinchen are known from the deal; leave the call out")
        )
    who = seat_name(state, seat)
    if state.hyperschweinchen_seat is not None:
        raise IllegalMove(
            msg("{who} already showed the Hyperschweinchen", who=seat_name(state, state.hyperschweinchen_seat))
        )
    if state.schweinchen_seat is None:
        raise IllegalMove(
            msg("Hyperschweinchen come only beside Schweinchen: nobody has shown those (docs/rules.md §2)")
        )
    if state.schweinchen_seat == seat and not rules.hyperschweinchen_joint:
        raise IllegalMove(
            msg("{who} has the Schweinchen: the Hyperschweinchen are another player's (docs/rules.md §2)", who=who)
        )
    if rules.schweinchen_shown == "before_play" and state.cards_played:
        raise IllegalMove(
            msg(
                "{who} shows the Hyperschweinchen too late: they are called before the first card"
                " (option schweinchen_shown, docs/rules.md §2)",
                who=who,
            )
        )
    if state.hands is not None:
        if state.hands[seat].count(card) != 2:
            raise IllegalMove(
                msg(
                    "{who} does not hold both {card}: the Hyperschweinchen are both of them",
                    who=who,
                    card=Cards([card]),
                )
            )
    elif card in state.cards_played:
        raise IllegalMove(msg("{who} cannot hold both {card}: one is already played", who=who, card=Cards([card])))
    return HyperschweinchenShown(seat)
