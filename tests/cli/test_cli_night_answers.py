"""What a card night answers about its deals (docs/rules.md §9): a deal's score knows its night
(the bock round it is played in), a finished live deal shows its result, a refusal at the
table keeps hidden parties hidden, voided and corrected deals are marked everywhere, and
`undo` says what it took back."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from backends import Attacker, ledger_path_on_both  # noqa: F401  (every test on both databases)
from cli_helpers import as_json, flat, ok, refused
from conftest import CLI_ENV
from test_cli_nights import FOUR, SEED, _rest_of_the_game, record, standings, start
from typer.testing import CliRunner, Result

from doko_ledger.cli.app import app
from doko_ledger.doppelkopf.book import card_nights
from doko_ledger.games import DOPPELKOPF

Cli = Callable[..., Result]

TIE_IS_BOCK = "deal 1, 120:120 tie"


@pytest.fixture
def bock_night(cli: Cli, tmp_path: Path) -> Cli:
    """Deal 1 a 120:120 tie (starts a bock round of four deals), deal 2 a normal game Re wins
    (worth 1, doubled in the bock round)."""
    rules = tmp_path / "bock.yaml"
    rules.write_text("preset: standard\nbock_triggers: [tie]\nbock_multiplier: 2\n", encoding="utf-8")
    start(cli, "b", FOUR, "--rules", rules)
    record(cli, "--re", "Anna,Clara", "--re-points", "120")
    return cli


def _scores_row(ledger_path: str | Path, game_id: str) -> tuple[Any, ...]:
    with Attacker(ledger_path) as db:
        (row,) = db.rows("SELECT seat0, seat1, seat2, seat3, multiplier, bock FROM scores WHERE game_id = ?", [game_id])
    return row


# -- 1. bock rounds in score, audit, exports and the read models ------------------------------


def test_the_record_preview_shows_the_bock_round(bock_night: Cli) -> None:
    preview = flat(record(bock_night, "--re", "Anna,Ben", "--re-points", "150").stdout)
    assert "bock x2" in preview and TIE_IS_BOCK in preview
    # the preview's points are the standings' points
    assert "Anna +2 Ben +2 Clara -2 Dirk -2" in preview
    assert standings(bock_night)["deals"][1]["points"] == {"Anna": 2, "Ben": 2, "Clara": -2, "Dirk": -2}


def test_score_of_a_bock_deal_agrees_with_the_standings(bock_night: Cli) -> None:
    record(bock_night, "--re", "Anna,Ben", "--re-points", "150")
    night = standings(bock_night)
    assert night["deals"][1]["bock"] == TIE_IS_BOCK
    result = as_json(bock_night("score", "b-02", "--json"))
    assert result["players"] == night["deals"][1]["points"]
    assert result["value"] == 2
    assert result["lines"][-1] == {
        "item": "bock x2",
        "party": None,
        "points": 0,
        "factor": 2,
        "special": False,
        "cause": TIE_IS_BOCK,
    }
    assert result["night"]["bock"] == {"multiplier": 2, "cause": TIE_IS_BOCK}
    assert "bock x2" in ok(bock_night("score", "b-02")).stdout
    # the deal that started the round is not in one itself
    assert as_json(bock_night("score", "b-01", "--json"))["night"]["bock"] is None


def test_a_bock_deals_score_says_what_started_the_round_in_the_readers_language(bock_night: Cli) -> None:
    record(bock_night, "--re", "Anna,Ben", "--re-points", "150")
    german = flat(ok(bock_night("--lang", "de", "score", "b-02")).stdout)
    assert "Bock ×2" in german
    assert "120:120 unentschieden" in german and TIE_IS_BOCK not in german
    english = flat(ok(bock_night("score", "b-02")).stdout)
    assert TIE_IS_BOCK in english
    # a script keeps the English words in any language
    assert as_json(bock_night("--lang", "de", "score", "b-02", "--json"))["lines"][-1]["cause"] == TIE_IS_BOCK


def test_rescoring_under_other_rules_keeps_the_nights_multiplier(bock_night: Cli) -> None:
    record(bock_night, "--re", "Anna,Ben", "--re-points", "150", "--call", "Anna=re")
    own, ddv = as_json(bock_night("score", "b-02", "--rules", "ddv", "--json"))
    assert own["players"]["Anna"] == 2 * 3  # won 1 + Re announced 2, in the bock round
    assert ddv["lines"][-1]["item"] == "bock x2"
    assert ddv["players"]["Anna"] % 2 == 0 and ddv["players"]["Anna"] > 0


def test_audit_takes_the_standings_claim_and_explains_the_unbocked_one(bock_night: Cli) -> None:
    record(bock_night, "--re", "Anna,Ben", "--re-points", "150")
    claimed = ",".join(f"{p}={v:+d}" for p, v in standings(bock_night)["deals"][1]["points"].items())
    result = ok(bock_night("audit", "b-02", "--claimed", claimed))
    assert "the claim matches the computed score" in result.stdout
    unbocked = bock_night("audit", "b-02", "--claimed", "Anna=+1,Ben=+1,Clara=-1,Dirk=-1", "--json")
    assert unbocked.exit_code == 5
    report = as_json_any(unbocked)
    assert report["claim"]["right_under_rules"] == [f"standard without the night's bock x2 ({TIE_IS_BOCK})"]
    assert report["claim"]["explained_by_lines"] == []
    assert report["score"]["players"]["Anna"] == 2


def as_json_any(result: Result) -> Any:
    """The JSON a command printed, whatever its exit code."""
    import json

    return json.loads(result.stdout)


def test_the_html_export_and_the_replay_carry_the_bock_round(bock_night: Cli) -> None:
    record(bock_night, "--re", "Anna,Ben", "--re-points", "150")
    page = ok(bock_night("export", "b-02", "--format", "html")).stdout
    assert "bock x2" in page
    replay = as_json(bock_night("replay", "b-02", "--json"))
    assert replay["night"]["deal"] == 2 and replay["night"]["bock"]["cause"] == TIE_IS_BOCK


def test_the_scores_read_model_agrees_with_the_standings_and_follows_a_correction(
    bock_night: Cli, ledger_path: Path
) -> None:
    record(bock_night, "--re", "Anna,Ben", "--re-points", "150")
    ok(bock_night("games"))  # the read models catch up
    assert _scores_row(ledger_path, "b-02") == (2, 2, -2, -2, 2, TIE_IS_BOCK)
    # no tie after all: the bock round disappears from every answer
    ok(bock_night("correct", "b-01", "--re", "Anna,Clara", "--re-points", "130", "--yes"))
    ok(bock_night("games"))
    assert _scores_row(ledger_path, "b-02") == (1, 1, -1, -1, 1, None)
    assert as_json(bock_night("score", "b-02", "--json"))["players"]["Anna"] == 1
    # a rebuild gives the same rows
    ok(bock_night("rebuild"))
    assert _scores_row(ledger_path, "b-02") == (1, 1, -1, -1, 1, None)


# -- 2. the last card of a live deal shows the result ------------------------------------------


def test_the_last_card_by_token_shows_the_result_and_the_score(cli: Cli, ledger_path: Path) -> None:
    start(cli, "p")
    ok(cli("deal", "--seed", SEED))
    ok(cli("play", "Dirk=club_solo"))
    rest = _rest_of_the_game(ledger_path, "p", "p-01")
    ok(cli("play", *rest[:-1]))
    result = ok(cli("play", rest[-1]))
    shown = flat(result.stdout)
    assert "the deal is complete" in shown
    points = standings(cli)["deals"][0]["points"]
    assert " wins " in shown
    assert all(f"{p} {v:+d}" in shown for p, v in points.items()), shown


def test_the_last_card_at_the_prompt_shows_the_result(
    cli: Cli, ledger_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    start(cli, "p")
    ok(cli("deal", "--seed", SEED))
    ok(cli("play", "Dirk=club_solo"))
    rest = _rest_of_the_game(ledger_path, "p", "p-01")
    monkeypatch.setattr("doko_ledger.cli.table.interactive", lambda: True)
    result = CliRunner().invoke(
        app, ["--db", str(ledger_path), "play"], input="\n".join(rest) + "\n", env=CLI_ENV, catch_exceptions=True
    )
    assert result.exit_code == 0, result.output
    assert "no deal is being played" not in result.output
    shown = flat(result.stdout)
    assert "the deal is complete" in shown and " wins " in shown
    assert standings(cli)["deals"][0]["game_type"] == "club_solo"


# -- 3. a refusal at the table keeps a hidden party hidden -------------------------------------


def test_a_refused_call_does_not_tell_a_hidden_party(cli: Cli, ledger_path: Path) -> None:
    start(cli, "p")
    ok(cli("deal", "--seed", SEED))
    ok(cli("play", "Anna=healthy", "Ben=healthy", "Clara=healthy", "Dirk=healthy"))
    game = as_json(cli("replay", "p-01", "--json"))
    assert game["game_type"] in ("normal", "silent_solo")  # no party is public before the first card
    truth = game["parties_true"]
    # a Re player says Kontra before any card: the table knows no party yet
    re_player = next(p for p, party in truth.items() if party == "re")
    line = refused(cli("play", f"{re_player}=kontra"), f"{re_player} cannot announce Kontra")
    assert " is Re" not in line and "Re player" not in line


# -- 4. voided and corrected deals are marked everywhere ---------------------------------------


def test_voided_and_corrected_deals_are_marked_everywhere(cli: Cli) -> None:
    start(cli, "n")
    record(cli, "--re", "Anna,Clara", "--re-points", "150")
    record(cli, "--re", "Anna,Ben", "--re-points", "150")
    ok(cli("undo", "-y"))
    record(cli, "--re", "Anna,Ben", "--re-points", "100")
    ok(cli("correct", "1", "--re", "Ben,Dirk", "--re-points", "150", "--yes"))
    rows = {g["game_id"]: g for g in as_json(cli("games", "--json"))}
    assert {g: (r["deal"], r["status"], r["corrected_by"], r["replaces"]) for g, r in rows.items()} == {
        "n-01": (1, "corrected", "n-01-c1", None),
        "n-02": (2, "voided", None, None),
        "n-02b": (2, "in force", None, None),
        "n-01-c1": (1, "in force", None, "n-01"),
    }
    listed = flat(ok(cli("games")).stdout)
    assert "voided" in listed and "corrected by n-01-c1" in listed and "replaces n-01" in listed
    score = as_json(cli("score", "n-02", "--json"))
    assert score["night"]["status"] == "voided"
    assert "voided" in ok(cli("score", "n-02")).stdout
    assert "corrected by n-01-c1" in flat(ok(cli("score", "n-01")).stdout)
    assert as_json(cli("replay", "n-01-c1", "--json"))["night"]["replaces"] == "n-01"
    assert "deal 2 of n, voided" in ok(cli("replay", "n-02")).stdout
    audit = as_json(cli("audit", "n-01", "--json"))
    assert audit["night"]["corrected_by"] == "n-01-c1"
    assert "corrected by n-01-c1" in flat(ok(cli("audit", "n-01")).stdout)
    assert "deal 2 of n (voided)" in ok(cli("export", "n-02", "--format", "html")).stdout


def test_deal_numbers_and_ids_stay_in_step_after_an_undo(cli: Cli) -> None:
    start(cli, "n")
    record(cli, "--re", "Anna,Clara", "--re-points", "150")
    record(cli, "--re", "Anna,Ben", "--re-points", "150")
    ok(cli("undo", "-y"))
    ok(cli("undo", "-y"))
    assert "recorded deal 1 as n-01b" in record(cli, "--re", "Anna,Ben", "--re-points", "150").stdout
    assert "recorded deal 2 as n-02b" in record(cli, "--re", "Anna,Ben", "--re-points", "150").stdout
    assert "recorded deal 3 as n-03" in record(cli, "--re", "Anna,Ben", "--re-points", "150").stdout
    assert [(d["number"], d["game_id"]) for d in standings(cli)["deals"]] == [(1, "n-01b"), (2, "n-02b"), (3, "n-03")]


# -- 5. correct takes the deal number, previews old and new, makes a misdeal, --json ----------


def test_correct_by_the_deal_number_previews_old_and_new_side_by_side(cli: Cli) -> None:
    start(cli, "n")
    record(cli, "--re", "Anna,Clara", "--re-points", "150")
    record(cli, "--re", "Anna,Ben", "--re-points", "150")
    result = ok(cli("correct", "2", "--re", "Anna,Ben", "--re-points", "150", "--call", "Anna=re", "--yes"))
    text = result.stdout
    assert "deal 2: n-02 as recorded, n-02-c1 corrected" in text
    rows = [line.split() for line in text.splitlines() if line.split()[:1] in (["player"], ["Anna"], ["Clara"])]
    assert rows[-3:] == [["player", "as", "recorded", "corrected"], ["Anna", "+1", "+3"], ["Clara", "-1", "-3"]]
    assert text.splitlines()[-1] == "deal 2 (n-02) corrected: now n-02-c1"
    # the corrected deal is corrected again by the same number, keeping Anna's Re
    again = as_json(cli("correct", "2", "--re-points", "100", "--yes", "--json"))
    assert (again["deal"], again["game_id"], again["new_game_id"]) == (2, "n-02-c1", "n-02-c2")
    # now Kontra wins against an announced Re (docs/rules.md §7)
    assert again["before"]["players"]["Anna"] == 3 and again["after"]["players"]["Anna"] == -4
    assert [d["game_id"] for d in standings(cli)["deals"]] == ["n-01", "n-02-c2"]
    refused(cli("correct", "3", "--re", "Anna,Ben", "--re-points", "100", "--yes"), "has no deal 3")
    refused(
        cli("correct", "n-02", "--re", "Anna,Ben", "--re-points", "100", "--yes"),
        "corrected by n-02-c1",
        "correct deal 2",
    )


def test_correct_can_make_the_last_deal_a_misdeal(cli: Cli) -> None:
    start(cli, "n")
    record(cli, "--re", "Anna,Clara", "--re-points", "150")
    record(cli, "--re", "Anna,Ben", "--re-points", "150")
    result = as_json(cli("correct", "2", "--misdeal", "--yes", "--json"))
    assert result["after"]["note"] == "thrown in: misdeal"
    assert result["after"]["players"] == {"Anna": 0, "Ben": 0, "Clara": 0, "Dirk": 0}
    night = standings(cli)
    assert night["deals"][1]["thrown_in"] is True
    assert night["next"]["dealer"] == "Ben"  # the same dealer deals again after a misdeal


# -- 6. undo says what it took back -------------------------------------------------------------


def test_undo_names_the_card_the_call_and_the_deal(cli: Cli) -> None:
    start(cli, "p")
    ok(cli("deal", "--seed", SEED))
    ok(cli("play", "Dirk=club_solo", "S10", "S9", "Dirk=re"))
    assert ok(cli("undo", "-y")).stdout.strip() == "took back Dirk's Re (deal 1, p-01)"
    assert ok(cli("undo", "-y")).stdout.strip() == "took back Clara's S9 in trick 1 (deal 1, p-01)"
    ok(cli("undo", "-y"))
    assert ok(cli("undo", "-y")).stdout.strip() == "took back Dirk's reservation (club solo) (deal 1, p-01)"


def test_a_ledger_with_the_older_games_tables_folds_them_again(cli: Cli, ledger_path: Path) -> None:
    """Tables written before the night's columns existed are replaced on the next read."""
    start(cli, "n")
    record(cli, "--re", "Anna,Clara", "--re-points", "150")
    ok(cli("undo", "-y"))
    ok(cli("games"))
    with Attacker(ledger_path) as db:  # as the previous version left them
        for column in ("night", "deal", "status", "corrected_by", "replaces"):
            db.execute(f"ALTER TABLE games DROP COLUMN {column}")
        db.execute("UPDATE projection_positions SET name = 'games' WHERE name = 'games-v5'")
    (row,) = as_json(cli("games", "--json"))
    assert (row["game_id"], row["status"]) == ("n-01", "voided")
    with Attacker(ledger_path) as db:
        names = [r[0] for r in db.rows("SELECT name FROM projection_positions ORDER BY name")]
    assert "games" not in names and "games-v5" in names


