"""Per-player statistics over the whole ledger or one card night: games and wins, solos,
announcements (*Ansagen*), foxes (*Fuchs*), card points and score (docs/rules.md §6-§7, §9).

Every figure is folded from the log with the rules core's own results: each game is scored
by `score_game` under the rules it was played with, and a card night's deals count with the
night's bock multipliers, exactly as `doko standings` shows them. What counts as what:

- A game counts once it has ended: finished (or recorded by its facts), thrown in, or voided
  by a severe penalty. A game still being played is left out (`Stats.in_progress`).
- *Scored* games have a result (docs/rules.md §6); a deal thrown in (misdeal, poverty declined,
  an unscored duel marriage) or voided is played but *unscored*. Its penalty points, if any,
  still count in the total.
- A *win* is being in the party that won the game (§6), not a positive delta: a winner's net
  may be negative (§7), and when nobody wins a game is neither won nor lost. The win rate is
  wins per scored game; the average score is the total per game played (unscored ones too).
- The total is the sum of the player's points: the game's deltas with penalties, and in a
  card night the deal's row on the night's sheet (its bock applied, counted as the night
  counted at that deal: plus/minus, winners only or losers only), so a night's totals are its
  standings.
  A night's voided and replaced deals are left out; the correction counts instead.
- Solos are the games of a solo type (§4, the silent solo included) where the player was the
  soloist; a lone marriage is not a solo. Won and lost come from the scored ones; the points
  are the soloist's own.
- Announcements are the calls a player made (Re, Kontra, no 90 … schwarz, as said, a
  partner's repeated Re included); levels only implied by a skip or by the solo rule are not
  counted. One is *won* when the announcing party won the game.
- Foxes count only where the score counts them (not in a solo, §7). *Caught* is credited to
  the player who won the trick holding the other party's DA, *lost* to the DA's owner. A deal
  recorded by its facts names no trick winner, so its foxes count only as lost (and only
  where the sheet says from whom).
- Card points are the player's *party's* (Doppelkopf is a team game; a soloist's party is
  the soloist), averaged over the scored games; the player's own tricks' points are averaged
  over the scored games played card by card.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from doko_ledger.doppelkopf.book import card_nights
from doko_ledger.doppelkopf.cards import FUCHS
from doko_ledger.doppelkopf.events import GameStarted
from doko_ledger.doppelkopf.game.evolve import fold
from doko_ledger.doppelkopf.game.facts import NotScorable
from doko_ledger.doppelkopf.game.parties import Parties, true_parties
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.rules.announcements import Announcement, Party
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.scoring import SpecialKind
from doko_ledger.doppelkopf.score import GameScore, score_game
from doko_ledger.events.voiding import in_force
from doko_ledger.frozen import frozen
from doko_ledger.streams import GAME_PREFIX

if TYPE_CHECKING:
    from doko_ledger.doppelkopf.book import DoppelkopfBook
    from doko_ledger.doppelkopf.nights.night import Night
    from doko_ledger.games import Game
    from doko_ledger.store.base import EventStore


class Ledger(Protocol):
    """What the statistics read of a ledger: its log and its Doppelkopf book."""

    @property
    def store(self) -> EventStore: ...

    def book_of(self, game: Game[DoppelkopfBook]) -> DoppelkopfBook: ...


__all__ = ["AnnouncementStats", "PlayerStats", "SoloStats", "Stats", "ledger_stats", "player_stats", "stats_view"]

CARD_POINTS = 240


@frozen
class SoloStats:
    """One player's solos of one type: played, won, lost (the rest: voided or nobody won),
    and the soloist's points from them."""

    game_type: GameType
    played: int
    won: int
    lost: int
    points: int


@frozen
class AnnouncementStats:
    """How often a player made one announcement, and how often their party then won."""

    announcement: Announcement
    made: int
    won: int


@frozen
class PlayerStats:
    """One player's figures (see the module docstring for what counts as what)."""

    player: str
    games: int
    scored: int
    wins: int
    losses: int
    total: int
    solos: tuple[SoloStats, ...]
    announcements: tuple[AnnouncementStats, ...]
    foxes_caught: int
    foxes_lost: int
    party_points: int
    party_point_games: int
    own_points: int
    own_point_games: int

    @property
    def unscored(self) -> int:
        return self.games - self.scored

    @property
    def win_rate(self) -> float | None:
        """Wins per scored game; None without one."""
        return self.wins / self.scored if self.scored else None

    @property
    def average_score(self) -> float | None:
        """Points per game played; None without one."""
        return self.total / self.games if self.games else None

    @property
    def average_party_points(self) -> float | None:
        return self.party_points / self.party_point_games if self.party_point_games else None

    @property
    def average_own_points(self) -> float | None:
        return self.own_points / self.own_point_games if self.own_point_games else None

    @property
    def solos_played(self) -> int:
        return sum(s.played for s in self.solos)

    @property
    def solos_won(self) -> int:
        return sum(s.won for s in self.solos)

    @property
    def solos_lost(self) -> int:
        return sum(s.lost for s in self.solos)

    @property
    def solo_points(self) -> int:
        return sum(s.points for s in self.solos)

    @property
    def announcements_made(self) -> int:
        return sum(a.made for a in self.announcements)

    @property
    def announcements_won(self) -> int:
        return sum(a.won for a in self.announcements)


