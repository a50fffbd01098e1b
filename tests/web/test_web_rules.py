"""Rules from the phone: the start form offers a preset or saved house rules, then every option
grouped with its value, one line and a link to its section of docs/rules.md (served at /rules);
it saves house rules by name, shows what the choice changes from its preset, and refuses with
the library's words. Hostile posts get a 4xx and write nothing."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from web_helpers import CODE, app_for, client, csrf_of, joined, start_night

from doko_ledger.doppelkopf.book import card_nights, house_rules
from doko_ledger.doppelkopf.rules.options import OPTIONS, SETS
from doko_ledger.doppelkopf.rules.ruleset import preset, rules_from_mapping
from doko_ledger.i18n import render
from doko_ledger.ledger import Ledger

PLAYERS = ("Anna", "Ben", "Clara", "Dirk")
WRITE = {"x-join-code": CODE, "x-doko-user": "script"}
STACKING = rules_from_mapping({"preset": "standard", "bock_triggers": ["tie", "heart_trick"], "bock_overlap": "stack"})


class FormFields(HTMLParser):
    """The fields a browser would post from the form with `action`, as rendered (no submit button)."""

    def __init__(self, action: str) -> None:
        super().__init__()
        self.action, self.inside, self.select = action, False, None
        self.fields: list[tuple[str, str]] = []
        self.first_option: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.inside = a.get("action") == self.action
        elif not self.inside:
            return
        elif tag == "input" and a.get("name") and a.get("type") not in ("submit", "button"):
            if a.get("type") in ("checkbox", "radio") and "checked" not in a:
                return
            self.fields.append((a["name"], a.get("value", "")))
        elif tag == "select":
            self.select = a.get("name")
        elif tag == "option" and self.select:
            self.first_option.setdefault(self.select, a.get("value", ""))
            if "selected" in a:
                self.fields.append((self.select, a.get("value", "")))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        if tag == "select" and self.select:
            if all(name != self.select for name, _ in self.fields):
                self.fields.append((self.select, self.first_option.get(self.select, "")))
            self.select = None


def start_form(html: str) -> list[tuple[str, str]]:
    parser = FormFields("/nights")
    parser.feed(html)
    return parser.fields


def option_value(fields: list[tuple[str, str]], name: str) -> list[str]:
    return [v for k, v in fields if k == f"rule.{name}"]


def with_fields(fields: list[tuple[str, str]], **changes: Any) -> dict[str, list[str]]:
    """The form's fields with some replaced (a list replaces every value of a many-valued field),
    as the test client posts them."""
    posted: dict[str, list[str]] = {}
    for name, value in fields:
        if name not in changes:
            posted.setdefault(name, []).append(value)
    for name, value in changes.items():
        posted[name] = value if isinstance(value, list) else [value]
    return posted


def players(*names: str) -> dict[str, str]:
    return {f"player_{i}": n for i, n in enumerate(names)}


@pytest.fixture
def ledger_db(tmp_path: Path) -> Path:
    db = tmp_path / "ledger.sqlite"
    Ledger.open(db, create=True).close()
    return db


def save_kitchen(db: Path) -> None:
    with Ledger.open(db) as ledger:
        house_rules(ledger).save("kitchen", STACKING, by="setup", at="2026-12-01T18:00:00+00:00")


def night_rules(db: Path, session_id: str) -> Any:
    with Ledger.open(db) as ledger:
        return card_nights(ledger).state(session_id).rules


def test_the_start_form_shows_every_option_grouped_with_its_value_line_and_link(ledger_db: Path) -> None:
    home = joined(app_for(ledger_db)).get("/").text
    groups = re.findall(r'<details class="rule-group" data-group="([^"]+)"', home)
    assert groups == [
        "deck",
        "solos and reservations",
        "announcements",
        "scoring",
        "bock",
        "counting",
        "tournament",
        "card order",
        "extra points",
    ]
    fields = start_form(home)
    standard = preset("standard")
    for entry in OPTIONS:
        block = home[home.index(f'id="option-{entry.name}"') :]
        block = block[: block.index("</div>")]
        assert render(entry.line, "en") in block.replace("&#39;", "'"), entry.name
        assert f'href="/rules#{entry.anchor}"' in block, entry.name
        shown = option_value(fields, entry.name)
        value = getattr(standard, entry.name)
        if entry.kind == "bool":
            assert shown == (["true"] if value else []), entry.name
        elif entry.kind in SETS:
            assert shown == list(value), entry.name
        else:
            assert shown == [entry.text(value)], entry.name
    assert "As the standard preset: nothing changed." in home
    options = home[home.index('<details class="rule-group"') : home.index("Save as house rules")]
    inputs = re.findall(r"<input[^>]*>", options)
    assert len(inputs) > 20 and "<textarea" not in options  # nothing free text among the options
    assert all(re.search(r'type="(checkbox|number)"', i) for i in inputs), inputs
    assert re.search(r'name="rule\.bock_multiplier" min="1" max="100"', home)


def test_the_rules_page_has_every_options_section(ledger_db: Path) -> None:
    page = client(app_for(ledger_db)).get("/rules")
    assert page.status_code == 200
    for anchor in {entry.anchor for entry in OPTIONS}:
        assert f'<a id="{anchor}"></a>' in page.text
    assert "<table>" in page.text and "<code>bock_multiplier</code>" in page.text


def test_the_scoring_in_german_and_the_glossary_are_pages_beside_the_rules(ledger_db: Path) -> None:
    web = client(app_for(ledger_db))
    rules = web.get("/rules", headers={"Accept-Language": "de"}).text
    assert '<a href="/rules/wertung">Die Wertung auf Deutsch</a>' in rules
    wertung = web.get("/rules/wertung")
    assert wertung.status_code == 200 and "<h1>Die Wertung, kurz für den Tisch</h1>" in wertung.text
    assert '<a href="/rules">rules.md</a>' in wertung.text and 'href="/rules/glossary"' in wertung.text
    glossary = web.get("/rules/glossary").text
    assert "Karlchen" in glossary and "Charlot" in glossary and '<a href="/rules">rules.md</a>' in glossary
    assert 'href="/rules/glossary" aria-current="page"' in glossary


def test_choosing_a_saved_set_shows_its_options_and_what_it_changes(ledger_db: Path) -> None:
    save_kitchen(ledger_db)
    phone = joined(app_for(ledger_db))
    home = phone.get("/").text
    assert '<option value="saved:kitchen"' in home
    assert "kitchen: standard, bock_triggers=tie,heart_trick; bock_overlap=stack" in home
    chosen = phone.post("/nights", data=with_fields(start_form(home), rules="saved:kitchen", action="choose"))
    assert chosen.status_code == 200
    fields = start_form(chosen.text)
    assert option_value(fields, "bock_triggers") == ["tie", "heart_trick"]
    assert option_value(fields, "bock_overlap") == ["stack"]
    assert ("rules", "saved:kitchen") in fields
    assert "Changes from standard: bock triggers=tie,heart trick; bock overlap=stack" in chosen.text
    assert 'id="option-bock_overlap"' in chosen.text and "changed, standard has queue" in chosen.text
    with Ledger.open(ledger_db) as ledger:
        assert card_nights(ledger).session_ids() == []  # choosing writes nothing


def test_start_a_night_with_a_saved_set(ledger_db: Path) -> None:
    save_kitchen(ledger_db)
    phone = joined(app_for(ledger_db))
    chosen = phone.post(
        "/nights", data=with_fields(start_form(phone.get("/").text), rules="saved:kitchen", action="choose")
    )
    form = with_fields(start_form(chosen.text), session_id="n1", **players(*PLAYERS))
    started = phone.post("/nights", data=form)
    assert started.status_code == 303 and started.headers["location"] == "/nights/n1"
    assert night_rules(ledger_db, "n1") == STACKING


def test_start_a_night_with_options_changed_and_save_them_as_house_rules(ledger_db: Path) -> None:
    phone = joined(app_for(ledger_db))
    fields = start_form(phone.get("/").text)
    form = with_fields(
        fields,
        session_id="n1",
        save_as="pub",
        **{"rule.bock_triggers": ["tie", "lost_solo"], "rule.counting": "winners_only", "rule.with_nines": []},
        **players(*PLAYERS),
    )
    started = phone.post("/nights", data=form)
    assert started.status_code == 303, started.text
    expected = rules_from_mapping(
        {"preset": "standard", "bock_triggers": ["tie", "lost_solo"], "counting": "winners_only", "with_nines": False}
    )
    assert night_rules(ledger_db, "n1") == expected
    with Ledger.open(ledger_db) as ledger:
        assert house_rules(ledger).named("pub").rules == expected


def test_save_the_rules_only(ledger_db: Path) -> None:
    phone = joined(app_for(ledger_db))
    form = with_fields(start_form(phone.get("/").text), save_as="pub", action="save", **{"rule.bock_overlap": "extend"})
    saved = phone.post("/nights", data=form)
    assert saved.status_code == 200
    assert "House rules pub saved" in saved.text
    assert ("rules", "saved:pub") in start_form(saved.text)
    assert option_value(start_form(saved.text), "bock_overlap") == ["extend"]
    again = phone.post("/nights", data=with_fields(start_form(saved.text), save_as="pub", action="save"))
    assert again.status_code == 200
    with Ledger.open(ledger_db) as ledger:
        found = house_rules(ledger).named("pub")
        assert found.rules.bock_overlap == "extend" and found.version == 2
        assert card_nights(ledger).session_ids() == []


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        (
            {"rule.bock_multiplier": "0"},
            "rule option &#39;bock_multiplier&#39; takes a whole number from 1 to 100, not 0",
        ),
        ({"rule.counting": "both"}, "rule option &#39;counting&#39; takes one of"),
        ({"rule.bock_triggers": ["tie", "rain"]}, "rule option &#39;bock_triggers&#39; takes a list of"),
        ({"rule.with_nines": "maybe"}, "rule option &#39;with_nines&#39; takes true or false"),
        ({"rule.computer_seats": "1,1"}, "two different seats 0-3"),
        ({"rule.nope": "1"}, "unknown rule option &#39;nope&#39;"),
        ({"rules": "saved:nothing"}, "unknown rules &#39;saved:nothing&#39;"),
        ({"rules": "file:/etc/passwd"}, "unknown rules"),
        ({"save_as": "k" * 41}, "a house-rule set&#39;s name takes 1 to 40 of a-z"),
        ({"save_as": "Standard"}, "&#39;Standard&#39; is a preset&#39;s name"),
        ({"save_as": "a b"}, "a house-rule set&#39;s name takes"),
    ],
)
def test_a_refused_choice_is_shown_in_the_form_with_the_librarys_words(
    ledger_db: Path, changes: dict[str, Any], words: str
) -> None:
    phone = joined(app_for(ledger_db))
    form = with_fields(start_form(phone.get("/").text), session_id="n1", **changes, **players(*PLAYERS))
    answer = phone.post("/nights", data=form)
    assert answer.status_code == 422
    assert re.search(r'<p class="error" role="alert">[^<]*' + re.escape(words), answer.text), answer.text[:3000]
    assert 'value="n1"' in answer.text  # what was typed stays
    with Ledger.open(ledger_db) as ledger:
        assert card_nights(ledger).session_ids() == [] and house_rules(ledger).list() == []


def test_saving_while_starting_a_refused_night_saves_nothing(ledger_db: Path) -> None:
    phone = joined(app_for(ledger_db))
    form = with_fields(start_form(phone.get("/").text), session_id="n1", save_as="pub", **players("Anna", "Ben"))
    assert phone.post("/nights", data=form).status_code == 422
    with Ledger.open(ledger_db) as ledger:
        assert house_rules(ledger).list() == []


def test_a_post_without_the_join_is_refused(ledger_db: Path) -> None:
    stranger = client(app_for(ledger_db))
    token = csrf_of(stranger.get("/join").text)
    answer = stranger.post("/nights", data={"csrf": token, "save_as": "pub", "action": "save", "options": "1"})
    assert answer.status_code == 403


def test_the_api_starts_a_night_with_saved_house_rules(ledger_db: Path) -> None:
    save_kitchen(ledger_db)
    api = client(app_for(ledger_db))
    body = {"session_id": "api-night", "players": list(PLAYERS), "rules": "kitchen"}
    assert api.post("/api/nights", json=body, headers=WRITE).status_code == 201
    assert night_rules(ledger_db, "api-night") == STACKING


def test_an_earlier_nights_rules_are_still_offered(tmp_path: Path) -> None:
    db = tmp_path / "ledger.sqlite"
    start_night(db, "old", PLAYERS, soloist_leads=True)
    home = joined(app_for(db)).get("/").text
    assert "as night old: standard, soloist_leads=true" in home
