"""The YAML game file: `load`, `loads`, `dump`, `dumps` (schema: `schemas/game.schema.json`).

```yaml
format: doko-game/1
id: kitchen-2026-11-28-01
players: [Anna, Ben, Clara, Dirk]     # by seat, clockwise
dealer: Dirk
rules: standard                        # or {preset: standard, second_dulle_beats_first: true}
reservations: {Ben: queen_solo}        # who did not say healthy (optional)
hands: {Anna: [CQ, ...], ...}         # optional
tricks:
  - [C10, {Anna: kontra}, CA, CK, C9]  # in the order played from the leader; calls between cards
```

`dumps(loads(text)) == text` for text that `dumps` wrote; the comments it writes
(leader, winner, points of each trick) are derived and ignored when read.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TextIO

from doko_ledger.doppelkopf.cards import Card, CardError, parse_card
from doko_ledger.doppelkopf.events import DoppelkopfEvent
from doko_ledger.doppelkopf.game.record import (
    GameRecord,
    PenaltyRecord,
    PlayItem,
    PovertyRecord,
    RecordError,
    Said,
    SummaryRecord,
    ValueRecord,
    to_events,
)
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.rules.ruleset import RuleSet, RuleSetError, preset, rules_from_mapping
from doko_ledger.doppelkopf.rules.value import VALUE_ONLY
from doko_ledger.doppelkopf.views import describe
from doko_ledger.errors import DokoError, FieldPath, in_english, reason_of
from doko_ledger.events.annotations import AnnotationAdded
from doko_ledger.formats.yaml_source import YamlDocument, dump_flow, parse_yaml, read_text
from doko_ledger.frozen import frozen
from doko_ledger.i18n import Message, msg
from doko_ledger.schema_files import schema_errors, unknown_fields_message

FORMAT = "doko-game/1"
SCHEMA = "game.schema.json"


@frozen
class LoadedGame:
    """A game file read and replayed: the record, its events and the state after them."""

    record: GameRecord
    events: list[DoppelkopfEvent | AnnotationAdded]
    state: GameState
    remarks: tuple[str, ...] = ()
    """What the import should tell about the file (a FreeDoko option left out)."""


def read(text: str, source: str = "<text>") -> LoadedGame:
    """Read and replay a game file; `SourceError` naming the line and field of the first problem,
    whether the text is malformed, breaks the schema or breaks a rule of play."""
    doc = parse_yaml(text, source)
    record = _record(doc)
    try:
        events, state = to_events(record)
    except RecordError as exc:
        raise doc.error(reason_of(exc), exc.path) from None
    return LoadedGame(record, events, state)


def loads(text: str, source: str = "<text>") -> GameRecord:
    """Read a game file's text; a record that loads is a legal game (see `read`)."""
    return read(text, source).record


def read_file(path: str | Path) -> LoadedGame:
    """`read` a game file from disk; unreadable files are a `SourceError` too."""
    return read(read_text(path), str(path))


def load(path: str | Path | TextIO) -> GameRecord:
    if isinstance(path, (str, Path)):
        return read_file(path).record
    return loads(path.read(), getattr(path, "name", "<stream>"))


def _record(doc: YamlDocument) -> GameRecord:
    data = doc.data
    if not isinstance(data, dict):
        raise doc.error(msg("a game file is a mapping with id, players, dealer and tricks"), ())
    rules = _rules(doc, data.get("rules", "standard"))
    errors = sorted(schema_errors(SCHEMA, data), key=lambda e: len(list(e.absolute_path)), reverse=True)
    if errors:
        error = errors[0]
        if error.validator == "oneOf" and error.context and list(error.absolute_path)[:1] == ["reservations"]:
            error = max(error.context, key=lambda e: len(list(e.absolute_path)))
        path: FieldPath = tuple(error.absolute_path)
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            allowed = error.schema.get("properties", {})
            path += tuple(k for k in error.instance if k not in allowed)[:1]
        raise doc.error(_schema_message(error), path)
    hands = data.get("hands")
    players = tuple(data["players"])
    if hands is not None:
        missing = [p for p in players if p not in hands]
        unknown = [p for p in hands if p not in players]
        if unknown:
            raise doc.error(
                msg(
                    "hand of unknown player {player} (players: {players})",
                    player=repr(unknown[0]),
                    players=", ".join(players),
                ),
                ("hands", unknown[0]),
            )
        if missing:
            raise doc.error(
                msg("no hand for {player}: give all four hands or none", player=repr(missing[0])), ("hands",)
            )
        hands = tuple(tuple(_card(doc, c, ("hands", p, i)) for i, c in enumerate(hands[p])) for p in players)
    tricks = tuple(
        tuple(_item(doc, item, ("tricks", t, i)) for i, item in enumerate(trick))
        for t, trick in enumerate(data.get("tricks", []))
    )
    poverty = data.get("poverty")
    if poverty is not None:
        poverty = PovertyRecord(
            passed=_cards(doc, poverty.get("passed"), ("poverty", "passed")),
            accepted_by=poverty.get("accepted_by"),
            returned=_cards(doc, poverty.get("returned"), ("poverty", "returned")),
        )
    return GameRecord(
        id=data["id"],
        players=players,
        dealer=data["dealer"],
        rules=rules,
        reservations=_reservations(doc, _said(data), players, data["dealer"]),
        reservations_open=data.get("reservations") == "open",
        solo_owed_by=tuple(data.get("solo_owed_by", ())),
        dealt_by=data.get("dealt_by"),
        penalties=tuple(
            PenaltyRecord(
                p["player"],
                p["severity"] == "severe",
                p.get("harms_soloist", False),
                p.get("denials"),
                p.get("reason", ""),
                p.get("after_card"),
            )
            for p in data.get("penalties", [])
        ),
        poverty=poverty,
        abandoned=data.get("abandoned"),
        hands=hands,
        tricks=tricks,
        played_on=data.get("played_on"),
        summary=None if "summary" not in data else _summary(data["summary"]),
        value=None if "value" not in data else value_entry_of(data["value"]),
        note=doc.note(),
        notes=tuple(
            AnnotationAdded(n.get("trick"), n.get("card"), n["text"], n["author"], str(n["at"]))
            for n in data.get("notes", [])
        ),
    )


