"""`doko score`, `doko rules show` and `doko audit` through typer's CliRunner.

The scoring samples (sample_games/26-*) are imported into a temporary ledger;
their scores are worked out by hand in tests/doppelkopf/test_score_samples.py, and the
numbers here are the same.
"""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import as_json, flat, ok, table_rows
from typer.testing import Result

from doko_ledger.doppelkopf.files import game_file, rules_file
from doko_ledger.doppelkopf.rules.options import OPTIONS, grouped
from doko_ledger.doppelkopf.rules.ruleset import OPTION_NAMES, PRESETS, RuleSet, preset
from doko_ledger.doppelkopf.score import score_game
from doko_ledger.events.codec import dumps_canonical
from doko_ledger.numbers import counted

Cli = Callable[..., Result]

SAMPLES_DIR = Path(__file__).resolve().parents[2] / "sample_games"
DOUBLING_FILE = SAMPLES_DIR / "rules" / "doubling.yaml"
KITCHEN_FILE = SAMPLES_DIR / "rules" / "kitchen.yaml"
SCORING_SAMPLES = sorted(p.name for p in SAMPLES_DIR.glob("*.yaml") if int(p.name[:2]) >= 26)

THREE_RULES = "2026-11-28-kitchen-18-three-rule-sets"
SCHWARZ = "2026-11-28-kitchen-16-schwarz-broken-by-nines"
SUMMARY_SOLO = "2026-12-05-verein-10-summary-queen-solo"
PLAYERS = ("Anna", "Ben", "Clara", "Dirk")


def failed(result: Result, code: int | None = None) -> Result:
    """A clean refusal: non-zero exit, no traceback."""
    assert result.exit_code != 0, result.output
    if code is not None:
        assert result.exit_code == code, result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    return result


def deltas(text: str, players: tuple[str, ...] = PLAYERS) -> dict[str, list[int]]:
    """The points table under the derivations: player -> points per rule set."""
    rows = {}
    for line in text.splitlines():
        cells = line.split()
        if cells and cells[0] in players and all(re.fullmatch(r"[+-]\d+", c) for c in cells[1:]):
            rows[cells[0]] = [int(c) for c in cells[1:]]
    return rows


def checks(text: str) -> dict[str, bool | None]:
    """The audit's check lines: name -> passed (None: not checked)."""
    out: dict[str, bool | None] = {}
    for line in text.splitlines():
        if line.startswith("  ok  "):
            out[line[6:]] = True
        elif line.startswith(" FAIL "):
            out[line[6:]] = False
        elif line.startswith("  –   ") and line.endswith(" (not checked)"):
            out[line[6 : -len(" (not checked)")]] = None
    return out


@pytest.fixture
def samples(cli: Cli) -> list[str]:
    """The scoring samples imported into the test's ledger."""
    ok(cli("import", *(SAMPLES_DIR / name for name in SCORING_SAMPLES)))
    return SCORING_SAMPLES


def ledger_files(ledger_path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(ledger_path.parent.glob(ledger_path.name + "*"))}


# -- doko score --------------------------------------------------------------------------------


def test_score_prints_every_derivation_line_and_each_players_result(cli: Cli, samples: list[str]) -> None:
    result = ok(cli("score", THREE_RULES))
    assert result.stdout.startswith(f"{THREE_RULES}  ·  rules standard")
    # one row per derivation line: item, party, points, because; then who wins and the value
    assert table_rows(result.stdout) == [
        ["Re's goal: 90 against Kontra's no 90", "Re", "", "Re took 103 card points in 6 tricks; reached"],
        ["Kontra's goal: target 151", "Kontra", "", "Kontra took 137 card points in 6 tricks; missed"],
        ["won", "Re", "+1", ""],
        ["Kontra announced", "Re", "+2", "implied by Dirk's no 90"],
        ["Kontra's no 90 missed", "Re", "+2", "Dirk, after 1 card, trick 1"],
        ["fox caught (Fuchs) (special)", "Re", "+1", "trick 12: Clara caught Anna's DA"],
        ["last trick won with CJ (Karlchen) (special)", "Re", "+1", "trick 12: Clara won it with CJ"],
        ["Re wins", "Re", "7", ""],
    ]
    assert deltas(result.stdout) == {"Anna": [-7], "Ben": [7], "Clara": [7], "Dirk": [-7]}


