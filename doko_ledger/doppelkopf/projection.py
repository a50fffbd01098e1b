"""Read models of Doppelkopf games: a row per game in each table, but one per announcement (a
rebuild inserts every row of every game: few rows a game keep it cheap).

Tables (rebuilt by `doko rebuild`, explorable with `sqlite3` or Datasette):

- `games`: game_id, stream, played_on, players (JSON list by seat), dealer,
  rules preset, game_type (`value only` for a deal entered by its value),
  declarer, hands_recorded, tricks_played, finished,
  points (JSON list of card points by seat), tricks_won (JSON list), events,
  last_position; for a card night's deal: night, deal (its number), status (in
  force, voided or corrected), corrected_by and replaces (game ids).
- `tricks`: one row per game with a card played: game_id, and each trick in play order
  in a JSON list: leaders (players), cards (a trick's cards as text, in play order),
  winners (players; null for a trick not complete) and points (card points).
- `parties`: one row per game: game_id, and for each seat 0..3: player0..player3,
  party0..party3 (the truth as far as the record shows), public_in_trick0..3 and
  public_cause0..3 (when and why the table learnt it).
- `announcements`: game_id, number, party, announcement, player, played (the
  caller's cards played), trick, implied (a skipped level or the solo rule),
  cause.
- `scores`: game_id, rules (preset), winner (re, kontra or null; in a deal by its
  value, Re is the lone player or the winners), value (what each winner gets; Re's
  net when nobody wins), lone, note, and one column per seat: seat0..seat3 with the
  player's name in player0..player3; multiplier, bock_extra (the game points
  `bock_effect: extra_point` adds) and bock (the rounds in force and what started them)
  for a card night's deal in a bock round.
- `score_lines`: one row per scored game with a derivation: game_id, and each line of the
  derivation in order in a JSON list: items, parties (`re`, `kontra` or null), points,
  factors (2 for a doubling), specials (true for a special point) and causes.

Only streams that start with a Doppelkopf `GameStarted` are Doppelkopf games; another
game's streams under `game/` (Dou Dizhu) are left to that game's projection.
"""

from __future__ import annotations

import itertools
import json
import uuid
from collections.abc import Mapping, Sequence
from json.encoder import encode_basestring
from typing import Any, ClassVar

from doko_ledger.doppelkopf.cards import ALL_CARDS, Card
from doko_ledger.doppelkopf.events import EventVoided, GameStarted
from doko_ledger.doppelkopf.game.facts import NotScorable
from doko_ledger.doppelkopf.game.parties import Parties, announced, is_lone, true_parties
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.game.undo import in_force
from doko_ledger.doppelkopf.game_list import LISTED
from doko_ledger.doppelkopf.nights.events import ChangeTakenBack, DealAdded, DealCorrected, DealVoided, SessionStarted
from doko_ledger.doppelkopf.nights.kept import KeptNight, KeptNights
from doko_ledger.doppelkopf.nights.night import Night
from doko_ledger.doppelkopf.nights.place import DealPlace
from doko_ledger.doppelkopf.revelations import Revelation, fold_revealing
from doko_ledger.doppelkopf.rules.announcements import Party
from doko_ledger.doppelkopf.rules.value import VALUE_ONLY
from doko_ledger.doppelkopf.score import GameScore, score_game
from doko_ledger.i18n import DEFAULT, render
from doko_ledger.projections import runner
from doko_ledger.store.base import StreamEvents, stream_events, stream_events_after, streams_events
from doko_ledger.store.database import Database
from doko_ledger.streams import GAME_PREFIX, SESSION_PREFIX, game_stream

KEYS: Mapping[str, tuple[str, ...]] = {
    "games": ("game_id",),
    "tricks": ("game_id",),
    "parties": ("game_id",),
    "announcements": ("game_id", "number"),
    "scores": ("game_id",),
    "score_lines": ("game_id",),
}
"""Each table, with the columns of its primary key."""
TABLES = tuple(KEYS)
COLUMNS: dict[str, tuple[str, ...]] = {
    "games": (
        "game_id",
        "stream",
        "played_on",
        "players",
        "dealer",
        "rules",
        "game_type",
        "declarer",
        "hands_recorded",
        "abandoned",
        "re_players",
        "lone",
        "summarized",
        "re_points",
        "tricks_played",
        "finished",
        "points",
        "tricks_won",
        "events",
        "first_position",
        "last_position",
        "night",
        "deal",
        "status",
        "corrected_by",
        "replaces",
    ),
    "tricks": ("game_id", "leaders", "cards", "winners", "points"),
    "parties": (
        "game_id",
        *(f"{column}{seat}" for seat in range(4) for column in ("player", "party", "public_in_trick", "public_cause")),
    ),
    "announcements": ("game_id", "number", "party", "announcement", "player", "played", "trick", "implied", "cause"),
    "scores": (
        "game_id",
        "rules",
        "winner",
        "value",
        "lone",
        "note",
        *(f"{column}{seat}" for seat in range(4) for column in ("player", "seat")),
        "multiplier",
        "bock",
        "bock_extra",
    ),
    "score_lines": ("game_id", "items", "parties", "points", "factors", "specials", "causes"),
}
"""Each table's columns, in the order of the row tuples written."""

