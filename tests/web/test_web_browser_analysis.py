"""A game's analysis on a phone (390x844 in headless Chromium): the game page and the replay show
at once, the marks appear once the server has computed the analysis in the background, and a
mark tapped shows the better card, with all cards known. The replay's screenshot goes to docs/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import test_web_browser
from browser import Browser
from test_web_browser import ARTIFACTS, tap, wait_for
from test_web_browser_phone import DOCS, SMALLEST, import_card_game

from doko_ledger.doppelkopf.analysis.view import WITH_ALL_CARDS
from doko_ledger.doppelkopf.analysis_marks import marked_view
from doko_ledger.games import DOPPELKOPF
from doko_ledger.i18n import using
from doko_ledger.ledger import Ledger
from doko_ledger.web import analyses

served, phone = test_web_browser.served, test_web_browser.phone  # the fixtures: a served ledger, a phone
FROM = 9
"""Where the pages' analyses start here: a few tricks, so quick."""
DEADLINE = 120.0
"""How long the page may wait for the background analysis before the test fails (no measure of speed)."""


def _marks(db: Path, game: str) -> dict[str, Any]:
    with Ledger.open(db) as ledger:
        book = ledger.book_of(DOPPELKOPF)
        kept = book.kept_analysis(game, FROM)
        assert kept is not None, "the page showed marks the ledger does not keep"
        return marked_view(kept, book.state(game).players)


def test_the_marks_appear_and_a_tap_shows_the_better_card(
    served: tuple[str, Path], phone: Browser, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(analyses, "FROM_TRICK", FROM)
    base, db = served
    b = phone
    game = import_card_game(db)
    b.visit(f"{base}/games/{game}")
    wait_for(b, "#analysis-status")  # the page is there before its analysis
    wait_for(b, "#analysis[data-ready]", DEADLINE)
    view = _marks(db, game)
    assert view["marks"], "the sample's analysis marks no card: choose another starting trick"
    assert b.count("#analysis-marks details.costly") == len(view["marks"])
    first = view["marks"][0]
    assert b.text("#analysis-marks details.costly .better") == ""  # closed until tapped
    tap(b, "#analysis-marks details.costly summary")
    assert b.text("#analysis-marks details.costly[open] .line") == first["line"]
    assert b.text("#analysis-marks details.costly[open] .better") == f"better: {first['better']}, {WITH_ALL_CARDS}"
    assert b.text("#analysis-note") == view["note"]
    b.screenshot(ARTIFACTS / "web-game-analysis.png")

    b.visit(f"{base}/games/{game}/replay#step-{first['step']}")
    wait_for(b, ".mark-glyph", DEADLINE)  # kept now: the first answer has the marks
    assert b.script("return document.querySelector('#mark-detail').hidden") is True
    glyph = b.script("return document.querySelector('.mark-glyph').getBoundingClientRect().toJSON()")
    assert glyph["width"] >= SMALLEST and glyph["height"] >= SMALLEST
    tap(b, ".mark-glyph")
    detail = " ".join(b.text("#mark-detail").split())
    assert first["line"] in detail
    assert f"better: {first['better']}, {WITH_ALL_CARDS}" in detail
    assert b.count("#analysis-marks li") == len(view["marks"])
    b.script("window.scrollTo(0, 0)")
    b.screenshot(DOCS / "replay-analysis.png")
    tap(b, "#next")  # a step on: the detail closes unless its card is still on the table
    assert b.console() == []


def test_a_reader_who_chose_german_reads_the_analysis_in_german(
    served: tuple[str, Path], phone: Browser, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The switch, not the browser, chose German here (Chromium asks for English): the page and
    the replay ask for their analysis in the page's language."""
    monkeypatch.setattr(analyses, "FROM_TRICK", FROM)
    base, db = served
    b = phone
    game = import_card_game(db)
    b.visit(f"{base}/language/de")
    b.visit(f"{base}/games/{game}")
    wait_for(b, "#analysis[data-ready]", DEADLINE)
    with using("de"):
        view = _marks(db, game)
    assert view["note"].startswith("mit allen Karten offen")
    assert b.text("#analysis-note") == view["note"]
    tap(b, "#analysis-marks details.costly summary")
    assert b.text("#analysis-marks details.costly[open] .line") == view["marks"][0]["line"]
    b.visit(f"{base}/games/{game}/replay#step-{view['marks'][0]['step']}")
    wait_for(b, ".mark-glyph", DEADLINE)
    tap(b, ".mark-glyph")
    assert view["marks"][0]["line"] in " ".join(b.text("#mark-detail").split())
    assert b.console() == []
