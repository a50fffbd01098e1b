"""A card night as its page shows it: everything `doko serve`'s night page and deal form need,
from one read of the night (`CardNights.page`), so the front end only renders it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.nights.place import DealPlace
from doko_ledger.doppelkopf.nights.standings import Payment, Standings
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.frozen import frozen


@frozen
class DealInPlay:
    """A deal being played card by card: its number, who is to play (None while the
    reservations are made), and the trick being played (1 to 12)."""

    number: int
    game_id: str
    to_play: str | None
    trick: int

    @classmethod
    def of(cls, number: int, game: GameState) -> DealInPlay:
        """Deal `number` of a night, its game being played as `game`."""
        seat = game.to_play
        return cls(number, game.game_id, None if seat is None else game.players[seat], len(game.tricks) + 1)


def default_game_type(types: Sequence[GameType]) -> GameType:
    """The game type a deal form or prompt offers first: a normal game where the deal may be
    one, else the first it may be (a forced solo)."""
    return GameType.NORMAL if GameType.NORMAL in types or not types else types[0]


@frozen
class NightPage:
    """A card night for its page: the standings (rows, totals, next deal, bock causes), where
    each game it names stands, the deal being played, what the next deal may be, and the
    settling up."""

    standings: Standings
    version: int
    """The night's stream version: a form made from the page carries it."""
    position: int
    """The ledger's newest position: a deal played card by card changes only its game's stream."""
    match_length: int
    places: Mapping[str, DealPlace]
    """Each game the night names (deals in force, taken back, replaced), by game id."""
    replaced: Mapping[str, str]
    """Each deal replaced by a correction, and the game that replaced it, in the order corrected."""
    voided: tuple[str, ...]
    """The deals taken back, in the order taken back."""
    in_play: DealInPlay | None
    game_types: tuple[GameType, ...]
    """What the next deal may be: the rules' game types, and only solos while a forced solo is due."""
    correction_game_types: tuple[GameType, ...]
    """What a deal corrected may be: the rules' game types."""
    deal_players: Mapping[str, tuple[str, ...]]
    """The four who played each game the night names."""
    payments: tuple[Payment, ...]

    @property
    def session_id(self) -> str:
        return self.standings.session_id

    @property
    def sitting_out(self) -> tuple[str, ...]:
        """Who sits the next deal out."""
        return self.standings.next.sitting_out

    @property
    def default_game_type(self) -> GameType:
        """The game type the next deal's form starts with."""
        return default_game_type(self.game_types)
