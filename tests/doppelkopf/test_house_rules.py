"""Named house-rule sets kept in the ledger (doppelkopf/house_rules.py): saved, found by name,
saved again as a new version, refused for a preset's name or a bad name; `rules_named` resolves
a preset, a saved set or a rule file. On both databases."""

from __future__ import annotations

from pathlib import Path

import pytest

from doko_ledger.doppelkopf.house_rules import (
    HouseRulesBook,
    HouseRulesNotFound,
    HouseRulesSaved,
    rules_named,
)
from doko_ledger.doppelkopf.rules.ruleset import RuleSetError, preset, rules_from_mapping
from doko_ledger.store.base import EventStore

AT = "2026-12-01T20:00:00+00:00"
STACKING = rules_from_mapping({"preset": "standard", "bock_triggers": ["tie", "heart_trick"], "bock_overlap": "stack"})


def test_a_saved_set_is_found_by_its_name_in_any_case(store: EventStore) -> None:
    book = HouseRulesBook(store)
    saved = book.save("Kitchen", STACKING, by="anna", at=AT)
    assert (saved.name, saved.version, saved.saved_by) == ("Kitchen", 1, "anna")
    found = book.find("kitchen")
    assert found is not None and found.rules == STACKING and found.name == "Kitchen"
    assert found.changes() == {"bock_triggers": ["tie", "heart_trick"], "bock_overlap": "stack"}
    assert [r.event for r in store.read_stream("rules/kitchen")] == [HouseRulesSaved("Kitchen", STACKING, None)]


def test_saving_again_makes_a_new_version_and_the_newest_is_the_set(store: EventStore) -> None:
    book = HouseRulesBook(store)
    book.save("kitchen", STACKING, by="anna", at=AT)
    again = book.save("kitchen", preset("bistro"), by="ben", at=AT)
    assert again.version == 2
    found = book.named("kitchen")
    assert (found.rules, found.version, found.saved_by) == (preset("bistro"), 2, "ben")
    assert [h.name for h in book.list()] == ["kitchen"]


def test_the_same_save_sent_again_is_written_once(store: EventStore) -> None:
    book = HouseRulesBook(store)
    first = book.save("kitchen", STACKING, by="anna", at=AT, request_id="r1")
    again = book.save("kitchen", STACKING, by="anna", at=AT, request_id="r1")
    assert again == first and store.stream_version("rules/kitchen") == 1


def test_the_sets_are_listed_by_name(store: EventStore) -> None:
    book = HouseRulesBook(store)
    for name in ("pub", "Kitchen", "dorm"):
        book.save(name, STACKING, by="anna", at=AT)
    assert book.names() == ["dorm", "Kitchen", "pub"]


@pytest.mark.parametrize("name", ["standard", "Bistro", "DDV", "duel", "tournament"])
def test_a_presets_name_is_refused(store: EventStore, name: str) -> None:
    with pytest.raises(RuleSetError, match="is a preset's name"):
        HouseRulesBook(store).save(name, STACKING, by="anna", at=AT)
    assert store.streams("rules/") == []


@pytest.mark.parametrize("name", ["", "a b", "-x", "x/y", "kitchen.yaml", "k" * 41, "küche", "x\n"])
def test_a_bad_name_is_refused(store: EventStore, name: str) -> None:
    with pytest.raises(RuleSetError, match="a house-rule set's name takes 1 to 40 of a-z"):
        HouseRulesBook(store).save(name, STACKING, by="anna", at=AT)
    assert store.streams("rules/") == []


def test_rules_named_takes_a_preset_then_a_saved_set_then_a_file(store: EventStore, tmp_path: Path) -> None:
    book = HouseRulesBook(store)
    book.save("kitchen", STACKING, by="anna", at=AT)
    assert rules_named("ddv", book).rules == preset("ddv") and rules_named("ddv", book).name is None
    named = rules_named("kitchen", book)
    assert (named.rules, named.name) == (STACKING, "kitchen")
    file = tmp_path / "house.yaml"
    file.write_text("preset: standard\ncounting: winners_only\n", encoding="utf-8")
    assert rules_named(str(file), book).rules.counting == "winners_only"
    with pytest.raises(HouseRulesNotFound, match=r"no preset, house-rule set or rule file 'pub'.*saved: kitchen"):
        rules_named("pub", book)
    with pytest.raises(HouseRulesNotFound, match="no preset, house-rule set or rule file 'kitchen'"):
        rules_named("kitchen")  # no ledger given: only presets and files
