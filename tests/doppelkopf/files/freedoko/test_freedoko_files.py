"""FreeDoko's game logs read and imported: the block grammar, the log's values with their lines,
a game imported once and refused twice, a bad log refused at its line with nothing written, a
folder imported, and FreeDoko's result kept as the game's claim for `doko audit`."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from cli_helpers import ok
from typer.testing import Result

from doko_ledger.doppelkopf.cards import parse_card
from doko_ledger.doppelkopf.events import CardPlayed, ResultClaimed
from doko_ledger.doppelkopf.files.freedoko import game, party
from doko_ledger.doppelkopf.files.freedoko.blocks import parse_blocks
from doko_ledger.doppelkopf.files.freedoko.claim import points_of
from doko_ledger.doppelkopf.files.freedoko.log import (
    FreeDokoFileError,
    Summary,
    card_name,
    card_of,
    load_game,
    loads_game,
)
from doko_ledger.doppelkopf.files.freedoko.log import Party as FreeDokoParty
from doko_ledger.doppelkopf.files.freedoko.rules import REQUIRED
from doko_ledger.doppelkopf.files.night_file import MISDEAL
from doko_ledger.doppelkopf.game.record import SummaryRecord
from doko_ledger.doppelkopf.rules.announcements import Party
from doko_ledger.formats.yaml_source import SourceError

SAMPLES = Path(__file__).resolve().parents[3] / "fixtures" / "freedoko"
GAME_LOGS = sorted(SAMPLES.glob("*/*.BugReport.FreeDoko"))
FIRST = SAMPLES / "defaults" / "game_00000.seed_053325.BugReport.FreeDoko"
Cli = Callable[..., Result]


def test_blocks_nest_by_name_and_keep_their_lines() -> None:
    root = parse_blocks("party\n{\nfirst seed = 5\nrules\n{\nwith nines = true\n}\n}\n", "t")
    party = root.block("party")
    assert party is not None and party.line == 1
    rules = party.block("rules")
    assert rules is not None and rules.line == 4
    entry = rules.entry("with nines")
    assert entry is not None and (entry.value, entry.line) == ("true", 6)


@pytest.mark.parametrize(
    ("text", "line", "what"),
    [
        ("rules\n{\nwith nines = true\n", 1, "block 'rules' is never closed"),
        ("a = 1\n}\n", 2, "'}' closes no block"),
    ],
)
def test_a_brace_without_its_partner_is_refused_at_its_line(text: str, line: int, what: str) -> None:
    with pytest.raises(SourceError) as caught:
        parse_blocks(text, "x.FreeDoko")
    assert str(caught.value) == f"x.FreeDoko:{line}: {what}" + (" (the file ends first)" if "never" in what else "")


def test_card_names_are_freedokos_both_ways() -> None:
    assert card_of("club queen") is parse_card("CQ")
    assert card_of("heart ten") is parse_card("H10")
    assert card_of("club sixteen") is None
    assert card_name(parse_card("DA")) == "diamond ace"


@pytest.mark.parametrize("path", GAME_LOGS, ids=lambda p: f"{p.parent.name}/{p.name[:10]}")
def test_every_sample_log_reads_with_four_hands_and_its_summary(path: Path) -> None:
    log = load_game(path)
    assert log.version == "0.7.13"
    assert len(log.players) == 4 and all(len(hand) == 12 for hand in log.hands)
    assert log.summary is not None and sum(log.summary.trick_points) == 240
    assert len([a for a in log.actions if a.kind == "card played"]) == 48


def test_a_log_is_read_with_its_rules_actions_and_claim() -> None:
    log = load_game(FIRST)
    assert (log.seed, log.startplayer, log.played_on) == (53325, 0, "2026-12-01")
    assert log.players == ("Mara", "Gerd", "Erika", "Sven")
    assert log.party.rules["with nines"].value == "true"
    first = next(a for a in log.actions if a.kind == "card played")
    assert (first.seat, first.fields) == (0, ("club ace",))  # FreeDoko's reason for the card is left out
    assert log.summary is not None
    assert log.summary.teams == ("contra", "contra", "re", "re")
    assert [(p.name, p.counts_for, p.player, p.of_player) for p in log.summary.specials] == [
        ("won", "re", None, None),
        ("caught fox", "re", 3, 1),
    ]
    assert points_of(log.summary) == (-2, -2, 2, 2)
    assert log.summary.player_points == (0, 0, 2, 2)  # FreeDoko counted `plus`: only the winners write


def test_an_imported_game_keeps_every_card_and_freedokos_result_as_its_claim() -> None:
    loaded = game.read(FIRST.read_text(encoding="utf-8"), str(FIRST))
    cards = [e for e in loaded.events if isinstance(e, CardPlayed)]
    assert len(cards) == 48 and cards[0].card is parse_card("CA")
    claim = loaded.events[-1]
    assert isinstance(claim, ResultClaimed)
    assert (claim.source, claim.points, claim.winner, claim.value) == ("FreeDoko 0.7.13", (-2, -2, 2, 2), Party.RE, 2)
    assert [(line.item, line.kind) for line in claim.lines] == [("won", "won"), ("caught fox", "fox_caught")]
    assert loaded.record.id.startswith("freedoko-53325-")
    assert loaded.record.note == f"Imported from FreeDoko 0.7.13: {FIRST.name}, seed 53325"
    assert loaded.state.points_won() == (116, 0, 97, 27)


def _broken(tmp_path: Path, old: str, new: str) -> Path:
    text = FIRST.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "broken.BugReport.FreeDoko"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("card played = 0, club ace (choose ace)", "card played = 0, club joker", "'club joker' is not a card"),
        (
            "card played = 1, club nine (serve color trick)",
            "card played = 1, heart ace",
            "Gerd must follow",
        ),
        ("with nines = true", "with nines = maybe", "with nines takes true or false, not 'maybe'"),
        ("knocking = false", "knocking = true", "rule 'knocking = true' is not one doko plays"),
    ],
)
def test_a_bad_log_is_refused_at_its_line_and_nothing_is_written(
    cli: Cli, tmp_path: Path, ledger_path: Path, old: str, new: str, message: str
) -> None:
    path = _broken(tmp_path, old, new)
    lines = path.read_text(encoding="utf-8").splitlines()
    line = next(i for i, text in enumerate(lines, 1) if text.strip() == new.strip())
    result = cli("import", path)
    assert result.exit_code == 2
    assert f"{path}:{line}: " in result.stderr and message in result.stderr
    assert "Traceback" not in result.output
    assert not ledger_path.exists()


def test_a_log_imported_twice_is_refused_the_second_time(cli: Cli) -> None:
    assert "imported 1 game" in ok(cli("import", FIRST)).output
    again = cli("import", FIRST)
    assert again.exit_code == 2 and "is already in the ledger" in again.stderr


def test_a_folder_imports_its_game_logs_and_passes_over_the_party_file(cli: Cli, tmp_path: Path) -> None:
    folder = tmp_path / "party"
    folder.mkdir()
    for path in [*sorted((SAMPLES / "defaults").glob("game_*"))[:3], SAMPLES / "defaults" / "party.FreeDoko"]:
        (folder / path.name).write_bytes(path.read_bytes())
    (folder / "notes.txt").write_text("not a game", encoding="utf-8")
    report = json.loads(cli("import", folder, "--json").stdout)
    logs = [p for p in folder.iterdir() if p.name.endswith(".BugReport.FreeDoko")]
    assert report["imported_games"] + len(report["errors"]) == len(logs) == 3
    [remark] = report["remarks"]
    assert remark["files"] == report["imported_games"]
    assert remark["remark"].startswith("FreeDoko options left out (its display, computer players, party length): ")
    assert "show all hands" in remark["remark"] and "with nines" not in remark["remark"]


def test_audit_sets_freedokos_derivation_against_dokos(cli: Cli) -> None:
    ok(cli("import", FIRST))
    game_id = json.loads(ok(cli("games", "--json")).stdout)[0]["game_id"]
    result = ok(cli("audit", game_id, "--json"))
    checks = {c["name"]: c for c in json.loads(result.stdout)["checks"]}
    check = checks["the derivation agrees with FreeDoko 0.7.13's"]
    assert check["ok"] is True
    assert FIRST.name in check["details"][0]


def test_audit_names_the_line_that_differs_from_freedokos(tmp_path: Path, cli: Cli) -> None:
    # FreeDoko's summary says Re caught two foxes: one more than the cards show.
    path = _broken(
        tmp_path, "caught fox = re, re, 3, 1, 1\n}", "caught fox = re, re, 3, 1, 1\ncaught fox = re, re, 3, 1, 1\n}"
    )
    ok(cli("import", path))
    game_id = json.loads(ok(cli("games", "--json")).stdout)[0]["game_id"]
    result = cli("audit", game_id, "--json")
    checks = {c["name"]: c for c in json.loads(result.stdout)["checks"]}
    assert checks["the derivation agrees with FreeDoko 0.7.13's"]["details"] == [
        "fox caught (Fuchs) for Re: 1 here, 2 in FreeDoko 0.7.13's (caught fox)"
    ]


def test_a_log_that_is_not_freedokos_reads_as_an_error() -> None:
    with pytest.raises(FreeDokoFileError, match="not a FreeDoko game log"):
        loads_game("hello\n", "x")


def test_a_party_file_without_summaries_is_refused(cli: Cli) -> None:
    result = cli("import", SAMPLES / "marriage" / "party.FreeDoko")
    assert result.exit_code == 2 and "holds no game summaries yet" in result.stderr


@pytest.mark.parametrize("option", sorted(REQUIRED))
def test_an_option_set_to_a_value_doko_does_not_play_refuses_the_game_whole(
    cli: Cli, tmp_path: Path, ledger_path: Path, option: str
) -> None:
    text = FIRST.read_text(encoding="utf-8")
    other = "false" if REQUIRED[option] == "true" else "true" if REQUIRED[option] == "false" else "7"
    line = re.compile(rf"^(\s*){re.escape(option)} = {re.escape(REQUIRED[option])}$", re.M)
    assert line.search(text)
    path = tmp_path / "other.BugReport.FreeDoko"
    path.write_text(line.sub(rf"\g<1>{option} = {other}", text, count=1), encoding="utf-8")
    result = cli("import", path)
    assert result.exit_code == 2
    assert f"rule '{option} = {other}' is not one doko plays" in result.stderr
    assert not ledger_path.exists()


def test_doko_export_writes_a_freedoko_log_that_imports_as_the_same_game(cli: Cli, tmp_path: Path) -> None:
    ok(cli("import", FIRST))
    game_id = json.loads(ok(cli("games", "--json")).stdout)[0]["game_id"]
    out = tmp_path / "out.BugReport.FreeDoko"
    ok(cli("export", game_id, "--format", "freedoko", "-o", out))
    again = game.read(out.read_text(encoding="utf-8"), str(out))
    first = game.read(FIRST.read_text(encoding="utf-8"), str(FIRST))
    assert load_game(out).seed == 53325
    assert [e for e in again.events if isinstance(e, CardPlayed)] == [
        e for e in first.events if isinstance(e, CardPlayed)
    ]
    assert again.state.points_won() == first.state.points_won()
    claim = again.events[-1]
    assert isinstance(claim, ResultClaimed) and claim.points == (-2, -2, 2, 2)


def test_a_game_freedoko_played_in_a_bock_round_agrees_with_the_round_taken_out(tmp_path: Path, cli: Cli) -> None:
    text = FIRST.read_text(encoding="utf-8")
    for old, new in [
        ("winnerteam = re\npoints = 2\n", "winnerteam = re\npoints = 4\n"),
        ("caught fox = re, re, 3, 1, 1\n}\n}", "caught fox = re, re, 3, 1, 1\nbock = re, re, -, -, 2\n}\n}"),
        ("player points = 0, 0, 2, 2", "player points = 0, 0, 4, 4"),
    ]:
        assert old in text
        text = text.replace(old, new, 1)
    path = tmp_path / "bock.BugReport.FreeDoko"
    path.write_text(text, encoding="utf-8")
    checked = json.loads(cli("import", "--check", path, "--json").stdout)
    assert (checked["agree"], checked["differ"]) == (1, 0)
    ok(cli("import", path))
    game_id = json.loads(ok(cli("games", "--json")).stdout)[0]["game_id"]
    report = json.loads(ok(cli("audit", game_id, "--json")).stdout)
    check = next(c for c in report["checks"] if c["name"] == "the derivation agrees with FreeDoko 0.7.13's")
    assert check["ok"] is True
    assert "in a bock round (×2) of a night not in the ledger: taken out" in check["details"][-1]
    assert report["claim"]["difference"] == {"Mara": 0, "Gerd": 0, "Erika": 0, "Sven": 0}


def test_a_lone_marriage_in_a_party_is_a_marriage_with_its_bride_alone_and_a_throw_a_misdeal() -> None:
    players = ("Mara", "Gerd", "Erika", "Sven")
    lone = Summary(
        line=1,
        seed=1,
        startplayer=0,
        soloplayer=2,
        gametype="marriage solo",
        teams=("contra", "contra", "re", "contra"),
        highest_re="no announcement",
        highest_contra="no announcement",
        trick_points=(30, 20, 150, 40),
        winner="re",
        points=1,
        specials=(),
    )
    deal = party.deal_of(FreeDokoParty({}, players, (lone,)), lone, "p")
    assert isinstance(deal, SummaryRecord)
    assert (deal.game, deal.re, deal.re_points) == ("marriage", ("Erika",), 150)
    thrown = replace(lone, gametype="fox highest trump")
    assert party.deal_of(FreeDokoParty({}, players, (thrown,)), thrown, "p") is MISDEAL
