"""The `doko` command against a temporary ledger, through typer's CliRunner."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from backends import Attacker, ledger_path_on_both, sqlite_only  # noqa: F401  (every test on both databases)
from cli_helpers import as_json, exists, listed_games, ok, snapshot, table_rows
from typer.testing import Result

from doko_ledger.doppelkopf.events import CardPlayed
from doko_ledger.doppelkopf.game.parties import true_parties
from doko_ledger.doppelkopf.rules.announcements import Party
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.ruleset import preset
from doko_ledger.doppelkopf.score import score_game
from doko_ledger.events.codec import dumps_canonical, to_payload
from doko_ledger.store.open import open_store

if TYPE_CHECKING:
    from conftest import RandomGame

Cli = Callable[..., Result]
MakeGame = Callable[..., "RandomGame"]
WriteGame = Callable[..., Path]

COMMANDS = ["import", "export", "games", "replay", "log", "verify", "rebuild", "annotate", "notes", "stats"]
CARD = re.compile(r"[♣♠♥♦](?:10|[AKQJ9])")


def failed(result: Result, code: int | None = None) -> Result:
    assert result.exit_code != 0, result.output
    if code is not None:
        assert result.exit_code == code, result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    return result


def error_lines(result: Result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("error:")]


def table_columns(text: str, first: str) -> dict[str, int]:
    """Column name -> index of the one Rich table in `text` whose header starts with `first`."""
    headers = [[c.strip() for c in line.split("┃")[1:-1]] for line in text.splitlines() if line.startswith("┃")]
    (header,) = [h for h in headers if h and h[0] == first]
    return {name: i for i, name in enumerate(header)}


NORMAL_EVENTS = 2 + 4 + 48
"""A finished normal game: GameStarted, CardsDealt, four ReservationDeclared, 48 CardPlayed."""


def events_of(make_game: MakeGame, seed: int, **options: Any) -> int:
    """How many events the random game of `seed` records (a drawn solo adds its ReservationNamed)."""
    game = make_game(seed, **options)
    named = 1 if game.final.game_type is not None and game.final.game_type.is_declared_solo else 0
    assert len(game.events) == 2 + 4 + named + 4 * len(game.final.tricks)
    return len(game.events)


@pytest.fixture
def two_games(make_game: MakeGame, write_game: WriteGame) -> list[RandomGame]:
    """Two finished normal games written to files (kitchen-01, kitchen-02)."""
    games = [make_game(seed, game_id=f"kitchen-0{seed}", game_type=GameType.NORMAL) for seed in (1, 2)]
    for game in games:
        write_game(game.text, f"{game.record.id}.yaml")
    return games


@pytest.fixture
def imported(cli: Cli, tmp_path: Path, two_games: list[RandomGame]) -> list[RandomGame]:
    ok(cli("import", tmp_path / "kitchen-01.yaml", tmp_path / "kitchen-02.yaml"))
    return two_games


# -- import ----------------------------------------------------------------------------------


def test_import_one_file(cli: Cli, write_game: WriteGame, make_game: MakeGame, ledger_path: Path) -> None:
    path = write_game(7, game_id="one")
    result = ok(cli("import", path))
    events = events_of(make_game, 7, game_id="one")
    assert result.stdout.strip() == f"imported 1 game, {events} events into {ledger_path}"
    assert result.stderr == ""
    assert exists(ledger_path)
    assert [row["game_id"] for row in as_json(cli("games", "--json"))] == ["one"]


def test_import_several_files(cli: Cli, write_game: WriteGame, make_game: MakeGame) -> None:
    paths = [write_game(seed, game_id=f"g{seed}") for seed in (5, 3, 9)]
    result = ok(cli("import", *paths))
    g5, g3, g9 = (events_of(make_game, seed, game_id=f"g{seed}") for seed in (5, 3, 9))
    assert f"imported 3 games, {g5 + g3 + g9} events" in result.stdout
    rows = as_json(cli("games", "--json"))
    assert [row["game_id"] for row in rows] == ["g5", "g3", "g9"]
    assert [row["first_position"] for row in rows] == [1, 1 + g5, 1 + g5 + g3]
    assert [row["events"] for row in rows] == [g5, g3, g9]


def test_import_records_who_imported(cli: Cli, write_game: WriteGame) -> None:
    ok(cli("import", write_game(1, game_id="a")))
    ok(cli("import", "--by", "Clara", write_game(2, game_id="b")))
    assert {e["recorded_by"] for e in as_json(cli("log", "a", "--json"))} == {"tester"}
    assert {e["recorded_by"] for e in as_json(cli("log", "b", "--json"))} == {"Clara"}


SMOKE_HEAD = """\
format: doko-game/1
id: bad-1
players: [Anna, Ben, Clara, Dirk]
dealer: Dirk
rules: standard
hands:
  Anna: [D10, HJ, S10, S10, C9, D9, C9, SK, HQ, DA, DK, DQ]
  Ben: [HK, CJ, CA, S9, SQ, SA, DJ, HA, SJ, D9, HK, D10]
  Clara: [SQ, CA, H9, SK, HQ, CQ, DJ, H10, H10, CK, C10, SA]
  Dirk: [HJ, DQ, DA, S9, CQ, H9, CK, C10, DK, HA, CJ, SJ]
