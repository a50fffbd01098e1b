"""The HTML replay page: the document dumps() writes, then the page itself in a real headless Chromium."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from datetime import datetime
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from browser import Browser

from doko_ledger.doppelkopf.files import html_replay

PLAYERS = ["Anna", "Ben", "Cleo", "Dirk"]
HANDS = {
    "Anna": ["H10", "CQ", "DQ", "HJ", "DA", "D10", "CA", "C10", "SA", "HK", "H9", "S9"],
    "Ben": ["CQ", "SQ", "CJ", "DJ", "DK", "D9", "CA", "CK", "S10", "SK", "HA", "C9"],
    "Cleo": ["H10", "HQ", "SJ", "HJ", "DA", "DK", "C10", "C9", "SA", "S9", "HA", "HK"],
    "Dirk": ["SQ", "HQ", "DQ", "CJ", "SJ", "DJ", "D10", "D9", "CK", "S10", "SK", "H9"],
}
# Anna leads every trick here; the cards in the order played, and who won.
TRICKS = [(["CA", "C9", "C10", "CK"], "Anna"), (["SA", "SK", "S9", "S10"], "Anna"), (["H9", "HA", "HK", "H9"], "Ben")]
TRUE_PARTIES = {"Anna": "re", "Ben": "re", "Cleo": "kontra", "Dirk": "kontra"}
POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
RE_CALL = {"player": "Anna", "party": "re", "announcement": "re"}
XSS = "<script>alert(1)</script> & </script><b>bold?</b> <!-- x"
NOTES = [
    {"author": "ben", "at": "2026-11-28T21:14:00Z", "text": "why not the fox?", "trick": 3, "card": 2},
    {"author": "cleo", "at": "2026-11-28T21:15:00Z", "text": XSS, "trick": 3, "card": 2},
]
NOTED_STEP = 10  # trick 3, Ben's heart ace
LAST_STEP = 12
RESULT = {
    "value": 3,
    "winner": "re",
    "deltas": {"Anna": 3, "Ben": 3, "Cleo": -3, "Dirk": -3},
    "lines": ["won: +1", "no 90: +1", "Re announced: +1"],
}
SCREENSHOT = Path(__file__).parents[1] / "artifacts" / "html-replay.png"


def game_view() -> dict[str, Any]:
    """A frames view with every hand open: three tricks, a Re call before the third, notes on one step."""
    hands = {name: list(cards) for name, cards in HANDS.items()}
    won = dict.fromkeys(PLAYERS, 0)
    points = dict.fromkeys(PLAYERS, 0)
    calls: list[dict[str, str]] = []

    def frame(step: int, trick: int, card: int, caption: str, played: list[dict[str, str]], winner: str | None) -> None:
        frames.append(
            {
                "step": step,
                "trick": trick,
                "card": card,
                "caption": caption,
                "hands": {name: list(cards) for name, cards in hands.items()},
                "trick_cards": list(played),
                "trick_winner": winner,
                "leader": None if step == LAST_STEP else winner or PLAYERS[card],
                "tricks_won": dict(won),
                "card_points": dict(points),
                "parties": {name: "re" if calls and name == "Anna" else None for name in PLAYERS},
                "true_parties": dict(TRUE_PARTIES),
                "announcements": list(calls),
                "notes": NOTES if step == NOTED_STEP else [],
            }
        )

    frames: list[dict[str, Any]] = []
    frame(0, 0, 0, "Anna leads trick 1", [], None)
    for number, (cards, winner) in enumerate(TRICKS, start=1):
        if number == 3:
            calls.append(RE_CALL)
        played: list[dict[str, str]] = []
        for position, card in enumerate(cards, start=1):
            player = PLAYERS[position - 1]
            hands[player].remove(card)
            played.append({"player": player, "card": card})
            done = position == 4
            if done:
                won[winner] += 1
                points[winner] += sum(POINTS[c[1:]] for c in cards)
            step = (number - 1) * 4 + position
            frame(step, number, position, f"trick {number} · {player} plays {card}", played, winner if done else None)
    return {
        "game_id": "2026-11-28-kitchen-3",
        "played_on": "2026-11-28",
        "players": PLAYERS,
        "dealer": "Dirk",
        "game_type": "normal",
        "declarer": None,
        "perspective": "all",
        "frames": frames,
        "result": RESULT,
    }


def anna_view() -> dict[str, Any]:
    """The same game as Anna could know it: her own hand and party, the others' hands hidden."""
    view = copy.deepcopy(game_view())
    view["perspective"] = "Anna"
    for frame in view["frames"]:
        frame["hands"] = {name: cards if name == "Anna" else None for name, cards in frame["hands"].items()}
        frame["parties"]["Anna"] = "re"
        frame["true_parties"] = None
    return view


