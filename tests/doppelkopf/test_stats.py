"""`doko stats`: per-player statistics over the ledger or one card night.

The figures are checked against numbers worked out by hand from the sample games' tricks
(their trick comments name leader, winner and card points) and, for the card nights, from
the per-deal results the session files write in their comments. The CLI is tested through a
small local Typer app with the command registered the way `cli/app.py` registers it, and
through the real `doko` app (the last needs `stats.register(app)` in `cli/app.py`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner, Result

from doko_ledger.cli import stats as stats_cli
from doko_ledger.cli.common import DbOption, _Group
from doko_ledger.doppelkopf.book import card_nights
from doko_ledger.doppelkopf.files import game_file
from doko_ledger.doppelkopf.files import night_file as session_file
from doko_ledger.doppelkopf.nights.book import NightNotFound
from doko_ledger.doppelkopf.rules.announcements import Announcement
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.stats import PlayerStats, Stats, ledger_stats, player_stats, stats_view
from doko_ledger.ledger import Ledger

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"
SESSIONS = sorted((SAMPLES / "sessions").glob("*.yaml"))
KITCHEN = "2026-11-28-kitchen"
VEREIN = "2026-12-05-verein-abend"

FOX_AND_KARLCHEN = "29-fox-and-karlchen.yaml"
CLUB_SOLO = "05-club-solo.yaml"
KONTRA_REPLY = "22-kontra-reply.yaml"
MISDEAL = "20-misdeal.yaml"
QUEEN_SOLO_SUMMARY = "32-summary-queen-solo.yaml"

CLI_ENV = {"COLUMNS": "120", "NO_COLOR": "1", "DOKO_USER": "tester", "TERM": "dumb"}


# -- helpers ---------------------------------------------------------------------------


def build(path: Path, *files: Path) -> Path:
    """A ledger at `path` holding the given game files and session files."""
    with Ledger.open(path, create=True) as ledger:
        games = []
        for file in files:
            if session_file.is_session_text(file.read_text(encoding="utf-8")):
                card_nights(ledger).import_night(
                    session_file.read_file(file).night, by="test", at="2026-12-01T00:00:00"
                )
            else:
                games.append((str(file), game_file.read_file(file)))
        report = ledger.import_games(games, recorded_by="test", recorded_at="2026-12-01T00:00:00")
        assert not report.refused
    return path


@pytest.fixture
def ledger_of(tmp_path: Path) -> Iterator[Callable[..., Ledger]]:
    """Open a fresh ledger holding the named sample games (names relative to sample_games/)."""
    opened: list[Ledger] = []

    def make(*names: str | Path) -> Ledger:
        path = build(tmp_path / f"stats-{len(opened)}.sqlite", *(SAMPLES / n for n in names))
        ledger = Ledger.open(path)
        opened.append(ledger)
        return ledger

    yield make
    for ledger in opened:
        ledger.close()


def by_player(stats: Stats | list[PlayerStats]) -> dict[str, PlayerStats]:
    players = stats.players if isinstance(stats, Stats) else stats
    return {p.player: p for p in players}


def calls(p: PlayerStats) -> dict[str, tuple[int, int]]:
    """(made, won) per announcement the player made."""
    return {a.announcement.value: (a.made, a.won) for a in p.announcements if a.made}


def deals_from_comments(path: Path) -> tuple[list[str], list[tuple[set[str], dict[str, int]]]]:
    """A session file's players, and per deal the players at the table and their points, read
    from the comment the file writes after each deal (`# 3: Clara deals, ..., Anna -8 Ben +24`)."""
    text = path.read_text(encoding="utf-8")
    players = re.search(r"^players: \[(.*)\]$", text, flags=re.M)
    assert players is not None
    names = [n.strip() for n in players.group(1).split(",")]
    deals = []
    for line in text.splitlines():
        if not line.startswith("  - {"):
            continue
        comment = line.split("#", 1)[1]
        points = {name: int(value) for name, value in re.findall(r"\b([A-Z][a-z]+) ([+-]\d+)\b", comment)}
        out = re.search(r"\b([A-Z][a-z]+) deals and sits out\b", comment)
        table = set(points) or {n for n in names if out is None or n != out.group(1)}
        deals.append((table, points))
    return names, deals


# -- hand-picked games -------------------------------------------------------------------


def test_a_fox_caught_is_credited_to_the_trick_winner_and_lost_by_the_owner(ledger_of: Callable[..., Ledger]) -> None:
    # Re: Ben and Clara (the CQ). Trick 8: Anna's DA goes to Dirk, her own party: no fox.
    # Trick 12: Clara's DA, won by Dirk with CJ: a fox caught and the Karlchen for Kontra.
    # Card points from the trick comments: Anna 19+9 = 28, Ben 10, Clara 19+22+11+25 = 77,
    # Dirk 15+28+31+27+24 = 125; Re 87, Kontra 153. Kontra wins: 1 + against the old ones 1
    # + Re below 90 1 = 3, plus fox and Karlchen 2: 5 each.
    stats = by_player(ledger_stats(ledger_of(FOX_AND_KARLCHEN)))
    assert {n: (p.foxes_caught, p.foxes_lost) for n, p in stats.items()} == {
        "Anna": (0, 0),
        "Ben": (0, 0),
        "Clara": (0, 1),
        "Dirk": (1, 0),
    }
    assert {n: p.total for n, p in stats.items()} == {"Anna": 5, "Ben": -5, "Clara": -5, "Dirk": 5}
    assert {n: (p.wins, p.losses) for n, p in stats.items()} == {
        "Anna": (1, 0),
        "Ben": (0, 1),
        "Clara": (0, 1),
        "Dirk": (1, 0),
    }
    assert {n: p.own_points for n, p in stats.items()} == {"Anna": 28, "Ben": 10, "Clara": 77, "Dirk": 125}
    assert {n: p.party_points for n, p in stats.items()} == {"Anna": 153, "Ben": 87, "Clara": 87, "Dirk": 153}
    assert all(p.games == p.scored == 1 and p.win_rate in (0.0, 1.0) for p in stats.values())
    assert all(not p.solos and not p.announcements_made for p in stats.values())


def test_a_lost_solo_counts_for_the_soloist_and_a_da_taken_in_a_solo_is_no_fox(
    ledger_of: Callable[..., Ledger],
) -> None:
    # Anna's club solo: she wins tricks 4 (8) and 7 (18), 26 card points. Kontra wins:
    # 1 + below 90, 60, 30 = 4 (no "against the old ones" in a solo); Anna -12, the others +4.
    # Trick 10 holds Anna's DA and goes to Clara, but a solo has no special points (§7).
    stats = by_player(player_stats(ledger_of(CLUB_SOLO)))
    anna = stats["Anna"]
    assert (anna.solos_played, anna.solos_won, anna.solos_lost, anna.solo_points) == (1, 0, 1, -12)
    (solo,) = anna.solos
    assert (solo.game_type, solo.played, solo.won, solo.lost, solo.points) == (GameType.CLUB_SOLO, 1, 0, 1, -12)
    assert (anna.wins, anna.losses, anna.total, anna.party_points, anna.own_points) == (0, 1, -12, 26, 26)
    for name in ("Ben", "Clara", "Dirk"):
        assert (stats[name].wins, stats[name].total, stats[name].party_points) == (1, 4, 214)
        assert not stats[name].solos
    assert stats["Clara"].own_points == 28 + 28
    assert all(p.foxes_caught == p.foxes_lost == 0 for p in stats.values())


def test_announcements_count_what_each_player_said_and_whether_the_party_won(
    ledger_of: Callable[..., Ledger],
) -> None:
    # Dirk says Re in trick 1, Clara Kontra in trick 2. Re (Anna, Dirk: the CQ) take
    # 17+19+26+15 + 29+31+12 = 149 and win: 1 + Re 2 + Kontra 2 = 5; Kontra's fox (Ben takes
    # Anna's DA in trick 2) counts 1 against: 4 each.
    stats = by_player(ledger_stats(ledger_of(KONTRA_REPLY)))
    assert {n: calls(p) for n, p in stats.items()} == {
        "Anna": {},
        "Ben": {},
        "Clara": {"kontra": (1, 0)},
        "Dirk": {"re": (1, 1)},
    }
    assert [a.announcement for a in stats["Dirk"].announcements] == list(Announcement)
    assert {n: p.total for n, p in stats.items()} == {"Anna": 4, "Ben": -4, "Clara": -4, "Dirk": 4}
    assert (stats["Ben"].foxes_caught, stats["Anna"].foxes_lost) == (1, 1)
    assert stats["Dirk"].party_points == 149 and stats["Clara"].party_points == 91


def test_a_summarized_solo_with_its_announcements(ledger_of: Callable[..., Ledger]) -> None:
    # Ilse's queen solo from the score sheet, Re and no 90, 187 card points (Kontra 53): won 1
    # + Re 2 + no 90 announced 1 + Kontra below 90 1 + below 60 1 = 6; three times for her.
    stats = by_player(ledger_stats(ledger_of(QUEEN_SOLO_SUMMARY)))
    ilse = stats["Ilse"]
    assert (ilse.solos_played, ilse.solos_won, ilse.solo_points, ilse.total) == (1, 1, 18, 18)
    assert calls(ilse) == {"re": (1, 1), "no90": (1, 1)}
    assert (ilse.party_points, ilse.own_point_games, ilse.average_own_points) == (187, 0, None)
    assert all(stats[n].total == -6 and stats[n].party_points == 53 for n in ("Greta", "Hannes", "Karl"))


def test_a_misdeal_is_played_but_unscored(ledger_of: Callable[..., Ledger]) -> None:
    stats = ledger_stats(ledger_of(MISDEAL, FOX_AND_KARLCHEN))
    assert (stats.games, stats.unscored, stats.in_progress) == (2, 1, 0)
    greta = by_player(stats)["Greta"]
    assert (greta.games, greta.scored, greta.unscored, greta.total) == (1, 0, 1, 0)
    assert (greta.win_rate, greta.average_score, greta.average_party_points) == (None, 0.0, None)


def test_a_game_still_being_played_is_left_out(tmp_path: Path, write_game: Callable[..., Path]) -> None:
    path = build(tmp_path / "l.sqlite", write_game(11, tricks=5), write_game(12))
    with Ledger.open(path) as ledger:
        stats = ledger_stats(ledger)
    assert (stats.games, stats.in_progress) == (1, 1)
    assert all(p.games == 1 for p in stats.players)


# -- whole samples and card nights ---------------------------------------------------------


def test_the_whole_ledger_adds_up(ledger_of: Callable[..., Ledger]) -> None:
    names = sorted(p.name for p in SAMPLES.glob("*.yaml"))
    stats = ledger_stats(ledger_of(*names, *SESSIONS))
    nights = [deals_from_comments(p)[1] for p in SESSIONS]
    assert stats.games == len(names) + sum(len(deals) for deals in nights)
    assert sum(p.total for p in stats.players) == 0
    assert sum(p.foxes_caught for p in stats.players) <= sum(p.foxes_lost for p in stats.players)
    assert [p.total for p in stats.players] == sorted((p.total for p in stats.players), reverse=True)
    for p in stats.players:
        assert p.wins + p.losses <= p.scored <= p.games
        assert p.announcements_won <= p.announcements_made
        assert p.solos_won + p.solos_lost <= p.solos_played


@pytest.mark.parametrize("path", SESSIONS, ids=lambda p: p.stem)
def test_a_card_night_matches_its_deals(ledger_of: Callable[..., Ledger], path: Path) -> None:
    names, deals = deals_from_comments(path)
    session_id = session_file.read_file(path).night.state.session_id
    stats = ledger_stats(ledger_of(*SESSIONS, FOX_AND_KARLCHEN, CLUB_SOLO), session_id)
    assert stats.session_id == session_id
    assert stats.games == len(deals)
    assert sorted(by_player(stats)) == sorted(names)
    for name, p in by_player(stats).items():
        mine = [points for table, points in deals if name in table]
        assert p.games == len(mine), name
        assert p.scored == sum(1 for points in mine if points), name
        assert p.total == sum(points[name] for points in mine if points), name
        assert p.wins == sum(1 for points in mine if points.get(name, 0) > 0), name
        assert p.losses == sum(1 for points in mine if points.get(name, 0) < 0), name


def test_a_card_night_counts_with_its_bock_rounds_and_summarized_specials(ledger_of: Callable[..., Ledger]) -> None:
    ledger = ledger_of(*SESSIONS)
    kitchen = by_player(ledger_stats(ledger, KITCHEN))
    standings = {s.player: s.total for s in card_nights(ledger).standings(KITCHEN).table}
    assert {n: p.total for n, p in kitchen.items()} == standings == {"Anna": -16, "Ben": 0, "Clara": -8, "Dirk": 24}
    # Dirk's heart solo (deal 3) in a bock round: +12 doubled.
    (solo,) = kitchen["Dirk"].solos
    assert (solo.game_type, solo.won, solo.points) == (GameType.HEART_SOLO, 1, 24)
    # Foxes from the sheet: caught from Clara (deal 1) and from Ben (deal 10); who won the
    # trick is not written down, so nobody is credited with catching them.
    assert {n: (p.foxes_caught, p.foxes_lost) for n, p in kitchen.items()} == {
        "Anna": (0, 0),
        "Ben": (0, 1),
        "Clara": (0, 1),
        "Dirk": (0, 0),
    }
    # Calls: Ben re (1, won), Clara re (6, won), Dirk no90 (6, won) and re (3), Anna
    # kontra (9, Ben and Dirk win it at 120) and re (10, won), Dirk kontra (14, lost), Ben
    # kontra (16, won: Clara and Dirk took 109).
    assert {n: calls(p) for n, p in kitchen.items()} == {
        "Anna": {"re": (1, 1), "kontra": (1, 0)},
        "Ben": {"re": (2, 2), "kontra": (1, 1)},
        "Clara": {"re": (2, 2)},
        "Dirk": {"re": (1, 1), "kontra": (1, 0), "no90": (1, 1)},
    }


def test_a_night_without_its_voided_and_replaced_deals(cli: Callable[..., Result], ledger_path: Path) -> None:
    def ok(*args: str) -> None:
        result = cli(*args)
        assert result.exit_code == 0, result.output

    ok("session", "start", "n", "--players", "Anna,Ben,Clara,Dirk")
    ok("record", "--re", "Anna,Clara", "--re-points", "150", "--yes")  # n-01, voided below
    ok("record", "--game", "club_solo", "--re", "Ben", "--re-points", "100", "--yes")  # n-02
    ok("undo", "-y")  # n-02 voided
    ok("correct", "n-01", "--re", "Ben,Dirk", "--re-points", "130", "--yes")  # n-01-c1: Re wins, +1
    with Ledger.open(ledger_path) as ledger:
        whole, night = ledger_stats(ledger), ledger_stats(ledger, "n")
        standings = {s.player: s.total for s in card_nights(ledger).standings("n").table}
    assert whole.games == night.games == 1
    assert {p.player: p.total for p in whole.players} == {p.player: p.total for p in night.players} == standings
    assert standings == {"Anna": -1, "Ben": 1, "Clara": -1, "Dirk": 1}
    assert not any(p.solos for p in whole.players)


def test_an_unknown_session_is_refused(ledger_of: Callable[..., Ledger]) -> None:
    with pytest.raises(NightNotFound, match="no card night 'nope'"):
        ledger_stats(ledger_of(*SESSIONS), "nope")


def test_a_session_prefix_names_the_night(ledger_of: Callable[..., Ledger]) -> None:
    assert ledger_stats(ledger_of(*SESSIONS), "2026-12-05").session_id == VEREIN


# -- JSON ------------------------------------------------------------------------------------


def test_the_json_view(ledger_of: Callable[..., Ledger]) -> None:
    view = stats_view(ledger_stats(ledger_of(FOX_AND_KARLCHEN, CLUB_SOLO, KONTRA_REPLY, MISDEAL)))
    json.dumps(view)  # plain data
    assert list(view) == ["session", "games", "unscored", "in_progress", "players"]
    assert (view["session"], view["games"], view["unscored"]) == (None, 4, 1)
    anna = next(p for p in view["players"] if p["player"] == "Anna")
    assert list(anna) == [
        "player",
        "games",
        "scored",
        "unscored",
        "wins",
        "losses",
        "win_rate",
        "total",
        "average_score",
        "solos",
        "announcements",
        "foxes",
        "card_points",
    ]
    # Anna: +5 (fox game), -12 (her club solo), +4 (Kontra reply): 2 of 3 won, -3 in 3 games.
    assert (anna["games"], anna["wins"], anna["win_rate"], anna["total"], anna["average_score"]) == (
        3,
        2,
        0.6667,
        -3,
        -1.0,
    )
    assert anna["solos"] == {
        "played": 1,
        "won": 0,
        "lost": 1,
        "points": -12,
        "by_type": {"club_solo": {"played": 1, "won": 0, "lost": 1, "points": -12}},
    }
    assert list(anna["announcements"]["by_kind"]) == ["re", "kontra", "no90", "no60", "no30", "schwarz"]
    assert anna["foxes"] == {"caught": 0, "lost": 1}
    assert anna["card_points"] == {
        "party_total": 153 + 26 + 149,
        "party_games": 3,
        "party_average": round((153 + 26 + 149) / 3, 2),
        "own_total": 28 + 26 + 77,
        "own_games": 3,
        "own_average": round((28 + 26 + 77) / 3, 2),
    }
    greta = next(p for p in view["players"] if p["player"] == "Greta")
    assert (greta["games"], greta["unscored"], greta["win_rate"]) == (1, 1, None)


# -- the command ---------------------------------------------------------------------------


def _local_app() -> typer.Typer:
    """The `stats` command on a small app with doko's error handling and `--db`."""
    local = typer.Typer(cls=_Group, add_completion=False)

    @local.callback()
    def options(ctx: typer.Context, db: DbOption = Path("doko.sqlite")) -> None:
        ctx.obj = {"db": db}

    stats_cli.register(local)
    return local


