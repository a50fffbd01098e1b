"""The record form's "value only" entry: the winners as toggles of the four playing, the value
as chips (1-8, a number field for more), solo as a toggle, recorded in four taps with the
form's version and request id; refusals in the library's words (422, nothing written); a night
of facts and values mixed, its standings, its pages and its night.yaml download."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from backends import ledger_path_on_both  # noqa: F401  (every test on both databases)
from web_helpers import app_for, deal, form_of, joined, post_deal, standings, start_night

from doko_ledger.doppelkopf.files import night_file


@pytest.fixture
def db(ledger_path: Path) -> Path:
    start_night(ledger_path, bock_triggers=["lost_solo"])  # Anna, Ben, Clara, Dirk, Emil; Anna deals first
    return ledger_path


def by_value(winners: list[str], value: int | str, *, more: bool = False, solo: bool = False) -> dict[str, Any]:
    """The value form's fields: the winners tapped, a value chip (or the number field), the solo toggle."""
    fields: dict[str, Any] = {"entry": "value", "winner": winners}
    fields["value_more" if more else "value"] = str(value)
    return fields | ({"solo": "1"} if solo else {})


def test_the_value_form_offers_the_four_playing_the_chips_and_solo(db: Path) -> None:
    page = joined(app_for(db), "Ben").get("/nights/night/record").text
    form = page.split('id="value-form"')[1].split("</form>")[0]
    assert re.findall(r'name="winner" value="(\w+)"', form) == ["Ben", "Clara", "Dirk", "Emil"]  # Anna sits out
    assert re.findall(r'type="radio" name="value" value="(\d+)"', form) == [str(v) for v in range(1, 9)]
    assert 'name="value_more"' in form and 'name="solo" value="1"' in form
    assert 'name="version" value="1"' in form and 'name="deal" value="1"' in form
    assert re.search(r'name="request_id" value="[\w-]+"', form)
    assert 'name="action" value="record"' in form  # no preview needed: four taps record it


def test_four_taps_record_a_deal_by_its_value(db: Path) -> None:
    answer = post_deal(joined(app_for(db), "Ben"), "night", by_value(["Ben", "Clara"], 3))
    assert answer.status_code == 303 and answer.headers["location"] == "/nights/night?new=night-01"
    [first] = standings(db)["deals"]
    assert first["points"] == {"Anna": 0, "Ben": 3, "Clara": 3, "Dirk": -3, "Emil": -3}
    assert first["value_only"] == "Ben, Clara won; value 3"


def test_a_value_preview_shows_its_one_line_and_records_nothing(db: Path) -> None:
    answer = post_deal(joined(app_for(db), "Ben"), "night", by_value(["Dirk"], 12, more=True, solo=True), "preview")
    assert answer.status_code == 200
    preview = answer.text.split('id="value-form"')[1].split("</form>")[0]
    assert "<td>value only" in preview and "Dirk won a solo; value 12, three times for the lone player" in preview
    assert "<strong>Dirk</strong> +36" in preview and "Re wins" not in preview
    assert 'value="12"' in preview  # the number field keeps the value above the chips
    assert standings(db)["deals"] == []


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        (by_value([], 3), "tap the winners (one, two or three of the four playing)"),
        (by_value(["Anna", "Ben"], 3), "&#39;Anna&#39; sits out deal 1 (Anna deals)"),
        (by_value(["Ben", "Clara", "Dirk", "Emil"], 3), "all four won: a deal has one to three winners"),
        (by_value(["Ben", "Clara"], 150, more=True), "a deal&#39;s value is a whole number from 0 to 99"),
        (by_value(["Ben", "Clara"], "x"), "the value: give a whole number"),
        (by_value(["Ben", "Clara"], 2, solo=True), "the solo mark needs a player alone"),
    ],
)
def test_a_value_entry_the_library_refuses_is_a_422_in_its_words(db: Path, fields: dict[str, Any], words: str) -> None:
    answer = post_deal(joined(app_for(db), "Ben"), "night", fields)
    assert answer.status_code == 422
    assert re.search(r'<p class="error" role="alert" id="form-error">[^<]*' + re.escape(words), answer.text)
    assert standings(db)["deals"] == []
    form = answer.text.split('id="value-form"')[1].split("</form>")[0]
    for winner in fields["winner"]:
        if winner != "Anna":  # Anna sits out: she has no toggle
            assert f'name="winner" value="{winner}" checked' in form  # the taps kept, to fix and send again


