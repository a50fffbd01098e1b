"""Who may see what of a game while it is a card night's deal being played: no hand, no card
still to come and no party before it is public, except that a player of the deal may see it as
they saw it (their own hand and what the table knew); everything once the deal is over
(finished, thrown in, voided, recorded by its facts, taken back or corrected)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from doko_ledger.doppelkopf.nights.place import DealPlace
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.errors import DokoError

ALL = "all"
TOURNAMENT = "tournament"


class DealBeingPlayed(DokoError):
    """A look at a deal still being played that would show more than the viewer may know."""


@dataclass(frozen=True, slots=True)
class Sight:
    """What one viewer may see of one game. `playing` is the deal's place while it is a card
    night's deal being played (None once it is over, and for a game of no night); `viewer` is
    the viewer when they play in the game."""

    game_id: str
    players: tuple[str, ...]
    playing: DealPlace | None = None
    viewer: str | None = None

    @property
    def being_played(self) -> bool:
        return self.playing is not None

    def perspectives(self) -> tuple[str, ...]:
        """The perspectives the viewer may have, the default first: every one once the deal is
        over; while it is played, only the viewer's own (none for who does not play in it)."""
        if self.playing is None:
            return (ALL, TOURNAMENT, *self.players)
        return () if self.viewer is None else (self.viewer,)

    def perspective(self, asked: str | None = None) -> str:
        """The perspective to show for `asked` (None: the default); `DealBeingPlayed` for one the
        viewer may not have yet. A name that played no part is left to the frames to refuse."""
        allowed = self.perspectives()
        if self.playing is None:
            return asked or ALL
        if asked is None and allowed:
            return allowed[0]
        if asked is not None and asked in allowed:
            return asked
        raise self.refusal()

    def require_over(self) -> None:
        """Refuse (`DealBeingPlayed`) what only an ended deal has: its score, its audit."""
        if self.playing is not None:
            raise self.refusal()

    def refusal(self) -> DealBeingPlayed:
        assert self.playing is not None
        deal = f"deal {self.playing.number} of {self.playing.session_id} ({self.game_id})"
        if self.viewer is not None:
            return DealBeingPlayed(
                f"{deal} is being played: until it ends, {self.viewer} sees it only as {self.viewer} "
                f"saw it (their own hand); its score and whole replay open when it ends"
            )
        return DealBeingPlayed(f"{deal} is being played; its score and replay open when it ends")


def as_the_table_knows(game_type: GameType | None, declarer: str | None) -> tuple[GameType | None, str | None]:
    """The game type and declarer everyone at the table knows: a silent solo looks like a
    normal game with no declarer (docs/rules.md §4)."""
    if game_type is GameType.SILENT_SOLO:
        return GameType.NORMAL, None
    return game_type, declarer


SECRET_COLUMNS = ("re_players", "lone", "re_points")
"""A game list row's columns that tell the parties: empty while the deal is being played."""


def public_row(row: dict[str, Any], playing: DealPlace | None) -> dict[str, Any]:
    """A game list row as anyone may see it: the row of an ended game as it is; a deal being
    played marked `being_played`, with no party and no secret solo (the cards played so far
    are public)."""
    if playing is None:
        return row
    kind = None if row.get("game_type") is None else GameType(row["game_type"])
    shown, declarer = as_the_table_knows(kind, row.get("declarer"))
    hidden = dict.fromkeys(SECRET_COLUMNS) | {"game_type": None if shown is None else shown.value}
    return row | hidden | {"declarer": declarer, "being_played": True}
