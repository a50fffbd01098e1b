"""A game's analysis on the web: `GET /api/games/{id}/analysis` answers 202 while the analysis is
computed in the background and 200 with the analysis and its marks once it is ready (kept in
the ledger, on both databases); the game page asks for it; the worker computes one game at a
time and lets only so many wait."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from backends import ledger_path_on_both  # noqa: F401  (every test on both databases)
from web_helpers import TestClient, app_for, client

from doko_ledger.doppelkopf import analyses
from doko_ledger.doppelkopf.analysis.verdicts import DEFAULT_FROM_TRICK
from doko_ledger.doppelkopf.analysis.view import DOUBLE_DUMMY
from doko_ledger.doppelkopf.analysis_marks import marked_view
from doko_ledger.formats import any_file
from doko_ledger.games import DOPPELKOPF
from doko_ledger.ledger import Ledger
from doko_ledger.web import analyses as background
from doko_ledger.web.analyses import Analyses, Asked, Pending

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"
NORMAL = "2026-11-28-kitchen-01-normal"
SUMMARY = "2026-12-05-verein-09-summary-specials"
DOUDIZHU = "ddz-2026-11-29-01"
FROM = 10
"""The analyses here start at trick 10: small, so quick."""
DEADLINE = 120.0
"""How long a test waits for the background worker before it fails (never a measure of speed)."""


@pytest.fixture
def db(ledger_path: str | Path) -> str | Path:
    files = [
        SAMPLES / "01-normal.yaml",
        SAMPLES / "31-summary-specials.yaml",
        SAMPLES / "doudizhu/01-landlord-rocket.yaml",
    ]
    with Ledger.open(ledger_path, create=True) as ledger:
        ledger.import_games(
            [(str(f), any_file.read_file(f)) for f in files], recorded_by="test", recorded_at="2026-12-02"
        )
    return ledger_path


@pytest.fixture
def phone(db: str | Path) -> Iterator[TestClient]:
    background.ANALYSES.forget()
    yield client(app_for(db))
    background.ANALYSES.forget()


def _until_ready(phone: TestClient, url: str) -> Any:
    """Ask as the page does until the answer is no longer 202; the first answer must be 202."""
    answers = [phone.get(url)]
    assert answers[0].status_code == 202, answers[0].text
    assert answers[0].headers["retry-after"] == "1"
    assert answers[0].json()["status"] in ("computing", "waiting")
    deadline = time.monotonic() + DEADLINE
    while answers[-1].status_code == 202 and time.monotonic() < deadline:
        time.sleep(0.05)
        answers.append(phone.get(url))
    return answers[-1]


def test_the_analysis_is_202_while_computed_then_200_with_its_marks_and_kept(phone: TestClient, db: str | Path) -> None:
    url = f"/api/games/{NORMAL}/analysis?from_trick={FROM}"
    done = _until_ready(phone, url)
    assert done.status_code == 200, done.text
    with Ledger.open(db) as ledger:
        book = ledger.book_of(DOPPELKOPF)
        kept = book.kept_analysis(NORMAL, FROM)
        assert kept is not None and analyses.count(ledger.store.db) == 1
        expected = marked_view(kept, book.state(NORMAL).players)
    assert done.json() == expected
    assert done.json()["note"] == DOUBLE_DUMMY
    again = phone.get(url)  # read from the ledger, at once
    assert again.status_code == 200 and again.json() == expected


def test_without_from_trick_the_api_analyses_from_the_librarys_default(phone: TestClient) -> None:
    done = _until_ready(phone, f"/api/games/{NORMAL}/analysis")
    assert done.status_code == 200, done.text
    assert done.json()["from_trick"] == DEFAULT_FROM_TRICK == background.FROM_TRICK
    assert done.json()["cards"] == 4 * (12 - DEFAULT_FROM_TRICK + 1)


def test_a_game_without_cards_is_refused_once_the_worker_tried(phone: TestClient) -> None:
    refused = _until_ready(phone, f"/api/games/{SUMMARY}/analysis")
    assert refused.status_code == 422
    assert refused.json()["error"]
    assert phone.get(f"/api/games/{SUMMARY}/analysis").status_code == 422  # remembered, not tried again


def test_other_games_and_unknown_ones_are_refused_at_once(phone: TestClient) -> None:
    other = phone.get(f"/api/games/{DOUDIZHU}/analysis")
    assert other.status_code == 422 and "for Doppelkopf games" in other.json()["error"]
    assert phone.get("/api/games/nope/analysis").status_code == 404
    assert phone.get(f"/api/games/{NORMAL}/analysis?from_trick=0").status_code == 422


def test_the_game_page_asks_for_the_analysis_of_a_game_with_cards(phone: TestClient) -> None:
    page = phone.get(f"/games/{NORMAL}")
    assert f'data-analysis="/api/games/{NORMAL}/analysis?from_trick={background.FROM_TRICK}"' in page.text
    assert 'id="analysis-status"' in page.text
    assert "data-analysis" not in phone.get(f"/games/{SUMMARY}").text


# -- the worker -----------------------------------------------------------------------------


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[list[str], threading.Event]]:
    """The worker's analyses, each held until the event is set: the games asked, in order."""
    asked: list[str] = []
    go = threading.Event()

    def analysed(what: Asked) -> Any:
        asked.append(what.game_id)
        go.wait(DEADLINE)
        return what.game_id

    monkeypatch.setattr(background, "_analysed", analysed)
    yield asked, go
    go.set()


def _asked(game_id: str) -> Asked:
    return Asked("ledger", game_id, 1, 1)


def _waited(condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + DEADLINE
    while not condition():
        assert time.monotonic() < deadline, "the worker did not get there"
        time.sleep(0.01)


def test_one_game_at_a_time_each_once_and_only_so_many_waiting(held: tuple[list[str], threading.Event]) -> None:
    asked, go = held
    worker = Analyses(waiting=1)
    assert worker.ask(_asked("a")) == Pending(computing=False)
    _waited(lambda: asked == ["a"])
    assert worker.ask(_asked("a")) == Pending(computing=True)  # asked again: not asked twice
    assert worker.ask(_asked("b")) == Pending(computing=False)  # waits
    assert worker.ask(_asked("c")) == Pending(computing=False)  # no room: not put in line
    assert worker.ask(_asked("b")) == Pending(computing=False)
    go.set()
    _waited(lambda: worker.ask(_asked("b")) == "b")
    assert worker.ask(_asked("a")) == "a"
    assert asked == ["a", "b"]
    _waited(lambda: worker.ask(_asked("c")) == "c")  # put in line once there was room
    assert asked == ["a", "b", "c"]


def test_the_served_replay_may_ask_its_own_server_for_the_marks_and_nothing_else(phone: TestClient) -> None:
    from doko_ledger.web.games import analysis_url

    page = phone.get(f"/games/{NORMAL}/replay")
    policy = page.headers["content-security-policy"]
    assert "connect-src 'self'" in policy and "default-src 'none'" in policy
    assert f'"analysis_url":"{analysis_url(NORMAL)}"' in page.text
    tournament = phone.get(f"/games/{NORMAL}/replay?perspective=tournament")
    assert "connect-src" not in tournament.headers["content-security-policy"]
    assert '"analysis_url":' not in tournament.text
