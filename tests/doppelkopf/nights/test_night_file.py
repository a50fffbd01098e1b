"""The YAML session file: byte-exact round trips, the bundled sample nights, and precise errors."""

from __future__ import annotations

import dataclasses
import io
from decimal import Decimal
from pathlib import Path

import pytest

from doko_ledger.doppelkopf.files import night_file as session_file
from doko_ledger.doppelkopf.files.night_file import MISDEAL, Misdeal, NightFile, NightFileError
from doko_ledger.doppelkopf.game.record import SummaryRecord
from doko_ledger.doppelkopf.nights.night import Night
from doko_ledger.doppelkopf.nights.standings import settle, standings
from doko_ledger.doppelkopf.rules.ruleset import preset
from doko_ledger.formats.yaml_source import SourceError

SESSIONS_DIR = Path(__file__).resolve().parents[3] / "sample_games" / "sessions"
SESSION_FILES = sorted(p.name for p in SESSIONS_DIR.glob("*.yaml"))

BRIEF = (
    """\
format: doko-session/1
id: 2026-11-28-kitchen          # the night's id: letters, digits, . _ -
played_on: '2026-11-28'
players: [Anna, Ben, Clara, Dirk, Emil]   # 4-7, seat order
first_dealer: Anna
rules: {preset: standard, bock_triggers: [tie, lost_solo]}
match_length: 8                 # optional
rate: '0.05'                    # optional money per point
deals:                          # in order; dealer and who plays are derived
"""
    "  - {game: normal, re: [Ben, Clara], re_points: 151, announcements: [{Ben: re}],"
    " specials: [{kind: fox_caught, party: re, from: Dirk}]}\n"
    """\
  - {game: club_solo, re: [Dirk], re_points: 80}
  - {misdeal: true}
closed: true                    # optional
"""
)

FOUR = """\
format: doko-session/1
id: test-night
players: [Anna, Ben, Clara, Dirk]
first_dealer: Anna
rules: standard
deals:
  - {game: normal, re: [Ben, Clara], re_points: 151, announcements: [{Ben: re}]}
  - {game: club_solo, re: [Dirk], re_points: 80}
  - {misdeal: true}
  - {game: normal, re: [Anna, Dirk], re_points: 130, specials: [{kind: fox_caught, party: re, from: Ben}]}
closed: true
"""

FIVE = """\
format: doko-session/1
id: test-five
players: [Anna, Ben, Clara, Dirk, Emil]
first_dealer: Anna
rules: standard
deals:
  - {game: normal, re: [Ben, Clara], re_points: 151}
  - {game: normal, re: [Clara, Dirk], re_points: 100}
"""


def text_of(name: str) -> str:
    return (SESSIONS_DIR / name).read_text(encoding="utf-8")


