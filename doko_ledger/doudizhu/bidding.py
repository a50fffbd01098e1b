"""The bidding for the landlord (docs/rules.md §D2), as a value folded from the calls.

Seats are numbered in counter-clockwise order, so the next player is seat + 1 (mod n).
A call is a bid of 1, 2 or 3, or a pass (recorded here as bid 0).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from doko_ledger.doudizhu.errors import IllegalBid
from doko_ledger.i18n import Message, msg

BIDS = (1, 2, 3)
PASS = 0


@dataclass(frozen=True, slots=True)
class Bidding:
    """The bidding so far: the number of seats, who opens it, and the calls `(seat, bid)` in order
    (bid 0: a pass). Every property is total: it never raises, whatever the calls."""

    seats: int
    opener: int
    calls: tuple[tuple[int, int], ...] = ()

    def after(self, seat: int, bid: int) -> Bidding:
        """The bidding with one more call (not checked: see `check_call`)."""
        return Bidding(self.seats, self.opener, self.calls + ((seat, bid),))

    @property
    def highest(self) -> int:
        """The highest bid so far, 0 before any bid."""
        return max((bid for _, bid in self.calls), default=PASS)

    @property
    def high_bidder(self) -> int | None:
        """The seat that made the highest bid, None before any bid."""
        high = self.highest
        return next((seat for seat, bid in reversed(self.calls) if bid == high), None) if high else None

    @property
    def finished(self) -> bool:
        """True once a landlord is decided: a 3 was bid, or after a bid n-1 players in a row passed."""
        if self.highest >= BIDS[-1]:
            return True
        tail = self.calls[-(self.seats - 1) :] if self.seats > 1 else ()
        return self.highest > PASS and len(tail) == self.seats - 1 and all(bid == PASS for _, bid in tail)

    @property
    def abandoned(self) -> bool:
        """True when all players passed without a bid: the cards are redealt."""
        return self.highest == PASS and len(self.calls) >= self.seats

    @property
    def over(self) -> bool:
        return self.finished or self.abandoned

    @property
    def landlord(self) -> int | None:
        """The highest bidder once the bidding is finished."""
        return self.high_bidder if self.finished else None

    @property
    def to_bid(self) -> int | None:
        """The seat whose turn it is to bid, None once the bidding is over."""
        if self.over or self.seats < 1:
            return None
        return (self.opener + len(self.calls)) % self.seats


def check_call(bidding: Bidding, seat: int, bid: int, names: Sequence[str]) -> None:
    """Raise `IllegalBid` unless `seat` may make this call now (`bid` 0: a pass).

    The message names the players by `names` (one per seat).
    """

    def name(s: int) -> str | Message:
        return names[s] if 0 <= s < len(names) else msg("seat {seat}", seat=s)

    who = name(seat)
    if bidding.finished:
        landlord = bidding.landlord
        assert landlord is not None
        raise IllegalBid(
            msg("the bidding is over: {who} is the landlord at {bid}", who=name(landlord), bid=bidding.highest), seat
        )
    if bidding.abandoned:
        raise IllegalBid(msg("the bidding is over: everyone passed and the deal is abandoned"), seat)
    if not 0 <= seat < bidding.seats:
        raise IllegalBid(msg("there is no seat {seat} at a table of {count}", seat=seat, count=bidding.seats), seat)
    turn = bidding.to_bid
    if seat != turn:
        assert turn is not None
        raise IllegalBid(msg("not {who}'s turn to bid: {turn}'s", who=who, turn=name(turn)), seat)
    if bid == PASS:
        return
    if bid not in BIDS:
        raise IllegalBid(msg("{who} bid {bid}: a bid must be 1, 2 or 3", who=who, bid=bid), seat)
    if bid <= bidding.highest:
        raise IllegalBid(
            msg(
                "{who} bid {bid} but the bid is already {highest}: a bid must be higher",
                who=who,
                bid=bid,
                highest=bidding.highest,
            ),
            seat,
        )
