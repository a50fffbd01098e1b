"""Card nights written at a version (what `doko serve`'s forms carry), through the same
`prepare`/`commit`/`undo`/`correct` as `doko record`: a write made from an old version is
refused with `ConcurrencyError` and writes nothing; the bock causes name the deals whose bock rounds are not over."""

from __future__ import annotations

from pathlib import Path

import pytest

from doko_ledger.doppelkopf.book import card_nights
from doko_ledger.doppelkopf.game.record import SummaryRecord
from doko_ledger.doppelkopf.nights.book import CardNights, DealChanged, PreparedDeal
from doko_ledger.doppelkopf.nights.decide import StartNight
from doko_ledger.doppelkopf.rules.ruleset import rules_from_mapping
from doko_ledger.doppelkopf.views import bock_causes_view
from doko_ledger.games import DOPPELKOPF
from doko_ledger.ledger import Ledger
from doko_ledger.store.base import ConcurrencyError

AT = "2026-12-01T20:00:00+00:00"


@pytest.fixture
def ledger(tmp_path: Path) -> Ledger:
    opened = Ledger.open(tmp_path / "ledger.sqlite", create=True)
    rules = rules_from_mapping({"preset": "standard", "bock_triggers": ["tie", "lost_solo"]})
    opened.book_of(DOPPELKOPF).nights.start(StartNight("n", ("Anna", "Ben", "Clara", "Dirk"), 0, rules), by="t", at=AT)
    return opened


def deal(re: tuple[str, ...], points: int, game: str = "normal") -> SummaryRecord:
    return SummaryRecord(game, re, points)


def record(nights: CardNights, version: int, summary: SummaryRecord, by: str = "t") -> PreparedDeal:
    """A deal recorded as a form made at `version` records it."""
    prepared = nights.prepare("n", summary, version=version)
    nights.commit(prepared, by=by, at=AT)
    return prepared


def test_record_at_the_current_version_and_refused_at_an_old_one(ledger: Ledger) -> None:
    nights = card_nights(ledger)
    assert nights.version("n") == 1
    recorded = record(nights, 1, deal(("Anna", "Ben"), 151), "Ben")
    assert recorded.game_id == "n-01" and nights.version("n") == 2
    with pytest.raises(ConcurrencyError, match="someone else recorded first"):
        record(nights, 1, deal(("Anna", "Ben"), 140), "Dirk")
    assert [r.game_id for r in nights.standings("n").rows] == ["n-01"]
    assert ledger.game_ids() == ["n-01"]
    (change,) = nights.changes_since("n", 1)
    assert change.event.game_id == "n-01" and change.envelope.recorded_by == "Ben"


def test_undo_and_correct_at_a_version(ledger: Ledger) -> None:
    nights = card_nights(ledger)
    record(nights, 1, deal(("Anna", "Ben"), 151), "t")
    with pytest.raises(ConcurrencyError):
        nights.undo("n", by="t", at=AT, version=1)
    preview = nights.prepare_correction("n", "n-01", deal(("Anna", "Ben"), 100)).after
    assert preview is not None and preview.by_player["Anna"] == -2
    assert nights.version("n") == 2  # a preview writes nothing
    new = nights.correct("n", "n-01", deal(("Anna", "Ben"), 100), by="t", at=AT, version=2)
    assert new.game.game_id == "n-01-c1"
    with pytest.raises(ConcurrencyError):
        nights.correct("n", "n-01-c1", deal(("Anna", "Ben"), 90), by="t", at=AT, version=2)
    assert nights.undo("n", by="t", at=AT, version=3).game_id == "n-01-c1"
    assert nights.standings("n").rows == ()


def test_a_correction_of_a_deal_corrected_or_taken_back_since_is_refused_by_its_number(ledger: Ledger) -> None:
    """Whatever version the form carries: the old one, or the night's new one (a form shown
    again after the first refusal); a preview too. Nothing is written."""
    nights = card_nights(ledger)
    record(nights, 1, deal(("Anna", "Ben"), 151), "Ben")
    record(nights, 2, deal(("Clara", "Dirk"), 151), "Ben")
    nights.correct("n", "n-01", deal(("Anna", "Ben"), 100), by="Clara", at=AT, version=3)
    nights.undo("n", by="Dirk", at=AT, version=4)
    written = ledger.store.last_position()
    corrected = r"deal 1 was corrected meanwhile \(by Clara; it is now n-01-c1\): nothing was written"
    for version in (2, 3, 5):
        with pytest.raises(DealChanged, match=corrected):
            nights.correct("n", "n-01", deal(("Anna", "Ben"), 90), by="Ben", at=AT, version=version)
        with pytest.raises(DealChanged, match=r"deal 2 was taken back meanwhile \(by Dirk\): nothing was written"):
            nights.correct("n", "n-02", deal(("Clara", "Dirk"), 90), by="Ben", at=AT, version=version)
    with pytest.raises(DealChanged, match=corrected):
        nights.prepare_correction("n", "n-01", deal(("Anna", "Ben"), 90), version=5)  # a form's preview
    assert ledger.store.last_position() == written
    nights.correct("n", "n-01-c1", deal(("Anna", "Ben"), 120), by="Anna", at=AT, version=5)  # corrected again
    written = ledger.store.last_position()
    with pytest.raises(DealChanged, match=r"deal 1 was corrected meanwhile \(by Clara; it is now n-01-c2\)"):
        nights.correct("n", "n-01", deal(("Anna", "Ben"), 90), by="Ben", at=AT, version=6)
    with pytest.raises(DealChanged, match=r"deal 1 was corrected meanwhile \(by Anna; it is now n-01-c2\)"):
        nights.correct("n", "n-01-c1", deal(("Anna", "Ben"), 90), by="Ben", at=AT, version=5)
    assert issubclass(DealChanged, ConcurrencyError) and DealChanged.exit_code == 3
    assert ledger.store.last_position() == written
    assert [r.game_id for r in nights.standings("n").rows] == ["n-01-c2"]


def test_bock_causes_name_the_deals_whose_rounds_are_not_over(ledger: Ledger) -> None:
    nights = card_nights(ledger)
    record(nights, 1, deal(("Anna", "Ben"), 120), "t")  # a tie: one round of 4
    record(nights, 2, deal(("Clara",), 100, "club_solo"), "t")  # lost, under bock
    table = nights.standings("n")
    causes = bock_causes_view(table)
    assert causes == [
        {
            "deal": 1,
            "triggers": ["tie"],
            "deals_left": 3,
            "rounds": 1,
            "in_force": True,
            "declared_by": None,
            "reason": "",
        },
        {
            "deal": 2,
            "triggers": ["lost_solo"],
            "deals_left": 4,
            "rounds": 1,
            "in_force": False,
            "declared_by": None,
            "reason": "",
        },
    ]
    assert sum(c["deals_left"] for c in causes) == table.bock_deals_left
