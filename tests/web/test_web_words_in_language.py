"""The web's last English words in the reader's language (the `doko_lang` cookie): the audit's
checks and what they found, the rule options' help; the JSON API's audit stays English."""

from __future__ import annotations

import html
from pathlib import Path

import pytest
from typer.testing import CliRunner
from web_helpers import app_for, client, joined

from doko_ledger.cli.app import app

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"
NORMAL = "2026-11-28-kitchen-01-normal"
CLAIM = {"claim_0": "+4", "claim_1": "-4", "claim_2": "-4", "claim_3": "+4"}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "ledger.sqlite"
    done = CliRunner().invoke(app, ["--db", str(path), "import", str(SAMPLES / "01-normal.yaml")])
    assert done.exit_code == 0, done.output
    return path


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "de",
            [
                "✓ Hash-Kette intakt",
                "jeder Hash stimmt",
                "✓ kein Verleugnen durch eine spätere Karte belegt",
                "240 Augen in 12 Stichen",
                "Zuerst: ein Posten der Wertung (gewonnen) ist die ganze Differenz",
            ],
        ),
        (
            "fr",
            [
                "✓ chaîne d'empreintes intacte",
                "✓ aucune renonce prouvée par une carte plus tardive",
                "240 points de cartes en 12 plis",
                "D'abord : une ligne du score (gagné) fait toute la différence",
            ],
        ),
    ],
)
def test_the_audit_page_is_in_the_readers_language(db: Path, lang: str, words: list[str]) -> None:
    phone = client(app_for(db))
    phone.cookies.set("doko_lang", lang)
    page = phone.get(f"/games/{NORMAL}/audit", params=CLAIM)
    assert page.status_code == 200
    shown = html.unescape(page.text)
    for said in words:
        assert said in shown, said
    assert "hash chain intact" not in shown and "every hash matches" not in shown


def test_the_apis_audit_stays_english_whatever_the_cookie(db: Path) -> None:
    api = client(app_for(db))
    api.cookies.set("doko_lang", "de")
    data = api.get(f"/api/games/{NORMAL}/audit").json()
    assert [c["name"] for c in data["checks"]][:2] == ["hash chain intact", "every card legal"]


@pytest.mark.parametrize(
    ("lang", "words", "english"),
    [
        (
            "de",
            ["48 Karten mit den Neunen, oder 40 ohne", "was eine Bockrunde auslöst", "verlorenes Solo"],
            "lost solo",
        ),
        ("fr", ["48 cartes avec les neuf, ou 40 sans", "ce qui lance un tour de bock"], "what starts a bock round"),
    ],
)
def test_the_start_forms_rule_options_are_in_the_readers_language(
    db: Path, lang: str, words: list[str], english: str
) -> None:
    phone = joined(app_for(db))
    phone.cookies.set("doko_lang", lang)
    shown = html.unescape(phone.get("/").text)
    for said in words:
        assert said in shown, said
    assert "48 cards with the nines" not in shown and english not in shown


def test_the_night_pages_changes_are_in_the_readers_language(tmp_path: Path) -> None:
    from web_helpers import start_night

    from doko_ledger.doppelkopf.book import card_nights
    from doko_ledger.doppelkopf.rules.ruleset import rules_from_mapping
    from doko_ledger.ledger import Ledger

    path = tmp_path / "night.sqlite"
    start_night(path)
    with Ledger.open(path) as ledger:
        nights = card_nights(ledger)
        nights.join("night", "Erik", after="Anna", by="t", at="2026-12-01T18:05:00+00:00")
        winners = rules_from_mapping({"preset": "standard", "counting": "winners_only"})
        nights.change_rules("night", winners, by="t", at="2026-12-01T18:06:00+00:00")
    phone = joined(app_for(path))
    for lang, words in (
        ("de", ["Erik kommt dazu, nach Anna", "die Regeln ändern sich: counting winners_only", "nur Gewinner"]),
        ("fr", ["Erik rejoint la table, après Anna", "les règles changent : counting winners_only"]),
    ):
        phone.cookies.set("doko_lang", lang)
        shown = html.unescape(phone.get("/nights/night").text)
        for said in words:
            assert said in shown, (lang, said)
        assert "joins after" not in shown and "winners only (the losers" not in shown


def test_what_started_a_bock_round_is_in_the_readers_language(tmp_path: Path) -> None:
    from web_helpers import deal, post_deal, start_night

    path = tmp_path / "bock.sqlite"
    start_night(path, bock_triggers=["tie", "lost_solo"])
    phone = joined(app_for(path))
    post_deal(phone, "night", deal(["Ben", "Clara"], 120))  # 120:120 is a tie: bock
    for lang, said in (("de", "Spiel 1 (120:120 unentschieden)"), ("fr", "donne 1 (égalité 120:120)")):
        phone.cookies.set("doko_lang", lang)
        assert said in html.unescape(phone.get("/nights/night").text), lang