tricks:
  - [SK, S9, SK, S9]
"""

INVALID = {
    "revoke": (SMOKE_HEAD + "  - [C9, CA, C10, DK]\n", 13, "revoke"),
    "unknown-card": (SMOKE_HEAD.replace("Ben: [HK,", "Ben: [XZ,"), 8, "unknown card 'XZ'"),
    "broken-yaml": (SMOKE_HEAD.replace("dealer: Dirk", "dealer: Dirk: Anna"), 4, "not valid YAML"),
    "python-tag": (SMOKE_HEAD.replace("dealer: Dirk", "dealer: !!python/object/apply:os.getcwd []"), 4, "plain YAML"),
    "schema": (SMOKE_HEAD.replace("players: [Anna, Ben, Clara, Dirk]", "players: Anna"), 3, "not of type 'array'"),
}


def _invalid_file(tmp_path: Path, kind: str) -> tuple[Path, int, str]:
    text, line, says = INVALID[kind]
    path = tmp_path / f"{kind}.yaml"
    path.write_text(text, encoding="utf-8")
    return path, line, says


@pytest.mark.parametrize("kind", sorted(INVALID))
def test_an_invalid_file_creates_no_ledger(cli: Cli, tmp_path: Path, ledger_path: Path, kind: str) -> None:
    path, line, says = _invalid_file(tmp_path, kind)
    result = failed(cli("import", path), 2)
    (line_text,) = error_lines(result)
    assert line_text.startswith(f"error: {path}:{line}: ")
    assert says in line_text
    assert "1 file not imported" in result.stderr
    assert result.stdout == ""
    assert not exists(ledger_path)


@pytest.mark.parametrize("kind", sorted(INVALID))
def test_an_invalid_file_leaves_the_ledger_bytes_unchanged(
    cli: Cli, tmp_path: Path, ledger_path: Path, write_game: WriteGame, kind: str
) -> None:
    ok(cli("import", write_game(11)))
    ok(cli("games"))  # read models caught up
    before = snapshot(ledger_path)
    path, line, _ = _invalid_file(tmp_path, kind)
    result = failed(cli("import", path), 2)
    assert error_lines(result)[0].startswith(f"error: {path}:{line}: ")
    assert snapshot(ledger_path) == before


def test_an_unreadable_file_is_a_one_line_error(cli: Cli, tmp_path: Path, ledger_path: Path) -> None:
    latin = tmp_path / "latin.yaml"
    latin.write_bytes(SMOKE_HEAD.replace("Anna", "Zoë").encode("latin-1"))
    result = failed(cli("import", latin, tmp_path / "missing.yaml"), 2)
    assert error_lines(result) == [
        f"error: {latin}: not UTF-8 text (invalid continuation byte)",
        f"error: {tmp_path / 'missing.yaml'}: cannot read file: No such file or directory",
    ]
    assert "2 files not imported" in result.stderr
    assert not exists(ledger_path)


def test_a_self_referencing_yaml_alias_is_a_one_line_error(cli: Cli, tmp_path: Path, ledger_path: Path) -> None:
    path = tmp_path / "loop.yaml"
    path.write_text("a: &loop [1, *loop]\n", encoding="utf-8")
    result = failed(cli("import", path), 2)
    assert error_lines(result)[0].startswith(f"error: {path}")
    assert not exists(ledger_path)


def test_valid_files_are_imported_beside_an_invalid_one(
    cli: Cli, tmp_path: Path, write_game: WriteGame, make_game: MakeGame
) -> None:
    good = write_game(4, game_id="good")
    bad, line, _ = _invalid_file(tmp_path, "revoke")
    result = failed(cli("import", good, bad), 2)
    assert f"imported 1 game, {events_of(make_game, 4, game_id='good')} events" in result.stdout
    assert [line_text.startswith(f"error: {bad}:{line}:") for line_text in error_lines(result)] == [True]
    assert [row["game_id"] for row in as_json(cli("games", "--json"))] == ["good"]


def test_the_same_game_twice_is_refused(
    cli: Cli, write_game: WriteGame, make_game: MakeGame, ledger_path: Path
) -> None:
    path = write_game(8, game_id="twice")
    events = events_of(make_game, 8, game_id="twice")
    ok(cli("import", path))
    ok(cli("games"))
    before = snapshot(ledger_path)
    result = failed(cli("import", path), 2)
    assert snapshot(ledger_path) == before
    assert error_lines(result) == [f"error: {path}: game 'twice' is already in the ledger"]
    assert len(as_json(cli("log", "twice", "--json"))) == events
    assert ok(cli("verify")).stdout.startswith(f"ledger verified: {events} events in 1 stream;")


def test_the_same_game_twice_in_one_import_is_refused(cli: Cli, write_game: WriteGame, make_game: MakeGame) -> None:
    first = write_game(8, name="first.yaml", game_id="dup")
    second = write_game(9, name="second.yaml", game_id="dup")
    result = failed(cli("import", first, second), 2)
    assert f"imported 1 game, {events_of(make_game, 8, game_id='dup')} events" in result.stdout
    assert error_lines(result) == [f"error: {second}: game 'dup' is already in {first}"]
    assert ok(cli("export", "dup")).stdout == first.read_text(encoding="utf-8")


# -- games -----------------------------------------------------------------------------------


def test_games_list(cli: Cli, imported: list[RandomGame]) -> None:
    listed = listed_games(ok(cli("games")).stdout)
    assert [cells[:2] for cells, _ in listed] == [["#1", "kitchen-01"], ["#2", "kitchen-02"]]
    for (cells, result), game in zip(listed, imported, strict=True):
        assert cells[2:] == ["2026-11-28", "normal game"]
        score = score_game(game.final)
        players = "  ".join(f"{p} {d:+d}" for p, d in zip(score.players, score.deltas, strict=True))
        re_points = sum(
            p for p, party in zip(game.final.points_won(), true_parties(game.final), strict=True) if party is Party.RE
        )
        assert result == f"standard · 12 tricks · Re {re_points}  {players}"


def test_games_list_fits_80_columns_and_keeps_ids_whole(cli: Cli, write_game: WriteGame) -> None:
    long_id = "kitchen-2026-11-28-the-long-evening-01"
    ok(cli("import", write_game(4, game_id=long_id)))
    out = ok(cli("games", env={"COLUMNS": "80"})).stdout
    assert all(len(line) <= 80 for line in out.splitlines()), out
    ((cells, result),) = listed_games(out)
    assert cells[1] == long_id
    assert all(name in result for name in ("Anna", "Ben", "Clara", "Dirk"))


def test_games_json(cli: Cli, imported: list[RandomGame]) -> None:
    rows = as_json(cli("games", "--json"))
    assert [r["game_id"] for r in rows] == ["kitchen-01", "kitchen-02"]
    for row, game in zip(rows, imported, strict=True):
        assert row["players"] == ["Anna", "Ben", "Clara", "Dirk"]
        assert row["dealer"] == game.record.dealer
        assert row["game_type"] == "normal"
        assert row["declarer"] is None
        assert row["hands_recorded"] is True
        assert row["finished"] is True
        assert row["tricks_played"] == 12
        assert row["points"] == list(game.final.points_won())
        assert sum(row["points"]) == 240
        assert row["tricks_won"] == list(game.final.tricks_won())
        assert row["events"] == NORMAL_EVENTS


def test_an_unfinished_game_is_listed_as_such(cli: Cli, write_game: WriteGame, make_game: MakeGame) -> None:
    ok(cli("import", write_game(3, game_id="half", tricks=5)))
    ((_, result),) = listed_games(ok(cli("games")).stdout)
    assert result.startswith("standard · 5 tricks (unfinished) · ")
    assert result.endswith("Anna  Ben  Clara  Dirk")  # no score yet
    (data,) = as_json(cli("games", "--json"))
    events = events_of(make_game, 3, game_id="half", tricks=5)
    assert events - 20 in (6, 7)  # start, deal, four reservations (and a solo's name) before the 20 cards
    assert (data["finished"], data["tricks_played"], data["events"]) == (False, 5, events)


def test_games_before_any_import_is_an_error(cli: Cli, ledger_path: Path, tmp_path: Path) -> None:
    bad, _, _ = _invalid_file(tmp_path, "revoke")
    failed(cli("import", bad))
    assert not exists(ledger_path)
    result = failed(cli("games"), 1)
    assert error_lines(result) == [
        f"error: no ledger at {ledger_path} (import a game or start a card night first, or pass --db)"
    ]


def test_games_on_a_ledger_without_events(cli: Cli, ledger_path: Path) -> None:
    open_store(ledger_path, create=True).close()
    assert as_json(cli("games", "--json")) == []
    assert listed_games(ok(cli("games")).stdout) == []


# -- replay ----------------------------------------------------------------------------------


def test_replay_shows_every_trick_with_its_winner(cli: Cli, imported: list[RandomGame]) -> None:
    game = imported[0]
    out = ok(cli("replay", "kitchen-01")).stdout
    players = game.record.players
    column = table_columns(out, "#")
    parties = true_parties(game.final)
    # piped, the replay prints the whole game; its default view knows every hand, so the true parties
    named = [f"{name} ({party.title})" for name, party in zip(players, parties, strict=True) if party is not None]
    assert [column[name] for name in named] == [column["lead"] + 1 + seat for seat in range(4)]
    width = len(column)
    column |= {name: column[header] for name, header in zip(players, named, strict=True)}
    # a row per trick; a cell that wraps continues on rows without a trick number
    trick_rows = [r for r in table_rows(out) if len(r) == width and r[column["#"]]]
    assert [r[column["#"]] for r in trick_rows] == [str(n) for n in range(1, 13)]
    for row, trick in zip(trick_rows, game.final.tricks, strict=True):
        assert trick.winner is not None
        assert row[column["lead"]] == players[trick.leader]
        assert row[column["won by"]] == players[trick.winner]
        assert row[column["pts"]] == str(trick.points)
        for seat, card in trick.plays:
            assert row[column[players[seat]]].lstrip("›") == card.pretty
        assert row[column[players[trick.leader]]].startswith("›")
    assert re.search(r"^\s*total\s+240\s+12\s*$", out, re.M)
    for name, points, tricks in zip(players, game.final.points_won(), game.final.tricks_won(), strict=True):
        # the parties between the name and the points: as the table knew them, then the truth
        assert re.search(rf"^\s*{name}\s+(?:Re|Kontra|\?)\s+(?:Re|Kontra)\s+{points}\s+{tricks}\s*$", out, re.M)
    assert "kitchen-01" in out and "dealer " + game.record.dealer in out


def test_replay_json(cli: Cli, imported: list[RandomGame]) -> None:
    game = imported[1]
    data = as_json(cli("replay", "kitchen-02", "--json"))
    assert data["game_id"] == "kitchen-02"
    assert data["finished"] is True
    assert data["rules"] == preset("standard").to_dict()
    assert len(data["tricks"]) == 12
    assert sum(data["card_points"].values()) == 240
    assert sum(data["tricks_won"].values()) == 12
    players = game.record.players
    assert [t["winner"] for t in data["tricks"]] == [
        players[t.winner] for t in game.final.tricks if t.winner is not None
    ]
    assert [[p["card"] for p in t["plays"]] for t in data["tricks"]] == [
        [str(c) for c in t.cards] for t in game.final.tricks
    ]
    assert data["hands_dealt"] == {
        p: [str(c) for c in h] for p, h in zip(players, game.record.hands or (), strict=True)
    }


def _hands_before(game: RandomGame, trick: int) -> dict[str, Counter[str]]:
    """Each player's cards before `trick`: the deal minus what they played in earlier tricks."""
    played = [e for e in game.events if isinstance(e, CardPlayed)][: (trick - 1) * 4]
    assert game.record.hands is not None
    hands = {p: Counter(str(c) for c in h) for p, h in zip(game.record.players, game.record.hands, strict=True)}
    for event in played:
        hands[game.record.players[event.seat]][str(event.card)] -= 1
    return {p: +h for p, h in hands.items()}


