"""A bock mark recorded with the deal (`CardNights.prepare(..., bock=BockMark(...))`): the deal
and its `BockDeclared` are decided on one night and appended in one write, so a night that moved
on refuses both, a request id sent again writes neither twice, and the bock rounds it adds are
what `declare_bock(with_deal=N)` after the deal would add."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from doko_ledger.doppelkopf.book import card_nights
from doko_ledger.doppelkopf.game.commands import IllegalMove
from doko_ledger.doppelkopf.game.record import SummaryRecord
from doko_ledger.doppelkopf.nights.book import BockMark, CardNights
from doko_ledger.doppelkopf.nights.decide import StartNight
from doko_ledger.doppelkopf.nights.events import BockDeclared, DealAdded
from doko_ledger.doppelkopf.rules.ruleset import rules_from_mapping
from doko_ledger.doppelkopf.views import bock_causes_view
from doko_ledger.games import DOPPELKOPF
from doko_ledger.ledger import Ledger
from doko_ledger.store.base import ConcurrencyError

AT = "2026-12-01T20:00:00+00:00"
FACTS = SummaryRecord("normal", ("Anna", "Ben"), 151)


def nights_at(path: Path) -> CardNights:
    ledger = Ledger.open(path, create=True)
    start = StartNight("n", ("Anna", "Ben", "Clara", "Dirk"), 0, rules_from_mapping({"bock_overlap": "stack"}))
    ledger.book_of(DOPPELKOPF).nights.start(start, by="t", at=AT)
    return card_nights(ledger)


def test_the_deal_and_its_mark_are_one_append(tmp_path: Path) -> None:
    nights = nights_at(tmp_path / "a.sqlite")
    prepared = nights.prepare("n", FACTS, bock=BockMark(2, "ben"))
    assert prepared.bock_in_english == "bock declared by Ben (marked with the deal): 2 rounds with deal 1"
    assert [type(e) for e in prepared.night.new_session_events] == [DealAdded, BockDeclared]
    calls: list[int] = []
    append = nights.store.append_streams
    nights.store.append_streams = lambda batches, **kw: (calls.append(len(batches)), append(batches, **kw))[1]  # type: ignore[method-assign]
    nights.commit(prepared, by="Ben", at=AT)
    assert calls == [2]  # one transaction: the night's stream and the deal's game
    assert nights.standings("n").next.bock is not None and nights.standings("n").next.bock.multiplier == 4


def test_a_mark_adds_what_the_bock_button_with_the_deal_adds(tmp_path: Path) -> None:
    marked, pressed = nights_at(tmp_path / "a.sqlite"), nights_at(tmp_path / "b.sqlite")
    marked.commit(marked.prepare("n", FACTS, bock=BockMark(3, "Clara", "Hochzeit")), by="t", at=AT)
    pressed.commit(pressed.prepare("n", FACTS), by="t", at=AT)
    pressed.declare_bock("n", declared_by="Clara", reason="Hochzeit", rounds=3, with_deal=1, by="t", at=AT)
    assert bock_causes_view(marked.standings("n")) == bock_causes_view(pressed.standings("n"))
    assert marked.standings("n").next == pressed.standings("n").next


def test_a_night_that_moved_on_refuses_the_deal_and_its_mark(tmp_path: Path) -> None:
    nights = nights_at(tmp_path / "a.sqlite")
    prepared = nights.prepare("n", FACTS, bock=BockMark(1, "Anna"))
    nights.join("n", "Erik", by="t", at=AT)
    with pytest.raises(ConcurrencyError, match=r"deal 1 was not recorded: .*; Erik joined"):
        nights.commit(prepared, by="t", at=AT)
    assert nights.state("n").deals == () and not nights.standings("n").bock_causes


def test_a_request_id_sent_again_writes_neither_twice(tmp_path: Path) -> None:
    nights = nights_at(tmp_path / "a.sqlite")
    nights.commit(nights.prepare("n", FACTS, request_id="r1", bock=BockMark(2, "Ben")), by="t", at=AT)
    again = nights.prepare("n", FACTS, request_id="r1", bock=BockMark(2, "Ben"))
    assert (
        again.repeated and again.bock_in_english == "bock declared by Ben (marked with the deal): 2 rounds with deal 1"
    )
    nights.commit(again, by="t", at=AT)
    events = [r.event for r in nights.changes_since("n", 0)]
    assert [type(e) for e in events].count(DealAdded) == 1 and [type(e) for e in events].count(BockDeclared) == 1


@pytest.mark.parametrize(
    ("mark", "words"),
    [
        (BockMark(0, "Anna"), "bock is declared for 1 to 3 rounds at once, not 0"),
        (BockMark(4, "Anna"), "bock is declared for 1 to 3 rounds at once, not 4"),
        (BockMark(1, "Zoe"), "who declares bock: 'Zoe' is not at the table (Anna, Ben, Clara, Dirk)"),
    ],
)
def test_a_refused_mark_refuses_the_deal(tmp_path: Path, mark: BockMark, words: str) -> None:
    nights = nights_at(tmp_path / "a.sqlite")
    with pytest.raises(IllegalMove, match=re.escape(words)):
        nights.prepare("n", FACTS, bock=mark)
    assert nights.state("n").deals == ()
