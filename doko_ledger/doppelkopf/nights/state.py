"""The state of a card night, folded from its session stream: a timeline of deals and of the
changes between them (players joining and leaving, rules changed, bock declared by hand)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from functools import reduce
from typing import Any

from doko_ledger.doppelkopf.nights.events import (
    BockDeclared,
    ChangeTakenBack,
    DealAdded,
    DealCorrected,
    DealVoided,
    NightChangeEvent,
    PlayerJoined,
    PlayerLeft,
    RulesChanged,
    SessionClosed,
    SessionStarted,
)
from doko_ledger.doppelkopf.nights.seating import Seating
from doko_ledger.doppelkopf.rules.ruleset import RuleSet
from doko_ledger.frozen import frozen


@frozen
class Change:
    """A change of the night in force: its stream `version` (what `ChangeTakenBack` names),
    its event, and for a bock declared with a deal, that deal's game id now (a correction's
    game once the deal is corrected)."""

    version: int
    event: NightChangeEvent
    game_id: str | None = None


Entry = str | Change
"""A step of the night's timeline: a deal (its game id) or a change."""


@frozen
class NightState:
    """The night's start (players in seat order, first dealer, rules), its timeline of deals
    and changes in force, and what follows from it now: the seating and the rules in force
    for the next deal, and every player who ever sat (`everyone`)."""

    session_id: str = ""
    starting: tuple[str, ...] = ()
    first_dealer: int = 0
    first_rules: RuleSet = RuleSet()
    rules_name: str | None = None
    match_length: int = 8
    played_on: str | None = None
    rate: str | None = None
    started: bool = False
    closed: bool = False
    deals: tuple[str, ...] = ()
    voided: tuple[str, ...] = ()
    replaced: tuple[str, ...] = ()
    timeline: tuple[Entry, ...] = ()
    taken_back: tuple[Change, ...] = ()
    seating: Seating = Seating(())
    rules: RuleSet = RuleSet()
    """The rules in force for the next deal."""
    version: int = 0
    """The number of events folded: the session stream's version."""

    @property
    def players(self) -> tuple[str, ...]:
        """The players at the table for the next deal, in seat order."""
        return self.seating.present

    @property
    def everyone(self) -> tuple[str, ...]:
        """Every player who ever sat at the table this night, in seat order."""
        return self.seating.ring

    @property
    def table_size(self) -> int:
        return len(self.players)

    @property
    def changes(self) -> tuple[Change, ...]:
        """The changes in force, in the order they were made."""
        return tuple(e for e in self.timeline if isinstance(e, Change))

    @property
    def last_entry(self) -> Entry | None:
        """The newest deal or change in force (what undo takes back)."""
        return self.timeline[-1] if self.timeline else None


def seating_after(start: Seating, changes: Iterable[Change]) -> Seating:
    """The seating after the joins and leaves among `changes`, in order."""
    seating = start
    for change in changes:
        seating = moved(seating, change.event)
    return seating


def moved(seating: Seating, event: Any) -> Seating:
    """The seating after one event (unchanged by anything but a join or a leave)."""
    if isinstance(event, PlayerJoined):
        return seating.join(event.player, event.after)
    if isinstance(event, PlayerLeft):
        return seating.leave(event.player)
    return seating


def rules_after(first: RuleSet, changes: Iterable[Change]) -> RuleSet:
    """The rules after the rule changes among `changes`."""
    rules = first
    for change in changes:
        if isinstance(change.event, RulesChanged):
            rules = change.event.rules
    return rules


def evolve(state: NightState, event: Any) -> NightState:
    """The session after one event (total; never validates)."""
    version = state.version + 1
    match event:
        case SessionStarted():
            return NightState(
                session_id=event.session_id,
                starting=event.players,
                first_dealer=event.first_dealer,
                first_rules=event.rules,
                rules_name=event.rules_name,
                match_length=event.match_length,
                played_on=event.played_on,
                rate=event.rate,
                started=True,
                seating=Seating.of(event.players),
                rules=event.rules,
                version=version,
            )
        case DealAdded(game_id=game_id):
            return replace(state, deals=(*state.deals, game_id), timeline=(*state.timeline, game_id), version=version)
        case DealVoided(game_id=game_id):
            kept = tuple(
                e for e in state.timeline if e != game_id and not (isinstance(e, Change) and e.game_id == game_id)
            )
            return _rederived(
                replace(
                    state,
                    deals=tuple(g for g in state.deals if g != game_id),
                    voided=(*state.voided, game_id),
                    timeline=kept,
                    version=version,
                )
            )
        case DealCorrected(game_id=old, new_game_id=new):
            timeline = tuple(_corrected(e, old, new) for e in state.timeline)
            deals = tuple(new if g == old else g for g in state.deals)
            return replace(state, deals=deals, replaced=(*state.replaced, old), timeline=timeline, version=version)
        case PlayerJoined() | PlayerLeft() | RulesChanged() | BockDeclared():
            bound = event.game_id if isinstance(event, BockDeclared) else None
            change = Change(version, event, bound)
            rules = event.rules if isinstance(event, RulesChanged) else state.rules
            return replace(
                state,
                timeline=(*state.timeline, change),
                seating=moved(state.seating, event),
                rules=rules,
                version=version,
            )
        case ChangeTakenBack(change=taken):
            gone = tuple(e for e in state.timeline if isinstance(e, Change) and e.version == taken)
            kept = tuple(e for e in state.timeline if not (isinstance(e, Change) and e.version == taken))
            return _rederived(replace(state, timeline=kept, taken_back=(*state.taken_back, *gone), version=version))
        case SessionClosed():
            return replace(state, closed=True, version=version)
    return replace(state, version=version)


def _corrected(entry: Entry, old: str, new: str) -> Entry:
    if entry == old:
        return new
    if isinstance(entry, Change) and entry.game_id == old:
        return replace(entry, game_id=new)
    return entry


def _rederived(state: NightState) -> NightState:
    """The seating and rules in force, derived again from the changes still in force."""
    changes = state.changes
    return replace(
        state,
        seating=seating_after(Seating.of(state.starting), changes),
        rules=rules_after(state.first_rules, changes),
    )


def fold(events: Iterable[Any]) -> NightState:
    return reduce(evolve, events, NightState())
