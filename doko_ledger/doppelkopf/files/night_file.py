"""The YAML session file, a card night deal by deal (docs/rules.md §9): `load`, `loads`, `dump`,
`dumps` (schema: `schemas/session.schema.json`), and `to_night` / `from_night`.

```yaml
format: doko-session/1
id: 2026-11-28-kitchen
played_on: '2026-11-28'
players: [Anna, Ben, Clara, Dirk, Emil]      # 4-7 at the start, in seat order
first_dealer: Anna
rules: {preset: standard, bock_triggers: [tie, lost_solo]}
rules_name: kitchen                           # the saved house rules they came from (optional)
rate: '0.05'                                  # money per point (optional)
deals:                                        # in order: who deals and who plays are derived
  - {game: normal, re: [Ben, Clara], re_points: 151, announcements: [{Ben: re}]}
  - {bock: {by: Anna, reason: Hochzeit, with_deal: true}}   # with the deal right before it
  - {game: club_solo, re: [Dirk], re_points: 80}
  - {joins: Fritz, after: Anna}               # from the next deal; without after: after the last seat
  - {winners: [Dirk, Fritz], value: 3}        # by its value only (docs/rules.md §7)
  - {leaves: Ben}
  - {rules: {preset: standard, counting: winners_only}, rules_name: late}
  - {bock: {by: Clara, rounds: 2}}            # from the next deal
  - {losers: [Emil], value: 2, solo: true}
  - {misdeal: true}
closed: true
```

Each deal has the fields of a game file's `summary:`, or is a deal by its value only
(`winners:` or `losers:`, `value:`, optional `solo: true`). Between the deals stand the
night's changes where they were made, each in force from the next deal: a player `joins`
(`after:` a player at the table) or `leaves`, the `rules` change (a preset or a preset and
the options it changes, as `rules:` at the top, with an optional `rules_name`), or `bock` is
declared by hand (`by`, optional `rounds` 1-3, `reason`, and `with_deal: true` for a bock
that comes with the deal right before it). Loading replays the night through the recorder,
deals and changes alike, so a file that loads is a night the rules allow; anything else is a
`SourceError` naming the line and field (`deals[3].re_points`, `deals[7].joins`).
`dumps(loads(text)) == text` for text that `dumps` wrote; the comments it writes (dealer,
sit-outs, bock, points, where a change takes effect) are derived and ignored when read.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any, TextIO

from doko_ledger.doppelkopf.files.game_file import value_entry_mapping, value_entry_of
from doko_ledger.doppelkopf.game.commands import IllegalMove
from doko_ledger.doppelkopf.game.record import MISDEAL as MISDEAL_REASON
from doko_ledger.doppelkopf.game.record import (
    GameRecord,
    RecordError,
    SummaryRecord,
    ValueRecord,
    to_events,
    value_record,
)
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.nights.decide import ChangeRules, DeclareBock, JoinTable, LeaveTable, StartNight
from doko_ledger.doppelkopf.nights.events import PlayerJoined, PlayerLeft, RulesChanged
from doko_ledger.doppelkopf.nights.night import Night
from doko_ledger.doppelkopf.nights.schedule import DealRow, NightChangeRow, steps
from doko_ledger.doppelkopf.nights.state import Change
from doko_ledger.doppelkopf.rules.ruleset import RuleSet, RuleSetError, preset, rules_from_mapping
from doko_ledger.errors import DokoError, FieldPath, in_english, reason_of
from doko_ledger.formats.yaml_source import YamlDocument, dump_flow, parse_yaml, read_text
from doko_ledger.frozen import frozen
from doko_ledger.i18n import Message, msg, render
from doko_ledger.schema_files import schema_errors

FORMAT = "doko-session/1"
SCHEMA = "session.schema.json"
DEFAULT_MATCH_LENGTH = 8


@frozen
class Misdeal:
    """A deal thrown in, written `{misdeal: true}`: it scores nothing and the same dealer deals again."""


MISDEAL = Misdeal()

Deal = SummaryRecord | ValueRecord | Misdeal


@frozen
class DeclaredBock:
    """Bock declared by hand, written `{bock: {by: Anna, rounds: 2, reason: Hochzeit}}`;
    `with_deal`: it comes with the deal right before it (`with_deal: true`), else it is in
    force from the next deal."""

    by: str
    reason: str = ""
    rounds: int = 1
    with_deal: bool = False


ChangeEntry = JoinTable | LeaveTable | ChangeRules | DeclaredBock
"""A change of the night between two deals, as written: `{joins: Erik, after: Anna}`,
`{leaves: Ben}`, `{rules: ..., rules_name: ...}`, `{bock: {...}}`."""

Entry = Deal | ChangeEntry
"""An entry of `deals:`: a deal, or a change of the night in force from the next deal."""

_CHANGES = (JoinTable, LeaveTable, ChangeRules, DeclaredBock)


@frozen
class NightFile:
    """A card night as written down: the players in seat order at the start, the first
    dealer, the rules, and the deals in order with the night's changes among them
    (`deals`). `match_length` None means the default of 8 deals; `note` is the file's
    leading comment; `rules_name` the named house-rule set the rules came from."""

    id: str
    players: tuple[str, ...]
    first_dealer: str
    rules: RuleSet = RuleSet()
    deals: tuple[Entry, ...] = ()
    played_on: str | None = None
    match_length: int | None = None
    rate: str | None = None
    closed: bool = False
    note: str | None = None
    rules_name: str | None = None


class NightFileError(DokoError, ValueError):
    """A session the recorder refuses; `path` says which entry (`("deals", 3, "re")`)."""

    def __init__(self, message: str | Message, path: FieldPath) -> None:
        super().__init__(message)
        self.path = path


@frozen
class LoadedNight:
    """A session file read and replayed: what it says and the night it makes."""

    session: NightFile
    night: Night


# -- reading -----------------------------------------------------------------


def read(text: str, source: str = "<text>") -> LoadedNight:
    """Read and replay a session file; `SourceError` naming the line and field of the first
    problem, whether the text is malformed, breaks the schema, or breaks a rule of the night
    or of a game."""
    doc = parse_yaml(text, source)
    session, close_first = _session(doc)
    try:
        night = _replay(session, close_first=close_first)
    except NightFileError as exc:
        raise doc.error(reason_of(exc), exc.path) from None
    return LoadedNight(session, night)


def loads(text: str, source: str = "<text>") -> NightFile:
    """Read a session file's text; a session that loads is a legal night (see `read`)."""
    return read(text, source).session


