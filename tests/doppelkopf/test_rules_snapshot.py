"""`rules_from_snapshot` remembers the rule sets it builds: the same snapshot gives the same
(immutable) rule set, and a snapshot that differs in any option, value or value type gives its own."""

from __future__ import annotations

import json
from typing import Any

import pytest

from doko_ledger.doppelkopf.rules.ruleset import PRESETS, RuleSet, preset, rules_from_mapping, rules_from_snapshot

RULE_SETS = [preset(name) for name in PRESETS] + [
    rules_from_mapping({"preset": "standard", "bock_triggers": ["tie", "lost_solo"], "bock_multiplier": 3}),
    rules_from_mapping({"preset": "duel", "computer_seats": [0, 2]}),
]


def snapshot(rules: RuleSet) -> dict[str, Any]:
    """As a game stores it: the options through JSON."""
    loaded: dict[str, Any] = json.loads(json.dumps(rules.to_dict()))
    return loaded


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.preset)
def test_a_snapshot_gives_its_rule_set_and_the_same_one_again(rules: RuleSet) -> None:
    first = rules_from_snapshot(snapshot(rules))
    assert first == rules and first.to_dict() == rules.to_dict()
    assert rules_from_snapshot(snapshot(rules)) is first


def test_snapshots_that_differ_give_different_rule_sets() -> None:
    base = snapshot(preset("standard"))
    seats = {**base, "computer_seats": [1, 3]}
    assert rules_from_snapshot(seats).computer_seats == (1, 3)
    assert rules_from_snapshot(base).computer_seats == ()
    as_float = rules_from_snapshot({**base, "bock_multiplier": 2.0})
    assert type(as_float.bock_multiplier) is float
    assert type(rules_from_snapshot(base).bock_multiplier) is int
    assert type(rules_from_snapshot({**base, "bock_multiplier": True}).bock_multiplier) is bool
    assert [type(s) for s in rules_from_snapshot({**base, "computer_seats": [True, 3]}).computer_seats] == [bool, int]
    assert [type(s) for s in rules_from_snapshot({**base, "computer_seats": [1, 3]}).computer_seats] == [int, int]
    assert rules_from_snapshot({**base, "scoring": "1"}).scoring == "1"
    assert rules_from_snapshot({**base, "scoring": 1}).scoring == 1


def test_an_older_snapshot_keeps_the_defaults_of_newer_options() -> None:
    older = {k: v for k, v in snapshot(preset("ddv")).items() if k not in ("compulsory_solo", "tournament_deals")}
    assert rules_from_snapshot(older) == preset("ddv")


def test_a_snapshot_that_is_not_plain_json_is_still_read() -> None:
    odd = {**snapshot(preset("standard")), "unknown_option": {"nested": [1, 2]}}
    assert rules_from_snapshot(odd) == preset("standard")
