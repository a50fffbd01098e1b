"""The analyses the pages ask for, computed in the background: a page never waits for one.

One worker thread computes one game's analysis at a time (`DoppelkopfBook.analysis`, which keeps
it in the ledger), with its own connection to the ledger; at most `WAITING` games wait for it,
and a game asked for again while it waits or is computed is not asked twice. What a request
finds is a `Pending` (come back later), the analysis, or the refusal it ended in (a game without
its cards), which is remembered for the same version of the game as the analysis would be.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections import OrderedDict
from dataclasses import dataclass

from doko_ledger.doppelkopf.analysis.verdicts import DEFAULT_FROM_TRICK, GameAnalysis
from doko_ledger.errors import DokoError
from doko_ledger.games import DOPPELKOPF
from doko_ledger.i18n import msg
from doko_ledger.ledger import Ledger

FROM_TRICK = DEFAULT_FROM_TRICK
"""Where the analyses the pages ask for start: the library's default, so that a game's analysis
takes seconds, not minutes."""
WAITING = 8
"""Games that may wait for the worker; a page asking for one more is told to come back later."""
REMEMBERED = 64
"""Finished analyses (and refusals) remembered here, the most recent ones: an analysis that the
ledger could not keep (its lock held by another writer) is still answered."""
log = logging.getLogger("doko_ledger.web")


@dataclass(frozen=True, slots=True)
class Asked:
    """One analysis a page asked for: the game in a ledger as its stream stood (`version`), from
    trick `from_trick`."""

    db: str
    game_id: str
    version: int
    from_trick: int


@dataclass(frozen=True, slots=True)
class Pending:
    """An analysis not ready yet: `waiting` (for the worker, or for room to wait) or computed now."""

    computing: bool


class Analyses:
    """The background worker and what it has done."""

    def __init__(self, waiting: int = WAITING, remembered: int = REMEMBERED) -> None:
        self._lock = threading.Lock()
        self._queue: queue.Queue[Asked] = queue.Queue(maxsize=waiting)
        self._asked: set[Asked] = set()
        self._now: Asked | None = None
        self._done: OrderedDict[Asked, GameAnalysis | DokoError] = OrderedDict()
        self._remembered = remembered
        self._worker: threading.Thread | None = None

    def ask(self, asked: Asked) -> GameAnalysis | Pending:
        """The analysis if it is done (`DokoError` if it was refused), else `Pending`, having put
        it in line for the worker if there is room."""
        with self._lock:
            done = self._done.get(asked)
            if isinstance(done, DokoError):
                raise done
            if done is not None:
                return done
            if asked not in self._asked:
                try:
                    self._queue.put_nowait(asked)
                except queue.Full:
                    return Pending(computing=False)
                self._asked.add(asked)
                self._start()
            return Pending(computing=self._now == asked)

    def _start(self) -> None:
        if self._worker is None or not self._worker.is_alive():
            # a daemon: a server that stops does not wait for an analysis
            self._worker = threading.Thread(target=self._work, name="doko-analyses", daemon=True)
            self._worker.start()

    def _work(self) -> None:
        while True:
            asked = self._queue.get()
            with self._lock:
                self._now = asked
            try:
                found: GameAnalysis | DokoError = _analysed(asked)
            except DokoError as exc:
                found = exc
            except Exception:  # a fault of the analysis: logged, and the next game is analysed
                log.exception("the analysis of %s failed", asked.game_id)
                found = DokoError(msg("the analysis of {game} failed; see the server's log", game=asked.game_id))
            with self._lock:
                self._now = None
                self._asked.discard(asked)
                self._done[asked] = found
                while len(self._done) > self._remembered:
                    self._done.popitem(last=False)

    def forget(self) -> None:
        """Forget what was done (the tests' fresh start); what waits is still computed."""
        with self._lock:
            self._done.clear()


def _analysed(asked: Asked) -> GameAnalysis:
    with Ledger.open(asked.db) as ledger:
        return ledger.book_of(DOPPELKOPF).analysis(asked.game_id, asked.from_trick)


ANALYSES = Analyses()
"""The server's one worker (a process serves one ledger; `Asked.db` tells ledgers apart anyway)."""