@pytest.mark.parametrize("trick", [1, 5, 12])
def test_replay_before_a_trick_shows_the_hands_as_they_stood(cli: Cli, imported: list[RandomGame], trick: int) -> None:
    game = imported[0]
    expected = _hands_before(game, trick)
    leader = game.final.tricks[trick - 1].leader
    out = ok(cli("replay", "kitchen-01", "--trick", str(trick))).stdout
    assert re.search(rf"before\s+trick\s+{trick} *$", out, re.M)  # the table's title may wrap
    column = table_columns(out, "player")
    rows = table_rows(out)
    assert [r[column["player"]].removesuffix(" leads") for r in rows] == list(game.record.players)
    for row in rows:
        name = row[column["player"]].removesuffix(" leads")
        cards = CARD.findall(row[column["hand"]])
        assert len(cards) == 13 - trick
        assert Counter(cards) == Counter({f"{'♣♠♥♦'['CSHD'.index(k[0])]}{k[1:]}": n for k, n in expected[name].items()})
        assert row[column["player"]].endswith(" leads") == (name == game.record.players[leader])


def test_replay_before_trick_5_json(cli: Cli, imported: list[RandomGame]) -> None:
    game = imported[0]
    data = as_json(cli("replay", "#1", "--trick", "5", "--json"))
    assert data["before_trick"] == 5
    assert data["leader"] == game.record.players[game.final.tricks[4].leader]
    assert {p: len(h) for p, h in data["hands"].items()} == dict.fromkeys(game.record.players, 8)
    assert {p: Counter(h) for p, h in data["hands"].items()} == _hands_before(game, 5)
    assert len(data["tricks"]) == 4
    points_after_4 = [0, 0, 0, 0]
    for t in game.final.tricks[:4]:
        assert t.winner is not None
        points_after_4[t.winner] += t.points
    assert list(data["card_points"].values()) == points_after_4