def _summary(data: dict[str, Any]) -> SummaryRecord:
    tricks = data.get("tricks")
    return SummaryRecord(
        game=data["game"],
        re=tuple(data["re"]),
        re_points=data["re_points"],
        tricks=None if tricks is None else (tricks["re"], tricks["kontra"]),
        announcements=tuple(next(iter(call.items())) for call in data.get("announcements", [])),
        specials=tuple((s["kind"], s["party"], s.get("from")) for s in data.get("specials", [])),
        heart_trick=bool(data.get("heart_trick", False)),
    )


def value_entry_of(data: dict[str, Any]) -> ValueRecord:
    """A deal by its value only as a file writes it: `{winners: [Anna, Ben], value: 3}`,
    `{losers: [Clara], value: 2, solo: true}`."""
    return ValueRecord(
        data["value"],
        winners=tuple(data.get("winners", ())),
        losers=tuple(data.get("losers", ())),
        solo=bool(data.get("solo", False)),
    )


def value_entry_mapping(entry: ValueRecord) -> dict[str, Any]:
    """The mapping `value_entry_of` reads back."""
    named = {"winners": list(entry.winners)} if entry.winners else {}
    named |= {"losers": list(entry.losers)} if entry.losers else {}
    return named | {"value": entry.value} | ({"solo": True} if entry.solo else {})


def _said(data: dict[str, Any]) -> dict[str, str]:
    said = data.get("reservations", {})
    return {} if said == "open" else dict(said)


def _reservations(doc: YamlDocument, said: dict[str, str], players: tuple[str, ...], dealer: str) -> Any:
    """The non-healthy reservations in asking order (from the dealer's left)."""
    for player in said:
        if player not in players:
            raise doc.error(
                msg("reservation of unknown player {player}", player=repr(player)), ("reservations", player)
            )
    start = players.index(dealer) + 1 if dealer in players else 0
    order = [players[(start + i) % len(players)] for i in range(len(players))]
    return tuple((p, said[p]) for p in order if p in said and said[p] != "healthy")


def _cards(doc: YamlDocument, texts: list[Any] | None, path: FieldPath) -> tuple[Card, ...] | None:
    if texts is None:
        return None
    return tuple(_card(doc, c, (*path, i)) for i, c in enumerate(texts))


def _schema_message(error: Any) -> str | Message:
    if error.validator == "additionalProperties":
        return unknown_fields_message(str(error.message))
    if error.validator == "oneOf" and isinstance(error.instance, dict):
        return msg(
            "expected a card or one call such as {call}, not {given}", call="{Anna: re}", given=repr(error.instance)
        )
    if error.validator == "oneOf" and list(error.absolute_path)[:1] == ["tricks"]:
        return msg(
            "expected a card written as text (H10, CQ) or a call such as {call}, not {given}",
            call="{Anna: re}",
            given=repr(error.instance),
        )
    return str(error.message)


def _rules(doc: YamlDocument, spec: Any) -> RuleSet:
    try:
        return preset(spec) if isinstance(spec, str) else rules_from_mapping(spec)
    except RuleSetError as exc:
        path: FieldPath = ("rules",)
        if isinstance(spec, dict):
            path += tuple(k for k in spec if repr(k) in in_english(exc))[:1]
        raise doc.error(reason_of(exc), path) from None


def _card(doc: YamlDocument, text: Any, path: FieldPath) -> Any:
    try:
        return parse_card(text)
    except CardError as exc:
        raise doc.error(reason_of(exc), path) from None


def _item(doc: YamlDocument, item: Any, path: FieldPath) -> PlayItem:
    if isinstance(item, dict):
        ((player, what),) = item.items()
        return Said(str(player), str(what))
    card: PlayItem = _card(doc, item, path)
    return card


