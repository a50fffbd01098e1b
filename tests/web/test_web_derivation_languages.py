"""A score's derivation on the web in the reader's language: the game page says each line and
its cause (a fox caught, a Karlchen) as the command line does, in German and French; the API
says them beside the English words when its client asks for a language, and without one gives
the command line's JSON word for word."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner
from web_helpers import app_for, client

from doko_ledger.cli.app import app as cli_app

GAME = Path(__file__).resolve().parents[2] / "sample_games" / "29-fox-and-karlchen.yaml"
GAME_ID = "2026-11-28-kitchen-17-fox-and-karlchen"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    db = tmp_path / "ledger.sqlite"
    imported = CliRunner().invoke(cli_app, ["--db", str(db), "import", str(GAME)])
    assert imported.exit_code == 0, imported.output
    return db


@pytest.fixture
def web(db: Path) -> TestClient:
    return client(app_for(db))


def test_the_game_page_says_the_derivation_in_german(web: TestClient) -> None:
    page = web.get(f"/games/{GAME_ID}", headers={"Cookie": "doko_lang=de"}).text
    assert '<html lang="de">' in page
    for words in (
        "Fuchs gefangen",
        "Stich 12: Dirk fängt ♦A von Clara",
        "letzter Stich mit ♣B (Karlchen)",
        "Stich 12: Dirk gewinnt ihn mit ♣B",
        "gewonnen",
        "gegen die Alten",
        "Augen in",
    ):
        assert words in page, words
    for english in ("fox caught", "trick 12:", "card points in", "against the old ones"):
        assert english not in page, english


def test_the_game_page_says_the_derivation_in_french(web: TestClient) -> None:
    page = web.get(f"/games/{GAME_ID}", headers={"Accept-Language": "fr"}).text
    assert '<html lang="fr">' in page
    for words in ("renard pris", "pli 12 : Dirk a pris ♦A à Clara", "pli 12 : Dirk l&#39;a gagné avec ♣V"):
        assert words in page, words
    assert "fox caught" not in page and "trick 12:" not in page


def test_the_game_page_in_english_keeps_its_words(web: TestClient) -> None:
    page = web.get(f"/games/{GAME_ID}").text
    assert "fox caught (Fuchs)" in page and "trick 12: Dirk caught Clara&#39;s DA" in page
    german = web.get(f"/games/{GAME_ID}", headers={"Cookie": "doko_lang=de"}).text  # each language its own page
    assert "Stich 12: Dirk fängt ♦A von Clara" in german
    assert "trick 12: Dirk caught Clara&#39;s DA" in web.get(f"/games/{GAME_ID}").text


def test_the_api_says_the_lines_in_the_language_asked_for(db: Path, web: TestClient) -> None:
    plain = web.get(f"/api/games/{GAME_ID}/score").json()
    scripted = CliRunner().invoke(cli_app, ["--db", str(db), "score", GAME_ID, "--json"])
    assert plain == json.loads(scripted.stdout)  # no language asked: the command line's JSON
    assert not any("said" in line for line in plain["lines"])

    german = web.get(f"/api/games/{GAME_ID}/score", headers={"Accept-Language": "de"}).json()
    fox = next(line for line in german["lines"] if line["item"] == "fox caught (Fuchs)")
    assert fox["cause"] == "trick 12: Dirk caught Clara's DA"  # the English words stay
    assert (fox["said"], fox["said_cause"]) == ("Fuchs gefangen", "Stich 12: Dirk fängt ♦A von Clara")
    assert [{k: v for k, v in line.items() if not k.startswith("said")} for line in german["lines"]] == plain["lines"]

    english = web.get(f"/api/games/{GAME_ID}/score", headers={"Accept-Language": "en"}).json()
    assert [line["said_cause"] for line in english["lines"]] == [line["cause"] for line in plain["lines"]]


def test_the_api_audit_says_its_score_in_french(web: TestClient) -> None:
    audit = web.get(f"/api/games/{GAME_ID}/audit", headers={"Accept-Language": "fr"}).json()
    causes = [line["said_cause"] for line in audit["score"]["lines"] if line["special"]]
    assert causes == ["pli 12 : Dirk a pris ♦A à Clara", "pli 12 : Dirk l'a gagné avec ♣V"]


def test_the_audit_page_explains_a_claim_by_the_lines_in_german(web: TestClient) -> None:
    claim = "claim_0=4&claim_1=-4&claim_2=-4&claim_3=4"  # one game point short for Kontra
    german = web.get(f"/games/{GAME_ID}/audit?{claim}", headers={"Cookie": "doko_lang=de"}).text
    assert "erklärt durch: Fuchs gefangen" in german
    assert "erklärt durch: letzter Stich mit ♣B (Karlchen)" in german
    assert "fox caught" not in german
    english = web.get(f"/games/{GAME_ID}/audit?{claim}").text
    assert "explained by: fox caught (Fuchs)" in english
