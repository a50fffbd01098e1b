"""The further picture solos (king solo, queen-jack, king-jack, king-queen and Köhler solo):
allowed only by option `picture_solos`, played card by card, entered by their facts and
scored as solos (docs/rules.md §2, §4, §8)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from helpers import cards, run

from doko_ledger.doppelkopf.files.game_file import dumps, loads, read
from doko_ledger.doppelkopf.game import DealCards, DeclareReservation, GameState, IllegalMove, StartGame, decide
from doko_ledger.doppelkopf.game.commands import NameReservation, PlayCard, SummarizeDeal
from doko_ledger.doppelkopf.game.parties import true_parties
from doko_ledger.doppelkopf.rules.announcements import Party
from doko_ledger.doppelkopf.rules.game_types import (
    FURTHER_PICTURE_SOLOS,
    GameType,
    allowed_game_types,
    game_type_problem,
    parse_game_type,
)
from doko_ledger.doppelkopf.rules.options import option, rules_with
from doko_ledger.doppelkopf.rules.reservations import ReservationKind, asking_order
from doko_ledger.doppelkopf.rules.ruleset import PICTURE_SOLOS, PRESETS, RuleSetError, preset, rules_from_mapping
from doko_ledger.doppelkopf.score import score_game

G = GameType
PLAYERS = ("Mara", "Gerd", "Erika", "Sven")
MARA, GERD, ERIKA, SVEN = range(4)
STANDARD = preset("standard")
PICTURES = replace(STANDARD, picture_solos=PICTURE_SOLOS)
SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"


def test_the_option_names_exactly_the_further_picture_solos() -> None:
    assert [g.value for g in FURTHER_PICTURE_SOLOS] == list(PICTURE_SOLOS)
    assert {g for g in GameType if g.is_further_picture_solo} == set(FURTHER_PICTURE_SOLOS)
    assert all(g.is_declared_solo and g.trump_suit is None for g in FURTHER_PICTURE_SOLOS)


@pytest.mark.parametrize("name", list(PRESETS))
def test_no_preset_allows_them(name: str) -> None:
    rules = preset(name)
    assert rules.picture_solos == ()
    assert not set(FURTHER_PICTURE_SOLOS) & set(allowed_game_types(rules))
    problem = game_type_problem(G.KING_SOLO, rules)
    assert str(problem) == "king_solo is not allowed under these rules (option picture_solos)"


def test_each_is_allowed_on_its_own() -> None:
    rules = rules_from_mapping({"picture_solos": ["king_queen_solo", "koehler_solo"]})
    allowed = [g for g in FURTHER_PICTURE_SOLOS if g in allowed_game_types(rules)]
    assert allowed == [G.KING_QUEEN_SOLO, G.KOEHLER_SOLO]
    assert game_type_problem(G.KING_SOLO, rules) is not None


def test_the_option_takes_only_picture_solos() -> None:
    with pytest.raises(RuleSetError, match="picture_solos"):
        rules_from_mapping({"picture_solos": ["queen_solo"]})
    with pytest.raises(RuleSetError, match="picture_solos"):
        rules_from_mapping({"picture_solos": "king_solo"})


def test_the_option_is_typed_as_words() -> None:
    entry = option("picture_solos")
    assert entry.kind == "set" and entry.choices == PICTURE_SOLOS and entry.group == "solos and reservations"
    rules = rules_with(STANDARD, {"picture_solos": "king_solo, koehler_solo"})
    assert rules.picture_solos == ("king_solo", "koehler_solo")
    assert entry.text(rules.picture_solos) == "king_solo,koehler_solo"
    assert entry.text(()) == "none"
    assert rules_with(STANDARD, {"picture_solos": "none"}).picture_solos == ()
    assert rules.changed_from_preset() == {"picture_solos": ["king_solo", "koehler_solo"]}


@pytest.mark.parametrize(
    ("text", "game"),
    [
        ("king_solo", G.KING_SOLO),
        ("Königssolo", G.KING_SOLO),
        ("king solo", G.KING_SOLO),
        ("queen-jack", G.QUEEN_JACK_SOLO),
        ("Damen-Buben-Solo", G.QUEEN_JACK_SOLO),
        ("king jack solo", G.KING_JACK_SOLO),
        ("KING_QUEEN_SOLO", G.KING_QUEEN_SOLO),
        ("Könige-Damen-Solo", G.KING_QUEEN_SOLO),
        ("Köhler", G.KOEHLER_SOLO),
        ("koehlersolo", G.KOEHLER_SOLO),
    ],
)
def test_their_names(text: str, game: GameType) -> None:
    assert parse_game_type(text) is game


# FreeDoko's sample game 17 of its default rules: Sven (seat 3) plays a king-queen solo and
# leads (the soloist leads there); Mara deals. Each trick with its winner as FreeDoko gave it.
HANDS = (
    cards("SA CK H10 SJ CK H10 HK DK DJ D9 HK C9"),
    cards("HA D10 CA DK SA D10 CJ DJ HQ HA C10 S10"),
    cards("D9 DQ S9 S10 H9 SJ DA HJ H9 HJ S9 SK"),
    cards("SQ CQ C9 DQ CA CJ DA SK SQ HQ CQ C10"),
)
TRICKS = [
    ("SK CK HQ DQ", MARA),  # kings above queens
    ("SA S10 S10 DQ", SVEN),
    ("HQ DK DK SK", ERIKA),  # SK the highest king
    ("DA DA DJ D10", ERIKA),  # diamonds A 10 J 9: the first DA wins
    ("S9 CQ SJ SA", SVEN),
    ("SQ HK HA SJ", MARA),
    ("C9 CA HJ C9", GERD),
    ("HA HJ SQ H10", SVEN),  # the H10 a plain heart below the ace, SQ trump
    ("C10 HK C10 D9", MARA),
    ("CK D10 H9 CQ", MARA),
    ("H10 CJ H9 CJ", MARA),
    ("D9 DJ S9 CA", GERD),
]


def king_queen_solo() -> GameState:
    rules = replace(PICTURES, soloist_leads=True)
    state = run(GameState(), StartGame("fd-17", PLAYERS, MARA, rules), DealCards(HANDS))
    state = run(state, *(DeclareReservation(seat, seat != SVEN) for seat in asking_order(MARA)))
    return run(state, NameReservation(SVEN, ReservationKind.SOLO, G.KING_QUEEN_SOLO))


def test_the_solo_needs_the_option() -> None:
    state = run(GameState(), StartGame("fd-17", PLAYERS, MARA, STANDARD), DealCards(HANDS))
    state = run(state, *(DeclareReservation(seat, seat != SVEN) for seat in asking_order(MARA)))
    with pytest.raises(IllegalMove, match=r"king_queen_solo is not allowed under these rules \(option picture_solos\)"):
        decide(state, NameReservation(SVEN, ReservationKind.SOLO, G.KING_QUEEN_SOLO))
    only_koehler = replace(STANDARD, picture_solos=("koehler_solo",))
    state = run(GameState(), StartGame("fd-17", PLAYERS, MARA, only_koehler), DealCards(HANDS))
    state = run(state, *(DeclareReservation(seat, seat != SVEN) for seat in asking_order(MARA)))
    with pytest.raises(IllegalMove, match="option picture_solos"):
        decide(state, NameReservation(SVEN, ReservationKind.SOLO, G.KING_QUEEN_SOLO))
    assert decide(state, NameReservation(SVEN, ReservationKind.SOLO, G.KOEHLER_SOLO))


def test_a_whole_king_queen_solo_is_replayed_and_scored_as_a_solo() -> None:
    state = king_queen_solo()
    assert (state.game_type, state.declarer, state.to_play) == (G.KING_QUEEN_SOLO, SVEN, SVEN)
    for played, winner in TRICKS:
        for card in cards(played):
            seat = state.to_play
            assert seat is not None
            state = run(state, PlayCard(seat, card))
        assert state.tricks[-1].winner == winner, played
    assert state.finished
    assert state.points_won() == (89, 26, 49, 76)
    assert true_parties(state) == (Party.KONTRA, Party.KONTRA, Party.KONTRA, Party.RE)
    game = score_game(state)
    # Kontra won 1, Re below 90 1: the soloist pays three times (docs/rules.md §7)
    assert game.deltas == (2, 2, 2, -6)
    assert game.score is not None
    assert [(line.item, line.points) for line in game.score.lines if line.points] == [("won", 1), ("Re below 90", 1)]


def test_a_card_that_would_follow_in_a_normal_game_does_not() -> None:
    state = king_queen_solo()
    state = run(state, PlayCard(SVEN, cards("CA")[0]))
    with pytest.raises(IllegalMove):  # Mara holds C9: a CK is trump here, not a club
        decide(state, PlayCard(MARA, cards("CK")[0]))


@pytest.mark.parametrize("game", FURTHER_PICTURE_SOLOS)
def test_entered_by_its_facts_and_scored_as_a_solo(game: GameType) -> None:
    state = run(GameState(), StartGame("sheet", PLAYERS, MARA, PICTURES), SummarizeDeal(game, (GERD,), 151))
    assert state.game_type is game
    assert score_game(state).deltas == (-2, 6, -2, -2)  # won 1, Kontra below 90 1, tripled
    with pytest.raises(IllegalMove, match="option picture_solos"):
        decide(run(GameState(), StartGame("sheet", PLAYERS, MARA, STANDARD)), SummarizeDeal(game, (GERD,), 151))


def test_a_game_file_records_one() -> None:
    text = (
        "id: kq\nplayers: [Mara, Gerd, Erika, Sven]\ndealer: Mara\n"
        "rules: {preset: standard, picture_solos: [king_queen_solo]}\n"
        "summary: {game: king_queen_solo, re: [Sven], re_points: 76}\n"
    )
    state = read(text).state
    assert state.game_type is G.KING_QUEEN_SOLO
    assert score_game(state).deltas == (2, 2, 2, -6)
    again = dumps(loads(text))
    assert "king_queen_solo" in again and loads(again) == loads(text)


def _enums(node: object) -> list[list[object]]:
    if isinstance(node, dict):
        found = [node["enum"]] if isinstance(node.get("enum"), list) else []
        return found + [e for value in node.values() for e in _enums(value)]
    if isinstance(node, list):
        return [e for value in node for e in _enums(value)]
    return []


def _current_schemas() -> list[Path]:
    """The game file's schema and the newest version of each event's schema."""
    newest: dict[str, Path] = {}
    for path in sorted((SCHEMAS / "events").glob("*.v*.json"), key=lambda p: int(p.stem.rpartition(".v")[2])):
        newest[path.stem.rpartition(".v")[0]] = path
    return [SCHEMAS / "game.schema.json", *newest.values()]


@pytest.mark.parametrize("path", _current_schemas(), ids=lambda p: p.name)
def test_every_list_of_solos_in_the_schemas_has_them(path: Path) -> None:
    for enum in _enums(json.loads(path.read_text(encoding="utf-8"))):
        if G.JACK_SOLO.value in enum:
            assert set(PICTURE_SOLOS) <= set(enum), path.name
