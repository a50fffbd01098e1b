"""Entry at the table: `doko record` by its flags (no questions when they say enough) and by
prompts (each answer checked when given and asked again), names, calls and game types
matched without regard to case, and the game types the rules allow.

The prompts are reached by making `interactive()` say yes, as at a terminal, and answered
through the runner's input.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import as_json, flat, ok, refused, snapshot, table_rows
from conftest import CLI_ENV
from typer.testing import CliRunner, Result

from doko_ledger.cli import table
from doko_ledger.cli.app import app
from doko_ledger.doppelkopf.files import game_file
from doko_ledger.doppelkopf.files.quick_entry import EntryError, summary
from doko_ledger.doppelkopf.rules.game_types import GameType, GameTypeError, allowed_game_types, parse_game_type
from doko_ledger.doppelkopf.rules.ruleset import preset

Cli = Callable[..., Result]

FOUR = "Anna,Ben,Clara,Dirk"
FIVE = "Anna,Ben,Clara,Dirk,Emil"


@pytest.fixture
def cli(ledger_path: Path, monkeypatch: pytest.MonkeyPatch) -> Cli:
    """`doko --db <tmp ledger> ARGS...` as in conftest, with `input=` fed to the prompts."""
    monkeypatch.delenv("DOKO_DB", raising=False)
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None) -> Result:
        argv = ["--db", str(ledger_path), *args]
        return runner.invoke(app, argv, input=input, env=CLI_ENV, catch_exceptions=True)

    return invoke


@pytest.fixture
def at_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table, "interactive", lambda: True)


def start(cli: Cli, players: str = FOUR, *options: str) -> None:
    ok(cli("session", "start", "n", "--players", players, *options))


def deals(cli: Cli) -> list[Any]:
    return list(as_json(cli("standings", "--json"))["deals"])


def answers(*lines: str) -> str:
    return "".join(line + "\n" for line in lines)


# -- the flag form asks nothing --------------------------------------------------------


@pytest.mark.usefixtures("at_terminal")
def test_flags_that_say_enough_ask_nothing_at_a_terminal(cli: Cli) -> None:
    start(cli)
    # no input at all: any question would end in "aborted"
    result = ok(cli("record", "--re", "Anna,Ben", "--re-points", "150", "-y", input=""))
    assert "game type" not in result.stdout and "announcements" not in result.stdout
    assert "recorded deal 1 as n-01" in result.stdout
    [deal] = deals(cli)
    assert (deal["game_type"], deal["points"]["Anna"]) == ("normal", 1)


@pytest.mark.usefixtures("at_terminal")
def test_flags_without_yes_ask_only_for_the_confirmation(cli: Cli) -> None:
    start(cli)
    result = ok(cli("record", "--re", "Anna,Ben", "--re-points", "150", input="y\n"))
    assert "append this deal?" in result.stdout
    assert "game type" not in result.stdout and "special points" not in result.stdout
    assert len(deals(cli)) == 1


@pytest.mark.usefixtures("at_terminal")
def test_yes_means_no_questions_even_when_facts_are_missing(cli: Cli, ledger_path: Path) -> None:
    start(cli)
    before = snapshot(ledger_path)
    refused(cli("record", "--re", "Anna,Ben", "-y", input="150\n"), "give --re and --re-points")
    assert snapshot(ledger_path) == before
    ok(cli("record", "--re", "Anna,Ben", "--re-points", "150", "-y"))
    before = snapshot(ledger_path)
    refused(cli("penalty", "n-01", "--minor", "-y", input="Ben\n"), "give --player and --minor or --severe")
    assert snapshot(ledger_path) == before


# -- the prompt form checks each answer ------------------------------------------------


@pytest.mark.usefixtures("at_terminal")
def test_each_answer_is_checked_when_given_and_asked_again(cli: Cli) -> None:
    start(cli)
    result = ok(
        cli(
            "record",
            input=answers(
                "skat",  # no game type
                "Queen",  # a queen solo, by its short name
                "Zed",  # nobody at the table
                "anna,ben",  # a solo has one soloist
                "clara",  # Clara, whatever the case
                "241",  # points out of 0..240
                "140",
                "Ben=re",  # Ben is Kontra in Clara's solo
                "CLARA=RE",
                "y",
            ),
        )
    )
    errors = result.stderr.splitlines()
    assert [line.startswith("refused: ") for line in errors] == [True] * 5, result.stderr
    assert "unknown game type 'skat'" in errors[0]
    assert "unknown player 'Zed'" in errors[1]
    assert "played by one soloist" in errors[2]
    assert "Re's card points must be 0-240, not 241" in errors[3]
    assert "Ben is Kontra" in errors[4]
    # a solo has no special points: not asked
    assert "special points" not in result.stdout
    [deal] = deals(cli)
    assert deal["game_type"] == "queen_solo"
    # won 1, Re announced 2: 3, three times for the soloist
    assert deal["points"] == {"Anna": -3, "Ben": -3, "Clara": 9, "Dirk": -3}


@pytest.mark.usefixtures("at_terminal")
def test_a_refused_special_is_asked_again_and_the_answers_before_it_kept(cli: Cli) -> None:
    start(cli)
    result = ok(
        cli("record", input=answers("", "Anna,Clara", "150", "", "re:fox_caught:clara", "re:fox_caught:Ben", "y"))
    )
    [error] = result.stderr.splitlines()
    assert "fox caught (Fuchs) from Clara, who is Re too" in error
    [deal] = deals(cli)
    # won 1, the fox 1
    assert deal["points"]["Anna"] == 2


@pytest.mark.usefixtures("at_terminal")
def test_a_player_sitting_out_is_refused_at_once(cli: Cli) -> None:
    start(cli, FIVE)
    result = ok(cli("record", input=answers("normal", "Anna,Ben", "Ben,Clara", "150", "", "", "y")))
    assert "'Anna' sits out deal 1" in result.stderr
    assert deals(cli)[0]["playing"] == ["Ben", "Clara", "Dirk", "Emil"]


@pytest.mark.usefixtures("at_terminal")
def test_the_game_type_prompt_offers_only_what_the_rules_allow(cli: Cli) -> None:
    start(cli)
    result = ok(cli("record", input=answers("pure_club_solo", "normal", "Anna,Ben", "150", "", "", "y")))
    question = next(line for line in flat(result.stdout).split("game type")[1:2])
    assert "club_solo" in question and "pure_club_solo" not in question
    assert "pure_club_solo is not allowed under these rules (option pure_suit_solos)" in result.stderr


@pytest.mark.usefixtures("at_terminal")
def test_the_game_type_prompt_offers_only_solos_when_a_forced_solo_is_due(cli: Cli, tmp_path: Path) -> None:
    rules = tmp_path / "short.yaml"
    rules.write_text("preset: tournament\ntournament_deals: 1\n", encoding="utf-8")
    start(cli, FOUR, "--rules", str(rules))
    ok(cli("record", "--re", "Anna,Ben", "--re-points", "140", "-y"))
    result = ok(cli("record", input=answers("normal", "Kreuzsolo", "Ben", "150", "", "y")))
    question = flat(result.stdout).split("game type (")[1].split(")")[0]
    assert "normal" not in question and "club_solo" in question and "silent_solo" not in question
    assert "a forced solo is due" in result.stderr
    assert deals(cli)[-1]["game_type"] == "club_solo"


@pytest.mark.usefixtures("at_terminal")
def test_a_night_that_takes_no_deal_is_refused_before_any_question(cli: Cli) -> None:
    start(cli)
    ok(cli("deal", "--seed", "x"))
    result = cli("record", input="")
    refused(result, "still being played")
    assert "game type" not in result.stdout


# -- without regard to case ------------------------------------------------------------


def test_flags_match_names_calls_and_game_types_without_regard_to_case(cli: Cli) -> None:
    start(cli)
    ok(
        cli(
            "record",
            "--re",
            "anna,CLARA",
            "--re-points",
            "150",
            "--call",
            "ANNA=Re",
            "--special",
            "RE:Fox_Caught:ben",
            "-y",
        )
    )
    ok(cli("record", "--game", "Damensolo", "--re", "dirk", "--re-points", "150", "-y"))
    first, second = deals(cli)
    assert first["points"] == {"Anna": 4, "Ben": -4, "Clara": 4, "Dirk": -4}
    assert second["game_type"] == "queen_solo" and second["points"]["Dirk"] == 3


def test_play_matches_names_and_reservations_without_regard_to_case(cli: Cli) -> None:
    start(cli)
    ok(cli("deal", "--seed", "2026-11-30"))
    result = ok(cli("play", "dirk=Kreuzsolo"))
    assert "club solo by Dirk" in result.stdout


@pytest.mark.parametrize(
    ("text", "game"),
    [
        ("queen", GameType.QUEEN_SOLO),
        ("Damensolo", GameType.QUEEN_SOLO),
        ("Bubensolo", GameType.JACK_SOLO),
        ("jack solo", GameType.JACK_SOLO),
        ("Fleischloser", GameType.ACE_SOLO),
        ("ACE", GameType.ACE_SOLO),
        ("Kreuzsolo", GameType.CLUB_SOLO),
        ("Kreuz-Solo", GameType.CLUB_SOLO),
        ("Pik", GameType.SPADE_SOLO),
        ("Herzsolo", GameType.HEART_SOLO),
        ("Karosolo", GameType.DIAMOND_SOLO),
        ("Hochzeit", GameType.MARRIAGE),
        ("Armut", GameType.POVERTY),
        ("stilles Solo", GameType.SILENT_SOLO),
        ("Normal", GameType.NORMAL),
        ("pure club", GameType.PURE_CLUB_SOLO),
        ("club_solo", GameType.CLUB_SOLO),
    ],
)
def test_game_types_by_short_and_german_names(text: str, game: GameType) -> None:
    assert parse_game_type(text) is game
    assert summary(text, "Anna", 150).game == game.value


def test_an_unknown_game_type_is_named() -> None:
    with pytest.raises(GameTypeError, match="unknown game type 'skat'"):
        parse_game_type("skat")
    with pytest.raises(EntryError, match="--game: unknown game type 'solo'"):
        summary("solo", "Anna", 150)


def test_the_game_types_a_rule_set_allows() -> None:
    standard = allowed_game_types(preset("standard"))
    assert GameType.PURE_CLUB_SOLO not in standard and GameType.POVERTY in standard
    assert GameType.PURE_CLUB_SOLO in allowed_game_types(preset("bistro"))
    assert GameType.POVERTY not in allowed_game_types(preset("ddv"))


# -- after closing ---------------------------------------------------------------------


def test_standings_and_settle_after_closing_show_the_night_just_closed(cli: Cli) -> None:
    for night, soloist in (("first", "Dirk"), ("second", "Anna")):
        ok(cli("session", "start", night, "--players", FOUR))
        ok(cli("record", "--game", "club_solo", "--re", soloist, "--re-points", "130", "-y"))
        ok(cli("session", "close"))
    table = as_json(cli("standings", "--json"))
    assert (table["session"], table["closed"]) == ("second", True)
    assert "card night second" in ok(cli("standings")).stdout
    settled = as_json(cli("settle", "--json"))
    assert settled["session"] == "second"
    assert {p["payee"] for p in settled["payments"]} == {"Anna"}
    assert ok(cli("standings", "--csv")).stdout.splitlines()[1].split(",")[1] == "second-01"
    # an open night comes first; --session still names any night
    ok(cli("session", "start", "third", "--players", FOUR))
    assert as_json(cli("standings", "--json"))["session"] == "third"
    assert as_json(cli("standings", "--json", "--session", "first"))["session"] == "first"
    ok(cli("session", "close"))
    assert as_json(cli("standings", "--json"))["session"] == "third"


# -- --json on deal, record and penalty ------------------------------------------------


def test_record_json_is_the_deal_and_its_score_alone(cli: Cli) -> None:
    start(cli, FIVE)
    data = as_json(cli("record", "--game", "Kreuzsolo", "--re", "Ben", "--re-points", "130", "-y", "--json"))
    assert {k: data[k] for k in ("session", "number", "game_id", "dealer", "playing", "thrown_in")} == {
        "session": "n",
        "number": 1,
        "game_id": "n-01",
        "dealer": "Anna",
        "playing": ["Ben", "Clara", "Dirk", "Emil"],
        "thrown_in": False,
    }
    assert data["score"]["players"] == {"Ben": 3, "Clara": -1, "Dirk": -1, "Emil": -1}
    assert data["score"]["winner"] == "re"
    misdeal = as_json(cli("record", "--misdeal", "-y", "--json"))
    assert (misdeal["number"], misdeal["thrown_in"], misdeal["score"]) == (2, True, None)


@pytest.mark.usefixtures("at_terminal")
def test_record_json_asks_on_stderr(cli: Cli) -> None:
    start(cli)
    result = cli("record", "--re", "Anna,Ben", "--re-points", "150", "--json", input="y\n")
    assert as_json(result)["game_id"] == "n-01"
    assert "append this deal?" in result.stderr
    # the prompt form too: every question on stderr, the JSON alone on stdout
    result = cli("record", "--json", input=answers("", "Anna,Ben", "150", "", "", "y"))
    assert as_json(result)["number"] == 2
    for question in ("game type", "Re players", "card points", "announcements", "special points", "append"):
        assert question in result.stderr


def test_deal_json_has_the_hands(cli: Cli) -> None:
    start(cli)
    data = as_json(cli("deal", "--seed", "2026-11-30", "--json"))
    assert (data["session"], data["seed"], data["game_id"], data["dealer"]) == ("n", "2026-11-30", "n-01", "Anna")
    assert sorted(data["hands"]) == ["Anna", "Ben", "Clara", "Dirk"]
    assert all(len(hand) == 12 for hand in data["hands"].values())
    replay = as_json(cli("replay", "n-01", "--json"))
    assert {p: sorted(h) for p, h in data["hands"].items()} == {p: sorted(h) for p, h in replay["hands_dealt"].items()}


def test_penalty_json(cli: Cli) -> None:
    start(cli)
    ok(cli("record", "--re", "Anna,Clara", "--re-points", "150", "-y"))
    data = as_json(cli("penalty", "n-01", "--player", "ben", "--minor", "-y", "--json"))
    assert (data["game_id"], data["finished"]) == ("n-01", True)
    [line] = data["score"]["penalties"]
    assert (line["player"], line["severe"]) == ("Ben", False)
    assert sum(data["score"]["players"].values()) == 0
    ok(cli("deal", "--seed", "x"))
    data = as_json(cli("penalty", "n-02", "--player", "Ben", "--minor", "-y", "--json"))
    assert data == {"game_id": "n-02", "finished": False, "score": None}


# -- standings: the deal's points and the running total apart; match and round ------------


def test_standings_label_the_deals_points_and_the_running_total_and_show_match_and_round(cli: Cli) -> None:
    start(cli, FIVE, "--match", "3")
    for _ in range(6):
        playing = as_json(cli("standings", "--json"))["next"]["playing"]
        ok(cli("record", "--re", ",".join(playing[:2]), "--re-points", "150", "-y"))
    out = ok(cli("standings")).stdout
    header = next([c.strip() for c in line.split("┃")[1:-1]] for line in out.splitlines() if line.startswith("┃"))
    assert header[:5] == ["#", "match", "round", "game", "dealer"]
    assert header[5:] == FIVE.split(",")  # no bock in this night: no multiplier column
    assert "each player: the deal's points, then Σ the running total after it" in flat(out)
    rows = [r for r in table_rows(out) if r[0]]
    assert [(r[0], r[1], r[2]) for r in rows] == [
        ("1", "1", "1"),
        ("2", "1", "1"),
        ("3", "1", "1"),
        ("4", "2", "1"),
        ("5", "2", "1"),
        ("6", "2", "2"),
    ]
    # deal 1: Anna deals and sits out; Ben and Clara win 1
    assert rows[0][5:] == ["· Σ+0", "+1 Σ+1", "+1 Σ+1", "-1 Σ-1", "-1 Σ-1"]
    # deal 2: Ben deals and sits out; Clara and Dirk win
    assert rows[1][5:] == ["-1 Σ-1", "· Σ+1", "+1 Σ+2", "+1 Σ+0", "-1 Σ-2"]
    csv_lines = ok(cli("standings", "--csv")).stdout.splitlines()
    assert csv_lines[0].startswith("deal,game,dealer,match,round,multiplier,Anna points,")
    assert csv_lines[0].endswith(",Dirk total,Emil total")
    assert csv_lines[6].split(",")[:6] == ["6", "n-06", "Anna", "2", "2", "1"]


# -- live play -------------------------------------------------------------------------

SEED = "2026-11-30"  # Dirk's club solo: Ben leads S10, Clara S9, Dirk SA, Anna SK (25 points to Dirk)


def test_play_says_who_leads_who_won_each_trick_and_echoes_each_call(cli: Cli) -> None:
    start(cli)
    ok(cli("deal", "--seed", SEED))
    first = flat(ok(cli("play", "Dirk=club_solo")).stdout)
    assert "trick 1: Ben leads" in first
    assert "Ben to play: HQ DQ CA C10 C9 S10 SK HK" in first
    result = flat(ok(cli("play", "S10", "S9", "Dirk=no90", "SA", "SK")).stdout)
    assert "Dirk: no 90!" in result
    assert "trick 1: Ben S10 Clara S9 Dirk SA Anna SK · won by Dirk, 25 points" in result
    assert "trick 2: Dirk leads" in result
    # one notation: the cards as typed, never with suit symbols
    assert not any(symbol in result + first for symbol in "♣♠♥♦")
    # the next entries echo only what they add
    later = flat(ok(cli("play", "Ben=kontra")).stdout)
    assert "Ben: Kontra!" in later and "no 90!" not in later and "won by" not in later


@pytest.mark.usefixtures("at_terminal")
def test_play_at_a_terminal_echoes_each_entry(cli: Cli) -> None:
    start(cli)
    ok(cli("deal", "--seed", SEED))
    result = ok(cli("play", input=answers("Dirk=club_solo", "S10", "CQ", "S9", "dirk=RE", "SA", "SK", "q")))
    out = flat(result.stdout)
    assert "refused: revoke: Clara must follow the led suit of S10 with one of S9, not CQ" in flat(result.stderr)
    assert out.count("Dirk: Re!") == 1
    assert out.count("won by Dirk, 25 points") == 1
    assert "trick 2: Dirk leads" in out
    assert not any(symbol in out for symbol in "♣♠♥♦")


def test_the_dealt_hands_are_in_the_notation_play_takes(cli: Cli) -> None:
    start(cli)
    out = ok(cli("deal", "--seed", SEED)).stdout
    assert "S10 S10" in out and not any(symbol in out for symbol in "♣♠♥♦")


# -- the dealer who sits out, and who leads ------------------------------------------------


def test_with_five_the_dealer_shown_is_who_dealt_and_the_game_says_who_leads(cli: Cli) -> None:
    start(cli, FIVE)
    ok(cli("record", "--re", "Ben,Clara", "--re-points", "150", "-y"))
    header = flat(ok(cli("replay", "n-01")).stdout)
    assert "dealer Anna (sitting out) · Ben leads" in header
    replay = as_json(cli("replay", "n-01", "--json"))
    assert (replay["dealer"], replay["first_leader"]) == ("Anna", "Ben")
    assert "Anna" not in replay["players"]
    [game] = as_json(cli("games", "--json"))
    assert game["dealer"] == "Anna"
    # the game file says who dealt, and reads back the same
    exported = ok(cli("export", "n-01")).stdout
    assert "dealt_by: Anna" in exported
    record = game_file.loads(exported)
    assert (record.dealt_by, record.dealer) == ("Anna", "Emil")
    assert game_file.dumps(record) == exported
    assert game_file.read(exported).state.dealer_name == "Anna"
    # a dealt deal says it too, and live play names the first to lead
    dealt = flat(ok(cli("deal", "--seed", "2026-11-30")).stdout)
    assert "dealer Ben (sitting out) · Clara leads" in dealt


def test_with_four_the_dealer_plays_and_the_game_says_who_leads(cli: Cli) -> None:
    start(cli, FOUR, "--dealer", "Dirk")
    ok(cli("record", "--re", "Ben,Clara", "--re-points", "150", "-y"))
    assert "dealer Dirk · Anna leads" in flat(ok(cli("replay", "n-01")).stdout)
    assert as_json(cli("replay", "n-01", "--json"))["dealer"] == "Dirk"


def test_play_that_starts_a_deal_echoes_what_it_recorded(cli: Cli) -> None:
    start(cli, FOUR, "--dealer", "dirk")
    result = flat(ok(cli("play", "Anna=re", "CQ", "SQ", "HQ", "DQ")).stdout)
    assert "Anna: Re!" in result
    assert "trick 1: Anna CQ Ben SQ Clara HQ Dirk DQ · won by Anna, 12 points" in result
    assert "trick 2: Anna leads" in result


# -- undo asks first -------------------------------------------------------------------


@pytest.mark.usefixtures("at_terminal")
def test_undo_says_which_deal_it_takes_back_and_asks(cli: Cli, ledger_path: Path) -> None:
    start(cli)
    ok(cli("record", "--re", "Anna,Ben", "--re-points", "150", "-y"))
    before = snapshot(ledger_path)
    result = cli("undo", input="n\n")
    assert result.exit_code == 1, result.output
    assert "this takes back deal 1 (n-01): normal game: Re Anna, Ben with 150 card points" in result.stdout
    assert "take it back?" in result.stdout and "nothing taken back" in result.stdout
    assert snapshot(ledger_path) == before
    result = ok(cli("undo", input="y\n"))
    assert result.stdout.strip().endswith("took back deal 1 (n-01)")
    assert deals(cli) == []


@pytest.mark.usefixtures("at_terminal")
def test_undo_names_the_card_it_takes_back_and_asks(cli: Cli) -> None:
    start(cli, FOUR, "--dealer", "Dirk")
    ok(cli("play", "CQ", "SQ"))  # a deal without hands: Anna leads
    result = cli("undo", input="n\n")
    assert result.exit_code == 1, result.output
    assert "this takes back Ben's SQ in trick 1 (deal 1, n-01)" in result.stdout
    result = ok(cli("undo", "--game", "n-01", input="y\n"))
    assert "this takes back Ben's SQ in trick 1 (event" in result.stdout
    assert result.stdout.strip().endswith("of n-01)")
    assert [p["card"] for p in as_json(cli("replay", "n-01", "--json"))["tricks"][0]["plays"]] == ["CQ"]


def test_undo_without_a_terminal_or_yes_is_refused(cli: Cli, ledger_path: Path) -> None:
    start(cli)
    ok(cli("record", "--re", "Anna,Ben", "--re-points", "150", "-y"))
    before = snapshot(ledger_path)
    refused(cli("undo"), "nothing was taken back: confirm with --yes when not at a terminal")
    refused(cli("undo", "--game", "n-01"), "confirm with --yes when not at a terminal")
    assert snapshot(ledger_path) == before
    assert ok(cli("undo", "--yes")).stdout.strip() == "took back deal 1 (n-01)"


# -- the prompts' words ----------------------------------------------------------------


@pytest.mark.usefixtures("at_terminal")
def test_the_prompts_examples_name_only_players_of_the_deal(cli: Cli) -> None:
    start(cli, FIVE)  # Anna deals deal 1 and sits it out
    result = ok(cli("record", input=answers("", "Ben,Clara", "150", "", "", "y")))
    questions = flat(result.stdout).split("deal 1: Anna deals;")[1].split("n-01")[0]
    assert "Re players, e.g. Ben,Clara:" in questions
    assert "announcements, e.g. Ben=re,Emil=kontra (Enter for none):" in questions
    assert "special points, e.g. re:fox:Emil,kontra:doko (Enter for none):" in questions
    assert "Anna" not in questions


@pytest.mark.usefixtures("at_terminal")
def test_a_refused_number_or_yes_no_answer_is_said_in_plain_words(cli: Cli) -> None:
    start(cli)
    result = ok(cli("record", input=answers("", "Anna,Ben", "lots", "150", "", "", "maybe", "y")))
    assert "[prompt" not in result.output
    assert result.stderr.splitlines() == [
        "refused: write a whole number, e.g. 150, not 'lots'",
        "refused: answer y or n, not 'maybe'",
    ]
    assert len(deals(cli)) == 1


@pytest.mark.usefixtures("at_terminal")
def test_a_refused_choice_is_said_in_plain_words(cli: Cli) -> None:
    start(cli)
    ok(cli("record", "--re", "Anna,Ben", "--re-points", "150", "-y"))
    result = ok(cli("penalty", "n-01", "--player", "Ben", input=answers("medium", "minor", "y")))
    assert "[prompt" not in result.output
    assert result.stderr.splitlines() == ["refused: answer one of the choices in brackets"]


# -- correct keeps what is not given ---------------------------------------------------


@pytest.mark.usefixtures("at_terminal")
def test_correct_at_a_terminal_asks_with_the_recorded_facts_as_answers(cli: Cli) -> None:
    start(cli)
    ok(cli("record", "--re", "Anna,Ben", "--re-points", "150", "--call", "Anna=re", "--special", "re:fox:Clara", "-y"))
    # Enter keeps the game type, the Re players, the calls; `none` clears the special points
    result = ok(cli("correct", "1", "--re-points", "200", input=answers("", "", "", "none", "y")))
    text = flat(result.stdout)
    assert "game type" in text and "(normal)" in text
    assert "(Anna,Ben)" in text and "(Anna=re)" in text and "(re:fox_caught:Clara)" in text
    assert "Re's card points" not in text
    [deal] = deals(cli)
    # won 1, Kontra under 90 and under 60: 2, Re announced: 2; the fox cleared
    assert deal["points"]["Anna"] == 5


# -- a trick of four hearts (docs/rules.md §9) ---------------------------------------------------

HEARTS = "preset: standard\nbock_triggers: [heart_trick]\nbock_overlap: stack\nbock_effect: extra_point\n"


@pytest.fixture
def hearts_rules(tmp_path: Path) -> str:
    path = tmp_path / "hearts.yaml"
    path.write_text(HEARTS, encoding="utf-8")
    return str(path)


def test_record_with_the_heart_trick_starts_bock(cli: Cli, hearts_rules: str) -> None:
    start(cli, "Anna,Ben,Clara,Dirk", "--rules", hearts_rules)
    ok(cli("record", "--re", "Anna,Ben", "--re-points", "130", "--heart-trick", "-y"))
    ok(cli("record", "--re", "Anna,Ben", "--re-points", "130", "-y"))
    first, second = deals(cli)
    assert first["bock"] is None and second["bock"] == "deal 1, trick of four hearts"
    assert second["points"] == {"Anna": 2, "Ben": 2, "Clara": -2, "Dirk": -2}  # won 1, bock +1
    score = as_json(cli("score", "n-02", "--json"))
    assert score["lines"][-1]["item"] == "bock +1" and score["night"]["bock"]["extra"] == 1


def test_a_heart_trick_in_a_heart_solo_is_refused(cli: Cli, hearts_rules: str) -> None:
    start(cli, "Anna,Ben,Clara,Dirk", "--rules", hearts_rules)
    args = ("record", "--game", "heart_solo", "--re", "Anna", "--re-points", "130", "--heart-trick", "-y")
    refused(cli(*args), "a trick of four hearts in a heart solo")
    assert deals(cli) == []


@pytest.mark.usefixtures("at_terminal")
def test_the_heart_trick_is_asked_where_it_starts_bock(cli: Cli, hearts_rules: str) -> None:
    start(cli, "Anna,Ben,Clara,Dirk", "--rules", hearts_rules)
    result = ok(cli("record", input=answers("", "Anna,Ben", "130", "", "", "y", "y")))
    assert "a trick of four hearts" in result.stdout
    [deal] = deals(cli)
    assert deal["game_id"] == "n-01"
    assert as_json(cli("standings", "--json"))["next"]["multiplier"] == 1  # extra_point: no multiplier
    ok(cli("record", "--re", "Anna,Ben", "--re-points", "130", "-y"))
    assert deals(cli)[-1]["bock"] == "deal 1, trick of four hearts"


@pytest.mark.usefixtures("at_terminal")
def test_the_heart_trick_is_not_asked_where_it_starts_nothing(cli: Cli) -> None:
    start(cli)
    result = ok(cli("record", input=answers("", "Anna,Ben", "130", "", "", "y")))
    assert "hearts" not in result.stdout
    assert [d["game_id"] for d in deals(cli)] == ["n-01"]


def test_correct_keeps_or_changes_the_heart_trick(cli: Cli, hearts_rules: str) -> None:
    start(cli, "Anna,Ben,Clara,Dirk", "--rules", hearts_rules)
    ok(cli("record", "--re", "Anna,Ben", "--re-points", "130", "--heart-trick", "-y"))
    ok(cli("record", "--re", "Anna,Ben", "--re-points", "130", "-y"))
    ok(cli("correct", "1", "--re-points", "140", "-y"))  # the heart trick kept
    assert deals(cli)[1]["bock"] == "deal 1, trick of four hearts"
    ok(cli("correct", "1", "--no-heart-trick", "-y"))  # taken away: so is the bock it started
    assert [d["bock"] for d in deals(cli)] == [None, None]


def test_rules_show_prints_the_bock_and_counting_options(cli: Cli, hearts_rules: str) -> None:
    rows = {row[0]: row[1] for row in table_rows(ok(cli("rules", "show", hearts_rules)).stdout)}
    assert rows["bock_triggers"] == "heart_trick  (changed)"
    assert rows["bock_overlap"] == "stack  (changed)" and rows["bock_effect"] == "extra_point  (changed)"
    assert rows["counting"] == "plus_minus"