def read_file(path: str | Path) -> LoadedNight:
    """`read` a session file from disk; unreadable files are a `SourceError` too."""
    return read(read_text(path), str(path))


def load(path: str | Path | TextIO) -> NightFile:
    if isinstance(path, (str, Path)):
        return read_file(path).session
    return loads(path.read(), getattr(path, "name", "<stream>"))


def _session(doc: YamlDocument) -> tuple[NightFile, bool]:
    """The session a document holds, and whether it says `closed: true` before its deals."""
    data = doc.data
    if not isinstance(data, dict):
        raise doc.error(msg("a session file is a mapping with format, id, players, first_dealer, rules and deals"), ())
    try:
        rules = rule_set(data.get("rules", "standard"), ("rules",))
    except NightFileError as exc:
        raise doc.error(reason_of(exc), exc.path) from None
    _validate(doc, data)
    players = tuple(data["players"])
    first_dealer = data["first_dealer"]
    if first_dealer not in players:
        raise doc.error(
            msg(
                "the first dealer {dealer} is not at the table (players: {players})",
                dealer=repr(first_dealer),
                players=", ".join(players),
            ),
            ("first_dealer",),
        )
    rate = data.get("rate")
    deals = tuple(_entry(d, i) for i, d in enumerate(data.get("deals", [])))
    closed = data.get("closed", False)
    keys = list(data)  # in the order of the file
    close_first = closed and bool(deals) and keys.index("closed") < keys.index("deals")
    session = NightFile(
        id=data["id"],
        players=players,
        first_dealer=first_dealer,
        rules=rules,
        deals=deals,
        played_on=data.get("played_on"),
        match_length=data.get("match_length"),
        rate=None if rate is None else str(rate),
        closed=closed,
        note=doc.note(),
        rules_name=data.get("rules_name"),
    )
    return session, close_first