_INSERT = {
    table: f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
    for table, columns in COLUMNS.items()
}

Row = tuple[Any, ...]
"""A row of a table, its cells in the order of `COLUMNS`; a yes or no is written as 1 or 0, which
`sqlite3` binds at once (a `bool` it first looks up among its adapters, three times as long)."""


def is_doppelkopf(events: Sequence[Any]) -> bool:
    """A stream is a Doppelkopf game when its first event is a Doppelkopf `GameStarted`."""
    return bool(events) and type(events[0]) is GameStarted


class GamesProjection:
    """Folds each Doppelkopf game stream once, with the game's own `evolve`, into the rows of
    all six tables; streams of other games are left alone.

    A card night's stream (`session/`) is read too: a night's deal is scored in its night
    (bock round included) and marked (deal number, voided, corrected). When a night or one of
    its games changes, every game of that night is folded again (a voided deal can take a
    later deal's bock round away)."""

    name = "games-v5"
    """v2: the night's columns; v3: `scores.bock_extra`; v4: a game's tricks, and its parties, in
    one row, and `night_folds`; v5: a game's score lines in one row. A ledger with older tables
    folds them again on its next read."""
    stream_prefix = GAME_PREFIX
    first_events = (GameStarted.event_name,)
    more_streams: ClassVar[Mapping[str, tuple[str, ...]]] = {SESSION_PREFIX: (SessionStarted.event_name,)}
    tables: Mapping[str, tuple[str, ...]] = KEYS

    def create(self, db: Database) -> None:
        if "games" in db.table_names() and _older(db):
            self.drop(db)  # the tables of an older version: folded again from the log
            db.execute(f"DELETE FROM {runner.POSITIONS} WHERE name = ?", [self.name])
        if runner.POSITIONS in db.table_names():  # older versions' places in the log
            db.execute(f"DELETE FROM {runner.POSITIONS} WHERE name IN ('games', 'games-v2', 'games-v3', 'games-v4')")
        db.executescript(
            """
            CREATE TABLE IF NOT EXISTS games (
                game_id TEXT PRIMARY KEY, stream TEXT NOT NULL, played_on TEXT, players TEXT NOT NULL,
                dealer TEXT NOT NULL, rules TEXT NOT NULL, game_type TEXT, declarer TEXT,
                hands_recorded BIGINT NOT NULL, abandoned TEXT, re_players TEXT NOT NULL, lone BIGINT NOT NULL,
                summarized BIGINT NOT NULL, re_points BIGINT,
                tricks_played BIGINT NOT NULL, finished BIGINT NOT NULL,
                points TEXT NOT NULL, tricks_won TEXT NOT NULL, events BIGINT NOT NULL,
                first_position BIGINT NOT NULL, last_position BIGINT NOT NULL,
                night TEXT, deal BIGINT, status TEXT, corrected_by TEXT, replaces TEXT
            );
            CREATE TABLE IF NOT EXISTS tricks (
                game_id TEXT PRIMARY KEY, leaders TEXT NOT NULL, cards TEXT NOT NULL, winners TEXT NOT NULL,
                points TEXT NOT NULL
            );
            CREATE TABLE IF NOT EXISTS parties (
                game_id TEXT PRIMARY KEY,
                player0 TEXT NOT NULL, party0 TEXT, public_in_trick0 BIGINT, public_cause0 TEXT,
                player1 TEXT NOT NULL, party1 TEXT, public_in_trick1 BIGINT, public_cause1 TEXT,
                player2 TEXT NOT NULL, party2 TEXT, public_in_trick2 BIGINT, public_cause2 TEXT,
                player3 TEXT NOT NULL, party3 TEXT, public_in_trick3 BIGINT, public_cause3 TEXT
            );
            CREATE TABLE IF NOT EXISTS announcements (
                game_id TEXT NOT NULL, number BIGINT NOT NULL, party TEXT NOT NULL, announcement TEXT NOT NULL,
                player TEXT, played BIGINT, trick BIGINT, implied BIGINT NOT NULL, cause TEXT NOT NULL,
                PRIMARY KEY (game_id, number)
            );
            CREATE TABLE IF NOT EXISTS scores (
                game_id TEXT PRIMARY KEY, rules TEXT NOT NULL, winner TEXT, value BIGINT NOT NULL,
                lone BIGINT NOT NULL, note TEXT NOT NULL,
                player0 TEXT NOT NULL, seat0 BIGINT NOT NULL, player1 TEXT NOT NULL, seat1 BIGINT NOT NULL,
                player2 TEXT NOT NULL, seat2 BIGINT NOT NULL, player3 TEXT NOT NULL, seat3 BIGINT NOT NULL,
                multiplier BIGINT NOT NULL, bock TEXT, bock_extra BIGINT NOT NULL
            );
            CREATE TABLE IF NOT EXISTS night_folds (
                stream TEXT PRIMARY KEY, version BIGINT NOT NULL, token TEXT NOT NULL
            );
            CREATE TABLE IF NOT EXISTS score_lines (
                game_id TEXT PRIMARY KEY, items TEXT NOT NULL, parties TEXT NOT NULL, points TEXT NOT NULL,
                factors TEXT NOT NULL, specials TEXT NOT NULL, causes TEXT NOT NULL
            );
            """
        )
        db.execute(LISTED.index)  # `#N` and `doko games` read through it

    def drop(self, db: Database) -> None:
        db.executescript("".join(f"DROP TABLE IF EXISTS {table};" for table in (*TABLES, "night_folds")))

    def write(self, db: Database, streams: Sequence[StreamEvents]) -> None:
        rows: dict[str, list[Row]] = {table: [] for table in TABLES}
        games = {s.stream: s for s in streams if s.stream.startswith(GAME_PREFIX) and is_doppelkopf(s.events)}
        nights = {s.stream: s for s in streams if _is_night(s)}
        for session in {*nights, *_nights_of(db, list(games))}:
            night = nights.get(session) or stream_events(db, session)
            if night is not None:
                for folded in _add_night_rows(rows, db, night, games):
                    games.pop(folded, None)
        for stream in games.values():
            _add_rows(rows, stream)
        _replace(db, rows)

    def write_changes(self, db: Database, streams: Sequence[str], after_position: int) -> None:
        """The rows of the games these streams changed. A card night that only grew (deals
        added, changes made: nothing taken back or corrected) is caught up from the fold this
        process kept of it: only its new and changed games are folded, with their places, however
        long the night; otherwise all of the night's games are folded again (`write`)."""
        rows: dict[str, list[Row]] = {table: [] for table in TABLES}
        changed = {s for s in streams if s.startswith(GAME_PREFIX)}
        done: set[str] = set()
        for session in sorted({*(s for s in streams if s.startswith(SESSION_PREFIX)), *_nights_of(db, [*changed])}):
            folded = _night_grown(rows, db, session, changed)
            if folded is None:
                night = stream_events(db, session)
                folded = [] if night is None or not _is_night(night) else _add_night_rows(rows, db, night, {})
            done.update(folded)
        for stream in streams_events(db, sorted(changed - done)):
            if is_doppelkopf(stream.events):
                _add_rows(rows, stream)
        _replace(db, rows)