@frozen
class Stats:
    """The statistics of the ledger (`session_id` None) or of one card night: the games
    counted, how many of them are unscored, the games left out as still being played, and
    one entry per player, highest total first."""

    session_id: str | None
    games: int
    unscored: int
    in_progress: int
    players: tuple[PlayerStats, ...]


# -- folding ----------------------------------------------------------------------------


@dataclass(slots=True)
class _Tally:
    """A player's running figures while the games are folded."""

    games: int = 0
    scored: int = 0
    wins: int = 0
    losses: int = 0
    total: int = 0
    solos: dict[GameType, list[int]] = field(default_factory=dict)  # played, won, lost, points
    calls: dict[Announcement, list[int]] = field(default_factory=dict)  # made, won
    foxes_caught: int = 0
    foxes_lost: int = 0
    party_points: int = 0
    party_point_games: int = 0
    own_points: int = 0
    own_point_games: int = 0

    def freeze(self, player: str) -> PlayerStats:
        return PlayerStats(
            player=player,
            games=self.games,
            scored=self.scored,
            wins=self.wins,
            losses=self.losses,
            total=self.total,
            solos=tuple(SoloStats(t, *self.solos[t]) for t in GameType if t in self.solos),
            announcements=tuple(AnnouncementStats(a, *self.calls.get(a, (0, 0))) for a in Announcement),
            foxes_caught=self.foxes_caught,
            foxes_lost=self.foxes_lost,
            party_points=self.party_points,
            party_point_games=self.party_point_games,
            own_points=self.own_points,
            own_point_games=self.own_point_games,
        )


@dataclass(slots=True)
class _Fold:
    """The tallies of every player, and the games counted so far."""

    tallies: dict[str, _Tally] = field(default_factory=dict)
    games: int = 0
    unscored: int = 0
    in_progress: int = 0

    def tally(self, player: str) -> _Tally:
        found = self.tallies.get(player)
        if found is None:
            found = self.tallies[player] = _Tally()
        return found

    def add(self, state: GameState, deltas: Mapping[str, int] | None = None) -> None:
        """Add one game; `deltas` (a night's, bock included) replace the game's own points."""
        if not (state.finished or state.abandoned is not None or state.void):
            self.in_progress += 1
            return
        try:
            result: GameScore | None = score_game(state)
        except NotScorable:  # ended, but the record does not show every party: played, unscored
            result = None
        score = None if result is None else result.score
        points = deltas if deltas is not None else ({} if result is None else result.by_player)
        players = state.players
        self.games += 1
        self.unscored += score is None
        parties: Parties = true_parties(state) if score is not None else (None,) * len(players)
        if score is not None and state.valued is not None:  # by its value: who won, no card points
            parties = state.valued.sides()
        by_cards = score is not None and state.valued is None
        winner = None if score is None else score.winner
        re_points = _re_points(state, parties) if by_cards else None
        own = state.points_won() if by_cards and state.summary is None else None
        for seat, name in enumerate(players):
            tally = self.tally(name)
            tally.games += 1
            tally.total += points.get(name, 0)
            if score is None:
                continue
            tally.scored += 1
            party = parties[seat]
            if winner is not None and party is not None:
                tally.wins += party is winner
                tally.losses += party is not winner
            if re_points is not None and party is not None:
                tally.party_points += re_points if party is Party.RE else CARD_POINTS - re_points
                tally.party_point_games += 1
            if own is not None:
                tally.own_points += own[seat]
                tally.own_point_games += 1
        game_type, soloist = state.game_type, state.declarer
        if game_type is not None and game_type.is_solo and soloist is not None:
            name = players[soloist]
            row = self.tally(name).solos.setdefault(game_type, [0, 0, 0, 0])
            row[0] += 1
            if winner is not None:
                row[1] += winner is Party.RE
                row[2] += winner is Party.KONTRA
            row[3] += points.get(name, 0)
        for seat, announcement, party in _calls(state):
            made = self.tally(players[seat]).calls.setdefault(announcement, [0, 0])
            made[0] += 1
            made[1] += winner is not None and winner is party
        if score is not None and any(line.special and line.item == _FOX for line in score.lines):
            for caught_by, caught_from in _foxes(state, parties):
                if caught_by is not None:
                    self.tally(players[caught_by]).foxes_caught += 1
                if caught_from is not None:
                    self.tally(players[caught_from]).foxes_lost += 1

    def add_night(self, night: Night) -> None:
        """Add a card night's deals in force, each with its row on the night's sheet (bock
        included, counted as the night counted it at that deal)."""
        for row in night.schedule().rows:
            self.add(night.games[row.game_id], row.sheet)

    def result(self, session_id: str | None, players: Iterable[str] = ()) -> Stats:
        for player in players:
            self.tally(player)
        table = sorted(
            (t.freeze(p) for p, t in self.tallies.items()), key=lambda s: (-s.total, -s.wins, s.player.casefold())
        )
        return Stats(session_id, self.games, self.unscored, self.in_progress, tuple(table))


