"""Every event is declared once (`@event(version=N)` on a subclass of `Event`): its stored name,
its schema version and JSON Schema files, its upcasters, and a name declared twice refused."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from doko_ledger.doppelkopf.cards import parse_card
from doko_ledger.doppelkopf.events import CardPlayed, DealSummarized, GameStarted
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doudizhu.events import BidMade
from doko_ledger.events.catalog import load_all
from doko_ledger.events.codec import (
    _UPCASTERS,
    Event,
    decode_event,
    encode_event,
    event,
    event_class,
    event_names,
)
from doko_ledger.games import event_modules
from doko_ledger.schema_files import schema_dir


def _catalog() -> list[type[Event]]:
    """The event types of the ledger's own event modules (tests declare throwaway ones too)."""
    load_all()
    return [cls for cls in map(event_class, event_names()) if cls.__module__ in set(event_modules())]


def _schema_files() -> set[tuple[str, int]]:
    names = (p.name.removesuffix(".json").rpartition(".v") for p in (schema_dir() / "events").glob("*.json"))
    return {(name, int(version)) for name, _, version in names}


def test_every_event_type_has_a_schema_file_for_each_of_its_versions() -> None:
    declared = {(cls.event_name, version) for cls in _catalog() for version in range(1, cls.schema_version + 1)}
    assert declared <= _schema_files(), sorted(declared - _schema_files())


def test_every_event_schema_file_belongs_to_a_declared_version() -> None:
    current = {cls.event_name: cls.schema_version for cls in _catalog()}
    orphans = sorted((name, v) for name, v in _schema_files() if not 1 <= v <= current.get(name, 0))
    assert orphans == []


def test_every_older_version_has_an_upcaster_to_the_next() -> None:
    missing = [
        (cls.event_name, version)
        for cls in _catalog()
        for version in range(1, cls.schema_version)
        if (cls.event_name, version) not in _UPCASTERS
    ]
    assert missing == []


def test_an_event_is_stored_under_its_class_name_and_found_by_it() -> None:
    for cls in _catalog():
        assert cls.event_name == cls.__name__
        assert event_class(cls.event_name) is cls
    assert (GameStarted.event_name, GameStarted.schema_version) == ("GameStarted", 3)


def test_a_declared_event_is_a_frozen_slotted_dataclass() -> None:
    for cls in _catalog():
        assert issubclass(cls, Event)
        assert dataclasses.is_dataclass(cls)
        assert cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
        assert "__slots__" in cls.__dict__
    played = CardPlayed(2, parse_card("CQ"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        played.seat = 3  # type: ignore[misc]
    assert not hasattr(played, "__dict__")  # slots all through: no room for another attribute
    assert played == CardPlayed(seat=2, card=parse_card("CQ"))
    assert hash(played) == hash(CardPlayed(2, parse_card("CQ")))
    assert pickle.loads(pickle.dumps(played)) == played


def test_a_declared_event_keeps_its_defaults_and_its_match_arguments() -> None:
    summary = DealSummarized(GameType.NORMAL, (0, 2), 121)
    assert (summary.re_tricks, summary.announcements, summary.specials) == (None, (), ())
    match BidMade(1, 2):
        case BidMade(seat, bid):
            assert (seat, bid) == (1, 2)
        case _:
            pytest.fail("a BidMade did not match its positional pattern")


def test_stored_rows_decode_and_encode_as_before() -> None:
    text = '{"card":"CQ","seat":2}'
    played = decode_event("CardPlayed", 1, text)
    assert played == CardPlayed(2, parse_card("CQ"))
    assert encode_event(played) == ("CardPlayed", 1, text)


def test_declaring_an_event_name_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="event type 'CardPlayed' declared twice"):

        @event(version=1)
        class CardPlayed(Event):  # the same name as the Doppelkopf card
            seat: int

    with pytest.raises(ValueError, match="event type 'GameStarted' declared twice"):

        @event(version=1, name="GameStarted")
        class Begun(Event):
            note: str

    assert event_class("CardPlayed") is globals()["CardPlayed"]
    assert event_class("GameStarted") is GameStarted
    assert "Begun" not in event_names()


def test_an_event_given_a_name_is_stored_under_that_name() -> None:
    @event(version=1, name="TestRenamedClassStoredName")
    class Renamed(Event):
        seat: int

    assert (Renamed.event_name, Renamed.schema_version) == ("TestRenamedClassStoredName", 1)
    assert event_class("TestRenamedClassStoredName") is Renamed
    assert "Renamed" not in event_names()


def test_an_event_must_subclass_event_and_have_a_version_from_1() -> None:
    with pytest.raises(TypeError, match="'TestPlainClass' must subclass Event"):

        @event(version=1)  # type: ignore[type-var]
        class TestPlainClass:
            seat: int

    with pytest.raises(ValueError, match="schema version 0 is not a whole number from 1"):

        @event(version=0)
        class TestVersionZero(Event):
            seat: int

    assert not {"TestPlainClass", "TestVersionZero"} & set(event_names())
