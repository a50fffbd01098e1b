"""The HTML replay: one self-contained page that steps through a game card by card.

``dumps(view)`` takes the frames view of a game (``projections.views.frames_view``) and returns
a whole HTML document. Its CSS and JavaScript are inline and the view is embedded as JSON in a
``<script type="application/json">`` element; the page loads nothing from anywhere (its Content
Security Policy forbids it) and builds its DOM with ``textContent`` only, so player names and
notes stay text. The page's look and behaviour live in ``html_replay.css`` and ``html_replay.js``
beside this module; the words its script writes come with the page in its language
(``html_replay_words``).
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
from collections.abc import Mapping, Sequence
from datetime import date
from functools import cache
from importlib.resources import files
from typing import Any

from doko_ledger.doppelkopf.files.html_replay_words import script_words
from doko_ledger.doppelkopf.nights.place import deal_marks
from doko_ledger.i18n import DEFAULT, current, msg, render
from doko_ledger.i18n.formats import Day

__all__ = ["dumps"]

# Inside a JSON string these are the same characters; escaped, no "</script>" or "<!--" can
# close the data element early, and U+2028/U+2029 cannot end a line in a script.
_JSON_ESCAPES = {
    ord("<"): "\\u003c",
    ord(">"): "\\u003e",
    ord("&"): "\\u0026",
    0x2028: "\\u2028",
    0x2029: "\\u2029",
}

_PAGE = """<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{policy}">
<meta name="generator" content="doko_ledger">
<title>{title}</title>
<style>{css}</style>
</head>
<body>
<header class="top">
{back}<h1><span class="kind">Doppelkopf · </span><span id="title">{heading}</span></h1>
<p class="meta" id="meta"></p>
</header>
<main class="layout">
<section class="board" aria-label="{w[the_table]}">
<p class="caption" id="caption" aria-live="polite"></p>
<div class="mark-detail" id="mark-detail" aria-live="polite" hidden></div>
<div class="table" id="table"><div class="felt" id="felt"></div></div>
<nav class="controls" aria-label="{w[controls]}">
<button type="button" id="first" title="{w[first_title]}">⇤ {w[first]}</button>
<button type="button" id="previous-trick" title="{w[previous_trick_title]}">« {w[trick]}</button>
<button type="button" id="previous" title="{w[previous_title]}">‹ {w[card]}</button>
<button type="button" id="next" title="{w[next_title]}">{w[card]} ›</button>
<button type="button" id="next-trick" title="{w[next_trick_title]}">{w[trick]} »</button>
<button type="button" id="last" title="{w[last_title]}">{w[last]} ⇥</button>
<input class="scrub" id="scrub" type="range" min="0" max="0" value="0" aria-label="{w[step]}">
<span class="indicator" id="indicator"></span>
</nav>
<p class="keys"><kbd>←</kbd> <kbd>→</kbd> {w[card_key]} · <kbd>↑</kbd> <kbd>↓</kbd> {w[trick_key]} ·
<kbd>{w[home_key]}</kbd> <kbd>{w[end_key]}</kbd></p>
</section>
<aside class="side">
<section class="panel notes-panel" id="notes-panel" aria-live="polite">
<h2 id="notes-title">{w[notes]}</h2>
<div id="notes"></div>
</section>
<section class="panel analysis-panel" id="analysis-panel" hidden>
<h2>{w[analysis]}</h2>
<p class="analysis-status" id="analysis-status"></p>
<ol class="analysis-marks" id="analysis-marks"></ol>
<p class="analysis-note muted" id="analysis-note"></p>
</section>
<section class="panel" id="result-panel" hidden>
<h2>{w[result]}</h2>
<div id="result"></div>
</section>
<section class="panel">
<h2>{w[sheet]}</h2>
<table class="sheet" id="sheet"></table>
<p class="totals" id="totals" hidden></p>
<p class="totals" id="sheet-hidden" hidden>{w[hidden]}</p>
</section>
<section class="panel">
<h2>{w[announcements]}</h2>
<ul class="calls" id="calls"></ul>
</section>
<section class="panel all-notes-panel" id="all-notes-panel" hidden>
<h2>{w[all_notes]}</h2>
<ol class="all-notes" id="all-notes"></ol>
</section>
</aside>
</main>
<noscript><p>{w[needs_script]}</p></noscript>
<script type="application/json" id="page-words">{said}</script>
<script type="application/json" id="replay-data">{data}</script>
<script>{js}</script>
</body>
</html>
"""


def _back_links(back: Sequence[tuple[str, str]]) -> str:
    if not back:
        return ""
    links = " ".join(f'<a href="{html.escape(href)}">{html.escape(words)}</a>' for href, words in back)
    label = html.escape(render(msg("back")))
    return f'<nav class="back" aria-label="{label}">{links}</nav>\n'


@cache
def _asset(name: str) -> str:
    return files(__package__).joinpath(name).read_text(encoding="utf-8")


def _source_hash(text: str) -> str:
    """The CSP source expression that allows exactly this inline script or style."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def embedded_json(view: Mapping[str, Any]) -> str:
    """The view as JSON that is safe inside a ``<script>`` element and parses back to the view."""
    text = json.dumps(view, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.translate(_JSON_ESCAPES)


def dumps(
    view: Mapping[str, Any],
    back: Sequence[tuple[str, str]] = (),
    *,
    analysis: Mapping[str, Any] | None = None,
    analysis_url: str | None = None,
) -> str:
    """The replay page of a game's frames view, as one HTML document; `back` are the links
    (address, words) to the pages it was reached from, when a server serves it (a file
    written for keeping has none, so no link of it can be broken).

    The costly cards of an analysis are marked on the page: from `analysis` (the marks view of
    `analysis_marks.marks_view`, kept in the page), or from `analysis_url`, which the page asks
    until the server has computed it (a served page: its policy lets it ask its own server)."""
    css, js = _asset("html_replay.css"), _asset("html_replay.js")
    connect = "; connect-src 'self'" if analysis_url is not None else ""
    policy = (
        f"default-src 'none'; script-src {_source_hash(js)}; style-src {_source_hash(css)}; "
        f"base-uri 'none'; form-action 'none'{connect}"
    )
    if analysis is not None:
        view = {**view, "analysis": analysis}
    elif analysis_url is not None:
        view = {**view, "analysis_url": analysis_url}
    game_id = str(view.get("game_id") or "game")
    heading = game_id
    night = view.get("night")
    if night:  # a card night's deal: its number, and whether it was voided or corrected
        marks = deal_marks(night["status"], night["corrected_by"], night["replaces"])
        heading += render(msg(" · deal {number} of {night}", number=night["deal"], night=night["session"]))
        heading += f" ({marks})" if marks else ""
    return _PAGE.format(
        policy=policy,
        title=html.escape(render(msg("{game} · Doppelkopf replay", game=game_id))),
        heading=html.escape(heading),
        back=_back_links(back),
        css=css,
        data=embedded_json(view),
        js=js,
        lang=current(),
        said=embedded_json(script_words(current()) | _day(view.get("played_on"))),
        w=_words(),
    )


def _day(played_on: object) -> dict[str, str]:
    """The day the game was played, as the page's language writes it (`day`, beside the
    script's words); in English, and a text that is no date, as recorded."""
    language = current()
    if not played_on or language == DEFAULT:
        return {}
    try:
        day = date.fromisoformat(str(played_on))
    except ValueError:
        return {}
    return {"day": Day(day).localized(language)}


def _words() -> dict[str, str]:
    """The page's own words, in the language of the answer (its script writes the rest)."""
    said = {
        "the_table": msg("the table"),
        "controls": msg("replay controls"),
        "first_title": msg("first (Home)"),
        "first": msg("First"),
        "previous_trick_title": msg("previous trick (Up, Page Up)"),
        "trick": msg("Trick"),
        "previous_title": msg("previous card (Left)"),
        "card": msg("Card"),
        "next_title": msg("next card (Right)"),
        "next_trick_title": msg("next trick (Down, Page Down)"),
        "last_title": msg("last (End)"),
        "last": msg("Last"),
        "step": msg("step"),
        "card_key": msg("card"),
        "trick_key": msg("trick"),
        "home_key": msg("Home"),
        "end_key": msg("End"),
        "notes": msg("Notes"),
        "analysis": msg("Analysis"),
        "result": msg("Result"),
        "sheet": msg("Score sheet"),
        "hidden": msg("Card points are hidden until the end."),
        "announcements": msg("Announcements"),
        "all_notes": msg("All notes"),
        "needs_script": msg("This replay needs JavaScript."),
    }
    return {key: html.escape(render(text)) for key, text in said.items()}