@pytest.mark.parametrize("trick", ["13", "99"])
def test_replay_before_a_trick_past_the_end_is_refused(cli: Cli, imported: list[RandomGame], trick: str) -> None:
    result = failed(cli("replay", "kitchen-01", "--trick", trick), 1)
    assert error_lines(result) == [f"error: there is no trick {trick}: a game has 12 tricks"]
    assert result.stdout == ""


def test_replay_before_trick_zero_is_a_usage_error(cli: Cli, imported: list[RandomGame]) -> None:
    result = cli("replay", "kitchen-01", "--trick", "0")
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_replay_before_a_trick_not_yet_played(cli: Cli, write_game: WriteGame) -> None:
    ok(cli("import", write_game(6, game_id="half", tricks=6)))
    data = as_json(cli("replay", "half", "--trick", "7", "--json"))
    assert len(data["tricks"]) == 6
    assert {len(h) for h in data["hands"].values()} == {6}
    result = failed(cli("replay", "half", "--trick", "8"), 1)
    assert error_lines(result) == ["error: trick 8 was not played: the game has 6 complete tricks"]


def test_replay_of_a_game_without_nines_has_ten_tricks(cli: Cli, write_game: WriteGame) -> None:
    ok(cli("import", write_game(12, game_id="bistro", rules=preset("bistro"))))
    data = as_json(cli("replay", "bistro", "--json"))
    assert len(data["tricks"]) == 10
    assert sum(data["card_points"].values()) == 240
    assert {len(h) for h in as_json(cli("replay", "bistro", "--trick", "3", "--json"))["hands"].values()} == {8}
    result = failed(cli("replay", "bistro", "--trick", "11"), 1)
    assert error_lines(result) == ["error: there is no trick 11: a game has 10 tricks"]