def _replace(db: Database, rows: dict[str, list[Row]]) -> None:
    """Replace the rows of the games in `rows` (every table's rows of a game go together)."""
    if not rows["games"]:
        return
    _delete_stale(db, [row[0] for row in rows["games"]])
    for table in TABLES:
        if rows[table]:
            # plain executemany of tuples: projection rows are many and uniform
            db.executemany(_INSERT[table], rows[table])


def _older(db: Database) -> bool:
    """The read models were written by an older version: without the night's columns,
    `scores.bock_extra`, with a row per trick, per seat or per score line, or without
    `night_folds`."""
    return (
        "night_folds" not in db.table_names()
        or "status" not in db.columns("games")
        or "bock_extra" not in db.columns("scores")
        or "leaders" not in db.columns("tricks")
        or "party0" not in db.columns("parties")
        or "items" not in db.columns("score_lines")
    )


def _delete_stale(db: Database, ids: list[str]) -> None:
    """Delete the rows of the games that have rows already (none on a rebuild: its tables are
    new). A game's rows in every table are written together with its `games` row."""
    marks = ", ".join("?" * len(ids))
    stale = [r[0] for r in db.execute(f"SELECT game_id FROM games WHERE game_id IN ({marks})", ids)]
    if stale:
        marks = ", ".join("?" * len(stale))
        for table in TABLES:
            db.execute(f"DELETE FROM {table} WHERE game_id IN ({marks})", stale)