def _invoke(app: typer.Typer, db: Path, *args: str) -> Result:
    return CliRunner().invoke(app, ["--db", str(db), "stats", *args], env=CLI_ENV, catch_exceptions=True)


@pytest.fixture
def samples_db(tmp_path: Path) -> Path:
    return build(tmp_path / "samples.sqlite", *(SAMPLES / n for n in (FOX_AND_KARLCHEN, CLUB_SOLO)), *SESSIONS)


def _check_table_and_chart(result: Result, players: list[str]) -> None:
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "stats of" in out and "total score and win rate" in out
    for player in players:
        assert len(re.findall(rf"^\W*{player}\b", out, flags=re.M)) >= 2, player  # a table row and a chart row
    assert "█" in out


def test_the_command_renders_the_table_and_the_chart(samples_db: Path) -> None:
    result = _invoke(_local_app(), samples_db)
    _check_table_and_chart(result, ["Anna", "Ben", "Clara", "Dirk", "Greta", "Marta", "Paul"])
    assert "club solo" in result.stdout  # the solos table


def test_the_command_for_one_night(samples_db: Path) -> None:
    result = _invoke(_local_app(), samples_db, "--session", VEREIN)
    _check_table_and_chart(result, ["Greta", "Hannes", "Ilse", "Karl", "Lena"])
    assert f"card night {VEREIN}" in result.stdout
    assert "Anna" not in result.stdout


