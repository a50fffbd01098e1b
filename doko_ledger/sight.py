"""What one viewer may see of one game now: every perspective once it is over; while it is a
session's deal being played, only the viewer's own view if they play in it (the games say when
a deal is being played: `Book.sight`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from doko_ledger.errors import DokoError
from doko_ledger.i18n import msg


class PlaceInNight(Protocol):
    """Where a deal being played stands: its session and its number there."""

    @property
    def session_id(self) -> str: ...

    @property
    def number(self) -> int: ...


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
    playing: PlaceInNight | None = None
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
        deal = msg(
            "deal {deal} of {night} ({game})",
            deal=self.playing.number,
            night=self.playing.session_id,
            game=self.game_id,
        )
        if self.viewer is not None:
            return DealBeingPlayed(
                msg(
                    "{deal} is being played: until it ends, {player} sees it only as {player} saw it (their own hand);"
                    " its score and whole replay open when it ends",
                    deal=deal,
                    player=self.viewer,
                )
            )
        return DealBeingPlayed(msg("{deal} is being played; its score and replay open when it ends", deal=deal))
