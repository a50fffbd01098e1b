"""A night file of a night that changed: players who join and leave, the rules changed during
the night, bock declared by hand (with a deal and without), written among the deals where they
were made, replayed through the recorder, and written back byte for byte with the derived
comments right for the changed seating."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_night_changes_properties import NAMES, OPS, RULES, act

from doko_ledger.doppelkopf.files import night_file
from doko_ledger.doppelkopf.files.night_file import DeclaredBock
from doko_ledger.doppelkopf.game.record import SummaryRecord, ValueRecord
from doko_ledger.doppelkopf.nights.decide import (
    ChangeRules,
    DeclareBock,
    JoinTable,
    LeaveTable,
    StartNight,
    TakeBackChange,
)
from doko_ledger.doppelkopf.nights.events import BockDeclared, PlayerJoined, PlayerLeft, RulesChanged
from doko_ledger.doppelkopf.nights.night import Night
from doko_ledger.doppelkopf.nights.standings import standings
from doko_ledger.doppelkopf.nights.state import Change
from doko_ledger.doppelkopf.rules.ruleset import RuleSet, rules_from_mapping
from doko_ledger.formats.yaml_source import SourceError
from doko_ledger.i18n import render

LATE_RULES = "{preset: standard, bock_triggers: [tie, lost_solo], bock_overlap: stack, counting: winners_only}"

CHANGED = (
    """\
format: doko-session/1
id: n
players: [Anna, Ben, Clara, Dirk]
first_dealer: Anna
rules: {preset: standard, bock_triggers: [tie]}
rules_name: kitchen
rate: '0.05'
deals:  # totals: Anna +55, Ben -1, Clara +29, Dirk +81, Erik +4
  - {game: normal, re: [Anna, Ben], re_points: 150}  # 1: Anna deals, Anna +1 Ben +1 Clara -1 Dirk -1
  - {joins: Erik, after: Anna}  # Erik joins after Anna, from deal 2
  - {game: normal, re: [Ben, Clara], re_points: 120}"""
    "  # 2: Erik deals and sits out, starts a bock round, Ben -2 Clara -2 Dirk +2 Anna +2\n"
    """\
  - {bock: {by: Anna, reason: Hochzeit, with_deal: true}}  # bock declared by Anna (Hochzeit) with deal 2
