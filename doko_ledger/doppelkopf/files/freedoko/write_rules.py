"""A doko rule set as FreeDoko's rule block: the inverse of `rules.read_rules`.

FreeDoko's rule block names every option it has; doko writes all of them, in FreeDoko's own
order. An option that follows a doko option is written from it (`with nines` from
`with_nines`); an option doko has no equivalent of is written with the value that plays as
doko plays (FreeDoko's forced Re after a first trick of 30 points is off: doko forces no
announcement); the rest (display, computer players, the party's length) keep FreeDoko's
defaults. A rule set FreeDoko cannot express is refused, naming the doko option: the block
written is read back with `read_rules`, and every option that comes back different is one
FreeDoko has no way to say.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from doko_ledger.doppelkopf.files.freedoko.announcements import DEADLINES
from doko_ledger.doppelkopf.files.freedoko.blocks import Entry
from doko_ledger.doppelkopf.files.freedoko.card_rules import CARD_OPTIONS, CARD_OPTIONS_IDLE
from doko_ledger.doppelkopf.files.freedoko.defaults import LAYOUT, flag, option_line
from doko_ledger.doppelkopf.files.freedoko.rules import read_rules
from doko_ledger.doppelkopf.rules.ruleset import RuleSet
from doko_ledger.errors import DokoError
from doko_ledger.i18n import plural


class FreeDokoExportError(DokoError):
    """A game FreeDoko's game log cannot hold as doko recorded it, and why."""

    exit_code = 2


DOKO_PLAYS: dict[str, str] = {
    "number of duty soli": "0",
    "number of duty color soli": "0",
    "number of duty picture soli": "0",
    "solo always counts triple": "false",
    "poverty fox shift open": "false",
    "genscher": "false",
    "solo": "true",
    "solo jack": "true",
    "solo queen": "true",
    "solo color": "true",
    "solo meatless": "true",
    "knocking": "false",
    "announcement strict limit": "false",
}
"""Options doko has no equivalent of, with the value that plays as doko plays (docs/rules.md):
no throwing, no genscher, no king or combined solos, no swine only second; a poverty passes
three cards and counts its trumps as a normal game does; a marriage is decided in the first
three tricks; an announcement's deadline counts the announcer's cards, and a late Re or Kontra
may answer one."""


def _deadline(option: str) -> Callable[[RuleSet], str]:
    """FreeDoko counts the cards still in the announcer's hand, doko those already played."""
    return lambda r: str(r.hand_size - getattr(r, option))


_COUNTING = {"winners_only": "plus", "losers_only": "minus", "plus_minus": "plus-minus"}

FROM_RULES: dict[str, Callable[[RuleSet], str]] = {
    "with nines": lambda r: flag(r.with_nines),
    "poverty": lambda r: flag(r.poverty),
    "lustsolo player leads": lambda r: flag(r.soloist_leads),
    "announcement re/contra doubles": lambda r: flag(r.announcement_scoring == "doubling"),
    "counting": lambda r: _COUNTING[r.counting],
    "bock": lambda r: flag(bool(r.bock_triggers)),
    "bock multiplier": lambda r: str(r.bock_multiplier),
    "append bock": lambda r: flag(r.bock_overlap == "queue"),
    "bock after 120-120": lambda r: flag("tie" in r.bock_triggers),
    "bock after lost solo": lambda r: flag("lost_solo" in r.bock_triggers),
    "bock after lost re/contra": lambda r: flag("lost_announcement" in r.bock_triggers),
    "bock after heart trick": lambda r: flag("heart_trick" in r.bock_triggers),
    "bock after black game": lambda r: flag("schwarz" in r.bock_triggers),
    "marriage first foreign": lambda r: flag(r.marriage_clarification == "any"),
    "marriage first trump": lambda r: flag(r.marriage_clarification == "trump"),
    "marriage first color": lambda r: flag(r.marriage_clarification == "plain"),
    "marriage first single color": lambda r: flag(r.marriage_clarification in ("clubs", "spades", "hearts")),
    **{name: _deadline(option) for name, option in DEADLINES.items()},
    "last announcement": lambda r: str(max(1, r.hand_size + 1 - r.last_announcement_trick)),
    "announcement till full trick": lambda r: flag(r.deadlines_count == "tricks"),
    "announcement reply": lambda r: flag(r.late_answer),
    "announcement first trick thirty points": lambda r: flag(r.first_trick_thirty != "off"),
    "announcement first trick thirty points only first": lambda r: flag(r.first_trick_thirty == "all_silent"),
    "announcement first trick thirty points only re/contra": lambda r: flag(r.first_trick_thirty == "party_silent"),
    "announcement contra doubles against re": lambda r: flag(r.against_old_ones_doubled),
    "poverty shift": lambda r: flag(r.poverty_exchange),
    "poverty shift only trump": lambda r: flag(r.poverty_passes == "trumps"),
    "poverty fox do not count": lambda r: flag(r.poverty_fox != "counted"),
    "poverty fox shift extra": lambda r: flag(r.poverty_fox == "passed_extra"),
    "throw with one trump": lambda r: flag(r.poverty_throw_one_trump),
    "throw when fox highest trump": lambda r: flag(r.throw_fox_highest_trump),
    "throwing before solo": lambda r: flag(r.throws_before_solo),
    "marriage determination": lambda r: str(r.marriage_tricks),
    "marriage first one decides": lambda r: flag(r.marriage_first_decides),
    "marriage before poverty": lambda r: flag(r.marriage_before_poverty),
    "throw with nines": lambda r: flag(r.throw_nines > 0),
    "min number of throwing nines": lambda r: str(r.throw_nines or 5),
    "throw with kings": lambda r: flag(r.throw_kings > 0),
    "min number of throwing kings": lambda r: str(r.throw_kings or 5),
    "throw with nines and kings": lambda r: flag(r.throw_nines_and_kings > 0),
    "min number of throwing nines and kings": lambda r: str(r.throw_nines_and_kings or 7),
    "throw with richness": lambda r: flag(r.throw_richness > 0),
    "min richness for throwing": lambda r: str(r.throw_richness or 70),
    "show tricks number": lambda r: str(r.hand_size),
    **CARD_OPTIONS,
    "solo king": lambda r: flag("king_solo" in r.picture_solos),
    "solo queen jack": lambda r: flag("queen_jack_solo" in r.picture_solos),
    "solo king jack": lambda r: flag("king_jack_solo" in r.picture_solos),
    "solo king queen": lambda r: flag("king_queen_solo" in r.picture_solos),
    "solo koehler": lambda r: flag("koehler_solo" in r.picture_solos),
}
"""Options written from a doko option: one line each."""

