"""The Dou Dizhu game file: `load`, `loads`, `dump`, `dumps` (schema: `schemas/doudizhu-game.schema.json`).

```yaml
format: doudizhu-game/1
id: dorm-2026-11-29-01
players: [Li, Wang, Zhang]          # counter-clockwise: each plays after the one before
dealer: Li
opener: Wang                        # drew the face-up card and bids first
hands: {Li: [3, 3, 4, ...], ...}    # optional (17 cards each, 25 with four players)
kitty: [2, BJ, 7]                   # optional
bidding: [Wang: 1, Zhang: pass, Li: 3]
play:
  - Li: 3 4 5 6 7                   # cards as text or a list
  - Wang: pass
  - Li: {cards: 3 3 3 4 4 4 5 5 5 6 6 6, as: airplane}   # only where the cards read two ways
```

A deal written down by its facts has `summary:` instead of hands, kitty, bidding and play:

```yaml
summary:
  landlord: Li
  bid: 3
  bombs: 1                          # every bomb played
  rockets: 0
  big_bombs: 0                      # four players: of the bombs, those of six or more cards
  out_first: Wang
```

The landlord takes the kitty when the bidding ends; nobody writes it. `dumps(loads(text))`
round-trips for text `dumps` wrote; its comments (trick numbers) are ignored when read.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from doko_ledger.doudizhu.cards import Hand, Rank, cards_text, hand, parse_cards
from doko_ledger.doudizhu.combinations import Combination, Kind, readings
from doko_ledger.doudizhu.commands import Bid, Deal, PassBid, PassTurn, Play, Summarize, TakeKitty
from doko_ledger.doudizhu.decide import decide
from doko_ledger.doudizhu.errors import CardError, IllegalMove, IllegalSummary
from doko_ledger.doudizhu.events import (
    BidMade,
    BidPassed,
    CombinationPlayed,
    DouDizhuDealt,
    DouDizhuSummarized,
    TurnPassed,
)
from doko_ledger.doudizhu.evolve import evolve
from doko_ledger.doudizhu.state import DealState, Phase
from doko_ledger.errors import FieldPath
from doko_ledger.events.annotations import AnnotationAdded
from doko_ledger.formats.yaml_source import SourceError, YamlDocument, dump_flow, parse_yaml, read_text
from doko_ledger.i18n import msg, render
from doko_ledger.schema_files import schema_errors, unknown_fields_message

FORMAT = "doudizhu-game/1"
SCHEMA = "doudizhu-game.schema.json"
PASS = "pass"


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """One move as written: a player and their cards (None: a pass), with the reading declared
    where the cards read more than one way."""

    player: str
    cards: Hand | None
    declared: Combination | None = None


@dataclass(frozen=True, slots=True)
class DouDizhuSummary:
    """A deal written down by its facts, as a score sheet holds them: the landlord, the bid,
    who went out first, the bombs and rockets played, and (four players) how many of the bombs
    had six or more cards."""

    landlord: str
    bid: int
    out_first: str
    bombs: int = 0
    rockets: int = 0
    big_bombs: int = 0


def summary_command(players: Sequence[str], summary: DouDizhuSummary) -> Summarize:
    """The command that records `summary` at a table of `players`; `IllegalSummary` naming the
    fact for a landlord or first one out who does not play."""
    for fact, name in (("landlord", summary.landlord), ("out_first", summary.out_first)):
        if name not in players:
            problem = msg(
                "{fact}: {name} does not play in this deal ({players})",
                fact=fact,
                name=repr(name),
                players=", ".join(players),
            )
            raise IllegalSummary(problem, fact)
    return Summarize(
        players.index(summary.landlord),
        summary.bid,
        players.index(summary.out_first),
        summary.bombs,
        summary.rockets,
        summary.big_bombs,
    )


@dataclass(frozen=True, slots=True)
class DouDizhuRecord:
    """One Dou Dizhu deal as written in a game file."""

    id: str
    players: tuple[str, ...]
    dealer: str
    opener: str
    played_on: str | None = None
    note: str | None = None
    hands: tuple[Hand, ...] | None = None
    kitty: Hand | None = None
    bidding: tuple[tuple[str, int], ...] = ()
    """Each call in turn: the player and the bid, 0 for a pass."""
    play: tuple[MoveRecord, ...] = ()
    summary: DouDizhuSummary | None = None
    notes: tuple[AnnotationAdded, ...] = ()


@dataclass(frozen=True, slots=True)
class LoadedDeal:
    """A Dou Dizhu file read and replayed: the record, its events and the state after them."""

    record: DouDizhuRecord
    events: list[Any]
    state: DealState
    remarks: tuple[str, ...] = ()
    """What the import should tell about the file (none for Dou Dizhu's own files)."""

    @property
    def game_id(self) -> str:
        return self.record.id


def is_doudizhu_file(text: str) -> bool:
    """True for a Dou Dizhu game or session file (`format: doudizhu-…`)."""
    return re.search(r"^format:\s*['\"]?doudizhu-", text, flags=re.MULTILINE) is not None


def read(text: str, source: str = "<text>") -> LoadedDeal:
    """Read and replay a Dou Dizhu game file; `SourceError` naming the line and field of the
    first problem, whether the text is malformed, breaks the schema or breaks a rule."""
    doc = parse_yaml(text, source)
    return replay(doc, _record(doc, doc.data, ()), ())


def read_file(path: str | Path) -> LoadedDeal:
    return read(read_text(path), str(path))


def loads(text: str, source: str = "<text>") -> DouDizhuRecord:
    return read(text, source).record


def load(path: str | Path) -> DouDizhuRecord:
    return read_file(path).record


def replay(doc: YamlDocument, record: DouDizhuRecord, at: FieldPath) -> LoadedDeal:
    """The events of a record (at path `at` in `doc`), each decided against the deal so far."""
    state = DealState()
    events: list[Any] = []
    for command, path in _commands(record):
        try:
            new = decide(state, command)
        except (IllegalMove, CardError) as exc:
            if isinstance(command, Deal):
                path = _deal_path(record, exc)
            elif isinstance(exc, IllegalSummary):
                path = ("summary", exc.fact)
            raise doc.error(str(exc), (*at, *path)) from None
        for event in new:
            state = evolve(state, event)
        events += new
    events += record.notes
    return LoadedDeal(record, events, state)


def _deal_path(record: DouDizhuRecord, exc: Exception) -> FieldPath:
    """Where a refused deal is wrong: a player's hand, the kitty, or the players."""
    seat = getattr(exc, "seat", None)
    if seat is not None and record.hands is not None:
        return ("hands", record.players[seat])
    said = render(exc.args[0], "en") if exc.args else ""  # the reason's English words, whatever the reader's
    if "kitty" in said and record.kitty is not None:
        return ("kitty",)
    if said.startswith(("player name ", "players ")):
        return ("players",)
    return ("hands",) if record.hands is not None else ("players",)


def _commands(record: DouDizhuRecord) -> Iterator[tuple[Any, FieldPath]]:
    seat = {name: s for s, name in enumerate(record.players)}
    yield (
        Deal(
            record.id,
            record.players,
            seat[record.dealer],
            seat[record.opener],
            record.hands,
            record.kitty,
            record.played_on,
            record.note,
        ),
        ("players",),
    )
    if record.summary is not None:
        yield summary_command(record.players, record.summary), ("summary",)
    for i, (player, bid) in enumerate(record.bidding):
        yield (PassBid(seat[player]) if bid == 0 else Bid(seat[player], bid)), ("bidding", i, player)
    if record.play:
        yield TakeKitty(), ("play", 0)
    for i, move in enumerate(record.play):
        path: FieldPath = ("play", i, move.player)
        if move.cards is None:
            yield PassTurn(seat[move.player]), path
        else:
            yield Play(seat[move.player], move.cards, move.declared), path


def _record(doc: YamlDocument, data: Any, at: FieldPath, defaults: dict[str, Any] | None = None) -> DouDizhuRecord:
    """A record from one deal's mapping (a whole file, or one deal of a session file)."""
    if not isinstance(data, dict):
        raise doc.error(
            str(msg("a Dou Dizhu game is a mapping with id, players, dealer, opener, bidding and play")), at
        )
    errors = sorted(schema_errors(SCHEMA, data), key=lambda e: len(list(e.absolute_path)), reverse=True)
    if errors:
        error = errors[0]
        path: FieldPath = tuple(error.absolute_path)
        message = str(error.message)
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            allowed = error.schema.get("properties", {})
            path += tuple(k for k in error.instance if k not in allowed)[:1]
            message = unknown_fields_message(message)
        raise doc.error(message, (*at, *path))
    players = tuple(str(p) for p in data["players"])
    for key in ("dealer", "opener"):
        if data[key] not in players:
            raise doc.error(_unknown_player(data[key], players), (*at, key))
    hands = None
    if "hands" in data:
        given = data["hands"]
        unknown = [p for p in given if p not in players]
        if unknown:
            raise doc.error(
                str(
                    msg(
                        "hand of unknown player {name} (players: {players})",
                        name=repr(unknown[0]),
                        players=", ".join(players),
                    )
                ),
                (*at, "hands"),
            )
        missing = [p for p in players if p not in given]
        if missing:
            raise doc.error(
                str(msg("no hand for {name}: give every hand or none", name=repr(missing[0]))), (*at, "hands")
            )
        hands = tuple(_cards(doc, given[p], (*at, "hands", p)) for p in players)
    kitty = _cards(doc, data["kitty"], (*at, "kitty")) if "kitty" in data else None
    bidding = tuple(_call(doc, item, players, (*at, "bidding", i)) for i, item in enumerate(data.get("bidding", [])))
    play = tuple(_move(doc, item, players, (*at, "play", i)) for i, item in enumerate(data.get("play", [])))
    notes = tuple(AnnotationAdded(None, None, n["text"], n["author"], str(n["at"])) for n in data.get("notes", []))
    summary = _summary(doc, data["summary"], data, players, (*at, "summary")) if "summary" in data else None
    return DouDizhuRecord(
        id=data["id"],
        players=players,
        dealer=data["dealer"],
        opener=data["opener"],
        played_on=data.get("played_on"),
        note=doc.note() if not at else data.get("note"),
        hands=hands,
        kitty=kitty,
        bidding=bidding,
        play=play,
        summary=summary,
        notes=notes,
    )


def _summary(
    doc: YamlDocument, facts: dict[str, Any], data: dict[str, Any], players: Sequence[str], at: FieldPath
) -> DouDizhuSummary:
    """The facts of a deal written down without its cards; a summary stands alone."""
    others = [key for key in ("hands", "kitty", "bidding", "play") if key in data]
    if others:
        raise doc.error(
            str(msg("a summary stands alone: no {key} beside it (the facts replace hands and play)", key=others[0])), at
        )
    for fact in ("landlord", "out_first"):
        if facts[fact] not in players:
            raise doc.error(_unknown_player(facts[fact], players), (*at, fact))
    return DouDizhuSummary(
        landlord=str(facts["landlord"]),
        bid=facts["bid"],
        out_first=str(facts["out_first"]),
        bombs=facts.get("bombs", 0),
        rockets=facts.get("rockets", 0),
        big_bombs=facts.get("big_bombs", 0),
    )


def _player(doc: YamlDocument, item: dict[str, Any], players: Sequence[str], at: FieldPath) -> tuple[str, Any]:
    ((player, value),) = item.items()
    if player not in players:
        raise doc.error(_unknown_player(player, players), at)
    return str(player), value


def _unknown_player(name: object, players: Sequence[str]) -> str:
    return str(msg("unknown player {name} (players: {players})", name=repr(name), players=", ".join(players)))


def _call(doc: YamlDocument, item: dict[str, Any], players: Sequence[str], at: FieldPath) -> tuple[str, int]:
    player, value = _player(doc, item, players, at)
    return player, 0 if value == PASS else int(value)


def _move(doc: YamlDocument, item: dict[str, Any], players: Sequence[str], at: FieldPath) -> MoveRecord:
    player, value = _player(doc, item, players, at)
    if value == PASS:
        return MoveRecord(player, None)
    if isinstance(value, dict):
        cards = _cards(doc, value["cards"], (*at, player, "cards"))
        return MoveRecord(player, cards, _declared(doc, value["as"], cards, len(players), (*at, player, "as")))
    return MoveRecord(player, _cards(doc, value, (*at, player)))


def _cards(doc: YamlDocument, value: Any, at: FieldPath) -> Hand:
    """Cards written as a list (each checked where it stands) or as text (`3 3 J`)."""
    if not isinstance(value, list):
        try:
            return parse_cards(str(value))
        except CardError as exc:
            raise doc.error(str(exc), at) from None
    cards: list[Rank] = []
    for i, item in enumerate(value):
        try:
            cards += parse_cards([str(item)])
        except CardError as exc:
            raise doc.error(str(exc), (*at, i)) from None
    return hand(cards)


def _declared(doc: YamlDocument, text: str, cards: Hand, players: int, at: FieldPath) -> Combination:
    """The reading named by `as: KIND` (or `KIND RANK`) among the readings of the cards."""
    kind_text, _, rank_text = text.partition(" ")
    try:
        kind = Kind(kind_text)
    except ValueError:
        names = ", ".join(k.value for k in Kind)
        raise doc.error(
            str(msg("unknown combination {kind} (one of {names})", kind=repr(kind_text), names=names)), at
        ) from None
    try:
        rank = parse_cards(rank_text) if rank_text else None
    except CardError as exc:
        raise doc.error(str(exc), at) from None
    if rank is not None and len(rank) != 1:
        raise doc.error(str(msg("write one rank after the combination, not {text}", text=repr(rank_text))), at)
    options = [c for c in readings(cards, players) if c.kind is kind and (rank is None or c.rank == rank[0])]
    if len(options) != 1:  # not a reading of these cards: the rules say why when the move is decided
        return Combination(kind, rank[0] if rank else cards[-1], len(cards))
    return options[0]


# -- writing -----------------------------------------------------------------


def from_events(events: Sequence[Any]) -> DouDizhuRecord:
    """The record of a deal's events (the inverse of `replay`)."""
    state = DealState()
    bidding: list[tuple[str, int]] = []
    play: list[MoveRecord] = []
    notes: list[AnnotationAdded] = []
    summary: DouDizhuSummary | None = None
    for event in events:
        state = evolve(state, event)
        match event:
            case BidMade(seat=seat, bid=bid):
                bidding.append((state.players[seat], bid))
            case BidPassed(seat=seat):
                bidding.append((state.players[seat], 0))
            case TurnPassed(seat=seat):
                play.append(MoveRecord(state.players[seat], None))
            case CombinationPlayed(seat=seat, cards=cards):
                several = len(readings(cards, len(state.players))) > 1
                play.append(MoveRecord(state.players[seat], cards, event.combination if several else None))
            case DouDizhuSummarized():
                summary = DouDizhuSummary(
                    state.name(event.landlord),
                    event.bid,
                    state.name(event.out_first),
                    event.bombs,
                    event.rockets,
                    event.big_bombs,
                )
            case AnnotationAdded():
                notes.append(event)
    start = next((e for e in events if isinstance(e, DouDizhuDealt)), None)
    if start is None:
        raise SourceError(str(msg("these events hold no DouDizhuDealt")))
    return DouDizhuRecord(
        id=start.game_id,
        players=start.players,
        dealer=start.players[start.dealer],
        opener=start.players[start.opener],
        played_on=start.played_on,
        note=start.note,
        hands=start.hands,
        kitty=start.kitty,
        bidding=tuple(bidding),
        play=tuple(play),
        summary=summary,
        notes=tuple(notes),
    )


def dumps(record: DouDizhuRecord) -> str:
    """The game file of a record: what `loads` reads back to the same record."""
    lines = [f"# {line}" if line else "#" for line in (record.note or "").splitlines()]
    lines += [
        f"format: {FORMAT}",
        f"id: {dump_flow(record.id)}",
        f"players: {dump_flow(list(record.players))}",
        f"dealer: {dump_flow(record.dealer)}",
        f"opener: {dump_flow(record.opener)}",
    ]
    if record.played_on:
        lines.append(f"played_on: {dump_flow(record.played_on)}")
    if record.hands is not None:
        lines.append("hands:")
        lines += [f"  {dump_flow(p)}: {_cards_text(h)}" for p, h in zip(record.players, record.hands, strict=True)]
    if record.kitty is not None:
        lines.append(f"kitty: {_cards_text(record.kitty)}")
    if record.summary is not None:
        lines += _summary_lines(record.summary, len(record.players))
    else:
        calls = [{p: PASS if bid == 0 else bid} for p, bid in record.bidding]
        lines.append(f"bidding: {dump_flow(calls)}")
    if record.play:
        lines.append("play:")
        lines += _play_lines(record)
    if record.notes:
        lines.append("notes:")
        lines += [f"  - {dump_flow({'author': n.author, 'at': n.written_at, 'text': n.text})}" for n in record.notes]
    return "\n".join(lines) + "\n"


def _summary_lines(summary: DouDizhuSummary, players: int) -> list[str]:
    lines = [
        "summary:",
        f"  landlord: {dump_flow(summary.landlord)}",
        f"  bid: {summary.bid}",
        f"  bombs: {summary.bombs}",
        f"  rockets: {summary.rockets}",
    ]
    if players == 4 or summary.big_bombs:
        lines.append(f"  big_bombs: {summary.big_bombs}")
    lines.append(f"  out_first: {dump_flow(summary.out_first)}")
    return lines


def _cards_text(cards: Hand) -> str:
    return "[" + ", ".join(str(c) for c in cards) + "]"


def _play_lines(record: DouDizhuRecord) -> list[str]:
    lines = []
    passes, trick = len(record.players) - 1, 0
    for move in record.play:
        if move.cards is None:
            lines.append(f"  - {dump_flow(move.player)}: {PASS}")
            passes += 1
            continue
        comment = ""
        if passes >= len(record.players) - 1:
            trick += 1
            comment = f"  # trick {trick}"
        passes = 0
        text = cards_text(move.cards)
        if move.declared is not None:
            kind = move.declared.kind.value
            lines.append(f"  - {dump_flow(move.player)}: {{cards: {text}, as: {kind} {move.declared.rank}}}{comment}")
        else:
            lines.append(f"  - {dump_flow(move.player)}: {text}{comment}")  # ranks are plain YAML scalars
    return lines


def phase_note(state: DealState) -> str:
    """A one-line account of where a deal stands, for the importer's messages."""
    if state.phase is Phase.ABANDONED:
        return "thrown in: nobody bid"
    if state.phase is Phase.OVER:
        how = " (recorded by its facts)" if state.summary is not None else ""
        return f"over{how}: {state.name(state.out_first or 0)} went out first"
    return f"unfinished ({state.phase.value})"


# -- sessions ----------------------------------------------------------------

SESSION_FORMAT = "doudizhu-session/1"
SESSION_SCHEMA = "doudizhu-session.schema.json"


@dataclass(frozen=True, slots=True)
class LoadedDouDizhuSession:
    """A Dou Dizhu session file read: its id, players, day, whether it is over, and each deal
    read and replayed."""

    session_id: str
    players: tuple[str, ...]
    played_on: str | None
    closed: bool
    deals: tuple[LoadedDeal, ...]


def is_session(text: str) -> bool:
    return re.search(r"^format:\s*['\"]?doudizhu-session/", text, flags=re.MULTILINE) is not None


def read_session(text: str, source: str = "<text>") -> LoadedDouDizhuSession:
    """Read a session file and replay every deal; `SourceError` at the first problem."""
    doc = parse_yaml(text, source)
    data = doc.data
    if not isinstance(data, dict):
        raise doc.error(str(msg("a Dou Dizhu session file is a mapping with id, players and deals")), ())
    errors = sorted(schema_errors(SESSION_SCHEMA, data), key=lambda e: len(list(e.absolute_path)))
    if errors:
        raise doc.error(str(errors[-1].message), tuple(errors[-1].absolute_path))
    session_id, players = data["id"], tuple(data["players"])
    deals = []
    seen: set[str] = set()
    for i, deal in enumerate(data["deals"]):
        at: FieldPath = ("deals", i)
        filled = {"format": FORMAT, "id": f"{session_id}-{i + 1:02d}", "players": list(players)} | deal
        if "played_on" in data:
            filled.setdefault("played_on", data["played_on"])
        strangers = [p for p in filled["players"] if p not in players]
        if strangers:
            raise doc.error(
                str(
                    msg(
                        "{name} does not play in this session ({players})",
                        name=repr(strangers[0]),
                        players=", ".join(players),
                    )
                ),
                (*at, "players"),
            )
        if filled["id"] in seen:
            raise doc.error(str(msg("deal id {id} is used twice", id=repr(filled["id"]))), (*at, "id"))
        seen.add(filled["id"])
        deals.append(replay(doc, _record(doc, filled, at), at))
    return LoadedDouDizhuSession(session_id, players, data.get("played_on"), data.get("closed", True), tuple(deals))


def read_session_file(path: str | Path) -> LoadedDouDizhuSession:
    return read_session(read_text(path), str(path))


def dumps_session(
    session_id: str, players: Sequence[str], played_on: str | None, deals: Sequence[DouDizhuRecord], closed: bool = True
) -> str:
    """A session file: what `read_session` reads back to the same deals."""
    lines = [f"format: {SESSION_FORMAT}", f"id: {dump_flow(session_id)}", f"players: {dump_flow(list(players))}"]
    if played_on:
        lines.append(f"played_on: {dump_flow(played_on)}")
    if not closed:
        lines.append("closed: false")
    lines.append("deals:")
    shared = {f"format: {FORMAT}", f"players: {dump_flow(list(players))}"}
    if played_on:
        shared.add(f"played_on: {dump_flow(played_on)}")
    for deal in deals:
        body = [line for line in dumps(replace(deal, note=None)).splitlines() if line not in shared]
        lines.append(f"  - {body[0]}")
        lines += [f"    {line}" for line in body[1:]]
    return "\n".join(lines) + "\n"