# -- log -------------------------------------------------------------------------------------


def test_log_table(cli: Cli, imported: list[RandomGame]) -> None:
    out = ok(cli("log", "kitchen-02")).stdout
    assert "game/kitchen-02" in out
    rows = [r for r in table_rows(out) if r[0]]
    assert [int(r[0]) for r in rows] == list(range(NORMAL_EVENTS + 1, 2 * NORMAL_EVENTS + 1))
    assert [int(r[1]) for r in rows] == list(range(1, NORMAL_EVENTS + 1))
    assert rows[0][2] == "GameStarted v3"
    assert rows[1][2] == "CardsDealt v1"
    assert [r[2] for r in rows[2:6]] == ["ReservationDeclared v1"] * 4
    assert {r[2] for r in rows[6:]} == {"CardPlayed v1"}
    assert {r[5] for r in rows} == {"tester"}


def test_log_json(cli: Cli, imported: list[RandomGame]) -> None:
    for game, first in zip(imported, (1, NORMAL_EVENTS + 1), strict=True):
        entries = as_json(cli("log", game.record.id, "--json"))
        assert [e["version"] for e in entries] == list(range(1, NORMAL_EVENTS + 1))
        assert [e["position"] for e in entries] == list(range(first, first + NORMAL_EVENTS))
        assert {e["stream"] for e in entries} == {f"game/{game.record.id}"}
        assert [e["type"] for e in entries] == [type(ev).__name__ for ev in game.events]
        assert [e["payload"] for e in entries] == [to_payload(ev) for ev in game.events]
        assert all(re.fullmatch(r"[0-9a-f]{64}", e["hash"]) for e in entries)
        assert len({e["hash"] for e in entries}) == NORMAL_EVENTS