def change(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, f"{old!r} must occur once"
    return text.replace(old, new)


def line_with(text: str, needle: str) -> int:
    """The 1-based number of the only line that contains `needle`."""
    lines = [i for i, line in enumerate(text.splitlines(), 1) if needle in line]
    assert len(lines) == 1, f"{needle!r} is on lines {lines}"
    return lines[0]


def error_of(text: str, source: str = "night.yaml") -> SourceError:
    with pytest.raises(SourceError) as info:
        session_file.loads(text, source)
    return info.value


# -- round trips ---------------------------------------------------------------------


@pytest.mark.parametrize("name", SESSION_FILES)
def test_every_sample_is_canonical(name: str) -> None:
    text = text_of(name)
    assert session_file.dumps(session_file.loads(text)) == text


@pytest.mark.parametrize("name", SESSION_FILES)
def test_every_sample_round_trips_through_a_night(name: str) -> None:
    """`from_night` is the inverse of `to_night` (the leading comment is no part of the night)."""
    loaded = session_file.loads(text_of(name))
    again = session_file.from_night(session_file.to_night(loaded))
    assert again == dataclasses.replace(loaded, note=None)
    assert session_file.dumps(session_file.loads(session_file.dumps(again))) == session_file.dumps(again)


def test_hand_written_text_becomes_canonical_and_stays_so() -> None:
    loaded = session_file.loads(BRIEF)
    assert loaded.players == ("Anna", "Ben", "Clara", "Dirk", "Emil")
    assert loaded.first_dealer == "Anna"
    assert loaded.rules.bock_triggers == ("tie", "lost_solo")
    assert loaded.match_length == 8
    assert loaded.rate == "0.05"
    assert loaded.closed
    assert loaded.deals == (
        SummaryRecord("normal", ("Ben", "Clara"), 151, None, (("Ben", "re"),), (("fox_caught", "re", "Dirk"),)),
        SummaryRecord("club_solo", ("Dirk",), 80),
        MISDEAL,
    )
    canonical = session_file.dumps(loaded)
    assert "# the night's id" not in canonical
    assert session_file.loads(canonical) == loaded
    assert session_file.dumps(session_file.loads(canonical)) == canonical


def test_the_canonical_text_says_who_deals_and_what_each_deal_scored() -> None:
    text = session_file.dumps(session_file.loads(BRIEF))
    assert "# totals: Anna +2, Ben +5, Clara +7, Dirk -11, Emil -3" in text
    assert "# 1: Anna deals and sits out, Ben +5 Clara +5 Dirk -5 Emil -5" in text
    assert "# 2: Ben deals and sits out, starts a bock round, Clara +2 Dirk -6 Emil +2 Anna +2" in text
    assert "# 3: Clara deals and sits out, thrown in, Clara deals again" in text


def test_derived_comments_are_ignored_when_read() -> None:
    text = session_file.dumps(session_file.loads(FOUR))
    wrong = text.replace("Anna deals", "Nobody deals").replace("totals: Anna", "totals: Zoe")
    assert session_file.loads(wrong) == session_file.loads(text)


def test_optional_fields_are_written_only_when_given() -> None:
    minimal = session_file.loads(FOUR)
    assert minimal.match_length is None and minimal.rate is None and minimal.played_on is None
    text = session_file.dumps(minimal)
    for key in ("match_length", "rate", "played_on"):
        assert f"{key}:" not in text
    changed = dataclasses.replace(minimal, match_length=6, rate="0.1", played_on="2026-11-28", closed=False)
    again = session_file.dumps(changed)
    assert "match_length: 6\n" in again and "rate: '0.1'\n" in again and "played_on: '2026-11-28'\n" in again
    assert "closed" not in again
    assert session_file.loads(again) == changed


def test_an_empty_night_and_a_leading_comment() -> None:
    session = NightFile("empty", ("Anna", "Ben", "Clara", "Dirk"), "Ben", preset("tournament"), note="Table 3")
    text = session_file.dumps(session)
    assert text.startswith("# Table 3\nformat: doko-session/1\n")
    assert "deals: []\n" in text and "rules: tournament\n" in text
    assert session_file.loads(text) == session


def test_a_numeric_rate_is_read_as_its_decimal_text() -> None:
    loaded = session_file.loads(change(FOUR, "rules: standard\n", "rules: standard\nrate: 0.05\n"))
    assert loaded.rate == "0.05"


def test_load_and_dump_take_paths_and_streams(tmp_path: Path) -> None:
    loaded = session_file.loads(FOUR)
    path = tmp_path / "night.yaml"
    session_file.dump(loaded, path)
    assert session_file.load(path) == loaded
    stream = io.StringIO()
    session_file.dump(loaded, stream)
    assert session_file.load(io.StringIO(stream.getvalue())) == loaded
    assert session_file.read_file(path).night.state.closed


def test_an_unreadable_file_is_a_source_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="cannot read file"):
        session_file.load(tmp_path / "missing.yaml")
    bad = tmp_path / "latin1.yaml"
    bad.write_bytes("players: [J\xf6rg]".encode("latin-1"))
    with pytest.raises(SourceError, match="not UTF-8"):
        session_file.load(bad)


# -- replaying ---------------------------------------------------------------------


