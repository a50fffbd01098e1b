"""The YAML game file: byte-exact round trips, lenient card names, and precise errors."""

from __future__ import annotations

import dataclasses
import io
import json
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from doko_ledger.doppelkopf.events import ReservationDeclared
from doko_ledger.doppelkopf.files import game_file
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.ruleset import preset
from doko_ledger.events.codec import to_payload
from doko_ledger.formats.yaml_source import MAX_FILE_BYTES, SourceError
from doko_ledger.games import DOPPELKOPF
from doko_ledger.ledger import Ledger

if TYPE_CHECKING:
    from conftest import RandomGame

SMOKE = """\
format: doko-game/1
id: smoke-1
played_on: '2026-11-28'
players: [Anna, Ben, Clara, Dirk]
dealer: Dirk
rules: standard
hands:
  Anna: [D10, HJ, S10, S10, C9, D9, C9, SK, HQ, DA, DK, DQ]
  Ben: [HK, CJ, CA, S9, SQ, SA, DJ, HA, SJ, D9, HK, D10]
  Clara: [SQ, CA, H9, SK, HQ, CQ, DJ, H10, H10, CK, C10, SA]
  Dirk: [HJ, DQ, DA, S9, CQ, H9, CK, C10, DK, HA, CJ, SJ]
tricks:  # normal
  - [SK, S9, SK, S9]  # 1: Anna leads, Anna wins 8
  - [C9, CA, C10, C10]  # 2: Anna leads, Ben wins 31
  - [HA, H9, HA, HQ]  # 3: Ben leads, Anna wins 25
  - [C9, SA, CA, CK]  # 4: Anna leads, Clara wins 26
  - [SQ, DK, D9, D9]  # 5: Clara leads, Clara wins 7
  - [H10, DA, DK, DJ]  # 6: Clara leads, Clara wins 27
  - [CK, HJ, D10, D10]  # 7: Clara leads, Dirk wins 26
  - [CJ, HJ, SQ, CQ]  # 8: Dirk leads, Clara wins 10
  - [SA, SJ, S10, SJ]  # 9: Clara leads, Dirk wins 25
  - [DQ, DQ, CJ, H10]  # 10: Dirk leads, Clara wins 18
  - [DJ, CQ, DA, HK]  # 11: Clara leads, Dirk wins 20
  - [H9, S10, HK, HQ]  # 12: Dirk leads, Clara wins 17
"""

SCHWEINCHEN = """\
format: doko-game/1
id: pig-1
players: [Anna, Ben, Clara, Dirk]
dealer: Dirk
rules: bistro
tricks:  # normal
  - [{Anna: schweinchen}, DA, DK, D10, DQ]  # 1: Anna leads, Anna wins 28
  - [DA, HJ]  # 2: Anna leads
"""

NO_HANDS = SMOKE.split("hands:\n")[0] + SMOKE[SMOKE.index("tricks:") :]