def test_the_command_prints_json(samples_db: Path) -> None:
    result = _invoke(_local_app(), samples_db, "--session", KITCHEN, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["session"] == KITCHEN
    assert {p["player"]: p["total"] for p in data["players"]} == {"Anna": -16, "Ben": 0, "Clara": -8, "Dirk": 24}


def test_the_command_refuses_an_unknown_night_in_one_line(samples_db: Path) -> None:
    result = _invoke(_local_app(), samples_db, "--session", "nope")
    assert result.exit_code == 1
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert lines == ["error: no card night 'nope' in the ledger"]


def test_the_command_on_a_ledger_without_games(tmp_path: Path) -> None:
    path = build(tmp_path / "empty.sqlite")
    result = _invoke(_local_app(), path)
    assert result.exit_code == 0, result.output
    assert "0 games" in result.stdout


def test_doko_stats(samples_db: Path) -> None:
    """Through the real `doko` app: needs `stats.register(app)` in cli/app.py."""
    from doko_ledger.cli.app import app

    _check_table_and_chart(_invoke(app, samples_db), ["Anna", "Dirk", "Greta"])
    data: Any = json.loads(_invoke(app, samples_db, "--json").stdout)
    assert data["games"] == 2 + sum(len(deals_from_comments(p)[1]) for p in SESSIONS)
    refused = _invoke(app, samples_db, "--session", "nope")
    assert refused.exit_code == 1 and refused.stderr.strip() == "error: no card night 'nope' in the ledger"
