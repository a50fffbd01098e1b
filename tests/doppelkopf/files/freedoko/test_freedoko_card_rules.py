"""FreeDoko's card order and extra point options as doko's (docs/rules.md §10): read together,
as FreeDoko plays them, and the sample games they decide: the second Dulle in the last trick,
swines in a colour solo, a fox taking the last trick."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from doko_ledger.doppelkopf.claimed import derivation_check
from doko_ledger.doppelkopf.events import ResultClaimed, SchweinchenShown
from doko_ledger.doppelkopf.files.freedoko import game
from doko_ledger.doppelkopf.files.freedoko.blocks import Entry
from doko_ledger.doppelkopf.files.freedoko.card_rules import OPTIONS, card_rules
from doko_ledger.doppelkopf.files.freedoko.defaults import DEFAULTS
from doko_ledger.doppelkopf.files.freedoko.log import FreeDokoFileError, load_game
from doko_ledger.doppelkopf.files.freedoko.rules import read_rules
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.score import score_game

SAMPLES = Path(__file__).resolve().parents[3] / "fixtures" / "freedoko"
DULLE_LAST = SAMPLES / "defaults" / "game_00005.seed_192480.BugReport.FreeDoko"
SPADE_SOLO_SWINES = SAMPLES / "defaults" / "game_00019.seed_061855.BugReport.FreeDoko"
CLUB_SOLO_SWINES = SAMPLES / "marriage" / "game_00008.seed_042184.BugReport.FreeDoko"
FOX_LAST = SAMPLES / "defaults" / "game_00010.seed_171693.BugReport.FreeDoko"
SWINES_NORMAL = SAMPLES / "defaults" / "game_00003.seed_104296.BugReport.FreeDoko"


def block(**changes: bool) -> dict[str, Entry]:
    """FreeDoko's defaults with some options changed (`swines_in_solo=False`)."""
    values = {name: DEFAULTS[name] for name in (*sorted(OPTIONS), "with nines", "poverty", "poverty shift")}
    values |= {name.replace("_", " "): "true" if value else "false" for name, value in changes.items()}
    return {name: Entry(name, value, line) for line, (name, value) in enumerate(values.items(), 1)}


def test_freedokos_defaults() -> None:
    assert card_rules(block()) == {
        "dullen": True,
        "second_dulle_beats_first": True,
        "second_dulle_last_trick": True,
        "first_dulle_with_schweinchen": False,
        "schweinchen": True,
        "schweinchen_shown": "before_play",
        "schweinchen_in_solo": True,
        "schweinchen_in_poverty": True,
        "fox_caught": True,
        "fox_caught_last_trick": False,
        "fox_last_trick": True,
        "double_fox_last_trick": False,
        "dulle_caught_dulle": False,
        "heart_trick_point": False,
        "karlchen": True,
        "karlchen_capture": True,
        "double_karlchen": False,
        "karlchen_captured_twice": False,
        "karlchen_capture_with_dq": False,
        "hyperschweinchen": False,
        "hyperschweinchen_joint": False,
    }


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"dollen_contrary_in_last_trick": True}, {"second_dulle_beats_first": True, "second_dulle_last_trick": False}),
        (
            {"dollen_second_over_first": False, "dollen_contrary_in_last_trick": True},
            {"second_dulle_beats_first": False, "second_dulle_last_trick": True},
        ),
        ({"dollen": False}, {"dullen": False, "second_dulle_beats_first": False, "second_dulle_last_trick": False}),
        ({"dollen_first_over_second_with_swines": True}, {"first_dulle_with_schweinchen": True}),
        (  # it rests on one of the two Dullen orders
            {"dollen_first_over_second_with_swines": True, "dollen_second_over_first": False},
            {"first_dulle_with_schweinchen": False},
        ),
        ({"swines_announcement_begin": False}, {"schweinchen_shown": "while_held"}),
        ({"swines": False, "swines_in_solo": True}, {"schweinchen": False, "schweinchen_in_solo": False}),
        ({"swines_in_poverty": True, "poverty_shift": False}, {"schweinchen_in_poverty": False}),
        ({"extrapoint_heart_trick": True}, {"heart_trick_point": False}),  # with nines: no effect
        ({"extrapoint_heart_trick": True, "with_nines": False}, {"heart_trick_point": True}),
        ({"extrapoint_dolle_jabs_dolle": True}, {"dulle_caught_dulle": True}),
        ({"extrapoint_catch_fox": False, "extrapoint_catch_fox_last_trick": True}, {"fox_caught_last_trick": False}),
        (
            {"extrapoint_double_fox_last_trick": True, "extrapoint_fox_last_trick": False},
            {"double_fox_last_trick": False},
        ),
        ({"extrapoint_charlie": False}, {"karlchen": False, "karlchen_capture": False, "double_karlchen": False}),
        ({"extrapoint_catch_double_charlie": True}, {"karlchen_captured_twice": False}),  # needs double charlie
        (
            {"extrapoint_catch_double_charlie": True, "extrapoint_double_charlie": True},
            {"karlchen_captured_twice": True, "double_karlchen": True},
        ),
        ({"extrapoint_catch_charlie_only_with_diamond_queen": True}, {"karlchen_capture_with_dq": True}),
    ],
)
def test_an_option_counts_only_where_what_it_rests_on_is_on(changes: dict[str, bool], expected: dict[str, Any]) -> None:
    read = card_rules(block(**changes))
    assert {name: read[name] for name in expected} == expected


