"""A doko score as FreeDoko's game summary: the teams, the trick points, the winner, the game's
value and its special points in FreeDoko's names, each with the team it is about, the team it
counts for, the player who got it and the player it was got from.

Nothing is scored here: every special point is a line of doko's own derivation (`score_game`),
renamed. A line FreeDoko has no name for refuses the export, naming the line.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from doko_ledger.doppelkopf.files.freedoko.log import NONE
from doko_ledger.doppelkopf.files.freedoko.write_rules import FreeDokoExportError
from doko_ledger.doppelkopf.game.parties import Announced, announced, party_calls
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.rules.announcements import DENIALS, Party
from doko_ledger.doppelkopf.rules.counting import sheet_points
from doko_ledger.doppelkopf.rules.scoring import ScoreLine, Special, SpecialKind
from doko_ledger.doppelkopf.score import GameScore
from doko_ledger.frozen import frozen
from doko_ledger.i18n import msg

TEAMS = {Party.RE: "re", Party.KONTRA: "contra"}
NO_TEAM = "no team"
LEVELS = ("no 120", "no 90", "no 60", "no 30", "no 0")
"""FreeDoko's announcements by doko's level (0 Re/Kontra … 4 schwarz)."""
NO_ANNOUNCEMENT = "no announcement"
REPLY = "reply"

SPECIAL_NAMES: dict[SpecialKind, str] = {
    SpecialKind.FOX_CAUGHT: "caught fox",
    SpecialKind.KARLCHEN: "charlie",
    SpecialKind.KARLCHEN_CAPTURED: "caught charlie",
    SpecialKind.DOPPELKOPF: "Doppelkopf",
    SpecialKind.FOX_LAST_TRICK: "fox last trick",
    SpecialKind.FOX_CAUGHT_LAST_TRICK: "caught fox last trick",
    SpecialKind.DULLE_CAUGHT_DULLE: "dolle caught dolle",
    SpecialKind.HEART_TRICK: "heart trick",
}
"""Doko's special points by FreeDoko's names: one line each."""

_DENIAL = {denial.label: LEVELS[denial.level] for denial in DENIALS}
_PARTY = {party.title: party for party in Party}
_SPECIAL_BY_LABEL = {kind.label: kind for kind in SpecialKind}


@frozen
class SpecialPoint:
    """A line of FreeDoko's special points."""

    name: str
    team: Party
    counts_for: Party
    player: int | None
    of_player: int | None
    value: int
    multiplies: bool = False
    """FreeDoko's `no 120 said` when Re and Kontra double: shown as `*2`, not added."""

    def line(self) -> str:
        return (
            f"{self.name} = {TEAMS[self.team]}, {TEAMS[self.counts_for]}, "
            f"{_seat(self.player)}, {_seat(self.of_player)}, {self.value}"
        )


def _seat(seat: int | None) -> str:
    return NONE if seat is None else str(seat)


class _Lines:
    """Doko's derivation lines turned into FreeDoko's special points."""

    def __init__(self, state: GameState, winner: Party | None) -> None:
        self.state = state
        self.winner = winner
        self.said = announced(state)
        self.rows: list[tuple[re.Pattern[str], Callable[[ScoreLine, re.Match[str]], SpecialPoint | None]]] = [
            (re.compile(r"won"), lambda line, m: self.plain("won", line)),
            (re.compile(r"against the old ones"), lambda line, m: self.plain("contra won", line)),
            (re.compile(r"(Re|Kontra) announced(: doubles)?"), self.party_call),
            (re.compile(r"(Re|Kontra) below (90|60|30)"), lambda line, m: self.plain(f"no {m[2]}", line)),
            (re.compile(r"(Re|Kontra) no trick"), lambda line, m: self.plain("no 0", line)),
            (re.compile(r"(no 90|no 60|no 30|schwarz) announced by (Re|Kontra)"), self.denial),
            (re.compile(r"(\d+) reached against (Re|Kontra)'s (.+)"), self.reached),
            (re.compile(r"(Re|Kontra)'s goal: .*"), lambda line, m: None),
            (re.compile(r"bock x(\d+)"), self.bock),
        ]

    def special_points(self, lines: tuple[ScoreLine, ...]) -> list[SpecialPoint]:
        out = []
        for line in lines:
            point = self.special(line) if line.item in _SPECIAL_BY_LABEL else self.derived(line)
            if point is not None:
                out.append(point)
        return out

    def derived(self, line: ScoreLine) -> SpecialPoint | None:
        for pattern, make in self.rows:
            match = pattern.fullmatch(line.item)
            if match is not None:
                return make(line, match)
        raise FreeDokoExportError(msg("the score's line {item} has no FreeDoko special point", item=repr(line.item)))

    def plain(self, name: str, line: ScoreLine) -> SpecialPoint:
        party = _party_of(line)
        return SpecialPoint(name, party, party, None, None, line.points)

    def party_call(self, line: ScoreLine, match: re.Match[str]) -> SpecialPoint:
        team = _PARTY[match[1]]
        doubling = match[2] is not None
        value = 2 if doubling else line.points
        return SpecialPoint("no 120 said", team, _party_of(line), None, self.announcer(team, 0), value, doubling)

    def denial(self, line: ScoreLine, match: re.Match[str]) -> SpecialPoint:
        team = _PARTY[match[2]]
        level = LEVELS.index(_DENIAL[match[1]])
        return SpecialPoint(f"{LEVELS[level]} said", team, _party_of(line), None, self.announcer(team, level), 1)

    def reached(self, line: ScoreLine, match: re.Match[str]) -> SpecialPoint:
        party = _party_of(line)
        name = f"got {match[1]} against {_DENIAL[match[3]]}"
        return SpecialPoint(name, party, party, None, None, line.points)

    def bock(self, line: ScoreLine, match: re.Match[str]) -> SpecialPoint:
        """The bock round's multiplier: FreeDoko multiplies the game's points by it, as doko does."""
        team = self.winner or Party.RE
        return SpecialPoint("bock", team, team, None, None, int(match[1]), multiplies=True)

    def announcer(self, team: Party, level: int) -> int | None:
        said: Announced | None = next((a for a in self.said if a.party is team and a.announcement.level == level), None)
        return None if said is None else said.seat

    def special(self, line: ScoreLine) -> SpecialPoint:
        kind = _SPECIAL_BY_LABEL.get(line.item)
        name = None if kind is None else SPECIAL_NAMES.get(kind)
        if name is None:
            raise FreeDokoExportError(msg("the special point {item} has no FreeDoko name", item=repr(line.item)))
        party = _party_of(line)
        winner, victim = self.trick_seats(line.earned)
        return SpecialPoint(name, party, party, winner, victim, line.points)

    def trick_seats(self, earned: Special | None) -> tuple[int | None, int | None]:
        """The winner of the trick that earned a special point and, for a card caught, whose
        card it was (None, None: recorded without cards)."""
        if earned is None or earned.trick is None:
            return None, None
        return self.state.tricks[earned.trick - 1].winner, earned.from_seat


