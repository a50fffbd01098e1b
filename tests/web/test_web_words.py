"""The phones' words: errors name players and things, never seats or codes; deals are counted
as people count them; a phone that took a deal back or corrected it is told so."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from backends import ledger_path_on_both  # noqa: F401  (every test on both databases)
from web_helpers import CODE, app_for, client, csrf_of, deal, joined, post_deal, standings, start_night, version_of

from doko_ledger.doppelkopf.book import card_nights
from doko_ledger.doppelkopf.game.record import SummaryRecord
from doko_ledger.ledger import Ledger

API_WRITE = {"x-join-code": CODE, "x-doko-user": "script"}


@pytest.fixture
def db(ledger_path: Path) -> Path:
    start_night(ledger_path)  # Anna, Ben, Clara, Dirk, Emil; Anna deals deal 1 and sits out
    return ledger_path


def test_three_re_players_are_named_not_seats(db: Path) -> None:
    phone = joined(app_for(db))
    answer = post_deal(phone, "night", deal(["Ben", "Clara", "Emil"], 151))
    assert answer.status_code == 422
    assert "Re is one player or two different players, not Ben, Clara, Emil" in answer.text
    assert "seats" not in answer.text
    api = client(app_for(db))
    body = {"version": 1, "deal": {"re": ["Ben", "ben"], "re_points": 151}}
    refused = api.post("/api/nights/night/deals", json=body, headers=API_WRITE)
    assert refused.json() == {"error": "Re is one player or two different players, not Ben, Ben"}


def test_an_unknown_name_is_refused_by_name(db: Path) -> None:
    api = client(app_for(db))
    body = {"version": 1, "deal": {"re": ["Bne"], "re_points": 151}}
    refused = api.post("/api/nights/night/deals", json=body, headers=API_WRITE)
    assert refused.status_code == 422
    assert refused.json() == {"error": "unknown player 'Bne' (players: Ben, Clara, Dirk, Emil)"}


def test_a_fox_row_names_whose_fox_and_the_party_follows(db: Path) -> None:
    phone = joined(app_for(db))
    form = phone.get("/nights/night/record").text
    assert "<legend>Special point 1</legend>" in form and "<label>Whose card was caught" in form
    assert '<option value="fox_caught" >fox caught (Fuchs)</option>' in form
    fox = {"special_kind_0": "fox_caught", "special_from_0": "Dirk"}  # Dirk is Kontra: Re caught it
    recorded = post_deal(phone, "night", deal(["Ben", "Clara"], 151, **fox))
    assert recorded.status_code == 303, recorded.text
    points = standings(db)["deals"][0]["points"]
    assert points["Ben"] == 3 and points["Dirk"] == -3  # won (1), Kontra under 90 (1), Re's fox (1)


def test_a_special_point_without_whose_or_party_is_named_by_its_kind(db: Path) -> None:
    phone = joined(app_for(db))
    fox = post_deal(phone, "night", deal(["Ben", "Clara"], 151, special_kind_0="fox_caught"))
    assert fox.status_code == 422 and "fox caught (Fuchs): say whose card was caught" in fox.text
    odd = post_deal(phone, "night", deal(["Ben", "Clara"], 151, special_kind_0="fuchs", special_party_0="re"))
    assert odd.status_code == 422 and "special points: choose one of fox caught (Fuchs)" in odd.text
    assert "&#39;fox_caught&#39;" not in fox.text and "'fox_caught'" not in fox.text
    api = client(app_for(db))
    body = {"version": 1, "deal": {"re": ["Ben", "Clara"], "re_points": 151, "specials": [{"kind": "fox_caught"}]}}
    refused = api.post("/api/nights/night/deals", json=body, headers=API_WRITE)
    assert refused.json() == {"error": "fox caught (Fuchs): say whose card was caught"}


def test_what_changed_meanwhile_counts_deals_not_game_ids(db: Path) -> None:
    phone = joined(app_for(db))
    post_deal(phone, "night", deal(["Ben", "Clara"], 151))
    post_deal(phone, "night", deal(["Anna", "Clara"], 151))
    with Ledger.open(db) as ledger:
        nights = card_nights(ledger)
        version = nights.version("night")
        facts = SummaryRecord("normal", ("Ben", "Clara"), 100)
        nights.correct("night", "1", facts, by="Anna", at="2026-12-01T19:00:00+00:00")
        nights.undo("night", by="Anna", at="2026-12-01T19:01:00+00:00", whole_deal=True)
        told = nights.change_since("night", version)
    assert str(told) == "deal 1 was just corrected (by Anna); deal 2 was just taken back (by Anna)"
    night = phone.get("/nights/night").text
    assert 'Taken back: <a href="/games/night-02" title="night-02">deal 2</a>.' in night


def test_a_stale_undo_says_which_deal_was_taken_back(db: Path) -> None:
    phone, other = joined(app_for(db)), joined(app_for(db), "Clara")
    post_deal(phone, "night", deal(["Ben", "Clara"], 151))
    page = phone.get("/nights/night").text
    other_page = other.get("/nights/night").text
    assert other.post("/nights/night/undo", data={"csrf": csrf_of(other_page), "version": version_of(other_page)})
    refused = phone.post("/nights/night/undo", data={"csrf": csrf_of(page), "version": version_of(page)})
    assert refused.status_code == 409
    assert "deal 1 was just taken back (by Clara): nothing was taken back" in refused.text


def test_the_start_form_says_what_a_night_id_takes_and_offers_to_close_the_open_night(db: Path) -> None:
    phone = joined(app_for(db))
    home = phone.get("/").text
    takes = "letters, digits, &#39;.&#39;, &#39;_&#39; and &#39;-&#39; (at most 100), starting with a letter or digit"
    assert f'title="{takes}"' in home and f"The night's name: {takes}" in home
    assert 'Night <a href="/nights/night">night</a> is still open' in home and "doko session close" not in home
    start = {"csrf": csrf_of(home), "session_id": "second", "rules": "preset:standard"}
    refused = phone.post("/nights", data=start | {f"player_{i}": p for i, p in enumerate(("Zoe", "Yann", "Xi", "Wu"))})
    assert refused.status_code == 422 and "`doko" not in refused.text
    closed = phone.post("/nights/night/close", data={"csrf": csrf_of(home), "then": "start"})
    assert closed.status_code == 303 and closed.headers["location"] == "/?closed=night#start"
    after = phone.get("/?closed=night").text
    assert "Night night is closed: start the next one." in after and "is still open" not in after
    again = phone.post("/nights", data=start | {f"player_{i}": p for i, p in enumerate(("Zoe", "Yann", "Xi", "Wu"))})
    assert again.status_code == 303 and again.headers["location"] == "/nights/second"


def test_the_audit_of_a_deal_without_cards_shows_what_it_could_not_check(db: Path) -> None:
    phone = joined(app_for(db))
    post_deal(phone, "night", deal(["Ben", "Clara"], 151))
    audit = phone.get("/games/night-01/audit").text
    assert '– every card legal <span class="muted">(not checked)</span>' in audit
    assert '– 240 card points <span class="muted">(not checked)</span>' in audit
    assert "✓ every card legal" not in audit and "✓ 240 card points" not in audit
    assert "✓ scores sum to zero" in audit
    assert "Everything checked is right; 4 checks could not run (marked –)." in audit


def test_the_audit_claim_takes_a_minus_and_an_empty_field_is_not_claimed(db: Path) -> None:
    phone = joined(app_for(db))
    post_deal(phone, "night", deal(["Ben", "Clara"], 151))
    page = phone.get("/games/night-01").text
    assert 'name="claim_0" type="text" inputmode="text" pattern="[+\\-]?[0-9]{1,6}"' in page
    assert 'inputmode="numeric"' not in page.split('id="audit"')[1].split("</form>")[0]
    assert "with a minus for a loss (-3)" in page
    partial = phone.get("/games/night-01/audit", params={"claim_0": "+2", "claim_1": "+2", "claim_2": "-2"})
    assert partial.status_code == 422
    assert "the claimed result must name every player: Emil missing" in partial.text  # not read as 0
    right = phone.get(
        "/games/night-01/audit", params={"claim_0": "+2", "claim_1": "2", "claim_2": "-2", "claim_3": "-2"}
    )
    assert right.status_code == 200 and "The claim" in right.text and "could not run" in right.text
    shown = phone.get(
        "/games/night-01/audit", params={"claim_0": "+3", "claim_1": "+3", "claim_2": "-3", "claim_3": "-3"}
    ).text
    assert 'id="first-because">First: one line of the score' in shown


def test_an_undo_posted_twice_takes_back_one_deal(db: Path) -> None:
    phone = joined(app_for(db))
    post_deal(phone, "night", deal(["Ben", "Clara"], 151))
    post_deal(phone, "night", deal(["Anna", "Clara"], 151))
    page = phone.get("/nights/night").text
    found = re.search(r'name="request_id" value="([^"]+)"', page)
    assert found is not None
    form = {"csrf": csrf_of(page), "version": version_of(page), "request_id": found.group(1)}
    first, again = phone.post("/nights/night/undo", data=form), phone.post("/nights/night/undo", data=form)
    assert first.status_code == again.status_code == 303
    assert first.headers["location"] == again.headers["location"] == "/nights/night?taken_back=night-02"
    assert [d["game_id"] for d in standings(db)["deals"]] == ["night-01"]


def test_the_api_undo_and_correct_sent_again_answer_as_the_first(db: Path) -> None:
    api = client(app_for(db))
    for re_players in (["Ben", "Clara"], ["Anna", "Clara"]):
        version = api.get("/api/nights/night/standings").json()["version"]
        body = {"version": version, "deal": {"re": re_players, "re_points": 151}}
        assert api.post("/api/nights/night/deals", json=body, headers=API_WRITE).status_code == 201
    version = api.get("/api/nights/night/standings").json()["version"]
    once = {**API_WRITE, "idempotency-key": "undo-1"}
    first = api.post("/api/nights/night/undo", json={"version": version}, headers=once)
    again = api.post("/api/nights/night/undo", json={"version": version}, headers=once)
    assert first.status_code == again.status_code == 200
    assert first.json()["taken_back"] == again.json()["taken_back"] == "night-02"
    assert (first.json()["repeated"], again.json()["repeated"]) == (False, True)
    version = first.json()["version"]
    fix = {"version": version, "deal": {"re": ["Ben", "Clara"], "re_points": 100}, "request_id": "fix-1"}
    corrected = api.post("/api/nights/night/deals/1/correct", json=fix, headers=API_WRITE)
    repeated = api.post("/api/nights/night/deals/1/correct", json=fix, headers=API_WRITE)
    assert corrected.status_code == repeated.status_code == 200, repeated.text
    assert corrected.json()["game_id"] == repeated.json()["game_id"] == "night-01-c1"
    assert repeated.json()["repeated"] is True and repeated.json()["score"] == corrected.json()["score"]
    view = standings(db)
    assert [d["game_id"] for d in view["deals"]] == ["night-01-c1"]
    with Ledger.open(db) as ledger:
        assert card_nights(ledger).version("night") == repeated.json()["version"]


def test_the_bock_preview_says_what_the_standings_count(ledger_path: Path) -> None:
    start_night(ledger_path, bock_triggers=["tie"])
    phone = joined(app_for(ledger_path))
    post_deal(phone, "night", deal(["Ben", "Clara"], 120))  # a tie: bock for the next deals
    shown = post_deal(phone, "night", deal(["Clara", "Dirk"], 151), action="preview").text
    assert "Bock ×2 in force: this deal counts +4 for each winner (the game's +2 ×2), as shown above." in shown
    assert "times." not in shown


def test_the_games_list_shows_the_night_the_deal_thrown_in_and_the_score(db: Path) -> None:
    phone = joined(app_for(db))
    post_deal(phone, "night", deal(["Ben", "Clara"], 151))
    post_deal(phone, "night", {"misdeal": "1"})
    games = phone.get("/games").text
    first, second = games.split('href="/games/night-01"')[1], games.split('href="/games/night-02"')[1]
    assert '<a href="/nights/night">night</a> · deal 1' in first.split("</tr>")[0]
    assert "Ben +2, Clara +2, Dirk -2, Emil -2" in first.split("</tr>")[0]
    assert "· deal 2</td>\n<td>thrown in</td>" in second.split("</tr>")[0]
