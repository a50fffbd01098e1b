"""Rule sets: presets, options from a mapping, the snapshot stored with a game (docs/rules.md §8)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from doko_ledger.doppelkopf.rules.ruleset import (
    OPTION_NAMES,
    RuleSet,
    RuleSetError,
    preset,
    rules_from_mapping,
    rules_from_snapshot,
)
from doko_ledger.errors import DokoError

# --- presets -----------------------------------------------------------------------------------

# The options docs/rules.md names, with the value of each preset (docs/rules.md §2-§8).
STANDARD = {
    "with_nines": True,
    "second_dulle_beats_first": False,
    "schweinchen": False,
    "soloist_leads": False,
    "pure_suit_solos": False,
    "poverty": True,
    "marriage_clarification": "any",
    "marriage_shift": "after_first",
    "solo_must_announce_no90": False,
    "announcement_scoring": "additive",
    "specials_doubled": False,
    "karlchen_capture": True,
}
BISTRO = STANDARD | {
    "with_nines": False,
    "soloist_leads": True,
    "pure_suit_solos": True,
    "solo_must_announce_no90": True,
    "schweinchen": True,
}
DDV = STANDARD | {"poverty": False, "karlchen_capture": False}


def test_every_option_of_rules_md_is_a_field() -> None:
    assert set(STANDARD) <= set(OPTION_NAMES)


@pytest.mark.parametrize(("name", "expected"), [("standard", STANDARD), ("bistro", BISTRO), ("ddv", DDV)])
def test_preset_options(name: str, expected: dict[str, Any]) -> None:
    rules = preset(name)

    assert rules.preset == name
    for option, value in expected.items():
        assert getattr(rules, option) == value, option


def test_duel_preset_is_standard_with_two_computer_seats_opposite() -> None:
    rules = preset("duel")

    assert rules.preset == "duel"
    assert rules.computer_seats == (1, 3)
    assert [rules.is_computer(seat) for seat in range(4)] == [False, True, False, True]
    assert dataclasses.replace(rules, preset="standard", computer_seats=()) == preset("standard")


def test_standard_is_the_default() -> None:
    assert RuleSet() == preset("standard")
    assert rules_from_mapping({}) == preset("standard")


@pytest.mark.parametrize(("name", "hand_size"), [("standard", 12), ("bistro", 10), ("ddv", 12), ("duel", 12)])
def test_hand_size_follows_with_nines(name: str, hand_size: int) -> None:
    assert preset(name).hand_size == hand_size


@pytest.mark.parametrize("name", ["kneipe", "Standard", "", "tournaments"])
def test_unknown_preset_is_refused_by_name(name: str) -> None:
    with pytest.raises(RuleSetError, match=f"unknown rule preset {name!r}"):
        preset(name)
    with pytest.raises(RuleSetError, match=f"unknown rule preset {name!r}"):
        rules_from_mapping({"preset": name})


def test_rule_set_error_is_a_value_error_and_a_doko_error() -> None:
    assert issubclass(RuleSetError, ValueError)
    assert issubclass(RuleSetError, DokoError)


def test_rule_set_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        preset("standard").with_nines = False  # type: ignore[misc]


# --- rules_from_mapping --------------------------------------------------------------------------


def test_mapping_starts_from_its_preset_and_applies_changes() -> None:
    rules = rules_from_mapping({"preset": "bistro", "with_nines": True, "schweinchen": False})

    assert rules.preset == "bistro"
    assert rules.with_nines is True
    assert rules.schweinchen is False
    assert rules.soloist_leads is True  # kept from bistro
    assert rules.pure_suit_solos is True


def test_mapping_without_preset_starts_from_standard() -> None:
    rules = rules_from_mapping({"second_dulle_beats_first": True, "marriage_clarification": "trump"})

    assert rules == dataclasses.replace(
        preset("standard"), second_dulle_beats_first=True, marriage_clarification="trump"
    )


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("marriage_clarification", "any"),
        ("marriage_clarification", "trump"),
        ("marriage_clarification", "plain"),
        ("marriage_shift", "after_first"),
        ("marriage_shift", "tricks"),
        ("announcement_scoring", "additive"),
        ("announcement_scoring", "doubling"),
        ("karlchen_capture", False),
        ("specials_doubled", True),
        ("poverty", False),
    ],
)
def test_mapping_accepts_every_allowed_value(option: str, value: Any) -> None:
    assert getattr(rules_from_mapping({option: value}), option) == value


@pytest.mark.parametrize("option", ["second_dulle", "nines", "Schweinchen", "bock_rounds"])
def test_unknown_option_is_refused_by_name(option: str) -> None:
    with pytest.raises(RuleSetError, match=f"unknown rule option {option!r}"):
        rules_from_mapping({"preset": "standard", option: True})


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("with_nines", "no"),
        ("with_nines", 0),
        ("with_nines", 1),
        ("with_nines", None),
        ("schweinchen", "true"),
        ("marriage_clarification", "sometimes"),
        ("marriage_clarification", True),
        ("marriage_shift", "before_first"),
        ("announcement_scoring", "double"),
        ("announcement_scoring", None),
    ],
)
def test_wrong_value_is_refused_naming_option_and_value(option: str, value: Any) -> None:
    with pytest.raises(RuleSetError) as raised:
        rules_from_mapping({option: value})

    assert repr(option) in str(raised.value)
    assert repr(value) in str(raised.value)


@pytest.mark.parametrize("data", ["bistro", ["standard"], 3])
def test_non_mapping_is_refused(data: Any) -> None:
    with pytest.raises(RuleSetError):
        rules_from_mapping(data)


# --- snapshot --------------------------------------------------------------------------------------

VARIANTS = [
    preset("standard"),
    preset("bistro"),
    preset("ddv"),
    preset("duel"),
    rules_from_mapping({"preset": "bistro", "with_nines": True, "announcement_scoring": "doubling"}),
    rules_from_mapping({"second_dulle_beats_first": True, "marriage_shift": "tricks", "karlchen_capture": False}),
]


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.preset)
def test_snapshot_round_trips(rules: RuleSet) -> None:
    snapshot = rules.to_dict()

    assert rules_from_snapshot(snapshot) == rules
    assert rules_from_snapshot(json.loads(json.dumps(snapshot))) == rules


def test_snapshot_lists_preset_then_every_option_in_field_order() -> None:
    snapshot = preset("bistro").to_dict()

    assert list(snapshot) == ["preset", *OPTION_NAMES]
    assert snapshot["preset"] == "bistro"
    assert snapshot["with_nines"] is False


def test_snapshot_ignores_unknown_keys_and_defaults_missing_ones() -> None:
    snapshot = preset("standard").to_dict()
    snapshot["an_option_from_the_future"] = 7
    del snapshot["karlchen_capture"]
    snapshot["second_dulle_beats_first"] = True

    rules = rules_from_snapshot(snapshot)

    assert rules.karlchen_capture is True
    assert rules.second_dulle_beats_first is True


# --- changed_from_preset ------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["standard", "bistro", "ddv", "duel"])
def test_a_preset_changes_nothing_from_itself(name: str) -> None:
    assert preset(name).changed_from_preset() == {}


def test_changed_from_preset_lists_only_the_changes() -> None:
    rules = rules_from_mapping({"preset": "bistro", "with_nines": True, "soloist_leads": True, "poverty": False})

    assert rules.changed_from_preset() == {"with_nines": True, "poverty": False}


def test_changed_from_preset_compares_with_the_own_preset() -> None:
    rules = rules_from_mapping({"preset": "ddv", "karlchen_capture": True})

    assert rules.changed_from_preset() == {"karlchen_capture": True}
    assert rules_from_mapping({"karlchen_capture": False}).changed_from_preset() == {"karlchen_capture": False}
