"""`doko rules save`, `list`, `show` with house-rule sets saved in the ledger, and `--rules NAME`
wherever a preset is taken (`session start`, `score`, `rules save --preset`). On both databases."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from backends import ledger_path_on_both  # noqa: F401  (every test on both databases)
from cli_helpers import as_json, ok, refused, snapshot
from typer.testing import Result

from doko_ledger.doppelkopf.rules.ruleset import PRESETS

Cli = Callable[..., Result]
FOUR = "Anna,Ben,Clara,Dirk"


def save_kitchen(cli: Cli) -> Result:
    return ok(cli("rules", "save", "kitchen", "--set", "bock_triggers=tie,heart_trick", "--set", "bock_overlap=stack"))


def test_rules_save_with_set_and_list_beside_the_presets(cli: Cli) -> None:
    said = save_kitchen(cli).stdout
    assert (
        "house rules kitchen saved (version 1): standard, changing bock_triggers=tie,heart_trick; bock_overlap=stack"
        in said
    )
    shown = as_json(cli("rules", "list", "--json"))
    assert [p["name"] for p in shown if p["kind"] == "preset"] == list(PRESETS)
    saved = [p for p in shown if p["kind"] == "saved"]
    assert [(s["name"], s["preset"], s["version"]) for s in saved] == [("kitchen", "standard", 1)]
    assert saved[0]["changes"] == {"bock_triggers": ["tie", "heart_trick"], "bock_overlap": "stack"}
    table = ok(cli("rules", "list", env={"COLUMNS": "200"})).stdout
    assert "saved house rules" in table and "bock_overlap=stack" in table


def test_saving_again_is_a_new_version_from_a_preset_or_a_file(cli: Cli, tmp_path: Path) -> None:
    save_kitchen(cli)
    ok(cli("rules", "save", "kitchen", "--preset", "bistro", "--set", "counting=winners_only"))
    shown = as_json(cli("rules", "show", "kitchen", "--json"))
    assert (shown["preset"], shown["counting"], shown["with_nines"], shown["bock_triggers"]) == (
        "bistro",
        "winners_only",
        False,
        [],
    )
    file = tmp_path / "pub.yaml"
    file.write_text("preset: ddv\nbock_effect: extra_point\n", encoding="utf-8")
    ok(cli("rules", "save", "pub", file))
    listed = {p["name"]: p for p in as_json(cli("rules", "list", "--json")) if p["kind"] == "saved"}
    assert listed["kitchen"]["version"] == 2 and listed["pub"]["changes"] == {"bock_effect": "extra_point"}
    ok(cli("rules", "save", "pub2", "--preset", "pub", "--set", "counting=losers_only"))  # from a saved set
    pub2 = as_json(cli("rules", "show", "pub2", "--json"))
    assert (pub2["preset"], pub2["bock_effect"], pub2["counting"]) == ("ddv", "extra_point", "losers_only")


def test_rules_show_a_saved_set(cli: Cli) -> None:
    save_kitchen(cli)
    out = ok(cli("rules", "show", "kitchen")).stdout
    assert "house rules kitchen" in out and "stack" in out


def test_session_start_with_rules_a_saved_set(cli: Cli) -> None:
    save_kitchen(cli)
    ok(cli("session", "start", "n", "--players", FOUR, "--rules", "kitchen"))
    ok(cli("record", "--re", "Anna,Ben", "--re-points", "150", "--yes"))
    stored = as_json(cli("replay", "n-01", "--json"))["rules"]
    assert stored["bock_overlap"] == "stack" and stored["bock_triggers"] == ["tie", "heart_trick"]
    scored = as_json(cli("score", "n-01", "--rules", "kitchen", "--rules", "ddv", "--json"))
    assert len(scored) == 3


def test_refusals_write_nothing(cli: Cli, ledger_path: Path) -> None:
    save_kitchen(cli)
    before = snapshot(ledger_path)
    for args, code, words in [
        (("rules", "save", "standard"), 2, "'standard' is a preset's name"),
        (("rules", "save", "Bistro", "--set", "counting=winners_only"), 2, "'Bistro' is a preset's name"),
        (("rules", "save", "a b"), 2, "a house-rule set's name takes 1 to 40 of a-z"),
        (("rules", "save", "k" * 41), 2, "a house-rule set's name takes 1 to 40 of a-z"),
        (("rules", "save", "x", "--set", "nope=1"), 2, "unknown rule option 'nope'"),
        (("rules", "save", "x", "--set", "bock_multiplier=0"), 2, "from 1 to 100, not 0"),
        (("rules", "save", "x", "--set", "counting"), 2, "--set takes option=value"),
        (("rules", "save", "x", "--preset", "turbo"), 2, "no preset, house-rule set or rule file 'turbo'"),
        (("rules", "save", "x", "a.yaml", "--preset", "ddv"), 2, "not both"),
        (("rules", "show", "pub"), 2, "no preset, house-rule set or rule file 'pub' (presets: "),
        (("session", "start", "n", "--players", FOUR, "--rules", "pub"), 2, "saved: kitchen"),
    ]:
        result = cli(*args)
        assert result.exit_code == code, (args, result.output)
        refused(result, words)
    assert snapshot(ledger_path) == before


def test_rules_show_and_list_need_no_ledger(cli: Cli, tmp_path: Path) -> None:
    missing = tmp_path / "none.sqlite"
    assert as_json(cli("rules", "show", "duel", "--json", db=missing))["computer_seats"] == [1, 3]
    assert all(p["kind"] == "preset" for p in as_json(cli("rules", "list", "--json", db=missing)))
    assert not missing.exists()


def test_session_rules_takes_saved_house_rules_and_keeps_their_name(cli: Cli) -> None:
    save_kitchen(cli)
    ok(cli("session", "start", "n", "--players", FOUR))
    said = ok(cli("session", "rules", "--rules", "kitchen")).stdout
    assert "kitchen" in said
    night = as_json(cli("standings", "--json"))
    assert night["changes"][0]["kind"] == "rules"
    ok(cli("record", "--re", "Anna,Ben", "--re-points", "150", "--yes"))
    stored = as_json(cli("replay", "n-01", "--json"))["rules"]
    assert stored["bock_overlap"] == "stack" and stored["bock_triggers"] == ["tie", "heart_trick"]
    ok(cli("session", "rules", "--set", "bock_triggers=[tie, lost_solo]"))  # a list as a rule file writes it
    ok(cli("record", "--re", "Anna,Ben", "--re-points", "150", "--yes"))
    assert as_json(cli("replay", "n-02", "--json"))["rules"]["bock_triggers"] == ["tie", "lost_solo"]