def _entry(data: dict[str, Any], index: int) -> Entry:
    """An entry of `deals:` (valid by the schema): a change of the night or a deal."""
    if "joins" in data:
        return JoinTable(data["joins"], data.get("after"))
    if "leaves" in data:
        return LeaveTable(data["leaves"])
    if "rules" in data:
        return ChangeRules(rule_set(data["rules"], ("deals", index, "rules")), data.get("rules_name"))
    if "bock" in data:
        bock = data["bock"]
        return DeclaredBock(bock["by"], bock.get("reason", ""), bock.get("rounds", 1), bock.get("with_deal", False))
    return _deal(data)


def _deal(data: dict[str, Any]) -> Deal:
    if "misdeal" in data:
        return MISDEAL
    if "value" in data:
        return value_entry_of(data)
    tricks = data.get("tricks")
    return SummaryRecord(
        game=data["game"],
        re=tuple(data["re"]),
        re_points=data["re_points"],
        tricks=None if tricks is None else (tricks["re"], tricks["kontra"]),
        announcements=tuple((str(p), str(a)) for call in data.get("announcements", []) for p, a in call.items()),
        specials=tuple((s["kind"], s["party"], s.get("from")) for s in data.get("specials", [])),
        heart_trick=bool(data.get("heart_trick", False)),
    )


def rule_set(spec: Any, at: FieldPath) -> RuleSet:
    """The rules `spec` (a preset name, or a preset and the options it changes) gives;
    `NightFileError` at `at`, or at the option it names."""
    try:
        return preset(spec) if isinstance(spec, str) else rules_from_mapping(spec)
    except RuleSetError as exc:
        path = at
        if isinstance(spec, dict):
            path += tuple(k for k in spec if repr(k) in in_english(exc))[:1]
        raise NightFileError(reason_of(exc), path) from None


# -- the schema, with messages a person can act on -----------------------------

_DEAL_FIELDS = "game, re, re_points, tricks, announcements, specials, heart_trick"
_ENTRY_FIELDS = (
    ("value", "winners, losers, value, solo"),
    ("joins", "joins, after"),
    ("leaves", "leaves"),
    ("rules", "rules, rules_name"),
    ("bock", "bock"),
)
"""The fields of each kind of entry of `deals:` other than a deal by its facts, by the field that names the kind."""
_MISDEAL = "{misdeal: true}"
"""A deal thrown in, as a file writes it (a message's parameter: its braces are the file's)."""
_AN_ENTRY = msg(
    "a deal needs game, re and re_points, or winners (or losers) and value, or is {misdeal};"
    " a change is {joins}, {leaves}, {rules} or {bock}",
    misdeal=_MISDEAL,
    joins="{joins: NAME}",
    leaves="{leaves: NAME}",
    rules="{rules: RULES}",
    bock="{bock: {by: NAME}}",
)


def _validate(doc: YamlDocument, data: dict[str, Any]) -> None:
    """The first schema error in the order of the file, the innermost at one place; the
    rules of a change are read as the night's `rules:` are, for their own messages."""
    problems: list[tuple[FieldPath, Callable[[], str | Message]]] = [
        (path, partial(_schema_message, error, path))
        for error in schema_errors(SCHEMA, data)
        if not _in_changed_rules(path := _error_path(error))
    ]
    problems += _changed_rules_problems(data.get("deals"))
    if problems:
        path, message = min(problems, key=lambda pm: (doc.line_of(pm[0]) or 0, -len(pm[0])))
        raise doc.error(message(), path)


def _in_changed_rules(path: FieldPath) -> bool:
    return len(path) >= 3 and path[0] == "deals" and path[2] == "rules"


def _changed_rules_problems(deals: Any) -> list[tuple[FieldPath, Callable[[], str | Message]]]:
    """What is wrong with the rules of each rule change among `deals`, by the rules' own words."""
    problems: list[tuple[FieldPath, Callable[[], str | Message]]] = []
    for index, entry in enumerate(deals if isinstance(deals, list) else []):
        if isinstance(entry, dict) and "rules" in entry:
            try:
                rule_set(entry["rules"], ("deals", index, "rules"))
            except NightFileError as exc:
                problems.append((exc.path, partial(reason_of, exc)))
    return problems


