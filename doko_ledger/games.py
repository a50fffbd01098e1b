"""The games the ledger records, each a package plugged in here: its name, the event that starts
one of its games' streams, its event modules (for the codec's catalog), its read models (for
the projection runner), its files (for `doko import`) and its book (what the ledger can do with
one of its games).

An entry names its modules by their dotted paths and loads them when first asked: a command
that never touches a game does not import it. Nothing outside a game's package asks which game
it is by name; it asks this registry (`game_starting_with`, `game_of_file`, `Game.session_named`)
and then the game.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from doko_ledger.errors import DokoError

if TYPE_CHECKING:
    from doko_ledger.doppelkopf.book import DoppelkopfBook
    from doko_ledger.doudizhu.book import DouDizhuBook
    from doko_ledger.events.annotations import AnnotationAdded
    from doko_ledger.projections.game_list import ListedGames
    from doko_ledger.projections.runner import Projection
    from doko_ledger.sight import Sight
    from doko_ledger.store.base import EventStore


class GameNotFound(DokoError, LookupError):
    """A game reference that matches no game, or more than one."""


GENERIC_EVENT_MODULES = ("doko_ledger.events.annotations", "doko_ledger.events.voiding", "doko_ledger.events.sessions")
"""The event modules of no one game: notes and voids in any game's stream, deals added and
sessions closed in any game's sessions."""


class Book(Protocol):
    """What the ledger can do with the games of one game, whichever it is."""

    def import_session(self, loaded: Any, *, by: str, at: str) -> object:
        """Append a session read from one of the game's session files, whole."""

    def session_ids(self) -> list[str]:
        """The game's sessions (card nights, Dou Dizhu sessions) in the ledger."""

    def resolve_session(self, ref: str) -> str | None:
        """The session `ref` names (its id or a unique prefix), None when it names none of
        this game's."""

    def session_game_ids(self, session_id: str) -> list[str]:
        """The games of a session, in the order played."""

    def notes(self, game_id: str) -> list[AnnotationAdded]:
        """The game's notes, in the order written."""

    def sight(self, game_id: str, viewer: str | None = None) -> Sight:
        """What `viewer` (None: anyone) may see of the game now."""

    def annotate(
        self, game_id: str, trick: int | None, card: int | None, text: str, *, by: str, at: str
    ) -> AnnotationAdded:
        """Add a note to a game: on the game, a trick, or one card of a trick."""


class ReadModels(Protocol):
    """The ledger's read models as a book uses them: brought up to the end of the log before
    they are read; `behind` says why they were left behind it (None: they were not)."""

    behind: str | None

    def refresh(self) -> None: ...


class GameFiles(Protocol):
    """A game's file formats, as `doko import` reads them (`formats.any_file`)."""

    def claims(self, text: str) -> bool:
        """True for a file of this game (its `format:` line)."""

    def is_session(self, text: str) -> bool:
        """True for one of the game's session files."""

    def read(self, text: str, source: str) -> Any:
        """Read, validate and replay one file of the game (`SourceError` naming file, line, field)."""


B = TypeVar("B", bound=Book)


def _load(ref: str) -> Any:
    module, _, name = ref.partition(":")
    loaded = importlib.import_module(module)
    return getattr(loaded, name) if name else loaded


