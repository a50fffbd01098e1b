"""Shared fixtures: seeded random legal games, a temporary ledger, a CLI runner, and PostgreSQL
(`postgres_url`, `make_postgres_database`, `postgres_server`: see tests/postgres.py).

The marks `postgres` and `browser` (pyproject.toml) come from what a test uses: `postgres` when
its fixtures include `postgres_server` (every PostgreSQL fixture asks for it) or it runs with the
backend "postgresql" (tests/backends.py), `browser` when its fixtures include one that starts
headless Chromium. A test that still makes a database or starts a browser without the mark fails,
so that `make test-fast` (`-m "not postgres and not browser and not slow"`) never needs either.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from backends import attacker, ledger_target, store  # noqa: F401  (fixtures for every test)
from browser import Browser
from postgres import make_postgres_database, postgres_server, postgres_url  # noqa: F401  (fixtures for every test)
from typer.testing import CliRunner, Result

from doko_ledger.cli.app import app
from doko_ledger.doppelkopf.cards import ALTE, deck
from doko_ledger.doppelkopf.events import CardPlayed, DoppelkopfEvent
from doko_ledger.doppelkopf.files import game_file
from doko_ledger.doppelkopf.game import Command, DealCards, DeclareReservation, NameReservation, StartGame, decide
from doko_ledger.doppelkopf.game.evolve import evolve
from doko_ledger.doppelkopf.game.record import GameRecord, from_events
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.play import SEATS, legal_plays
from doko_ledger.doppelkopf.rules.reservations import ReservationKind, asking_order
from doko_ledger.doppelkopf.rules.ruleset import RuleSet, preset

# The tests read doko's answers in English whatever the locale of the machine running them
# (a test that wants another language asks for it): messages in the C locale's language.
for _name in ("LANGUAGE", "LC_ALL"):
    os.environ.pop(_name, None)
os.environ["LC_MESSAGES"] = "C.UTF-8"

PLAYERS = ("Anna", "Ben", "Clara", "Dirk")

POSTGRES_SERVER = "postgres_server"
"""The fixture every PostgreSQL database of the tests comes from (also `new_target`'s)."""
POSTGRES_BACKEND = "postgresql"
"""The parameter (of `ledger_target`, a test's own `backend`, alone or in a tuple) putting a ledger on PostgreSQL."""
BROWSER_FIXTURES = frozenset({"browser", "phone"})
"""The fixtures that start headless Chromium (tests/doppelkopf/test_html_export.py, tests/web/test_web_browser.py)."""
_BROWSER_STARTS = pytest.StashKey[int]()


def needs_postgres(item: pytest.Item) -> bool:
    """Whether the test makes a PostgreSQL database: by its fixtures or its backend parameter."""
    callspec = getattr(item, "callspec", None)
    values = callspec.params.values() if callspec is not None else ()
    parameters = [part for value in values for part in (value if isinstance(value, tuple) else (value,))]
    return POSTGRES_SERVER in getattr(item, "fixturenames", ()) or POSTGRES_BACKEND in parameters


def needs_browser(item: pytest.Item) -> bool:
    """Whether the test starts headless Chromium through one of `BROWSER_FIXTURES`."""
    return not BROWSER_FIXTURES.isdisjoint(getattr(item, "fixturenames", ()))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if needs_postgres(item):
            item.add_marker(pytest.mark.postgres)
        if needs_browser(item):
            item.add_marker(pytest.mark.browser)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    item.stash[_BROWSER_STARTS] = Browser.starts


@pytest.fixture(autouse=True)
def _marked_for_what_it_used(request: pytest.FixtureRequest) -> Iterator[None]:
    """After the test: fail it when it made a PostgreSQL database or started a browser unmarked."""
    yield
    node = request.node
    unmarked = [
        f"{used} without @pytest.mark.{mark}"
        for mark, used, happened in (
            ("postgres", "uses PostgreSQL", POSTGRES_SERVER in request.fixturenames),
            ("browser", "starts a browser", Browser.starts > node.stash.get(_BROWSER_STARTS, Browser.starts)),
        )
        if happened and node.get_closest_marker(mark) is None
    ]
    if unmarked:
        pytest.fail(f"{node.name} {' and '.join(unmarked)} (see tests/conftest.py)", pytrace=False)


# Game types that need nothing special from the deal or the rule set.
PLAIN_GAME_TYPES = (
    GameType.NORMAL,
    GameType.DIAMOND_SOLO,
    GameType.HEART_SOLO,
    GameType.SPADE_SOLO,
    GameType.CLUB_SOLO,
    GameType.QUEEN_SOLO,
    GameType.JACK_SOLO,
    GameType.ACE_SOLO,
)


@dataclass(frozen=True)
class RandomGame:
    """A random legal game: its events, the state after each event, its record and file text."""

    events: list[DoppelkopfEvent]
    states: list[GameState]
    record: GameRecord
    text: str

    @property
    def final(self) -> GameState:
        return self.states[-1]


def random_game(
    seed: int,
    *,
    game_id: str | None = None,
    players: Sequence[str] = PLAYERS,
    rules: RuleSet | None = None,
    game_type: GameType | None = None,
    played_on: str | None = "2026-11-28",
    tricks: int | None = None,
) -> RandomGame:
    """Shuffle the deck with `random.Random(seed)`, deal, say the reservations, and play random legal cards.

    `tricks` stops the game after that many complete tricks (default: play to the end).
    The game type is drawn from `PLAIN_GAME_TYPES` unless given. A solo's soloist (drawn at
    random) says reservation and names the solo; in a normal game all four say healthy, so a
    drawn normal game whose deal gives one player both CQ becomes that player's silent solo
    (docs/rules.md §4), and an asked-for normal game is dealt again until nobody holds both.
    """
    rng = random.Random(seed)
    rules = rules or preset("standard")
    cards = sorted(deck(rules.with_nines).elements(), key=str)
    size = rules.hand_size
    while True:
        rng.shuffle(cards)
        hands = tuple(tuple(cards[i * size : (i + 1) * size]) for i in range(SEATS))
        both_queens = next((seat for seat, hand in enumerate(hands) if hand.count(ALTE) == 2), None)
        if game_type is not GameType.NORMAL or both_queens is None:
            break
    dealer = rng.randrange(SEATS)
    chosen = game_type or rng.choice(PLAIN_GAME_TYPES)
    if chosen is not GameType.NORMAL and not chosen.is_declared_solo:
        raise ValueError(f"random_game plays a normal game or a declared solo, not {chosen.value}")
    soloist = rng.randrange(SEATS) if chosen.is_solo else None
    commands: list[Command] = [
        StartGame(game_id or f"random-{seed}", tuple(players), dealer, rules, played_on),
        DealCards(hands),
        *(DeclareReservation(seat, healthy=seat != soloist) for seat in asking_order(dealer)),
    ]
    if soloist is not None:
        commands.append(NameReservation(soloist, ReservationKind.SOLO, chosen))
    events: list[DoppelkopfEvent] = []
    state = GameState()
    states = []
    for command in commands:
        for event in decide(state, command):
            events.append(event)
            state = evolve(state, event)
            states.append(state)
    if chosen is GameType.NORMAL and both_queens is not None:
        assert state.game_type is GameType.SILENT_SOLO and state.declarer == both_queens
    else:
        assert state.game_type is chosen and state.declarer == soloist
    limit = size if tricks is None else tricks
    while len(state.tricks) < limit:
        seat = state.to_play
        assert seat is not None and state.hands is not None
        on_table = state.current.cards if state.current is not None else ()
        card = rng.choice(legal_plays(state.hands[seat], on_table, state.order))
        event = CardPlayed(seat, card)
        events.append(event)
        state = evolve(state, event)
        states.append(state)
    record = from_events(events)
    return RandomGame(events, states, record, game_file.dumps(record))


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The package's wheel, built once per run as `pip wheel` builds it on a fresh machine: by
    the pip of a new virtual environment, which has none of the test run's packages."""
    where = tmp_path_factory.mktemp("wheel")
    root = Path(__file__).resolve().parents[1]
    subprocess.run([sys.executable, "-m", "venv", str(where / "venv")], check=True, timeout=300)
    pip = [str(where / "venv" / "bin" / "python"), "-m", "pip", "--disable-pip-version-check"]
    built = subprocess.run(
        [*pip, "wheel", "--quiet", "--no-deps", "--wheel-dir", str(where), str(root)],
        capture_output=True,
        text=True,
        timeout=1200,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    )
    assert built.returncode == 0, built.stderr
    (made,) = where.glob("doko_ledger-*.whl")
    return made


@pytest.fixture(scope="session")
def make_game() -> Callable[..., RandomGame]:
    """The `random_game` helper, as a fixture."""
    return random_game


@pytest.fixture
def write_game(tmp_path: Path) -> Callable[..., Path]:
    """Write a random game (by seed) or given text to a file in `tmp_path`; returns the path."""

    def write(seed_or_text: int | str, name: str | None = None, **options: Any) -> Path:
        if isinstance(seed_or_text, int):
            text = random_game(seed_or_text, **options).text
            name = name or f"random-{seed_or_text}.yaml"
        else:
            text = seed_or_text
            name = name or "game.yaml"
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return write


@pytest.fixture
def ledger_path(tmp_path: Path) -> Path:
    """Where a test's ledger lives (not created yet)."""
    return tmp_path / "ledger.sqlite"


CLI_ENV = {"COLUMNS": "120", "NO_COLOR": "1", "DOKO_USER": "tester", "TERM": "dumb"}


@pytest.fixture
def cli(ledger_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Result]:
    """Invoke `doko --db <tmp ledger> ARGS...` with a fixed-width, colourless console."""
    monkeypatch.delenv("DOKO_DB", raising=False)
    runner = CliRunner()

    def invoke(*args: str | Path, db: Path | None = ledger_path, env: dict[str, str] | None = None) -> Result:
        argv = [str(a) for a in args]
        if db is not None:
            argv = ["--db", str(db), *argv]
        return runner.invoke(app, argv, env={**CLI_ENV, **(env or {})}, catch_exceptions=True)

    return invoke
