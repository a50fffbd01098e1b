"""A rule set in a stored `GameStarted` is read by its text (`register_value(flat_object=True)`):
the same event as reading the whole payload, whatever the payload's shape, and one rule set for
every game that stores the same text."""

from __future__ import annotations

import json
from typing import Any

import pytest

from doko_ledger.doppelkopf.events import GameStarted
from doko_ledger.doppelkopf.rules.ruleset import preset, rules_from_mapping
from doko_ledger.events.codec import decode_event, dumps_canonical, encode_event, from_payload

RULES = rules_from_mapping({"preset": "bistro", "bock_triggers": ["tie"], "computer_seats": [1, 3]})


def _stored(**changes: Any) -> str:
    event = GameStarted("g-1", ("Anna", "Ben", "Clara", "Dirk"), 2, RULES, note='a } and "rules":{ in a note')
    _, _, text = encode_event(event)
    payload = json.loads(text)
    payload.update(changes)
    return dumps_canonical(payload)


def _read(text: str) -> Any:
    decode_event.cache_clear()
    return decode_event("GameStarted", GameStarted.schema_version, text)


def _whole(text: str) -> Any:
    return from_payload("GameStarted", json.loads(text))


@pytest.mark.parametrize(
    "text",
    [
        _stored(),
        _stored(rules={**RULES.to_dict(), "preset": "}"}),  # the rules' text cut short: read whole
        _stored(rules={**RULES.to_dict(), "unknown_option": {"rules": {"nested": 1}}}),  # an object inside
        _stored(played_on="2026-12-02", dealt_by="Erik"),
        json.dumps(json.loads(_stored()), indent=1),  # not the canonical text
    ],
)
def test_a_game_start_reads_as_its_whole_payload_reads(text: str) -> None:
    read = _read(text)
    assert read == _whole(text) and repr(read) == repr(_whole(text))
    assert read.rules.to_dict() == _whole(text).rules.to_dict()


def test_games_with_the_same_rules_text_share_one_rule_set() -> None:
    first, second = _read(_stored()), _read(_stored(game_id="g-2"))
    assert first.game_id != second.game_id and first.rules is second.rules == RULES
    assert _read(_stored(rules=preset("standard").to_dict())).rules == preset("standard")