def _is_night(stream: StreamEvents) -> bool:
    return stream.stream.startswith(SESSION_PREFIX) and bool(stream.events) and type(stream.events[0]) is SessionStarted


def _nights_of(db: Database, streams: list[str]) -> set[str]:
    """The session streams of the card nights these game streams are deals of (as projected)."""
    ids = [s[len(GAME_PREFIX) :] for s in streams]
    found: set[str] = set()
    for i in range(0, len(ids), 500):
        chunk = ids[i : i + 500]
        marks = ", ".join("?" * len(chunk))
        query = f"SELECT night FROM games WHERE game_id IN ({marks}) AND night IS NOT NULL"  # by primary key
        found.update(SESSION_PREFIX + r[0] for r in db.execute(query, chunk))
    return found


def _add_night_rows(
    rows: dict[str, list[Row]], db: Database, night: StreamEvents, batch: dict[str, StreamEvents]
) -> list[str]:
    """Every game of a card night folded with its place in the night; returns their streams.
    The night's fold is kept (`_keep_fold`) for the next catch-up."""
    loaded = Night.load(night.events, {})
    state = loaded.state
    wanted = [game_stream(g) for g in (*state.deals, *state.voided, *state.replaced)]
    read = {s.stream: s for s in streams_events(db, [w for w in wanted if w not in batch])}
    streams = {
        w[len(GAME_PREFIX) :]: stream
        for w in wanted
        if (stream := batch.get(w) or read.get(w)) is not None and is_doppelkopf(stream.events)
    }
    loaded.catch_up([], {g: s.events for g, s in streams.items()})
    places = loaded.places()
    for game_id, stream in streams.items():
        _add_rows(rows, stream, places.get(game_id))
    _keep_fold(db, night.stream, loaded)
    return [s.stream for s in streams.values()]


_RESHAPING = (DealVoided, DealCorrected, ChangeTakenBack)
"""Session events after which a night's games are all folded again: a deal taken back or
corrected, a change taken back, can move the places (the bock rounds) of the deals after it."""

FOLDS = KeptNights(size=16)
"""The nights whose read models this process wrote last, each as folded then (kept at its
session's version and its token), by the token the read models keep with the night
(`night_folds`)."""
_PROCESS = uuid.uuid4().hex
_TOKENS = itertools.count(1)


def _keep_fold(db: Database, stream: str, night: Night) -> None:
    """Keep `night` (as its read models were just written from it) for the next catch-up, and
    note in the read models, under a token no other fold has, the version it was folded at: a
    catch-up finds it there only while the read models are as this process wrote them."""
    token = f"{_PROCESS}-{next(_TOKENS)}"
    FOLDS.put(token, KeptNight(night, (len(night.history), token)))
    db.execute("DELETE FROM night_folds WHERE stream = ?", [stream])
    db.execute("INSERT INTO night_folds (stream, version, token) VALUES (?, ?, ?)", [stream, len(night.history), token])


def _night_grown(rows: dict[str, list[Row]], db: Database, session: str, changed: set[str]) -> list[str] | None:
    """The rows of a card night's new and changed games, caught up from the fold kept of it
    (its session's new events read alone); returns their streams, or None when the night has
    no fold kept here or did more than grow (`write_changes`)."""
    found = db.execute("SELECT version, token FROM night_folds WHERE stream = ?", [session]).fetchone()
    kept = None if found is None else FOLDS.get(found[1])
    if kept is None:
        return None
    further = stream_events_after(db, session, kept.at[0])
    if any(isinstance(e, _RESHAPING) for e in further):
        return None
    night = kept.fork()
    last = night.state.deals[-1] if night.state.deals else None
    night.catch_up(further, {})
    ids = [e.game_id for e in further if isinstance(e, DealAdded)]
    ids += [g for s in sorted(changed) if (g := s[len(GAME_PREFIX) :]) in night.games and g not in ids]
    streams = [s for s in streams_events(db, [game_stream(g) for g in ids]) if is_doppelkopf(s.events)]
    before = {g: night.outcome(g) for g in ids if g in night.games and g != last}
    night.catch_up([], {s.stream[len(GAME_PREFIX) :]: s.events for s in streams})
    if any(night.outcome(g) != outcome for g, outcome in before.items()):
        return None  # a game before the last changed its outcome: the places after it may move
    places = night.places()
    for stream in streams:
        _add_rows(rows, stream, places.get(stream.stream[len(GAME_PREFIX) :]))
    _keep_fold(db, session, night)
    return [s.stream for s in streams]