def change(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, f"{old!r} must occur once"
    return text.replace(old, new)


def line_with(text: str, needle: str) -> int:
    """The 1-based number of the only line that contains `needle`."""
    lines = [i for i, line in enumerate(text.splitlines(), 1) if needle in line]
    assert len(lines) == 1, f"{needle!r} is on lines {lines}"
    return lines[0]


def error_of(text: str, source: str = "game.yaml") -> SourceError:
    with pytest.raises(SourceError) as info:
        game_file.loads(text, source)
    return info.value


def assert_error(err: SourceError, *, line: int | None, field: str, says: str, source: str = "game.yaml") -> None:
    assert err.line == line, str(err)
    assert err.field == field, str(err)
    assert says in err.message, str(err)
    where = source if line is None else f"{source}:{line}"
    assert str(err) == f"{where}: {field + ': ' if field else ''}{err.message}"
    assert "\n" not in str(err)


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Fail instead of hanging when the code under test runs away."""

    def expire(signum: int, frame: object) -> None:
        raise TimeoutError(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# -- round trips -----------------------------------------------------------------------------


@pytest.mark.parametrize("text", [SMOKE, NO_HANDS, SCHWEINCHEN], ids=["smoke", "no-hands", "schweinchen"])
def test_dumps_of_loads_is_the_same_text(text: str) -> None:
    assert game_file.dumps(game_file.loads(text)) == text


def test_smoke_game_reads_as_expected() -> None:
    loaded = game_file.read(SMOKE)
    record = loaded.record
    assert record.id == "smoke-1"
    assert record.players == ("Anna", "Ben", "Clara", "Dirk")
    assert record.dealer == "Dirk"
    assert record.rules == preset("standard")
    assert record.hands is not None and [len(h) for h in record.hands] == [12, 12, 12, 12]
    assert len(record.tricks) == 12
    assert loaded.state.points_won() == (33, 31, 105, 71)
    assert loaded.state.finished
    assert loaded.state.game_type is GameType.NORMAL
    assert loaded.state.declarer is None
    assert [type(e).__name__ for e in loaded.events[:6]] == ["GameStarted", "CardsDealt"] + ["ReservationDeclared"] * 4
    assert loaded.events[2:6] == [ReservationDeclared(seat, True) for seat in (0, 1, 2, 3)]  # from Dirk's left
    assert len(loaded.events) == 2 + 4 + 48


@pytest.mark.parametrize("seed", range(6))
def test_loads_of_dumps_is_the_same_record(make_game: Callable[..., RandomGame], seed: int) -> None:
    game = make_game(seed, tricks=None if seed % 2 else seed + 3)
    assert game_file.loads(game.text) == game.record
    assert game_file.dumps(game_file.loads(game.text)) == game.text
    without_hands = dataclasses.replace(game.record, hands=None, played_on=None)
    assert game_file.loads(game_file.dumps(without_hands)) == without_hands


def test_changed_rule_options_round_trip_as_a_flow_mapping() -> None:
    text = change(SMOKE, "rules: standard", "rules: {preset: ddv, second_dulle_beats_first: true}")
    record = game_file.loads(text)
    assert record.rules.preset == "ddv"
    assert record.rules.second_dulle_beats_first
    assert not record.rules.poverty  # from the ddv preset
    assert game_file.dumps(record) == text


def test_an_option_equal_to_the_preset_is_not_written() -> None:
    text = change(SMOKE, "rules: standard", "rules: {preset: standard, with_nines: true}")
    assert game_file.dumps(game_file.loads(text)) == SMOKE


def test_comments_are_derived_and_ignored_when_read() -> None:
    wrong = change(SMOKE, "# 1: Anna leads, Anna wins 8", "# whatever anyone wrote")
    assert game_file.loads(wrong) == game_file.loads(SMOKE)
    assert game_file.dumps(game_file.loads(wrong)) == SMOKE


def test_load_and_dump_files_and_streams(tmp_path: Path) -> None:
    record = game_file.loads(SMOKE)
    path = tmp_path / "smoke.yaml"
    game_file.dump(record, path)
    assert path.read_bytes() == SMOKE.encode("utf-8")
    assert game_file.load(path) == record
    assert game_file.load(str(path)) == record
    buffer = io.StringIO()
    game_file.dump(record, buffer)
    assert buffer.getvalue() == SMOKE
    assert game_file.load(io.StringIO(SMOKE)) == record


def _payloads(ledger: Ledger, game_id: str) -> list[tuple[str, int, dict[str, object]]]:
    return [(r.envelope.event_type, r.envelope.version, to_payload(r.event)) for r in ledger.events(game_id)]


@pytest.mark.parametrize("seed", [None, 3, 4])
def test_export_then_import_gives_identical_event_payloads(
    tmp_path: Path, make_game: Callable[..., RandomGame], seed: int | None
) -> None:
    text = SMOKE if seed is None else make_game(seed).text
    loaded = game_file.read(text, "first.yaml")
    game_id = loaded.record.id
    with Ledger.open(tmp_path / "one.sqlite", create=True) as one:
        one.import_games([("first.yaml", loaded)], recorded_by="a", recorded_at="2026-01-01T00:00:00+00:00")
        exported = game_file.dumps(one.book_of(DOPPELKOPF).record(game_id))
        first = _payloads(one, game_id)
    assert exported == text
    with Ledger.open(tmp_path / "two.sqlite", create=True) as two:
        again = game_file.read(exported, "exported.yaml")
        two.import_games([("exported.yaml", again)], recorded_by="b", recorded_at="2027-01-01T00:00:00+00:00")
        assert _payloads(two, game_id) == first
        assert game_file.dumps(two.book_of(DOPPELKOPF).record(game_id)) == text


# -- lenient reading, canonical writing ------------------------------------------------------


def test_card_aliases_are_accepted_and_written_canonically() -> None:
    text = change(SMOKE, "Anna: [D10, HJ, S10", "Anna: ['♦10', Herz Bube, 10♠")
    text = change(text, "[SK, S9, SK, S9]", "['♠K', Pik Neun, Pik König, s9]")
    text = change(text, "CQ, DJ, H10, H10", "Kreuz Dame, karo bube, '♥10', Herz 10")
    text = change(text, "[C9, CA, C10, C10]", "[Kreuz 9, KrA, ♣10, '10♣']")
    text = change(text, "[DJ, CQ, DA, HK]", "[KaB, Kreuz Dame, Karo As, HK]")
    assert game_file.loads(text) == game_file.loads(SMOKE)
    assert game_file.dumps(game_file.loads(text)) == SMOKE


def test_an_unquoted_date_stays_text() -> None:
    text = change(SMOKE, "played_on: '2026-11-28'", "played_on: 2026-11-28")
    record = game_file.loads(text)
    assert record.played_on == "2026-11-28"
    assert isinstance(record.played_on, str)
    assert game_file.dumps(record) == SMOKE


def test_a_date_and_time_stays_text() -> None:
    text = change(SMOKE, "played_on: '2026-11-28'", "played_on: 2026-11-28 20:15:00")
    record = game_file.loads(text)
    assert record.played_on == "2026-11-28 20:15:00"
    assert game_file.loads(game_file.dumps(record)) == record


@pytest.mark.parametrize("name", ["No", "no", "Yes", "y", "n", "on", "Off", "NO"])
def test_a_player_named_like_a_yaml_1_1_boolean_stays_a_string(name: str) -> None:
    text = SMOKE.replace("Ben", name)
    record = game_file.loads(text)
    assert record.players == ("Anna", name, "Clara", "Dirk")
    assert game_file.loads(game_file.dumps(record)) == record
    assert game_file.dumps(game_file.loads(game_file.dumps(record))) == game_file.dumps(record)


@pytest.mark.parametrize(
    "name",
    [
        "Zoë",
        "O'Brien",
        "a #b",
        "c: d",
        "- e",
        " lead",
        "trail ",
        "null",
        "~",
        "12",
        "[x]",
        "José María",
        "A\nB",
        "Anna\u00a0",
        "\u3000Ben",
        "bell\x07",
    ],
)
def test_any_player_name_that_loads_round_trips(name: str) -> None:
    """Whatever name a file may hold (written as a JSON string, which YAML reads too)
    must come back unchanged from `dumps` — or be refused when the file is read."""
    text = change(SMOKE, "players: [Anna, Ben, Clara, Dirk]", f"players: [Anna, {json.dumps(name)}, Clara, Dirk]")
    text = change(text, "  Ben: [", f"  {json.dumps(name)}: [")
    try:
        record = game_file.loads(text)
    except SourceError:
        return
    assert record.players[1] == name
    dumped = game_file.dumps(record)
    assert game_file.loads(dumped) == record
    assert game_file.dumps(game_file.loads(dumped)) == dumped


# -- precise errors --------------------------------------------------------------------------


def test_broken_yaml_names_the_line() -> None:
    err = error_of(change(SMOKE, "dealer: Dirk", "dealer: Dirk: Anna"))
    assert_error(err, line=5, field="", says="not valid YAML: mapping values are not allowed here")


def test_a_tab_indent_names_the_line() -> None:
    err = error_of(change(SMOKE, "  Ben: [", "\tBen: ["))
    assert_error(err, line=9, field="", says="not valid YAML")


@pytest.mark.parametrize(
    "tag",
    [
        "!!python/object/apply:os.system",
        "!!python/object/new:os.system",
        "!!python/object/apply:subprocess.check_output",
    ],
)
def test_a_python_tag_is_refused_and_never_run(tmp_path: Path, tag: str) -> None:
    marker = tmp_path / "pwned"
    err = error_of(change(SMOKE, "dealer: Dirk", f'dealer: {tag} ["touch {marker}"]'))
    assert_error(err, line=5, field="", says="only plain YAML data is read")
    assert "python/object" in err.message
    assert not marker.exists()


def test_a_python_name_tag_is_refused() -> None:
    err = error_of(change(SMOKE, "dealer: Dirk", "dealer: !!python/name:os.system ''"))
    assert_error(err, line=5, field="", says="only plain YAML data is read")


def test_a_key_given_twice_is_an_error_on_its_second_line() -> None:
    err = error_of(change(SMOKE, "dealer: Dirk\n", "dealer: Dirk\nplayed_on: '2026-11-29'\n"))
    assert_error(err, line=6, field="", says="key 'played_on' is given twice")


def test_a_hand_given_twice_is_an_error() -> None:
    err = error_of(change(SMOKE, "  Dirk: [", "  Anna: ["))
    assert_error(err, line=11, field="", says="key 'Anna' is given twice")


@pytest.mark.parametrize(
    ("players", "field", "says"),
    [
        ("Anna", "players", "'Anna' is not of type 'array'"),
        ("{Anna: 1}", "players", "is not of type 'array'"),
        ("[Anna, Ben, Clara, true]", "players[3]", "True is not of type 'string'"),
        ("[Anna, Ben, Clara, 12]", "players[3]", "12 is not of type 'string'"),
        ("[Anna, Ben, Clara]", "players", "is too short"),
        ("[Anna, Ben, Anna, Dirk]", "players", "non-unique"),
    ],
)
def test_wrong_players_name_line_and_field(players: str, field: str, says: str) -> None:
    err = error_of(change(SMOKE, "players: [Anna, Ben, Clara, Dirk]", f"players: {players}"))
    assert_error(err, line=4, field=field, says=says)


def test_an_unknown_field_names_its_own_line() -> None:
    text = change(SMOKE, "dealer: Dirk\n", "dealer: Dirk\ncolour: blue\n")
    err = error_of(text)
    assert "'colour'" in str(err)
    assert err.line == line_with(text, "colour"), str(err)


def test_a_missing_field_is_named() -> None:
    err = error_of(change(SMOKE, "dealer: Dirk\n", ""))
    assert_error(err, line=1, field="", says="'dealer' is a required property")


def test_a_wrong_format_is_named() -> None:
    err = error_of(change(SMOKE, "format: doko-game/1", "format: doko-game/2"))
    assert_error(err, line=1, field="format", says="'doko-game/1' was expected")


def test_a_game_file_must_be_a_mapping() -> None:
    assert_error(error_of("- a\n- b\n"), line=1, field="", says="a game file is a mapping")
    assert_error(error_of(""), line=None, field="", says="a game file is a mapping")


def test_an_unknown_card_in_a_hand() -> None:
    err = error_of(change(SMOKE, "Anna: [D10, HJ, S10, S10, C9", "Anna: [D10, HJ, S10, S10, XZ"))
    assert_error(err, line=8, field="hands.Anna[4]", says="unknown card 'XZ'")


def test_an_unknown_card_in_a_trick() -> None:
    err = error_of(change(SMOKE, "[CK, HJ, D10, D10]", "[CK, XZ, D10, D10]"))
    assert_error(err, line=19, field="tricks[6][1]", says="unknown card 'XZ'")


def test_a_hand_of_thirteen_cards() -> None:
    err = error_of(change(SMOKE, "Ben: [HK, CJ,", "Ben: [HK, HK, CJ,"))
    assert_error(err, line=9, field="hands.Ben", says="too long")


def test_a_hand_of_eleven_cards() -> None:
    err = error_of(change(SMOKE, "Ben: [HK, CJ,", "Ben: [CJ,"))
    assert "Ben's hand has 11 cards; each hand has 12" in err.message
    assert err.line == 9, str(err)  # Ben's hand, not the first hand


def test_a_card_played_twice_by_the_same_player() -> None:
    # Anna holds one SK and plays it in trick 1; she leads it again in trick 4
    err = error_of(change(SMOKE, "[C9, SA, CA, CK]", "[SK, SA, CA, CK]"))
    assert_error(err, line=16, field="tricks[3][0]", says="Anna does not hold SK")


def test_a_third_copy_of_a_card_without_hands() -> None:
    text = change(NO_HANDS, "[C9, SA, CA, CK]", "[SK, SA, CA, CK]")
    err = error_of(text)
    assert_error(err, line=line_with(text, "[SK, SA, CA, CK]"), field="tricks[3][0]", says="a third SK")


def test_a_trick_written_from_the_wrong_leader_is_out_of_turn() -> None:
    # Anna won trick 1 and leads trick 2; the file lists it from Ben's card
    err = error_of(change(SMOKE, "[C9, CA, C10, C10]", "[CA, C10, C10, C9]"))
    assert_error(err, line=14, field="tricks[1][0]", says="Anna does not hold CA")


def test_a_short_trick_before_the_last() -> None:
    err = error_of(change(SMOKE, "[HA, H9, HA, HQ]", "[HA, H9, HA]"))
    assert_error(err, line=15, field="tricks[2]", says="trick 3 has 3 cards; only the last trick may be unfinished")


def test_a_trick_of_five_cards() -> None:
    err = error_of(change(SMOKE, "[HA, H9, HA, HQ]", "[HA, H9, HA, HQ, C9]"))
    assert_error(err, line=15, field="tricks[2]", says="trick 3 has 5 cards; a trick has four")


def test_a_thirteenth_trick() -> None:
    err = error_of(SMOKE + "  - [C9, C9, C9, C9]\n")
    assert err.line == line_with(SMOKE, "tricks:") + 1
    assert err.field == "tricks"


def test_a_revoke_names_the_line_of_the_card() -> None:
    err = error_of(change(SMOKE, "[SK, S9, SK, S9]", "[SK, S9, SK, CK]"))
    assert_error(err, line=13, field="tricks[0][3]", says="revoke: Dirk must follow the led suit of SK with one of S9")


def test_a_revoke_in_a_block_list_names_the_line_of_the_card() -> None:
    text = change(
        SMOKE, "  - [SK, S9, SK, S9]  # 1: Anna leads, Anna wins 8\n", "  - - SK\n    - S9\n    - SK\n    - CK\n"
    )
    err = error_of(text)
    assert_error(err, line=line_with(text, "- CK"), field="tricks[0][3]", says="revoke")


def test_an_unknown_call() -> None:
    err = error_of(change(SMOKE, "[SK, S9, SK, S9]", "[SK, {Ben: hello}, S9, SK, S9]"))
    assert_error(err, line=13, field="tricks[0][1]", says="{'Ben': 'hello'}")


def test_an_unknown_rule_preset() -> None:
    err = error_of(change(SMOKE, "rules: standard", "rules: fancy"))
    assert_error(
        err, line=6, field="rules", says="unknown rule preset 'fancy' (known: standard, bistro, ddv, duel, tournament)"
    )


def test_an_unknown_rule_option_is_named_on_its_line() -> None:
    text = change(SMOKE, "rules: standard\n", "rules:\n  preset: standard\n  bogus_option: true\n")
    err = error_of(text)
    assert "bogus_option" in err.message, str(err)
    assert "card" not in err.message, str(err)  # not a trick entry
    assert err.line == line_with(text, "bogus_option"), str(err)


@pytest.mark.parametrize(
    ("option", "value"),
    [("with_nines", "maybe"), ("announcement_scoring", "triple"), ("marriage_clarification", "1")],
)
def test_a_wrong_rule_option_value_is_named_on_its_line(option: str, value: str) -> None:
    text = change(SMOKE, "rules: standard\n", f"rules:\n  preset: standard\n  {option}: {value}\n")
    err = error_of(text)
    assert option in err.message, str(err)
    assert "card" not in err.message, str(err)  # not a trick entry
    assert err.line == line_with(text, f"{option}:"), str(err)


def test_a_hand_for_an_unknown_player() -> None:
    err = error_of(change(SMOKE, "  Ben: [", "  Zoe: ["))
    assert_error(err, line=9, field="hands.Zoe", says="hand of unknown player 'Zoe' (players: Anna, Ben, Clara, Dirk)")


def test_an_unknown_dealer() -> None:
    err = error_of(change(SMOKE, "dealer: Dirk", "dealer: Zoe"))
    assert_error(err, line=5, field="dealer", says="unknown player 'Zoe'")


@pytest.mark.parametrize(
    ("reservations", "field", "says"),
    [
        ("{Ben: reservation}", "reservations.Ben", "Ben's reservation decides the game: say what it is"),
        ("{Ben: solo}", "reservations.Ben", "'solo' is not one of"),
        ("{Ben: silent_solo}", "reservations.Ben", "'silent_solo' is not one of"),
        ("{Ben: pure_club_solo}", "reservations.Ben", "pure_club_solo is not allowed under these rules"),
        ("{Ben: marriage}", "reservations.Ben", "Ben cannot announce a marriage without both CQ (docs/rules.md §4)"),
        ("{Ben: poverty}", "reservations.Ben", "Ben holds 6 trumps: a poverty needs 3 or fewer (docs/rules.md §4)"),
        ("{Zoe: queen_solo}", "reservations.Zoe", "reservation of unknown player 'Zoe'"),
    ],
)
def test_a_reservation_that_cannot_be_recorded(reservations: str, field: str, says: str) -> None:
    text = change(SMOKE, "rules: standard\n", f"rules: standard\nreservations: {reservations}\n")
    err = error_of(text)
    assert_error(err, line=line_with(text, "reservations:"), field=field, says=says)


def test_a_reservation_error_names_the_players_line() -> None:
    text = change(SMOKE, "rules: standard\n", "rules: standard\nreservations:\n  Anna: healthy\n  Ben: reservation\n")
    err = error_of(text)
    assert_error(err, line=line_with(text, "Ben: reservation"), field="reservations.Ben", says="say what it is")


def test_a_file_over_one_megabyte_is_refused(tmp_path: Path) -> None:
    big = SMOKE + "# " + "x" * MAX_FILE_BYTES + "\n"
    err = error_of(big)
    assert_error(err, line=None, field="", says="larger than 1,000,000 bytes")
    path = tmp_path / "big.yaml"
    path.write_text(big, encoding="utf-8")
    with pytest.raises(SourceError, match=r"big\.yaml: file is larger than 1,000,000 bytes"):
        game_file.read_file(path)


def test_a_file_of_exactly_one_megabyte_is_read() -> None:
    padding = MAX_FILE_BYTES - len(SMOKE.encode("utf-8")) - len("#\n")
    text = SMOKE + "#" + "x" * padding + "\n"
    assert len(text.encode("utf-8")) == MAX_FILE_BYTES
    assert game_file.loads(text) == game_file.loads(SMOKE)
    with pytest.raises(SourceError, match="larger than"):
        game_file.loads(text + "x")


def test_non_utf8_bytes_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes(SMOKE.replace("Anna", "Zoë").encode("latin-1"))
    with pytest.raises(SourceError, match=r"latin1\.yaml: not UTF-8 text") as info:
        game_file.read_file(path)
    assert info.value.source == str(path)
    with pytest.raises(SourceError, match="not UTF-8"):
        game_file.load(path)


def test_a_missing_file_is_a_source_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match=r"nope\.yaml: cannot read file"):
        game_file.read_file(tmp_path / "nope.yaml")


def test_errors_carry_the_source_name(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(change(SMOKE, "[CK, HJ, D10, D10]", "[CK, XZ, D10, D10]"), encoding="utf-8")
    with pytest.raises(SourceError) as info:
        game_file.read_file(path)
    assert str(info.value).startswith(f"{path}:19: tricks[6][1]: unknown card 'XZ'")


# -- hostile YAML: refused promptly, as a SourceError ----------------------------------------


def test_a_self_referencing_alias_is_a_source_error() -> None:
    with time_limit(5):
        err = error_of(SMOKE + "loop: &loop [1, *loop]\n")
    assert err.source == "game.yaml"


def test_deeply_nested_lists_are_a_source_error() -> None:
    with time_limit(5):
        error_of(SMOKE + "deep: " + "[" * 2000 + "]" * 2000 + "\n")


def test_an_alias_bomb_is_refused_promptly() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 9)]
    text = "\n".join(lines) + "\n"
    assert len(text) < 1_000
    with time_limit(2):
        error_of(text)