def _error_path(error: Any) -> FieldPath:
    path: FieldPath = tuple(error.absolute_path)
    instance = error.instance
    if error.validator == "additionalProperties" and isinstance(instance, dict):
        allowed = error.schema.get("properties", {})
        path += tuple(k for k in instance if k not in allowed)[:1]
    elif error.validator == "required" and isinstance(instance, dict):
        path += tuple(k for k in error.validator_value if k not in instance)[:1]
    elif error.validator == "uniqueItems" and isinstance(instance, list):
        path += (next(i for i, item in enumerate(instance) if item in instance[:i]),)
    return path


def _schema_message(error: Any, path: FieldPath) -> str | Message:
    kind, instance, key = error.validator, error.instance, path[-1] if path else None
    in_deal = len(path) >= 2 and path[0] == "deals"
    an_entry = len(path) == 3 and path[0] == "deals"  # a field of an entry of deals
    if kind == "additionalProperties":
        if an_entry and isinstance(instance, dict) and "misdeal" in instance:
            return msg(
                "a deal thrown in is written {written} and nothing else, not with {key}",
                written=_MISDEAL,
                key=repr(key),
            )
        known = (
            next((fields for field, fields in _ENTRY_FIELDS if field in instance), _DEAL_FIELDS)
            if an_entry
            else ", ".join(error.schema.get("properties", {}))
        )
        return msg("unknown field {key} (known: {known})", key=repr(key), known=known)
    if kind == "required":
        if path[2:] == ("bock", "by"):
            return msg(
                "missing 'by': bock declared by hand says who declared it, e.g. {example}", example="{bock: {by: Anna}}"
            )
        if in_deal:
            return msg("missing {key}: {entry}", key=repr(key), entry=_AN_ENTRY)
        return msg("missing {key}: a session file needs format, id, players and first_dealer", key=repr(key))
    if path == ("players",) and kind in ("minItems", "maxItems"):
        return msg("a card night has 4 to 7 players, not {count}", count=len(instance))
    if kind == "uniqueItems" and path[:1] == ("players",):
        if isinstance(key, int):
            return msg("player {player} is at the table twice", player=repr(instance[path[-1]]))
        return str(error.message)
    if path == ("format",):
        if instance == "doko-game/1":
            return msg(
                "not a session file: format must be {format}, not {given} (this is a game file)",
                format=FORMAT,
                given=repr(instance),
            )
        return msg("not a session file: format must be {format}, not {given}", format=FORMAT, given=repr(instance))
    if kind == "const" and key == "misdeal":
        return msg("a deal thrown in is written {written}", written=_MISDEAL)
    if path == ("match_length",) and kind in ("minimum", "maximum"):
        return msg("a match has 1 to 100 deals, not {count}", count=instance)
    if key == "re_points" and kind in ("minimum", "maximum"):
        return msg("Re's card points are 0-240, not {points}", points=instance)
    if kind == "type" and in_deal and len(path) == 2:
        return msg(
            "a deal is a mapping such as {example} or {misdeal}, or a change such as {change}, not {given}",
            example="{game: normal, re: [Anna, Ben], re_points: 151}",
            misdeal=_MISDEAL,
            change="{joins: Erik}",
            given=repr(instance),
        )
    if kind == "pattern" and path == ("id",):
        return msg(
            "an id holds letters, digits, '.', '_' and '-' and starts with a letter or digit, not {given}",
            given=repr(instance),
        )
    if kind == "pattern":
        if key == "rules_name":
            return msg(
                "the rules' name has no white space at either end and no line break, not {given}", given=repr(instance)
            )
        if key == "reason":
            return msg("a reason has no white space at either end and no line break, not {given}", given=repr(instance))
        return msg(
            "a player's name has no white space at either end and no line break, not {given}", given=repr(instance)
        )
    return str(error.message)


# -- replaying through the recorder ---------------------------------------------------