@dataclass(frozen=True, slots=True, eq=False)
class Game(Generic[B]):
    """One game the ledger records. Every reference to its code is a dotted path, loaded when
    first used (`module` or `module:name`)."""

    name: str
    """How the game is named in JSON answers and game lists: `doppelkopf`, `doudizhu`."""
    title: str
    """How the game is named to people."""
    session_title: str
    """How one of its sessions is named to people: `card night`, `Dou Dizhu session`."""
    first_event: str
    """The event type that starts a game's stream (`game/<id>`)."""
    session_prefix: str
    """How the streams of its sessions are named: `<prefix><id>`."""
    event_modules: tuple[str, ...]
    """The modules that define its event types, for the codec's catalog."""
    projections: tuple[tuple[str, str], ...]
    """Its read models: (name, `module:class`) for the projection runner."""
    book_class: str
    """`module:class` of its book, made with a store."""
    files_module: str
    """The module of its file formats (a `GameFiles`)."""
    game_list: str
    """`module:name` of how the game list reads its games (`projections.game_list.ListedGames`)."""
    unnamed_files: bool = False
    """Whether a file without a `format:` line is one of this game's."""

    def book(self, store: EventStore, read_models: ReadModels | None = None) -> B:
        book: B = _load(self.book_class)(store, read_models)
        return book

    def files(self) -> GameFiles:
        files: GameFiles = _load(self.files_module)
        return files

    def listed_games(self) -> ListedGames:
        listed: ListedGames = _load(self.game_list)
        return listed

    def read_models(self) -> list[Projection]:
        return [_load(ref)() for _, ref in self.projections]

    def session_named(self, store: EventStore, ref: str) -> str | None:
        """The id of the game's session that `ref` names (exactly or by a unique prefix), None
        when it names none of them: index look-ups, with none of the game's code loaded (a
        command finds whose session it is shown before it imports that game)."""
        stream = self.session_prefix + ref
        if store.stream_version(stream) > 0:
            return ref
        matches = store.stream_names(stream, 2)
        return matches[0][len(self.session_prefix) :] if len(matches) == 1 else None

    def __repr__(self) -> str:
        return f"Game({self.name!r})"


DOPPELKOPF: Game[DoppelkopfBook] = Game(
    name="doppelkopf",
    title="Doppelkopf",
    session_title="card night",
    first_event="GameStarted",
    session_prefix="session/",  # `streams.SESSION_PREFIX`
    event_modules=(
        "doko_ledger.doppelkopf.events",
        "doko_ledger.doppelkopf.nights.events",
        "doko_ledger.doppelkopf.house_rules",
    ),
    projections=(("games-v5", "doko_ledger.doppelkopf.projection:GamesProjection"),),
    book_class="doko_ledger.doppelkopf.book:DoppelkopfBook",
    files_module="doko_ledger.doppelkopf.files.any_file",
    game_list="doko_ledger.doppelkopf.game_list:LISTED",
    unnamed_files=True,
)
DOUDIZHU: Game[DouDizhuBook] = Game(
    name="doudizhu",
    title="Dou Dizhu",
    session_title="Dou Dizhu session",
    first_event="DouDizhuDealt",
    session_prefix="doudizhu-session/",
    event_modules=("doko_ledger.doudizhu.events",),
    projections=(("doudizhu-v2", "doko_ledger.doudizhu.projection:DouDizhuProjection"),),
    book_class="doko_ledger.doudizhu.book:DouDizhuBook",
    files_module="doko_ledger.doudizhu.any_file",
    game_list="doko_ledger.doudizhu.game_list:LISTED",
)

GAMES: tuple[Game[Any], ...] = (DOPPELKOPF, DOUDIZHU)
"""Every game the ledger records, in the order they are listed."""


def event_modules() -> Iterator[str]:
    """Every module that defines event types: each game's, and the generic ones."""
    for game in GAMES:
        yield from game.event_modules
    yield from GENERIC_EVENT_MODULES


def projection_names() -> tuple[str, ...]:
    """The names of every game's read models (whether they are up to date is asked without
    loading them)."""
    return tuple(name for game in GAMES for name, _ in game.projections)


def game_named(name: str) -> Game[Any]:
    """The game named `name` (as game lists and JSON answers name it)."""
    return next(game for game in GAMES if game.name == name)


def game_starting_with(event_type: str | None) -> Game[Any] | None:
    """The game whose games' streams start with `event_type` (None for no game's)."""
    return next((game for game in GAMES if game.first_event == event_type), None)


def game_of_file(text: str) -> Game[Any]:
    """The game a file's text is of: the game its `format:` line names, else the game whose
    files may leave it out."""
    named = next((game for game in GAMES if not game.unnamed_files and game.files().claims(text)), None)
    return named or next(game for game in GAMES if game.unnamed_files)
