"""The short text forms of quick entry at the table: `Anna,Clara`, `9:3`, `Anna=re,Clara=no90`,
`re:fox_caught:Ben`. Each parser names the flag and the bad part when it refuses."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from doko_ledger.doppelkopf.cards import Card, parse_card
from doko_ledger.doppelkopf.game.record import SCHWEINCHEN, GameRecord, PlayItem, Said, SummaryRecord, ValueRecord
from doko_ledger.doppelkopf.rules.announcements import Announcement, Party
from doko_ledger.doppelkopf.rules.game_types import GameType, GameTypeError, parse_game_type
from doko_ledger.doppelkopf.rules.scoring import SpecialKind, special_kind_named
from doko_ledger.errors import DokoError, reason_of
from doko_ledger.i18n import Message, msg
from doko_ledger.names import find_player, normalized
from doko_ledger.numbers import NumberTooLong, shortened, whole_number


class EntryError(DokoError, ValueError):
    """A quick-entry value that cannot be read; says which flag and what is expected."""

    exit_code = 2


def names(text: str, flag: str) -> tuple[str, ...]:
    """`Anna, Clara` → ("Anna", "Clara"), in Unicode's composed form (NFC) as names are kept."""
    out = tuple(normalized(n.strip()) for n in text.split(",") if n.strip())
    if not out:
        raise EntryError(msg("{field}: name at least one player, e.g. Anna,Clara", field=flag))
    return out


def tricks(text: str, flag: str = "--tricks") -> tuple[int, int]:
    """`9:3` → Re's and Kontra's tricks."""
    re_part, _, kontra_part = text.partition(":")
    try:
        re_tricks, kontra_tricks = whole_number(re_part), whole_number(kontra_part)
    except NumberTooLong as exc:
        raise EntryError(msg("{field}: {problem}", field=flag, problem=reason_of(exc))) from None
    if re_tricks is None or kontra_tricks is None:
        raise EntryError(
            msg(
                "{field}: write Re's and Kontra's tricks as RE:KONTRA, e.g. 9:3, not {text}",
                field=flag,
                text=repr(shortened(text, 40)),
            )
        )
    return re_tricks, kontra_tricks


def points(text: str, what: str | Message) -> int:
    """`+5`, `-5`, `5`: one player's points, as a claim writes them."""
    try:
        value = whole_number(text.strip(), signed=True)
    except NumberTooLong as exc:
        raise EntryError(msg("{field}: {problem}", field=what, problem=reason_of(exc))) from None
    if value is None:
        raise EntryError(
            msg(
                "{field}: write a whole number such as +5 or -5, not {text}",
                field=what,
                text=repr(shortened(text, 40)),
            )
        )
    return value


def claim(text: str, flag: str = "--claimed") -> dict[str, int]:
    """`Anna=+5,Ben=-5,...` → each player's claimed points."""
    claimed: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, sep, value = part.partition("=")
        if not sep or not name.strip():
            raise EntryError(_not_a_claim(flag, part))
        try:
            number = whole_number(value.strip(), signed=True)
        except NumberTooLong as exc:
            player = repr(shortened(name.strip(), 40))
            raise EntryError(
                msg(
                    "{field}: {problem}",
                    field=flag,
                    problem=msg("{field}: {problem}", field=player, problem=reason_of(exc)),
                )
            ) from None
        if number is None:
            raise EntryError(_not_a_claim(flag, part))
        claimed[normalized(name.strip())] = number
    if not claimed:
        raise EntryError(msg("{field}: name every player's points, e.g. Anna=+5,Ben=-5,Clara=+5,Dirk=-5", field=flag))
    return claimed


def calls(parts: Sequence[str], flag: str = "--call") -> tuple[tuple[str, str], ...]:
    """`Anna=re,Clara=no90` (also repeated) → (("Anna", "re"), ("Clara", "no90")), in order."""
    known = {a.value for a in Announcement}
    out = []
    for part in (p.strip() for text in parts for p in text.split(",")):
        if not part:
            continue
        player, sep, what = part.partition("=")
        what = what.strip().lower()
        if not sep or not player.strip() or what not in known:
            raise EntryError(
                msg(
                    "{field}: write PLAYER=CALL with a call of {calls}, not {text}",
                    field=flag,
                    calls=", ".join(sorted(known)),
                    text=repr(part),
                )
            )
        out.append((normalized(player.strip()), what))
    return tuple(out)