def test_to_night_replays_each_deal_as_a_game_of_the_night() -> None:
    night = session_file.to_night(session_file.loads(FOUR))
    state = night.state
    assert state.session_id == "test-night" and state.closed
    assert state.deals == tuple(f"test-night-{i:02d}" for i in range(1, 5))
    assert [night.games[g].players[night.games[g].dealer] for g in state.deals] == ["Anna", "Ben", "Clara", "Clara"]
    assert night.games["test-night-03"].abandoned == "misdeal"
    assert set(night.new_games) == set(state.deals)


def test_from_night_leaves_voided_deals_out_and_keeps_corrections() -> None:
    night = session_file.to_night(session_file.loads(FOUR.replace("closed: true\n", "")))
    night.void_last()
    night.correct("test-night-02", SummaryRecord("club_solo", ("Dirk",), 130))
    exported = session_file.from_night(night)
    assert len(exported.deals) == 3
    assert exported.deals[1] == SummaryRecord("club_solo", ("Dirk",), 130)
    again = session_file.to_night(exported)
    assert standings(again.state, again.schedule()).table == standings(night.state, night.schedule()).table


def test_from_night_refuses_a_deal_played_card_by_card() -> None:
    night = session_file.to_night(session_file.loads(FOUR.replace("closed: true\n", "")))
    night.add(night.deal_record(None))  # a game started card by card: nothing played yet
    with pytest.raises(NightFileError, match="played card by card") as info:
        session_file.from_night(night)
    assert info.value.path == ("deals", 4)


def test_from_night_needs_a_started_night() -> None:
    with pytest.raises(NightFileError, match="not started"):
        session_file.from_night(Night())


def test_to_night_refuses_with_the_path_of_the_deal() -> None:
    session = session_file.loads(FOUR)
    bad = dataclasses.replace(session, deals=(*session.deals[:2], SummaryRecord("normal", ("Anna",), 130)))
    with pytest.raises(NightFileError, match="two Re players") as info:
        session_file.to_night(bad)
    assert info.value.path == ("deals", 2, "re")
    assert isinstance(Misdeal(), Misdeal) and Misdeal() == MISDEAL


# -- the samples --------------------------------------------------------------------


def night_of(name: str) -> Night:
    return session_file.read_file(SESSIONS_DIR / name).night


@pytest.mark.parametrize("name", SESSION_FILES)
def test_every_sample_replays_to_zero_sum_standings(name: str) -> None:
    night = night_of(name)
    schedule = night.schedule()
    assert night.state.closed
    assert len(schedule.rows) == len(night.state.deals) >= 10
    for row in schedule.rows:
        assert sum(row.deltas.values()) == 0
        assert row.deltas == {p: row.outcome.deltas.get(p, 0) * row.multiplier for p in night.state.players}
        assert all(row.deltas[p] == 0 for p in row.sitting_out)
    table = standings(night.state, schedule).table
    totals = {s.player: s.total for s in table}
    assert totals == {p: sum(r.deltas[p] for r in schedule.rows) for p in night.state.players}
    assert sum(totals.values()) == 0


def test_the_sample_files_are_where_the_game_samples_are_not() -> None:
    assert SESSION_FILES == ["01-kitchen-bock.yaml", "02-club-five-players.yaml", "03-tournament.yaml"]
    for name in SESSION_FILES:
        assert "format: doko-session/1" in text_of(name)


def test_the_bock_sample() -> None:
    night = night_of("01-kitchen-bock.yaml")
    rules, rows = night.state.rules, night.schedule().rows
    assert night.state.table_size == 4 and rules.bock_triggers == ("tie", "lost_solo")
    triggers = [r for r in rows if r.bock_rounds_started]
    assert {t for r in triggers for t in r.outcome.triggers} >= {"tie", "lost_solo"}
    assert any(r.multiplier > 1 and r.bock_rounds_started for r in rows)  # a bock deal queues another round
    bock = [r for r in rows if r.multiplier == 2]
    assert len(bock) == 4 * len(triggers)
    assert any(r.outcome.abandoned for r in rows[rows.index(bock[0]) : rows.index(bock[-1])])
    assert all(r.deltas[p] == 2 * r.outcome.deltas[p] for r in bock for p in r.playing)
    assert rows[-1].multiplier == 1