def to_night(session: NightFile) -> Night:
    """The night a session makes, each deal and change decided by the recorder in order;
    `NightFileError` with the path of the first entry or field it refuses."""
    return _replay(session)


def _replay(session: NightFile, *, close_first: bool = False) -> Night:
    night = Night()
    if session.first_dealer not in session.players:
        raise NightFileError(
            msg("the first dealer {dealer} is not at the table", dealer=repr(session.first_dealer)), ("first_dealer",)
        )
    start = StartNight(
        session.id,
        session.players,
        session.players.index(session.first_dealer),
        session.rules,
        session.match_length or DEFAULT_MATCH_LENGTH,
        session.played_on,
        session.rate,
        session.rules_name,
    )
    try:
        night.start(start)
    except IllegalMove as exc:
        raise NightFileError(reason_of(exc), _start_path(session, in_english(exc))) from None
    if close_first:
        night.close()
    for index, entry in enumerate(session.deals):
        if isinstance(entry, _CHANGES):
            _change(night, entry, index)
        else:
            _add(night, entry, index)
    if session.closed and not close_first:
        try:
            night.close()
        except IllegalMove as exc:
            raise NightFileError(reason_of(exc), ("closed",)) from None
    return night


def _start_path(session: NightFile, message: str) -> FieldPath:
    """Which field a refused start is about (by the recorder's message)."""
    for opening, field in (
        ("the money rate", "rate"),
        ("a match", "match_length"),
        ("the first dealer", "first_dealer"),
        ("the rules' name", "rules_name"),
    ):
        if message.startswith(opening):
            return (field,)
    named = [i for i, p in enumerate(session.players) if repr(p) in message]
    return ("players", named[-1]) if named else ("players",)


def _add(night: Night, deal: Deal, index: int) -> None:
    where: FieldPath = ("deals", index)
    if isinstance(deal, Misdeal):
        try:
            night.add(night.deal_record(None, abandoned=True))
        except (RecordError, IllegalMove) as exc:
            raise NightFileError(reason_of(exc), where) from None
        return
    _check_names(night, deal, where)
    record = night.deal_record(deal)
    try:
        night.add(record)
    except RecordError as exc:
        path = exc.path if isinstance(deal, ValueRecord) else _deal_path(record, deal, exc.path)
        raise NightFileError(reason_of(exc), (*where, *path)) from None
    except IllegalMove as exc:
        raise NightFileError(reason_of(exc), where) from None


def _named(summary: SummaryRecord | ValueRecord) -> Iterator[tuple[FieldPath, str]]:
    if isinstance(summary, ValueRecord):
        for field, named in (("winners", summary.winners), ("losers", summary.losers)):
            for k, player in enumerate(named):
                yield (field, k), player
        return
    for k, player in enumerate(summary.re):
        yield ("re", k), player
    for j, (player, _) in enumerate(summary.announcements):
        yield ("announcements", j), player
    for j, (_, _, caught) in enumerate(summary.specials):
        if caught is not None:
            yield ("specials", j, "from"), caught


def _check_names(night: Night, summary: SummaryRecord | ValueRecord, where: FieldPath) -> None:
    """Every player a deal names plays it (docs/rules.md §9: the four to the dealer's left of
    those at the table)."""
    nxt, state = night.schedule().next, night.state
    for path, name in _named(summary):
        if name in nxt.playing:
            continue
        if name in state.players:
            raise NightFileError(
                msg(
                    "{player} sits out deal {deal} ({dealer} deals; playing: {players})",
                    player=name,
                    deal=nxt.number,
                    dealer=nxt.dealer,
                    players=", ".join(nxt.playing),
                ),
                (*where, *path),
            )
        if name in state.everyone:
            raise NightFileError(
                msg(
                    "{player} has left the table before deal {deal} (playing: {players})",
                    player=name,
                    deal=nxt.number,
                    players=", ".join(nxt.playing),
                ),
                (*where, *path),
            )
        unknown = msg(
            "unknown player {player} (players: {players})", player=repr(name), players=", ".join(state.everyone)
        )
        raise NightFileError(unknown, (*where, *path))


