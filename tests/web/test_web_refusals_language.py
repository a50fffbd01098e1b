"""The web's refusals in the reader's language: a form's error in the page's language (the
switch's cookie), the JSON API's in English unless its client asks with Accept-Language, and
the doors' (a private table) in the same language as the rest."""

from __future__ import annotations

import html
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from web_helpers import CODE, app_for, client, deal, form_of, joined, post_deal, start_night

WRITE = {"x-join-code": CODE, "x-doko-user": "script"}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "ledger.sqlite"
    start_night(path)
    return path


def record(api: TestClient, version: int, **headers: str) -> object:
    body = {"version": version, "deal": {"re": ["Ben", "Clara"], "re_points": 151}}
    return api.post("/api/nights/night/deals", json=body, headers=WRITE | headers)


def test_a_form_error_is_in_the_pages_language(db: Path) -> None:
    phone = joined(app_for(db))
    phone.cookies.set("doko_lang", "de")
    answer = post_deal(phone, "night", {"game": "normal", "re_points": "151"})
    assert answer.status_code == 422
    assert "tippe die Re-Spieler an (im Solo den Solisten)" in html.unescape(answer.text)
    phone.cookies.set("doko_lang", "fr")
    answer = post_deal(phone, "night", deal(["Ben", "Clara"], "lots"))
    assert answer.status_code == 422
    assert "points de cartes de Re : donnez un nombre entier, pas 'lots'" in html.unescape(answer.text)


def test_a_form_made_before_another_phones_deal_says_so_in_the_pages_language(db: Path) -> None:
    app = app_for(db)
    ben, clara = joined(app), joined(app, "Clara")
    clara.cookies.set("doko_lang", "fr")
    form = form_of(clara.get("/nights/night/record").text)
    del form["deal"]  # a form of the night's version alone, not of a deal's number
    assert post_deal(ben, "night", deal(["Ben", "Clara"], 151)).status_code == 303
    stale = clara.post("/nights/night/record", data=form | {"action": "record"} | deal(["Ben", "Clara"], 140))
    assert stale.status_code == 409
    assert "la donne 1 vient d'être notée (par Ben) : rien n'a été noté depuis ce formulaire." in html.unescape(
        stale.text
    )


def test_an_api_error_in_english_unless_the_client_asks(db: Path) -> None:
    api = client(app_for(db))
    assert record(api, 1).status_code == 201
    english = record(api, 1)
    assert english.status_code == 409
    assert english.json() == {"error": "deal 1 was just recorded (by script): nothing was written"}
    french = record(api, 1, **{"Accept-Language": "fr-FR,fr;q=0.9"})
    assert french.status_code == 409
    assert french.json() == {"error": "la donne 1 vient d'être notée (par script) : rien n'a été écrit"}
    api.cookies.set("doko_lang", "de")  # a page's choice is not the API's
    assert record(api, 1).json() == english.json()
    missing = api.get("/api/nights/nope/standings", headers={"Accept-Language": "de"})
    assert missing.status_code == 404 and missing.json() == {"error": "kein Abend 'nope' im Buch"}


def test_a_private_tables_refusal_is_in_the_clients_language(db: Path) -> None:
    api = client(app_for(db, private=True))
    english = api.get("/api/nights/night/standings")
    assert english.status_code == 401
    assert english.json() == {"error": "this table is private: send its join code in the X-Join-Code header"}
    german = api.get("/api/nights/night/standings", headers={"Accept-Language": "de"})
    assert german.json() == {"error": "dieser Tisch ist privat: sende seinen Beitrittscode im Header X-Join-Code"}
