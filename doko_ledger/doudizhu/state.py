"""The state of one Dou Dizhu deal, as folded from its events (see `evolve`).

Every property is total: a state folded from any events, even an inconsistent log, answers
without raising.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from doko_ledger.doudizhu.bidding import Bidding
from doko_ledger.doudizhu.cards import Hand, Rank
from doko_ledger.doudizhu.combinations import Combination
from doko_ledger.doudizhu.events import DouDizhuSummarized
from doko_ledger.doudizhu.payment import Stake, counted_stake, payments, stake
from doko_ledger.i18n import Message, msg, render


class Phase(Enum):
    """Where the deal stands: not dealt yet, bidding, the landlord to take the kitty, play,
    over (a hand is empty), or abandoned (nobody bid)."""

    NEW = "new"
    BIDDING = "bidding"
    KITTY = "kitty"
    PLAY = "play"
    OVER = "over"
    ABANDONED = "abandoned"


class Side(Enum):
    """The landlord alone, or the other players as one team."""

    LANDLORD = "landlord"
    FARMERS = "farmers"

    @property
    def word(self) -> Message:
        """The side in the reader's language (Grundherr, Bauern; propriétaire, paysans)."""
        return msg("landlord") if self is Side.LANDLORD else msg("farmers")

    def localized(self, language: str) -> str:
        return render(self.word, language)


@dataclass(frozen=True, slots=True)
class Move:
    """A turn in play: `seat` played `cards` as `combination`, or passed (`combination` None)."""

    seat: int
    cards: Hand = ()
    combination: Combination | None = None

    @property
    def passed(self) -> bool:
        return self.combination is None


@dataclass(frozen=True, slots=True)
class Trick:
    """A round of play from a lead until all others passed in a row (or a hand emptied)."""

    leader: int
    moves: tuple[Move, ...] = ()

    @property
    def last_play(self) -> Move | None:
        """The latest move that was not a pass: the combination to beat."""
        return next((m for m in reversed(self.moves) if not m.passed), None)

    @property
    def winner(self) -> int:
        """Who played last (and leads next); the leader while nobody has played."""
        last = self.last_play
        return last.seat if last is not None else self.leader

    @property
    def passes(self) -> int:
        """Passes since the last play."""
        count = 0
        for move in reversed(self.moves):
            if not move.passed:
                break
            count += 1
        return count


@dataclass(frozen=True, slots=True)
class DealState:
    """Everything known about a deal after some of its events.

    `hands` (the current hands) is None where the deal was not recorded; `left` always counts
    each seat's cards. `tricks` are the completed tricks; the deal's last trick joins them when
    a hand empties. `calls` are the bidding calls `(seat, bid)`, bid 0 for a pass. `summary`
    holds the facts of a deal recorded by them alone (no bidding, no play).
    """

    game_id: str = ""
    players: tuple[str, ...] = ()
    dealer: int = 0
    opener: int = 0
    played_on: str | None = None
    note: str | None = None
    dealt: bool = False
    dealt_hands: tuple[Hand, ...] | None = None
    kitty: Hand | None = None
    hands: tuple[Hand, ...] | None = None
    left: tuple[int, ...] = ()
    calls: tuple[tuple[int, int], ...] = ()
    kitty_taken: bool = False
    abandoned: str | None = None
    tricks: tuple[Trick, ...] = ()
    current: Trick | None = None
    out_first: int | None = None
    summary: DouDizhuSummarized | None = None

    @property
    def seats(self) -> int:
        """The number of players (at least 1, so that turn arithmetic never fails)."""
        return max(len(self.players), 1)

    @property
    def bidding(self) -> Bidding:
        return Bidding(self.seats, self.opener, self.calls)

    @property
    def phase(self) -> Phase:
        if not self.dealt:
            return Phase.NEW
        if self.abandoned is not None or self.bidding.abandoned:
            return Phase.ABANDONED
        if self.out_first is not None:
            return Phase.OVER
        if not self.bidding.finished:
            return Phase.BIDDING
        return Phase.PLAY if self.kitty_taken else Phase.KITTY

    @property
    def landlord(self) -> int | None:
        if self.summary is not None:
            return self.summary.landlord
        return self.bidding.landlord

    @property
    def bid(self) -> int:
        """The highest bid so far (0: none); a summary's bid."""
        if self.summary is not None:
            return self.summary.bid
        return self.bidding.highest

    @property
    def leader(self) -> int | None:
        """Who leads the trick being played (or the next one); None before play."""
        if self.current is not None:
            return self.current.leader
        if self.tricks:
            return self.tricks[-1].winner
        return self.landlord if self.kitty_taken else None

    @property
    def to_play(self) -> int | None:
        """The seat whose turn it is to play or pass; None outside play."""
        if self.phase is not Phase.PLAY:
            return None
        if self.current is None or not self.current.moves:
            return self.leader
        return (self.current.moves[-1].seat + 1) % self.seats

    @property
    def to_bid(self) -> int | None:
        return self.bidding.to_bid if self.phase is Phase.BIDDING else None

    @property
    def to_beat(self) -> Move | None:
        """The play on the table that the next player must beat (None: the turn leads)."""
        return self.current.last_play if self.current is not None else None

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every move of play, passes included, in order."""
        done = tuple(m for t in self.tricks for m in t.moves)
        return done + (self.current.moves if self.current is not None else ())

    @property
    def plays(self) -> tuple[Move, ...]:
        """The combinations played, in order."""
        return tuple(m for m in self.moves if not m.passed)

    @property
    def cards_played(self) -> tuple[Rank, ...]:
        return tuple(c for m in self.plays for c in m.cards)

    @property
    def finished(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def winner_side(self) -> Side | None:
        """The side of the player who went out first, once the deal is over."""
        if self.out_first is None or self.landlord is None:
            return None
        return Side.LANDLORD if self.out_first == self.landlord else Side.FARMERS

    @property
    def stake(self) -> Stake:
        """The bid, doubled by the bombs and rockets played so far, or counted by a summary
        (docs/rules.md §D5)."""
        if len(self.players) not in (3, 4):
            return Stake(self.bid)
        summary = self.summary
        if summary is not None:
            return counted_stake(summary.bid, len(self.players), summary.bombs, summary.rockets, summary.big_bombs)
        return stake(self.bid, ((m.seat, m.combination) for m in self.plays if m.combination), len(self.players))

    @property
    def payments(self) -> tuple[int, ...] | None:
        """What each seat wins (+) or pays (-), once the deal is over; they sum to zero."""
        landlord, out = self.landlord, self.out_first
        if landlord is None or out is None or len(self.players) not in (3, 4):
            return None
        return payments(len(self.players), landlord, out, self.stake.amount)

    def name(self, seat: int) -> str:
        """The player's name at a seat, for messages."""
        return self.players[seat] if 0 <= seat < len(self.players) else f"seat {seat}"