def _change(night: Night, entry: ChangeEntry, index: int) -> None:
    """Decide a change of the night as the recorder does (`Night.change`)."""
    where: FieldPath = ("deals", index)
    try:
        night.change(_command(night, entry, where))
    except IllegalMove as exc:
        field = () if night.state.closed else _change_field(entry, in_english(exc))
        raise NightFileError(reason_of(exc), (*where, *field)) from None


def _command(night: Night, entry: ChangeEntry, where: FieldPath) -> JoinTable | LeaveTable | ChangeRules | DeclareBock:
    """The recorder's command for a change: a bock `with_deal` comes with the night's last deal."""
    if not isinstance(entry, DeclaredBock):
        return entry
    game_id = None
    if entry.with_deal:
        if not night.state.deals:
            raise NightFileError(
                msg(
                    "bock with_deal comes with the deal right before it, and no deal comes before it:"
                    " leave with_deal out to declare it from the first deal"
                ),
                (*where, "bock", "with_deal"),
            )
        game_id = night.state.deals[-1]
    return DeclareBock(entry.by, entry.reason, entry.rounds, game_id)


_BOCK_FIELDS = (("bock is declared for", "rounds"), ("who declares bock", "by"), ("the reason", "reason"))
"""The field of a declared bock the recorder's refusal is about, by how the refusal begins."""


def _change_field(entry: ChangeEntry, message: str) -> FieldPath:
    """Which field of a change the recorder's refusal (`message`) is about."""
    if isinstance(entry, JoinTable):
        return ("after",) if message.endswith("so nobody joins after them") else ("joins",)
    if isinstance(entry, LeaveTable):
        return ("leaves",)
    if isinstance(entry, ChangeRules):
        return ("rules_name",) if message.startswith("the rules' name") else ("rules",)
    field = next((f for opening, f in _BOCK_FIELDS if message.startswith(opening)), "with_deal")
    return ("bock", field)


def _deal_path(record: GameRecord, summary: SummaryRecord, path: FieldPath) -> FieldPath:
    """A game record's path as a path in the deal; a summary refused as a whole is narrowed
    down to the first announcement or special that breaks it, else to its tricks, re or game."""
    if path[:1] != ("summary",):
        return ()
    if len(path) > 1:
        return path[1:]

    def refused(candidate: SummaryRecord) -> str | None:
        try:
            to_events(dataclasses.replace(record, summary=candidate))
        except RecordError as exc:
            return in_english(exc)
        return None

    bare = dataclasses.replace(summary, announcements=(), specials=())
    message = refused(bare)
    if message is None:
        for j in range(len(summary.announcements)):
            if refused(dataclasses.replace(bare, announcements=summary.announcements[: j + 1])):
                return ("announcements", j)
        for j in range(len(summary.specials)):
            if refused(dataclasses.replace(summary, specials=summary.specials[: j + 1])):
                return ("specials", j)
        return ()
    if summary.tricks is not None and refused(dataclasses.replace(bare, tricks=None)) is None:
        return ("tricks",)
    return ("game",) if "(option" in message else ("re",)


# -- from a night -------------------------------------------------------------------


def from_night(night: Night) -> NightFile:
    """The session file of a recorded night: its deals and changes in force, in order
    (voided deals and changes taken back left out, corrected deals as corrected, a bock
    declared with a deal right after it). Only deals recorded by their facts or by their
    value, or thrown in as a misdeal, fit a session file; a deal played card by card is a
    `NightFileError`."""
    state = night.state
    if not state.started:
        raise NightFileError(msg("the night has not started"), ())
    entries: list[Entry] = []
    for step in steps(state):
        if isinstance(step, Change):
            entries.append(_change_of(step))
        else:
            entries.append(_deal_of(night.games[step], step, state.deals.index(step) + 1, len(entries)))
    return NightFile(
        id=state.session_id,
        players=state.starting,
        first_dealer=state.starting[state.first_dealer],
        rules=state.first_rules,
        deals=tuple(entries),
        played_on=state.played_on,
        match_length=None if state.match_length == DEFAULT_MATCH_LENGTH else state.match_length,
        rate=state.rate,
        closed=state.closed,
        rules_name=state.rules_name,
    )


