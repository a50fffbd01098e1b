"""The events of a card night, in the night's own stream `session/<id>`, which links its deals'
games. The stored names (`SessionStarted`, `SessionClosed`) are the log's, kept as they are."""

from __future__ import annotations

from typing import Any

from doko_ledger.doppelkopf.rules.ruleset import RuleSet
from doko_ledger.events.codec import Event, event, upcaster
from doko_ledger.events.sessions import DealAdded, SessionClosed

__all__ = [
    "BockDeclared",
    "ChangeTakenBack",
    "DealAdded",
    "DealCorrected",
    "DealVoided",
    "NightChangeEvent",
    "NightEvent",
    "PlayerJoined",
    "PlayerLeft",
    "RulesChanged",
    "SessionClosed",
    "SessionStarted",
]


@event(version=2)
class SessionStarted(Event):
    """A card night began: 4 to 7 players in seat order, the first dealer, the rules of the
    night, deals per match, and an optional money rate per point (decimal text, e.g. "0.05").
    Version 2 added `rules_name`: the named house-rule set the rules came from, if any."""

    session_id: str
    players: tuple[str, ...]
    first_dealer: int
    rules: RuleSet
    match_length: int = 8
    played_on: str | None = None
    rate: str | None = None
    rules_name: str | None = None


@upcaster("SessionStarted", 1)
def _session_started_v1(payload: dict[str, Any]) -> dict[str, Any]:
    """Version 1 named no house-rule set."""
    return {**payload, "rules_name": None}


@event(version=1)
class PlayerJoined(Event):
    """A player takes a seat from the next deal on: after `after` in the seating (None: after
    the last seat, to the right of the first). A player who left may join again."""

    player: str
    after: str | None = None
    request_id: str | None = None


@event(version=1)
class PlayerLeft(Event):
    """A player leaves the table from the next deal on; their deals so far still count."""

    player: str
    request_id: str | None = None


@event(version=1)
class RulesChanged(Event):
    """The night's rules from the next deal on; earlier deals keep the rules they were played
    under. `name`: the named house-rule set they came from, if any."""

    rules: RuleSet
    name: str | None = None
    request_id: str | None = None


@event(version=1)
class BockDeclared(Event):
    """Bock declared by hand (the bock button): `rounds` rounds, by whom and why, queued as a
    trigger's would be. `game_id`: the deal it came with (it goes when that deal is taken back,
    and follows a correction of it); None: after the deals recorded so far."""

    by: str
    reason: str
    rounds: int = 1
    game_id: str | None = None
    request_id: str | None = None


@event(version=1)
class ChangeTakenBack(Event):
    """A change of the night taken back (undo): `change` is the night's stream version of the
    join, leave, rule change or declared bock that no longer counts."""

    change: int
    reason: str = "undone"
    request_id: str | None = None


@event(version=2)
class DealVoided(Event):
    """A deal taken back (undo): it no longer counts, and what it caused (bock) disappears.
    Version 2 added `request_id`, as `DealAdded` version 2 did: the same undo sent again
    finds this one instead of taking back another deal."""

    game_id: str
    reason: str = "undone"
    request_id: str | None = None


@upcaster("DealVoided", 1)
def _deal_voided_v1(payload: dict[str, Any]) -> dict[str, Any]:
    """Version 1 had no request id."""
    return {**payload, "request_id": None}


@event(version=2)
class DealCorrected(Event):
    """A deal's record replaced by a corrected game, `new_game_id`, in the same place.
    Version 2 added `request_id`: the same correction sent again finds this one."""

    game_id: str
    new_game_id: str
    reason: str = "corrected"
    request_id: str | None = None


@upcaster("DealCorrected", 1)
def _deal_corrected_v1(payload: dict[str, Any]) -> dict[str, Any]:
    """Version 1 had no request id."""
    return {**payload, "request_id": None}


NightChangeEvent = PlayerJoined | PlayerLeft | RulesChanged | BockDeclared
"""What changes a night between two deals, in force from the next deal (undone by `ChangeTakenBack`)."""

NightEvent = (
    SessionStarted
    | DealAdded
    | DealVoided
    | DealCorrected
    | SessionClosed
    | PlayerJoined
    | PlayerLeft
    | RulesChanged
    | BockDeclared
    | ChangeTakenBack
)
