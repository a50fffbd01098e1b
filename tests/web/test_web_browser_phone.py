"""`doko serve` on a phone (390x844 in headless Chromium): every tap target at least 44x44 CSS
pixels on every page of a night, the replay's step buttons on the screen under the trick with no
keyboard legend on a touch screen, and the dark colours. Screenshots go to tests/artifacts/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import test_web_browser
from browser import Browser
from test_web_browser import ARTIFACTS, PHONE, ROOT, record, tap, wait_for
from test_web_browser_doudizhu import join_as, record_sheet
from typer.testing import CliRunner
from web_helpers import CODE, start_night

from doko_ledger.cli.app import app as cli_app

served, phone = test_web_browser.served, test_web_browser.phone  # the fixtures: a served ledger, a phone
DOCS = ROOT / "docs"
SMALLEST = 44
"""WCAG 2.5.5 (AAA) and Apple's and Google's guides: a target a thumb hits, in CSS pixels."""

TARGETS = """
const targets = 'a[href], button, input:not([type=hidden]), select, textarea, summary, label';
const seen = el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
const ownText = el => [...el.childNodes].filter(n => n.nodeType === Node.TEXT_NODE).map(n => n.textContent).join('');
const inSentence = el => el.tagName === 'A' && el.parentElement
  && ownText(el.parentElement).replace(/[\\s·|,()]/g, '').length > 0;
const choice = el => el.matches('input[type=radio], input[type=checkbox]');
const measured = [], exempt = [], unseen = [];
for (const el of document.querySelectorAll(targets)) {
  const name = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.className ? '.' + el.className : '')
    + ' "' + (el.textContent || el.name || el.value || '').trim().slice(0, 30) + '"';
  // a label is the target of the radio or checkbox it wraps (the control itself may be hidden in it)
  if (el.tagName === 'LABEL' && !el.querySelector('input[type=radio], input[type=checkbox]')) continue;
  const target = choice(el) && el.closest('label') ? null : el;
  if (target === null) continue;
  if (!seen(target)) { unseen.push(name); continue; }
  if (inSentence(target)) { exempt.push(name); continue; }
  const box = target.getBoundingClientRect();
  measured.push([name, Math.round(box.width * 10) / 10, Math.round(box.height * 10) / 10]);
}
return [measured, exempt, unseen];
"""
"""Every interactive element of the page: measured, or exempt by one written rule, or not shown.

Rules (each checked, none silent): a radio or checkbox inside a label is measured as its label
(the label is what the thumb taps); a label that wraps no radio or checkbox is no target of its
own (its field is measured); an element not rendered (no box, `hidden`, in a closed <details>) is
no target; a link inside a sentence (its parent has words of its own besides the link) is exempt
by WCAG 2.5.8's inline exception. Everything else must be at least 44x44."""


def too_small(b: Browser, page: str) -> list[Any]:
    measured, exempt, _unseen = b.script(TARGETS)
    assert measured, f"{page}: no target measured"
    for name in exempt:
        assert name.startswith("a"), f"{page}: only links may be inline: {name}"
    return [(page, name, w, h) for name, w, h in measured if w < SMALLEST or h < SMALLEST]


def import_card_game(db: Path) -> str:
    game = ROOT / "sample_games" / "01-normal.yaml"
    imported = CliRunner().invoke(cli_app, ["--db", str(db), "import", str(game)])
    assert imported.exit_code == 0, imported.output
    return "2026-11-28-kitchen-01-normal"


def test_every_tap_target_on_every_page_is_at_least_44_px(served: tuple[str, Path], phone: Browser) -> None:
    base, db = served
    b = phone
    game = import_card_game(db)
    start_night(db, "taps", ("Anna", "Ben", "Clara", "Dirk", "Emil"))
    small: list[Any] = []
    b.visit(f"{base}/join?code={CODE}")
    small += too_small(b, "join")
    join_as(b, base, "Ben")
    b.visit(f"{base}/nights/taps")
    wait_for(b, "#record-link")
    record(b, base, re=2, points=151)
    pages = {
        "home": "/",
        "night": "/nights/taps",
        "record form": "/nights/taps/record",
        "correct form": "/nights/taps/deals/taps-01/correct",
        "games list": "/games",
        "game page": "/games/taps-01",
        "card game page": f"/games/{game}",
        "replay": f"/games/{game}/replay",
        "Dou Dizhu start": "/doudizhu",
    }
    for page, path in pages.items():
        b.visit(base + path)
        wait_for(b, "main, .layout")
        b.script("document.querySelectorAll('details').forEach(d => { d.open = true; })")  # what a tap opens too
        small += too_small(b, page)
    b.visit(f"{base}/doudizhu")
    wait_for(b, "#ddz-start")
    b.type("input[name=session_id]", "dorm")
    for i, name in enumerate(("Li", "Wang", "Zhang")):
        b.type(f"input[name=player_{i}]", name)
    tap(b, "#ddz-start button.primary")
    wait_for(b, "#ddz-record")
    record_sheet(b, "Li", 3, "Wang")
    small += too_small(b, "Dou Dizhu session")
    b.visit(f"{base}/games/dorm-01")
    small += too_small(b, "Dou Dizhu game")
    assert small == [], "\n".join(map(str, small))


