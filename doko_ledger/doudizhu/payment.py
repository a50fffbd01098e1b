"""The stake and the payments of a deal (docs/rules.md §D5)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from doko_ledger.doudizhu.cards import check_players
from doko_ledger.doudizhu.combinations import Combination, Kind


@dataclass(frozen=True, slots=True)
class Doubling:
    """A move that doubled the stake: the `move`-th combination played in the deal (from 1),
    who played it, and what it was."""

    move: int
    seat: int
    combination: Combination


@dataclass(frozen=True, slots=True)
class Stake:
    """The bid and the moves that doubled it; `amount` is bid * 2 ** len(doublings)."""

    bid: int
    doublings: tuple[Doubling, ...] = ()

    @property
    def amount(self) -> int:
        return self.bid << len(self.doublings)


def doubles(combination: Combination, players: int) -> bool:
    """Whether playing `combination` doubles the stake: three players, every bomb and the rocket;
    four players, the rocket and bombs of six or more cards."""
    if combination.kind is Kind.ROCKET:
        return True
    if combination.kind is not Kind.BOMB:
        return False
    return check_players(players) == 3 or combination.size >= 6


def stake(bid: int, plays: Iterable[tuple[int, Combination]], players: int) -> Stake:
    """The stake after the combinations played, given as `(seat, combination)` in order."""
    doublings = tuple(
        Doubling(number, seat, combination)
        for number, (seat, combination) in enumerate(plays, start=1)
        if doubles(combination, players)
    )
    return Stake(bid, doublings)


def payments(players: int, landlord: int, out_first: int, amount: int) -> tuple[int, ...]:
    """What each seat wins (+) or pays (-): when the landlord goes out first each other player
    pays the landlord `amount`; otherwise the landlord pays each other player `amount`.

    The payments sum to zero. Raises `PlayerCountError` for a player count other than 3 or 4.
    """
    sign = 1 if out_first == landlord else -1
    others = check_players(players) - 1
    return tuple(sign * amount * others if seat == landlord else -sign * amount for seat in range(players))