def test_a_ledger_with_the_games_tables_before_bock_extra_folds_them_again(cli: Cli, ledger_path: Path) -> None:
    """Tables written before `scores.bock_extra` existed (projection games-v2) are replaced on the
    next read: every read command finds the column."""
    start(cli, "n")
    record(cli, "--re", "Anna,Clara", "--re-points", "150")
    ok(cli("games"))
    with Attacker(ledger_path) as db:  # as the previous version left them
        db.execute("ALTER TABLE scores DROP COLUMN bock_extra")
        db.execute("UPDATE projection_positions SET name = 'games-v2' WHERE name = 'games-v5'")
    assert as_json(cli("score", "n-01", "--json"))["night"]["deal"] == 1
    with Attacker(ledger_path) as db:
        names = [r[0] for r in db.rows("SELECT name FROM projection_positions ORDER BY name")]
        extras = [r[0] for r in db.rows("SELECT bock_extra FROM scores")]
    assert "games-v2" not in names and "games-v5" in names and extras == [0]


def test_a_ledger_with_a_row_per_trick_folds_its_games_tables_again(cli: Cli, ledger_path: Path) -> None:
    """Tricks and parties kept a row per trick and per seat (projection games-v3) are replaced on
    the next read by a row per game."""
    start(cli, "n")
    ok(cli("deal", "--seed", SEED))
    ok(cli("play", "Dirk=club_solo", "S10", "S9"))
    with Attacker(ledger_path) as db:  # as the previous version left them
        db.execute("DROP TABLE tricks")
        db.execute(
            "CREATE TABLE tricks (game_id TEXT NOT NULL, number BIGINT NOT NULL, leader TEXT NOT NULL,"
            " cards TEXT NOT NULL, winner TEXT, points BIGINT NOT NULL, PRIMARY KEY (game_id, number))"
        )
        db.execute("DROP TABLE parties")
        db.execute(
            "CREATE TABLE parties (game_id TEXT NOT NULL, seat BIGINT NOT NULL, player TEXT NOT NULL, party TEXT,"
            " public_in_trick BIGINT, public_cause TEXT, PRIMARY KEY (game_id, seat))"
        )
        db.execute("UPDATE projection_positions SET name = 'games-v3' WHERE name = 'games-v5'")
    ok(cli("games"))
    with Attacker(ledger_path) as db:
        names = [r[0] for r in db.rows("SELECT name FROM projection_positions ORDER BY name")]
        tricks = [tuple(r) for r in db.rows("SELECT game_id, cards, winners, points FROM tricks")]
        parties = [tuple(r) for r in db.rows("SELECT game_id, player3, party3 FROM parties")]
    assert "games-v3" not in names and "games-v5" in names
    assert tricks == [("n-01", '["S10 S9"]', "[null]", "[10]")]
    assert parties == [("n-01", "Dirk", "re")]


