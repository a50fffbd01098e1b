"""The words of the HTML replay's script: every text it writes comes from the table of words the
page carries in its language (`#page-words`), so no English text can slip into its code; the
table holds a word for every key the script says and none it does not, in each language; and
a replay exported or served in German or French carries that language's words."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import app_for, deal, joined, post_deal, start_night

from doko_ledger.doppelkopf.files import html_replay
from doko_ledger.doppelkopf.files.html_replay_words import script_words
from doko_ledger.doppelkopf.rules.game_types import GameType

SCRIPT = (Path(html_replay.__file__).parent / "html_replay.js").read_text(encoding="utf-8")
SAMPLE = Path(__file__).resolve().parents[2] / "sample_games" / "01-normal.yaml"
NORMAL = "2026-11-28-kitchen-01-normal"
LANGUAGES = ("en", "de", "fr")
PLACEHOLDER = re.compile(r"\{(\w+)\}")
ACCESSORS = ("say", "sayCount", "named")
"""The script's ways to a word: a text, a text said of a count, a word of the game's tables."""


def said_by_the_script(accessor: str) -> set[str]:
    """The keys the script passes to `accessor`, each a literal."""
    calls = re.findall(rf"\b{accessor}\(\s*([^,)]*)", SCRIPT)
    defined = [c for c in calls if c.strip() in ("key", "table")]  # the function's own definition
    keys = [c.strip() for c in calls if c not in defined]
    assert all(re.fullmatch(r'"\w+"', key) for key in keys), f"{accessor}() with a key that is no literal: {keys}"
    return {key.strip('"') for key in keys}


def filled_by_the_script() -> dict[str, set[str]]:
    """For each text the script says with values, the names it fills in."""
    filled: dict[str, set[str]] = {}
    for key, values in re.findall(r'\bsay(?:Count)?\("(\w+)",(?:\s*\w+,)?\s*\{([^}]*)\}', SCRIPT):
        filled.setdefault(key, set()).update(re.findall(r"(\w+)\s*:", values))
    for key, name in re.findall(r'\bsay\("(\w+)",\s*(\w+)\)', SCRIPT):  # values kept in a variable
        literal = re.search(rf"const {name} = \{{([^}}]*)\}}", SCRIPT)
        assert literal is not None, f"say({key!r}, {name}): no object {name} in the script"
        filled.setdefault(key, set()).update(re.findall(r"(\w+)\s*:", literal.group(1)))
    return filled


def test_the_script_writes_no_text_of_its_own() -> None:
    """Every `textContent`, `title`, aria-label and element text the script sets is a word of
    the table, a value of the view, or a symbol: no English string literal."""
    english = {
        text for text in _texts(script_words("en")) if re.search(r"[a-z]{2,} [a-z]{2,}", PLACEHOLDER.sub("", text))
    }
    keys_said = re.sub(rf'\b({"|".join(ACCESSORS)})\(\s*"\w+"', "", SCRIPT)
    literals = set(re.findall(r'"((?:[^"\\]|\\.)*)"', keys_said))
    assert not {text for text in english if text in literals}
    for literal in literals:
        words = re.findall(r"[A-Za-z][\w-]*", literal)
        if len(words) > 1:
            assert all(len(word) == 1 or word in _NAMES for word in words), f"a text in the script: {literal!r}"


_STYLE = (Path(html_replay.__file__).parent / "html_replay.css").read_text(encoding="utf-8")
_NAMES = set(re.findall(r"[.#]([a-z][\w-]*)", _STYLE + html_replay._PAGE)) | set(
    re.findall(r'id="([\w-]+)"', html_replay._PAGE)
)
_NAMES |= {"use", "strict", "li", "tr", "td", "th", "span", "application", "json"}
"""The class names and ids of the page and its style sheet, a few tags and the script's "use
strict": the only words a string of the script with more than one word may hold."""