def test_the_five_player_sample() -> None:
    night = night_of("02-club-five-players.yaml")
    rows = night.schedule().rows
    assert night.state.table_size == 5
    assert all(r.sitting_out == (r.dealer,) for r in rows)
    out = {p: sum(1 for r in rows if p in r.sitting_out and not r.outcome.abandoned) for p in night.state.players}
    assert all(count >= 2 for count in out.values()), out
    table = standings(night.state, night.schedule())
    assert table.rate == Decimal("0.05")
    balances = {s.player: s.money for s in table.table if s.money is not None}
    payments = settle(balances)
    assert len(payments) <= 4
    for player, balance in balances.items():
        paid = sum(p.amount for p in payments if p.payer == player)
        got = sum(p.amount for p in payments if p.payee == player)
        assert got - paid == balance


def test_the_tournament_sample() -> None:
    night = night_of("03-tournament.yaml")
    schedule = night.schedule()
    rows = schedule.rows
    assert night.state.rules == preset("tournament") and night.state.table_size == 4
    assert schedule.counted == 20 and schedule.next.over and schedule.owed == ()
    compulsory = [r for r in rows if r.compulsory]
    assert {r.outcome.solo_by for r in compulsory} | {r.outcome.solo_by for r in rows if r.forced} == set(
        night.state.players
    )
    for row in compulsory:
        assert not row.counts
        assert rows[row.number].dealer == row.dealer  # the same dealer deals again
    later = [r for r in rows if r.outcome.solo_by and not r.compulsory and not r.forced]
    assert later and all(r.counts for r in later)
    forced = [r for r in rows if r.forced]
    assert forced and rows[-1].forced
    assert all(r.number > 20 for r in forced)
    assert any(r.outcome.game_type is not None and r.outcome.game_type.value == "silent_solo" for r in rows)


# -- precise errors ----------------------------------------------------------------------


def test_an_error_names_file_line_and_field() -> None:
    text = change(FOUR, "re: [Anna, Dirk], re_points: 130", "re: [Anna, Zoe], re_points: 130")
    error = error_of(text)
    assert error.source == "night.yaml"
    assert error.line == line_with(text, "Zoe")
    assert error.field == "deals[3].re[1]"
    assert str(error) == (
        f"night.yaml:{error.line}: deals[3].re[1]: unknown player 'Zoe' (players: Anna, Ben, Clara, Dirk)"
    )


BLOCK = """\
format: doko-session/1
id: block-night
players: [Anna, Ben, Clara, Dirk]
first_dealer: Anna
deals:
  - game: normal
    re: [Ben, Clara]
    re_points: 151
  - game: normal
    re: [Anna, Dirk]
    re_points: 130
    announcements:
      - Anna: re
      - Ben: re
"""


def test_block_style_deals_point_at_the_line_of_the_field() -> None:
    error = error_of(BLOCK)
    assert error.field == "deals[1].announcements[1]"
    assert error.line == line_with(BLOCK, "Ben: re")
    assert "Ben is Kontra: a Kontra player cannot say Re" in error.message
    missing = error_of(change(BLOCK, "    re_points: 151\n", ""))
    assert missing.field == "deals[0].re_points"
    assert missing.line == 6  # the deal's first line
    assert "missing 're_points'" in missing.message


