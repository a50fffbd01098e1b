"""The ledger: the Python API behind the CLI and the web app. Imports, resolves and lists games,
verifies, copies, rebuilds; what can be done with one game is asked of its game's book
(`book`, `games.Book`)."""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from doko_ledger.errors import DokoError
from doko_ledger.events.voiding import in_force
from doko_ledger.games import DOPPELKOPF, GAMES, Book, Game, GameNotFound, game_starting_with, projection_names
from doko_ledger.i18n import Message, msg, plural
from doko_ledger.numbers import shortened
from doko_ledger.projections import runner
from doko_ledger.store.base import EventStore, Head, LedgerBusy, NewStreamEvents, VerifyReport
from doko_ledger.store.open import open_store
from doko_ledger.streams import GAME_PREFIX, game_stream

if TYPE_CHECKING:  # what only some commands need is imported where it is used: `doko` starts faster
    from doko_ledger.events.annotations import AnnotationAdded
    from doko_ledger.events.envelope import Recorded
    from doko_ledger.sight import Sight
    from doko_ledger.store.copy import Copied

B = TypeVar("B", bound=Book)

__all__ = ["DuplicateGame", "GameNotFound", "ImportReport", "Ledger", "game_number"]

IMPORT_BATCH = 200

_log = logging.getLogger("doko_ledger")


LAST = "last"
"""The game reference for the newest game."""


def game_number(ref: str) -> int | None:
    """The number a game reference gives: `#N` or `N` is N, `last` is -1; None for others."""
    if ref == LAST:
        return -1
    digits = ref[1:] if ref.startswith("#") else ref
    if digits.isascii() and digits.isdigit():
        return int(digits) if len(digits) <= 18 else 10**18  # past any ledger, without a huge int
    return None


class DuplicateGame(DokoError):
    """A game whose id is already in the ledger."""


@dataclass(slots=True)
class ImportReport:
    """What an import did: games and events appended, and the games refused."""

    games: int = 0
    events: int = 0
    refused: list[tuple[str, str]] = field(default_factory=list)
    """Each game refused by `import_games`: its source and why."""
    sessions: int = 0
    """Card nights and sessions imported (`import_files`)."""
    errors: list[str] = field(default_factory=list)
    """Each file `import_files` refused, in one line naming it, in the order the files were given."""
    remarks: dict[str, int] = field(default_factory=dict)
    """What the files read said about themselves (FreeDoko options left out), and in how many."""


class LoadedGameFile(Protocol):
    """A game read from its file, of any game: its record (with its id), its events, and what
    the import should tell about it."""

    @property
    def record(self) -> Any: ...

    @property
    def events(self) -> Sequence[Any]: ...

    @property
    def remarks(self) -> tuple[str, ...]:
        """What the import should tell about the file (a FreeDoko option left out)."""
        ...


Progress = Callable[[int, int], None]
"""Told how many of the game files of an import were read so far, and of how many."""


