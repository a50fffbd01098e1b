"""The pages in their reader's language: the browser's Accept-Language, overridden by the
switch on every page (kept in a cookie); the JSON API in English unless its client asks."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from web_helpers import app_for, client, start_night

from doko_ledger.web.language import language_of


@pytest.fixture
def phone(tmp_path: Path) -> TestClient:
    db = tmp_path / "ledger.sqlite"
    start_night(db)
    return client(app_for(db))


def test_a_page_speaks_the_browsers_language(phone: TestClient) -> None:
    page = phone.get("/", headers={"Accept-Language": "de-DE,de;q=0.9,en;q=0.8"})
    assert page.status_code == 200
    assert '<html lang="de">' in page.text
    assert ">Abende</a>" in page.text and ">Spiele</a>" in page.text
    french = phone.get("/games", headers={"Accept-Language": "fr-CH, fr;q=0.9"})
    assert '<html lang="fr">' in french.text and ">Soirées</a>" in french.text
    other = phone.get("/", headers={"Accept-Language": "it"})
    assert '<html lang="en">' in other.text and ">Nights</a>" in other.text


def test_the_switch_keeps_the_choice_over_the_browsers(phone: TestClient) -> None:
    chosen = phone.get("/language/fr?next=/games", headers={"Accept-Language": "de"}, follow_redirects=False)
    assert chosen.status_code == 303 and chosen.headers["location"] == "/games"
    assert "doko_lang=fr" in chosen.headers["set-cookie"]
    page = phone.get("/games", headers={"Accept-Language": "de"})
    assert '<html lang="fr">' in page.text
    switch = next(line for line in page.text.splitlines() if 'class="languages"' in line)
    assert 'href="/language/de?next=/games"' in switch and 'lang="fr" aria-current="true">Français' in switch


def test_the_switch_goes_back_to_this_server_only(phone: TestClient) -> None:
    for target in ("//evil.example/x", "https://evil.example/", "/\\evil.example", "evil"):
        answer = phone.get("/language/de", params={"next": target}, follow_redirects=False)
        assert answer.headers["location"] == "/", target
    unknown = phone.get("/language/xx?next=/games", follow_redirects=False)
    assert unknown.status_code == 303 and "set-cookie" not in unknown.headers


def test_a_long_address_is_not_echoed_into_the_switch(phone: TestClient) -> None:
    page = phone.get("/games", params={"x": "9" * 4000})
    assert "9" * 300 not in page.text
    assert 'href="/language/de?next=/games"' in page.text


def _scope(path: str, cookie: str | None, accept: str | None) -> dict[str, object]:
    headers = [(b"cookie", f"doko_lang={cookie}".encode())] if cookie else []
    headers += [(b"accept-language", accept.encode())] if accept else []
    return {"type": "http", "path": path, "headers": headers}


@pytest.mark.parametrize(
    ("path", "cookie", "accept", "language"),
    [
        ("/api/nights/n/standings", "de", None, "en"),
        ("/api/nights/n/standings", "de", "fr", "fr"),
        ("/api/nights/n/standings", None, "de-AT", "de"),
        ("/nights/n", "fr", "de", "fr"),
        ("/nights/n", None, "de", "de"),
        ("/nights/n", "xx", "de", "de"),
        ("/nights/n", None, None, "en"),
        ("/api/", "fr", "de", "fr"),  # the page that shows the API to people
    ],
)
def test_the_api_answers_in_english_unless_its_client_asks(
    path: str, cookie: str | None, accept: str | None, language: str
) -> None:
    assert language_of(_scope(path, cookie, accept)) == language


def test_the_join_page_and_a_refusal_in_german_and_french(phone: TestClient) -> None:
    german = phone.get("/join", headers={"Accept-Language": "de"})
    assert "<h1>Dem Tisch beitreten</h1>" in german.text and ">Beitreten</button>" in german.text
    french = phone.get("/join", headers={"Accept-Language": "fr"})
    assert "<h1>Rejoindre la table</h1>" in french.text and "<code>doko serve</code>" in french.text
    missing = phone.get("/nights/no-such-night", headers={"Accept-Language": "de"})
    assert missing.status_code == 404 and "<h1>Nicht gefunden</h1>" in missing.text
