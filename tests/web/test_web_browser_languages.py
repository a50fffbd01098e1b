"""A night at the table in German and a deal's audit in French, in real headless Chromium at
390x844: the start form with a rate typed with a decimal comma, deals recorded, one undone and
one corrected, the standings and the settle-up, every word of them in the reader's language and
money in its form; the screenshots are the ones docs/web.md shows."""

from __future__ import annotations

from pathlib import Path

import test_web_browser
from browser import Browser
from test_web_browser import ARTIFACTS, cli_json, join, page_totals, record, tap, wait_for
from test_web_browser_phone import too_small
from web_helpers import start_night

served, phone = test_web_browser.served, test_web_browser.phone  # the fixtures: a served ledger, a phone
DOCS = Path(__file__).resolve().parents[2] / "docs"
NIGHT = "2026-12-02-kueche"


def fits(b: Browser) -> list[str]:
    """What sticks out of the phone's screen sideways (outside a table that scrolls)."""
    found: list[str] = b.script(
        "const shown = e => !e.closest('.scroll') && !e.closest('details:not([open]) > :not(summary)');"
        "return [...document.querySelectorAll('main *, header *')].filter(e => shown(e)"
        " && e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)"
        ".map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right) + ': '"
        " + (e.textContent || '').trim().slice(0, 40))"
    )
    return found


def test_a_night_at_the_table_in_german(served: tuple[str, Path], phone: Browser) -> None:
    base, db = served
    b = phone
    join(b, base, "Ben")
    b.visit(f"{base}/language/de?next=/")
    wait_for(b, "#start")
    assert b.script("return document.documentElement.lang") == "de"
    assert b.text("h1") == "Doppelkopfabende"
    for i, name in enumerate(["Anna", "Ben", "Clara", "Dirk"]):
        b.type(f'input[name="player_{i}"]', name)
    b.type('input[name="session_id"]', NIGHT)
    b.type('input[name="rate"]', "0,05")  # the decimal comma
    tap(b, "#start button.primary")
    wait_for(b, "#record-link")
    assert b.text("#record-link") == "Spiel 1 eintragen"
    assert "Anna gibt" in b.text(".next-line")

    tap(b, "#record-link")
    wait_for(b, "#deal-form")
    assert "Augen von Re" in b.text("#deal-form")
    tap(b, 'input[name=re][value="Ben"] + span')
    tap(b, 'input[name=re][value="Clara"] + span')
    tap(b, 'button[data-points="151"]')
    assert b.text("#kontra-points") == "Kontra 89"  # the script's words, in German too
    tap(b, "#preview-button")
    wait_for(b, "#record")
    assert "Wertung von Spiel 1" in b.text("#preview") and "Re gewinnt" in b.text("#preview")
    assert fits(b) == []
    b.screenshot(DOCS / "web-record-de.png")
    tap(b, "#record")
    wait_for(b, "#standings")
    assert "Spiel 1 eingetragen: " in b.text(".recorded")

    record(b, base, re=2, pad="100")  # 2
    record(b, base, re=2, points=181)  # 3
    tap(b, "#undo")  # take deal 3 back
    b.accept_alert()
    wait_for(b, "#standings")
    assert b.text(".recorded") == "Spiel 3 zurückgenommen: es zählt nicht mehr."
    record(b, base, re=2, points=90)  # 3 again
    tap(b, 'a.fix[href$="-02/correct"]')  # deal 2 was 130, not 100
    wait_for(b, "#deal-form")
    b.type("#re-points", "130")
    tap(b, "#preview-button")
    wait_for(b, "#record")
    assert "Alte und neue Wertung" in b.text("#preview")
    tap(b, "#record")
    wait_for(b, "#standings")
    assert "Spiel 2 korrigiert: " in b.text(".recorded") and "korrigiert" in b.text("#standings")
    assert b.script("return document.querySelector('#standings thead th:nth-child(2)').textContent") == "Spiel"
    assert fits(b) == []
    b.script("window.scrollTo(0, 0)")
    b.screenshot(DOCS / "web-night-de.png")
    b.script("document.querySelector('#totals').closest('section').scrollIntoView(); window.scrollBy(0, -60)")
    b.screenshot(DOCS / "web-standings-de.png")

    view = cli_json(db, "standings", "--session", NIGHT)
    assert page_totals(b) == {row["player"]: row["total"] for row in view["table"]}
    payments = cli_json(db, "settle", "--session", NIGHT)["payments"]
    settle = b.text("#settle")
    assert payments and "Abrechnung" in settle and "je Punkt" in settle
    for p in payments:
        money = f"{float(p['amount']):.2f}".replace(".", ",")
        assert f"{p['payer']} zahlt {p['payee']} {money} €" in settle  # (the rendered text: a plain space)
    b.script("document.getElementById('settle').scrollIntoView(); window.scrollBy(0, -60)")
    b.screenshot(DOCS / "web-settle-de.png")
    assert [e for e in b.console() if e["level"] == "SEVERE"] == []


def test_a_deals_audit_in_french(served: tuple[str, Path], phone: Browser) -> None:
    base, _db = served
    b = phone
    b.visit(f"{base}/language/fr?next=/games/2026-11-28-kitchen-03")
    wait_for(b, "#audit")
    assert b.script("return document.documentElement.lang") == "fr"
    assert "solo cœur" in b.text("main")
    for i, claim in enumerate(["-8", "-8", "-8", "+20"]):  # Dirk's solo is +24 under bock, not +20
        b.type(f'input[name="claim_{i}"]', claim)
    tap(b, "#audit button[type=submit]")
    wait_for(b, "#audit-result")
    assert b.text("#audit-result") == "La vérification a trouvé un problème."
    assert "Le résultat annoncé" in b.text("#audit")
    b.script("document.getElementById('audit').scrollIntoView(); window.scrollBy(0, -60)")
    assert fits(b) == []
    b.screenshot(DOCS / "web-audit-fr.png")
    assert [e for e in b.console() if e["level"] == "SEVERE"] == []


def test_every_page_fits_a_phone_in_german_and_in_french(served: tuple[str, Path], phone: Browser) -> None:
    base, db = served
    b = phone
    start_night(db, "taps", ("Anna", "Ben", "Clara", "Dirk", "Emil"))
    join(b, base, "Ben")
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
        "sample game page": "/games/2026-11-28-kitchen-03",
        "replay": "/games/taps-01/replay",
        "Dou Dizhu start": "/doudizhu",
        "API": "/api/",
    }
    trouble: list[object] = []
    for language in ("de", "fr"):
        for page, path in pages.items():
            b.visit(f"{base}/language/{language}?next={path}")
            wait_for(b, "main, .layout")
            assert b.script("return document.documentElement.lang") == language
            b.script("document.querySelectorAll('details').forEach(d => { d.open = true; })")  # what a tap opens
            trouble += [(language, page, "sticks out", what) for what in fits(b)]
            trouble += [(language, *small) for small in too_small(b, page)]
            if page == "record form":
                b.script("document.querySelector('.special').scrollIntoView(); window.scrollBy(0, -60)")
                b.screenshot(ARTIFACTS / f"web-specials-{language}.png")
    assert trouble == [], "\n".join(map(str, trouble))
