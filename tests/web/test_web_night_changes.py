"""The night page's changes from the next deal: the rules (every option, prefilled with the rules
in force), someone joins after a chosen player, someone leaves, the bock button; each form
carries the night's version and a request id like the deal form. The page shows the bock rounds
in force and queued, the counting in force, and each change at the deal it took effect."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from web_helpers import app_for, client, csrf_of, deal, joined, post_deal, start_night

from doko_ledger.doppelkopf.book import card_nights, house_rules
from doko_ledger.doppelkopf.rules.ruleset import rules_from_mapping
from doko_ledger.ledger import Ledger

FIVE = ("Anna", "Ben", "Clara", "Dirk", "Emil")
FOUR = FIVE[:4]


def form(html: str, action: str) -> dict[str, Any]:
    """The hidden fields of the form posting to `action`: CSRF token, version and request id."""
    found = html.split(f'action="{action}"')[1].split("</form>")[0]
    fields = dict(re.findall(r'type="hidden" name="(csrf|version|request_id|deal|options)" value="([^"]*)"', found))
    assert {"csrf", "version", "request_id"} <= set(fields), found[:300]
    return fields


def rule_fields(html: str) -> dict[str, list[str]]:
    """The rules form's option fields as a browser would post them."""
    found = html.split('action="/nights/night/rules"')[1].split("</form>")[0]
    posted: dict[str, list[str]] = {}
    for tag in re.findall(r"<input[^>]*>", found):
        name = re.search(r'name="(rule\.[a-z_0-9]+)"', tag)
        if name and ('type="number"' in tag or " checked" in tag):
            posted.setdefault(name.group(1), []).append(re.search(r'value="([^"]*)"', tag).group(1))  # type: ignore[union-attr]
    for name, options in re.findall(r'<select name="(rule\.[a-z_0-9]+)">(.*?)</select>', found, flags=re.S):
        posted[name] = re.findall(r'<option value="([^"]*)" selected', options)
    return posted


def standings(db: Path) -> Any:
    with Ledger.open(db) as ledger:
        return card_nights(ledger).standings("night")


def page(phone: Any) -> str:
    return str(phone.get("/nights/night").text)


def test_the_rules_form_is_prefilled_with_the_rules_in_force(ledger_path: Path) -> None:
    start_night(ledger_path, players=FOUR, bock_triggers=["tie"], bock_overlap="stack")
    html = page(joined(app_for(ledger_path)))
    fields = rule_fields(html)
    assert fields["rule.bock_triggers"] == ["tie"] and fields["rule.bock_overlap"] == ["stack"]
    assert fields["rule.counting"] == ["plus_minus"] and fields["rule.bock_multiplier"] == ["2"]
    assert '<option value="night:night" data-values=' in html  # the rules in force come first
    assert "Changes from standard: bock triggers=tie; bock overlap=stack" in html


def test_change_the_rules_from_the_next_deal(ledger_path: Path) -> None:
    start_night(ledger_path, players=FOUR)
    phone = joined(app_for(ledger_path))
    assert post_deal(phone, "night", deal(["Anna", "Ben"], 151)).status_code == 303
    html = page(phone)
    posted = {**form(html, "/nights/night/rules"), "rules": "night:night", **rule_fields(html)}
    posted["rule.counting"] = ["winners_only"]
    changed = phone.post("/nights/night/rules", data=posted)
    assert changed.status_code == 303, changed.text
    assert standings(ledger_path).rules.counting == "winners_only"
    shown = phone.get(changed.headers["location"]).text
    assert re.search(r'<p class="ok recorded" role="status" id="changed">[^<]*rules', shown)
    assert "Counting: winners only" in shown
    assert post_deal(phone, "night", deal(["Anna", "Ben"], 151)).status_code == 303
    shown = page(phone)
    assert re.search(r'<tr class="change-row"><td colspan="6">From deal 2: [^<]*rules', shown)


