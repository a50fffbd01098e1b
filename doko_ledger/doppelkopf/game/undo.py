"""Undo as an event: `EventVoided` takes back a game's newest event still in force.

The log keeps both; the game is the fold of the events in force (`in_force`), so a
voided card is as if never played.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from doko_ledger.doppelkopf.events import (
    AnnouncementMade,
    CardPlayed,
    GameStarted,
    HyperschweinchenShown,
    PenaltyImposed,
    ReservationDeclared,
    ReservationNamed,
    SchweinchenShown,
)
from doko_ledger.doppelkopf.game.illegal import IllegalMove
from doko_ledger.doppelkopf.rules.play import SEATS
from doko_ledger.events.annotations import AnnotationAdded
from doko_ledger.events.voiding import EventVoided, in_force, versions_in_force
from doko_ledger.i18n import msg

__all__ = ["in_force", "taken_back", "versions_in_force", "void_last"]


def void_last(events: Sequence[Any]) -> EventVoided:
    """The event that takes back the newest event in force; the game's start cannot be, and
    notes are comments, not moves: undo passes them by."""
    kept = [v for v in versions_in_force(events) if not isinstance(events[v - 1], AnnotationAdded)]
    if not kept or isinstance(events[kept[-1] - 1], GameStarted):
        raise IllegalMove(msg("nothing to undo in this game"))
    return EventVoided(kept[-1])


def taken_back(events: Sequence[Any], voided: EventVoided) -> str:
    """What `voided` takes back, in the table's words: "Ben's CK in trick 4", "Anna's Re",
    "Dirk's reservation (club solo)", "the penalty on Clara"."""
    kept = versions_in_force(events)
    event = events[voided.version - 1]
    players = next((e.players for e in events if isinstance(e, GameStarted)), ())

    def name(seat: int | None) -> str:
        return players[seat] if seat is not None and 0 <= seat < len(players) else "the table"

    match event:
        case CardPlayed(seat=seat, card=card):
            before = sum(1 for v in kept if v < voided.version and isinstance(events[v - 1], CardPlayed))
            return f"{name(seat)}'s {card} in trick {before // SEATS + 1}"
        case AnnouncementMade(seat=seat, announcement=announcement):
            return f"{name(seat)}'s {announcement.label}"
        case ReservationDeclared(seat=seat, healthy=healthy):
            return f"{name(seat)}'s {'healthy' if healthy else 'reservation'}"
        case ReservationNamed(seat=seat, kind=kind, solo=solo):
            what = solo.value if solo is not None else kind.value
            return f"{name(seat)}'s reservation ({what.replace('_', ' ')})"
        case PenaltyImposed(seat=seat, severe=severe):
            return f"the {'severe' if severe else 'minor'} penalty on {name(seat)}"
        case SchweinchenShown(seat=seat):
            return f"{name(seat)}'s Schweinchen"
        case HyperschweinchenShown(seat=seat):
            return f"{name(seat)}'s Hyperschweinchen"
    words = "".join(f" {c.lower()}" if c.isupper() else c for c in type(event).__name__).strip()
    return f"the event {voided.version} ({words})"
