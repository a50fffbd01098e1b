"""The analyses kept beside the log (`doppelkopf.analyses`, `DoppelkopfBook.analysis`), on both
databases: computed once and then read, keyed by the solver's version and the game as it stands,
dropped by `doko rebuild` and computed again; never part of the log or of what `verify` compares."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from backends import Client

from doko_ledger.doppelkopf import analyses
from doko_ledger.doppelkopf.analysis import analyze, verdicts
from doko_ledger.doppelkopf.analysis.analyze import NotAnalyzable
from doko_ledger.doppelkopf.analysis.verdicts import analysis_to_json
from doko_ledger.doppelkopf.book import DoppelkopfBook
from doko_ledger.formats import any_file
from doko_ledger.games import DOPPELKOPF
from doko_ledger.ledger import Ledger

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"
NORMAL = "2026-11-28-kitchen-01-normal"
BY, AT = "test", "2026-12-02T12:00:00+00:00"
FROM = 10
"""The analyses here start at trick 10: small, so quick."""


@pytest.fixture
def ledger(ledger_target: str | Path) -> Iterator[Ledger]:
    with Ledger.open(ledger_target, create=True) as opened:
        files = [SAMPLES / "01-normal.yaml", SAMPLES / "31-summary-specials.yaml"]
        opened.import_games([(str(f), any_file.read_file(f)) for f in files], recorded_by=BY, recorded_at=AT)
        opened.refresh()
        yield opened


@pytest.fixture
def solves(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The games `analyze_game` was asked to analyse, in order."""
    asked: list[str] = []
    solve: Callable[..., Any] = analyze.analyze_game

    def counted(state: Any, **options: Any) -> Any:
        asked.append(options["game_id"])
        return solve(state, **options)

    monkeypatch.setattr(analyze, "analyze_game", counted)
    return asked


def _book(ledger: Ledger) -> DoppelkopfBook:
    return ledger.book_of(DOPPELKOPF)


def test_an_analysis_is_computed_once_and_then_read_even_by_another_process(
    ledger: Ledger, ledger_target: str | Path, solves: list[str]
) -> None:
    book = _book(ledger)
    assert book.kept_analysis(NORMAL, FROM) is None
    first = book.analysis(NORMAL, FROM)
    assert first.from_trick == FROM and first.verdicts
    assert {v.trick for v in first.verdicts} == {FROM, FROM + 1, FROM + 2}
    assert book.analysis(NORMAL, FROM) == first
    with Ledger.open(ledger_target) as other:
        assert _book(other).kept_analysis(NORMAL, FROM) == first
        assert _book(other).analysis(NORMAL, FROM) == first
    assert solves == [NORMAL]
    rows = Client(ledger_target).rows("SELECT game_id, solver_version, from_trick, worlds, game_version FROM analyses")
    assert rows == [(NORMAL, verdicts.SOLVER_VERSION, FROM, 0, ledger.store.stream_version(f"game/{NORMAL}"))]


def test_what_is_kept_is_the_analysis_exactly(ledger: Ledger) -> None:
    analysed = _book(ledger).analysis(NORMAL, FROM)
    kept = analyses.kept(ledger.store.db, _key(ledger, FROM))
    assert kept == analysis_to_json(analysed)


def test_each_starting_trick_and_number_of_worlds_is_kept_apart(ledger: Ledger, solves: list[str]) -> None:
    book = _book(ledger)
    late, later = book.analysis(NORMAL, FROM), book.analysis(NORMAL, FROM + 1)
    assert min(v.trick for v in later.verdicts) == FROM + 1 and late != later
    assert book.analysis(NORMAL, FROM) == late and book.analysis(NORMAL, FROM + 1) == later
    assert solves == [NORMAL, NORMAL]
    assert analyses.count(ledger.store.db) == 2


def test_a_new_solver_version_computes_it_again(
    ledger: Ledger, solves: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    book = _book(ledger)
    book.analysis(NORMAL, FROM)
    monkeypatch.setattr(verdicts, "SOLVER_VERSION", verdicts.SOLVER_VERSION + "-next")
    assert book.kept_analysis(NORMAL, FROM) is None
    book.analysis(NORMAL, FROM)
    book.analysis(NORMAL, FROM)
    assert solves == [NORMAL, NORMAL]
    assert analyses.count(ledger.store.db) == 2  # the older version's stays until a rebuild


def test_a_card_taken_back_makes_the_kept_analysis_stale(ledger: Ledger, solves: list[str]) -> None:
    book = _book(ledger)
    whole = book.analysis(NORMAL, FROM)
    book.undo(NORMAL, by=BY, at=AT)
    assert book.kept_analysis(NORMAL, FROM) is None
    shorter = book.analysis(NORMAL, FROM)
    assert len(shorter.verdicts) < len(whole.verdicts)
    assert solves == [NORMAL, NORMAL]
    assert analyses.count(ledger.store.db) == 1  # kept in the place of the stale one


def test_a_rebuild_drops_the_analyses_and_they_are_computed_again(
    ledger: Ledger, ledger_target: str | Path, solves: list[str]
) -> None:
    book = _book(ledger)
    first = book.analysis(NORMAL, FROM)
    head = ledger.head()
    assert ledger.verify().read_models == "match"  # the kept analyses are no read model of the log
    ledger.rebuild()
    assert not Client(ledger_target).has_table(analyses.TABLE)
    assert book.kept_analysis(NORMAL, FROM) is None
    assert book.analysis(NORMAL, FROM) == first
    assert solves == [NORMAL, NORMAL]
    assert ledger.head() == head  # nothing of it went into the log
    report = ledger.verify()
    assert report.ok and report.read_models == "match"


def test_a_game_recorded_by_its_facts_is_not_analysed_and_nothing_is_kept(ledger: Ledger) -> None:
    summary = next(g for g in ledger.game_ids() if g != NORMAL)
    with pytest.raises(NotAnalyzable):
        _book(ledger).analysis(summary)
    assert analyses.count(ledger.store.db) == 0


def _key(ledger: Ledger, from_trick: int) -> analyses.AnalysisKey:
    version = ledger.store.stream_version(f"game/{NORMAL}")
    return analyses.AnalysisKey(NORMAL, verdicts.SOLVER_VERSION, from_trick, 0, version)


def test_a_ledger_that_cannot_be_written_is_analysed_and_nothing_is_kept_in_it(
    ledger: Ledger, ledger_target: str | Path
) -> None:
    ledger.close()
    plain = Client(ledger_target)
    plain.execute("UPDATE ledger SET value = 'doko-ledger/3' WHERE key = 'format'")  # newer: read, never written
    with Ledger.open(ledger_target) as reader:
        assert reader.store.read_only is not None
        book = _book(reader)
        analysed = book.analysis(NORMAL, FROM)
        assert book.analysis(NORMAL, FROM) == analysed  # kept where it changes nothing
    assert not plain.has_table(analyses.TABLE)