@pytest.mark.parametrize("name", SCORING_SAMPLES)
def test_score_shows_each_line_of_every_scoring_sample(cli: Cli, samples: list[str], name: str) -> None:
    loaded = game_file.read((SAMPLES_DIR / name).read_text(encoding="utf-8"))
    expected = score_game(loaded.state)
    assert expected.score is not None
    result = ok(cli("score", loaded.record.id))
    items = [row[0] for row in table_rows(result.stdout) if row[0]]
    for line in expected.score.lines:
        assert line.item + (" (special)" if line.special else "") in items
    assert deltas(result.stdout, loaded.record.players) == {p: [d] for p, d in expected.by_player.items()}


def test_score_json(cli: Cli, samples: list[str]) -> None:
    data = as_json(cli("score", SCHWARZ, "--json"))
    # docs/rules.md §6-§7, worked out in test_score_samples.py: Kontra breaks Re's schwarz
    # with one trick of 0 card points and wins 1 + 1 + 2 + 2 = 6
    assert data["game_id"] == SCHWARZ
    assert (data["winner"], data["value"], data["lone"]) == ("kontra", 6, False)
    assert data["players"] == {"Anna": -6, "Ben": 6, "Clara": -6, "Dirk": 6}
    assert data["rules"] == preset("standard").to_dict()
    assert [(line["item"], line["party"], line["points"]) for line in data["lines"]] == [
        ("Re's goal: target every trick", "re", 0),
        ("Kontra's goal: one trick against Re's schwarz", "kontra", 0),
        ("won", "kontra", 1),
        ("against the old ones", "kontra", 1),
        ("Re announced", "kontra", 2),
        ("Re's schwarz missed", "kontra", 2),
    ]
    assert data["lines"][4]["cause"] == "Anna, after 0 card(s), trick 1"
    assert data["lines"][5]["cause"] == "Anna, after 2 card(s), trick 3"
    assert all(line["factor"] == 1 and not line["special"] for line in data["lines"])


def test_score_json_of_a_lone_summary_game(cli: Cli, samples: list[str]) -> None:
    data = as_json(cli("score", SUMMARY_SOLO, "--json"))
    assert (data["winner"], data["value"], data["lone"]) == ("re", 6, True)
    assert data["players"] == {"Greta": -6, "Hannes": -6, "Ilse": 18, "Karl": -6}


def test_score_under_other_rules_side_by_side(cli: Cli, samples: list[str], ledger_path: Path) -> None:
    before = ledger_files(ledger_path)
    result = ok(cli("score", THREE_RULES, "--rules", "ddv", "--rules", DOUBLING_FILE))
    titles = [line for line in result.stdout.splitlines() if line.startswith(THREE_RULES)]
    assert [t.rstrip() for t in titles] == [
        f"{THREE_RULES}  ·  rules standard",
        f"{THREE_RULES}  ·  rules ddv",
        f"{THREE_RULES}  ·  rules standard  (announcement_scoring=doubling)",
    ]
    header = next(line for line in result.stdout.splitlines() if line.split()[:1] == ["player"])
    assert header.split() == ["player", "standard", "ddv", "standard*"]
    # the results the sample's note writes down, per rule set
    note = game_file.loads((SAMPLES_DIR / "30-three-rule-sets.yaml").read_text(encoding="utf-8")).note
    assert note is not None
    noted = {
        m["rules"]: dict(p.rsplit(" ", 1) for p in m["results"].split(", "))
        for m in re.finditer(r"^(?P<rules>standard|ddv|doubling): (?P<results>.+)$", note, re.MULTILINE)
    }
    expected = {player: [int(noted[r][player]) for r in ("standard", "ddv", "doubling")] for player in PLAYERS}
    assert (
        deltas(result.stdout)
        == expected
        == {
            "Anna": [-7, -6, -8],
            "Ben": [7, 6, 8],
            "Clara": [7, 6, 8],
            "Dirk": [-7, -6, -8],
        }
    )
    rows = [row[0] for row in table_rows(result.stdout)]
    assert "no 90 announced by Kontra" in rows  # ddv
    assert "Kontra announced: doubles" in rows  # doubling
    # a what-if writes nothing
    assert ledger_files(ledger_path) == before


