"""The state of a card night, folded from its session stream."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import reduce
from typing import Any

from doko_ledger.doppelkopf.nights.events import DealAdded, DealCorrected, DealVoided, SessionClosed, SessionStarted
from doko_ledger.doppelkopf.rules.ruleset import RuleSet


@dataclass(frozen=True, slots=True)
class NightState:
    """Players in seat order, the first dealer, the rules, and the deals that count, in order."""

    session_id: str = ""
    players: tuple[str, ...] = ()
    first_dealer: int = 0
    rules: RuleSet = RuleSet()
    match_length: int = 8
    played_on: str | None = None
    rate: str | None = None
    started: bool = False
    closed: bool = False
    deals: tuple[str, ...] = ()
    voided: tuple[str, ...] = ()
    replaced: tuple[str, ...] = ()

    @property
    def table_size(self) -> int:
        return len(self.players)


def evolve(state: NightState, event: Any) -> NightState:
    """The session after one event (total; never validates)."""
    match event:
        case SessionStarted():
            return NightState(
                session_id=event.session_id,
                players=event.players,
                first_dealer=event.first_dealer,
                rules=event.rules,
                match_length=event.match_length,
                played_on=event.played_on,
                rate=event.rate,
                started=True,
            )
        case DealAdded(game_id=game_id):
            return replace(state, deals=(*state.deals, game_id))
        case DealVoided(game_id=game_id):
            deals = tuple(g for g in state.deals if g != game_id)
            return replace(state, deals=deals, voided=(*state.voided, game_id))
        case DealCorrected(game_id=old, new_game_id=new):
            deals = tuple(new if g == old else g for g in state.deals)
            return replace(state, deals=deals, replaced=(*state.replaced, old))
        case SessionClosed():
            return replace(state, closed=True)
    return state


def fold(events: Iterable[Any]) -> NightState:
    return reduce(evolve, events, NightState())
