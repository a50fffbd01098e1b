"""The events of a Dou Dizhu deal, named in the past tense. Payload fields only.

Cards are stored as their rank text (`7`, `10`, `BJ`); each type has a JSON Schema in
`schemas/events/<Name>.v1.json`. Importing this module registers the types with the codec.
"""

from __future__ import annotations

from enum import Enum

from doko_ledger.doudizhu.cards import Hand, Rank, parse_card
from doko_ledger.doudizhu.combinations import Combination, Kind
from doko_ledger.events.codec import Event, event, register_value

register_value(Rank, str, parse_card)


class AbandonReason(Enum):
    NOBODY_BID = "nobody_bid"


@event(version=1)
class DouDizhuDealt(Event):
    """A deal began: the players in counter-clockwise order (3 or 4), the dealer's seat, the
    opener's seat (who drew the face-up card and bids first), the hands as dealt and the kitty
    where recorded, when it was played, and a note."""

    game_id: str
    players: tuple[str, ...]
    dealer: int
    opener: int
    hands: tuple[Hand, ...] | None = None
    kitty: Hand | None = None
    played_on: str | None = None
    note: str | None = None


@event(version=1)
class BidMade(Event):
    """A player bid 1, 2 or 3 for the landlord."""

    seat: int
    bid: int


@event(version=1)
class BidPassed(Event):
    """A player passed in the bidding."""

    seat: int


@event(version=1)
class KittyTaken(Event):
    """The landlord took the kitty; `cards` is None where they were not recorded."""

    seat: int
    cards: Hand | None = None


@event(version=1)
class CombinationPlayed(Event):
    """A player played cards as the declared combination (kind, main rank, size)."""

    seat: int
    cards: Hand
    kind: Kind
    rank: Rank
    size: int

    @property
    def combination(self) -> Combination:
        return Combination(self.kind, self.rank, self.size)


@event(version=1)
class TurnPassed(Event):
    """A player passed instead of beating the combination on the table."""

    seat: int


@event(version=1)
class DouDizhuAbandoned(Event):
    """The deal was thrown in and the cards are redealt: nobody bid."""

    reason: AbandonReason


@event(version=1)
class DouDizhuSummarized(Event):
    """The deal written down by its facts, as a score sheet holds them, instead of its bidding
    and play: the landlord's seat, the bid, how many bombs and rockets were played (`big_bombs`:
    how many of the bombs had six or more cards, in the four-player game), and who went out first."""

    landlord: int
    bid: int
    out_first: int
    bombs: int = 0
    rockets: int = 0
    big_bombs: int = 0


DouDizhuEvent = (
    DouDizhuDealt
    | BidMade
    | BidPassed
    | KittyTaken
    | CombinationPlayed
    | TurnPassed
    | DouDizhuAbandoned
    | DouDizhuSummarized
)


@event(version=1)
class DouDizhuSessionStarted(Event):
    """A Dou Dizhu session began (stream `doudizhu-session/<id>`): its players and the day.
    Its deals follow as `DealAdded` events naming their games; `SessionClosed` ends it."""

    session_id: str
    players: tuple[str, ...]
    played_on: str | None = None