def test_a_night_of_facts_and_values_stands_as_the_rules_give_it(db: Path) -> None:
    app = app_for(db)
    ben = joined(app, "Ben")
    assert post_deal(ben, "night", by_value(["Ben", "Clara"], 3)).status_code == 303  # Anna sits out
    assert post_deal(ben, "night", deal(["Clara", "Dirk"], 151)).status_code == 303  # Ben sits out: Re +2
    assert post_deal(ben, "night", by_value(["Emil", "Anna", "Ben"], 2, solo=True)).status_code == 303  # Dirk lost
    assert post_deal(ben, "night", deal(["Emil", "Anna"], 151)).status_code == 303  # in bock, twice the points
    night = standings(db)
    rows = night["deals"]
    assert [row["points"] for row in rows] == [
        {"Anna": 0, "Ben": 3, "Clara": 3, "Dirk": -3, "Emil": -3},
        {"Anna": -2, "Ben": 0, "Clara": 2, "Dirk": 2, "Emil": -2},
        {"Anna": 2, "Ben": 2, "Clara": 0, "Dirk": -6, "Emil": 2},
        {"Anna": 4, "Ben": -4, "Clara": -4, "Dirk": 0, "Emil": 4},
    ]
    assert [row.get("value_only") for row in rows] == [
        "Ben, Clara won; value 3",
        None,
        "Dirk lost a solo; value 2",
        None,
    ]
    assert (rows[3]["multiplier"], rows[3]["bock"]) == (2, "deal 3, lost solo")
    assert {row["player"]: row["total"] for row in night["table"]} == {
        "Anna": 4,
        "Ben": 1,
        "Clara": 1,
        "Dirk": -7,
        "Emil": 1,
    }
    page = ben.get("/nights/night").text
    assert page.count("value only</a>") == 2 and "Dirk lost a solo; value 2" in page
    game = ben.get("/games/night-03").text
    assert "<td>value only" in game and "Re wins" not in game and "Kontra wins" not in game


def test_the_night_yaml_download_round_trips_a_night_with_value_deals(db: Path) -> None:
    ben = joined(app_for(db), "Ben")
    post_deal(ben, "night", by_value(["Ben", "Clara"], 3))
    post_deal(ben, "night", deal(["Clara", "Dirk"], 151))
    post_deal(ben, "night", by_value(["Emil", "Anna", "Ben"], 2, solo=True))
    text = ben.get("/nights/night/night.yaml").text
    assert "  - {winners: [Ben, Clara], value: 3}" in text
    assert "  - {losers: [Dirk], value: 2, solo: true}" in text
    loaded = night_file.loads(text)
    assert night_file.dumps(loaded) == text
    again = night_file.to_night(loaded).schedule().rows
    assert [row.deltas for row in again] == [row["points"] for row in standings(db)["deals"]]


def test_a_value_deal_is_corrected_from_its_own_form(db: Path) -> None:
    ben = joined(app_for(db), "Ben")
    post_deal(ben, "night", by_value(["Ben", "Clara"], 3))
    page = ben.get("/nights/night/deals/night-01/correct").text
    form = page.split('id="value-form"')[1].split("</form>")[0]
    assert 'action="/nights/night/deals/night-01/correct"' in page.split('id="value-form"')[0][-200:] + form
    assert 'name="winner" value="Ben" checked' in form and 'name="winner" value="Clara" checked' in form
    assert 'name="value" value="3" checked' in form
    data = {**form_of(page), "action": "record", **by_value(["Dirk"], 1)}
    answer = ben.post("/nights/night/deals/night-01/correct", data=data)
    assert answer.status_code == 303
    [first] = standings(db)["deals"]
    assert first["points"] == {"Anna": 0, "Ben": -1, "Clara": -1, "Dirk": 3, "Emil": -1}
    assert first["value_only"] == "Dirk won alone; value 1"


def test_a_value_form_for_a_deal_recorded_meanwhile_offers_its_taps_for_the_next_deal(db: Path) -> None:
    app = app_for(db)
    ben, dirk = joined(app, "Ben"), joined(app, "Dirk")
    dirks_form = form_of(dirk.get("/nights/night/record").text)
    assert post_deal(ben, "night", by_value(["Ben", "Clara"], 3)).status_code == 303
    stale = dirk.post("/nights/night/record", data={**dirks_form, "action": "record", **by_value(["Dirk"], 2)})
    assert stale.status_code == 409 and "Deal 1 is already recorded" in stale.text
    offered = re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', stale.text.split('id="stale"')[1])
    posted: dict[str, list[str]] = {"action": ["fill"]}
    for name, value in offered:
        posted.setdefault(name, []).append(value)
    filled = dirk.post("/nights/night/record", data=posted)
    form = filled.text.split('id="value-form"')[1].split("</form>")[0]
    assert filled.status_code == 200 and 'name="deal" value="2"' in form
    assert 'name="winner" value="Dirk" checked' in form and 'name="value" value="2" checked' in form
    assert len(standings(db)["deals"]) == 1  # filled, not recorded