# -- export ----------------------------------------------------------------------------------


def test_export_yaml_is_the_imported_canonical_text(cli: Cli, imported: list[RandomGame], tmp_path: Path) -> None:
    for game in imported:
        assert ok(cli("export", game.record.id)).stdout == game.text
        assert (tmp_path / f"{game.record.id}.yaml").read_text(encoding="utf-8") == game.text
    out = tmp_path / "out.yaml"
    result = ok(cli("export", "kitchen-01", "-o", out))
    assert result.stdout == ""
    assert out.read_text(encoding="utf-8") == imported[0].text


def test_export_of_an_alias_file_is_canonical(cli: Cli, write_game: WriteGame, make_game: MakeGame) -> None:
    game = make_game(21, game_id="alias", game_type=GameType.NORMAL)
    text = game.text.replace("[CQ,", "[Kreuz Dame,").replace(", H10,", ", '♥10',").replace(", H10]", ", Herz Zehn]")
    assert text != game.text
    ok(cli("import", write_game(text, "alias.yaml")))
    assert ok(cli("export", "alias")).stdout == game.text


def test_export_jsonl_has_one_json_object_per_event(cli: Cli, imported: list[RandomGame]) -> None:
    game = imported[1]
    out = ok(cli("export", "kitchen-02", "--format", "jsonl")).stdout
    lines = out.splitlines()
    assert out.endswith("\n")
    assert len(lines) == NORMAL_EVENTS
    objects = [json.loads(line) for line in lines]
    assert all(isinstance(o, dict) for o in objects)
    assert all(line == dumps_canonical(o) for line, o in zip(lines, objects, strict=True))
    assert [o["version"] for o in objects] == list(range(1, NORMAL_EVENTS + 1))
    assert [o["position"] for o in objects] == list(range(NORMAL_EVENTS + 1, 2 * NORMAL_EVENTS + 1))
    assert [o["type"] for o in objects] == [type(e).__name__ for e in game.events]
    assert [o["payload"] for o in objects] == [to_payload(e) for e in game.events]
    assert objects == as_json(cli("log", "kitchen-02", "--json"))


