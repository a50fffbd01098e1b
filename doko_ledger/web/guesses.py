"""How many wrong join codes a server takes: counted per client address and for the whole table,
each failure past a few free ones makes the next try wait longer, and past a bound every failure
brings a pause. The clock is passed in (tests move it by hand).

With the bounds below one machine gets about 15 guesses in its first hour and 4 an hour after;
all machines together about 100 in the first hour and 4 an hour after: in a four-hour night
about 112 of the 32^6 (2^30) join codes, a chance of one in nine million of finding it.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Limits:
    """The wait after the `n`th failure in a row: none for the first `free`, then 1, 2, 4, ...
    seconds (at most `longest_delay`), and `pause` from the `pause_after`th on. A count that had
    no failure for `forget` seconds starts again."""

    free: int
    pause_after: int
    pause: float = 15 * 60
    longest_delay: float = 60
    forget: float = 60 * 60

    def wait(self, failures: int) -> float:
        if failures <= self.free:
            return 0.0
        if failures >= self.pause_after:
            return self.pause
        return min(2.0 ** (failures - self.free - 1), self.longest_delay)


CLIENT = Limits(free=5, pause_after=12)
TABLE = Limits(free=30, pause_after=100)
MAX_CLIENTS = 10_000
"""Clients remembered at once; past that, those whose count is forgotten are dropped."""


@dataclass(slots=True)
class Tally:
    """One client's (or the table's) wrong codes: how many in a row, the last one's time, and
    until when the next try waits."""

    failures: int = 0
    last: float = -math.inf
    until: float = -math.inf
    told: float = -math.inf
    """The `until` whose refusals were already logged (one line per wait)."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """What became of one code: `accepted`; else `waiting` (sent during a wait, not compared:
    `wait` is what is left of it, `first` whether it is the first so refused) or wrong (`wait`
    is the wait it brought, `failures` and `table` the counts in a row)."""

    accepted: bool
    waiting: bool = False
    wait: float = 0.0
    failures: int = 0
    table: int = 0
    first: bool = False


class JoinGuesses:
    """The wrong join codes this server has seen. Thread-safe (the routes run in a pool): a
    code is judged, counted and its wait set in one step, so that many sent at once are no
    more than as many sent one after another."""

    def __init__(self, clock: Callable[[], float], client: Limits = CLIENT, table: Limits = TABLE) -> None:
        self.clock, self.client_limits, self.table_limits = clock, client, table
        self.table = Tally()
        self.clients: dict[str, Tally] = {}
        self._lock = threading.Lock()

    def judge(self, client: str, right: bool) -> Verdict:
        """A code from `client` that is the `right` one or not: refused unread while the client
        or the table waits; else accepted (the client's count starts again, the table's does
        not), or counted as wrong."""
        now = self.clock()
        with self._lock:
            mine = self.clients.get(client)
            tally = mine if mine is not None and mine.until >= self.table.until else self.table
            if tally.until > now:
                first, tally.told = tally.told != tally.until, tally.until
                return Verdict(False, waiting=True, wait=tally.until - now, first=first)
            if right:
                self.clients.pop(client, None)
                return Verdict(True)
            if mine is None:
                if len(self.clients) >= MAX_CLIENTS:
                    self._forget_old(now)
                mine = self.clients[client] = Tally()
            _count(mine, self.client_limits, now)
            _count(self.table, self.table_limits, now)
            wait = max(mine.until, self.table.until) - now
            return Verdict(False, wait=wait, failures=mine.failures, table=self.table.failures)

    def _forget_old(self, now: float) -> None:
        for client, tally in list(self.clients.items()):
            if now - tally.last > self.client_limits.forget and tally.until <= now:
                del self.clients[client]


def _count(tally: Tally, limits: Limits, now: float) -> None:
    if now - tally.last > limits.forget:
        tally.failures = 0
    tally.failures += 1
    tally.last = now
    tally.until = now + limits.wait(tally.failures)
