"""The changes of a card night on a store (`CardNights.join`, `leave`, `change_rules`,
`declare_bock`, `undo`): each at a version like a deal, a request id sent again finds the first
write, undo takes back the newest entry, and the bock rounds are the same in the night's page,
`doko standings --json` and the read models."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from doko_ledger.doppelkopf import game_list
from doko_ledger.doppelkopf.book import card_nights
from doko_ledger.doppelkopf.game.commands import IllegalMove
from doko_ledger.doppelkopf.game.record import SummaryRecord
from doko_ledger.doppelkopf.nights.book import CardNights
from doko_ledger.doppelkopf.nights.decide import StartNight
from doko_ledger.doppelkopf.nights.events import BockDeclared, ChangeTakenBack, PlayerJoined
from doko_ledger.doppelkopf.rules.ruleset import rules_from_mapping
from doko_ledger.doppelkopf.views import bock_causes_view, standings_view
from doko_ledger.games import DOPPELKOPF
from doko_ledger.i18n import render
from doko_ledger.ledger import Ledger
from doko_ledger.store.base import ConcurrencyError

AT = "2026-12-01T20:00:00+00:00"
TIE = rules_from_mapping({"bock_triggers": ["tie"]})


def open_night(path: Path, rules: Any = TIE, rate: str | None = None) -> Ledger:
    ledger = Ledger.open(path, create=True)
    start = StartNight("n", ("Anna", "Ben", "Clara", "Dirk"), 0, rules, rate=rate)
    ledger.book_of(DOPPELKOPF).nights.start(start, by="t", at=AT)
    return ledger


@pytest.fixture
def ledger(tmp_path: Path) -> Ledger:
    return open_night(tmp_path / "ledger.sqlite")


def record(nights: CardNights, re_points: int = 130) -> None:
    playing = nights.standings("n").next.playing
    nights.commit(nights.prepare("n", SummaryRecord("normal", playing[:2], re_points)), by="t", at=AT)


def test_a_join_at_the_nights_version_and_refused_at_an_old_one(ledger: Ledger) -> None:
    nights = card_nights(ledger)
    record(nights)
    done = nights.join("n", "Erik", after="Anna", by="Ben", at=AT, version=2)
    assert (done.kind, render(done.words, "en"), done.version) == ("join", "Erik joins after Anna, from deal 2", 3)
    with pytest.raises(ConcurrencyError, match="someone else recorded first"):
        nights.leave("n", "Ben", by="t", at=AT, version=2)
    assert nights.state("n").players == ("Anna", "Erik", "Ben", "Clara", "Dirk")
    assert str(nights.change_since("n", 2)) == "Erik joined (by Ben)"


def test_a_change_sent_again_with_its_request_id_is_written_once(ledger: Ledger) -> None:
    nights = card_nights(ledger)
    first = nights.declare_bock("n", declared_by="Clara", reason="Hochzeit", by="t", at=AT, request_id="r-1")
    again = nights.declare_bock("n", declared_by="Clara", reason="Hochzeit", by="t", at=AT, request_id="r-1")
    assert again.repeated and (again.words, again.version) == (first.words, first.version)
    events = [r.event for r in nights.changes_since("n", 0)]
    assert sum(isinstance(e, BockDeclared) for e in events) == 1
    assert render(first.words, "en") == "bock declared by Clara (Hochzeit), from deal 1"


def test_a_refused_change_writes_nothing(ledger: Ledger) -> None:
    nights = card_nights(ledger)
    with pytest.raises(IllegalMove, match="that would leave 3 players"):
        nights.leave("n", "Anna", by="t", at=AT)
    with pytest.raises(IllegalMove, match="has no deal 1: it has 0 deals"):
        nights.declare_bock("n", declared_by="Anna", reason="", with_deal=1, by="t", at=AT)
    assert nights.version("n") == 1


def test_undo_takes_back_the_newest_entry_deal_or_change(ledger: Ledger) -> None:
    nights = card_nights(ledger)
    record(nights)
    sheet = rules_from_mapping({"bock_triggers": ["tie"], "counting": "winners_only"})
    nights.change_rules("n", sheet, name="sheet", by="t", at=AT)
    planned = nights.to_take_back("n")
    assert (
        planned.kind == "change"
        and render(planned.what, "en") == "the rules change to sheet: counting winners_only, from deal 2"
    )
    with pytest.raises(IllegalMove, match=r"is a change .* not deal 1"):
        nights.undo("n", by="t", at=AT, deal=1)
    taken = nights.undo("n", by="t", at=AT, change=planned.change, request_id="u-1")
    assert taken.what == planned.what
    assert nights.undo("n", by="t", at=AT, request_id="u-1").repeated  # sent again: nothing more
    assert nights.state("n").rules == TIE
    with pytest.raises(IllegalMove, match="not the newest entry"):
        nights.undo("n", by="t", at=AT, change=planned.change)
    assert str(nights.undo("n", by="t", at=AT)) == "deal 1 (n-01)"
    events = [r.event for r in nights.changes_since("n", 0)]
    assert sum(isinstance(e, ChangeTakenBack) for e in events) == 1


def test_a_bock_with_the_deal_just_recorded_goes_with_it(ledger: Ledger) -> None:
    nights = card_nights(ledger)
    record(nights)
    record(nights)
    done = nights.declare_bock("n", declared_by="Dirk", reason="", with_deal=2, by="t", at=AT)
    assert render(done.words, "en") == "bock declared by Dirk with deal 2"
    with pytest.raises(IllegalMove, match="bock comes with the deal just recorded"):
        nights.declare_bock("n", declared_by="Dirk", reason="", with_deal=1, by="t", at=AT)
    record(nights)
    assert nights.standings("n").rows[-1].bock == "deal 2, declared by Dirk"
    assert str(nights.undo("n", by="t", at=AT)) == "deal 3 (n-03)"
    taken = nights.undo("n", by="t", at=AT)
    assert render(taken.what, "en") == "deal 2 (n-02) with the bock declared with it"
    table = nights.standings("n")
    assert table.bock_causes == () and table.changes == () and table.next.multiplier == 1


def test_a_join_is_refused_while_a_deal_is_played_card_by_card(ledger: Ledger) -> None:
    nights = card_nights(ledger)
    nights.deal("n", "seed", by="t", at=AT)
    with pytest.raises(IllegalMove, match="deal 1 is still being played card by card"):
        nights.join("n", "Erik", by="t", at=AT)
    assert not any(isinstance(r.event, PlayerJoined) for r in nights.changes_since("n", 0))


def bock_everywhere(ledger: Ledger) -> None:
    """The bock of every deal and the rounds in force and queued: the same in the night's page,
    `standings --json`'s view and the read models."""
    nights = card_nights(ledger)
    page = nights.page("n")
    view = standings_view(nights.standings("n"))
    assert bock_causes_view(page.standings) == view["bock_rounds"]
    for deal in view["deals"]:
        place = page.places[deal["game_id"]]
        stored = game_list.place_of(ledger.store.db, deal["game_id"])
        shown = None if deal["bock"] is None else (deal["multiplier"], deal["bock"], deal["bock_extra"])
        in_page = None if place.bock is None else (place.bock.multiplier, place.bock.cause, place.bock.extra)
        assert shown == in_page
        if stored is not None:  # a deal thrown in keeps no score row
            assert (
                None if stored.bock is None else (stored.bock.multiplier, stored.bock.cause, stored.bock.extra)
            ) == shown


