"""Malformed and illegal input, end to end through `doko`: refused cleanly and the ledger untouched.

Every file in `tests/bad_inputs/` (game files, session files, rule files; named for what is
wrong with it), two generated files over 1 MB, and a table of command lines are run against
a ledger holding a few games and an open card night, and against a path with no ledger.
Each must give:

- a non-zero exit code (the one docs/commands.md documents for it),
- no traceback anywhere in the output,
- exactly one `error:` line on stderr naming what is wrong and where: `file:line: field:`
  for a file, the option (or the value given) for a command line; `doko import` adds its
  count of files not imported on a line of its own,
- the ledger's bytes unchanged, its `-wal`/`-shm` files included; where there was no ledger,
  still none.

Cases that show a bug of the library are marked `xfail(strict=True)` with the reason, so
they turn into failures the day the bug is fixed and the mark can go.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from doko_ledger.cli.app import app
from doko_ledger.numbers import counted

TESTS = Path(__file__).resolve().parents[1]
BAD = TESTS / "bad_inputs"
SAMPLES = TESTS.parent / "sample_games"
ENV = {"COLUMNS": "120", "NO_COLOR": "1", "DOKO_USER": "tester", "TERM": "dumb"}
IMPORT_COUNT = "1 file not imported"
"""The one line besides the error that `doko import` prints on stderr."""

LEDGER, NO_LEDGER = "ledger", "no-ledger"
MODES = (LEDGER, NO_LEDGER)


@dataclass(frozen=True)
class Bug:
    """A case the library gets wrong today: why, and in which modes."""

    reason: str
    modes: tuple[str, ...] = MODES


TRACEBACK = Bug("a collection as a mapping key raises TypeError (unhashable) in yaml_source._check_duplicate_keys")
TWO_LINES = Bug(
    "yaml.reader.ReaderError is not a MarkedYAMLError: its text (two lines, no line number) is quoted as is"
)
USAGE_PANEL = Bug("click/typer usage errors print a multi-line Rich panel (wrapping long messages), not one line")


# -- the files ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class BadFile:
    """What `doko` must say about one file: its line (None: the file as a whole; a tuple: any
    of these, e.g. a summary's own line or its field's), the field, and words of the message
    (for a bug, loose enough that any fix passes and the strict xfail reports it)."""

    line: int | tuple[int | None, ...] | None
    field: str
    says: str
    ledger_only: bool = False
    bug: Bug | None = None


FILES: dict[str, BadFile] = {
    # YAML and the file as a whole
    "broken_yaml.yaml": BadFile(4, "", "not valid YAML: mapping values are not allowed here"),
    "unclosed_bracket.yaml": BadFile(15, "", "not valid YAML: expected ',' or ']'"),
    "tab_indent.yaml": BadFile(8, "", "not valid YAML: found character '\\t'"),
    "empty.yaml": BadFile(None, "", "a game file is a mapping"),
    "only_comments.yaml": BadFile(None, "", "a game file is a mapping"),
    "list_not_mapping.yaml": BadFile(1, "", "a game file is a mapping"),
    "scalar_not_mapping.yaml": BadFile(1, "", "a game file is a mapping"),
    "duplicate_key.yaml": BadFile(6, "", "key 'rules' is given twice"),
    "mapping_key_is_a_list.yaml": BadFile((5, None), "", ""),
    "python_object_apply.yaml": BadFile(4, "", "python/object/apply:os.system'; only plain YAML data is read"),
    "python_name_tag.yaml": BadFile(4, "", "python/name:os.system'; only plain YAML data is read"),
    "unknown_yaml_tag.yaml": BadFile(4, "", "tag '!player'; only plain YAML data is read"),
    "billion_laughs.yaml": BadFile(3, "", "anchors and aliases (& and *) are not read"),
    "alias_reuses_hand.yaml": BadFile(7, "", "anchors and aliases (& and *) are not read"),
    "self_referencing_alias.yaml": BadFile(16, "", "anchors and aliases (& and *) are not read"),
    "deep_nesting.yaml": BadFile(16, "", "nested deeper than 20 levels"),
    "non_utf8.yaml": BadFile(None, "", "not UTF-8 text"),
    "utf16.yaml": BadFile(None, "", "not UTF-8 text"),
    "nul_byte.yaml": BadFile((4, None), "", "character"),
    "long_leading_comment.yaml": BadFile(
        1, "note", "the leading comment (the note) has 11,679 characters; at most 10,000"
    ),
    # the schema
    "wrong_format.yaml": BadFile(1, "format", "'doko-game/1' was expected"),
    "missing_dealer.yaml": BadFile(1, "", "'dealer' is a required property"),
    "unknown_field.yaml": BadFile(5, "colour", "unknown field ('colour' was unexpected)"),
    "id_with_path.yaml": BadFile(2, "id", "'../../etc/passwd' does not match"),
    "players_not_a_list.yaml": BadFile(3, "players", "'Anna' is not of type 'array'"),
    "player_not_a_string.yaml": BadFile(3, "players[3]", "12 is not of type 'string'"),
    "player_named_twice.yaml": BadFile(3, "players", "non-unique"),
    "five_players.yaml": BadFile(3, "players", "'Emil'] is too long"),
    "three_players.yaml": BadFile(3, "players", "is too short"),
    "unknown_dealer.yaml": BadFile(4, "dealer", "unknown player 'Zoe'"),
    "played_on_not_text.yaml": BadFile(5, "played_on", "[2026, 11, 28] is not of type 'string'"),
    "tricks_not_a_list.yaml": BadFile(11, "tricks", "'SA S9 SK S9' is not of type 'array'"),
    # cards and hands
    "unknown_card_in_hand.yaml": BadFile(8, "hands.Ben[0]", "unknown card 'XZ'"),
    "unknown_card_in_trick.yaml": BadFile(14, "tricks[2][2]", "unknown card 'C11'"),
    "card_not_a_string.yaml": BadFile(
        14,
        "tricks[2][1]",
        "card",
    ),
    "thirteen_cards.yaml": BadFile(8, "hands.Ben", "is too long"),
    "eleven_cards.yaml": BadFile(8, "hands.Ben", "Ben's hand has 11 cards; each hand has 12"),
    "hand_of_unknown_player.yaml": BadFile(8, "hands.Zoe", "hand of unknown player 'Zoe'"),
    "card_played_twice.yaml": BadFile(14, "tricks[2][0]", "Anna does not hold SA"),
    "third_copy_without_hands.yaml": BadFile(8, "tricks[1][1]", "Ben played a third SA"),
    "out_of_turn.yaml": BadFile(14, "tricks[2][0]", "Anna does not hold CK"),
    "revoke.yaml": BadFile(
        12, "tricks[0][1]", "revoke: Ben must follow the led suit of SA with one of SA SK S9, not D9"
    ),
    "trick_of_five_cards.yaml": BadFile(14, "tricks[2]", "trick 3 has 5 cards; a trick has four"),
    "short_trick_before_the_last.yaml": BadFile(14, "tricks[2]", "only the last trick may be unfinished"),
    "thirteen_tricks.yaml": BadFile((12, 24), "tricks", "is too long"),
    # calls
    "late_announcement.yaml": BadFile(14, "tricks[2][0]", "Anna: Re is too late"),
    "wrong_party_call.yaml": BadFile(12, "tricks[0][1]", "Ben cannot announce Re: a player announces only for"),
    "unknown_call.yaml": BadFile(12, "tricks[0][1]", "{'Ben': 'doppelt'}"),
    "call_of_two_players.yaml": BadFile(12, "tricks[0][1]", "one call such as {Anna: re}"),
    "call_by_unknown_player.yaml": BadFile(12, "tricks[0][1]", "unknown player 'Zoe'"),
    "no90_after_no60.yaml": BadFile(12, "tricks[0][1]", "Anna already announced no 90"),
    # reservations
    "poverty_with_four_trumps.yaml": BadFile(6, "reservations.Karl", "Karl holds 4 trumps: a poverty needs 3 or fewer"),
    "poverty_passing_two_cards.yaml": BadFile(8, "poverty.passed", "is too short"),
    "reservation_of_unknown_player.yaml": BadFile(6, "reservations.Zoe", "reservation of unknown player 'Zoe'"),
    "unknown_reservation.yaml": BadFile(6, "reservations.Ben", "'grand_solo' is not one of"),
    "pure_solo_not_allowed.yaml": BadFile(6, "reservations.Ben", "pure_club_solo is not allowed under these rules"),
    "marriage_without_both_queens.yaml": BadFile(
        6, "reservations.Ben", "Ben cannot announce a marriage without both CQ"
    ),
    "misdeal_with_tricks.yaml": BadFile(6, "abandoned", "a deal thrown in has no reservations, poverty or tricks"),
    # rules inside a game file
    "unknown_rule_preset.yaml": BadFile(5, "rules", "unknown rule preset 'turbo'"),
    "unknown_rule_option.yaml": BadFile(7, "rules.jokers_wild", "unknown rule option 'jokers_wild'"),
    "rule_option_wrong_type.yaml": BadFile(7, "rules.with_nines", "takes true or false, not 'yes'"),
    # numbers longer than any doko_ledger reads (Python converts at most 4,300 digits)
    "summary_points_5000_digits.yaml": BadFile(9, "", "is a number of 5,000 digits; none here has more than 100"),
    "player_named_5000_digits.yaml": BadFile(3, "", "is a number of 5,000 digits"),
    "session_rate_5000_digits.yaml": BadFile(6, "", "is a number of 5,000 digits"),
    "rules_bock_multiplier_5000_digits.yaml": BadFile(3, "", "is a number of 5,000 digits"),
    "ddz_bid_5000_digits.yaml": BadFile(11, "", "is a number of 5,000 digits"),
    # player names a reader cannot tell apart, or cannot see
    "player_names_differ_in_case.yaml": BadFile(3, "players", "players 'Anna' and 'ANNA' differ only in case"),
    "player_name_cyrillic_look_alike.yaml": BadFile(3, "players", "U+0410 CYRILLIC CAPITAL LETTER A"),
    "player_name_fullwidth_look_alike.yaml": BadFile(3, "players", "U+FF22 FULLWIDTH LATIN CAPITAL LETTER B"),
    "player_name_zero_width_space.yaml": BadFile(3, "players", "invisible character (U+200B ZERO WIDTH SPACE)"),
    "player_name_bidi_override.yaml": BadFile(3, "players", "U+202E RIGHT-TO-LEFT OVERRIDE"),
    "player_name_combining_marks_only.yaml": BadFile(3, "players", "only combining marks (U+0301 COMBINING ACUTE"),
    "session_player_names_look_alike.yaml": BadFile(3, "players[3]", "U+0435 CYRILLIC SMALL LETTER IE"),
    "ddz_player_names_differ_in_case.yaml": BadFile(3, "players", "'Wang' and 'WANG' differ only in case"),
    # deals recorded without cards
    "summary_250_points.yaml": BadFile((7, 10), "summary", "Re's card points must be 0-240, not 250"),
    "summary_negative_points.yaml": BadFile((7, 10), "summary", "Re's card points must be 0-240, not -5"),
    "summary_points_not_a_number.yaml": BadFile(9, "summary.re_points", "'lots' is not of type 'integer'"),
    "summary_points_fraction.yaml": BadFile(9, "summary.re_points", "120.5 is not of type 'integer'"),
    "summary_points_boolean.yaml": BadFile(9, "summary.re_points", "True is not of type 'integer'"),
    "schwarz_with_card_points.yaml": BadFile((7, 11), "summary", "schwarz claimed while Kontra has 10 card points"),
    "summary_tricks_do_not_add_up.yaml": BadFile((7, 11), "summary", "tricks must add up to 12, not 9 + 2"),
    "summary_tricks_as_ratio.yaml": BadFile(
        10,
        "summary.tricks",
        "9:3",
    ),
    "summary_fox_from_own_party.yaml": BadFile((7, 12), "summary", "from Clara, who is Re too"),
    "summary_specials_in_a_solo.yaml": BadFile((7, 12), "summary", "special points in a solo"),
    "summary_kontra_says_re.yaml": BadFile((7, 11), "summary", "Ben is Kontra: a Kontra player cannot say Re"),
    "summary_unknown_player.yaml": BadFile(8, "summary.re[1]", "unknown player 'Zoe'"),
    "summary_unknown_game_type.yaml": BadFile(7, "summary.game", "'grand' is not one of"),
    "summary_three_re_players.yaml": BadFile(8, "summary.re", "is too long"),
    "summary_with_tricks.yaml": BadFile(7, "summary", "a summary stands alone"),
    # card nights
    "session_three_players.yaml": BadFile(3, "players", "a card night has 4 to 7 players, not 3"),
    "session_eight_players.yaml": BadFile(3, "players", "a card night has 4 to 7 players, not 8"),
    "session_player_named_twice.yaml": BadFile(3, "players[3]", "player 'Ben' is at the table twice"),
    "session_unknown_first_dealer.yaml": BadFile(4, "first_dealer", "the first dealer 'Zoe' is not at the table"),
    "session_deal_names_sitting_out_player.yaml": BadFile(8, "deals[1].re[0]", "Ben sits out deal 2"),
    "session_deal_unknown_player.yaml": BadFile(7, "deals[0].re[1]", "unknown player 'Zoe'"),
    "session_deal_250_points.yaml": BadFile(8, "deals[1].re_points", "Re's card points are 0-240, not 250"),
    "session_deal_not_a_mapping.yaml": BadFile(7, "deals[0]", "a deal is a mapping"),
    "session_misdeal_with_points.yaml": BadFile(7, "deals[0].re_points", "a deal thrown in is written {misdeal: true}"),
    "session_bad_rate.yaml": BadFile(6, "rate", "the money rate must be a decimal amount per point"),
    "session_unknown_rule_option.yaml": BadFile(5, "rules.jokers_wild", "unknown rule option 'jokers_wild'"),
    "session_deal_after_closed.yaml": BadFile(8, "deals[0]", "is closed: nothing more can be added"),
    "session_duplicate_key.yaml": BadFile(6, "", "key 'first_dealer' is given twice"),
    "session_mapping_key_is_a_list.yaml": BadFile((6, None), "", ""),
    "session_python_tag.yaml": BadFile(7, "", "python/object/apply:os.system'; only plain YAML data is read"),
    "session_open_while_another_is_open.yaml": BadFile(
        None, "", "card night 'night' is still open: close it before importing an open night", ledger_only=True
    ),
    # house-rule files (`doko rules show FILE`)
    "rules_wrong_value_type.yaml": BadFile(2, "with_nines", "takes true or false, not 'yes'"),
    "rules_unknown_option.yaml": BadFile(2, "jokers_wild", "unknown rule option 'jokers_wild'"),
    "rules_unknown_preset.yaml": BadFile(1, "", "unknown rule preset 'turbo'"),
    "rules_list_not_mapping.yaml": BadFile(1, "", "a rule file is a mapping"),
    "rules_broken_yaml.yaml": BadFile(3, "", "not valid YAML"),
    "rules_bad_bock_multiplier.yaml": BadFile(3, "bock_multiplier", "a whole number from 1 to 100, not -2"),
    "rules_computer_seats_out_of_range.yaml": BadFile(2, "computer_seats", "two different seats 0-3, not [1, 7]"),
    "rules_python_tag.yaml": BadFile(1, "", "python/object/apply:os.system'; only plain YAML data is read"),
    "rules_non_utf8.yaml": BadFile(None, "", "not UTF-8 text"),
    "rules_mapping_key_is_a_list.yaml": BadFile((2, None), "", ""),
    # Dou Dizhu (docs/rules.md §D): the same reader, the same one line
    "ddz_bid_not_higher.yaml": BadFile(11, "bidding[1].Wang", "Wang bid 2 but the bid is already 2"),
    "ddz_card_not_in_hand.yaml": BadFile(16, "play[3].Li", "Li does not hold 2 2s"),
    "ddz_does_not_beat.yaml": BadFile(14, "play[1].Wang", "pair of 3s does not beat Li's pair of 4s"),
    "ddz_four_player_trio_single.yaml": BadFile(8, "play[0].Li", "the four-player game has no trio with a single"),
    "ddz_leader_passes.yaml": BadFile(13, "play[0].Li", "Li leads and may not pass"),
    "ddz_session_stranger.yaml": BadFile(11, "deals[1].opener", "unknown player 'Mei'"),
    "ddz_sixteen_cards.yaml": BadFile(8, "hands.Wang", "Wang's hand has 16 cards; each hand has 17"),
    "ddz_unknown_card.yaml": BadFile(8, "play[0].Li[2]", "unknown card '11'"),
    "ddz_unknown_combination.yaml": BadFile(13, "play[0].Li.as", "unknown combination 'twins'"),
}


def _command_for(path: Path) -> tuple[str, ...]:
    return ("rules", "show", str(path)) if path.name.startswith("rules_") else ("import", str(path))


# -- files made by the tests --------------------------------------------------------------------


def _huge_game() -> bytes:
    """A legal game with more than 1 MB of comment after it."""
    legal = (SAMPLES / "01-normal.yaml").read_text(encoding="utf-8").replace("kitchen-01-normal", "huge")
    return (legal + "# padding\n" * 110_000).encode("utf-8")


def _huge_rules() -> bytes:
    """A house-rule file of more than 1 MB: one option and a long list of comments."""
    return ("preset: standard\n" + "# why we play it this way\n" * 45_000).encode("utf-8")


GENERATED: dict[str, Callable[[], bytes]] = {"huge_game.yaml": _huge_game, "huge_rules.yaml": _huge_rules}


# -- the command lines ---------------------------------------------------------------------------


@dataclass(frozen=True)
class BadCommand:
    """A command line (`{bad}`: tests/bad_inputs, `{tmp}`: the test's directory), its exit code,
    and the words its error line must hold: what is wrong, and the option where it names one.
    `before` runs first in the ledger (not compared); `ledger_only`: bad only because of what
    the ledger holds."""

    args: tuple[str, ...]
    code: int
    says: tuple[str, ...]
    before: tuple[tuple[str, ...], ...] = ()
    ledger_only: bool = False
    bug: Bug | None = None


def usage(*args: str, says: tuple[str, ...]) -> BadCommand:
    """A click usage error: exit 2, shown today as a Rich panel of several lines."""
    return BadCommand(args, 2, says)


FACTS = ("--re", "Ben,Clara", "--re-points", "151")
CLOSE = (("session", "close"),)

COMMANDS: dict[str, BadCommand] = {
    # files that are not there, or too big
    "import_huge_game": BadCommand(
        ("import", "{tmp}/huge_game.yaml"), 2, ("huge_game.yaml: ", "larger than 1,000,000")
    ),
    "rules_show_huge_rules": BadCommand(
        ("rules", "show", "{tmp}/huge_rules.yaml"), 2, ("huge_rules.yaml: ", "larger than 1,000,000")
    ),
    "import_dev_zero": BadCommand(("import", "/dev/zero"), 2, ("/dev/zero: ", "larger than 1,000,000")),
    "import_missing_file": BadCommand(("import", "{tmp}/missing.yaml"), 2, ("missing.yaml: cannot read file",)),
    "import_a_folder_without_game_files": BadCommand(
        ("import", "{tmp}"), 2, ("a folder with no game files in it (.yaml, .yml or .FreeDoko)",)
    ),
    "import_a_game_twice": BadCommand(
        ("import", str(SAMPLES / "01-normal.yaml")),
        2,
        ("01-normal.yaml: game '2026-11-28-kitchen-01-normal' is already in the ledger",),
        ledger_only=True,
    ),
    "import_without_files": usage("import", says=("Missing argument",)),
    # doko record
    "record_call_malformed": BadCommand(
        ("record", *FACTS, "--call", "Ben=maybe", "--yes"), 2, ("--call", "'Ben=maybe'")
    ),
    "record_call_without_call": BadCommand(("record", *FACTS, "--call", "Ben", "--yes"), 2, ("--call", "'Ben'")),
    "record_special_malformed": BadCommand(
        ("record", *FACTS, "--special", "re:wolf:Ben", "--yes"), 2, ("--special", "'re:wolf:Ben'")
    ),
    "record_tricks_malformed": BadCommand(("record", *FACTS, "--tricks", "9-3", "--yes"), 2, ("--tricks", "'9-3'")),
    "record_re_points_250": BadCommand(
        ("record", "--re", "Ben,Clara", "--re-points", "250", "--yes"), 1, ("card points must be 0-240, not 250",)
    ),
    "record_re_points_negative": BadCommand(
        ("record", "--re", "Ben,Clara", "--re-points", "-5", "--yes"), 1, ("card points must be 0-240, not -5",)
    ),
    "record_re_points_not_a_number": usage(
        "record", "--re", "Ben,Clara", "--re-points", "many", "--yes", says=("--re-points",)
    ),
    "record_unknown_player": BadCommand(
        ("record", "--re", "Ben,Zoe", "--re-points", "151", "--yes"), 1, ("unknown player 'Zoe'",)
    ),
    "record_no_players": BadCommand(("record", "--re", ",", "--re-points", "151", "--yes"), 2, ("--re:",)),
    "record_unknown_game_type": BadCommand(
        ("record", "--game", "grand", *FACTS, "--yes"), 2, ("--game", "unknown game type 'grand'")
    ),
    "record_tricks_do_not_add_up": BadCommand(
        ("record", *FACTS, "--tricks", "9:2", "--yes"), 1, ("tricks must add up to 12, not 9 + 2",)
    ),
    "record_kontra_says_re": BadCommand(
        ("record", *FACTS, "--call", "Anna=re", "--yes"), 1, ("Anna is Kontra: a Kontra player cannot say Re",)
    ),
    "record_without_yes": BadCommand(("record", *FACTS), 2, ("nothing was appended", "--yes")),
    "record_unknown_night": BadCommand(
        ("record", "--session", "nosuch", *FACTS, "--yes"), 1, ("no card night 'nosuch'",)
    ),
    "record_tricks_5000_digits": BadCommand(
        ("record", *FACTS, "--tricks", "9" * 5000 + ":3", "--yes"), 2, ("--tricks", "a number of 5,000 digits")
    ),
    "record_tricks_superscript": BadCommand(("record", *FACTS, "--tricks", "²:3", "--yes"), 2, ("--tricks", "'²:3'")),
    "record_re_points_5000_digits": usage(
        "record", "--re", "Ben,Clara", "--re-points", "9" * 5000, "--yes", says=("--re-points",)
    ),
    # doko penalty
    "penalty_unknown_player": BadCommand(
        ("penalty", "night-01", "--player", "Zoe", "--minor", "--yes"), 2, ("--player", "'Zoe' did not play night-01")
    ),
    "penalty_without_severity": BadCommand(
        ("penalty", "night-01", "--player", "Ben", "--yes"), 2, ("--minor or --severe",)
    ),
    "penalty_unknown_game": BadCommand(("penalty", "nosuch", "--player", "Ben", "--minor", "--yes"), 1, ("'nosuch'",)),
    "penalty_negative_denials": BadCommand(
        ("penalty", "night-01", "--player", "Ben", "--severe", "--denials", "-3", "--yes"), 1, ("not -3",)
    ),
    "penalty_without_yes": BadCommand(("penalty", "night-01", "--player", "Ben", "--minor"), 2, ("--yes",)),
    # doko audit
    "audit_claimed_not_a_number": usage("audit", "#1", "--claimed", "Anna=x", says=("--claimed", "'Anna=x'")),
    "audit_claimed_empty": usage("audit", "#1", "--claimed", "", says=("--claimed",)),
    "audit_claimed_without_player": usage("audit", "#1", "--claimed", "=5", says=("--claimed", "'=5'")),
    "audit_claimed_unknown_player": BadCommand(
        ("audit", "#1", "--claimed", "Anna=+5,Ben=-5,Clara=+5,Zoe=-5"), 1, ("'Zoe', who did not play",)
    ),
    "audit_claimed_missing_players": BadCommand(
        ("audit", "#1", "--claimed", "Anna=+5"), 1, ("must name every player: Ben, Clara, Dirk missing",)
    ),
    "audit_unknown_game": BadCommand(("audit", "nosuch"), 1, ("no game 'nosuch'",)),
    "audit_claimed_5000_digits": usage(
        "audit", "#1", "--claimed", "Anna=" + "9" * 5000, says=("--claimed", "'Anna'", "a number of 5,000 digits")
    ),
    # doko replay, export, log, score, undo, correct
    "replay_unknown_game": BadCommand(("replay", "nosuch"), 1, ("no game 'nosuch' in the ledger",)),
    "replay_number_past_the_end": BadCommand(("replay", "#99"), 1, ("there is no game #99",)),
    "replay_number_5000_digits": BadCommand(
        ("replay", "#" + "9" * 5000), 1, ("there is no game #" + "9" * 39 + "…: the ledger holds",)
    ),
    "replay_number_superscript": BadCommand(("replay", "#²"), 1, ("no game '#²'",)),
    "replay_trick_5000_digits": usage("replay", "#1", "--trick", "9" * 5000, says=("--trick",)),
    "replay_ambiguous_prefix": BadCommand(("replay", "2026"), 1, ("'2026' matches 3 games",)),
    "replay_trick_13": BadCommand(("replay", "#1", "--trick", "13"), 1, ("there is no trick 13",)),
    "replay_trick_13_not_dealt": BadCommand(
        ("replay", "2026-11-28-kitchen-09", "--trick", "13"), 1, ("there is no trick 13",)
    ),
    "replay_trick_not_played": BadCommand(("replay", "night-01", "--trick", "2"), 1, ("trick 2 was not played",)),
    "replay_trick_0": usage("replay", "#1", "--trick", "0", says=("--trick",)),
    "replay_trick_not_a_number": usage("replay", "#1", "--trick", "x", says=("--trick",)),
    "export_unknown_game": BadCommand(("export", "nosuch"), 1, ("no game 'nosuch'",)),
    "export_unknown_format": usage("export", "#1", "--format", "xml", says=("--format", "'xml'")),
    "export_into_a_missing_directory": BadCommand(
        ("export", "#1", "-o", "{tmp}/missing/out.yaml"),
        2,
        ("missing/out.yaml", "cannot write the export"),
    ),
    "log_unknown_game": BadCommand(("log", "nosuch"), 1, ("no game 'nosuch'",)),
    "undo_unknown_game": BadCommand(("undo", "--game", "nosuch"), 1, ("no game 'nosuch'",)),
    "correct_unknown_deal": BadCommand(("correct", "nosuch", *FACTS, "--yes"), 1, ("'nosuch' is not a deal",)),
    "correct_re_points_260": BadCommand(
        ("correct", "night-01", "--re", "Ben,Clara", "--re-points", "260", "--yes"), 1, ("0-240, not 260",)
    ),
    "score_unknown_preset": BadCommand(
        ("score", "#1", "--rules", "turbo"), 2, ("no preset, house-rule set or rule file 'turbo'",)
    ),
    "score_bad_rule_file": BadCommand(
        ("score", "#1", "--rules", "{bad}/rules_wrong_value_type.yaml"),
        2,
        ("rules_wrong_value_type.yaml:2: with_nines:",),
    ),
    "score_missing_rule_file": BadCommand(
        ("score", "#1", "--rules", "{tmp}/missing.yaml"), 2, ("missing.yaml: cannot read file: No such file",)
    ),
    "rules_show_unknown_preset": BadCommand(
        ("rules", "show", "turbo"), 2, ("no preset, house-rule set or rule file 'turbo'",)
    ),
    # card nights
    "session_start_while_one_is_open": BadCommand(
        ("session", "start", "other", "--players", "Anna,Ben,Clara,Dirk"),
        1,
        ("card night 'night' is still open",),
        ledger_only=True,
    ),
    "session_start_three_players": BadCommand(
        ("session", "start", "other", "--players", "Anna,Ben,Clara"),
        1,
        ("4 to 7 players, not 3",),
        before=CLOSE,
    ),
    "session_start_eight_players": BadCommand(
        ("session", "start", "other", "--players", "A,B,C,D,E,F,G,H"),
        1,
        ("4 to 7 players, not 8",),
        before=CLOSE,
    ),
    "session_start_player_twice": BadCommand(
        ("session", "start", "other", "--players", "Anna,Ben,Clara,Ben"),
        1,
        ("'Ben' is at the table twice",),
        before=CLOSE,
    ),
    "session_start_bad_rate": BadCommand(
        ("session", "start", "other", "--players", "Anna,Ben,Clara,Dirk", "--rate", "abc"),
        1,
        ("money rate", "'abc'"),
        before=CLOSE,
    ),
    "session_start_match_0": BadCommand(
        ("session", "start", "other", "--players", "Anna,Ben,Clara,Dirk", "--match", "0"),
        1,
        ("a match has 1 to 100 deals, not 0",),
        before=CLOSE,
    ),
    "session_start_bad_id": BadCommand(
        ("session", "start", "bad id!", "--players", "Anna,Ben,Clara,Dirk"),
        1,
        ("'bad id!'",),
        before=CLOSE,
    ),
    "session_start_unknown_dealer": BadCommand(
        ("session", "start", "other", "--players", "Anna,Ben,Clara,Dirk", "--dealer", "Zoe"),
        2,
        ("--dealer", "'Zoe'"),
        before=CLOSE,
    ),
    "session_start_bad_rule_file": BadCommand(
        ("session", "start", "other", "--players", "Anna,Ben,Clara,Dirk", "--rules", "{bad}/rules_unknown_option.yaml"),
        2,
        ("rules_unknown_option.yaml:2: jokers_wild:",),
        before=CLOSE,
    ),
    "session_start_name_of_5000_digits": BadCommand(
        ("session", "start", "other", "--players", "9" * 5000 + ",Ben,Clara,Dirk"),
        1,
        ("player name '999999999999", "is longer than 100 characters"),
        before=CLOSE,
    ),
    "session_start_names_differ_in_case": BadCommand(
        ("session", "start", "other", "--players", "Anna,Ben,anna,Dirk"),
        1,
        ("players 'Anna' and 'anna' differ only in case",),
        before=CLOSE,
    ),
    "session_start_greek_look_alike": BadCommand(
        ("session", "start", "other", "--players", "Anna,Ben,\u039ceta,Meta"),
        1,
        ("players 'Μeta' and 'Meta' differ only in look-alike letters ('Μeta' holds U+039C GREEK CAPITAL LETTER MU)",),
        before=CLOSE,
    ),
    "session_close_unknown_night": BadCommand(("session", "close", "nosuch"), 1, ("no card night 'nosuch'",)),
    "standings_unknown_night": BadCommand(("standings", "--session", "nosuch"), 1, ("no card night 'nosuch'",)),
    "settle_unknown_night": BadCommand(("settle", "--session", "nosuch"), 1, ("no card night 'nosuch'",)),
    "deal_without_seed": usage("deal", says=("--seed",)),
    "deal_unknown_night": BadCommand(("deal", "--seed", "x", "--session", "nosuch"), 1, ("no card night 'nosuch'",)),
    "play_unknown_card": BadCommand(
        ("play", "XZ"),
        1,
        ("unknown card 'XZ'",),
    ),
    "play_unknown_player": BadCommand(
        ("play", "Zoe=re"),
        2,
        ("unknown player 'Zoe'",),
    ),
    "play_third_copy": BadCommand(("play", "CQ", "CQ"), 1, ("a third CQ",), before=(("play", "CQ"),)),
    "play_unknown_card_during_a_deal": BadCommand(("play", "XZ"), 1, ("unknown card 'XZ'",), before=(("play", "CQ"),)),
    "play_reservation_after_a_card": BadCommand(
        ("play", "Anna=club_solo"), 2, ("'Anna=club_solo': not a call",), before=(("play", "CQ"),)
    ),
    # the command line itself
    "argument_not_utf8": BadCommand(("replay", "\udcff\udcfe"), 2, ("'\\udcff\\udcfe' is not UTF-8 text",)),
    "note_not_utf8": BadCommand(("annotate", "#1", "bad \udcff bytes"), 2, ("is not UTF-8 text",)),
    "unknown_command": usage("frobnicate", says=("frobnicate",)),
    "unknown_option": usage("games", "--bogus", says=("--bogus",)),
}


# -- running -------------------------------------------------------------------------------------


def _invoke(db: Path, args: tuple[str, ...]) -> Result:
    return CliRunner().invoke(app, ["--db", str(db), *args], env=ENV, catch_exceptions=True)


def _ok(result: Result) -> Result:
    assert result.exit_code == 0, f"exit {result.exit_code}\n{result.output}\n{result.exception!r}"
    return result


def _snapshot(db: Path) -> dict[str, tuple[int, str]]:
    """The size and SHA-256 of the ledger and of any journal beside it (-wal, -shm, -journal)."""
    return {
        p.name: (p.stat().st_size, hashlib.sha256(p.read_bytes()).hexdigest()) for p in db.parent.glob(db.name + "*")
    }


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ledger with three games (one with hands, one without, one summary) and an open card
    night with one deal recorded; read models caught up, no journal beside it."""
    db = tmp_path_factory.mktemp("template") / "ledger.sqlite"
    games = [SAMPLES / name for name in ("01-normal.yaml", "09-normal-not-dealt.yaml", "31-summary-specials.yaml")]
    _ok(_invoke(db, ("import", *map(str, games))))
    _ok(_invoke(db, ("session", "start", "night", "--players", "Anna,Ben,Clara,Dirk", "--date", "2026-11-28")))
    _ok(_invoke(db, ("record", *FACTS, "--call", "Ben=re", "--yes")))
    _ok(_invoke(db, ("games",)))
    assert list(_snapshot(db)) == ["ledger.sqlite"]
    return db


@dataclass(frozen=True)
class Run:
    """A command's result and the ledger's files before and after it."""

    result: Result
    before: dict[str, tuple[int, str]]
    after: dict[str, tuple[int, str]]


RunCommand = Callable[..., Run]


@pytest.fixture
def run(template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[RunCommand]:
    """Run a command line in `tmp_path` (the working directory too, where a YAML tag that
    ran `touch PWNED` would leave its file) against a copy of the template ledger or none."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DOKO_DB", raising=False)
    db = tmp_path / "ledger.sqlite"

    def go(args: tuple[str, ...], mode: str, before: tuple[tuple[str, ...], ...] = ()) -> Run:
        for name, make in GENERATED.items():
            if any(name in arg for arg in args):
                (tmp_path / name).write_bytes(make())
        args = tuple(arg.format(bad=BAD, tmp=tmp_path) for arg in args)
        if mode == LEDGER:
            shutil.copyfile(template, db)
            for setup in before:
                _ok(_invoke(db, setup))
        snapshot = _snapshot(db)
        result = _invoke(db, args)
        return Run(result, snapshot, _snapshot(db))

    yield go
    assert not (tmp_path / "PWNED").exists(), "a YAML tag ran a shell command"


def refused_cleanly(run: Run, code: int | None) -> str:
    """The checks every bad input must pass (exit `code`, or any non-zero one for None);
    returns the one error line."""
    result = run.result
    assert isinstance(result.exception, SystemExit), f"{result.exception!r}\n{result.stderr}"
    assert "Traceback" not in result.stdout + result.stderr
    assert result.exit_code != 0, result.output
    assert code is None or result.exit_code == code, f"exit {result.exit_code}: {result.stderr}"
    assert run.after == run.before, "the ledger (or its journal) changed, or a ledger was created"
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("error: ")]
    assert len(errors) == 1, result.stderr
    assert [line for line in lines if line not in (errors[0], IMPORT_COUNT)] == [], result.stderr
    return errors[0]


def _params(cases: dict[str, BadFile] | dict[str, BadCommand]) -> list[Any]:
    params: list[Any] = []
    for name, case in cases.items():
        for mode in MODES:
            if mode == NO_LEDGER and case.ledger_only:
                continue
            marks = []
            if case.bug is not None and mode in case.bug.modes:
                marks.append(pytest.mark.xfail(strict=True, reason=case.bug.reason))
            params.append(pytest.param(name, mode, marks=marks, id=f"{name}-{mode}"))
    return params


# -- the tests -------------------------------------------------------------------------------------


def test_there_are_enough_bad_inputs() -> None:
    on_disk = sorted(p.name for p in BAD.iterdir() if p.is_file())  # ledgers/: tests/store/test_ledger_files.py
    assert on_disk == sorted(FILES), "every file in tests/bad_inputs/ has its row in FILES, and no row lacks a file"
    assert len(FILES) + len(GENERATED) + len(COMMANDS) >= 45
    assert len(GENERATED) >= 1
    assert all(len(make()) > 1_000_000 for make in GENERATED.values())


@pytest.mark.parametrize(("name", "mode"), _params(FILES))
def test_a_bad_file_is_refused_with_its_line(run: RunCommand, name: str, mode: str) -> None:
    case = FILES[name]
    path = BAD / name
    line = refused_cleanly(run(_command_for(path), mode), 2)
    lines = case.line if isinstance(case.line, tuple) else (case.line,)
    field = f"{case.field}: " if case.field else ""
    heads = [f"error: {path}: " if n is None else f"error: {path}:{n}: {field}" for n in lines]
    head = next((h for h in heads if line.startswith(h)), None)
    assert head is not None, f"{line!r} does not start with one of {heads}"
    assert case.says in line[len(head) :], line


@pytest.mark.parametrize(("name", "mode"), _params(COMMANDS))
def test_a_bad_command_line_is_refused_naming_the_problem(run: RunCommand, name: str, mode: str) -> None:
    case = COMMANDS[name]
    if mode == NO_LEDGER:
        # what is wrong may be found before or after the missing ledger: any one clear line will do
        refused_cleanly(run(case.args, mode), None)
        return
    line = refused_cleanly(run(case.args, mode, case.before), case.code)
    for words in case.says:
        assert words.format(bad=BAD) in line, line


def test_all_the_bad_files_at_once_import_nothing(run: RunCommand) -> None:
    paths = [
        str(BAD / name)
        for name, case in FILES.items()
        if not name.startswith("rules_") and case.bug is None and not case.ledger_only
    ]
    outcome = run(("import", *paths), LEDGER)
    result = outcome.result
    assert result.exit_code == 2, result.stderr
    assert outcome.after == outcome.before
    assert result.stdout == ""
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert len(errors) == len(paths), result.stderr
    for line, path in zip(errors, paths, strict=True):
        assert line.startswith(f"error: {path}:"), line
    assert result.stderr.splitlines()[-1] == f"{counted(len(paths), 'file')} not imported"


REAL_PROCESS = ["revoke.yaml", "python_object_apply.yaml"]
REAL_COMMANDS = ["record_call_malformed", "replay_trick_13"]


def _doko() -> list[str]:
    script = Path(sys.executable).parent / "doko"
    return [str(script)] if script.exists() else [sys.executable, "-c", "from doko_ledger.cli.app import main; main()"]


def test_the_real_command_prints_one_line_and_no_traceback(template: Path, tmp_path: Path) -> None:
    """A few of the cases above in a real `doko` process: its own stderr, exit code and files."""
    db = tmp_path / "ledger.sqlite"
    shutil.copyfile(template, db)
    env = {key: value for key, value in os.environ.items() if key != "DOKO_DB"} | ENV
    cases = [(_command_for(BAD / name), 2, FILES[name].says) for name in REAL_PROCESS]
    cases += [(COMMANDS[name].args, COMMANDS[name].code, COMMANDS[name].says[0]) for name in REAL_COMMANDS]
    for args, code, says in cases:
        before = _snapshot(db)
        done = subprocess.run(
            [*_doko(), "--db", str(db), *args], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == code, (args, done.stderr)
        assert "Traceback" not in done.stdout + done.stderr, args
        lines = [line for line in done.stderr.splitlines() if line.strip() and line != IMPORT_COUNT]
        assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], (args, done.stderr)
        assert _snapshot(db) == before, args
    assert not (tmp_path / "PWNED").exists()
