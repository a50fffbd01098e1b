"""The phone's record form offers "heart trick" only when the rules in force make it a bock
trigger (docs/rules.md §9); ticked, the deal records it and the next deal is a bock deal; the
JSON API takes it too."""

from __future__ import annotations

from pathlib import Path

from web_helpers import CODE, app_for, client, deal, joined, post_deal, standings, start_night

TOGGLE = 'name="heart_trick" value="1"'


def test_the_toggle_is_offered_only_where_a_heart_trick_starts_bock(tmp_path: Path) -> None:
    plain, hearts = tmp_path / "plain.sqlite", tmp_path / "hearts.sqlite"
    start_night(plain, bock_triggers=["tie"])
    start_night(hearts, bock_triggers=["heart_trick"])
    assert TOGGLE not in joined(app_for(plain)).get("/nights/night/record").text
    assert TOGGLE in joined(app_for(hearts)).get("/nights/night/record").text


def test_a_ticked_heart_trick_starts_a_bock_round(tmp_path: Path) -> None:
    db = tmp_path / "ledger.sqlite"
    start_night(db, bock_triggers=["heart_trick"])
    phone = joined(app_for(db))
    assert post_deal(phone, "night", deal(["Ben", "Clara"], 130, heart_trick="1")).status_code == 303
    night = standings(db)
    assert night["next"]["multiplier"] == 2
    assert post_deal(phone, "night", deal(["Clara", "Dirk"], 130)).status_code == 303
    first, second = standings(db)["deals"]
    assert first["bock"] is None and second["bock"] == "deal 1, trick of four hearts"


def test_a_correction_form_shows_the_recorded_heart_trick(tmp_path: Path) -> None:
    db = tmp_path / "ledger.sqlite"
    start_night(db, bock_triggers=["heart_trick"])
    phone = joined(app_for(db))
    post_deal(phone, "night", deal(["Ben", "Clara"], 130, heart_trick="1"))
    page = phone.get("/nights/night/deals/night-01/correct").text
    assert f"{TOGGLE} checked" in page


def test_the_api_takes_the_heart_trick(tmp_path: Path) -> None:
    db = tmp_path / "ledger.sqlite"
    start_night(db, bock_triggers=["heart_trick"])
    api = client(app_for(db))
    body = {"version": 1, "deal": {"re": ["Ben", "Clara"], "re_points": 130, "heart_trick": True}}
    answer = api.post("/api/nights/night/deals", json=body, headers={"x-join-code": CODE, "x-doko-user": "script"})
    assert answer.status_code in (200, 201), answer.text
    assert standings(db)["next"]["multiplier"] == 2