@pytest.mark.parametrize(
    ("changes", "option", "value"),
    [
        ({"swine_only_second": True, "swines_announcement_begin": False}, "swine only second", "true"),
        ({"hyperswines": True, "hyperswines_in_solo": False}, "hyperswines in solo", "false"),
        ({"hyperswines": True, "hyperswines_in_poverty": False}, "hyperswines in poverty", "false"),
        ({"hyperswines": True, "hyperswines_announcement_begin": False}, "hyperswines announcement begin", "false"),
    ],
)
def test_what_doko_does_not_play_refuses_the_game_at_its_line(
    changes: dict[str, bool], option: str, value: str
) -> None:
    rules_block = block(**changes)
    with pytest.raises(FreeDokoFileError, match=f"rule '{option} = {value}' is not one doko plays") as refused:
        read_rules(rules_block, "log")
    assert f"log:{rules_block[option].line}:" in str(refused.value)


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"hyperswines": True}, {"hyperschweinchen": True, "hyperschweinchen_joint": False}),
        ({"hyperswines": True, "swines_and_hyperswines_joint": True}, {"hyperschweinchen_joint": True}),
        ({"hyperswines": True, "swines": False}, {"hyperschweinchen": False, "schweinchen": False}),
        (  # swines announced in the game: the hyperswines' own "begin" has no effect
            {"hyperswines": True, "swines_announcement_begin": False, "hyperswines_announcement_begin": False},
            {"hyperschweinchen": True, "schweinchen_shown": "while_held"},
        ),
        ({"hyperswines": True, "swines_in_solo": False, "hyperswines_in_solo": False}, {"hyperschweinchen": True}),
        ({"hyperswines": False, "swines_and_hyperswines_joint": True}, {"hyperschweinchen_joint": False}),
    ],
)
def test_hyperswines_are_hyperschweinchen(changes: dict[str, bool], expected: dict[str, Any]) -> None:
    read = card_rules(block(**changes))
    assert {name: read[name] for name in expected} == expected


def imported(path: Path) -> game.LoadedGame:
    return game.read(path.read_text(encoding="utf-8"), str(path))


def agrees(path: Path) -> None:
    loaded = imported(path)
    claim = next(e for e in loaded.events if isinstance(e, ResultClaimed))
    result = score_game(loaded.state)
    check = derivation_check(result, claim, loaded.state.rules.counting)
    assert check.ok, check.details
    assert tuple(result.by_player[p] for p in result.players) == claim.points


def test_the_second_dulle_takes_freedokos_last_trick() -> None:
    state = imported(DULLE_LAST).state
    last = state.tricks[-1]
    assert str(last.cards[0]) == str(last.cards[3]) == "H10" and last.winner == 1  # Gerd's, played last
    agrees(DULLE_LAST)


@pytest.mark.parametrize(
    ("path", "solo", "ace"),
    [(SPADE_SOLO_SWINES, GameType.SPADE_SOLO, "SA"), (CLUB_SOLO_SWINES, GameType.CLUB_SOLO, "CA")],
)
def test_swines_in_a_colour_solo_are_its_aces(path: Path, solo: GameType, ace: str) -> None:
    loaded = imported(path)
    assert loaded.state.game_type is solo and str(loaded.state.order.trumps[0]) == ace
    assert any(isinstance(e, SchweinchenShown) for e in loaded.events)
    agrees(path)


def test_freedokos_swines_are_called_at_the_start_of_a_normal_game() -> None:
    loaded = imported(SWINES_NORMAL)
    shown = [e for e in loaded.events if isinstance(e, SchweinchenShown)]
    assert shown == [SchweinchenShown(1)] and loaded.state.schweinchen_seat == 1
    agrees(SWINES_NORMAL)


def test_a_fox_taking_the_last_trick_scores_as_freedoko_counts_it() -> None:
    loaded = imported(FOX_LAST)
    lines = [line for line in score_game(loaded.state).score.lines if line.special]
    assert [line.item for line in lines] == ["against the old ones", "last trick won with DA (Fuchs)"]
    assert lines[1].cause.startswith("trick 12: ")
    agrees(FOX_LAST)


@pytest.mark.parametrize(("path", "line"), [(SWINES_NORMAL, "  swines = 1\n"), (SPADE_SOLO_SWINES, "  swines = 3\n")])
def test_without_the_swines_line_the_aces_are_ordinary_trumps(path: Path, line: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert line in text
    with pytest.raises(FreeDokoFileError, match=r"trick \d+: FreeDoko gives it to player \d, these rules to player \d"):
        game.read(text.replace(line, "", 1), "no-swines")


def test_every_sample_with_a_swines_line_calls_them() -> None:
    for path in sorted(SAMPLES.glob("*/*.BugReport.FreeDoko")):
        log = load_game(path)
        calls = [a.seat for a in log.actions if a.kind == "swines"]
        if not calls:
            continue
        try:
            loaded = imported(path)
        except FreeDokoFileError as exc:
            assert "swines" not in str(exc).lower() and "schweinchen" not in str(exc).lower()
            continue
        assert [e.seat for e in loaded.events if isinstance(e, SchweinchenShown)] == calls


HYPER_HAND = SAMPLES / "defaults" / "game_00015.seed_056745.BugReport.FreeDoko"
"""Mara (0) announces swines; Erika (2) holds both diamond nines."""


def test_hyperswines_count_only_when_announced() -> None:
    text = HYPER_HAND.read_text(encoding="utf-8").replace("hyperswines = false\n", "hyperswines = true\n", 1)
    quiet = game.read(text, "quiet")  # nobody announced them: the nines are ordinary trumps
    assert quiet.state.rules.hyperschweinchen and quiet.state.hyperschweinchen_seat is None
    announced = text.replace("  swines = 0\n", "  swines = 0\n  hyperswines = 2\n", 1)
    with pytest.raises(FreeDokoFileError, match="trick 9: FreeDoko gives it to player 0, these rules to player 2"):
        game.read(announced, "announced")  # Erika's nine now beats Mara's swine
