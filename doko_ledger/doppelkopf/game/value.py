"""Deciding a deal entered by its value only, as tables that count in their heads write it down
(docs/rules.md §7): the winners (or the losers), the simple value before bock, a solo mark."""

from __future__ import annotations

from doko_ledger.doppelkopf.events import DealValued, DoppelkopfEvent
from doko_ledger.doppelkopf.game.commands import EnterValue, IllegalMove, seat_name
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.rules.play import SEATS
from doko_ledger.doppelkopf.rules.value import MOST_VALUE, ValueDeal
from doko_ledger.i18n import Message, msg

PLAYERS = "players"


class ValueRefused(IllegalMove):
    """A value entry refused; `field` says which part of it: `players` (the winners or the
    losers), `value` or `solo`."""

    def __init__(self, message: str | Message, field: str) -> None:
        super().__init__(message)
        self.field = field


def enter_value(state: GameState, command: EnterValue) -> list[DoppelkopfEvent]:
    """The value event, or `IllegalMove` naming what does not fit."""
    if not state.started:
        raise IllegalMove(msg("the game has not started"))
    if state.over or state.dealt is not None or state.declared or state.cards_played:
        raise IllegalMove(
            msg("a deal entered by its value has no other record: no hands, reservations, cards or summary")
        )
    winners = _winners(state, command)
    value = command.value
    if not 0 <= value <= MOST_VALUE:
        raise ValueRefused(
            msg(
                "a deal's value is a whole number from 0 to {most} before bock, not {value}",
                most=MOST_VALUE,
                value=value,
            ),
            "value",
        )
    deal = ValueDeal(winners, value, command.solo)
    if command.solo and deal.lone is None:
        raise ValueRefused(
            msg("the solo mark needs a player alone: one winner or one loser, not two against two (docs/rules.md §7)"),
            "solo",
        )
    lone = deal.lone
    if command.solo and lone is not None and state.rules.is_computer(lone):
        raise ValueRefused(
            msg(
                "{who} is a computer seat: computers never play a solo (duel rules, docs/rules.md §8)",
                who=seat_name(state, lone),
            ),
            "solo",
        )
    return [DealValued(winners, value, command.solo)]


def _winners(state: GameState, command: EnterValue) -> tuple[int, ...]:
    """The winners' seats, from the winners or the losers as given."""
    given = (*command.winners, *command.losers)
    for seat in given:
        if not 0 <= seat < SEATS:
            raise ValueRefused(msg("there is no seat {seat}: seats are 0-3", seat=seat), PLAYERS)
    for seats, among_winners in ((command.winners, True), (command.losers, False)):
        twice = [s for s in set(seats) if seats.count(s) > 1]
        if twice and among_winners:
            raise ValueRefused(msg("{who} is named twice among the winners", who=seat_name(state, twice[0])), PLAYERS)
        if twice:
            raise ValueRefused(msg("{who} is named twice among the losers", who=seat_name(state, twice[0])), PLAYERS)
    both = sorted(set(command.winners) & set(command.losers))
    if both:
        raise ValueRefused(msg("{who} cannot both win and lose", who=seat_name(state, both[0])), PLAYERS)
    if not given:
        raise ValueRefused(msg("name the winners or the losers of the deal"), PLAYERS)
    if command.winners and command.losers and len(given) != SEATS:
        missing = ", ".join(seat_name(state, s) for s in range(SEATS) if s not in given)
        raise ValueRefused(
            msg(
                "the winners and the losers given do not make up the table ({missing} neither):"
                " name the winners or the losers, or all four",
                missing=missing,
            ),
            PLAYERS,
        )
    winners = tuple(sorted(command.winners or (s for s in range(SEATS) if s not in command.losers)))
    if not winners:
        raise ValueRefused(msg("all four lost: a deal has one to three winners (docs/rules.md §7)"), PLAYERS)
    if len(winners) == SEATS:
        raise ValueRefused(msg("all four won: a deal has one to three winners (docs/rules.md §7)"), PLAYERS)
    return winners