# -- verify and rebuild ----------------------------------------------------------------------


def test_verify_a_clean_ledger(cli: Cli, imported: list[RandomGame]) -> None:
    result = ok(cli("verify"))
    assert result.stdout.startswith(
        f"ledger verified: {2 * NORMAL_EVENTS} events in 2 streams; every hash chain matches."
    )
    data = as_json(cli("verify", "--json"))
    assert data["ok"] is True
    assert (data["events"], data["streams"], data["problems"]) == (2 * NORMAL_EVENTS, 2, [])
    last = as_json(cli("log", "kitchen-02", "--json"))[-1]
    assert data["head"] == last["hash"]
    assert data["position"] == last["position"] == 2 * NORMAL_EVENTS


def _tamper(ledger_path: str | Path, position: int, payload: str) -> None:
    with Attacker(ledger_path) as conn:
        conn.execute("UPDATE events SET payload = ? WHERE position = ?", [payload, position])


def test_verify_after_tampering_names_the_event(cli: Cli, imported: list[RandomGame], ledger_path: Path) -> None:
    entry = as_json(cli("log", "kitchen-02", "--json"))[10]
    payload = dict(entry["payload"], card="CQ" if entry["payload"]["card"] != "CQ" else "SQ")
    _tamper(ledger_path, entry["position"], dumps_canonical(payload))
    result = failed(cli("verify"), 4)
    where = f"position {entry['position']} (stream 'game/kitchen-02' version {entry['version']}, CardPlayed)"
    assert f"ledger NOT verified: 1 problem, the first at position {entry['position']}" in result.stdout
    assert where in result.stdout
    data = json.loads(failed(cli("verify", "--json"), 4).stdout)
    assert data["ok"] is False
    assert len(data["problems"]) == 1
    assert data["problems"][0].startswith(where)
    assert data["first_bad_position"] == entry["position"]


def test_rebuild_restores_the_read_models(cli: Cli, imported: list[RandomGame], ledger_path: Path) -> None:
    before = as_json(cli("games", "--json"))
    with Attacker(ledger_path) as conn:
        conn.execute("DELETE FROM games WHERE game_id = 'kitchen-01'")
        conn.execute("""UPDATE tricks SET winners = '["Nobody"]'""")
    result = ok(cli("rebuild"))
    assert result.stdout.strip() == "rebuilt the read models from 2 games"
    assert as_json(cli("games", "--json")) == before
    with Attacker(ledger_path) as conn:
        winners = {w for r in conn.rows("SELECT winners FROM tricks") for w in json.loads(r[0])}
    assert winners <= {"Anna", "Ben", "Clara", "Dirk"}
    assert ok(cli("verify")).exit_code == 0


# -- choosing the ledger and the game --------------------------------------------------------


