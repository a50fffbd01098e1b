"""FreeDoko's announcement options read as doko's deadline options (docs/rules.md §5): cards held
become cards played, `last announcement` a last trick, the first trick's thirty points one option."""

from __future__ import annotations

import pytest

from doko_ledger.doppelkopf.files.freedoko.blocks import Entry
from doko_ledger.doppelkopf.files.freedoko.log import FreeDokoFileError
from doko_ledger.doppelkopf.files.freedoko.rules import read_rules
from doko_ledger.doppelkopf.rules.announcements import deadlines_of
from doko_ledger.doppelkopf.rules.ruleset import RuleSet

DEFAULTS = {
    "knocking": "false",
    "announcement no 120": "11",
    "announcement no 90": "9",
    "announcement no 60": "6",
    "announcement no 30": "3",
    "announcement no 0": "3",
    "last announcement": "3",
    "announcement till full trick": "false",
    "announcement reply": "true",
    "announcement strict limit": "false",
    "announcement first trick thirty points": "true",
    "announcement first trick thirty points only first": "false",
    "announcement first trick thirty points only re/contra": "true",
    "announcement first trick thirty points in marriage": "true",
    "announcement contra doubles against re": "false",
}
"""FreeDoko's own defaults, as its rule block writes them."""


def read(**changed: str) -> RuleSet:
    values = {**DEFAULTS, **{k.replace("_", " "): v for k, v in changed.items()}}
    block = {name: Entry(name, value, line) for line, (name, value) in enumerate(values.items(), start=10)}
    return read_rules(block, "game.FreeDoko").rules


def refusal(**changed: str) -> str:
    with pytest.raises(FreeDokoFileError) as raised:
        read(**changed)
    return str(raised.value)


def test_freedokos_defaults_are_cards_held_turned_into_cards_played() -> None:
    rules = read()
    assert deadlines_of(rules).by_level == (1, 3, 6, 9, 9)
    assert (rules.deadlines_count, rules.late_answer) == ("cards", True)
    assert (rules.last_announcement_trick, rules.first_trick_thirty, rules.marriage_shift) == (
        10,
        "party_silent",
        "after_first",
    )


def test_without_nines_the_hand_holds_ten_cards() -> None:
    rules = read(
        **{"with nines": "false", "announcement no 120": "9", "announcement no 90": "7"},
        **{"announcement no 60": "5", "announcement no 30": "2", "announcement no 0": "1"},
    )
    assert deadlines_of(rules).by_level == (1, 3, 5, 8, 9)
    assert rules.last_announcement_trick == 8
    assert "with 10 cards a hand no such call could ever be made" in refusal(
        **{"with nines": "false", "announcement no 120": "11"}
    )


@pytest.mark.parametrize(("last", "trick"), [("1", 12), ("3", 10), ("12", 1)])
def test_last_announcement_is_the_tricks_left(last: str, trick: int) -> None:
    assert read(**{"last announcement": last}).last_announcement_trick == trick


def test_till_full_trick_counts_tricks_and_reply_switches_late_answers() -> None:
    rules = read(**{"announcement till full trick": "true", "announcement reply": "false"})
    assert (rules.deadlines_count, rules.late_answer) == ("tricks", False)


@pytest.mark.parametrize(
    ("thirty", "only_first", "only_re_contra", "mode"),
    [
        ("false", "true", "true", "off"),
        ("true", "true", "false", "all_silent"),
        ("true", "true", "true", "all_silent"),
        ("true", "false", "true", "party_silent"),
        ("true", "false", "false", "always"),
    ],
)
def test_the_first_tricks_thirty_points(thirty: str, only_first: str, only_re_contra: str, mode: str) -> None:
    rules = read(
        **{
            "announcement first trick thirty points": thirty,
            "announcement first trick thirty points only first": only_first,
            "announcement first trick thirty points only re/contra": only_re_contra,
        }
    )
    assert rules.first_trick_thirty == mode


@pytest.mark.parametrize("name", ["announcement strict limit", "knocking"])
def test_options_doko_does_not_play_are_refused_by_name_and_value(name: str) -> None:
    line = 10 + list(DEFAULTS).index(name)
    assert refusal(**{name: "true"}) == (
        f"game.FreeDoko:{line}: rule '{name} = true' is not one doko plays (only false)"
    )


def test_a_value_freedoko_does_not_take_is_refused_at_its_line() -> None:
    assert refusal(**{"announcement no 90": "0"}) == (
        "game.FreeDoko:12: rule 'announcement no 90 = 0': takes a whole number from 1 to 12"
    )


@pytest.mark.parametrize("value", [True, False])
def test_contra_doubles_against_re_doubles_against_the_old_ones(value: bool) -> None:
    rules = read(**{"announcement contra doubles against re": str(value).lower()})
    assert rules.against_old_ones_doubled is value