def specials(parts: Sequence[str], flag: str = "--special") -> tuple[tuple[str, str, str | None], ...]:
    """`re:fox_caught:Ben`, `kontra:doppelkopf` → (kind, party, caught from); a kind by any of
    its names (`fox`, `Fuchs`, `charlie`, `doko`: docs/rules.md §7)."""
    out = []
    for part in (p.strip() for text in parts for p in text.split(",")):
        if not part:
            continue
        fields = [f.strip() for f in part.split(":")]
        party = fields[0].lower()
        kind = special_kind_named(fields[1]) if len(fields) in (2, 3) else None
        if kind is None or party not in {p.value for p in Party}:
            kinds = ", ".join(k.value for k in SpecialKind)
            raise EntryError(
                msg(
                    "{field}: write PARTY:KIND[:FROM] (party re or kontra; kind {kinds},"
                    " or a short or German name such as fox or Fuchs), not {text}",
                    field=flag,
                    kinds=kinds,
                    text=repr(part),
                )
            )
        out.append((kind.value, party, normalized(fields[2]) if len(fields) == 3 else None))
    return tuple(out)


def game_type(text: str, flag: str = "--game") -> GameType:
    """The game type by any of its names (`queen`, `Damensolo`)."""
    try:
        return parse_game_type(text)
    except GameTypeError as exc:
        raise EntryError(msg("{field}: {problem}", field=flag, problem=reason_of(exc))) from None


def summary(
    game: str,
    re: str,
    re_points: int,
    tricks_text: str | None = None,
    call_parts: Sequence[str] = (),
    special_parts: Sequence[str] = (),
    heart_trick: bool = False,
) -> SummaryRecord:
    """The facts of a deal from quick-entry text; the game rules check them when recorded.
    The game type may be given by any of its names (`queen`, `Damensolo`); `heart_trick`: a
    trick of four hearts was played (a bock trigger, docs/rules.md §9)."""
    return SummaryRecord(
        game=game_type(game).value,
        re=names(re, "--re"),
        re_points=re_points,
        tricks=None if tricks_text is None else tricks(tricks_text),
        announcements=calls(call_parts),
        specials=specials(special_parts),
        heart_trick=heart_trick,
    )


def corrected(
    recorded: SummaryRecord | None,
    game: str | None,
    re: str | None,
    re_points: int | None,
    tricks_text: str | None = None,
    call_parts: Sequence[str] | None = None,
    special_parts: Sequence[str] | None = None,
    heart_trick: bool | None = None,
) -> SummaryRecord:
    """A deal's facts as corrected: the `recorded` ones with only what is given replaced (an
    empty `--call ''` clears the calls). A deal recorded without facts (a misdeal, a deal
    played card by card) needs the Re players and Re's points."""
    if recorded is None:
        if re is None or re_points is None:
            raise EntryError(msg("the deal was recorded without its facts: give --re and --re-points"))
        parts = (call_parts or (), special_parts or ())
        return summary(game or "normal", re, re_points, tricks_text, *parts, heart_trick=bool(heart_trick))
    return SummaryRecord(
        game=recorded.game if game is None else game_type(game).value,
        re=recorded.re if re is None else names(re, "--re"),
        re_points=recorded.re_points if re_points is None else re_points,
        tricks=recorded.tricks if tricks_text is None else tricks(tricks_text),
        announcements=recorded.announcements if call_parts is None else calls(call_parts),
        specials=recorded.specials if special_parts is None else specials(special_parts),
        heart_trick=recorded.heart_trick if heart_trick is None else heart_trick,
    )


def calls_text(said: Sequence[tuple[str, str]]) -> str:
    """Announcements as typed: `Anna=re,Clara=no90` (the inverse of `calls`)."""
    return ",".join(f"{player}={call}" for player, call in said)