def test_score_json_under_several_rule_sets(cli: Cli, samples: list[str], ledger_path: Path) -> None:
    before = ledger_files(ledger_path)
    data = as_json(cli("score", THREE_RULES, "--json", "--rules", "ddv", "--rules", DOUBLING_FILE))
    assert [d["rules"]["preset"] for d in data] == ["standard", "ddv", "standard"]
    assert [d["rules"]["announcement_scoring"] for d in data] == ["additive", "additive", "doubling"]
    assert [d["value"] for d in data] == [7, 6, 8]
    assert [d["players"]["Ben"] for d in data] == [7, 6, 8]
    assert ledger_files(ledger_path) == before
    # and the stored score is still the game's own
    with sqlite3.connect(ledger_path) as conn:
        row = conn.execute("SELECT rules, value, seat1 FROM scores WHERE game_id = ?", [THREE_RULES]).fetchone()
    assert row == ("standard", 7, 7)


def test_score_under_an_unknown_preset(cli: Cli, samples: list[str]) -> None:
    result = failed(cli("score", THREE_RULES, "--rules", "fancy"))
    assert result.stdout == ""
    assert (
        result.stderr.strip()
        == f"error: no preset, house-rule set or rule file 'fancy' (presets: {', '.join(PRESETS)}; or a .yaml file)"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "# our rules\npreset: standard\nsecond_dule_beats_first: true\n",
            ":3: second_dule_beats_first: unknown rule option 'second_dule_beats_first'",
        ),
        (
            "preset: standard\nkarlchen_capture: sometimes\n",
            ":2: karlchen_capture: rule option 'karlchen_capture' takes true or false, not 'sometimes'",
        ),
        ("preset: kneipe\n", f":1: unknown rule preset 'kneipe' (known: {', '.join(PRESETS)})"),
        ("- standard\n", ":1: a rule file is a mapping: preset: NAME and the options it changes"),
    ],
)
def test_score_under_a_bad_rule_file(
    cli: Cli, samples: list[str], tmp_path: Path, ledger_path: Path, text: str, message: str
) -> None:
    bad = tmp_path / "house.yaml"
    bad.write_text(text, encoding="utf-8")
    before = ledger_files(ledger_path)
    result = failed(cli("score", THREE_RULES, "--rules", "ddv", "--rules", bad), 2)
    assert result.stdout == ""
    assert result.stderr.strip() == f"error: {bad}{message}"
    assert ledger_files(ledger_path) == before


def test_score_under_a_missing_rule_file(cli: Cli, samples: list[str], tmp_path: Path) -> None:
    result = failed(cli("score", THREE_RULES, "--rules", tmp_path / "nowhere.yaml"), 2)
    assert result.stderr.startswith(f"error: {tmp_path / 'nowhere.yaml'}: cannot read file: No such file")


# -- doko rules show --------------------------------------------------------------------------


def option_rows(text: str) -> dict[str, str]:
    """Each option's row of `doko rules show` (not the groups' rows, which have no value)."""
    return {row[0]: row[1] for row in table_rows(text) if row[0] and row[1]}


IN_GROUPS = ["preset", *(o.name for _, options in grouped() for o in options)]
"""The options in the order `doko rules show` lists them: by group."""