_FOX = SpecialKind.FOX_CAUGHT.label


def _re_points(state: GameState, parties: Parties) -> int:
    """Re's card points: from the summary, else from the tricks each Re player won."""
    if state.summary is not None:
        return state.summary.re_points
    won = state.points_won()
    return sum(won[s] for s, p in enumerate(parties) if p is Party.RE)


def _calls(state: GameState) -> list[tuple[int, Announcement, Party]]:
    """(seat, announcement, party) of every call made, in order, as recorded."""
    summary = state.summary
    if summary is None:
        return [(c.seat, c.announcement, c.party) for c in state.calls]
    return [
        (c.seat, c.announcement, Party.RE if c.seat in summary.re_seats else Party.KONTRA)
        for c in summary.announcements
    ]


def _foxes(state: GameState, parties: Parties) -> list[tuple[int | None, int | None]]:
    """(who caught it, whose DA it was) for every fox caught (docs/rules.md §7): the trick's winner
    and the DA's owner; a summary knows only the owner, where recorded."""
    summary = state.summary
    if summary is not None:
        return [(None, s.caught_from) for s in summary.specials if s.kind is SpecialKind.FOX_CAUGHT]
    out: list[tuple[int | None, int | None]] = []
    for trick in state.tricks:
        if trick.winner is None:
            continue
        side = parties[trick.winner]
        for seat, card in trick.plays:
            if card is FUCHS and side is not None and parties[seat] is not side:
                out.append((trick.winner, seat))
    return out


# -- the API ----------------------------------------------------------------------------


def ledger_stats(ledger: Ledger, session_id: str | None = None) -> Stats:
    """The statistics of every game in the ledger, or of one card night's deals.

    `session_id` names a night by its id or a unique prefix; `NightNotFound` (a `DokoError`)
    when it names none. Reads the log (not the read models) in one pass over the game streams.
    """
    if session_id is not None:
        resolved = card_nights(ledger).resolve(session_id)
        night = card_nights(ledger).night(resolved)
        tally = _Fold()
        tally.add_night(night)
        return tally.result(resolved, night.state.everyone)
    tally = _Fold()
    taken: set[str] = set()
    for sid in card_nights(ledger).session_ids():
        night = card_nights(ledger).night(sid)
        taken.update(night.games)  # deals in force, voided and replaced: counted here or never
        tally.add_night(night)
    for stream in ledger.store.iter_stream_events(GAME_PREFIX):
        if stream.stream[len(GAME_PREFIX) :] in taken or not isinstance(stream.events[0], GameStarted):
            continue  # a card night's deal, or another game's (Dou Dizhu)
        tally.add(fold(in_force(stream.events)))
    return tally.result(None)


def player_stats(ledger: Ledger, session_id: str | None = None) -> list[PlayerStats]:
    """Each player's statistics, highest total first (see `ledger_stats`)."""
    return list(ledger_stats(ledger, session_id).players)


# -- plain data for scripts ---------------------------------------------------------------


def _ratio(value: float | None, digits: int = 2) -> float | None:
    return None if value is None else round(value, digits)


def player_view(p: PlayerStats) -> dict[str, Any]:
    return {
        "player": p.player,
        "games": p.games,
        "scored": p.scored,
        "unscored": p.unscored,
        "wins": p.wins,
        "losses": p.losses,
        "win_rate": _ratio(p.win_rate, 4),
        "total": p.total,
        "average_score": _ratio(p.average_score),
        "solos": {
            "played": p.solos_played,
            "won": p.solos_won,
            "lost": p.solos_lost,
            "points": p.solo_points,
            "by_type": {
                s.game_type.value: {"played": s.played, "won": s.won, "lost": s.lost, "points": s.points}
                for s in p.solos
            },
        },
        "announcements": {
            "made": p.announcements_made,
            "won": p.announcements_won,
            "by_kind": {a.announcement.value: {"made": a.made, "won": a.won} for a in p.announcements},
        },
        "foxes": {"caught": p.foxes_caught, "lost": p.foxes_lost},
        "card_points": {
            "party_total": p.party_points,
            "party_games": p.party_point_games,
            "party_average": _ratio(p.average_party_points),
            "own_total": p.own_points,
            "own_games": p.own_point_games,
            "own_average": _ratio(p.average_own_points),
        },
    }


def stats_view(stats: Stats) -> dict[str, Any]:
    """The statistics for scripts (`doko stats --json`)."""
    return {
        "session": stats.session_id,
        "games": stats.games,
        "unscored": stats.unscored,
        "in_progress": stats.in_progress,
        "players": [player_view(p) for p in stats.players],
    }
