"""A whole game as people write it down, and its conversion to and from events.

`GameRecord` is what a game file holds: players by name, the dealer, the rules,
optional hands, the game type and the play trick by trick. `to_events` runs
every entry through `decide`, so a record that breaks a rule is refused with the
path of the entry (`("tricks", 5, 2)`); `from_events` is its inverse.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from doko_ledger.cards import Card
from doko_ledger.errors import DokoError
from doko_ledger.events.doppelkopf import (
    CardPlayed,
    CardsDealt,
    DoppelkopfEvent,
    GameStarted,
    GameTypeSet,
    SchweinchenShown,
)
from doko_ledger.game.decide import (
    Command,
    DealCards,
    IllegalMove,
    PlayCard,
    SetGameType,
    ShowSchweinchen,
    StartGame,
    decide,
)
from doko_ledger.game.evolve import evolve
from doko_ledger.game.state import GameState
from doko_ledger.rules.game_types import GameType
from doko_ledger.rules.play import SEATS
from doko_ledger.rules.ruleset import RuleSet

Path = tuple[str | int, ...]

SCHWEINCHEN = "schweinchen"


@dataclass(frozen=True, slots=True)
class Said:
    """Something a player said between two cards (`{Anna: schweinchen}` in a game file)."""

    player: str
    what: str


PlayItem = Card | Said


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game as written in a game file."""

    id: str
    players: tuple[str, ...]
    dealer: str
    rules: RuleSet
    game_type: GameType
    soloist: str | None = None
    hands: tuple[tuple[Card, ...], ...] | None = None
    tricks: tuple[tuple[PlayItem, ...], ...] = ()
    played_on: str | None = None


class RecordError(DokoError, ValueError):
    """An entry of a game record that cannot be recorded; `path` says which entry."""

    def __init__(self, message: str, path: Path) -> None:
        super().__init__(message)
        self.path = path


def _seat(record: GameRecord, player: str, path: Path) -> int:
    try:
        return record.players.index(player)
    except ValueError:
        raise RecordError(f"unknown player {player!r} (players: {', '.join(record.players)})", path) from None


def _commands(record: GameRecord) -> Iterable[tuple[Command | Card, Path]]:
    yield (
        StartGame(record.id, record.players, _seat(record, record.dealer, ("dealer",)), record.rules, record.played_on),
        ("players",),
    )
    if record.hands is not None:
        yield DealCards(record.hands), ("hands",)
    declarer = None if record.soloist is None else _seat(record, record.soloist, ("soloist",))
    yield SetGameType(record.game_type, declarer), ("game_type",)
    for t, trick in enumerate(record.tricks):
        cards = sum(isinstance(item, Card) for item in trick)
        if cards > SEATS:
            raise RecordError(f"trick {t + 1} has {cards} cards; a trick has four", ("tricks", t))
        if cards < SEATS and t < len(record.tricks) - 1:
            raise RecordError(f"trick {t + 1} has {cards} cards; only the last trick may be unfinished", ("tricks", t))
        for i, item in enumerate(trick):
            if isinstance(item, Said):
                if item.what != SCHWEINCHEN:
                    raise RecordError(f"unknown call {item.what!r}", ("tricks", t, i))
                yield ShowSchweinchen(_seat(record, item.player, ("tricks", t, i))), ("tricks", t, i)
            else:
                yield item, ("tricks", t, i)


def to_events(record: GameRecord) -> tuple[list[DoppelkopfEvent], GameState]:
    """The events that record this game, and the state after them; `RecordError` on any illegal entry."""
    state = GameState()
    events: list[DoppelkopfEvent] = []
    for command, path in _commands(record):
        if isinstance(command, Card):
            seat = state.to_play
            command = PlayCard(-1 if seat is None else seat, command)
        try:
            new = decide(state, command)
        except IllegalMove as exc:
            if path == ("hands",) and exc.seat is not None:
                path = ("hands", record.players[exc.seat])
            raise RecordError(str(exc), path) from exc
        for event in new:
            state = evolve(state, event)
        events.extend(new)
    return events, state


def from_events(events: Iterable[Any]) -> GameRecord:
    """The record of a game's events (the inverse of `to_events`)."""
    start: GameStarted | None = None
    hands = None
    game_type, declarer = GameType.NORMAL, None
    tricks: list[list[PlayItem]] = []
    cards_in_last = 4
    for event in events:
        match event:
            case GameStarted():
                start = event
            case CardsDealt():
                hands = event.hands
            case GameTypeSet():
                game_type, declarer = event.game_type, event.declarer
            case SchweinchenShown() | CardPlayed():
                if cards_in_last == SEATS:
                    tricks.append([])
                    cards_in_last = 0
                if isinstance(event, CardPlayed):
                    tricks[-1].append(event.card)
                    cards_in_last += 1
                else:
                    assert start is not None
                    tricks[-1].append(Said(start.players[event.seat], SCHWEINCHEN))
    if start is None:
        raise DokoError("these events hold no GameStarted")
    return GameRecord(
        id=start.game_id,
        players=start.players,
        dealer=start.players[start.dealer],
        rules=start.rules,
        game_type=game_type,
        soloist=None if declarer is None else start.players[declarer],
        hands=hands,
        tricks=tuple(tuple(t) for t in tricks),
        played_on=start.played_on,
    )