def tournament_view() -> dict[str, Any]:
    """The same game as a tournament shows it: card points, parties and calls only on the last frame."""
    view = copy.deepcopy(game_view())
    view["perspective"] = "tournament"
    for frame in view["frames"][:-1]:
        frame.update(card_points=None, parties=None, true_parties=None, announcements=None)
    view["frames"][-1]["true_parties"] = None
    view["frames"][-1]["parties"] = dict(TRUE_PARTIES)
    return view


def facts_view() -> dict[str, Any]:
    """A game recorded only by its facts: one frame, no cards."""
    return {
        "game_id": "2026-11-28-kitchen-4",
        "played_on": None,
        "players": PLAYERS,
        "dealer": "Anna",
        "game_type": "queen_solo",
        "declarer": "Cleo",
        "perspective": "all",
        "frames": [
            {
                "step": 0,
                "trick": 0,
                "card": 0,
                "caption": "recorded by its facts: Re (Cleo) 151 card points",
                "hands": dict.fromkeys(PLAYERS),
                "trick_cards": [],
                "trick_winner": None,
                "leader": None,
                "tricks_won": {"Anna": 3, "Ben": 2, "Cleo": 5, "Dirk": 2},
                "card_points": {"Anna": 30, "Ben": 29, "Cleo": 151, "Dirk": 30},
                "parties": {"Anna": "kontra", "Ben": "kontra", "Cleo": "re", "Dirk": "kontra"},
                "true_parties": {"Anna": "kontra", "Ben": "kontra", "Cleo": "re", "Dirk": "kontra"},
                "announcements": [],
                "notes": [],
            }
        ],
        "result": {
            "value": 1,
            "winner": "re",
            "deltas": {"Anna": -1, "Ben": -1, "Cleo": 3, "Dirk": -1},
            "lines": ["won: +1"],
        },
    }


# ---- the document, without a browser -------------------------------------------------------------


class _Scripts(HTMLParser):
    """Collects each <script> element's attributes and text the way a browser splits them."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self.urls: list[str] = []
        self._open: dict[str, str | None] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.urls += [value or "" for name, value in attrs if name in ("src", "href", "action", "srcset")]
        if tag == "script":
            self._open = dict(attrs)
            self.scripts.append((self._open, ""))

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            attrs, text = self.scripts[-1]
            self.scripts[-1] = (attrs, text + data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._open = None


def parse(document: str) -> _Scripts:
    parser = _Scripts()
    parser.feed(document)
    parser.close()
    return parser


def embedded(document: str, element: str = "replay-data") -> Any:
    """What the page's JSON element `element` holds: the view (`replay-data`) or the words its
    script writes (`page-words`)."""
    (text,) = [text for attrs, text in parse(document).scripts if attrs.get("id") == element]
    return json.loads(text)


def test_dumps_is_one_document_with_nothing_from_outside() -> None:
    document = html_replay.dumps(game_view())
    assert document.startswith("<!DOCTYPE html>")
    assert document.count("<html") == 1 and document.rstrip().endswith("</html>")
    assert "://" not in document
    assert parse(document).urls == []
    assert re.search(r"""\b(src|href)\s*=\s*["']?\s*(https?:|//)|url\(|@import""", document, re.IGNORECASE) is None
    assert "default-src 'none'" in document


def test_the_embedded_json_is_the_view() -> None:
    for view in (game_view(), anna_view(), tournament_view(), facts_view()):
        document = html_replay.dumps(view)
        scripts = parse(document).scripts
        assert [attrs.get("type") for attrs, _ in scripts] == ["application/json", "application/json", None]
        assert embedded(document) == view


def test_user_text_cannot_break_out_of_the_data() -> None:
    view = game_view()
    view["game_id"] = "</title><script>alert(2)</script>"
    view["players"] = ["<b>Anna</b>", "Ben & Co", "Cleo\u2028", "</script><script>alert(3)//"]
    document = html_replay.dumps(view)
    scripts = parse(document).scripts
    assert len(scripts) == 3, "a note or a name closed the data element"
    assert embedded(document) == view
    assert "<script>alert" not in document and "<b>" not in document
    assert "&lt;/title&gt;&lt;script&gt;alert(2)&lt;/script&gt;" in document