def shown(rules: RuleSet) -> dict[str, str]:
    return {"preset": rules.preset} | {o.name: o.text(getattr(rules, o.name)) for o in OPTIONS}


@pytest.mark.parametrize("name", ["standard", "ddv", "bistro", "duel"])
def test_rules_show_a_preset(cli: Cli, name: str) -> None:
    result = ok(cli("rules", "show", name, db=None))
    assert result.stdout.splitlines()[0].strip() == f"rules: {name}"
    rows = option_rows(result.stdout)
    assert list(rows) == IN_GROUPS and sorted(rows) == sorted(["preset", *OPTION_NAMES])
    assert rows == shown(preset(name))
    assert "(changed)" not in result.stdout  # a preset changes nothing of itself


@pytest.mark.parametrize("name", ["standard", "ddv", "bistro", "duel"])
def test_rules_show_json(cli: Cli, name: str) -> None:
    assert as_json(cli("rules", "show", name, "--json", db=None)) == preset(name).to_dict()


def test_rules_show_a_house_rule_file_marks_the_changes(cli: Cli) -> None:
    result = ok(cli("rules", "show", KITCHEN_FILE, db=None))
    assert result.stdout.splitlines()[0].strip() == "rules: standard (changed)"
    rows = option_rows(result.stdout)
    assert list(rows) == IN_GROUPS
    changed = {option for option, value in rows.items() if value.endswith("(changed)")}
    assert changed == {"second_dulle_beats_first", "soloist_leads", "karlchen_capture"}
    assert rows["second_dulle_beats_first"] == "true  (changed)"
    assert rows["karlchen_capture"] == "false  (changed)"
    assert rows["with_nines"] == "true"
    data = as_json(cli("rules", "show", KITCHEN_FILE, "--json", db=None))
    assert data == rules_file.load(KITCHEN_FILE).to_dict()
    assert data == dict(
        preset("standard").to_dict(), second_dulle_beats_first=True, soloist_leads=True, karlchen_capture=False
    )


def test_rules_show_the_doubling_file(cli: Cli) -> None:
    rows = option_rows(ok(cli("rules", "show", DOUBLING_FILE, db=None)).stdout)
    assert rows["announcement_scoring"] == "doubling  (changed)"
    assert rows["specials_doubled"] == "false"


