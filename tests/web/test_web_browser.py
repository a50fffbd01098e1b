"""`doko serve` in real headless Chromium at phone size (390x844): a whole card night recorded
by taps, and two phones recording at once. Screenshots go to tests/artifacts/."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import Browser, WebDriverError, _free_port
from typer.testing import CliRunner
from web_helpers import CODE, app_for, serving, start_night

from doko_ledger.cli.app import app as cli_app
from doko_ledger.games import DOPPELKOPF
from doko_ledger.ledger import Ledger

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
PHONE = (390, 844)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A real server (uvicorn, loopback) on a ledger holding the sample card nights."""
    db = tmp_path / "ledger.sqlite"
    nights = sorted((ROOT / "sample_games" / "sessions").glob("*.yaml"))
    imported = CliRunner().invoke(cli_app, ["--db", str(db), "import", *map(str, nights)])
    assert imported.exit_code == 0, imported.output
    port = _free_port()
    with serving(app_for(db, join_url=f"http://127.0.0.1:{port}/join?code={CODE}"), port) as url:
        yield url, db


@pytest.fixture
def phone() -> Iterator[Browser]:
    browser = Browser.start(*PHONE, phone=True)
    try:
        yield browser
    finally:
        browser.close()


def wait_for(b: Browser, css: str, timeout: float = 15.0) -> str:
    deadline = time.monotonic() + timeout
    while True:
        try:
            return b.find(css)
        except WebDriverError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def tap(b: Browser, css: str) -> None:
    """Scrolls the element to the middle of the screen, as a thumb would, and taps it."""
    b.script("document.querySelector(arguments[0]).scrollIntoView({block: 'center'})", css)
    b.click(css)


def join(b: Browser, base: str, name: str) -> None:
    """Joins the table by tapping `name` among those offered, then Join."""
    b.visit(f"{base}/join?code={CODE}")
    tap(b, f'input[name="name"][value="{name}"] + span')
    tap(b, "#join")
    wait_for(b, ".who")
    assert name in b.text(".who")