def _change_of(change: Change) -> ChangeEntry:
    """A change of the night as the file writes it."""
    event = change.event
    if isinstance(event, PlayerJoined):
        return JoinTable(event.player, event.after)
    if isinstance(event, PlayerLeft):
        return LeaveTable(event.player)
    if isinstance(event, RulesChanged):
        return ChangeRules(event.rules, event.name)
    return DeclaredBock(event.by, event.reason, event.rounds, with_deal=event.game_id is not None)


def _deal_of(game: GameState, game_id: str, number: int, index: int) -> Deal:
    """Deal `number` of the night, entry `index` of `deals:`."""
    if game.abandoned == MISDEAL_REASON:
        return MISDEAL
    if game.valued is not None and game.abandoned is None:
        return value_record(game.players, game.valued)
    summary = game.summary
    if summary is None or game.abandoned is not None:
        if game.abandoned is not None:
            how = msg(
                "deal {deal} ({game}) was thrown in after a declined poverty: a session file holds deals by their"
                " facts only; export that game as a game file",
                deal=number,
                game=game_id,
            )
        else:
            how = msg(
                "deal {deal} ({game}) was played card by card: a session file holds deals by their facts only;"
                " export that game as a game file",
                deal=number,
                game=game_id,
            )
        raise NightFileError(how, ("deals", index))
    names = game.players
    return SummaryRecord(
        game=summary.game_type.value,
        re=tuple(names[s] for s in summary.re_seats),
        re_points=summary.re_points,
        tricks=None
        if summary.re_tricks is None or summary.kontra_tricks is None
        else (
            summary.re_tricks,
            summary.kontra_tricks,
        ),
        announcements=tuple((names[c.seat], c.announcement.value) for c in summary.announcements),
        specials=tuple(
            (s.kind.value, s.party.value, None if s.caught_from is None else names[s.caught_from])
            for s in summary.specials
        ),
        heart_trick=summary.heart_trick,
    )


# -- writing -------------------------------------------------------------------


def dumps(session: NightFile) -> str:
    """The canonical text of a session file, with derived comments: who deals, who sits
    out, bock, what each deal scored, where each change takes effect, and the totals."""
    try:
        schedule = _replay(session).schedule()
        rows: tuple[DealRow, ...] | None = schedule.rows
        comments: list[str] | None = _comments(session.deals, iter(schedule.rows), iter(schedule.changes))
    except DokoError:
        rows = comments = None
    lines = [] if session.note is None else [f"# {line}".rstrip() for line in session.note.split("\n")]
    lines += [f"format: {FORMAT}", f"id: {dump_flow(session.id)}"]
    if session.played_on is not None:
        lines.append(f"played_on: {dump_flow(session.played_on)}")
    lines += [
        f"players: {dump_flow(list(session.players))}",
        f"first_dealer: {dump_flow(session.first_dealer)}",
        f"rules: {dump_flow(_rules_spec(session.rules))}",
    ]
    if session.rules_name is not None:
        lines.append(f"rules_name: {dump_flow(session.rules_name)}")
    if session.match_length is not None:
        lines.append(f"match_length: {session.match_length}")
    if session.rate is not None:
        lines.append(f"rate: {dump_flow(session.rate)}")
    if not session.deals:
        lines.append("deals: []")
    else:
        totals = ""
        if rows:
            totals = "  # totals: " + ", ".join(f"{p} {t:+d}" for p, t in rows[-1].totals.items())
        lines.append("deals:" + totals)
        for index, entry in enumerate(session.deals):
            comment = "" if comments is None else f"  # {comments[index]}"
            lines.append(f"  - {dump_flow(_entry_mapping(entry))}{comment}")
    if session.closed:
        lines.append("closed: true")
    return "\n".join(lines) + "\n"


def dump(session: NightFile, path: str | Path | TextIO) -> None:
    text = dumps(session)
    if isinstance(path, (str, Path)):
        Path(path).write_text(text, encoding="utf-8")
    else:
        path.write(text)


