"""Rules from the phone in real headless Chromium at 390x844: a web-only table starts a night
with its saved house rules (stacking bock, a heart-trick trigger) chosen in the start form, sees
their options and what they change, and saves a changed choice as new house rules."""

from __future__ import annotations

from pathlib import Path

import test_web_browser
from browser import Browser
from test_web_browser import ARTIFACTS, join, tap, wait_for
from typer.testing import CliRunner
from web_helpers import start_night

from doko_ledger.cli.app import app as cli_app
from doko_ledger.doppelkopf.book import card_nights, house_rules
from doko_ledger.ledger import Ledger

served, phone = test_web_browser.served, test_web_browser.phone  # the fixtures: a served ledger, a phone


def checked(b: Browser, css: str) -> list[str]:
    found: list[str] = b.script(f"return [...document.querySelectorAll('{css}:checked')].map(e => e.value)")
    return found


def test_start_a_night_with_saved_house_rules_from_the_phone(served: tuple[str, Path], phone: Browser) -> None:
    base, db = served
    b = phone
    saved = CliRunner().invoke(
        cli_app,
        [
            "--db",
            str(db),
            "rules",
            "save",
            "kitchen",
            "--set",
            "bock_triggers=tie,heart_trick",
            "--set",
            "bock_overlap=stack",
        ],
    )
    assert saved.exit_code == 0, saved.output
    join(b, base, "Ben")
    b.visit(base + "/")
    for i, name in enumerate(["Anna", "Ben", "Clara", "Dirk"]):
        b.type(f'input[name="player_{i}"]', name)
    b.type('input[name="session_id"]', "2026-12-02-kitchen")
    assert "nothing changed" in b.text("#rules-changes")
    tap(b, 'select[name="rules"] option[value="saved:kitchen"]')
    tap(b, '.rule-group[data-group="bock"] summary')
    assert b.script("return document.querySelector('select[name=\"rule.bock_overlap\"]').value") == "stack"
    assert checked(b, 'input[name="rule.bock_triggers"]') == ["tie", "heart_trick"]
    assert b.text("#rules-changes") == "Changes from standard: bock triggers=tie,heart trick; bock overlap=stack"
    assert b.script("return document.querySelector('.rule-group[data-group=bock]').open")
    assert "changed, standard has queue" in b.text("#option-bock_overlap")
    b.screenshot(ARTIFACTS / "web-start-rules.png")
    tap(b, "#start button.primary")
    wait_for(b, "#record-link")
    with Ledger.open(db) as ledger:
        night = card_nights(ledger).state("2026-12-02-kitchen")
        assert night.rules == house_rules(ledger).named("kitchen").rules and night.rules_name == "kitchen"


def test_a_changed_choice_is_saved_as_house_rules_from_the_phone(served: tuple[str, Path], phone: Browser) -> None:
    base, db = served
    b = phone
    join(b, base, "Ben")
    b.visit(base + "/")
    tap(b, '.rule-group[data-group="counting"] summary')
    tap(b, 'select[name="rule.counting"] option[value="winners_only"]')
    assert b.text("#rules-changes") == "Changes from standard: counting=winners only"
    b.type('input[name="save_as"]', "pub")
    tap(b, "#save-rules")
    wait_for(b, "#rules-saved")
    assert b.script("return document.querySelector('select[name=\"rules\"]').value") == "saved:pub"
    with Ledger.open(db) as ledger:
        assert house_rules(ledger).named("pub").rules.counting == "winners_only"


def test_the_table_changes_from_the_phone(served: tuple[str, Path], phone: Browser) -> None:
    """Someone joins after Ben, Doppelbock by the button, winners-only counting from the next
    deal, Anna leaves, and the last change is taken back: each by taps on the night page."""
    base, db = served
    b = phone
    start_night(db, "changes", ("Anna", "Ben", "Clara", "Dirk"))
    join(b, base, "Ben")
    b.visit(f"{base}/nights/changes")
    wait_for(b, "#table-changes")
    tap(b, "#someone-joins summary")
    b.type('#someone-joins input[name="player"]', "Erik")
    tap(b, '#someone-joins select[name="after"] option[value="Ben"]')
    tap(b, "#join-button")
    wait_for(b, "#changed")
    assert "Erik" in b.text("#changed")
    assert "From deal 1: Erik joins after Ben" in b.text("#changes-next")
    tap(b, "#bock-button summary")
    tap(b, '#bock-button input[name="rounds"][value="2"] + span')
    b.type('#bock-button input[name="reason"]', "a Hochzeit")
    tap(b, "#declare-bock")
    wait_for(b, "#bock-rounds")
    assert "declared by Ben (a Hochzeit)" in b.text("#bock-rounds")
    tap(b, "#change-rules summary")
    tap(b, '#change-rules .rule-group[data-group="counting"] summary')
    tap(b, '#change-rules select[name="rule.counting"] option[value="winners_only"]')
    assert "counting=winners only" in b.text("#change-rules #rules-changes")
    b.screenshot(ARTIFACTS / "web-change-rules.png")
    tap(b, "#change-rules-button")
    wait_for(b, "#changed")
    tap(b, "#someone-leaves summary")
    tap(b, '#someone-leaves select[name="player"] option[value="Anna"]')
    tap(b, "#leave-button")
    wait_for(b, "#changed")
    b.screenshot(ARTIFACTS / "web-table-changes.png")
    with Ledger.open(db) as ledger:
        night = card_nights(ledger).standings("changes")
    assert night.seating == ("Ben", "Erik", "Clara", "Dirk") and night.rules.counting == "winners_only"
    assert "Undo Anna leaves" in b.text("#undo")
    tap(b, "#undo")
    b.accept_alert()
    wait_for(b, "#undone")
    with Ledger.open(db) as ledger:
        assert card_nights(ledger).standings("changes").seating == ("Anna", "Ben", "Erik", "Clara", "Dirk")
