"""Every option of the rule set as forms and `--set` show and read it (rules/options.py): its
group, one line, the values it takes, and its section of docs/rules.md."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from doko_ledger.doppelkopf.rules.options import (
    GROUP_WORDS,
    GROUPS,
    OPTIONS,
    SEAT_PAIRS,
    changes_text,
    grouped,
    option,
    parse_setting,
    rules_with,
)
from doko_ledger.doppelkopf.rules.ruleset import (
    BOCK_TRIGGERS,
    OPTION_NAMES,
    PICTURE_SOLOS,
    RuleSet,
    RuleSetError,
    preset,
)
from doko_ledger.i18n import render

RULES_DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def test_every_option_of_the_rule_set_has_one_entry() -> None:
    assert sorted(o.name for o in OPTIONS) == sorted(OPTION_NAMES)
    assert len({o.name for o in OPTIONS}) == len(OPTIONS)


def test_every_entry_has_a_group_a_line_and_an_anchor_that_docs_rules_md_has() -> None:
    anchors = set(re.findall(r'<a id="([^"]+)"></a>', RULES_DOC.read_text(encoding="utf-8")))
    for entry in OPTIONS:
        assert entry.group in GROUPS, entry.name
        line = render(entry.line, "en")
        assert line and "\n" not in line and len(line) <= 90, entry.name
        assert entry.anchor in anchors, (entry.name, entry.anchor)
        assert entry.link == f"docs/rules.md#{entry.anchor}"


def test_the_groups_come_in_order_and_none_is_empty() -> None:
    assert list(GROUP_WORDS) == list(GROUPS)
    shown = grouped()
    assert [g for g, _ in shown] == list(GROUPS)
    assert all(options for _, options in shown)
    assert [o.name for _, options in shown for o in options] == [o.name for o in OPTIONS]


@pytest.mark.parametrize(
    ("name", "kind", "choices", "bounds"),
    [
        ("with_nines", "bool", (), (None, None)),
        ("marriage_clarification", "choice", ("any", "trump", "plain", "clubs", "spades", "hearts"), (None, None)),
        ("poverty_fox", "choice", ("counted", "not_counted", "passed_extra"), (None, None)),
        ("marriage_tricks", "number", (), (1, 12)),
        ("throw_richness", "number", (), (0, 240)),
        ("bock_overlap", "choice", ("queue", "stack", "extend", "ignore"), (None, None)),
        ("bock_effect", "choice", ("multiply", "extra_point"), (None, None)),
        ("counting", "choice", ("plus_minus", "winners_only", "losers_only"), (None, None)),
        ("bock_multiplier", "number", (), (1, 100)),
        ("tournament_deals", "number", (), (1, 100)),
        ("bock_triggers", "triggers", BOCK_TRIGGERS, (None, None)),
        ("computer_seats", "seats", SEAT_PAIRS, (None, None)),
        ("picture_solos", "set", PICTURE_SOLOS, (None, None)),
    ],
)
def test_each_option_says_what_it_takes(
    name: str, kind: str, choices: tuple[object, ...], bounds: tuple[int, int]
) -> None:
    entry = option(name)
    assert (entry.kind, entry.choices, (entry.lowest, entry.highest)) == (kind, choices, bounds)


def test_the_seat_choices_are_none_or_a_pair_the_rule_set_takes() -> None:
    assert SEAT_PAIRS[0] == () and len(SEAT_PAIRS) == 7
    for pair in SEAT_PAIRS:
        assert rules_with(RuleSet(), {"computer_seats": option("computer_seats").text(pair)}).computer_seats == pair


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ({"with_nines": "false"}, {"with_nines": False}),
        ({"schweinchen": "yes"}, {"schweinchen": True}),
        ({"bock_triggers": "tie,heart_trick"}, {"bock_triggers": ["tie", "heart_trick"]}),
        (
            {"bock_overlap": "stack", "bock_effect": "extra_point"},
            {"bock_overlap": "stack", "bock_effect": "extra_point"},
        ),
        ({"counting": "losers_only"}, {"counting": "losers_only"}),
        ({"bock_multiplier": "3"}, {"bock_multiplier": 3}),
        ({"computer_seats": "0,2"}, {"computer_seats": [0, 2]}),
        ({"computer_seats": "none"}, {}),
        ({"picture_solos": "[king_solo, koehler_solo]"}, {"picture_solos": ["king_solo", "koehler_solo"]}),
    ],
)
def test_options_typed_as_text_change_the_rules(typed: dict[str, str], expected: dict[str, object]) -> None:
    assert rules_with(preset("standard"), typed).changed_from_preset() == expected


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ({"nope": "1"}, "unknown rule option 'nope'"),
        ({"with_nines": "maybe"}, "'with_nines' takes true or false"),
        ({"bock_multiplier": "0"}, "'bock_multiplier' takes a whole number from 1 to 100, not 0"),
        ({"bock_multiplier": "x"}, "'bock_multiplier' takes a whole number from 1 to 100"),
        ({"tournament_deals": "101"}, "from 1 to 100, not 101"),
        ({"counting": "both"}, "'counting' takes one of 'plus_minus', 'winners_only', 'losers_only', not 'both'"),
        ({"bock_triggers": "tie,rain"}, "'bock_triggers' takes a list of tie"),
        ({"computer_seats": "1"}, "'computer_seats' takes [] or two different seats 0-3"),
        ({"computer_seats": "1,1"}, "'computer_seats' takes [] or two different seats 0-3"),
        ({"computer_seats": "a,b"}, "'computer_seats' takes none or two different seats 0-3"),
        ({"picture_solos": "king,queen"}, "'picture_solos' takes a list of king_solo, queen_jack_solo"),
    ],
)
def test_a_value_an_option_does_not_take_is_refused_by_name(typed: dict[str, str], words: str) -> None:
    with pytest.raises(RuleSetError, match=re.escape(words)):
        rules_with(preset("standard"), typed)


def test_a_saved_change_keeps_its_preset_and_says_what_it_changes() -> None:
    rules = rules_with(preset("bistro"), {"bock_triggers": "tie,lost_solo", "counting": "winners_only"})
    assert rules.preset == "bistro" and not rules.with_nines
    assert changes_text(rules) == "bock_triggers=tie,lost_solo; counting=winners_only"
    assert changes_text(preset("duel")) == ""


@pytest.mark.parametrize(("text", "pair"), [("a=b", ("a", "b")), ("bock_triggers=", ("bock_triggers", ""))])
def test_set_takes_option_equals_value(text: str, pair: tuple[str, str]) -> None:
    assert parse_setting(text) == pair


@pytest.mark.parametrize("text", ["novalue", "=3", ""])
def test_set_without_an_option_is_refused(text: str) -> None:
    with pytest.raises(RuleSetError, match="--set takes option=value"):
        parse_setting(text)