def _comments(entries: tuple[Entry, ...], rows: Iterator[DealRow], changes: Iterator[NightChangeRow]) -> list[str]:
    """Each entry's comment: a deal described by its row, a change by where it takes effect."""
    return [render(next(changes).text, "en") if isinstance(e, _CHANGES) else _describe(next(rows)) for e in entries]


def _entry_mapping(entry: Entry) -> dict[str, Any]:
    """The mapping an entry of `deals:` is written as (`_entry` reads it back)."""
    match entry:
        case JoinTable(player=player, after=after):
            return {"joins": player} | ({} if after is None else {"after": after})
        case LeaveTable(player=player):
            return {"leaves": player}
        case ChangeRules(rules=rules, name=name):
            return {"rules": _rules_spec(rules)} | ({} if name is None else {"rules_name": name})
        case DeclaredBock():
            return {"bock": _bock_mapping(entry)}
    return _deal_mapping(entry)


def _bock_mapping(bock: DeclaredBock) -> dict[str, Any]:
    out: dict[str, Any] = {"by": bock.by}
    if bock.rounds != 1:
        out["rounds"] = bock.rounds
    if bock.reason:
        out["reason"] = bock.reason
    if bock.with_deal:
        out["with_deal"] = True
    return out


def _deal_mapping(deal: Deal) -> dict[str, Any]:
    if isinstance(deal, Misdeal):
        return {"misdeal": True}
    if isinstance(deal, ValueRecord):
        return value_entry_mapping(deal)
    out: dict[str, Any] = {"game": deal.game, "re": list(deal.re), "re_points": deal.re_points}
    if deal.tricks is not None:
        out["tricks"] = {"re": deal.tricks[0], "kontra": deal.tricks[1]}
    if deal.announcements:
        out["announcements"] = [{p: a} for p, a in deal.announcements]
    if deal.specials:
        out["specials"] = [
            {"kind": kind, "party": party, **({} if caught is None else {"from": caught})}
            for kind, party, caught in deal.specials
        ]
    if deal.heart_trick:
        out["heart_trick"] = True
    return out


def _describe(row: DealRow) -> str:
    """One deal in a line: `7: Clara deals, Emil sits out, bock` and the multiplier, then each
    player's points (`Ben +4 Clara +4 Dirk -4 Emil -4`), and what the sheet counts of them
    when the counting in force is not plus/minus (`counted winners_only: Ben +4 Clara +4 ...`)."""
    parts = [f"{row.number}: {row.dealer} deals"]
    if row.sitting_out == (row.dealer,):
        parts[0] += " and sits out"
    elif row.sitting_out:
        parts.append(f"{', '.join(row.sitting_out)} sit{'s' if len(row.sitting_out) == 1 else ''} out")
    if row.outcome.abandoned:
        parts.append(f"thrown in, {row.dealer} deals again")
    elif row.compulsory:
        parts.append(f"compulsory solo, not counted, {row.dealer} deals again")
    elif row.forced:
        parts.append("forced solo" + ("" if row.counts else ", not counted"))
    if row.multiplier > 1:
        parts.append(f"bock ×{row.multiplier}")
    elif row.bock_round is not None and row.bock_round.extra:
        parts.append(row.bock_round.item)
    if row.bock_rounds_started:
        many = row.bock_rounds_started
        parts.append("starts a bock round" if many == 1 else f"starts {many} bock rounds")
    if row.outcome.finished:
        parts.append(" ".join(f"{p} {row.deltas[p]:+d}" for p in row.playing))
        if row.rules.counting != "plus_minus":
            counted = " ".join(f"{p} {row.sheet[p]:+d}" for p in row.playing)
            parts.append(f"counted {row.rules.counting}: {counted}")
    return ", ".join(parts)


def _rules_spec(rules: RuleSet) -> str | dict[str, Any]:
    """Rules as a file writes them: the preset's name, or the preset and the options it changes."""
    changed = rules.changed_from_preset()
    if not changed:
        return rules.preset
    return {"preset": rules.preset, **changed}


def is_session_text(text: str) -> bool:
    """True for a card night's text (`format: doko-session/…`, or a top-level `deals:`), as
    `doko import` tells sessions from games."""
    return re.search(r"^(format:\s*doko-session/|deals:)", text, flags=re.MULTILINE) is not None