NOT_RULES = frozenset({"preset"})
"""Doko fields that are not rules of play: a rule set's name."""

IDLE_WHEN: dict[str, Callable[[RuleSet], bool]] = {
    "bock_overlap": lambda r: not r.bock_triggers,
    "bock_effect": lambda r: not r.bock_triggers,
    "special_points_in_poverty": lambda r: not r.poverty,
    "karlchen_in_poverty": lambda r: not r.poverty,
    **CARD_OPTIONS_IDLE,
}
"""Doko options that change nothing under the rest of the rules (no poverty, nothing scored in
one): FreeDoko need not express them."""


def rule_values(rules: RuleSet) -> dict[str, str]:
    """Every FreeDoko option and the value that plays as `rules` do, in FreeDoko's order."""
    values = {}
    for line in LAYOUT.splitlines():
        entry = option_line(line)
        if entry is None:
            continue
        name, default = entry
        write = FROM_RULES.get(name)
        values[name] = write(rules) if write is not None else DOKO_PLAYS.get(name, default)
    return values


def rule_lines(rules: RuleSet, idle: frozenset[str] = frozenset()) -> list[str]:
    """The rule block's lines (without its braces) for `rules`; `FreeDokoExportError` naming
    the doko options FreeDoko cannot express (but those `idle` in the game written)."""
    values = rule_values(rules)
    _check_round_trip(rules, values, idle)
    out = []
    for line in LAYOUT.splitlines():
        entry = option_line(line)
        if entry is None:
            out.append(line)
        else:
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}{entry[0]} = {values[entry[0]]}")
    cards = 4 * rules.hand_size
    counts = {
        "same cards": 2,
        "card colors": 4,
        "card tcolors": 5,
        "card values": cards // 8,
        "cards": cards,
        "teams": 2,
        "players per team": 2,
        "tricks in game": rules.hand_size,
    }
    at = out.index("counting = " + values["counting"])
    out[at:at] = [*(f"# number of {what} = {n}" for what, n in counts.items()), ""]
    return out


def _check_round_trip(rules: RuleSet, values: dict[str, str], idle: frozenset[str]) -> None:
    entries = {name: Entry(name, value, 0) for name, value in values.items()}
    read = read_rules(entries, "<rules written for FreeDoko>").rules.to_dict()
    wanted = rules.to_dict()
    lost = [
        name
        for name, value in wanted.items()
        if name not in NOT_RULES
        and name not in idle
        and read[name] != value
        and not (name in IDLE_WHEN and IDLE_WHEN[name](rules))
    ]
    if lost:
        options = "; ".join(f"{name}: {_shown(wanted[name])}" for name in lost)
        raise FreeDokoExportError(
            plural(
                "FreeDoko cannot play these rules: the doko rule option has no FreeDoko equivalent: {options}",
                "FreeDoko cannot play these rules: the doko rule options have no FreeDoko equivalent: {options}",
                len(lost),
                options=options,
            )
        )


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return flag(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)
