"""The night at the table in German and French: every word of its pages in the reader's
language, points, money and days in the language's form, and the decimal comma accepted."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from web_helpers import PLAYERS, app_for, csrf_of, deal, form_of, joined, post_deal, start_night

from doko_ledger.doppelkopf.book import card_nights
from doko_ledger.doppelkopf.nights.decide import StartNight
from doko_ledger.doppelkopf.rules.ruleset import preset
from doko_ledger.ledger import Ledger

GERMAN = {"Accept-Language": "de"}
FRENCH = {"Accept-Language": "fr"}


@pytest.fixture
def phone(tmp_path: Path) -> TestClient:
    db = tmp_path / "ledger.sqlite"
    start_night(db)
    phone = joined(app_for(db))
    assert post_deal(phone, "night", deal(["Ben", "Clara"], 151)).status_code == 303  # Anna deals and sits out
    return phone


def test_the_night_in_german(phone: TestClient) -> None:
    page = phone.get("/nights/night", headers=GERMAN).text
    assert '<html lang="de">' in page
    for words in ("Spiel 2 eintragen", "<h2>Stand</h2>", "<h2>Abrechnung</h2>", "Normalspiel", "Soli und Vorbehalte"):
        assert words in page, words
    assert "Spiel 1 zurücknehmen" in page  # the undo button names the deal in German too
    assert "zu 0,05\u00a0€ je Punkt" in page and "+0,10\u00a0€" in page  # money in German form
    for english in ("Record deal", "Standings", "Settle up", "Close the night", " per point"):
        assert english not in page, english


def test_the_night_in_french(phone: TestClient) -> None:
    page = phone.get("/nights/night", headers=FRENCH).text
    assert '<html lang="fr">' in page
    for words in ("Noter la donne 2", "<h2>Classement</h2>", "<h2>Règlement</h2>", "Clore la soirée"):
        assert words in page, words
    assert "0,05\u00a0€ le point" in page


def test_the_deal_form_in_german_with_the_games_words(phone: TestClient) -> None:
    page = phone.get("/nights/night/record", headers=GERMAN).text
    for words in ("Augen von Re", "Ansagen", "Damensolo", "Hochzeit", "Keine 90", "Sonderpunkte", "Fuchs gefangen"):
        assert words in page, words
    for english in ("Re's card points", "Show the score", "queen solo", "Special points", "fox caught"):
        assert english not in page, english


def test_a_recorded_deal_is_said_in_the_readers_language(phone: TestClient) -> None:
    answer = post_deal(phone, "night", deal(["Anna", "Dirk"], 100))
    page = phone.get(answer.headers["location"], headers=FRENCH).text
    assert "Donne 2 notée : " in page


def test_a_score_preview_in_french(phone: TestClient) -> None:
    preview = post_deal(phone, "night", deal(["Anna", "Dirk"], 100), action="preview")
    assert preview.status_code == 200
    page = phone.get("/nights/night/record", headers=FRENCH).text
    data = {**form_of(page), "action": "preview", **deal(["Anna", "Dirk"], 100)}
    french = phone.post("/nights/night/record", data=data, headers=FRENCH).text
    assert "Score de la donne 2" in french and "Contra gagne" in french and "Recalculer" in french
    assert "Score of deal 2" in preview.text  # the same form in English without a language asked
    assert "Re a pris 100 points de cartes" in french and "objectif de Contra" in french  # the derivation's lines
    assert "Re took 100 card points" in preview.text and "Re took" not in french


def test_a_rate_typed_with_a_decimal_comma_is_shown_in_the_readers_form(tmp_path: Path) -> None:
    db = tmp_path / "ledger.sqlite"
    start_night(db, "old")
    with Ledger.open(db) as ledger:
        card_nights(ledger).close("old", by="t", at="2026-12-01T10:00:00+00:00")
    phone = joined(app_for(db), "Anna")
    form = {"csrf": csrf_of(phone.get("/", headers=GERMAN).text), "session_id": "kitchen", "rules": "preset:standard"}
    form |= {"rate": "0,25", "match": "8", "dealer": "0"} | {f"player_{i}": n for i, n in enumerate(PLAYERS[:4])}
    assert phone.post("/nights", data=form, headers=GERMAN).status_code == 303
    assert post_deal(phone, "kitchen", deal(["Anna", "Ben"], 151)).status_code == 303
    german = phone.get("/nights/kitchen", headers=GERMAN).text
    assert "zu 0,25\u00a0€ je Punkt" in german and "+0,50\u00a0€" in german and "-0,50\u00a0€" in german
    english = phone.get("/nights/kitchen").text
    assert "at €0.25 per point" in english and "+€0.50" in english


def test_a_games_day_in_the_readers_form(phone: TestClient) -> None:
    games = phone.get("/games", headers=GERMAN).text
    assert "<h1>Spiele</h1>" in games and "Normalspiel" in games


def test_a_deals_page_and_its_replay_in_french(phone: TestClient) -> None:
    game = phone.get("/games/night-01", headers=FRENCH).text
    assert "<h2>Vérifier</h2>" in game and "normal · " in game and "Ajouter une note" in game
    claim = {"claim_0": "+9", "claim_1": "+1", "claim_2": "-1", "claim_3": "-1"}
    audited = phone.get("/games/night-01/audit", params=claim, headers=FRENCH).text
    assert "La vérification a trouvé un problème." in audited and "<h3>Le résultat annoncé</h3>" in audited
    replay = phone.get("/games/night-01/replay", headers=FRENCH).text
    assert '<html lang="fr">' in replay and "<h2>Feuille de score</h2>" in replay
    assert "night-01 · donne 1 de night" in replay and "Score sheet" not in replay


def test_a_deals_day_in_the_readers_form(tmp_path: Path) -> None:
    db = tmp_path / "ledger.sqlite"
    with Ledger.open(db, create=True) as ledger:
        command = StartNight("dated", PLAYERS[:4], 0, preset("standard"), 8, "2026-12-01", None)
        card_nights(ledger).start(command, by="setup", at="2026-12-01T18:00:00+00:00")
    phone = joined(app_for(db), "Anna")
    assert post_deal(phone, "dated", deal(["Anna", "Ben"], 151)).status_code == 303
    assert "Normalspiel · Anna, Ben, Clara, Dirk · 01.12.2026" in phone.get("/games/dated-01", headers=GERMAN).text
    assert "01/12/2026" in phone.get("/games/dated-01", headers=FRENCH).text


def test_the_rules_an_earlier_night_used_are_offered_in_the_readers_language(tmp_path: Path) -> None:
    db = tmp_path / "ledger.sqlite"
    start_night(db, "old", soloist_leads=True)
    with Ledger.open(db) as ledger:
        card_nights(ledger).close("old", by="t", at="2026-12-01T10:00:00+00:00")
    home = joined(app_for(db), "Anna").get("/", headers=GERMAN).text
    assert "wie Abend old: standard, " in home and "as night old" not in home