def _add_rows(rows: dict[str, list[Row]], stream: StreamEvents, place: DealPlace | None = None) -> None:
    """One fold of the stream, and every table's rows from its final state (`place`: its place
    in a card night)."""
    events = stream.events
    state, revealed = fold_revealing(in_force(events) if EventVoided in map(type, events) else events)
    parties = true_parties(state)
    won, tricks = state.points_won(), state.tricks_won()
    rows["games"].append(game_row(state, stream, parties, won, tricks, place))
    rows["tricks"].extend(trick_rows(state))
    rows["parties"].extend(party_rows(state, revealed, parties))
    rows["announcements"].extend(announcement_rows(state))
    if state.finished or state.abandoned is not None:
        try:
            result = score_game(state, parties=parties, won=won, tricks=tricks, place=place)
        except NotScorable:
            return
        rows["scores"].append(score_row(result))
        rows["score_lines"].extend(score_line_rows(result))


_JSON_NAMES: dict[tuple[tuple[str, ...], bool], str] = {}


def _names_json(names: tuple[str, ...], ensure_ascii: bool) -> str:
    """`json.dumps(list(names))`, remembered: the same players sit at many games."""
    key = (names, ensure_ascii)
    text = _JSON_NAMES.get(key)
    if text is None:
        text = json.dumps(list(names), ensure_ascii=ensure_ascii)
        if len(_JSON_NAMES) < 4096:
            _JSON_NAMES[key] = text
    return text


def _ints_json(values: tuple[int, ...]) -> str:
    """`json.dumps(list(values))` for ints, without the encoder's set-up."""
    if len(values) == 4:
        first, second, third, fourth = values
        return f"[{first}, {second}, {third}, {fourth}]"
    return "[" + ", ".join(map(str, values)) + "]"


def game_row(
    state: GameState,
    stream: StreamEvents,
    parties: Parties | None = None,
    won: tuple[int, ...] | None = None,
    tricks: tuple[int, ...] | None = None,
    place: DealPlace | None = None,
) -> Row:
    """The `games` row (columns `COLUMNS["games"]`); `parties`, `won` and `tricks` as computed
    from `state` when the caller has them already; `place`: the game's place in a card night."""
    players = state.players
    parties = true_parties(state) if parties is None else parties
    won = state.points_won() if won is None else won
    tricks = state.tricks_won() if tricks is None else tricks
    re_seats = [s for s, p in enumerate(parties) if p is Party.RE]
    return (
        state.game_id,
        stream.stream,
        state.played_on,
        _names_json(players, ensure_ascii=False),
        state.dealer_name,
        state.rules.preset,
        _game_type(state),
        None if state.declarer is None else players[state.declarer],
        int(state.dealt is not None),
        state.abandoned,
        _names_json(tuple(players[s] for s in re_seats), ensure_ascii=True),
        int(is_lone(state)),
        int(state.summary is not None or state.valued is not None),
        _re_points(state, parties, won, re_seats),
        len(state.tricks),
        int(state.finished),
        _ints_json(won),
        _ints_json(tricks),
        len(stream.events),
        stream.first_position,
        stream.last_position,
        *(_NO_PLACE if place is None else _place_cells(place)),
    )


_NO_PLACE = (None, None, None, None, None)


def _game_type(state: GameState) -> str | None:
    """The game type, `value only` for a deal entered by its value (its type is not known)."""
    if state.valued is not None:
        return VALUE_ONLY
    return None if state.game_type is None else state.game_type.value


def _place_cells(place: DealPlace) -> Row:
    return (place.session_id, place.number, place.status, place.corrected_by, place.replaces)


def _re_points(state: GameState, parties: Parties, won: tuple[int, ...], re_seats: list[int]) -> int | None:
    """Re's card points: from the summary, or from the tricks once every party is known."""
    if state.summary is not None:
        return state.summary.re_points
    if None in parties or state.game_type is None:
        return None
    return sum(won[s] for s in re_seats)


