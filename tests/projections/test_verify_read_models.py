"""`doko verify` checks the read models against the log: they must be exactly what folding it gives.

Every tampering edits only the read-model tables (or only the log), as someone with the file or
the database would: a plain connection (`backends.Attacker`), on SQLite and on PostgreSQL
(`ledger_path_on_both`). `verify` names each difference and `doko rebuild` as the repair;
`audit` scores from the log, so a forged read model does not change it. Besides: a `rebuild`
or an `import` on a log holding an event this doko_ledger does not know is refused before
anything changes, and a `format` row changed by hand is reported, not a reason to stop.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from backends import Attacker, Client, ledger_path_on_both  # noqa: F401  (every test on both databases)
from cli_helpers import as_json, flat, ok, refused, snapshot
from typer.testing import Result

from doko_ledger.doppelkopf import projection as games
from doko_ledger.doudizhu import projection as doudizhu
from doko_ledger.events.envelope import chain_hash
from doko_ledger.formats import any_file
from doko_ledger.ledger import Ledger
from doko_ledger.projections import runner

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"
GAMES = [SAMPLES / "01-normal.yaml", SAMPLES / "14-marriage-first-trick.yaml", SAMPLES / "18-poverty.yaml"]
NIGHT = SAMPLES / "sessions" / "01-kitchen-bock.yaml"
Cli = Callable[..., Result]
READ_MODEL_TABLES = [*games.TABLES, *doudizhu.TABLES, "projection_positions"]


def _imported(cli: Cli, *files: Path) -> None:
    ok(cli("import", *files))
    ok(cli("games"))  # the read models caught up


def _not_verified(cli: Cli, *fragments: str) -> str:
    """`doko verify` exits 4, names every fragment and says how to repair the read models."""
    result = cli("verify")
    assert result.exit_code == 4, result.output
    text = flat(result.stdout)
    assert text.startswith("ledger NOT verified:")
    for fragment in fragments:
        assert fragment in text, text
    assert "`doko rebuild` folds them again from the log" in text
    data = json.loads(cli("verify", "--json").stdout)
    assert data["ok"] is False and data["read_models"] == "differ" and data["repair"] == "doko rebuild"
    return text


def _appended_behind_the_read_models(target: str | Path, *files: Path) -> None:
    """Games appended as `Ledger.import_games` does, without catching the read models up."""
    loaded = [(str(path), any_file.read_file(path)) for path in files]
    with Ledger.open(target) as ledger:
        ledger.import_games(loaded, recorded_by="test", recorded_at="2026-12-01T00:00:00+00:00")
        assert not runner.up_to_date(ledger.store, ledger.PROJECTIONS)


def _stored(target: str | Path) -> dict[str, Any]:
    """`snapshot` without the -shm file, SQLite's index of the -wal file that every reader of
    it keeps up to date."""
    return {name: content for name, content in snapshot(target).items() if not name.endswith("-shm")}


def _repaired_by_rebuild(cli: Cli) -> None:
    ok(cli("rebuild"))
    assert as_json(cli("verify", "--json"))["read_models"] == "match"


def _read_models(target: str | Path) -> dict[str, list[tuple[Any, ...]]]:
    with Client(target) as conn:
        return {t: sorted(map(repr, conn.rows(f"SELECT * FROM {t}"))) for t in READ_MODEL_TABLES if conn.has_table(t)}


def _first_game(target: str | Path, table: str = "games") -> str:
    with Client(target) as conn:
        return str(conn.rows(f"SELECT game_id FROM {table} ORDER BY first_position LIMIT 1")[0][0])


# -- read models edited, the log as it was --------------------------------------------------------


def test_a_ledger_whose_read_models_are_the_fold_of_its_log_verifies(cli: Cli, ledger_path: str | Path) -> None:
    _imported(cli, *GAMES, NIGHT)
    result = ok(cli("verify"))
    assert "read models: exactly what folding the log gives" in flat(result.stdout)
    data = as_json(cli("verify", "--json"))
    assert data["ok"] is True and data["read_models"] == "match" and data["repair"] is None


def test_a_forged_bock_multiplier_is_named(cli: Cli, ledger_path: str | Path, attacker: type[Attacker]) -> None:
    _imported(cli, *GAMES)
    game = _first_game(ledger_path)
    attacker(ledger_path).execute("UPDATE scores SET multiplier = 8, bock = 'forged' WHERE game_id = ?", [game])
    head = as_json(cli("head", "--json"))["head"]
    assert cli("verify", "--expect", head).exit_code == 4  # the log extends the head; the read models differ
    _not_verified(cli, f"read model scores (game_id '{game}'): multiplier is 8, the log gives 1", "bock is 'forged'")
    _repaired_by_rebuild(cli)


def test_swapped_numbers_are_named(cli: Cli, ledger_path: str | Path, attacker: type[Attacker]) -> None:
    _imported(cli, *GAMES)
    before = [(g["number"], g["game_id"]) for g in as_json(cli("games", "--json"))]
    (_, first), (_, second) = before[:2]
    conn = attacker(ledger_path)
    rows = dict(conn.rows("SELECT game_id, first_position FROM games WHERE game_id IN (?, ?)", [first, second]))
    conn.execute("UPDATE games SET first_position = ? WHERE game_id = ?", [rows[second], first])
    conn.execute("UPDATE games SET first_position = ? WHERE game_id = ?", [rows[first], second])
    assert as_json(cli("games", "--json"))[0]["game_id"] == second  # `#1` is now the other game
    _not_verified(cli, f"read model games (game_id '{first}'): first_position is {rows[second]}, the log gives")
    _repaired_by_rebuild(cli)
    assert [(g["number"], g["game_id"]) for g in as_json(cli("games", "--json"))] == before


def test_a_deleted_game_row_is_named(cli: Cli, ledger_path: str | Path, attacker: type[Attacker]) -> None:
    _imported(cli, *GAMES)
    game = _first_game(ledger_path)
    attacker(ledger_path).execute("DELETE FROM games WHERE game_id = ?", [game])
    assert len(as_json(cli("games", "--json"))) == len(GAMES) - 1
    _not_verified(cli, f"read model games (game_id '{game}'): missing (the log gives this row)")
    _repaired_by_rebuild(cli)
    assert len(as_json(cli("games", "--json"))) == len(GAMES)


def test_a_renamed_game_is_named(cli: Cli, ledger_path: str | Path, attacker: type[Attacker]) -> None:
    _imported(cli, *GAMES)
    game = _first_game(ledger_path)
    attacker(ledger_path).execute("UPDATE games SET game_id = 'renamed' WHERE game_id = ?", [game])
    text = _not_verified(
        cli,
        f"read model games (game_id '{game}'): missing (the log gives this row)",
        "read model games (game_id 'renamed'): a row the log does not give",
    )
    assert text.count("read model games (") == 2
    _repaired_by_rebuild(cli)


def test_a_dou_dizhu_row_and_many_rows_are_named_a_few_then_counted(
    cli: Cli, ledger_path: str | Path, attacker: type[Attacker]
) -> None:
    games_played = sorted(SAMPLES.glob("[0-9]*.yaml"))  # a `score_lines` row each, more than are named
    _imported(cli, *sorted((SAMPLES / "doudizhu").glob("*.yaml")), *games_played)
    conn = attacker(ledger_path)
    conn.execute("UPDATE doudizhu_games SET stake = stake * 100")
    lines = conn.rows("SELECT count(*) FROM score_lines")[0][0]
    conn.execute("UPDATE score_lines SET points = '[99]'")
    text = _not_verified(cli, "read model doudizhu_games (game_id", "stake is", f"{lines - 3} more rows differ")
    assert text.count("read model score_lines (") == 3
    _repaired_by_rebuild(cli)


def test_every_event_deleted_with_the_read_models_kept_is_damage(
    cli: Cli, ledger_path: str | Path, attacker: type[Attacker]
) -> None:
    _imported(cli, *GAMES)
    attacker(ledger_path).execute("DELETE FROM events")
    assert len(as_json(cli("games", "--json"))) == len(GAMES)  # what the read models still show
    text = _not_verified(cli, "the log is empty, but the read models hold", "a row the log does not give")
    assert "every hash chain matches" not in text
    quick = cli("verify", "--quick")  # a check of the positions, which costs nothing, catches it too
    assert quick.exit_code == 4
    assert "the log is empty, but the read models hold" in flat(quick.stdout)
    _repaired_by_rebuild(cli)
    assert as_json(cli("games", "--json")) == []


def test_read_models_behind_the_log_are_caught_up_not_reported(cli: Cli, ledger_path: str | Path) -> None:
    _imported(cli, GAMES[0])
    _appended_behind_the_read_models(ledger_path, *GAMES[1:])
    with Ledger.open(ledger_path) as ledger:
        assert not ledger.store.read_only
        report = ledger.verify()
        assert report.ok, report.problems
        assert report.read_models == "match"
        assert runner.up_to_date(ledger.store, ledger.PROJECTIONS)  # caught up, as any read does
    ok(cli("annotate", "#1", "a note"))
    assert as_json(cli("verify", "--json"))["read_models"] == "match"


def test_quick_skips_the_read_models_and_says_so(cli: Cli, ledger_path: str | Path, attacker: type[Attacker]) -> None:
    _imported(cli, *GAMES)
    attacker(ledger_path).execute("UPDATE scores SET value = value + 1")
    result = ok(cli("verify", "--quick"))
    assert "read models: skipped (--quick: the read models were not compared with the log)" in flat(result.stdout)
    data = as_json(cli("verify", "--quick", "--json"))
    assert data["ok"] is True and data["read_models"] == "skipped"
    assert cli("verify").exit_code == 4
    head = as_json(cli("head", "--json"))["head"]
    assert ok(cli("verify", "--quick", "--expect", head)).exit_code == 0
    assert cli("verify", "--expect", head).exit_code == 4


def test_a_log_that_does_not_verify_is_not_folded(cli: Cli, ledger_path: str | Path, attacker: type[Attacker]) -> None:
    _imported(cli, *GAMES)
    attacker(ledger_path).execute("UPDATE events SET recorded_by = 'mallory' WHERE position = 5")
    result = cli("verify", "--json")
    assert result.exit_code == 4
    data = json.loads(result.stdout)
    assert data["first_bad_position"] == 5 and data["read_models"] == "not compared"
    assert data["read_models_note"] == "the log itself does not verify" and data["repair"] is None


# -- audit scores from the log --------------------------------------------------------------------


def test_audit_is_not_changed_by_a_forged_read_model(
    cli: Cli, ledger_path: str | Path, attacker: type[Attacker]
) -> None:
    _imported(cli, NIGHT)
    with Client(ledger_path) as conn:
        game, multiplier = conn.rows("SELECT game_id, multiplier FROM scores WHERE multiplier > 1 ORDER BY game_id")[0]
    before = as_json(cli("audit", game, "--json"))
    score_before = as_json(cli("score", game, "--json"))
    conn = attacker(ledger_path)
    conn.execute("UPDATE scores SET multiplier = 8, bock = 'forged' WHERE game_id = ?", [game])
    conn.execute("UPDATE games SET deal = 99 WHERE game_id = ?", [game])
    assert as_json(cli("score", game, "--json")) != score_before  # what reads the read model is fooled
    assert as_json(cli("audit", game, "--json")) == before  # audit is not
    conn.execute("UPDATE games SET night = NULL WHERE game_id = ?", [game])  # not even when the night is hidden
    assert as_json(cli("audit", game, "--json")) == before
    assert str(multiplier) in json.dumps(before)


# -- a log holding what this doko_ledger does not know --------------------------------------------


def _hand_insert_unknown_event(target: str | Path, attacker: type[Attacker]) -> None:
    """An event of a type this doko_ledger does not know, appended by hand (chained, so the log
    verifies as far as hashes go), its type not added to the `event_types` row."""
    conn = attacker(target)
    position, prev = conn.rows("SELECT position, hash FROM events ORDER BY position DESC LIMIT 1")[0]
    row = [position + 1, "game/league-table", 1, "LeagueTableKept", 1, "{}", "2026-12-01T00:00:00+00:00", "x"]
    digest = chain_hash(prev, *row)
    conn.execute(
        "INSERT INTO events (position, stream, version, type, schema_version, payload, recorded_at, recorded_by,"
        " prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [*row, prev, digest],
    )
    types = conn.rows("SELECT value FROM ledger WHERE key = 'event_types'")[0][0]
    assert "LeagueTableKept" not in types


def test_rebuild_of_a_log_holding_an_unknown_event_is_refused_and_changes_nothing(
    cli: Cli, ledger_path: str | Path, attacker: type[Attacker]
) -> None:
    _imported(cli, *GAMES)
    _hand_insert_unknown_event(ledger_path, attacker)
    before = _read_models(ledger_path)
    result = cli("rebuild")
    assert result.exit_code == 1
    refused(result, "cannot rebuild the read models of", "LeagueTableKept v1", "nothing was changed")
    assert _read_models(ledger_path) == before


def test_import_into_a_log_holding_an_unknown_event_is_refused_before_writing(
    cli: Cli, ledger_path: str | Path, attacker: type[Attacker]
) -> None:
    _imported(cli, GAMES[0])
    _hand_insert_unknown_event(ledger_path, attacker)
    with Client(ledger_path) as conn:
        events = conn.rows("SELECT count(*) FROM events")
    for files in ((GAMES[1],), (NIGHT,), (NIGHT, GAMES[1])):
        result = cli("import", *files)
        assert result.exit_code == 1
        refused(result, "holds events this doko_ledger does not know", "LeagueTableKept v1", "nothing was written")
        with Client(ledger_path) as conn:
            assert conn.rows("SELECT count(*) FROM events") == events


# -- the format row ------------------------------------------------------------------------------------


@pytest.mark.parametrize("written", ["doko-ledger/3", "doko-ledger/0", "something else"])
def test_a_format_row_changed_by_hand_is_reported_and_everything_else_verified(
    cli: Cli, ledger_path: str | Path, attacker: type[Attacker], written: str
) -> None:
    _imported(cli, *GAMES)
    conn = attacker(ledger_path)
    conn.execute("UPDATE ledger SET value = ? WHERE key = 'format'", [written])
    result = cli("verify", "--json")
    assert result.exit_code == 4
    data = json.loads(result.stdout)
    assert data["format"] == written and data["events"] > 0 and data["first_bad_position"] is None
    assert data["problems"][0].startswith(f"the format row reads {written!r}, not a format this doko_ledger knows")
    assert len(data["problems"]) == 1
    assert data["read_models"] == "match"  # compared: they were up to date
    conn.execute("UPDATE scores SET value = value + 1")  # the read models are still checked
    conn.execute("UPDATE events SET recorded_by = 'mallory' WHERE position = 3")  # and the chain
    data = json.loads(cli("verify", "--json").stdout)
    assert data["first_bad_position"] == 3
    assert any(p.startswith("the format row reads") for p in data["problems"])


def test_a_ledger_that_cannot_be_written_is_compared_without_writing_to_it(
    cli: Cli, ledger_path: str | Path, attacker: type[Attacker]
) -> None:
    _imported(cli, GAMES[0])
    _appended_behind_the_read_models(ledger_path, *GAMES[1:])
    conn = attacker(ledger_path)
    conn.execute("UPDATE ledger SET value = 'doko-ledger/3' WHERE key = 'format'")  # read, never written
    conn.execute("UPDATE scores SET value = value + 1")
    before = _stored(ledger_path)
    data = json.loads(cli("verify", "--json").stdout)
    assert data["read_models"] == "not compared", data
    assert data["read_models_note"] == "they are behind the log, and this ledger cannot be written to catch them up"
    assert _stored(ledger_path) == before
    conn.execute("UPDATE ledger SET value = 'doko-ledger/2' WHERE key = 'format'")
    ok(cli("games"))  # caught up
    conn.execute("UPDATE ledger SET value = 'doko-ledger/3' WHERE key = 'format'")
    before = _stored(ledger_path)
    result = cli("verify", "--json")
    assert result.exit_code == 4
    data = json.loads(result.stdout)
    assert data["read_models"] == "differ"
    assert any(p.startswith("read model scores (game_id") and "value is" in p for p in data["problems"])
    assert _stored(ledger_path) == before


# -- every sample --------------------------------------------------------------------------------------


def test_the_demo_ledger_of_every_sample_verifies_with_its_read_models(cli: Cli, ledger_path: str | Path) -> None:
    files = [
        *sorted(SAMPLES.glob("*.yaml")),
        *sorted((SAMPLES / "sessions").glob("*.yaml")),
        *sorted((SAMPLES / "doudizhu").glob("*.yaml")),
        *sorted((SAMPLES / "doudizhu" / "sessions").glob("*.yaml")),
    ]
    ok(cli("import", *files))
    data = as_json(cli("verify", "--json"))
    assert data["ok"] is True and data["read_models"] == "match", data["problems"]
    ok(cli("rebuild"))
    assert as_json(cli("verify", "--json"))["read_models"] == "match"
