"""A server restarted in the middle of a night, in real headless Chromium at phone size: the
phone that joined before records the next deal after the restart without joining again, because
the join code and the secret its cookies were signed with are kept in the ledger."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from browser import Browser, _free_port
from web_helpers import app_for, serving, start_night

from doko_ledger.i18n import render
from doko_ledger.ledger import Ledger
from doko_ledger.web.common import JOIN_LAPSED
from doko_ledger.web.join_code import table_join

PHONE = (390, 844)
pytestmark = pytest.mark.browser  # it starts its own, across two servers


def _server_app(db: Path) -> object:
    """The app as `doko serve` makes it: the join code and the secret read from the ledger."""
    with Ledger.open(db) as ledger:
        kept = table_join(ledger.store)
    return app_for(db, join_code=kept.code, secret=kept.secret, join_url=f"/join?code={kept.code}")


def _wait(b: Browser, css: str, timeout: float = 15.0) -> str:
    deadline = time.monotonic() + timeout
    while True:
        if b.count(css):
            return b.text(css)
        assert time.monotonic() < deadline, f"{css} never appeared on {b.url()}"
        time.sleep(0.1)


def _wait_for_url(b: Browser, url: str) -> None:
    deadline = time.monotonic() + 15
    while b.url() != url:
        assert time.monotonic() < deadline, f"still at {b.url()}, not {url}"
        time.sleep(0.05)


def _tap(b: Browser, css: str) -> None:
    b.script("document.querySelector(arguments[0]).scrollIntoView({block: 'center'})", css)
    b.click(css)


def _record(b: Browser, base: str, night: str, re: tuple[str, str], points: str, game_id: str) -> None:
    b.visit(f"{base}/nights/{night}/record")
    _wait(b, "#deal-form")
    for name in re:
        _tap(b, f'input[name=re][value="{name}"] + span')
    _tap(b, f'button[data-points="{points}"]')
    _tap(b, "#preview-button")  # the score first, then Record
    _wait(b, "#record")
    _tap(b, "#record")
    _wait_for_url(b, f"{base}/nights/{night}?new={game_id}")


def test_a_phone_carries_on_after_the_server_restarts_mid_night(tmp_path: Path) -> None:
    db = tmp_path / "ledger.sqlite"
    start_night(db, "restart", ("Anna", "Ben", "Clara", "Dirk"))
    port = _free_port()
    phone = Browser.start(*PHONE, phone=True)
    try:
        with serving(_server_app(db), port) as base:
            with Ledger.open(db) as ledger:
                code = table_join(ledger.store).code
            phone.visit(f"{base}/join?code={code}")
            phone.type("#typed", "Ben")
            phone.press("Enter")
            _wait_for_url(phone, f"{base}/")
            _record(phone, base, "restart", ("Anna", "Ben"), "151", "restart-01")
        # the server is gone; the phone's page stays as it was, then the server is back
        with serving(_server_app(db), port) as base:
            phone.visit(f"{base}/nights/restart")
            assert "Ben" in _wait(phone, ".who")
            assert render(JOIN_LAPSED, "en") not in phone.text("body")  # no "join again": the code was kept
            _record(phone, base, "restart", ("Clara", "Dirk"), "121", "restart-02")
    finally:
        phone.close()
    with Ledger.open(db) as ledger:
        deals = [ledger.events(g) for g in ("restart-01", "restart-02")]
    assert [{r.envelope.recorded_by for r in events} for events in deals] == [{"Ben"}, {"Ben"}]