def test_the_page_assets_cannot_close_their_elements() -> None:
    scripts = parse(html_replay.dumps(facts_view())).scripts
    assert "</" not in scripts[-1][1]
    assert "innerHTML" not in scripts[-1][1] and "insertAdjacentHTML" not in scripts[-1][1]


# ---- the page, in headless Chromium --------------------------------------------------------------


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    try:
        started = Browser.start()
    except (OSError, RuntimeError) as error:
        pytest.fail(f"the browser tests need headless Chromium: {error}", pytrace=False)
    try:
        yield started
    finally:
        started.close()


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("replay")
    written = {}
    views = {"game": game_view(), "anna": anna_view(), "tournament": tournament_view(), "facts": facts_view()}
    for name, view in views.items():
        written[name] = folder / f"{name}.html"
        written[name].write_text(html_replay.dumps(view), encoding="utf-8")
    return written


def hand_sizes(browser: Browser) -> dict[str, int | None]:
    """Cards shown in each player's hand; None where the hand is hidden."""
    sizes: dict[str, int | None] = browser.script(
        "return Object.fromEntries([...document.querySelectorAll('.seat')].map(seat => [seat.dataset.player,"
        " seat.querySelector('.hand.hidden') ? null : seat.querySelectorAll('.hand .card').length]))"
    )
    return sizes


def trick(browser: Browser) -> list[list[str]]:
    played: list[list[str]] = browser.script(
        "return [...document.querySelectorAll('#felt .slot')]"
        ".map(slot => [slot.dataset.player, slot.querySelector('.card').dataset.card])"
    )
    return played


def state(browser: Browser) -> dict[str, Any]:
    shown: dict[str, Any] = browser.script(
        "const text = id => document.getElementById(id).textContent;"
        "return {caption: text('caption'), indicator: text('indicator'), hash: location.hash,"
        " notes: [...document.querySelectorAll('#notes .note-text')].map(n => n.textContent),"
        " result: document.getElementById('result-panel').hidden ? null : text('result')}"
    )
    return shown


def assert_quiet(browser: Browser) -> None:
    """No script error or refused load in the console, and not a single resource requested."""
    assert [entry for entry in browser.console() if entry.get("level") in ("SEVERE", "WARNING")] == []
    assert browser.script("return performance.getEntriesByType('resource').map(e => e.name)") == []


def test_stepping_through_a_game(browser: Browser, pages: dict[str, Path]) -> None:
    browser.open(pages["game"])
    first = state(browser)
    assert first == {
        "caption": "Anna leads trick 1",
        "indicator": "frame 0 of 12",
        "hash": "",
        "notes": [],
        "result": None,
    }
    assert hand_sizes(browser) == dict.fromkeys(PLAYERS, 12)
    assert trick(browser) == []
    assert "to-play" in browser.script("return document.querySelector('.seat[data-player=Anna]').className")
    assert browser.script("return [...document.querySelectorAll('.controls button')].map(b => b.disabled)") == [
        True,
        True,
        True,
        False,
        False,
        False,
    ]
    assert browser.text("#notes") == "No note on this step."

    browser.press("Right", "Right", "Right")
    assert state(browser)["caption"] == "trick 1 · Cleo plays C10"
    assert state(browser)["hash"] == "#step-3"
    assert state(browser)["indicator"] == "frame 3 of 12"  # the step of the #step-N link, as the terminal counts
    assert trick(browser) == [["Anna", "CA"], ["Ben", "C9"], ["Cleo", "C10"]]
    assert hand_sizes(browser) == {"Anna": 11, "Ben": 11, "Cleo": 11, "Dirk": 12}

    browser.click("#next-trick")
    assert state(browser)["caption"] == "trick 1 · Dirk plays CK"
    assert browser.script("return document.querySelector('#felt .card.winning').dataset.card") == "CA"
    assert "wins the trick" in browser.text(".seat[data-player=Anna]")
    assert browser.text("#sheet tr[data-player=Anna]") == "Anna Re 1 25"

    browser.press("Down")
    assert state(browser)["indicator"] == "frame 8 of 12"
    assert trick(browser) == [["Anna", "SA"], ["Ben", "SK"], ["Cleo", "S9"], ["Dirk", "S10"]]
    browser.press("Up")
    assert state(browser)["indicator"] == "frame 4 of 12"
    browser.press("PageDown", "Right")
    assert state(browser)["caption"] == "trick 3 · Anna plays H9"
    assert trick(browser) == [["Anna", "H9"]]
    assert browser.text("#calls") == "Anna: Re"
    browser.click("#previous")
    assert browser.text("#calls") == "none yet"

    browser.click("#next")
    browser.click("#next")
    noted = state(browser)
    assert noted["hash"] == f"#step-{NOTED_STEP}"
    assert noted["notes"] == ["why not the fox?", XSS]
    assert "ben" in browser.text("#notes") and "trick 3, card 2" in browser.text("#notes")
    assert browser.script("return document.querySelectorAll('script').length") == 3
    assert browser.script("return document.querySelectorAll('#notes b, #all-notes b').length") == 0
    browser.screenshot(SCREENSHOT)

    browser.press("End")
    end = state(browser)
    assert end["indicator"] == "frame 12 of 12"
    assert end["result"] is not None and "Re wins · 3 points" in end["result"] and "no 90: +1" in end["result"]
    assert browser.text("#sheet tr[data-player=Cleo]") == "Cleo Kontra 0 0 −3"
    assert hand_sizes(browser) == dict.fromkeys(PLAYERS, 9)
    browser.click("#previous-trick")
    assert state(browser)["indicator"] == "frame 8 of 12" and state(browser)["result"] is None

    browser.press("Home")
    assert state(browser)["caption"] == "Anna leads trick 1"
    browser.click("#last")
    browser.click("#first")
    assert state(browser) == {**first, "hash": "#step-0"}
    assert_quiet(browser)