def wait_for_url(b: Browser, url: str, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while b.url() != url:
        assert time.monotonic() < deadline, f"still at {b.url()}, not {url}"
        time.sleep(0.05)


def values(b: Browser, css: str) -> list[str]:
    found: list[str] = b.script(f"return [...document.querySelectorAll('{css}')].map(e => e.value)")
    return found


def record(
    b: Browser,
    base: str,
    *,
    re: int | str = 2,
    points: int | None = None,
    pad: str | None = None,
    game: str | None = None,
    call: str | None = None,
    misdeal: bool = False,
    shot: str | None = None,
) -> None:
    """Records the next deal by taps: the Re players (the first `re` playing, or one by name),
    Re's points by a quick button or the number pad, then Show the score, then Record."""
    tap(b, "#record-link")
    wait_for(b, "#deal-form")
    playing = values(b, "input[name=re]")
    chosen = playing[:re] if isinstance(re, int) else [re]
    if misdeal:
        tap(b, "label.misdeal span")
    else:
        if game is not None:
            tap(b, f'select[name=game] option[value="{game}"]')
        for name in chosen:
            tap(b, f'input[name=re][value="{name}"] + span')
        if points is not None:
            tap(b, f'button[data-points="{points}"]')
        for key in pad or "":
            tap(b, f'button[data-key="{key}"]')
        if call is not None:
            tap(b, "#deal-form details summary")  # the calls (the first details of the form)
            tap(b, f'select[name=call_0] option[value="{call}"]')
    tap(b, "#preview-button")
    wait_for(b, "#record")
    if shot:
        b.screenshot(ARTIFACTS / f"{shot}.png")
    tap(b, "#record")
    wait_for(b, "#standings")


def page_totals(b: Browser) -> dict[str, int]:
    cells: list[list[Any]] = b.script(
        "return [...document.querySelectorAll('#totals td.total')].map(e => [e.dataset.player, +e.dataset.total])"
    )
    return {p: t for p, t in cells}


def cli_json(db: Path, *args: str) -> Any:
    result = CliRunner().invoke(cli_app, ["--db", str(db), *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_a_whole_night_recorded_by_taps(served: tuple[str, Path], phone: Browser) -> None:
    base, db = served
    b = phone
    b.visit(f"{base}/join?code={CODE}")
    b.screenshot(ARTIFACTS / "web-join.png")
    join(b, base, "Ben")
    # start: five players (names suggested), Clara deals first, the kitchen night's bock rules
    for i, name in enumerate(["Anna", "Ben", "Clara", "Dirk", "Emil"]):
        b.type(f'input[name="player_{i}"]', name)
    b.type('input[name="session_id"]', "2026-12-01-kitchen")
    tap(b, 'input[name="dealer"][value="2"]')
    tap(b, 'select[name="rules"] option[value="night:2026-11-28-kitchen"]')
    b.type('input[name="rate"]', "0.05")
    b.screenshot(ARTIFACTS / "web-start.png")
    tap(b, "#start button.primary")
    wait_for(b, "#record-link")
    assert "Clara deals" in b.text(".next-line")
    tap(b, ".join-qr summary")
    assert b.script("return document.querySelector('.qr svg').getBoundingClientRect().width") > 150
    b.screenshot(ARTIFACTS / "web-join-qr.png")
    tap(b, ".join-qr summary")

    record(b, base, re=2, points=151)  # 1
    record(b, base, re=2, pad="130", shot="web-record-preview")  # 2, on the number pad
    tap(b, "#record-link")
    wait_for(b, "#deal-form")
    b.screenshot(ARTIFACTS / "web-record-form.png")
    tap(b, "a.button[href$='/nights/2026-12-01-kitchen']")  # cancel
    wait_for(b, "#standings")
    playing = b.text(".next .muted").removeprefix("playing ").split(", ")
    record(b, base, re=playing[0], game="club_solo", pad="100")  # 3: a lost solo, a bock trigger
    assert "Bock ×2" in b.text(".bock")
    record(b, base, misdeal=True)  # 4: thrown in
    record(b, base, re=2, points=181, call="re")  # 5, under bock
    record(b, base, re=2, points=120)  # 6: a tie, bock again
    record(b, base, re=2, points=90)  # 7
    record(b, base, re=2, points=211)  # 8
    # undo deal 8, then record it again
    assert b.count("#standings tbody tr") == 8
    tap(b, "#undo")
    b.accept_alert()
    wait_for(b, "#standings")
    assert b.count("#standings tbody tr") == 7
    record(b, base, re=2, points=240)  # 8 again
    # correct deal 2: Re had 100, not 130
    tap(b, 'a.fix[href$="-02/correct"]')
    wait_for(b, "#deal-form")
    b.type("#re-points", "100")
    tap(b, "#preview-button")
    wait_for(b, "#record")
    b.screenshot(ARTIFACTS / "web-correct.png")
    assert "Old and new score" in b.text("#preview")
    tap(b, "#record")
    wait_for(b, "#standings")
    assert "corrected" in b.text("#standings")
    b.screenshot(ARTIFACTS / "web-night.png")
    b.script("document.getElementById('settle').scrollIntoView()")
    b.screenshot(ARTIFACTS / "web-settle.png")

    view = cli_json(db, "standings", "--session", "2026-12-01-kitchen")
    assert len(view["deals"]) == 8
    assert any(d["multiplier"] == 2 for d in view["deals"])
    assert any(d["thrown_in"] for d in view["deals"])
    assert any(d["game_type"] == "club_solo" for d in view["deals"])
    assert page_totals(b) == {row["player"]: row["total"] for row in view["table"]}
    cells = b.script(
        "return [...document.querySelectorAll('#standings tbody tr')].map(tr => [...tr.querySelectorAll('td.num')]"
        ".map(td => [td.querySelector('.pts').textContent, +td.querySelector('.run').textContent]))"
    )
    players = view["players"]
    expected = [
        [[f"{d['points'][p]:+d}" if p in d["playing"] else "·", d["totals"][p]] for p in players] for d in view["deals"]
    ]
    assert cells == expected  # every deal's points and running totals, as `doko standings --json` has them
    payments = cli_json(db, "settle", "--session", "2026-12-01-kitchen")["payments"]
    settle_text = b.text("#settle")
    for p in payments:
        assert f"{p['payer']} pays {p['payee']} €{float(p['amount']):.2f}" in settle_text  # money in English form
    assert b.console() == [] or all(e["level"] != "SEVERE" for e in b.console())

    # a game of the night: score and derivation; recorded by its facts, it has no card to replay
    tap(b, '#standings a[href$="-03"]')
    wait_for(b, "#score")
    b.screenshot(ARTIFACTS / "web-game.png")
    assert b.count("#replay-link") == 0
    assert [e for e in b.console() if e["level"] == "SEVERE"] == []


def test_two_phones_record_at_once(served: tuple[str, Path], phone: Browser) -> None:
    base, db = served
    other = Browser.start(*PHONE, phone=True)
    try:
        join(phone, base, "Ben")
        join(other, base, "Dirk")
        phone.type('input[name="player_0"]', "Anna")
        for i, name in enumerate(["Anna", "Ben", "Clara", "Dirk"]):
            phone.type(f'input[name="player_{i}"]', name)
        phone.type('input[name="session_id"]', "two-phones")
        tap(phone, "#start button.primary")
        wait_for(phone, "#record-link")
        other.visit(f"{base}/nights/two-phones")
        wait_for(other, "#standings")
        other.script("window.notReloaded = true")
        record(phone, base, re=2, points=151)
        deadline = time.monotonic() + 3.0  # the page polls every second
        while other.count("#deal-two-phones-01") == 0:
            assert time.monotonic() < deadline, "the other phone did not see the new deal"
            time.sleep(0.1)
        assert other.script("return window.notReloaded === true")  # shown without a reload
        assert "deal 1 was just recorded (by Ben)" in other.text("#live-notice")
        other.screenshot(ARTIFACTS / "web-live-update.png")

        # both open the form for deal 2; Ben records first; Dirk is told and keeps his form
        tap(phone, "#record-link")
        tap(other, "#record-link")
        wait_for(phone, "#deal-form")
        wait_for(other, "#deal-form")
        for b, points in ((phone, "151"), (other, "150")):
            for name in values(b, "input[name=re]")[:2]:
                tap(b, f'input[name=re][value="{name}"] + span')
            tap(b, f'button[data-points="{points}"]' if points == "151" else 'button[data-key="C"]')
            if points == "150":
                for key in points:
                    tap(b, f'button[data-key="{key}"]')
            tap(b, "#preview-button")
            wait_for(b, "#record")
        tap(phone, "#record")
        wait_for(phone, "#standings")
        deadline = time.monotonic() + 3.0  # Dirk's open form hears of it too, before he taps
        while "deal 2 was just recorded (by Ben)" not in other.script(
            "return document.getElementById('live-notice').textContent"
        ):
            assert time.monotonic() < deadline, "the open form was not told of the new deal"
            time.sleep(0.1)
        tap(other, "#record")  # Dirk's form was for deal 2: it shows what Ben recorded, and records nothing
        wait_for(other, "#stale")
        assert "Ben recorded deal 2 (two-phones-02)" in other.text("#stale")
        assert values(other, "#re-points") == [""]  # an empty form, for deal 3
        assert other.text("h1") == "Deal 3"
        other.screenshot(ARTIFACTS / "web-conflict.png")
        assert len(cli_json(db, "standings", "--session", "two-phones")["deals"]) == 2
        tap(other, "#use-my-facts")  # his facts fill the form for deal 3, not recorded
        deadline = time.monotonic() + 15.0  # the page that says what Ben recorded has a form too: wait for the next
        while other.count("#stale"):
            assert time.monotonic() < deadline, "the form with his facts did not come"
            time.sleep(0.1)
        wait_for(other, "#deal-form")
        assert values(other, "#re-points") == ["150"] and other.text("h1") == "Deal 3"
        assert len(cli_json(db, "standings", "--session", "two-phones")["deals"]) == 2
        tap(other, "#preview-button")
        wait_for(other, "#record")
        tap(other, "#record")
        wait_for(other, "#standings")
        deals = cli_json(db, "standings", "--session", "two-phones")["deals"]
        assert [d["number"] for d in deals] == [1, 2, 3]
        with Ledger.open(db) as ledger:
            third = ledger.book_of(DOPPELKOPF).record(deals[2]["game_id"])
        assert third.summary is not None and third.summary.re_points == 150
    finally:
        other.close()


def test_a_phone_joins_by_its_typed_name_and_a_repeated_post_records_once(
    served: tuple[str, Path], phone: Browser
) -> None:
    base, db = served
    b = phone
    start_night(db, "typed-names", ("Anna", "Ben", "Clara", "Dirk"))
    b.visit(f"{base}/join?code={CODE}")
    b.type("#typed", "clara")
    b.press("Enter")  # the keyboard's Go: what was typed, never the first name listed
    wait_for_url(b, f"{base}/")
    assert "Clara" in b.text(".who")
    # not Clara after all: change, keeping the join; a name not at the table is asked about
    b.visit(f"{base}/nights/typed-names")
    assert "credited to Clara" in b.text(".recording-as")
    tap(b, "a.change-who")
    wait_for(b, "#join-form")
    assert b.count('input[name="code"]') == 0
    b.type("#typed", "Zoe")
    b.press("Enter")
    wait_for(b, "#ask")
    assert "Zoe is not at this table" in b.text("#ask")
    b.screenshot(ARTIFACTS / "web-join-ask.png")
    tap(b, 'input[name="name"][value="Dirk"] + span')
    tap(b, "#join")
    wait_for_url(b, f"{base}/")
    assert "Dirk" in b.text(".who")

    # the record form posted twice (its answer lost): one deal, both answers name it
    b.visit(f"{base}/nights/typed-names/record")
    wait_for(b, "#deal-form")
    for name in values(b, "input[name=re]")[:2]:
        tap(b, f'input[name=re][value="{name}"] + span')
    tap(b, 'button[data-points="151"]')
    landed = b.script(
        "const form = document.getElementById('deal-form'); const data = new FormData(form);"
        "data.set('action', 'record');"
        "const send = () => { const xhr = new XMLHttpRequest(); xhr.open('POST', form.getAttribute('action'), false);"
        "xhr.send(new URLSearchParams(data)); return [xhr.status, xhr.responseURL]; };"
        "return [send(), send()];"
    )
    assert landed[0] == landed[1] == [200, f"{base}/nights/typed-names?new=typed-names-01"]
    deals = cli_json(db, "standings", "--session", "typed-names")["deals"]
    assert len(deals) == 1
    with Ledger.open(db) as ledger:
        assert {r.envelope.recorded_by for r in ledger.events("typed-names-01")} == {"Dirk"}