# (change to FOUR, the field, a piece of the message)
DEAL_ERRORS = [
    ("re: [Ben, Clara], re_points: 151", "re: [Ben, Zoe], re_points: 151", "deals[0].re[1]", "unknown player 'Zoe'"),
    ("re_points: 151", "re_points: 250", "deals[0].re_points", "Re's card points are 0-240, not 250"),
    ("re_points: 151", "re_points: -5", "deals[0].re_points", "0-240, not -5"),
    ("re: [Dirk], re_points: 80", "re: [Dirk, Anna], re_points: 80", "deals[1].re", "club solo is played by one"),
    ("[{Ben: re}]", "[{Ben: re}, {Anna: re}]", "deals[0].announcements[1]", "Kontra player cannot say Re"),
    ("[{Ben: re}]", "[{Clara: kontra}]", "deals[0].announcements[0]", "Re player cannot say Kontra"),
    ("[{Ben: re}]", "[{Ben: re}, {Ben: re}]", "deals[0].announcements[1]", "announced Re twice"),
    ("[{Ben: re}]", "[{Ben: yes}]", "deals[0].announcements[0].Ben", "'yes' is not one of"),
    ("[{Ben: re}]", "[{Zoe: re}]", "deals[0].announcements[0]", "unknown player 'Zoe'"),
    (
        "re: [Dirk], re_points: 80",
        "re: [Dirk], re_points: 80, specials: [{kind: doppelkopf, party: re}]",
        "deals[1].specials[0]",
        "special points in a solo",
    ),
    ("from: Ben}", "from: Anna}", "deals[3].specials[0]", "a party catches only the other party's cards"),
    ("from: Ben}", "from: Zoe}", "deals[3].specials[0].from", "unknown player 'Zoe'"),
    ("kind: fox_caught, party: re, from: Ben}", "kind: fox_caught, party: re}", "deals[3].specials[0]", "say whose"),
    ("re_points: 80}", "re_points: 80, tricks: {re: 3, kontra: 3}}", "deals[1].tricks", "add up to 12"),
    ("game: club_solo", "game: pure_club_solo", "deals[1].game", "option pure_suit_solos"),
    ("game: club_solo", "game: skat", "deals[1].game", "'skat' is not one of"),
    ("re_points: 80}", "re_points: 80, points: 80}", "deals[1].points", "unknown field 'points'"),
    ("{game: club_solo, re: [Dirk], re_points: 80}", "{game: club_solo, re: [Dirk]}", "deals[1].re_points", "missing"),
    ("{misdeal: true}", "{misdeal: false}", "deals[2].misdeal", "{misdeal: true}"),
    ("{misdeal: true}", "{misdeal: true, game: normal}", "deals[2].game", "nothing else"),
    ("{misdeal: true}", "misdeal", "deals[2]", "a deal is a mapping"),
    ("re_points: 151", "re_points: '151'", "deals[0].re_points", "is not of type 'integer'"),
]


@pytest.mark.parametrize(("old", "new", "field", "message"), DEAL_ERRORS)
def test_a_bad_deal_is_refused_with_its_line_and_field(old: str, new: str, field: str, message: str) -> None:
    text = change(FOUR, old, new)
    error = error_of(text)
    assert error.field == field
    assert message in error.message
    assert error.line == line_with(text, new)


# (change to FOUR, the field, a piece of the message, the text on the line)
TOP_ERRORS = [
    ("[Anna, Ben, Clara, Dirk]", "[Anna, Ben, Clara]", "players", "a card night has 4 to 7 players, not 3", "players:"),
    (
        "[Anna, Ben, Clara, Dirk]",
        "[Anna, Ben, Clara, Dirk, Emil, Fritz, Gabi, Hans]",
        "players",
        "4 to 7 players, not 8",
        "players:",
    ),
    ("[Anna, Ben, Clara, Dirk]", "[Anna, Ben, Clara, Anna]", "players[3]", "'Anna' is at the table twice", "players"),
    ("[Anna, Ben, Clara, Dirk]", "[Anna, ' Ben', Clara, Dirk]", "players[1]", "no white space", "players"),
    ("[Anna, Ben, Clara, Dirk]", '[Anna, Ben, "Clara\\a", Dirk]', "players[2]", "control character", "players"),
    ("rules: standard", "rules: {preset: standard, foo: 1}", "rules.foo", "unknown rule option 'foo'", "rules:"),
    ("rules: standard", "rules: {bock_triggers: [rain]}", "rules.bock_triggers", "bock_triggers", "rules:"),
    ("rules: standard", "rules: skat", "rules", "unknown rule preset 'skat'", "rules:"),
    ("first_dealer: Anna", "first_dealer: Zoe", "first_dealer", "'Zoe' is not at the table", "first_dealer"),
    ("first_dealer: Anna\n", "", "first_dealer", "missing 'first_dealer'", "format:"),
    ("format: doko-session/1", "format: doko-game/1", "format", "(this is a game file)", "format:"),
    ("id: test-night", "id: 'test night'", "id", "an id holds letters, digits", "id:"),
    ("rules: standard", "rules: standard\nrate: 'a lot'", "rate", "money rate", "rate:"),
    ("rules: standard", "rules: standard\nmatch_length: 0", "match_length", "1 to 100 deals, not 0", "match_length"),
    ("rules: standard", "rules: standard\nsince: 2026", "since", "unknown field 'since'", "since:"),
    ("closed: true", "closed: yes", "closed", "is not of type 'boolean'", "closed:"),
]