def _texts(words: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for value in words.values():
        out += [value] if isinstance(value, str) else _texts(value)
    return out


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_key_the_script_says_has_its_word_and_every_word_is_said(language: str) -> None:
    words = script_words(language)
    texts = {key for key, value in words.items() if isinstance(value, str)}
    counted = {key for key, value in words.items() if isinstance(value, dict) and set(value) == {"one", "other"}}
    tables = set(words) - texts - counted
    assert said_by_the_script("say") == texts
    assert said_by_the_script("sayCount") == counted
    assert said_by_the_script("named") == tables
    assert all(words[key] for key in texts)
    assert all(PLACEHOLDER.search(words[key][form]) for key in counted for form in ("one", "other"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_script_fills_in_every_placeholder_of_its_words(language: str) -> None:
    words = script_words(language)
    filled = filled_by_the_script()
    for key, value in words.items():
        forms = [value] if isinstance(value, str) else list(value.values()) if key in filled else []
        for form in forms:
            wanted = set(PLACEHOLDER.findall(form)) - ({"count"} if isinstance(value, dict) else set())
            assert wanted <= filled.get(key, set()), f"{language}: {key} → {form!r} has no value for {wanted}"


def test_the_games_words_come_from_the_glossary() -> None:
    german, french = script_words("de"), script_words("fr")
    assert german["games"][GameType.MARRIAGE.value] == "Hochzeit" and french["games"]["poverty"] == "pauvreté"
    assert german["parties"] == {"re": "Re", "kontra": "Kontra"} and french["parties"]["kontra"] == "Contra"
    assert german["calls"]["no90"] == "keine 90" and french["calls"]["no90"] == "pas de 90"
    assert german["letters"] == {"A": "A", "10": "10", "K": "K", "Q": "D", "J": "B", "9": "9"}
    assert french["letters"]["K"] == "R" and french["letters"]["J"] == "V"
    assert german["tricks_won"] == {"one": "{count} Stich", "other": "{count} Stiche"}
    assert french["card_name"].format(rank=french["ranks"]["Q"], suit=french["suits"]["C"]) == "dame de trèfle"
    assert german["card_name"].format(rank=german["ranks"]["Q"], suit=german["suits"]["C"]) == "Kreuz-Dame"


def page_words(page: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="page-words">(.*?)</script>', page, re.DOTALL)
    assert found is not None
    words: dict[str, Any] = json.loads(found.group(1))
    return words


def replay_data(page: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.DOTALL)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def test_a_replay_exported_in_german_carries_german_words(cli: Any) -> None:
    assert cli("import", SAMPLE).exit_code == 0
    page = cli("--lang", "de", "export", NORMAL, "--format", "html").stdout
    words = page_words(page)
    assert words == script_words("de") | {"day": "28.11.2026"}
    english = script_words("en")
    same = {key for key, value in english.items() if isinstance(value, str) and value == words[key]}
    assert same <= {"party_points", "said_by"}, f"German words still in English: {same}"  # no word in them
    captions = [frame["caption"] for frame in replay_data(page)["frames"]]
    assert captions[0] == "Anna kommt zum 1. Stich raus"
    assert captions[1].startswith("Stich 1 · Anna spielt ")
    assert any(" macht den Stich (" in caption for caption in captions)
    assert not any("plays" in caption or "wins" in caption for caption in captions)
    assert '<html lang="de">' in page


def test_a_replay_in_english_keeps_its_english_words(cli: Any) -> None:
    assert cli("import", SAMPLE).exit_code == 0
    page = cli("export", NORMAL, "--format", "html").stdout
    assert page_words(page) == script_words("en")  # the day as recorded: no word for it
    assert replay_data(page)["frames"][0]["caption"] == "Anna leads trick 1"


def test_the_served_replay_speaks_its_readers_language(tmp_path: Path) -> None:
    db = tmp_path / "ledger.sqlite"
    start_night(db)
    phone: TestClient = joined(app_for(db))
    assert post_deal(phone, "night", deal(["Ben", "Clara"], 151)).status_code == 303
    french = phone.get("/games/night-01/replay", headers={"Accept-Language": "fr"}).text
    assert page_words(french)["tricks_won"] == {"one": "{count} pli", "other": "{count} plis"}
    assert page_words(french)["result"] == "Le résultat"
    assert replay_data(french)["frames"][0]["caption"].startswith("donne notée par ses faits, sans cartes : Re (")
    german = phone.get("/games/night-01/replay", headers={"Accept-Language": "de"}).text
    assert page_words(german)["no_party_wins"] == "Keine Partei gewinnt"


def test_a_deal_thrown_in_says_why_in_the_readers_words(cli: Any) -> None:
    samples = SAMPLE.parent
    assert cli("import", samples / "20-misdeal.yaml", samples / "19-poverty-declined.yaml").exit_code == 0
    misdeal, declined = "2026-12-05-verein-08-misdeal", "2026-12-05-verein-07-poverty-declined"

    def caption(game: str, *language: str) -> str:
        page = cli(*language, "export", game, "--format", "html").stdout
        first: str = replay_data(page)["frames"][0]["caption"]
        return first

    assert caption(misdeal) == "deal thrown in (misdeal)"
    assert caption(misdeal, "--lang", "de") == "Spiel eingeworfen (Fehlgeben)"
    assert caption(misdeal, "--lang", "fr") == "donne jetée (maldonne)"
    assert caption(declined) == "deal thrown in (poverty declined)"
    assert caption(declined, "--lang", "de") == "Spiel eingeworfen (Armut abgelehnt)"


def test_the_replays_score_lines_are_said_in_the_readers_language(cli: Any) -> None:
    assert cli("import", SAMPLE).exit_code == 0
    german = replay_data(cli("--lang", "de", "export", NORMAL, "--format", "html").stdout)["result"]
    english = replay_data(cli("export", NORMAL, "--format", "html").stdout)["result"]
    assert english["lines"][0] == "won (Re): +1"
    assert german["lines"][0] == "gewonnen (Re): +1"
    assert len(german["lines"]) == len(english["lines"]) and german["lines"] != english["lines"]
