"""`doko games`: numbers, filters, paging and JSON from the read models; naming a game by
`#N`, `N`, `last` or a prefix through index ranges (never a scan of the log)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import as_json, listed_games, ok, refused
from typer.testing import Result

from doko_ledger.doppelkopf.events import PenaltyImposed
from doko_ledger.ledger import Ledger, game_number
from doko_ledger.store.base import EventStore, prefix_upper_bound
from doko_ledger.store.open import open_store

Cli = Callable[..., Result]
WriteGame = Callable[..., Path]
SAMPLES = Path(__file__).parents[2] / "sample_games"
NIGHT = SAMPLES / "sessions" / "01-kitchen-bock.yaml"


@pytest.fixture
def three(cli: Cli, write_game: WriteGame) -> list[str]:
    ids = ["oak-1", "elm-2", "oak-3"]
    for seed, game_id in enumerate(ids, 10):
        ok(cli("import", write_game(seed, game_id=game_id)))
    return ids


@pytest.mark.parametrize(("ref", "index"), [("#1", 0), ("1", 0), ("2", 1), ("#3", 2), ("last", 2)])
def test_a_game_is_named_by_its_number_with_or_without_hash_or_as_last(
    cli: Cli, three: list[str], ref: str, index: int
) -> None:
    assert as_json(cli("score", ref, "--json"))["game_id"] == three[index]
    assert as_json(cli("replay", ref, "--json"))["game_id"] == three[index]


def test_a_bare_number_past_the_end_is_a_prefix_and_else_not_found(cli: Cli, write_game: WriteGame) -> None:
    ok(cli("import", write_game(3, game_id="77-kitchen")))
    assert as_json(cli("score", "77", "--json"))["game_id"] == "77-kitchen"  # no game #77: the prefix
    refused(cli("score", "9"), "there is no game 9: the ledger holds 1 game")
    refused(cli("score", "#2"), "there is no game #2: the ledger holds 1 game")


def test_a_huge_number_is_a_short_refusal(cli: Cli, three: list[str]) -> None:
    line = refused(cli("score", "#" + "9" * 5000))
    assert len(line) < 120, line


def test_last_of_an_empty_ledger(cli: Cli, ledger_path: Path) -> None:
    open_store(ledger_path, create=True).close()
    refused(cli("score", "last"), "there is no game last: the ledger holds 0 games")


def test_numbers_count_both_games_in_recorded_order(cli: Cli, write_game: WriteGame) -> None:
    ok(cli("import", write_game(5, game_id="first")))
    ok(cli("import", SAMPLES / "doudizhu" / "01-landlord-rocket.yaml"))
    ok(cli("import", write_game(6, game_id="third")))
    rows = as_json(cli("games", "--json"))
    assert [r["number"] for r in rows] == [1, 2, 3]
    assert [r["game"] for r in rows] == ["doppelkopf", "doudizhu", "doppelkopf"]
    assert as_json(cli("replay", "2", "--json"))["game_id"] == rows[1]["game_id"]
    assert as_json(cli("replay", "last", "--json"))["game_id"] == "third"


def test_the_json_carries_number_and_score(cli: Cli, three: list[str]) -> None:
    rows = as_json(cli("games", "--json"))
    for number, row in enumerate(rows, 1):
        shown = as_json(cli("score", f"#{number}", "--json"))
        assert row["number"] == number
        assert row["score"] == shown["players"]


def test_prefixes_with_like_wildcards_are_taken_literally(cli: Cli, write_game: WriteGame) -> None:
    ok(cli("import", write_game(1, game_id="a_b-1")))
    ok(cli("import", write_game(2, game_id="axb-2")))
    ok(cli("import", write_game(3, game_id="a.c-3")))
    assert as_json(cli("score", "a_", "--json"))["game_id"] == "a_b-1"  # `_` is no wildcard
    refused(cli("score", "a%"), "no game 'a%'")
    refused(cli("score", "a"), "'a' matches 3 games")


def test_prefix_ranges() -> None:
    assert prefix_upper_bound("game/") == "game0"
    assert prefix_upper_bound("a\U0010ffff") == "b"
    assert prefix_upper_bound("\ud7ff"[:0] + "x\ud7ff") == "x\ue000"
    assert prefix_upper_bound("\U0010ffff") is None
    assert game_number("#12") == game_number("12") == 12
    assert game_number("last") == -1
    assert game_number("12a") is None


def test_stream_names_read_one_range_of_the_index(tmp_path: Path) -> None:
    store = open_store(tmp_path / "s.sqlite", create=True)
    for name in ("game/ab", "game/abc", "game/ac", "game/b", "gamex", "session/ab"):
        store.append(name, [PenaltyImposed(seat=0, severe=False)], expected_version=0, recorded_by="t", recorded_at="t")
    assert store.stream_names("game/a", 10) == ["game/ab", "game/abc", "game/ac"]
    assert store.stream_names("game/ab", 10) == ["game/ab", "game/abc"]
    assert store.stream_names("game/a", 2) == ["game/ab", "game/abc"]
    assert store.streams("game/") == ["game/ab", "game/abc", "game/ac", "game/b"]
    plan = " ".join(
        str(row[-1])
        for row in store.db.execute(
            "EXPLAIN QUERY PLAN SELECT stream FROM events WHERE stream >= ? AND stream < ? AND version = 1",
            ["game/a", "game/b"],
        )
    )
    assert plan.startswith("SEARCH events USING") and "(stream>? AND stream<?)" in plan, plan
    store.close()


def test_numbers_are_served_by_an_index_on_the_read_model(cli: Cli, three: list[str], ledger_path: Path) -> None:
    ok(cli("games"))
    conn = sqlite3.connect(ledger_path)
    indexes = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    conn.close()
    assert {"games_first_position", "doudizhu_games_first_position"} <= indexes


def test_filters_keep_the_numbers(cli: Cli, write_game: WriteGame) -> None:
    ok(cli("import", write_game(1, game_id="alone")))
    ok(cli("import", NIGHT))
    everything = as_json(cli("games", "--json"))
    night = as_json(cli("games", "--json", "--session", "2026-11-28-kit"))
    assert night and all(r["game_id"].startswith("2026-11-28-kitchen") for r in night)
    assert [r["number"] for r in night] == list(range(2, len(everything) + 1))
    assert as_json(cli("games", "--json", "--session", "2026-11-28-kitchen", "--last", "2")) == night[-2:]
    assert as_json(cli("games", "--json", "--session", "2026-11-28-kitchen", "--player", "dirk")) == night
    assert [r["game_id"] for r in as_json(cli("games", "--json", "--since", "2026-11-29"))] == []
    assert len(as_json(cli("games", "--json", "--since", "2026-11-28"))) == len(everything)
    assert as_json(cli("games", "--json", "--player", "nobody")) == []
    assert len(as_json(cli("games", "--json", "--player", "anna"))) == len(everything)
    refused(cli("games", "--session", "no-such-night"), "no card night or Dou Dizhu session 'no-such-night'")
    refused(cli("games", "--since", "yesterday"), "'yesterday' is not a day")
    ok(cli("import", SAMPLES / "doudizhu" / "sessions" / "2026-11-29-dorm.yaml"))
    ok(cli("import", write_game(2, game_id="after")))
    everything = as_json(cli("games", "--json"))
    dorm = as_json(cli("games", "--json", "--session", "2026-11-29-dorm"))
    assert dorm and dorm == [r for r in everything if r["game_id"] in {g["game_id"] for g in dorm}]
    assert all(r["game"] == "doudizhu" for r in dorm)


def test_last_n_and_all(cli: Cli, three: list[str]) -> None:
    assert [r["game_id"] for r in as_json(cli("games", "--json", "--last", "2"))] == three[1:]
    assert [r["number"] for r in as_json(cli("games", "--json", "--last", "2"))] == [2, 3]
    assert [cells[0] for cells, _ in listed_games(ok(cli("games", "--last", "1")).stdout)] == ["#3"]
    assert len(listed_games(ok(cli("games", "--all")).stdout)) == 3
    refused(cli("games", "--last", "1", "--all"), "--last N or --all")


def test_at_a_terminal_the_list_is_the_newest_page(
    cli: Cli, write_game: WriteGame, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from doko_ledger.cli import games as app_module

    db = tmp_path / "many.sqlite"
    games = [write_game(s, game_id=f"g{s:02d}").read_text(encoding="utf-8") for s in range(25)]
    with Ledger.open(db, create=True) as ledger:
        from doko_ledger.doppelkopf.files import game_file

        loaded = [(str(i), game_file.read(text)) for i, text in enumerate(games)]
        ledger.import_games(loaded, recorded_by="t", recorded_at="t")
    monkeypatch.setattr(app_module, "output_is_terminal", lambda: True)
    shown = [cells[0] for cells, _ in listed_games(ok(cli("games", db=db)).stdout)]
    assert shown == [f"#{n}" for n in range(25 - app_module.TERMINAL_PAGE + 1, 26)]
    assert "--all for every game" in ok(cli("games", db=db)).stdout
    assert "--all for every game" not in ok(cli("games", "--last", "3", db=db)).stdout
    assert len(listed_games(ok(cli("games", "--all", db=db)).stdout)) == 25


def test_standings_find_a_night_by_prefix_and_the_open_night(cli: Cli, tmp_path: Path) -> None:
    ok(cli("import", NIGHT))
    assert as_json(cli("standings", "--session", "2026-11-28-kit", "--json"))["session"] == "2026-11-28-kitchen"
    ok(cli("session", "start", "later", "--players", "Anna,Ben,Clara,Dirk"))
    assert as_json(cli("standings", "--json"))["session"] == "later"  # the open one
    ok(cli("session", "close"))
    assert as_json(cli("standings", "--json"))["session"] == "later"  # none open: the one closed last


def test_a_rebuild_reads_the_log_once_for_both_games(
    cli: Cli, write_game: WriteGame, ledger_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ok(cli("import", write_game(5, game_id="doko-game"), SAMPLES / "doudizhu" / "01-landlord-rocket.yaml"))
    before = as_json(cli("games", "--json"))
    reads: list[str] = []
    original = EventStore.read_streams_events

    def counting(self: EventStore, *args: object, **kwargs: object) -> object:
        reads.append(str(args[:1]))
        return original(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(EventStore, "read_streams_events", counting)
    with Ledger.open(ledger_path) as ledger:
        assert ledger.rebuild() == 2
    assert len(reads) == 1
    monkeypatch.undo()
    assert as_json(cli("games", "--json")) == before


def test_refresh_knows_every_projection_by_name(cli: Cli, three: list[str], ledger_path: Path) -> None:
    from doko_ledger.doppelkopf.files import game_file
    from doko_ledger.projections import runner

    with Ledger.open(ledger_path) as ledger:
        assert list(Ledger.PROJECTIONS) == [p.name for p in ledger.projections]
        ledger.refresh()
        assert runner.up_to_date(ledger.store, Ledger.PROJECTIONS)
        loaded = game_file.read((SAMPLES / "01-normal.yaml").read_text(encoding="utf-8"))
        ledger.import_games([("new", loaded)], recorded_by="t", recorded_at="t")  # appends only
        assert not runner.up_to_date(ledger.store, Ledger.PROJECTIONS)
    assert as_json(cli("score", "last", "--json"))["game_id"] == loaded.record.id
    with Ledger.open(ledger_path) as ledger:
        assert runner.up_to_date(ledger.store, Ledger.PROJECTIONS)


def test_the_streamed_json_is_the_json_of_the_list(cli: Cli, three: list[str]) -> None:
    import json

    text = ok(cli("games", "--json")).stdout
    assert text == json.dumps(json.loads(text), indent=2, ensure_ascii=False) + "\n"
    assert len(json.loads(text)) == 3


def test_the_piped_list_has_the_lines_of_the_terminal_list(cli: Cli, three: list[str], ledger_path: Path) -> None:
    from doko_ledger.cli import render_games

    with Ledger.open(ledger_path) as ledger:
        rows = list(ledger.game_rows())
    assert render_games.plain_page(rows) == render_games.page(rows).plain
    assert render_games.plain_page(rows) in ok(cli("games")).stdout