def test_doko_db_environment_variable(cli: Cli, write_game: WriteGame, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere.sqlite"
    ok(cli("import", write_game(2, game_id="env"), db=None, env={"DOKO_DB": str(elsewhere)}))
    assert elsewhere.exists()
    rows = as_json(cli("games", "--json", db=None, env={"DOKO_DB": str(elsewhere)}))
    assert [r["game_id"] for r in rows] == ["env"]
    # --db wins over $DOKO_DB
    other = tmp_path / "other.sqlite"
    result = failed(cli("games", db=other, env={"DOKO_DB": str(elsewhere)}), 1)
    assert str(other) in result.stderr


def test_default_ledger_is_doko_sqlite_in_the_working_directory(
    cli: Cli, write_game: WriteGame, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    ok(cli("import", write_game(2, game_id="here"), db=None))
    assert (tmp_path / "doko.sqlite").exists()
    assert [r["game_id"] for r in as_json(cli("games", "--json", db=None))] == ["here"]


@pytest.mark.parametrize(
    ("ref", "game_id"),
    [("kitchen-01", "kitchen-01"), ("kitchen-02", "kitchen-02"), ("#1", "kitchen-01"), ("#2", "kitchen-02")],
)
def test_games_are_named_by_id_or_number(cli: Cli, imported: list[RandomGame], ref: str, game_id: str) -> None:
    assert as_json(cli("replay", ref, "--json"))["game_id"] == game_id


def test_a_unique_prefix_names_a_game(cli: Cli, imported: list[RandomGame], write_game: WriteGame) -> None:
    ok(cli("import", write_game(30, game_id="sunday")))
    assert as_json(cli("replay", "sun", "--json"))["game_id"] == "sunday"
    assert as_json(cli("log", "s", "--json"))[0]["stream"] == "game/sunday"
    assert ok(cli("export", "kitchen-01")).stdout == imported[0].text


@pytest.mark.parametrize(
    ("ref", "message"),
    [
        ("nope", "error: no game 'nope' in the ledger (see `doko games`)"),
        ("kitchen", "error: 'kitchen' matches 2 games: kitchen-01, kitchen-02"),
        ("#3", "error: there is no game #3: the ledger holds 2 games"),
        ("#0", "error: there is no game #0: the ledger holds 2 games"),
    ],
)
@pytest.mark.parametrize("command", ["replay", "log", "export"])
def test_an_unknown_game_is_a_one_line_error(
    cli: Cli, imported: list[RandomGame], command: str, ref: str, message: str
) -> None:
    result = failed(cli(command, ref), 1)
    assert error_lines(result) == [message]
    assert result.stdout == ""


@pytest.mark.parametrize("args", [["games"], ["replay", "x"], ["log", "x"], ["export", "x"], ["verify"], ["rebuild"]])
def test_read_commands_never_create_a_ledger(cli: Cli, ledger_path: Path, args: list[str]) -> None:
    result = failed(cli(*args), 1)
    assert error_lines(result) == [
        f"error: no ledger at {ledger_path} (import a game or start a card night first, or pass --db)"
    ]
    assert not exists(ledger_path)


@sqlite_only
def test_a_file_that_is_not_a_ledger_is_a_one_line_error(cli: Cli, ledger_path: Path) -> None:
    ledger_path.write_text("hello\n" * 100)
    result = failed(cli("games"), 1)
    (line,) = error_lines(result)
    assert line.startswith(f"error: {ledger_path} is not a readable SQLite ledger")
    assert ledger_path.read_text() == "hello\n" * 100


# -- help ------------------------------------------------------------------------------------


def test_top_level_help_lists_every_command(cli: Cli, ledger_path: Path) -> None:
    out = ok(cli("--help", db=None)).stdout
    assert "Usage:" in out
    for command in COMMANDS:
        assert re.search(rf"│ {command}\s", out), command
    assert "$DOKO_DB" in out
    assert not exists(ledger_path)


def test_no_arguments_shows_help(cli: Cli) -> None:
    result = cli(db=None)
    assert "Usage:" in result.output
    assert result.exit_code in (0, 2)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help(cli: Cli, ledger_path: Path, command: str) -> None:
    out = ok(cli(command, "--help")).stdout
    assert "Usage:" in out
    assert command in out
    assert not exists(ledger_path)
    lines = [line for line in out.splitlines() if line.strip() and "Usage" not in line]
    assert lines, "the help has a description"


SAMPLE_NORMAL = Path(__file__).resolve().parents[2] / "sample_games" / "01-normal.yaml"


def test_a_narrow_terminal_gets_the_calls_and_parties_under_the_replays_table(cli: Cli) -> None:
    """At 80 columns the column of calls and parties would be cut to a few letters a line; there
    they follow the table, a line per trick. A wide terminal keeps them in the table."""
    ok(cli("import", SAMPLE_NORMAL))
    game = "2026-11-28-kitchen-01-normal"
    narrow = ok(cli("replay", game, "--all", env={"COLUMNS": "80"})).stdout
    assert "calls · made public" not in narrow
    assert "\ntrick 2: Anna Re (played CQ)" in narrow
    assert max(len(line) for line in narrow.splitlines()) <= 80
    wide = ok(cli("replay", game, "--all", env={"COLUMNS": "200"})).stdout
    assert "calls · made public" in wide and "trick 2:" not in wide
    assert "│ Anna Re (played CQ)" in wide
