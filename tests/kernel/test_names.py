"""Players' names (doko_ledger.names): kept in NFC, refused when they hold what a reader cannot
see, refused when two at one table differ only in case or in look-alike letters; the same
checks for Doppelkopf games, card nights, Dou Dizhu deals and every file; and players called
`all` or `tournament` still get their own view."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import ok, refused
from typer.testing import Result

from doko_ledger.doppelkopf.files import game_file
from doko_ledger.doppelkopf.files import night_file as session_file
from doko_ledger.doppelkopf.game import StartGame, decide
from doko_ledger.doppelkopf.game.commands import IllegalMove
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.nights.decide import StartNight
from doko_ledger.doppelkopf.nights.night import Night
from doko_ledger.doppelkopf.rules.ruleset import preset
from doko_ledger.doudizhu.commands import Deal
from doko_ledger.doudizhu.decide import decide as decide_doudizhu
from doko_ledger.doudizhu.errors import IllegalMove as DouDizhuIllegalMove
from doko_ledger.doudizhu.state import DealState
from doko_ledger.formats.yaml_source import SourceError
from doko_ledger.names import look_alike, name_problem, normalized, table_problem

Cli = Callable[..., Result]

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"
ZOE_NFD = "Zoe\u0308"
ZOE = "Zo\u00eb"


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("Be\u200bn", "U+200B ZERO WIDTH SPACE"),
        ("Be\u200dn", "U+200D ZERO WIDTH JOINER"),
        ("An\u202ena", "U+202E RIGHT-TO-LEFT OVERRIDE"),
        ("An\u2066na", "U+2066 LEFT-TO-RIGHT ISOLATE"),
        ("\u200fAnna", "U+200F RIGHT-TO-LEFT MARK"),
        ("An\u00adna", "U+00AD SOFT HYPHEN"),
        ("Anna\ufeff", "U+FEFF ZERO WIDTH NO-BREAK SPACE"),
        ("Anna\u2060", "U+2060 WORD JOINER"),
        ("\u3164", "U+3164 HANGUL FILLER"),
        ("Anna\ufe0f", "U+FE0F VARIATION SELECTOR-16"),
        ("Anna\U000e0041", "U+E0041 TAG LATIN CAPITAL LETTER A"),
        ("Anna\ue000", "U+E000"),
        ("Anna\u00a0Lena", "a space other than a plain one (U+00A0 NO-BREAK SPACE)"),
        ("Anna\u3000Lena", "U+3000 IDEOGRAPHIC SPACE"),
        ("An\x1bna", "a control character or line break"),
        ("An\u2028na", "a control character or line break"),
        ("x" * 101, "longer than 100 characters"),
        ("\u0301\u0301", "only combining marks (U+0301 COMBINING ACUTE ACCENT)"),
        ("\u0301 \u0308", "only combining marks (U+0301 COMBINING ACUTE ACCENT)"),
        ("\u20dd", "only combining marks (U+20DD COMBINING ENCLOSING CIRCLE)"),
        ("\u0903\u0903", "only combining marks (U+0903 DEVANAGARI SIGN VISARGA)"),
        ("\u034f\u0301", "U+034F COMBINING GRAPHEME JOINER"),
    ],
)
def test_a_name_with_what_nobody_sees_is_refused(name: str, says: str) -> None:
    problem = name_problem(name)
    assert problem is not None and says in str(problem)


@pytest.mark.parametrize(
    "name",
    [
        "Ren\u0301e",
        "a\u0301",
        "Anna",
        "Zoë",
        "José María",
        "Łukasz",
        "Ólafur",
        "李",
        "Ἀλέξανδρος",
        "Анна",
        "O'Brien",
        "all",
        "x" * 100,
    ],
)
def test_ordinary_names_pass(name: str) -> None:
    assert name_problem(name) is None


@pytest.mark.parametrize(
    ("first", "second", "how"),
    [
        ("Anna", "anna", "only in case"),
        ("Ben", "BEN", "only in case"),
        ("Anna", "\u0410nna", "U+0410 CYRILLIC CAPITAL LETTER A"),
        ("Paul", "\u0420aul", "U+0420 CYRILLIC CAPITAL LETTER ER"),
        ("Olga", "Olg\u0430", "U+0430 CYRILLIC SMALL LETTER A"),
        ("Anna", "\u0410NNA", "look-alike"),
        ("Tim", "\u03a4im", "U+03A4 GREEK CAPITAL LETTER TAU"),
        ("Kai", "\u039aai", "U+039A GREEK CAPITAL LETTER KAPPA"),
        ("Ben", "\uff22\uff45\uff4e", "U+FF22 FULLWIDTH LATIN CAPITAL LETTER B"),
        ("Bob", "B0b", "U+0030 DIGIT ZERO"),
        ("Ian", "lan", "look-alike"),
        ("Emil", "Emi1", "look-alike"),
        ("Fiona", "\ufb01ona", "U+FB01 LATIN SMALL LIGATURE FI"),
        ("Max", "\U0001d40cax", "MATHEMATICAL BOLD CAPITAL M"),
    ],
)
def test_names_that_look_the_same_cannot_share_a_table(first: str, second: str, how: str) -> None:
    assert look_alike([first, "Dirk", second]) == (first, second)
    found = table_problem([first, "Dirk", second])
    assert found is not None
    problem = str(found)
    assert how in problem and repr(first) in problem and repr(second) in problem


@pytest.mark.parametrize(
    "players",
    [
        ("Anna", "Ben", "Clara", "Dirk"),
        ("Ian", "Lan", "Li", "Ll"),
        ("Zoë", "Zoe", "Anna", "Anne"),
        ("Анна", "Anna", "Ben", "Dirk"),  # a Cyrillic name that is not only look-alike letters
        ("all", "tournament", "Clara", "Dirk"),
    ],
)
def test_names_that_can_be_told_apart_can(players: tuple[str, ...]) -> None:
    assert table_problem(players) is None


def test_names_are_kept_composed() -> None:
    assert normalized(ZOE_NFD) == ZOE
    game = decide(GameState(), StartGame("g", (ZOE_NFD, "Ben", "Clara", "Dirk"), 0, preset("standard")))[0]
    assert game.players[0] == ZOE  # type: ignore[attr-defined]
    night = Night()
    night.start(StartNight("n", (ZOE_NFD, "Ben", "Clara", "Dirk"), 0, preset("standard")))
    assert night.state.players[0] == ZOE
    with pytest.raises(IllegalMove, match="sits at the table twice"):
        decide(GameState(), StartGame("g", (ZOE_NFD, ZOE, "Clara", "Dirk"), 0, preset("standard")))


def test_every_game_refuses_look_alikes() -> None:
    four = ("Anna", "Ben", "\u0410nna", "Dirk")
    with pytest.raises(IllegalMove, match="look-alike"):
        decide(GameState(), StartGame("g", four, 0, preset("standard")))
    with pytest.raises(IllegalMove, match="look-alike"):
        Night().start(StartNight("n", four, 0, preset("standard")))
    with pytest.raises(DouDizhuIllegalMove, match="only in case"):
        decide_doudizhu(DealState(), Deal("d", ("Li", "Wang", "LI"), 0, 1))


def _game_text(players: str, re: str = "[Anna, Dirk]") -> str:
    return (
        f"format: doko-game/1\nid: names\nplayers: {players}\ndealer: Dirk\nrules: standard\n"
        f"summary:\n  game: normal\n  re: {re}\n  re_points: 151\n"
    )


def test_a_game_file_refuses_look_alikes_with_the_line() -> None:
    with pytest.raises(SourceError) as raised:
        game_file.read(_game_text("[Anna, Ben, \u0410nna, Dirk]"), "g.yaml")
    assert str(raised.value).startswith("g.yaml:3: players")
    assert "U+0410 CYRILLIC CAPITAL LETTER A" in str(raised.value)


def test_a_file_written_in_decomposed_letters_is_one_name() -> None:
    loaded = game_file.read(_game_text(f"[Anna, Ben, {ZOE_NFD}, Dirk]", f"[Anna, {ZOE}]"), "g.yaml")
    assert loaded.state.players[2] == ZOE
    assert unicodedata.is_normalized("NFC", game_file.dumps(loaded.record))


def test_a_session_file_refuses_names_that_differ_in_case() -> None:
    text = (SAMPLES / "sessions" / "01-kitchen-bock.yaml").read_text(encoding="utf-8")
    text = text.replace("players: [Anna, Ben, Clara, Dirk]", "players: [Anna, Ben, Clara, ANNA]")
    with pytest.raises(SourceError, match="only in case") as raised:
        session_file.read(text, "s.yaml")
    assert str(raised.value).startswith("s.yaml:7: players")


def test_the_command_line_refuses_look_alikes(cli: Cli) -> None:
    refused(cli("session", "start", "n", "--players", "Anna,Ben,\uff22\uff45\uff4e,Dirk"), "FULLWIDTH LATIN CAPITAL")
    refused(cli("session", "start", "n", "--players", "Anna,Be\u200bn,Clara,Dirk"), "U+200B ZERO WIDTH SPACE")
    error = refused(cli("session", "start", "n", "--players", "9" * 5000 + ",Ben,Clara,Dirk"), "longer than 100")
    assert len(error) < 200


MARKS = "\u0301\u0301"
"""A name of combining marks alone: it prints as nothing."""


def test_every_way_in_refuses_a_name_of_combining_marks_alone(cli: Cli) -> None:
    says = "only combining marks (U+0301 COMBINING ACUTE ACCENT)"
    refused(cli("session", "start", "n", "--players", f"Anna,Ben,{MARKS},Dirk"), says)
    refused(cli("ddz", "start", "d", "--players", f"Li,{MARKS},Zhang"), says)
    with pytest.raises(IllegalMove, match="only combining marks"):
        decide(GameState(), StartGame("g", ("Anna", MARKS, "Clara", "Dirk"), 0, preset("standard")))
    with pytest.raises(DouDizhuIllegalMove, match="only combining marks"):
        decide_doudizhu(DealState(), Deal("d", ("Li", MARKS, "Zhang"), 0, 1))
    with pytest.raises(SourceError, match="only combining marks"):
        game_file.read(_game_text(f'[Anna, "{MARKS}", Clara, Dirk]'), "g.yaml")
    ok(cli("session", "start", "n", "--players", "Anna,Ben,Ren\u0301e,Dirk"))  # a mark on a letter is a letter


def test_typed_in_decomposed_letters_a_name_is_the_same_player(cli: Cli) -> None:
    ok(cli("session", "start", "n", "--players", f"{ZOE},Ben,Clara,Dirk"))
    ok(cli("record", "--re", f"{ZOE_NFD},Ben", "--re-points", "151", "--yes"))
    night = json.loads(ok(cli("standings", "--json")).stdout)
    assert night["players"][0] == ZOE
    assert night["deals"][0]["points"] == {ZOE: 2, "Ben": 2, "Clara": -2, "Dirk": -2}


@pytest.fixture
def perspectives(cli: Cli, tmp_path: Path) -> Cli:
    """The sample game played by players called `all` and `tournament`."""
    text = (SAMPLES / "01-normal.yaml").read_text(encoding="utf-8")
    text = text.replace("2026-11-28-kitchen-01-normal", "names").replace("Anna", "all").replace("Ben", "tournament")
    path = tmp_path / "names.yaml"
    path.write_text(text, encoding="utf-8")
    ok(cli("import", path))
    return cli


@pytest.mark.parametrize("name", ["all", "tournament"])
def test_a_player_called_like_a_perspective_gets_their_own_view(perspectives: Cli, name: str) -> None:
    view = json.loads(ok(perspectives("replay", "names", "--json", "--as", name)).stdout)
    assert view["seen_as"] == "player" and view["perspective"] == name
    first = view["frames"][0]
    assert [p for p, hand in first["hands"].items() if hand is not None] == [name]
    assert first["true_parties"] is None and first["card_points"] is not None
    printed = ok(perspectives("replay", "names", "--as", name)).stdout
    assert f"{name}'s hand:" in printed and f"as {name}" in printed
    html = ok(perspectives("export", "names", "--format", "html", "--as", name)).stdout
    assert '"seen_as": "player"' in html or '"seen_as":"player"' in html


def test_the_views_themselves_are_unchanged(perspectives: Cli) -> None:
    everything = json.loads(ok(perspectives("replay", "names", "--json", "--tournament")).stdout)
    assert everything["seen_as"] == "tournament" and everything["frames"][0]["card_points"] is None
    hands = everything["frames"][0]["hands"]
    assert all(hand is not None for hand in hands.values())


def test_a_key_written_both_ways_is_given_twice() -> None:
    text = _game_text(f"[Anna, Ben, {ZOE}, Dirk]").replace(
        "summary:", f"reservations: {{{ZOE}: queen_solo, {ZOE_NFD}: queen_solo}}\nsummary:"
    )
    with pytest.raises(SourceError, match="is given twice"):
        game_file.read(text, "g.yaml")