def party_rows(state: GameState, revealed: Sequence[Revelation], parties: Parties | None = None) -> list[Row]:
    """The game's one `parties` row: each seat's player, party, and when and why the table
    learnt it (None while it did not)."""
    public = {r.seat: r for r in revealed}
    players = state.players
    cells: list[Any] = [state.game_id]
    for seat, party in enumerate(true_parties(state) if parties is None else parties):
        shown = public.get(seat)
        cells += (
            players[seat],
            None if party is None else party.value,
            *((None, None) if shown is None else (shown.trick, render(shown.cause, DEFAULT))),
        )
    return [tuple(cells)]


def announcement_rows(state: GameState) -> list[Row]:
    players = state.players
    return [
        (
            state.game_id,
            number,
            a.party.value,
            a.announcement.value,
            None if a.seat is None else players[a.seat],
            a.played,
            a.trick,
            int(a.implied),
            a.cause,
        )
        for number, a in enumerate(announced(state), 1)
    ]


def score_row(result: GameScore) -> Row:
    score = result.score
    seats: list[Any] = []
    for player, delta in zip(result.players, result.deltas, strict=True):
        seats += (player, delta)
    return (
        result.game_id,
        result.rules.preset,
        None if score is None or score.winner is None else score.winner.value,
        0 if score is None else score.value,
        int(score is not None and score.lone),
        result.note,
        *seats,
        1 if result.bock is None else result.bock.multiplier,
        None if result.bock is None else result.bock.cause,
        0 if result.bock is None else result.bock.extra,
    )


def score_line_rows(result: GameScore) -> list[Row]:
    """The game's one `score_lines` row (none without a derivation): each column a JSON list
    with an entry per line, written as `json.dumps(..., ensure_ascii=False)` writes it."""
    lines = () if result.score is None else result.score.lines
    if not lines:
        return []
    text = encode_basestring
    parties = _PARTY_JSON
    return [
        (
            result.game_id,
            "[" + ", ".join([text(line.item) for line in lines]) + "]",
            "[" + ", ".join([parties[line.party] for line in lines]) + "]",
            "[" + ", ".join([str(line.points) for line in lines]) + "]",
            "[" + ", ".join([str(line.factor) for line in lines]) + "]",
            "[" + ", ".join(["true" if line.special else "false" for line in lines]) + "]",
            "[" + ", ".join([text(line.cause) for line in lines]) + "]",
        )
    ]


_PARTY_JSON: dict[Party | None, str] = {party: f'"{party.value}"' for party in Party} | {None: "null"}
"""Each party as a JSON text, `null` for a line of neither."""


_CARD_TEXT = {card: str(card) for card in ALL_CARDS}
_JSON_SEATS: dict[tuple[str, ...], dict[int | None, str]] = {}


def _seats_json(players: tuple[str, ...]) -> dict[int | None, str]:
    """Each seat's player as JSON text (`null` for no seat), remembered like `_names_json`."""
    seats = _JSON_SEATS.get(players)
    if seats is None:
        seats = {seat: json.dumps(name, ensure_ascii=False) for seat, name in enumerate(players)}
        seats[None] = "null"
        if len(_JSON_SEATS) < 4096:
            _JSON_SEATS[players] = seats
    return seats


def trick_rows(state: GameState) -> list[Row]:
    """The game's one `tricks` row (none before its first card): each column a JSON list with
    an entry per trick, written as `json.dumps` writes it."""
    tricks = state.all_tricks
    if not tricks:
        return []
    seats = _seats_json(state.players)
    return [
        (
            state.game_id,
            "[" + ", ".join([seats[trick.leader] for trick in tricks]) + "]",
            '["' + '", "'.join([_trick_text(trick.cards) for trick in tricks]) + '"]',
            "[" + ", ".join([seats[trick.winner] for trick in tricks]) + "]",
            "[" + ", ".join([str(trick.points) for trick in tricks]) + "]",
        )
    ]


def _trick_text(cards: tuple[Card, ...]) -> str:
    """A trick's cards as text, in play order (a complete trick's without a join)."""
    text = _CARD_TEXT
    if len(cards) == 4:
        first, second, third, fourth = cards
        return f"{text[first]} {text[second]} {text[third]} {text[fourth]}"
    return " ".join([text[card] for card in cards])