def test_a_link_opens_at_its_step_and_notes_jump(browser: Browser, pages: dict[str, Path]) -> None:
    browser.open(pages["game"], "#step-6")
    assert state(browser)["caption"] == "trick 2 · Ben plays SK"
    assert browser.text("#all-notes").splitlines() == [
        "trick 3, card 2 — why not the fox?",
        "trick 3, card 2 — " + XSS,
    ]
    browser.click("#all-notes a")
    assert state(browser)["hash"] == f"#step-{NOTED_STEP}"
    assert state(browser)["notes"] == ["why not the fox?", XSS]
    assert browser.script("return document.querySelector('#all-notes a.current') !== null")
    assert_quiet(browser)


def test_a_players_view_hides_the_other_hands(browser: Browser, pages: dict[str, Path]) -> None:
    browser.open(pages["anna"])
    assert hand_sizes(browser) == {"Anna": 12, "Ben": None, "Cleo": None, "Dirk": None}
    assert browser.script("return document.querySelector('.seat').dataset.player") == "Anna"
    assert browser.script("return document.querySelector('.seat.south').dataset.player") == "Anna"
    assert "hand hidden" in browser.text(".seat[data-player=Ben]")
    cards_shown = browser.script(
        "return [...document.querySelectorAll('.hand .card:not(.back)')].map(c => c.dataset.card)"
    )
    assert sorted(cards_shown) == sorted(HANDS["Anna"])
    browser.press("End")
    assert hand_sizes(browser) == {"Anna": 9, "Ben": None, "Cleo": None, "Dirk": None}
    assert "Re wins" in state(browser)["result"]
    assert_quiet(browser)


def test_a_game_recorded_by_its_facts(browser: Browser, pages: dict[str, Path]) -> None:
    browser.open(pages["facts"])
    shown = state(browser)
    assert shown["indicator"] == "frame 0 of 0"
    assert shown["caption"] == "recorded by its facts: Re (Cleo) 151 card points"
    assert "Re wins · 1 point" in shown["result"]
    assert hand_sizes(browser) == dict.fromkeys(PLAYERS, None)
    assert browser.script("return [...document.querySelectorAll('.controls button')].every(b => b.disabled)")
    assert browser.text("#sheet tr[data-player=Cleo]") == "Cleo Re 5 151 +3"
    assert "queen solo" in browser.text("#meta") and "declarer Cleo" in browser.text("#meta")
    browser.press("Right", "Down", "End")
    assert state(browser)["indicator"] == "frame 0 of 0"
    assert_quiet(browser)


def test_a_tournament_view_shows_points_parties_and_calls_only_at_the_end(
    browser: Browser, pages: dict[str, Path]
) -> None:
    browser.open(pages["tournament"], "#step-9")
    assert browser.text("#sheet tr[data-player=Anna]") == "Anna – 2 –"
    assert browser.text("#sheet-hidden") == "Card points are hidden until the end."
    assert browser.text("#calls") == "hidden until the end"
    assert browser.count(".badge.re, .badge.kontra") == 0
    browser.press("End")
    assert browser.text("#sheet tr[data-player=Anna]") == "Anna Re 2 50 +3"
    assert browser.text("#calls") == "Anna: Re"
    assert_quiet(browser)


