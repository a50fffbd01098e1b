"""The events of a card night (session): its own stream, `session/<id>`, that links its deals' games."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from doko_ledger.doppelkopf.rules.ruleset import RuleSet
from doko_ledger.events.codec import event_type
from doko_ledger.events.sessions import DealAdded, SessionClosed

__all__ = [
    "DealAdded",
    "DealCorrected",
    "DealVoided",
    "SessionClosed",
    "SessionEvent",
    "SessionStarted",
]


@event_type("SessionStarted", version=1)
@dataclass(frozen=True, slots=True)
class SessionStarted:
    """A card night began: 4 to 7 players in seat order, the first dealer, the rules of the
    night, deals per match, and an optional money rate per point (decimal text, e.g. "0.05")."""

    event_name: ClassVar[str]
    schema_version: ClassVar[int]
    session_id: str
    players: tuple[str, ...]
    first_dealer: int
    rules: RuleSet
    match_length: int = 8
    played_on: str | None = None
    rate: str | None = None


@event_type("DealVoided", version=1)
@dataclass(frozen=True, slots=True)
class DealVoided:
    """A deal taken back (undo): it no longer counts, and what it caused (bock) disappears."""

    event_name: ClassVar[str]
    schema_version: ClassVar[int]
    game_id: str
    reason: str = "undone"


@event_type("DealCorrected", version=1)
@dataclass(frozen=True, slots=True)
class DealCorrected:
    """A deal's record replaced by a corrected game, `new_game_id`, in the same place."""

    event_name: ClassVar[str]
    schema_version: ClassVar[int]
    game_id: str
    new_game_id: str
    reason: str = "corrected"


SessionEvent = SessionStarted | DealAdded | DealVoided | DealCorrected | SessionClosed