@pytest.mark.parametrize(("old", "new", "field", "message", "on_line"), TOP_ERRORS)
def test_a_bad_header_is_refused_with_its_line_and_field(
    old: str, new: str, field: str, message: str, on_line: str
) -> None:
    text = change(FOUR, old, new)
    error = error_of(text)
    assert error.field == field
    assert message in error.message
    assert error.line == line_with(text, on_line)


def test_a_deal_after_closed_is_refused_by_the_recorder() -> None:
    text = change(FOUR, "closed: true\n", "")
    text = change(text, "rules: standard\n", "rules: standard\nclosed: true\n")
    error = error_of(text)
    assert error.field == "deals[0]"
    assert error.line == line_with(text, "re_points: 151")
    assert "is closed: nothing more can be added" in error.message
    assert session_file.loads(change(text, text[text.index("deals:") :], "deals: []\n")).closed


def test_a_sitting_out_player_cannot_play_the_deal() -> None:
    text = change(FIVE, "re: [Ben, Clara], re_points: 151", "re: [Anna, Clara], re_points: 151")
    error = error_of(text)
    assert error.field == "deals[0].re[0]"
    assert error.message == "Anna sits out deal 1 (Anna deals; playing: Ben, Clara, Dirk, Emil)"
    assert error.line == line_with(text, "[Anna, Clara]")


def test_a_forced_solo_and_a_complete_tournament_are_refused_by_the_recorder() -> None:
    text = text_of("03-tournament.yaml")
    forced = change(
        text, "{game: ace_solo, re: [Niklas], re_points: 134}", "{game: normal, re: [Niklas, Paul], re_points: 134}"
    )
    error = error_of(forced)
    assert error.field == "deals[22]"
    assert "a forced solo is due" in error.message and "Niklas, Paul" in error.message
    assert error.line == line_with(forced, "re: [Niklas, Paul], re_points: 134")
    extra = change(text, "closed: true\n", "  - {game: normal, re: [Marta, Olga], re_points: 121}\n")
    error = error_of(extra)
    assert error.field == "deals[24]" and "the tournament is complete" in error.message


def test_a_duplicated_key_and_a_non_mapping_are_refused() -> None:
    error = error_of(change(FOUR, "rules: standard\n", "rules: standard\nrules: bistro\n"))
    assert "given twice" in error.message and error.line == 6
    assert "a session file is a mapping" in error_of("- Anna\n- Ben\n").message


@pytest.mark.parametrize(
    ("text", "message", "line"),
    [
        ("format: doko-session/1\nplayers: [Anna, Ben\nid: x\n", "not valid YAML", 3),
        ("format: doko-session/1\nid: [unclosed\n", "not valid YAML", 3),
        ("players: !!python/object/apply:os.system ['true']\n", "only plain YAML data", 1),
        ("format: doko-session/1\nid: &a x\nfirst_dealer: *a\n", "anchors and aliases", 2),
    ],
)
def test_not_yaml_or_not_plain_data_is_refused(text: str, message: str, line: int) -> None:
    error = error_of(text)
    assert message in error.message
    assert error.line == line


def test_a_python_tag_in_a_deal_is_refused() -> None:
    text = change(FOUR, "{misdeal: true}", "!!python/object:doko_ledger.doppelkopf.files.night_file.Misdeal {}")
    error = error_of(text)
    assert "only plain YAML data" in error.message
    assert error.line == line_with(text, "python/object")
