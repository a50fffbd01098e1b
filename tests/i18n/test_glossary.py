"""The game's words in each language: one glossary file per language, the same terms in
each, and docs/glossary.md showing the three side by side as the files hold them."""

from __future__ import annotations

from pathlib import Path

import yaml

from doko_ledger.i18n import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]


def _glossary(language: str) -> dict[str, str]:
    data = yaml.safe_load((ROOT / "doko_ledger" / "locale" / language / "glossary.yaml").read_text(encoding="utf-8"))
    assert isinstance(data, dict) and all(isinstance(v, str) and v.strip() for v in data.values())
    return data


def test_every_language_names_the_same_terms() -> None:
    english = _glossary("en")
    for language in LANGUAGES:
        assert list(_glossary(language)) == list(english), language


def test_the_glossary_page_shows_the_three_side_by_side() -> None:
    rows = [
        tuple(cell.strip() for cell in line.strip("|").split("|"))[:3]
        for line in (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8").splitlines()
        if line.startswith("| ") and not line.startswith("| English")
    ]
    terms = [tuple(_glossary(language)[key] for language in ("en", "de", "fr")) for key in _glossary("en")]
    assert rows == terms


def test_the_glossary_has_the_words_tables_argue_about() -> None:
    german = _glossary("de")
    french = _glossary("fr")
    assert (german["marriage"], french["marriage"]) == ("Hochzeit", "mariage")
    assert (german["poverty"], french["poverty"]) == ("Armut", "pauvreté")
    assert (german["healthy"], french["healthy"]) == ("gesund", "santé")
    assert (german["no_90"], french["no_90"]) == ("keine 90", "pas de 90")
    assert (german["schwarz"], french["schwarz"]) == ("schwarz", "fanny")
    assert (german["bock_round"], german["compulsory_solo"]) == ("Bockrunde", "Pflichtsolo")