def test_an_exported_game_replays_in_the_browser(browser: Browser, cli: Any, tmp_path: Path) -> None:
    """The whole path: a sample game imported, annotated, exported with `doko export --format
    html`, opened and stepped through; what the page shows is what `Ledger.frames` computed."""
    source = Path(__file__).parents[2] / "sample_games" / "01-normal.yaml"
    assert cli("import", source).exit_code == 0
    game = "2026-11-28-kitchen-01-normal"
    assert cli("annotate", game, "--trick", "2", "--card", "1", "--by", "ben", "the Alte: Anna is Re").exit_code == 0
    page = tmp_path / "game.html"
    assert cli("export", game, "--format", "html", "-o", page).exit_code == 0
    view = json.loads(cli("replay", game, "--json", "--as", "Anna").stdout)  # the same frames, one perspective
    frames_all = embedded(page.read_text(encoding="utf-8"))["frames"]
    assert [f["caption"] for f in frames_all] == [f["caption"] for f in view["frames"]]

    browser.open(page)
    assert state(browser)["indicator"] == f"frame 0 of {frames_all[-1]['step']}"
    assert hand_sizes(browser) == dict.fromkeys(view["players"], 12)
    browser.press("Right", "Right", "Right", "Right", "Right")
    shown = state(browser)
    assert shown["caption"] == frames_all[5]["caption"]
    assert shown["notes"] == ["the Alte: Anna is Re"]
    assert [p for p, _ in trick(browser)] == [c["player"] for c in frames_all[5]["trick_cards"]]
    browser.press("End")
    final = state(browser)
    assert final["result"] is not None
    assert f"{view['result']['value']} points" in final["result"]
    assert all(line in final["result"] for line in view["result"]["lines"])
    assert_quiet(browser)


def test_a_score_sheet_deal_shows_its_calls_and_card_points(browser: Browser, cli: Any, tmp_path: Path) -> None:
    """A deal recorded by its facts (no cards), exported: the calls and the parties' card points
    from the score sheet, not "none" and zeros; its note's time in the reader's time zone."""
    source = Path(__file__).parents[2] / "sample_games" / "31-summary-specials.yaml"
    assert cli("import", source).exit_code == 0
    assert cli("annotate", "#1", "from the club's sheet", "--by", "Ilse").exit_code == 0
    page = tmp_path / "sheet.html"
    assert cli("export", "#1", "--format", "html", "-o", page).exit_code == 0
    (note,) = json.loads(cli("notes", "#1", "--json").stdout)

    browser.open(page)
    assert browser.text("#calls").splitlines() == ["Hannes: Re", "Ilse: Kontra"]
    assert browser.text("#totals") == "Re 164 · Kontra 76"
    assert browser.script("return document.getElementById('sheet-hidden').hidden") is True
    assert browser.text("#sheet tr[data-player=Hannes]").split()[:4] == ["Hannes", "Re", "–", "–"]
    assert "Re (Hannes, Karl)" in state(browser)["caption"]
    assert state(browser)["indicator"] == "frame 0 of 0"
    zone = browser.script("return Intl.DateTimeFormat().resolvedOptions().timeZone")
    local = datetime.fromisoformat(note["at"]).astimezone(ZoneInfo(zone)).strftime("%Y-%m-%d %H:%M")
    assert browser.text("#notes .note-by") == f"— Ilse · {local}"
    assert_quiet(browser)


def test_the_tournament_view_hides_a_tricks_card_points_until_the_end(
    browser: Browser, cli: Any, tmp_path: Path
) -> None:
    source = Path(__file__).parents[2] / "sample_games" / "01-normal.yaml"
    assert cli("import", source).exit_code == 0
    page = tmp_path / "tournament.html"
    assert cli("export", "#1", "--format", "html", "--tournament", "-o", page).exit_code == 0
    browser.open(page, "#step-4")
    assert state(browser)["caption"].endswith("wins the trick")  # not "(25)"
    assert not re.search(r"\d+ pts", browser.text("#table"))
    browser.press("End")
    assert re.search(r"wins the trick \(\d+\)$", state(browser)["caption"])
    assert_quiet(browser)
