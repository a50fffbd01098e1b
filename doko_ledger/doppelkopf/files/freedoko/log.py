"""FreeDoko's game log (`*.BugReport.FreeDoko`) and party file (`party.FreeDoko`), read.

A game log holds FreeDoko's version, the party so far (its rules, players and the summaries
of the games before), the dealt hands, every gameplay action in order and FreeDoko's own
summary of the game. A party file holds the rules, the players and each game's summary.
`loads`/`load` give them as plain values with the line of everything, so whoever turns them
into a game can name the line of what it refuses. Nothing here knows the rules of the game.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from doko_ledger.doppelkopf.cards import Card, Rank, Suit
from doko_ledger.doppelkopf.files.freedoko.blocks import Block, Entry, parse_blocks
from doko_ledger.formats.yaml_source import SourceError, read_text
from doko_ledger.frozen import frozen
from doko_ledger.i18n import Message, msg

SEATS = 4
SUITS = {"club": Suit.CLUBS, "spade": Suit.SPADES, "heart": Suit.HEARTS, "diamond": Suit.DIAMONDS}
RANKS = {
    "ace": Rank.ACE,
    "ten": Rank.TEN,
    "king": Rank.KING,
    "queen": Rank.QUEEN,
    "jack": Rank.JACK,
    "nine": Rank.NINE,
}
NONE = "-"
"""FreeDoko's word for no player."""


@frozen
class Action:
    """One gameplay action: its kind (`card played`, `reservation`, `announcement`, ...), the
    player number it starts with (if any), the rest of its fields, and its line."""

    kind: str
    seat: int | None
    fields: tuple[str, ...]
    line: int


@frozen
class SpecialPoint:
    """A line of a summary's special points: `caught fox = re, re, 3, 1, 1` is the team it is
    about, the team it counts for, the player who got it, the player it is of, its value."""

    name: str
    team: str
    counts_for: str
    player: int | None
    of_player: int | None
    value: int
    line: int


@frozen
class Summary:
    """FreeDoko's summary of one game."""

    line: int
    seed: int | None
    startplayer: int
    soloplayer: int | None
    gametype: str
    teams: tuple[str, ...]
    highest_re: str
    highest_contra: str
    trick_points: tuple[int, ...]
    winner: str
    points: int
    specials: tuple[SpecialPoint, ...]
    swines_player: int | None = None
    hyperswines_player: int | None = None
    player_points: tuple[int, ...] | None = None
    """Each player's points for the game, where the log says (its `corpus` block)."""
    bock_multiplier: int | None = None


@frozen
class Party:
    """The party: its rules (option → entry), players, the games' summaries so far, points."""

    rules: dict[str, Entry]
    players: tuple[str, ...]
    summaries: tuple[Summary, ...]
    first_seed: int | None = None
    first_startplayer: int | None = None


@frozen
class GameLog:
    """A FreeDoko game log."""

    source: str
    version: str
    seed: int | None
    startplayer: int
    party: Party
    hands: tuple[tuple[Card, ...], ...]
    hands_line: int
    actions: tuple[Action, ...]
    summary: Summary | None
    played_on: str | None = None
    """The day the log was written (its `time:` line), as `2026-12-01`."""

    @property
    def players(self) -> tuple[str, ...]:
        return self.party.players


class FreeDokoFileError(SourceError):
    """A FreeDoko file that cannot be read: `file:line: what`."""


def is_game_log(text: str) -> bool:
    """Does the text look like a FreeDoko game log (a bug report with dealt hands)?"""
    head = text[:200].lstrip()
    return head.startswith("# FreeDoko Bugreport") or head.startswith("# FreeDoko bug report")


def is_party(text: str) -> bool:
    return text[:200].lstrip().startswith("#!FreeDoko")


def card_of(text: str) -> Card | None:
    """`club queen` → CQ; None for a text that names no card."""
    words = text.split()
    if len(words) != 2 or words[0] not in SUITS or words[1] not in RANKS:
        return None
    return Card(SUITS[words[0]], RANKS[words[1]])


