"""The record form's bock mark: none, Bock, Doppelbock or Triplebock tapped on the facts entry or
the value entry, declared by the phone's player (or the player chosen), recorded with the deal in
one write; the preview shows the bock it adds; undo takes back both; a retry writes nothing
twice; refusals in the library's words (422, nothing written)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from backends import ledger_path_on_both  # noqa: F401  (every test on both databases)
from web_helpers import app_for, deal, form_of, joined, post_deal, start_night

from doko_ledger.doppelkopf.book import card_nights
from doko_ledger.doppelkopf.nights.events import BockDeclared, DealAdded
from doko_ledger.doppelkopf.nights.standings import Standings
from doko_ledger.ledger import Ledger

FOUR = ("Anna", "Ben", "Clara", "Dirk")


def night(db: Path) -> Standings:
    with Ledger.open(db) as ledger:
        return card_nights(ledger).standings("night")


def session_events(db: Path) -> list[Any]:
    with Ledger.open(db) as ledger:
        return [r.event for r in card_nights(ledger).changes_since("night", 0)]


def marked(rounds: int, **more: str) -> dict[str, str]:
    return {"bock": str(rounds), **more}


@pytest.fixture
def db(ledger_path: Path) -> Path:
    start_night(ledger_path, players=FOUR, bock_overlap="stack")
    return ledger_path


def test_both_entries_offer_the_mark_as_taps_with_the_phone_player_declaring(db: Path) -> None:
    html = joined(app_for(db), "Ben").get("/nights/night/record").text
    for form_id, mark_id in (("deal-form", "bock-mark"), ("value-form", "value-bock-mark")):
        form = html.split(f'id="{form_id}"')[1].split("</form>")[0]
        mark = form.split(f'id="{mark_id}"')[1].split("</fieldset>")[0]
        assert re.findall(r'name="bock" value="(\d)"', mark) == ["0", "1", "2", "3"]
        assert re.findall(r"<span>(\w+)</span>", mark) == ["none", "Bock", "Doppelbock", "Triplebock"]
        assert 'name="bock" value="0" checked' in mark
        assert re.findall(r'<option value="(\w+)" selected', mark) == ["Ben"]
        assert 'placeholder="marked with the deal"' in mark


def test_a_watcher_chooses_who_declares(db: Path) -> None:
    html = joined(app_for(db), "Zoe", watcher=True).get("/nights/night/record").text
    mark = html.split('id="bock-mark"')[1].split("</fieldset>")[0]
    assert '<option value="">choose who declares it</option>' in mark and " selected" not in mark
    assert re.findall(r'<option value="(\w+)"', mark) == list(FOUR)


def test_a_doppelbock_mark_is_recorded_with_the_deal_in_one_post(db: Path) -> None:
    answer = post_deal(joined(app_for(db), "Ben"), "night", deal(["Anna", "Ben"], 151) | marked(2))
    assert answer.status_code == 303, answer.text
    table = night(db)
    [cause] = table.bock_causes
    assert (cause.deal, cause.declared_by, cause.reason, cause.triggers) == (
        1,
        "Ben",
        "marked with the deal",
        ("declared",),
    )
    assert table.next.bock is not None and table.next.bock.multiplier == 4  # stacking: two rounds at once, x2 x2
    *_, added, declared = session_events(db)
    assert isinstance(added, DealAdded) and isinstance(declared, BockDeclared)
    assert (declared.game_id, declared.rounds) == (added.game_id, 2)
    with Ledger.open(db) as ledger:  # one write: the deal, its game and its bock, with one time
        log = list(ledger.store.read_all())
    last = [r.envelope.event_type for r in log if r.envelope.recorded_at == log[-1].envelope.recorded_at]
    assert {"DealAdded", "BockDeclared", "GameStarted"} <= set(last)


def test_the_value_entry_marks_bock_declared_by_the_player_chosen(db: Path) -> None:
    fields = {"entry": "value", "winner": ["Clara"], "value": "2", "solo": "1"} | marked(
        3, bock_by="Dirk", bock_reason="Hochzeit lost"
    )
    assert post_deal(joined(app_for(db), "Ben"), "night", fields).status_code == 303
    [cause] = night(db).bock_causes
    assert (cause.declared_by, cause.reason) == ("Dirk", "Hochzeit lost")
    assert night(db).next.bock is not None and night(db).next.bock.multiplier == 8


def test_the_preview_shows_the_bock_the_mark_adds_and_records_nothing(db: Path) -> None:
    answer = post_deal(joined(app_for(db), "Ben"), "night", deal(["Anna", "Ben"], 151) | marked(2), "preview")
    assert answer.status_code == 200
    shown = re.search(r'<p class="bock" id="bock-marked">([^<]+)</p>', answer.text)
    assert shown, answer.text
    assert "bock declared by Ben (marked with the deal): 2 rounds" in shown.group(1)
    assert "Deal 2 then counts bock x4" in shown.group(1)
    assert 'name="bock" value="2" checked' in answer.text  # the tap kept
    assert night(db).rows == () and not night(db).bock_causes


def test_undo_takes_back_the_deal_and_its_bock(db: Path) -> None:
    phone = joined(app_for(db), "Ben")
    assert post_deal(phone, "night", deal(["Anna", "Ben"], 151) | marked(2)).status_code == 303
    html = phone.get("/nights/night").text
    undo = html.split('action="/nights/night/undo"')[1].split("</form>")[0]
    hidden = dict(re.findall(r'type="hidden" name="(\w+)" value="([^"]*)"', undo))
    assert phone.post("/nights/night/undo", data=hidden).status_code in (200, 303)
    assert night(db).rows == () and not night(db).bock_causes


def test_a_retry_with_the_same_request_id_writes_nothing_twice(db: Path) -> None:
    phone = joined(app_for(db), "Ben")
    page = phone.get("/nights/night/record").text
    data = {**form_of(page), "action": "record", **deal(["Anna", "Ben"], 151), **marked(2)}
    first = phone.post("/nights/night/record", data=data)
    again = phone.post("/nights/night/record", data=data)
    assert first.status_code == again.status_code == 303
    assert again.headers["location"] == first.headers["location"]
    assert len(night(db).rows) == 1 and len(night(db).bock_causes) == 1
    assert [type(e).__name__ for e in session_events(db)].count("BockDeclared") == 1


@pytest.mark.parametrize(
    ("mark", "words"),
    [
        (marked(4), "bock is declared for 1 to 3 rounds at once, not 4"),
        (marked(1, bock_by="Zoe"), "who declares bock: &#39;Zoe&#39; is not at the table (Anna, Ben, Clara, Dirk)"),
        (marked(1, bock_by="Ben", bock_reason="x" * 200), "the reason"),
        ({"bock": "two"}, "bock rounds: give a whole number"),
    ],
)
def test_a_mark_the_library_refuses_is_a_422_and_writes_nothing(db: Path, mark: dict[str, str], words: str) -> None:
    answer = post_deal(joined(app_for(db), "Ben"), "night", deal(["Anna", "Ben"], 151) | mark)
    assert answer.status_code == 422
    assert re.search(r'<p class="error" role="alert" id="form-error">[^<]*' + re.escape(words), answer.text)
    assert night(db).rows == () and not night(db).bock_causes
