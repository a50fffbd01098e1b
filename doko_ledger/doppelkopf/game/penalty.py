"""Deciding a penalty: who offended, how grave, and the denials that count (docs/rules.md §9)."""

from __future__ import annotations

from doko_ledger.doppelkopf.events import DoppelkopfEvent, PenaltyImposed
from doko_ledger.doppelkopf.game.commands import IllegalMove, ImposePenalty, seat_name
from doko_ledger.doppelkopf.game.parties import party_calls, soloist, true_parties
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.rules.announcements import Party
from doko_ledger.doppelkopf.rules.play import SEATS
from doko_ledger.i18n import msg


def counted_denials(state: GameState, offender: int) -> int:
    """The denials that a severe penalty counts: the soloist's own when an opponent offends in
    a solo, else those of the offender's other party, made by now."""
    lone = soloist(state)
    parties = true_parties(state)
    if lone is not None and offender != lone:
        party: Party | None = Party.RE
    else:
        own = parties[offender]
        party = None if own is None else own.other
    if party is None:
        return 0
    level = party_calls(state)[party].level
    if state.summary is not None:
        level = max(
            (
                c.announcement.level
                for c in state.summary.announcements
                if (c.seat in state.summary.re_seats) == (party is Party.RE)
            ),
            default=-1,
        )
    return max(level, 0)


def impose(state: GameState, command: ImposePenalty) -> list[DoppelkopfEvent]:
    if not state.started:
        raise IllegalMove(msg("the game has not started"))
    if not 0 <= command.seat < SEATS:
        raise IllegalMove(msg("there is no seat {seat}", seat=command.seat))
    who = seat_name(state, command.seat)
    if state.void:
        raise IllegalMove(msg("the game is already void by a severe penalty"))
    lone = soloist(state)
    if command.harms_soloist:
        if command.severe:
            raise IllegalMove(
                msg("'harms the soloist' is for a minor penalty; a severe one in a solo is scored by who offended")
            )
        if lone is None:
            raise IllegalMove(msg("'harms the soloist' needs a solo: this game has none"))
        if command.seat == lone:
            raise IllegalMove(msg("{who} is the soloist: an offence by the soloist cannot harm the soloist", who=who))
    denials = command.denials
    if denials is None:
        denials = counted_denials(state, command.seat) if command.severe else 0
    if not 0 <= denials <= 4:
        raise IllegalMove(msg("a party makes 0 to 4 denials (no 90 … schwarz), not {count}", count=denials))
    if denials and not command.severe:
        raise IllegalMove(msg("denials count only for a severe penalty"))
    return [PenaltyImposed(command.seat, command.severe, command.harms_soloist, denials, command.reason)]