def card_name(card: Card) -> str:
    """CQ → `club queen`, as FreeDoko writes it."""
    suit = next(k for k, v in SUITS.items() if v is card.suit)
    rank = next(k for k, v in RANKS.items() if v is card.rank)
    return f"{suit} {rank}"


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source

    def error(self, message: str | Message, line: int | None) -> FreeDokoFileError:
        return FreeDokoFileError(message, source=self.source, line=line or None)

    def need_block(self, parent: Block, name: str) -> Block:
        block = parent.block(name)
        if block is None:
            where = f"block {parent.name!r}" if parent.name else "the file"
            raise self.error(msg("{where} has no {name} block", where=where, name=repr(name)), parent.line)
        return block

    def need(self, block: Block, key: str) -> Entry:
        entry = block.entry(key)
        if entry is None:
            where = f"block {block.name!r}" if block.name else "the file"
            raise self.error(msg("{where} has no {key} line", where=where, key=repr(key)), block.line)
        return entry

    def number(self, entry: Entry, text: str | None = None) -> int:
        text = entry.value if text is None else text
        try:
            return int(text.strip())
        except ValueError:
            raise self.error(
                msg("{key}: {value} is not a whole number", key=entry.key, value=repr(text.strip())), entry.line
            ) from None

    def player(self, entry: Entry, text: str, *, optional: bool = False) -> int | None:
        text = text.strip()
        if optional and text == NONE:
            return None
        number = self.number(entry, text)
        if not 0 <= number < SEATS:
            raise self.error(
                msg("{key}: player {number} does not exist (players 0-3)", key=entry.key, number=number), entry.line
            )
        return number

    def card(self, text: str, line: int) -> Card:
        card = card_of(text)
        if card is None:
            raise self.error(
                msg("{value} is not a card (a suit and a value, like 'club queen')", value=repr(text.strip())), line
            )
        return card

    def cards(self, entry: Entry, texts: list[str]) -> tuple[Card, ...]:
        return tuple(self.card(t, entry.line) for t in texts)

    def players(self, block: Block) -> tuple[str, ...]:
        names = []
        for player in block.blocks(""):
            entry = self.need(player, "name")
            names.append(entry.value)
        if len(names) != SEATS:
            raise self.error(
                msg("{count} players; FreeDoko's Doppelkopf has {seats}", count=len(names), seats=SEATS), block.line
            )
        if len(set(names)) != SEATS:
            raise self.error(msg("two players have the same name"), block.line)
        return tuple(names)

    def party(self, block: Block) -> Party:
        rules = {e.key: e for e in self.need_block(block, "rules").entries()}
        players = self.players(self.need_block(block, "players"))
        summaries_block = block.block("game summaries")
        summaries = () if summaries_block is None else tuple(self.summary(s) for s in summaries_block.blocks(""))
        first_seed = block.entry("first seed")
        first_start = block.entry("first startplayer")
        return Party(
            rules,
            players,
            summaries,
            None if first_seed is None else self.number(first_seed),
            None if first_start is None else self.player(first_start, first_start.value),
        )

    def summary(self, block: Block, corpus: Block | None = None) -> Summary:
        def fields(key: str) -> tuple[Entry, list[str]]:
            entry = self.need(block, key)
            return entry, [f.strip() for f in entry.value.split(",")]

        seed = block.entry("seed")
        start = self.need(block, "startplayer number")
        solo = self.need(block, "soloplayer number")
        teams_entry, teams = fields("teams")
        points_entry, trick_points = fields("trick points")
        if len(teams) != SEATS or len(trick_points) != SEATS:
            raise self.error(msg("teams and trick points name {seats} players each", seats=SEATS), teams_entry.line)
        specials_block = block.block("special points")
        specials = () if specials_block is None else tuple(self.special(e) for e in specials_block.entries())
        swines = block.entry("swines player number")
        hyperswines = block.entry("hyperswines player number")
        player_points = bock = None
        if corpus is not None:
            entry = corpus.entry("player points")
            if entry is not None:
                player_points = tuple(self.number(entry, p) for p in entry.value.split(","))
            multiplier = corpus.entry("summary bock multiplier")
            bock = None if multiplier is None else self.number(multiplier)
        return Summary(
            line=block.line,
            seed=None if seed is None else self.number(seed),
            startplayer=self.player(start, start.value) or 0,
            soloplayer=self.player(solo, solo.value, optional=True),
            gametype=self.need(block, "gametype").value,
            teams=tuple(teams),
            highest_re=self.need(block, "highest announcement re").value,
            highest_contra=self.need(block, "highest announcement contra").value,
            trick_points=tuple(self.number(points_entry, p) for p in trick_points),
            winner=self.need(block, "winnerteam").value,
            points=self.number(self.need(block, "points")),
            specials=specials,
            swines_player=None if swines is None else self.player(swines, swines.value, optional=True),
            hyperswines_player=None
            if hyperswines is None
            else self.player(hyperswines, hyperswines.value, optional=True),
            player_points=player_points,
            bock_multiplier=bock,
        )

    def special(self, entry: Entry) -> SpecialPoint:
        parts = [p.strip() for p in entry.value.split(",")]
        if len(parts) != 5:
            raise self.error(
                msg(
                    "special point {key}: five fields expected, not {value}",
                    key=repr(entry.key),
                    value=repr(entry.value),
                ),
                entry.line,
            )
        team, counts_for, player, of_player, value = parts
        return SpecialPoint(
            entry.key,
            team,
            counts_for,
            self.player(entry, player, optional=True),
            self.player(entry, of_player, optional=True),
            self.number(entry, value),
            entry.line,
        )

    def hands(self, block: Block) -> tuple[tuple[Card, ...], ...]:
        hands: list[list[Card]] = []
        for text in block.texts():
            words = text.text.split()
            if words[0] == "player":
                if len(words) < 2 or words[1] != str(len(hands)):
                    raise self.error(
                        msg("expected the hand of player {count}, not {text}", count=len(hands), text=repr(text.text)),
                        text.line,
                    )
                hands.append([])
            elif hands and len(words) == 3:
                hands[-1].append(self.card(" ".join(words[1:]), text.line))
            else:
                raise self.error(
                    msg("{text} is neither a player nor a card of a hand", text=repr(text.text)), text.line
                )
        if len(hands) != SEATS:
            raise self.error(
                msg("{count} hands dealt; FreeDoko's Doppelkopf deals {seats}", count=len(hands), seats=SEATS),
                block.line,
            )
        return tuple(tuple(h) for h in hands)

    def action(self, entry: Entry) -> Action:
        value = entry.value
        if value.endswith(")") and "(" in value:  # FreeDoko's reason for a card: `(choose ace)`
            value = value[: value.rindex("(")].rstrip()
        fields = [f.strip() for f in value.split(",")] if value else []
        seat = None
        if fields and fields[0].lstrip("-").isdigit():
            seat = self.player(entry, fields[0])
            fields = fields[1:]
        return Action(entry.key, seat, tuple(fields), entry.line)

    def game_log(self, root: Block) -> GameLog:
        version = self.need(root, "version").value.split()[0]
        party = self.party(self.need_block(root, "party"))
        seed = root.entry("seed")
        start = self.need(root, "startplayer")
        dealt = self.need_block(root, "dealt hands")
        actions = root.block("gameplay actions")
        summary = root.block("game summary")
        return GameLog(
            source=self.source,
            version=version,
            seed=None if seed is None else self.number(seed),
            startplayer=self.player(start, start.value) or 0,
            party=party,
            hands=self.hands(dealt),
            hands_line=dealt.line,
            actions=() if actions is None else tuple(self.action(e) for e in actions.entries()),
            summary=None if summary is None else self.summary(summary, root.block("corpus")),
            played_on=_day(root.entry("time")),
        )


def _day(entry: Entry | None) -> str | None:
    """`Tue Dec  1 22:40:14 2026` → `2026-12-01` (None when there is no such line or it reads
    otherwise)."""
    if entry is None:
        return None
    try:
        return datetime.strptime(" ".join(entry.value.split()), "%a %b %d %H:%M:%S %Y").date().isoformat()
    except ValueError:
        return None


def loads_game(text: str, source: str = "<text>") -> GameLog:
    """A game log read from its text; a `FreeDokoFileError` naming the line of what is wrong."""
    reader = _Reader(source)
    if not is_game_log(text):
        raise reader.error(msg("not a FreeDoko game log (it starts with '# FreeDoko Bugreport')"), 1)
    return reader.game_log(parse_blocks(text, source))


def loads_party(text: str, source: str = "<text>") -> Party:
    """A party file read from its text."""
    reader = _Reader(source)
    if not is_party(text):
        raise reader.error(msg("not a FreeDoko party file (it starts with '#!FreeDoko')"), 1)
    return reader.party(parse_blocks(text, source))


def load_game(path: str | Path) -> GameLog:
    return loads_game(read_text(path), str(path))


def load_party(path: str | Path) -> Party:
    return loads_party(read_text(path), str(path))