def specials_text(points: Sequence[tuple[str, str, str | None]]) -> str:
    """Special points as typed: `re:fox_caught:Ben,kontra:doppelkopf` (the inverse of `specials`)."""
    return ",".join(":".join(p for p in (party, kind, caught) if p) for kind, party, caught in points)


def extend_record(record: GameRecord, tokens: Sequence[str], reservations_open: bool) -> GameRecord:
    """The game record with more of the play typed at the table: cards (`CQ`, `♥10`) in play
    order, calls `NAME=re` … `NAME=schweinchen` between them, and, while the reservations are
    open, `NAME=club_solo` / `NAME=marriage` before the first card (the others said healthy)."""
    reservations = dict(record.reservations)
    tricks = [list(t) for t in record.tricks]
    calls_ = {a.value for a in Announcement} | {SCHWEINCHEN}
    for token in tokens:
        player, sep, what = token.partition("=")
        if sep:
            named, what = normalized(player.strip()), what.strip().lower()
            found = find_player(named, record.players)
            if found is None:
                unknown = msg(
                    "unknown player {player} (players: {players})",
                    player=repr(named),
                    players=", ".join(record.players),
                )
                raise EntryError(msg("{field}: {problem}", field=repr(token), problem=unknown))
            player, what = found, _reservation_word(what)
            if what in calls_ or " " in what:
                _append(tricks, Said(player, what))
            elif what == "poverty":
                raise EntryError(
                    msg("a poverty's exchange is recorded with a game file (`doko import`), not card by card")
                )
            elif what in _RESERVATION_WORDS and reservations_open and not any(tricks):
                if what == "healthy":
                    reservations.pop(player, None)
                else:
                    reservations[player] = what
            else:
                if reservations_open:
                    raise EntryError(msg("{token}: not a call or reservation here", token=repr(token)))
                raise EntryError(msg("{token}: not a call here", token=repr(token)))
        else:
            _append(tricks, parse_card(token))
    order = [p for p in _asking(record) if p in reservations]
    return replace(
        record,
        reservations=tuple((p, reservations[p]) for p in order),
        tricks=tuple(tuple(t) for t in tricks),
        reservations_open=record.reservations_open and not tokens,
    )


_RESERVATION_WORDS = {g.value for g in GameType if g.is_declared_solo} | {"marriage", "reservation", "healthy"}


def _reservation_word(what: str) -> str:
    """A reservation by any name of its game (`Kreuzsolo` is club_solo); other words as they are."""
    if what in _RESERVATION_WORDS or " " in what:
        return what
    try:
        return parse_game_type(what).value
    except GameTypeError:
        return what


def _asking(record: GameRecord) -> list[str]:
    start = record.players.index(record.dealer) + 1
    return [record.players[(start + i) % 4] for i in range(4)]


def _append(tricks: list[list[PlayItem]], item: PlayItem) -> None:
    if not tricks or sum(isinstance(i, Card) for i in tricks[-1]) == 4:
        tricks.append([])
    tricks[-1].append(item)


def value_entry(winners: str | None, losers: str | None, value: int | None, *, solo: bool = False) -> ValueRecord:
    """`--winners Anna,Ben --value 3` (or `--losers`, `--solo`): a deal by its value only
    (docs/rules.md §7); who may win and the value are the library's to check."""
    if winners is None and losers is None:
        raise EntryError(msg("--value: name the winners (--winners Anna,Ben) or the losers (--losers)"))
    if value is None:
        raise EntryError(msg("--winners/--losers: give the deal's value before bock, e.g. --value 3"))
    return ValueRecord(
        value,
        winners=() if winners is None else names(winners, "--winners"),
        losers=() if losers is None else names(losers, "--losers"),
        solo=solo,
    )


def _not_a_claim(flag: str, part: str) -> Message:
    return msg("{field}: write PLAYER=POINTS, e.g. Anna=+5, not {text}", field=flag, text=repr(shortened(part, 40)))
