"""What a recorder can ask of a Dou Dizhu deal. `decide` turns a command into events."""

from __future__ import annotations

from dataclasses import dataclass

from doko_ledger.doudizhu.cards import Hand
from doko_ledger.doudizhu.combinations import Combination


@dataclass(frozen=True, slots=True)
class Deal:
    """Start a deal: players in counter-clockwise order (3 or 4), the dealer's and the opener's
    seats, and the hands and kitty where known (the kitty is derived when only hands are given)."""

    game_id: str
    players: tuple[str, ...]
    dealer: int
    opener: int
    hands: tuple[Hand, ...] | None = None
    kitty: Hand | None = None
    played_on: str | None = None
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Bid:
    """Bid 1, 2 or 3 for the landlord."""

    seat: int
    bid: int


@dataclass(frozen=True, slots=True)
class PassBid:
    """Pass in the bidding."""

    seat: int


@dataclass(frozen=True, slots=True)
class TakeKitty:
    """The landlord takes the kitty; `cards` where a table records them and the deal did not."""

    cards: Hand | None = None


@dataclass(frozen=True, slots=True)
class Play:
    """Play cards; `declared` says which combination they are, needed only when the cards read
    more than one way."""

    seat: int
    cards: Hand
    declared: Combination | None = None


@dataclass(frozen=True, slots=True)
class PassTurn:
    """Pass instead of beating the combination on the table."""

    seat: int


@dataclass(frozen=True, slots=True)
class Summarize:
    """Record the deal by its facts instead of its bidding and play: the landlord's seat, the
    bid, the bombs and rockets played (`big_bombs`: of the bombs, those of six or more cards),
    and the seat that went out first."""

    landlord: int
    bid: int
    out_first: int
    bombs: int = 0
    rockets: int = 0
    big_bombs: int = 0


Command = Deal | Bid | PassBid | TakeKitty | Play | PassTurn | Summarize