# -- writing -----------------------------------------------------------------


def dumps(record: GameRecord) -> str:
    """The canonical text of a game file, with derived comments per trick."""
    try:
        state: GameState | None = to_events(record)[1]
    except DokoError:
        state = None
    tricks_done = state.all_tricks if state is not None else ()
    lines = [] if record.note is None else [f"# {line}".rstrip() for line in record.note.split("\n")]
    lines += [
        f"format: {FORMAT}",
        f"id: {dump_flow(record.id)}",
    ]
    if record.played_on is not None:
        lines.append(f"played_on: {dump_flow(record.played_on)}")
    lines += [
        f"players: {dump_flow(list(record.players))}",
        f"dealer: {dump_flow(record.dealer)}",
        *([f"dealt_by: {dump_flow(record.dealt_by)}"] if record.dealt_by is not None else []),
        f"rules: {_dump_rules(record.rules)}",
    ]
    if record.solo_owed_by:
        lines.append(f"solo_owed_by: {dump_flow(list(record.solo_owed_by))}")
    if record.abandoned is not None:
        lines.append(f"abandoned: {record.abandoned}")
    if record.reservations_open:
        lines.append("reservations: open")
    elif record.reservations:
        lines.append(f"reservations: {dump_flow(dict(record.reservations))}")
    if record.poverty is not None:
        lines.append("poverty:")
        poverty = record.poverty
        if poverty.passed is not None:
            lines.append(f"  passed: [{', '.join(str(c) for c in poverty.passed)}]")
        if poverty.accepted_by is not None:
            lines.append(f"  accepted_by: {dump_flow(poverty.accepted_by)}")
        if poverty.returned is not None:
            lines.append(f"  returned: [{', '.join(str(c) for c in poverty.returned)}]")
    if record.summary is not None:
        lines += _dump_summary(record.summary)
    if record.value is not None:
        lines.append(f"value: {dump_flow(value_entry_mapping(record.value))}  # {VALUE_ONLY}")
    if record.hands is not None:
        lines.append("hands:")
        for player, hand in zip(record.players, record.hands, strict=True):
            lines.append(f"  {dump_flow(player)}: [{', '.join(str(c) for c in hand)}]")
    if record.tricks:
        lines.append("tricks:" + (f"  # {describe(state)}" if state is not None else ""))
        for t, trick in enumerate(record.tricks):
            items = ", ".join(str(i) if not isinstance(i, Said) else dump_flow({i.player: i.what}) for i in trick)
            comment = ""
            if t < len(tricks_done):
                done = tricks_done[t]
                comment = f"  # {t + 1}: {record.players[done.leader]} leads"
                if done.winner is not None:
                    comment += f", {record.players[done.winner]} wins {done.points}"
            lines.append(f"  - [{items}]{comment}")
    elif record.summary is None and record.value is None:
        lines.append("tricks: []")
    if record.penalties:
        lines.append("penalties:")
        for penalty in record.penalties:
            entry: dict[str, Any] = {"player": penalty.player, "severity": "severe" if penalty.severe else "minor"}
            if penalty.harms_soloist:
                entry["harms_soloist"] = True
            if penalty.denials is not None:
                entry["denials"] = penalty.denials
            if penalty.reason:
                entry["reason"] = penalty.reason
            if penalty.at_card is not None:
                entry["after_card"] = penalty.at_card
            lines.append(f"  - {dump_flow(entry)}")
    if record.notes:
        lines.append("notes:")
        for note in record.notes:
            where = {k: v for k, v in (("trick", note.trick), ("card", note.card)) if v is not None}
            lines.append(f"  - {dump_flow(where | {'author': note.author, 'at': note.written_at, 'text': note.text})}")
    return "\n".join(lines) + "\n"


def _dump_summary(summary: SummaryRecord) -> list[str]:
    lines = [
        "summary:",
        f"  game: {summary.game}",
        f"  re: {dump_flow(list(summary.re))}",
        f"  re_points: {summary.re_points}",
    ]
    if summary.tricks is not None:
        lines.append(f"  tricks: {{re: {summary.tricks[0]}, kontra: {summary.tricks[1]}}}")
    if summary.announcements:
        lines.append(f"  announcements: {dump_flow([{p: a} for p, a in summary.announcements])}")
    if summary.specials:
        lines.append("  specials:")
        for kind, party, caught in summary.specials:
            entry: dict[str, str] = {"kind": kind, "party": party}
            if caught is not None:
                entry["from"] = caught
            lines.append(f"    - {dump_flow(entry)}")
    if summary.heart_trick:
        lines.append("  heart_trick: true")
    return lines


def _dump_rules(rules: RuleSet) -> str:
    changed = rules.changed_from_preset()
    if not changed:
        return rules.preset
    return dump_flow({"preset": rules.preset, **changed})


def dump(record: GameRecord, path: str | Path | TextIO) -> None:
    text = dumps(record)
    if isinstance(path, (str, Path)):
        Path(path).write_text(text, encoding="utf-8")
    else:
        path.write(text)