STEPS = st.lists(
    st.tuples(
        st.sampled_from(["tie", "deal", "bock", "bock_with", "join", "leave", "rules", "undo"]), st.integers(0, 99)
    ),
    min_size=4,
    max_size=14,
)


@settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=STEPS)
def test_bock_rounds_are_derived_alike_by_the_page_the_standings_and_the_read_models(
    tmp_path_factory: pytest.TempPathFactory, steps: list[tuple[str, int]]
) -> None:
    rules = rules_from_mapping({"bock_triggers": ["tie"], "bock_overlap": "stack"})
    with open_night(tmp_path_factory.mktemp("night") / "ledger.sqlite", rules) as ledger:
        nights = card_nights(ledger)
        for step, pick in steps:
            try:
                if step in ("tie", "deal"):
                    record(nights, 120 if step == "tie" else 130 + pick)
                elif step.startswith("bock"):
                    with_deal = len(nights.state("n").deals) if step == "bock_with" else None
                    nights.declare_bock(
                        "n", declared_by="Anna", reason="", rounds=pick % 3 + 1, with_deal=with_deal, by="t", at=AT
                    )
                elif step == "join":
                    nights.join("n", ("Erik", "Fritz", "Gabi")[pick % 3], by="t", at=AT)
                elif step == "leave":
                    nights.leave("n", nights.state("n").players[pick % 4], by="t", at=AT)
                elif step == "rules":
                    effect = ("multiply", "extra_point")[pick % 2]
                    changed = rules_from_mapping(
                        {"bock_triggers": ["tie"], "bock_overlap": "stack", "bock_effect": effect}
                    )
                    nights.change_rules("n", changed, by="t", at=AT)
                else:
                    nights.undo("n", by="t", at=AT)
            except IllegalMove:
                pass
            ledger.refresh()
        bock_everywhere(ledger)
