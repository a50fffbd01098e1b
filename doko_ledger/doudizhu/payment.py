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


BOMB = "bomb"
BIG_BOMB = "bomb of six or more cards"
ROCKET = "rocket"
"""A doubling counted on a score sheet, in words: which moves are not recorded, only how many."""


@dataclass(frozen=True, slots=True)
class Stake:
    """The bid and what doubled it: the moves of a played deal (`doublings`), or what a score
    sheet counted (`counted`, in words: `bomb`, `rocket`); `amount` is bid * 2 ** times."""

    bid: int
    doublings: tuple[Doubling, ...] = ()
    counted: tuple[str, ...] = ()

    @property
    def times(self) -> int:
        """How many times the bid was doubled."""
        return len(self.doublings) + len(self.counted)

    @property
    def amount(self) -> int:
        return self.bid << self.times


def doubles(combination: Combination, players: int) -> bool:
    """Whether playing `combination` doubles the stake: three players, every bomb and the rocket;
    four players, the rocket and bombs of six or more cards."""
    if combination.kind is Kind.ROCKET:
        return True
    if combination.kind is not Kind.BOMB:
        return False
    return bomb_doubles(combination.size, players)


def bomb_doubles(size: int, players: int) -> bool:
    """Whether a bomb of `size` cards doubles the stake: every bomb with three players; with four,
    a bomb of six or more cards."""
    return check_players(players) == 3 or size >= 6


def counted_stake(bid: int, players: int, bombs: int, rockets: int, big_bombs: int = 0) -> Stake:
    """The stake of a deal known by its counts, as a score sheet holds them: `bombs` played, of
    which `big_bombs` had six or more cards (the smallest bombs have four), and `rockets`. Each
    is judged by the same rule as a played one. `PlayerCountError` for other than 3 or 4 players."""
    big = max(min(big_bombs, bombs), 0)
    counted = (ROCKET,) * rockets
    counted += (BIG_BOMB,) * big if bomb_doubles(6, players) else ()
    counted += (BOMB,) * (bombs - big) if bomb_doubles(4, players) else ()
    return Stake(bid, counted=counted)


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