def test_the_replay_fits_a_phone_with_its_step_buttons_at_the_bottom(served: tuple[str, Path], phone: Browser) -> None:
    base, db = served
    b = phone
    game = import_card_game(db)
    b.visit(f"{base}/games/{game}/replay")
    wait_for(b, "#caption")
    assert b.script("return matchMedia('(hover: none)').matches") is True  # a touch screen: no keyboard legend
    assert b.script("return getComputedStyle(document.querySelector('.keys')).display") == "none"
    for _ in range(6):
        tap(b, "#next")
    width, height = PHONE
    for scrolled in ("document.querySelector('#felt').scrollIntoView({block: 'center'})", "window.scrollTo(0, 0)"):
        b.script(scrolled)
        controls = b.script("return document.querySelector('.controls').getBoundingClientRect().toJSON()")
        assert controls["top"] >= 0 and controls["bottom"] <= height and controls["right"] <= width
        for button in ("#first", "#previous", "#next", "#last"):
            box = b.script(f"return document.querySelector('{button}').getBoundingClientRect().toJSON()")
            assert box["height"] >= SMALLEST and box["bottom"] <= height
    felt = b.script("return document.querySelector('#felt').getBoundingClientRect().toJSON()")
    assert felt["bottom"] <= controls["top"] + 1  # the trick above the buttons, on the first screen
    assert b.script("return document.querySelector('.back a').getAttribute('href')") == f"/games/{game}"
    b.screenshot(ARTIFACTS / "web-replay.png")
    # headless Chromium has no mouse, so even a laptop window says (hover: none): the legend is
    # hidden by that rule alone, which a mouse does not match
    hidden_by = b.script(
        "return [...document.styleSheets].flatMap(s => [...s.cssRules]).filter(r => r.media"
        " && [...r.cssRules].some(i => i.selectorText === '.keys' && i.style.display === 'none'))"
        ".map(r => r.media.mediaText)"
    )
    assert hidden_by == ["(hover: none), (pointer: coarse)"]


def test_the_pages_turn_dark_with_the_phone(served: tuple[str, Path], phone: Browser) -> None:
    base, _ = served
    b = phone
    background = "return getComputedStyle(document.body).backgroundColor"
    b.visit(f"{base}/nights/2026-11-28-kitchen")
    wait_for(b, "#standings")
    light = b.script(background)
    b.screenshot(DOCS / "web-phone-light.png")
    b.emulate_media(prefers_color_scheme="dark")
    dark = b.script(background)
    assert light == "rgb(244, 241, 234)" and dark == "rgb(18, 20, 18)"
    assert b.script("return getComputedStyle(document.querySelector('.bar')).backgroundColor") == "rgb(114, 207, 160)"
    b.screenshot(DOCS / "web-phone-dark.png")
    b.emulate_media()
    assert b.script(background) == light


def test_a_form_made_before_another_phone_recorded_says_so_on_waking(served: tuple[str, Path], phone: Browser) -> None:
    base, db = served
    b = phone
    start_night(db, "asleep", ("Anna", "Ben", "Clara", "Dirk"))
    join_as(b, base, "Ben")
    b.visit(f"{base}/nights/asleep/record")
    wait_for(b, "#deal-form")
    # the phone sleeps: the page is hidden, its poll stops; the poll that was due fails (offline)
    b.script(
        "Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true});"
        "document.dispatchEvent(new Event('visibilitychange'));"
        "window.realFetch = window.fetch; window.fetch = () => Promise.reject(new TypeError('offline'));"
    )
    with_other = CliRunner().invoke(
        cli_app, ["--db", str(db), "record", "--session", "asleep", "--re", "Ben,Clara", "--re-points", "151", "--yes"]
    )
    assert with_other.exit_code == 0, with_other.output
    assert b.script("return document.getElementById('live-notice').hidden") is True
    # it wakes, still offline for a moment: the poll fails and is tried again, later, not dropped
    b.script(
        "Object.defineProperty(document, 'visibilityState', {value: 'visible', configurable: true});"
        "document.dispatchEvent(new Event('visibilitychange'));"
    )
    watch = "return document.getElementById('live-watch').dataset.failures"
    wait_until(b, f"{watch} === '2'")
    b.script("window.fetch = window.realFetch")  # back online
    wait_until(b, "return !document.getElementById('live-notice').hidden")
    assert "deal 1 was just recorded" in b.text("#live-notice")
    assert b.script(watch) == "0"


def wait_until(b: Browser, condition: str, timeout: float = 20.0) -> None:
    import time

    deadline = time.monotonic() + timeout
    while not b.script(condition if condition.startswith("return") else f"return {condition}"):
        assert time.monotonic() < deadline, f"not so: {condition}"
        time.sleep(0.1)