def test_a_ledger_with_a_row_per_score_line_folds_its_games_tables_again(cli: Cli, ledger_path: Path) -> None:
    """Score lines kept a row per line (projection games-v4) are replaced on the next read by a
    row per game."""
    start(cli, "n")
    record(cli, "--re", "Anna,Clara", "--re-points", "150")
    with Attacker(ledger_path) as db:  # as the previous version left them
        db.execute("DROP TABLE score_lines")
        db.execute(
            "CREATE TABLE score_lines (game_id TEXT NOT NULL, number BIGINT NOT NULL, item TEXT NOT NULL, party TEXT,"
            " points BIGINT NOT NULL, factor BIGINT NOT NULL, special BIGINT NOT NULL, cause TEXT NOT NULL,"
            " PRIMARY KEY (game_id, number))"
        )
        db.execute("UPDATE projection_positions SET name = 'games-v4' WHERE name = 'games-v5'")
    ok(cli("games"))
    with Attacker(ledger_path) as db:
        names = [r[0] for r in db.rows("SELECT name FROM projection_positions ORDER BY name")]
        lines = [tuple(r) for r in db.rows("SELECT game_id, items, parties, points FROM score_lines")]
    assert "games-v4" not in names and "games-v5" in names
    goals = '["Re\'s goal: target 121", "Kontra\'s goal: target 120", "won"]'
    assert lines == [("n-01", goals, '["re", "kontra", "re"]', "[0, 0, 1]")]


