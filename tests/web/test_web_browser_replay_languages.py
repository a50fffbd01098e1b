"""The HTML replay in German, in real headless Chromium at 390x844: a sample game exported with
`doko --lang de export --format html`, stepped through to its end; the captions, the table, the
score sheet, the calls and the result in German, and not one English text of the script's
table of words on the page at any step."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import Browser
from test_web_browser import PHONE

from doko_ledger.doppelkopf.files.html_replay_words import script_words

SAMPLE = Path(__file__).resolve().parents[2] / "sample_games" / "01-normal.yaml"
NORMAL = "2026-11-28-kitchen-01-normal"
PLACEHOLDER = re.compile(r"\{\w+\}")


@pytest.fixture
def phone() -> Iterator[Browser]:
    browser = Browser.start(*PHONE, phone=True)
    try:
        yield browser
    finally:
        browser.close()


def english_texts() -> set[str]:
    """The script's English texts, each part between its placeholders that holds a word and is
    not the same in German (a word both languages share, like Re, is no leftover)."""
    german = _texts(script_words("de"))
    parts: set[str] = set()
    for text in _texts(script_words("en")):
        for part in PLACEHOLDER.split(text):
            part = part.strip(" ·:,()“”")
            if re.search(r"[A-Za-z]{3}", part) and not any(part in other for other in german):
                parts.add(part)
    return parts


def _texts(words: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for value in words.values():
        out += [value] if isinstance(value, str) else _texts(value)
    return out


def heads(b: Browser) -> list[str]:
    """The score sheet's column heads, as written (the style sheet shows them in capitals)."""
    found: list[str] = b.script("return [...document.querySelectorAll('#sheet th')].map(th => th.textContent)")
    return found


def shown(b: Browser) -> str:
    """What the page shows, as written (not in the capitals of its style), with its labels and
    tooltips."""
    text: str = b.script(
        "const labels = [...document.querySelectorAll('[aria-label], [title]')]"
        ".map(e => (e.getAttribute('aria-label') || '') + ' ' + (e.title || ''));"
        "const page = document.body.cloneNode(true);"
        "page.querySelectorAll('script, style').forEach(e => e.remove());"
        "return page.textContent + '\\n' + labels.join('\\n');"
    )
    return text


def test_a_game_replayed_in_german_on_a_phone(cli: Any, phone: Browser, tmp_path: Path) -> None:
    assert cli("import", SAMPLE).exit_code == 0
    assert cli("annotate", NORMAL, "--trick", "1", "--card", "2", "--by", "ben", "früh gestochen").exit_code == 0
    page = tmp_path / "spiel.html"
    assert cli("--lang", "de", "export", NORMAL, "--format", "html", "-o", page).exit_code == 0
    phone.open(page)
    english = english_texts()
    assert "wins the trick" in english and "before play" in english  # what must not be seen

    assert phone.text("#caption") == "Anna kommt zum 1. Stich raus"
    assert phone.text("#indicator") == "Bild 0 von 48"
    assert heads(phone) == ["Spieler", "Partei", "Stiche", "Augen"]
    assert phone.text(".seat[data-player=Anna] .stats") == "0 Stiche · 0 Augen"
    assert "ist dran" in phone.text(".seat[data-player=Anna] .badges")
    assert "Geber Dirk" in phone.text("#meta") and "gespielt am 28.11.2026" in phone.text("#meta")
    assert phone.text("#notes") == "Keine Notiz zu diesem Schritt."
    assert phone.script("return document.querySelector('.card').getAttribute('aria-label')").count("-") == 1
    seen = [shown(phone)]

    phone.press("Right", "Right")
    assert phone.text("#caption").startswith("Stich 1 · Ben spielt ")
    assert phone.script("return document.getElementById('notes-title').textContent") == "1 Notiz zu diesem Schritt"
    seen.append(shown(phone))
    phone.press("Right", "Right")
    caption = phone.text("#caption")
    assert caption.startswith("Stich 1 · Dirk spielt ") and " macht den Stich (" in caption
    assert "sticht" in phone.text("#felt") and "macht den Stich" in phone.text(".seat.winner .badges")
    assert re.search(r"1 Stich · \d+ Augen", phone.text(".seat.winner .stats"))
    seen.append(shown(phone))

    phone.press("End")
    result = phone.text("#result")
    assert result.startswith("Re gewinnt · 3 Spielpunkte"), result
    assert heads(phone) == ["Spieler", "Partei", "Stiche", "Augen", "Wertung"]
    assert phone.text("#caption") == phone.script(
        "return JSON.parse(document.getElementById('replay-data').textContent).frames.at(-1).caption"
    )
    assert "keine Karten mehr" in phone.text(".seat[data-player=Anna] .hand")
    seen.append(shown(phone))

    for text in seen:
        leftovers = sorted(part for part in english if part in text)
        assert leftovers == [], f"English on the German page: {leftovers}"
    assert phone.script("return document.documentElement.scrollWidth") <= PHONE[0]  # German words fit the phone
    assert [e for e in phone.console() if e.get("level") in ("SEVERE", "WARNING")] == []