"""
    f"  - {{rules: {LATE_RULES}, rules_name: late}}"
    "  # the rules change to late: bock_triggers [tie, lost_solo], bock_overlap stack, counting winners_only,"
    " from deal 3\n"
    "  - {game: normal, re: [Clara, Dirk], re_points: 120}  # 3: Ben deals and sits out, bock ×2, starts a bock"
    " round, Clara -4 Dirk -4 Anna +4 Erik +4, counted winners_only: Clara +0 Dirk +0 Anna +4 Erik +4\n"
    "  - {bock: {by: Ben, rounds: 2}}  # bock declared by Ben: 2 rounds, from deal 4\n"
    "  - {winners: [Dirk, Anna], value: 3}  # 4: Clara deals and sits out, bock ×16, Dirk +48 Anna +48 Erik -48"
    " Ben -48, counted winners_only: Dirk +48 Anna +48 Erik +0 Ben +0\n"
    "  - {leaves: Ben}  # Ben leaves, from deal 5\n"
    "  - {game: normal, re: [Anna, Erik], re_points: 100}  # 5: Dirk deals, bock ×16, Anna -32 Erik -32 Clara +32"
    " Dirk +32, counted winners_only: Anna +0 Erik +0 Clara +32 Dirk +32\n"
    "closed: true\n"
)


def late_rules() -> dict[str, object]:
    return {"bock_triggers": ["tie", "lost_solo"], "bock_overlap": "stack", "counting": "winners_only"}


def line_with(text: str, needle: str) -> int:
    lines = [i for i, line in enumerate(text.splitlines(), 1) if needle in line]
    assert len(lines) == 1, f"{needle!r} is on lines {lines}"
    return lines[0]


def test_a_changed_night_is_read_entry_by_entry() -> None:
    session = night_file.loads(CHANGED)
    assert session.rules_name == "kitchen"
    assert session.deals == (
        SummaryRecord("normal", ("Anna", "Ben"), 150),
        JoinTable("Erik", "Anna"),
        SummaryRecord("normal", ("Ben", "Clara"), 120),
        DeclaredBock("Anna", "Hochzeit", 1, with_deal=True),
        ChangeRules(rules_from_mapping(late_rules()), "late"),
        SummaryRecord("normal", ("Clara", "Dirk"), 120),
        DeclaredBock("Ben", rounds=2),
        ValueRecord(3, winners=("Dirk", "Anna")),
        LeaveTable("Ben"),
        SummaryRecord("normal", ("Anna", "Erik"), 100),
    )


def test_a_changed_night_written_by_dumps_is_read_back_byte_for_byte() -> None:
    assert night_file.dumps(night_file.loads(CHANGED)) == CHANGED


def test_loading_replays_the_changes_through_the_recorder() -> None:
    night = night_file.read(CHANGED).night
    state, schedule = night.state, night.schedule()
    assert state.rules_name == "kitchen" and state.closed
    assert [type(c.event) for c in state.changes] == [
        PlayerJoined,
        BockDeclared,
        RulesChanged,
        BockDeclared,
        PlayerLeft,
    ]
    assert state.changes[1].game_id == "n-02" and state.changes[3].game_id is None
    assert state.everyone == ("Anna", "Erik", "Ben", "Clara", "Dirk")
    assert state.players == ("Anna", "Erik", "Clara", "Dirk")
    assert [r.dealer for r in schedule.rows] == ["Anna", "Erik", "Ben", "Clara", "Dirk"]
    assert [r.rules.counting for r in schedule.rows] == ["plus_minus"] * 2 + ["winners_only"] * 3
    assert [render(c.text, "en") for c in schedule.changes][:2] == [
        "Erik joins after Anna, from deal 2",
        "bock declared by Anna (Hochzeit) with deal 2",
    ]
    totals = {s.player: s.total for s in standings(state, schedule).table}
    assert totals == {p: sum(r.sheet.get(p, 0) for r in schedule.rows) for p in state.everyone}
    assert totals == {"Anna": 55, "Ben": -1, "Clara": 29, "Dirk": 81, "Erik": 4}


def test_from_night_writes_the_changes_in_force_where_they_were_made() -> None:
    loaded = night_file.loads(CHANGED)
    assert night_file.from_night(night_file.to_night(loaded)) == dataclasses.replace(loaded, note=None)


def test_changes_taken_back_and_deals_voided_are_left_out_and_a_bock_follows_its_corrected_deal() -> None:
    night = night_file.to_night(night_file.loads(CHANGED.replace("closed: true\n", "")))
    night.change(JoinTable("Fritz"))
    last = night.state.last_entry
    assert isinstance(last, Change)
    night.change(TakeBackChange(last.version))  # Fritz never joined
    night.correct("n-02", SummaryRecord("normal", ("Ben", "Clara"), 100))
    night.void_last()  # deal 5
    written = night_file.from_night(night)
    assert written.deals[2] == SummaryRecord("normal", ("Ben", "Clara"), 100)
    assert written.deals[3] == DeclaredBock("Anna", "Hochzeit", with_deal=True)
    assert written.deals[-1] == LeaveTable("Ben") and not written.closed
    assert JoinTable("Fritz") not in written.deals
    again = night_file.to_night(night_file.loads(night_file.dumps(written)))
    assert standings(again.state, again.schedule()).table == standings(night.state, night.schedule()).table


def test_a_join_without_a_seat_and_a_player_who_comes_back() -> None:
    night = night_file.to_night(night_file.loads(CHANGED.replace("closed: true\n", "")))
    night.change(JoinTable("Ben"))  # back, after the last seat
    night.change(LeaveTable("Anna"))
    night.change(DeclareBock("Clara"))
    text = night_file.dumps(night_file.from_night(night))
    assert "  - {joins: Ben}  # Ben joins again after Dirk, from deal 6\n  - {leaves: Anna}  # Anna leaves" in text
    assert "  - {bock: {by: Clara}}  # bock declared by Clara, from deal 6\n" in text
    assert night_file.dumps(night_file.loads(text)) == text
    assert night_file.to_night(night_file.loads(text)).state.players == ("Erik", "Clara", "Dirk", "Ben")


# (the entry put after deal 1, the field, a piece of the message)
ENTRY_ERRORS = [
    ("{joins: Erik, after: Zoe}", "deals[1].after", "'Zoe' is not at the table (Anna, Ben, Clara, Dirk)"),
    ("{joins: Ben}", "deals[1].joins", "Ben is already at the table"),
    ("{joins: ' Erik'}", "deals[1].joins", "a player's name has no white space"),
    ("{leaves: Anna}", "deals[1].leaves", "that would leave 3 players, and a card night has 4 to 7"),
    ("{leaves: Zoe}", "deals[1].leaves", "'Zoe' is not at the table"),
    ("{rules: {preset: standard, bock_triggers: [tie]}}", "deals[1].rules", "these are the rules in force already"),
    ("{rules: {counting: sometimes}}", "deals[1].rules.counting", "rule option 'counting' takes one of"),
    ("{rules: {preset: skat}}", "deals[1].rules", "unknown rule preset 'skat'"),
    ("{rules: standard, rules_name: ' late'}", "deals[1].rules_name", "the rules' name has no white space"),
    ("{bock: {by: Anna, rounds: 5}}", "deals[1].bock.rounds", "bock is declared for 1 to 3 rounds at once, not 5"),
    ("{bock: {by: Anna, reason: ' x'}}", "deals[1].bock.reason", "a reason has no white space"),
    ("{bock: {rounds: 2}}", "deals[1].bock.by", "missing 'by': bock declared by hand says who declared it"),
    ("{bock: {by: Anna, colour: red}}", "deals[1].bock.colour", "unknown field 'colour' (known: by, rounds, reason"),
    ("{bock: Anna}", "deals[1].bock", "is not of type 'object'"),
    ("{joins: Erik, leaves: Ben}", "deals[1].leaves", "unknown field 'leaves' (known: joins, after)"),
    ("{after: Anna}", "deals[1].game", "a change is {joins: NAME}, {leaves: NAME}"),
]


@pytest.mark.parametrize(("entry", "field", "message"), ENTRY_ERRORS)
def test_a_change_the_recorder_refuses_names_its_line_and_field(entry: str, field: str, message: str) -> None:
    text = CHANGED.replace("  - {joins: Erik, after: Anna}", f"  - {entry}")
    with pytest.raises(SourceError) as caught:
        night_file.loads(text, "night.yaml")
    error = caught.value
    assert (error.field, error.line) == (field, line_with(text, entry)), str(error)
    assert message in error.message
    assert str(error).startswith(f"night.yaml:{error.line}: {field}: ")


def test_a_bock_with_a_deal_comes_right_after_a_deal() -> None:
    first = CHANGED.replace("deals:", "deals:\n  - {bock: {by: Anna, with_deal: true}}", 1)
    with pytest.raises(SourceError, match="no deal comes before it") as caught:
        night_file.loads(first)
    assert (caught.value.field, caught.value.line) == ("deals[0].bock.with_deal", 9)
    late = CHANGED.replace("  - {rules:", "  - {bock: {by: Clara, with_deal: true}}\n  - {rules:")
    night_file.loads(late)  # two bocks with deal 2
    after_a_change = CHANGED.replace("  - {leaves: Ben}", "  - {leaves: Ben}\n  - {bock: {by: Clara, with_deal: true}}")
    with pytest.raises(SourceError, match="the night changed after deal 4: bock comes with a deal only") as caught:
        night_file.loads(after_a_change)
    assert caught.value.field == "deals[9].bock.with_deal"


def test_a_deal_names_the_players_at_the_table_after_the_changes() -> None:
    gone = CHANGED.replace("re: [Anna, Erik], re_points: 100", "re: [Anna, Ben], re_points: 100")
    with pytest.raises(SourceError) as caught:
        night_file.loads(gone, "night.yaml")
    assert caught.value.field == "deals[9].re[1]"
    assert caught.value.message == "Ben has left the table before deal 5 (playing: Anna, Erik, Clara, Dirk)"
    early = CHANGED.replace("re: [Anna, Ben], re_points: 150", "re: [Anna, Erik], re_points: 150")
    with pytest.raises(SourceError, match=r"unknown player 'Erik' \(players: Anna, Ben, Clara, Dirk\)"):
        night_file.loads(early)
    sitting = CHANGED.replace("re: [Ben, Clara], re_points: 120", "re: [Erik, Clara], re_points: 120")
    with pytest.raises(SourceError, match=r"Erik sits out deal 2 \(Erik deals; playing: Ben, Clara, Dirk, Anna\)"):
        night_file.loads(sitting)


def test_the_rules_name_of_the_start_is_checked_by_the_recorder() -> None:
    with pytest.raises(SourceError) as caught:
        night_file.loads(CHANGED.replace("rules_name: kitchen", "rules_name: ' kitchen'"), "night.yaml")
    assert (caught.value.field, caught.value.line) == ("rules_name", 6)


def yaml_example(text: str, after: str) -> str:
    start = text.index("```yaml\n", text.index(after)) + len("```yaml\n")
    return text[start : text.index("```", start)]


def test_the_documented_examples_load_with_their_changes() -> None:
    docs = Path(__file__).resolve().parents[3] / "docs" / "card-nights.md"
    documented = night_file.read(yaml_example(docs.read_text(encoding="utf-8"), "## The night file"), "docs")
    assert night_file.__doc__ is not None
    module = night_file.read(yaml_example(night_file.__doc__, ""), "docstring")
    for loaded in (documented, module):
        kinds = [
            type(e).__name__
            for e in loaded.session.deals
            if isinstance(e, (JoinTable, LeaveTable, ChangeRules, DeclaredBock))
        ]
        assert kinds == ["DeclaredBock", "JoinTable", "LeaveTable", "ChangeRules", "DeclaredBock"]
        assert loaded.session.rules_name == "kitchen" and loaded.night.state.closed
        assert loaded.night.state.players == ("Anna", "Fritz", "Clara", "Dirk", "Emil")


@settings(max_examples=40, deadline=None, derandomize=True)
@given(size=st.integers(4, 7), first=RULES, ops=OPS, name=st.sampled_from([None, "kitchen"]))
def test_any_changed_night_round_trips_through_its_file_with_the_same_course(
    size: int, first: RuleSet, ops: list[tuple[str, int, RuleSet]], name: str | None
) -> None:
    """Under any mix of deals, joins, leaves, rule changes, bock by hand, undos and corrections,
    the night's file is canonical and replays to the same course and standings."""
    night = Night()
    night.start(StartNight("p", NAMES[:size], 0, first, rules_name=name))
    for op, pick, rules in ops:
        act(night, op, pick, rules)
    written = night_file.from_night(night)
    text = night_file.dumps(written)
    loaded = night_file.read(text)
    assert loaded.session == written and night_file.dumps(loaded.session) == text
    again, schedule = loaded.night.schedule(), night.schedule()
    assert [(r.dealer, r.playing, r.deltas, r.sheet, r.totals, r.rules) for r in again.rows] == [
        (r.dealer, r.playing, r.deltas, r.sheet, r.totals, r.rules) for r in schedule.rows
    ]
    assert [c.text for c in again.changes] == [c.text for c in schedule.changes]
    assert (again.seating, again.everyone, again.bock_causes) == (
        schedule.seating,
        schedule.everyone,
        schedule.bock_causes,
    )
    assert standings(loaded.night.state, again).table == standings(night.state, schedule).table