class Ledger:
    """A ledger file: the event store and the read models derived from it."""

    def __init__(self, store: EventStore | Callable[[], EventStore]) -> None:
        self._books: dict[Game[Any], Any] = {}
        self._store = store if isinstance(store, EventStore) else None
        self._open_store = None if isinstance(store, EventStore) else store
        self.behind: str | None = None
        """Why the read models were left behind the log after this ledger appended (None: they
        were not): they catch up on the next read (`refresh`)."""

    @property
    def store(self) -> EventStore:
        """The event store (opened here on first use by a ledger opened `when_needed`)."""
        if self._store is None:
            assert self._open_store is not None
            self._store = self._open_store()
        return self._store

    @cached_property
    def projections(self) -> list[runner.Projection]:
        """Every game's read models (`games.Game.projections`)."""
        return [projection for game in GAMES for projection in game.read_models()]

    def book_of(self, game: Game[B]) -> B:
        """The book of `game`: what the ledger can do with that game's games and sessions."""
        book: B | None = self._books.get(game)
        if book is None:
            book = self._books[game] = game.book(self.store, self)
        return book

    def game_of(self, game_id: str) -> Game[Any]:
        """Which game a recorded game is (by the first event of its stream)."""
        first = self.store.first_event_type(game_stream(game_id))
        game = game_starting_with(first)
        if game is None:
            raise GameNotFound(no_game(repr(game_id)))
        return game

    def book(self, game_id: str) -> Book:
        """The book of the game `game_id` is a game of."""
        book: Book = self.book_of(self.game_of(game_id))
        return book

    @classmethod
    def open(cls, path: str | Path, *, create: bool = False, when_needed: bool = False) -> Ledger:
        """The ledger at `path` (a file or a `postgresql://` URL), made there with `create`;
        `when_needed`: opened (and made) only when first used, so a command that finds nothing
        to write leaves no new ledger behind."""
        if when_needed:
            return cls(lambda: open_store(path, create=create))
        return cls(open_store(path, create=create))

    def close(self) -> None:
        if self._store is not None:
            self._store.close()

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, kind: object, exc: BaseException | None, tb: object) -> None:
        self.close()
        if self._store is None:
            return
        problem = self._store.failure(exc)  # an error of the storage (locked, damaged) as one line
        if problem is not None:
            raise problem from None

    # -- writing -------------------------------------------------------------

    def import_files(
        self, paths: Sequence[str | Path], *, by: str, at: str, progress: Progress | None = None
    ) -> ImportReport:
        """Import game and session files of either game (`formats.any_file`; a folder: the game
        files in it): each file is read, validated and replayed whole, then appended atomically;
        a card night or session as one append, the games in batches as they are read
        (`import_games`: a game already in the ledger, or twice among the files, is refused).
        A refused file is reported in `errors` and the others are imported; nothing is written (nor a ledger opened
        `when_needed` made) unless a file is valid. A failure of the ledger itself (locked,
        damaged) stops the import."""
        from doko_ledger.formats import any_file
        from doko_ledger.formats.yaml_source import SourceError
        from doko_ledger.store.errors import LedgerError

        report = ImportReport()
        paths = any_file.files_in(paths)
        failed: list[tuple[int, str]] = []  # by the file's place among `paths`, reported in that order
        place = {str(path): i for i, path in reversed(list(enumerate(paths)))}
        is_session = [any_file.is_session_file(path) for path in paths]
        session_paths = [path for path, session in zip(paths, is_session, strict=True) if session]
        game_paths = [path for path, session in zip(paths, is_session, strict=True) if not session]
        nights: list[tuple[str, Game[Any], Any]] = []
        for path in session_paths:
            try:
                game, night = any_file.read_game_file(path)
            except SourceError as exc:
                failed.append((place[str(path)], str(exc)))
            else:
                nights.append((str(path), game, night))

        def read_games() -> Iterator[tuple[str, LoadedGameFile]]:
            """Each game file read and checked in turn: appended in batches as they come, never
            all held at once."""
            for done, path in enumerate(game_paths, 1):
                try:
                    loaded = any_file.read_file(path)
                except SourceError as exc:
                    failed.append((place[str(path)], str(exc)))
                else:
                    for remark in loaded.remarks:
                        report.remarks[remark] = report.remarks.get(remark, 0) + 1
                    yield str(path), loaded
                if progress is not None:
                    progress(done, len(game_paths))

        valid = read_games()
        first = next(valid, None)  # the ledger is written only for a file that is valid
        if nights or first is not None:
            for source, game, night in nights:
                try:
                    self.book_of(game).import_session(night, by=by, at=at)
                    report.sessions += 1
                except LedgerError:  # the ledger's failure (locked, damaged), not the file's: the import stops
                    raise
                except DokoError as exc:
                    failed.append((place[source], f"{source}: {exc}"))
            if first is not None:
                games = self.import_games(itertools.chain([first], valid), recorded_by=by, recorded_at=at)
                failed += [(place[source], f"{source}: {message}") for source, message in games.refused]
                report.games, report.events = games.games, games.events
            self.refresh()
        report.errors = [message for _, message in sorted(failed, key=lambda f: f[0])]
        return report

    def import_games(
        self,
        games: Iterable[tuple[str, LoadedGameFile]],
        *,
        recorded_by: str,
        recorded_at: str,
        progress: Any = None,
    ) -> ImportReport:
        """Append already validated games, each atomically at stream version 0, in batches as
        `games` yields them (a stream of files is never held in memory at once).

        The read models catch up when next read (`refresh`), not here: an import only appends.
        A ledger whose log holds events this doko_ledger does not know is refused first
        (`EventStore.check_log_types`, one read of the log's types).

        A game whose id is in the ledger already (or twice in `games`) is refused
        and reported by its source; the others are appended in batches.
        """
        report = ImportReport()
        self.refuse_unknown_events()
        seen: dict[str, str] = {}
        batch: list[NewStreamEvents] = []
        for source, loaded in games:
            stream = game_stream(loaded.record.id)
            if stream in seen or self.store.stream_version(stream) > 0:
                where = seen.get(stream, "the ledger")
                report.refused.append((source, f"game {loaded.record.id!r} is already in {where}"))
                continue
            seen[stream] = source
            batch.append(NewStreamEvents(stream, 0, loaded.events))
            if len(batch) == IMPORT_BATCH:
                self._append(batch, report, recorded_by, recorded_at, progress)
                batch = []
        self._append(batch, report, recorded_by, recorded_at, progress)
        return report

    def refuse_unknown_events(self) -> None:
        """Refuse (exit 1) a ledger whose log holds events this doko_ledger does not know, even
        where its `event_types` row does not list them: what an import checks before it appends
        anything (one read of the log's types per ledger opened)."""
        self.store.check_log_types()

    def _append(self, batch: list[NewStreamEvents], report: ImportReport, by: str, at: str, progress: Any) -> None:
        if not batch:
            return
        self.store.append_streams(batch, recorded_by=by, recorded_at=at)
        report.games += len(batch)
        report.events += sum(len(b.events) for b in batch)
        if progress is not None:
            progress(len(batch))

    def annotate(
        self, game_id: str, trick: int | None, card: int | None, text: str, *, by: str, at: str
    ) -> AnnotationAdded:
        """Add a note to a game: on the game, a trick, or one card of a trick (as its game allows)."""
        return self.book(game_id).annotate(game_id, trick, card, text, by=by, at=at)

    PROJECTIONS = projection_names()
    """The names of `projections`: whether they are up to date is asked without loading them."""

    def refresh(self) -> None:
        """Bring every read model up to the end of the log (a read command on a ledger whose read
        models are up to date loads no projection).

        The catch-up writes in transactions of its own, after the events. Once this ledger has
        appended, what it appended stands whatever becomes of the catch-up: one that fails
        (another writer holding the lock past the busy timeout) leaves the read models behind,
        to catch up on the next read; `behind` says why, a warning of the `doko_ledger` logger
        says so, and the views of this ledger read the log instead (`place`)."""
        if self.behind is not None or runner.up_to_date(self.store, self.PROJECTIONS):
            return
        failures: tuple[type[Exception], ...] = (DokoError, *self.store.database_errors)
        try:
            runner.catch_up_many(self.store, self.projections)
        except failures as exc:
            if not self.store.appended:
                raise
            self.behind = _why_behind(self.store.failure(exc) or exc)
            _log.warning(
                "what was recorded stands; the read models are not up to date yet (%s): they catch up on the next read",
                self.behind,
            )

    def rebuild(self) -> int:
        """Drop and refold every read model in one read of the log; returns the number of game
        streams folded (each game's projection folds the streams that start with its game's
        first event). Refused before anything is dropped when the log holds events this
        doko_ledger does not know. The analyses kept beside them are dropped (`doppelkopf.analyses`):
        they are computed again when asked."""
        self.store.check_log_types(rebuild=True)
        try:
            self.book_of(DOPPELKOPF).forget_analyses()
            return runner.rebuild_many(self.store, self.projections)
        except LedgerBusy:  # perhaps after the read models were emptied: never "nothing was written"
            outcome = msg("the log is unchanged, and the read models catch up on the next read or rebuild")
            raise LedgerBusy(self.store.where, self.store.busy_timeout_ms, outcome) from None

    def copy_to(self, target: str | Path) -> Copied:
        """Copy the whole log, event by event, into a new ledger at `target` (a file or a
        `postgresql://` URL; refused where a ledger holds events already), and build its read
        models there: the copy has the same head (`events.copy`)."""
        from doko_ledger.store.copy import copy_ledger

        with Ledger.open(target, create=True) as copy:
            copied = copy_ledger(self.store, copy.store)
            copy.refresh()
        return copied

    # -- reading -------------------------------------------------------------

    def game_ids(self) -> list[str]:
        return [s[len(GAME_PREFIX) :] for s in self.store.streams(GAME_PREFIX)]

    def resolve(self, ref: str) -> str:
        """The game id that `ref` names: an exact id, a unique prefix, or a number from `doko
        games` (`#N`, or `N`, since `#` starts a shell comment; `last` the newest game).

        Each is an index look-up (the log's for ids and prefixes, the read models' for numbers),
        however many games the ledger holds. A bare `N` is the number when there is a game #N,
        and a prefix of an id otherwise.
        """
        if self.store.stream_version(game_stream(ref)) > 0:  # an exact id: one index look-up
            return ref
        from doko_ledger.projections import game_list

        number = game_number(ref)
        if number is not None:
            self.refresh()
            numbered = game_list.numbered(self.store.db, number)
            if numbered is not None:
                return numbered
            if ref.startswith("#") or ref == LAST:
                raise GameNotFound(_not_held(ref, game_list.count(self.store.db)))
        matches = [s[len(GAME_PREFIX) :] for s in self.store.stream_names(game_stream(ref), 6)]
        if len(matches) == 1:
            return matches[0]
        if matches:
            games = ", ".join(matches[:5])
            if len(matches) > 5:
                raise GameNotFound(
                    msg("{ref} matches more than 5 games: {games}", ref=repr(shortened(ref, 40)), games=games)
                )
            raise GameNotFound(
                msg(
                    "{ref} matches {count} games: {games}",
                    ref=repr(shortened(ref, 40)),
                    count=len(matches),
                    games=games,
                )
            )
        if number is not None:
            raise GameNotFound(_not_held(ref, game_list.count(self.store.db)))
        raise GameNotFound(no_game(repr(shortened(ref, 40))))

    def game_events(self, game_id: str) -> list[Any]:
        """The game's events in force (undone ones left out), in order: read without their
        envelopes, as the projections read them."""
        stream = self.store.read_stream_events(game_stream(game_id))
        return [] if stream is None else in_force(stream.events)

    def notes(self, game_id: str) -> list[AnnotationAdded]:
        """The game's notes, of whichever game it is."""
        return self.book(game_id).notes(game_id)

    def sight(self, game_id: str, viewer: str | None = None) -> Sight:
        """What `viewer` (the name of whoever looks, None for anyone) may see of the game now
        (its game's book says: `games.Book.sight`)."""
        return self.book(game_id).sight(game_id, viewer)

    def events(self, game_id: str) -> list[Recorded]:
        return self.store.read_stream(game_stream(game_id))

    def games(self) -> list[dict[str, Any]]:
        """One row per game from the read models, in recorded order (see `game_rows`)."""
        return [row for _, row in self.game_rows()]

    def game_rows(
        self,
        *,
        last: int | None = None,
        keep: Callable[[dict[str, Any]], bool] | None = None,
        game_ids: Collection[str] | None = None,
    ) -> Iterator[tuple[int, dict[str, Any]]]:
        """`(number, row)` of each game kept by `keep` (see `projections.game_list`), in recorded
        order, streamed; only the games `game_ids` when given (read by id); with `last`, only the
        newest `last` of them."""
        from doko_ledger.projections import game_list

        self.refresh()
        db = self.store.db
        if game_ids is not None:
            newest = game_list.rows_of(db, game_ids, descending=last is not None, keep=keep)
        elif last is None:
            return game_list.rows(db, keep=keep)
        else:
            newest = game_list.rows(db, descending=True, keep=keep)
        if last is None:
            return newest
        return iter(list(itertools.islice(newest, last))[::-1])

    def verify(self, expect: str | None = None, *, quick: bool = False) -> VerifyReport:
        """Recompute the hash chain over the whole log; with `expect`, also check that the log
        extends that head (noted earlier from `head`). Then check that the read models are
        exactly what folding the log gives (read models behind the log are caught up first);
        with `quick`, only that none has folded further than the log reaches
        (`projections.verify`)."""
        from doko_ledger.projections.verify import check_read_models

        report = self.store.verify(expect=expect)
        check_read_models(self.store, self.projections, report, quick=quick, catch_up=self.refresh)
        return report

    def head(self) -> Head:
        """The hash of the newest event, which covers every event before it: what a group notes
        outside the file to check it later (`verify(expect=...)`)."""
        return self.store.head()


def _why_behind(exc: BaseException) -> str:
    """Why a catch-up failed, in words that say nothing of the write before it."""
    from doko_ledger.store.errors import LedgerBusy

    return str(exc.locked) if isinstance(exc, LedgerBusy) else str(exc)


def no_game(game: str) -> Message:
    """The refusal of a game the ledger does not hold (`game`: as quoted)."""
    return msg("no game {game} in the ledger (see `doko games`)", game=game)


def _not_held(ref: str, held: int) -> Message:
    return plural(
        "there is no game {ref}: the ledger holds {count} game",
        "there is no game {ref}: the ledger holds {count} games",
        held,
        ref=shortened(ref, 40),
    )