def test_change_the_rules_to_saved_house_rules(ledger_path: Path) -> None:
    start_night(ledger_path, players=FOUR)
    kitchen = rules_from_mapping({"preset": "standard", "bock_triggers": ["heart_trick"], "bock_effect": "extra_point"})
    with Ledger.open(ledger_path) as ledger:
        house_rules(ledger).save("kitchen", kitchen, by="t", at="2026-12-01T18:00:00+00:00")
    phone = joined(app_for(ledger_path))
    html = page(phone)
    assert '<option value="saved:kitchen"' in html
    posted = {**form(html, "/nights/night/rules"), "rules": "saved:kitchen"}  # no option fields: the set as it is
    posted.pop("options", None)
    assert phone.post("/nights/night/rules", data=posted).status_code == 303
    assert standings(ledger_path).rules == kitchen


def test_someone_joins_after_a_chosen_player_and_someone_leaves(ledger_path: Path) -> None:
    start_night(ledger_path, players=FOUR)
    phone = joined(app_for(ledger_path))
    html = page(phone)
    joined_at = phone.post(
        "/nights/night/join", data={**form(html, "/nights/night/join"), "player": "Erik", "after": "Ben"}
    )
    assert joined_at.status_code == 303, joined_at.text
    assert standings(ledger_path).seating == ("Anna", "Ben", "Erik", "Clara", "Dirk")
    assert "Erik" in phone.get(joined_at.headers["location"]).text
    html = page(phone)
    left = phone.post("/nights/night/leave", data={**form(html, "/nights/night/leave"), "player": "Anna"})
    assert left.status_code == 303, left.text
    assert standings(ledger_path).seating == ("Ben", "Erik", "Clara", "Dirk")
    html = page(phone)
    refused = phone.post("/nights/night/leave", data={**form(html, "/nights/night/leave"), "player": "Ben"})
    assert refused.status_code == 422  # never fewer than four at the table
    assert re.search(r'<p class="error" role="alert">[^<]+', refused.text)
    assert standings(ledger_path).seating == ("Ben", "Erik", "Clara", "Dirk")


def test_the_bock_button_declares_rounds_shown_in_force_and_queued(ledger_path: Path) -> None:
    start_night(ledger_path, players=FOUR)
    phone = joined(app_for(ledger_path), "Anna")
    html = page(phone)
    posted = {**form(html, "/nights/night/bock"), "rounds": "2", "declared_by": "Anna", "reason": "a Hochzeit"}
    declared = phone.post("/nights/night/bock", data=posted)
    assert declared.status_code == 303, declared.text
    shown = phone.get(declared.headers["location"]).text
    assert re.search(r"declared by Anna \(a Hochzeit\)", shown)
    assert 'id="bock-rounds"' in shown
    with Ledger.open(ledger_path) as ledger:
        causes = card_nights(ledger).standings("night").bock_causes
    assert causes and causes[0].declared_by == "Anna"


def test_a_bock_with_the_last_deal_goes_when_the_deal_is_taken_back(ledger_path: Path) -> None:
    start_night(ledger_path, players=FOUR)
    phone = joined(app_for(ledger_path), "Anna")
    assert post_deal(phone, "night", deal(["Anna", "Ben"], 151)).status_code == 303
    html = page(phone)
    posted = {**form(html, "/nights/night/bock"), "rounds": "1", "declared_by": "Ben", "with_deal": "1"}
    assert posted["deal"] == "1"
    assert phone.post("/nights/night/bock", data=posted).status_code == 303
    assert standings(ledger_path).bock_causes
    with Ledger.open(ledger_path) as ledger:
        card_nights(ledger).undo("night", by="t", at="2026-12-01T21:00:00+00:00", whole_deal=True)
    assert not standings(ledger_path).bock_causes and not standings(ledger_path).rows


def test_a_form_made_before_another_write_changes_nothing(ledger_path: Path) -> None:
    start_night(ledger_path, players=FOUR)
    phone = joined(app_for(ledger_path))
    stale = form(page(phone), "/nights/night/join")
    assert post_deal(phone, "night", deal(["Anna", "Ben"], 151)).status_code == 303
    answer = phone.post("/nights/night/join", data={**stale, "player": "Erik", "after": "Dirk"})
    assert answer.status_code == 409
    assert "nothing was changed from this form" in answer.text
    assert "Erik" not in standings(ledger_path).seating