def _party_of(line: ScoreLine) -> Party:
    if line.party is None:
        raise FreeDokoExportError(msg("the score's line {item} is no party's", item=repr(line.item)))
    return line.party


def highest(state: GameState, party: Party, replied: bool) -> str:
    """A party's highest announcement in FreeDoko's words; `reply` for a Re or Kontra said only
    as a late answer."""
    level = party_calls(state)[party].level
    if level < 0:
        return NO_ANNOUNCEMENT
    return REPLY if replied and level == 0 else LEVELS[level]


@frozen
class SummaryFacts:
    """What the summary says besides the score: the game type's and players' part in it."""

    seed: int
    startplayer: int
    soloplayer: int | None
    gametype: str
    swines: int | None
    teams: tuple[Party, ...]
    highest_re: str
    highest_contra: str


def summary_lines(state: GameState, game: GameScore, facts: SummaryFacts) -> list[str]:
    """The `game summary`, `special points` and `corpus` blocks."""
    result = game.score
    if result is None:
        raise FreeDokoExportError(msg("a game without a score has no FreeDoko summary"))
    points = _Lines(state, result.winner).special_points(result.lines)
    if result.lone and result.winner is Party.RE:  # shown, not added: the soloist's three shares
        points.append(SpecialPoint("solo", Party.RE, Party.RE, None, facts.soloplayer, 3))
    winner = NO_TEAM if result.winner is None else TEAMS[result.winner]
    won = state.points_won()
    summary = [
        "game summary",
        "{",
        f"seed = {facts.seed}",
        "players number = 4",
        f"startplayer number = {facts.startplayer}",
        f"soloplayer number = {_seat(facts.soloplayer)}",
        f"gametype = {facts.gametype}",
        "duty solo = 0",
        f"swines player number = {_seat(facts.swines)}",
        f"hyperswines player number = {NONE}",
        "teams = " + ", ".join(TEAMS[t] for t in facts.teams),
        f"highest announcement re = {facts.highest_re}",
        f"highest announcement contra = {facts.highest_contra}",
        "trick points = " + ", ".join(str(p) for p in won),
        f"winnerteam = {winner}",
        f"points = {result.value}",
        "special points",
        "{",
        *(p.line() for p in points),
        "}",
        "}",
        "special points",
        "{",
        "\tteam\tvalue\tdescription:",
        *(f"\t{TEAMS[p.counts_for]}\t{'*' if p.multiplies else ''}{p.value}\t{p.name}" for p in points),
        f"\t= {result.value}",
        "}",
    ]
    row = sheet_points(game.by_player, state.rules.counting)
    player_points = ", ".join(str(row[name]) for name in state.players)
    re_points = sum(p for p, team in zip(won, facts.teams, strict=True) if team is Party.RE)
    corpus = [
        "corpus",
        "{",
        "gameno = 0",
        "roundno = 0",
        "is duty soli round = 0",
        "next game bock multiplier = 1",
        f"summary bock multiplier = {1 if game.bock is None else game.bock.multiplier}",
        f"game points = {result.value}",
        f"re trick points = {re_points}",
        f"contra trick points = {240 - re_points}",
        f"player points = {player_points}",
        "player names = " + ", ".join(state.players),
        f"party points = {player_points}",
        "}",
    ]
    return summary + corpus