def test_a_deals_place_from_the_read_models_is_the_place_the_night_folds(bock_night: Cli, ledger_path: Any) -> None:
    """`Ledger.place` reads a scored deal's place from the read models (one look-up, no fold of
    the night): for every deal, in force, in a bock round, voided and corrected, it is the
    place the night's own events give, and it follows a void that takes a bock round away."""
    from doko_ledger.doppelkopf import game_list
    from doko_ledger.ledger import Ledger

    cli = bock_night
    for points in ("150", "121", "119"):
        record(cli, "--re", "Ben,Dirk", "--re-points", points)
    ok(cli("undo", "-y"))
    ok(cli("correct", "2", "--re", "Anna,Ben", "--re-points", "130", "--yes"))

    def places() -> dict[str, Any]:
        with Ledger.open(ledger_path) as ledger:
            ledger.refresh()
            folded = card_nights(ledger).night("b").places()
            read = {game_id: game_list.place_of(ledger.store.db, game_id) for game_id in folded}
            assert {g: ledger.book_of(DOPPELKOPF).place(g) for g in folded} == folded
        assert read == folded
        return folded

    before = places()
    assert {p.status for p in before.values()} == {"in force", "voided", "corrected"}
    assert any(p.bock is not None for p in before.values())
    ok(cli("correct", "1", "--re", "Anna,Clara", "--re-points", "150", "--yes"))  # no tie: no bock round
    after = places()
    assert all(p.bock is None for p in after.values())