def test_rules_show_a_bad_file(cli: Cli, tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("preset: standard\nsoloist_leads: true\nbock_rounds: true\n", encoding="utf-8")
    result = failed(cli("rules", "show", bad, db=None), 2)
    assert result.stderr.strip() == f"error: {bad}:3: bock_rounds: unknown rule option 'bock_rounds'"


def test_rules_show_an_unknown_preset(cli: Cli) -> None:
    result = failed(cli("rules", "show", "fancy", db=None))
    assert "no preset, house-rule set or rule file 'fancy'" in result.stderr


# -- doko audit --------------------------------------------------------------------------------

CHECKS = [
    "hash chain intact",
    "every card legal",
    "no revoke proven by a later card",
    "every announcement in time",
    "every other event legal",
    "240 card points",
    "scores sum to zero",
    "all scores even or all odd",
]
WITH_CARDS = ["every card legal", "no revoke proven by a later card", "every announcement in time", "240 card points"]
"""The checks a deal recorded without cards cannot run."""


@pytest.mark.parametrize("name", SCORING_SAMPLES)
def test_audit_of_a_clean_game(cli: Cli, samples: list[str], name: str) -> None:
    record = game_file.loads((SAMPLES_DIR / name).read_text(encoding="utf-8"))
    game_id = record.id
    result = ok(cli("audit", game_id))
    assert result.stdout.startswith(f"audit of {game_id}\n")
    expected = {c: None if record.summary is not None and c in WITH_CARDS else True for c in CHECKS}
    assert checks(result.stdout) == expected
    data = as_json(cli("audit", game_id, "--json"))
    assert data["ok"] is True
    assert [(c["name"], c["ok"]) for c in data["checks"]] == list(expected.items())
    assert data["claim"] is None


def test_audit_with_the_right_claim(cli: Cli, samples: list[str]) -> None:
    result = ok(cli("audit", THREE_RULES, "--claimed", "Anna=-7,Ben=+7,Clara=+7,Dirk=-7"))
    assert "the claim matches the computed score" in result.stdout


def test_audit_of_a_claim_that_leaves_out_an_announcement(cli: Cli, samples: list[str]) -> None:
    # Kontra wins 6 (docs/rules.md §7): won 1, against the old ones 1, Re announced 2,
    # Re's schwarz missed 2. The table wrote 4: Re's announcement forgotten.
    result = failed(cli("audit", SCHWARZ, "--claimed", "Anna=-4,Ben=+4,Clara=-4,Dirk=+4"), 5)
    assert checks(result.stdout) == dict(dict.fromkeys(CHECKS, True), **{"the claim sums to zero": True})
    claim_rows = {line.split()[0]: line.split()[1:] for line in result.stdout.splitlines() if line[:1] == " "}
    assert claim_rows["Anna"] == ["-4", "-6", "+2"]
    assert claim_rows["Ben"] == ["+4", "+6", "-2"]
    assert "the difference is exactly: Re announced (+2, Kontra)" in result.stdout
    data = json.loads(failed(cli("audit", SCHWARZ, "--json", "--claimed", "Anna=-4,Ben=4,Clara=-4,Dirk=4"), 5).stdout)
    assert data["ok"] is False
    assert data["claim"]["difference"] == {"Anna": 2, "Ben": -2, "Clara": 2, "Dirk": -2}
    assert ["Re announced"] in data["claim"]["explained_by_lines"]


def test_audit_of_a_claim_right_under_other_rules(cli: Cli, samples: list[str]) -> None:
    """The table scored the three-rules game with doubling: the audit names that rule change."""
    result = failed(cli("audit", THREE_RULES, "--claimed", "Anna=-8,Ben=8,Clara=8,Dirk=-8"), 5)
    assert "the claim is right under: standard with announcement_scoring=doubling" in result.stdout


def test_audit_of_a_lone_claim(cli: Cli, samples: list[str]) -> None:
    # Ilse's queen solo is worth 6, three shares for her; a claim without Re's +2
    result = failed(cli("audit", SUMMARY_SOLO, "--claimed", "Greta=-4,Hannes=-4,Ilse=+12,Karl=-4"), 5)
    assert "the difference is exactly: Re announced (+2, Re)" in result.stdout
    assert "first: one line of the score (Re announced) is the whole difference" in flat(result.stdout)


def test_the_audit_of_a_deal_without_cards_does_not_pass_what_it_could_not_check(cli: Cli, samples: list[str]) -> None:
    result = ok(cli("audit", SUMMARY_SOLO))
    assert checks(result.stdout) == {name: None if name in WITH_CARDS else True for name in CHECKS}
    data = as_json(cli("audit", SUMMARY_SOLO, "--json"))
    assert data["ok"] is True  # nothing failed
    assert {c["name"]: c["ok"] for c in data["checks"]} == checks(result.stdout)
    assert data["checks"][5]["details"] == ["no cards recorded"]


def test_a_claim_right_under_a_house_rule_names_it_first_and_says_why(cli: Cli, samples: list[str]) -> None:
    claim = "Anna=-8,Ben=8,Clara=8,Dirk=-8"
    data = json.loads(failed(cli("audit", THREE_RULES, "--json", "--claimed", claim), 5).stdout)
    assert data["claim"]["right_under_rules"][0] == "standard with announcement_scoring=doubling"
    assert data["claim"]["first_because"].startswith("first: ")


@pytest.mark.parametrize("claim", ["Anna:-4,Ben=4", "Anna=four", "Anna=-4;Ben=4", "Anna"])
def test_audit_with_a_malformed_claim(cli: Cli, samples: list[str], claim: str) -> None:
    result = failed(cli("audit", SCHWARZ, "--claimed", claim), 2)
    assert result.stdout == ""
    assert flat(result.stderr).startswith("error: --claimed: write PLAYER=POINTS, e.g. Anna=+5, not ")


def test_audit_with_a_claim_for_somebody_who_did_not_play(cli: Cli, samples: list[str]) -> None:
    result = failed(cli("audit", SCHWARZ, "--claimed", "Anna=-6,Ben=6,Clara=-6,Emil=6"), 1)
    assert result.stdout == ""
    assert result.stderr.strip() == (
        "error: claimed result names 'Emil', who did not play (players: Anna, Ben, Clara, Dirk)"
    )


def test_audit_after_tampering_names_the_event(cli: Cli, samples: list[str], ledger_path: Path) -> None:
    events = as_json(cli("log", THREE_RULES, "--json"))
    (call,) = [e for e in events if e["type"] == "AnnouncementMade"]
    assert call["payload"]["announcement"] == "no90"
    # somebody turns Dirk's no 90 into a plain kontra, which makes Kontra the winner
    payload = dict(call["payload"], announcement="kontra")
    with sqlite3.connect(ledger_path, isolation_level=None) as conn:
        conn.execute("DROP TRIGGER events_append_only_update")
        conn.execute("UPDATE events SET payload = ? WHERE position = ?", [dumps_canonical(payload), call["position"]])
    result = failed(cli("audit", THREE_RULES), 5)
    found = checks(result.stdout)
    assert found["hash chain intact"] is False
    assert [name for name, passed in found.items() if not passed] == ["hash chain intact"]
    where = f"position {call['position']} (stream 'game/{THREE_RULES}' version {call['version']}, AnnouncementMade)"
    assert f"{where}: hash does not match its content; the event was altered" in flat(result.stdout)
    data = json.loads(failed(cli("audit", THREE_RULES, "--json"), 5).stdout)
    (chain,) = [c for c in data["checks"] if c["name"] == "hash chain intact"]
    assert chain["ok"] is False and chain["details"][0].startswith(where)
    # the other games' chains are intact
    other = "2026-11-28-kitchen-17-fox-and-karlchen"
    assert checks(ok(cli("audit", other)).stdout)["hash chain intact"] is True


# A game recorded at the table without the hands: Dirk throws HA on Anna's CA in
# trick 1 (not following clubs) and plays C9 in trick 3. Without hands the
# revoke cannot be refused when recorded; the later C9 proves it (docs/rules.md §3).
REVOKE_GAME = """\
# Dirk threw HA on Anna's CA in trick 1 and played C9 in trick 3:
# a revoke that only a later card proves (docs/rules.md §3).
format: doko-game/1
id: 2026-11-28-kitchen-revoke
played_on: '2026-11-28'
players: [Anna, Ben, Clara, Dirk]
dealer: Dirk
rules: standard
tricks:  # normal
  - [CA, C9, S9, HA]  # 1: Anna leads, Anna wins 22
  - [SA, SK, S10, S9]  # 2: Anna leads, Anna wins 25
  - [HA, DK, H9, C9]  # 3: Anna leads, Ben wins 15
  - [H10, DJ, DK, DJ]  # 4: Ben leads, Ben wins 18
  - [SA, DA, SJ, H9]  # 5: Ben leads, Dirk wins 24
  - [CQ, HJ, DA, H10]  # 6: Dirk leads, Clara wins 26
  - [SQ, D9, D10, CQ]  # 7: Clara leads, Ben wins 16
  - [SK, CJ, D9, C10]  # 8: Ben leads, Clara wins 16
  - [HK, CJ, HJ, D10]  # 9: Clara leads, Dirk wins 18
  - [SQ, SJ, HQ, DQ]  # 10: Dirk leads, Dirk wins 11
  - [CA, CK, C10, HQ]  # 11: Dirk leads, Clara wins 28
  - [HK, DQ, CK, S10]  # 12: Clara leads, Dirk wins 21
"""


def test_audit_finds_a_revoke_proven_by_a_later_card(cli: Cli, tmp_path: Path) -> None:
    assert game_file.dumps(game_file.loads(REVOKE_GAME)) == REVOKE_GAME
    path = tmp_path / "revoke.yaml"
    path.write_text(REVOKE_GAME, encoding="utf-8")
    ok(cli("import", path))  # hands unknown: the revoke cannot be refused when recorded
    result = failed(cli("audit", "2026-11-28-kitchen-revoke"), 5)
    found = checks(result.stdout)
    assert found == dict(dict.fromkeys(CHECKS, True), **{"no revoke proven by a later card": False})
    assert (
        "Dirk did not follow CA in trick 1 (event 9, position 9) but played C9 in trick 3 (event 17, position 17)"
        in flat(result.stdout)
    )
    data = json.loads(failed(cli("audit", "2026-11-28-kitchen-revoke", "--json"), 5).stdout)
    (revoke,) = [c for c in data["checks"] if c["name"] == "no revoke proven by a later card"]
    assert revoke == {
        "name": "no revoke proven by a later card",
        "ok": False,
        "details": [
            "Dirk did not follow CA in trick 1 (event 9, position 9) but played C9 in trick 3 (event 17, position 17)"
        ],
    }


def test_audit_of_a_game_without_hands_and_without_revokes(cli: Cli) -> None:
    ok(cli("import", SAMPLES_DIR / "09-normal-not-dealt.yaml"))
    result = ok(cli("audit", "2026-11-28-kitchen-09"))
    assert checks(result.stdout) == dict.fromkeys(CHECKS, True)


# -- doko rebuild ------------------------------------------------------------------------------


def score_tables(ledger_path: Path) -> dict[str, list[tuple[Any, ...]]]:
    with sqlite3.connect(ledger_path) as conn:
        return {
            "scores": conn.execute("SELECT * FROM scores ORDER BY game_id").fetchall(),
            "score_lines": conn.execute("SELECT * FROM score_lines ORDER BY game_id").fetchall(),
        }


def test_rebuild_recreates_the_score_tables(cli: Cli, samples: list[str], ledger_path: Path) -> None:
    before = score_tables(ledger_path)
    assert len(before["scores"]) == len(SCORING_SAMPLES)
    with sqlite3.connect(ledger_path) as conn:
        columns = [c[1] for c in conn.execute("PRAGMA table_info(scores)")]
    rows = {row[0]: dict(zip(columns, row, strict=True)) for row in before["scores"]}
    three = rows[THREE_RULES]
    assert (three["winner"], three["value"]) == ("re", 7)
    assert [three[f"seat{s}"] for s in range(4)] == [-7, 7, 7, -7]
    assert rows[SCHWARZ]["winner"] == "kontra"
    with sqlite3.connect(ledger_path, isolation_level=None) as conn:
        conn.execute("DELETE FROM scores WHERE game_id = ?", [THREE_RULES])
        conn.execute("UPDATE score_lines SET points = '[99]'")
        conn.execute("DROP TABLE scores")
    result = ok(cli("rebuild"))
    assert result.stdout.strip() == f"rebuilt the read models from {counted(len(SCORING_SAMPLES), 'game')}"
    assert score_tables(ledger_path) == before
    assert ok(cli("verify")).exit_code == 0


def test_rebuild_of_a_copied_ledger_gives_the_same_scores(cli: Cli, samples: list[str], ledger_path: Path) -> None:
    copy = ledger_path.with_name("copy.sqlite")
    shutil.copy(ledger_path, copy)
    ok(cli("rebuild", db=copy))
    assert score_tables(copy) == score_tables(ledger_path)