def test_a_change_sent_twice_is_made_once(ledger_path: Path) -> None:
    start_night(ledger_path, players=FOUR)
    phone = joined(app_for(ledger_path))
    posted = {**form(page(phone), "/nights/night/join"), "player": "Erik", "after": "Dirk"}
    assert phone.post("/nights/night/join", data=posted).status_code == 303
    again = phone.post("/nights/night/join", data=posted)
    assert again.status_code == 303
    assert standings(ledger_path).seating.count("Erik") == 1


@pytest.mark.parametrize(
    ("action", "fields", "status", "words"),
    [
        ("rules", {"rules": "night:night", "options": "1", "rule.nope": "1"}, 422, "unknown rule option"),
        (
            "rules",
            {"rules": "night:night", "options": "1", "rule.counting": "both"},
            422,
            "&#39;counting&#39; takes one of",
        ),
        ("rules", {"rules": "saved:nothing"}, 422, "unknown rules"),
        ("bock", {"rounds": "x", "declared_by": "Anna"}, 422, "bock rounds: give a whole number"),
        ("bock", {"rounds": "9", "declared_by": "Anna"}, 422, ""),
        ("bock", {"rounds": "1", "declared_by": "Anna", "reason": "x" * 200}, 422, "the reason"),
        ("bock", {"rounds": "1", "declared_by": "Anna", "with_deal": "1", "deal": "7"}, 422, ""),
        ("bock", {"rounds": "1", "declared_by": "Anna", "with_deal": "1", "deal": "x"}, 422, "deal: "),
        ("join", {"player": "E" * 200, "after": "Anna"}, 422, ""),
        ("join", {"player": "Ben", "after": "Anna"}, 422, ""),
        ("join", {"player": "Erik", "after": "Zed"}, 422, ""),
        ("leave", {"player": "Zed"}, 422, ""),
        ("join", {"player": "Erik", "version": "x"}, 422, "the form has no night version"),
        ("join", {"player": "Erik", "request_id": "bad id!"}, 422, "request id"),
    ],
)
def test_a_bad_or_hostile_change_is_refused_and_writes_nothing(
    ledger_path: Path, action: str, fields: dict[str, str], status: int, words: str
) -> None:
    start_night(ledger_path, players=FOUR)
    phone = joined(app_for(ledger_path))
    with Ledger.open(ledger_path) as ledger:
        before = card_nights(ledger).version("night")
    html = page(phone)
    options = rule_fields(html) if action == "rules" else {}
    answer = phone.post(f"/nights/night/{action}", data={**form(html, f"/nights/night/{action}"), **options, **fields})
    assert answer.status_code == status, answer.text[:2000]
    assert re.search(r'<p class="error" role="alert">[^<]*' + re.escape(words), answer.text)
    with Ledger.open(ledger_path) as ledger:
        assert card_nights(ledger).version("night") == before


def test_a_change_without_the_join_is_refused(ledger_path: Path) -> None:
    start_night(ledger_path, players=FOUR)
    stranger = client(app_for(ledger_path))
    token = csrf_of(stranger.get("/join").text)
    assert (
        stranger.post("/nights/night/join", data={"csrf": token, "player": "Erik", "version": "1"}).status_code == 403
    )


def test_undo_takes_back_the_newest_change_and_says_which(ledger_path: Path) -> None:
    start_night(ledger_path, players=FOUR)
    phone = joined(app_for(ledger_path))
    assert post_deal(phone, "night", deal(["Anna", "Ben"], 151)).status_code == 303
    assert "Undo deal 1" in page(phone)
    html = page(phone)
    assert (
        phone.post("/nights/night/join", data={**form(html, "/nights/night/join"), "player": "Erik"}).status_code == 303
    )
    html = page(phone)
    assert re.search(r"Undo Erik joins[^<]*</button>", html)
    undone = phone.post("/nights/night/undo", data=form(html, "/nights/night/undo"))
    assert undone.status_code == 200
    assert re.search(r'<p class="ok recorded" role="status" id="undone">Taken back: Erik joins', undone.text)
    assert "Erik" not in standings(ledger_path).seating and len(standings(ledger_path).rows) == 1
    assert "Undo deal 1" in undone.text
