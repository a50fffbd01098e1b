"""Every option of the rule set as a table shows it: its group, one line saying what it does,
the values it takes, and its section of docs/rules.md (§8 lists them all). The start form, the
night page's rule change and `doko rules save --set` read options through this table, so an
option typed or tapped is read the same way everywhere; `rules_from_mapping` decides."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any, Literal, get_args, get_type_hints

from doko_ledger.doppelkopf.rules.ruleset import (
    BOCK_TRIGGERS,
    NUMBER_RANGES,
    PICTURE_SOLOS,
    RuleSet,
    RuleSetError,
    rules_from_mapping,
)
from doko_ledger.frozen import frozen
from doko_ledger.i18n import Message, msg

"""The group of the announcement deadlines and their kin (docs/rules.md §5)."""

GROUPS: tuple[str, ...] = (
    "deck",
    "solos and reservations",
    "announcements",
    "scoring",
    "bock",
    "counting",
    "tournament",
    "card order",
    "extra points",
)
"""The groups the options are shown in, in this order."""
GROUP_WORDS: dict[str, Message] = {
    "deck": msg("Deck"),
    "solos and reservations": msg("Solos and reservations"),
    "announcements": msg("Announcements"),
    "scoring": msg("Scoring"),
    "bock": msg("Bock"),
    "counting": msg("Counting"),
    "tournament": msg("Tournament"),
    "card order": msg("Card order"),
    "extra points": msg("Extra points"),
}
"""Each group's heading, in the reader's language when rendered."""

Kind = Literal["bool", "choice", "number", "triggers", "seats", "set"]
"""What an option takes: true or false; one of a few words; a whole number within bounds; a set
of bock triggers; the computer seats (none, or a pair); a set of other words (the picture solos)."""
SETS = ("triggers", "set")
"""The kinds whose value is a set of words, each ticked on its own."""

SEAT_PAIRS: tuple[tuple[int, ...], ...] = ((), *itertools.combinations(range(4), 2))
"""The values `computer_seats` takes: none, or two different seats (docs/rules.md §8, duel rules)."""

RULES_DOC = "docs/rules.md"


@frozen
class RuleOption:
    """One option of the rule set as a form or `doko rules` shows it."""

    name: str
    group: str
    line: Message
    """What it does, in one line (in the reader's language when rendered)."""
    kind: Kind
    choices: tuple[Any, ...] = ()
    """The words of a `choice`, `triggers` or `set`, the seat pairs of `seats`."""
    lowest: int | None = None
    highest: int | None = None
    anchor: str = "s8"
    """The anchor of its section in docs/rules.md (`s9` is §9)."""

    @property
    def section(self) -> str:
        """Where docs/rules.md says more: `docs/rules.md §9`."""
        return f"{RULES_DOC} §{self.anchor.removeprefix('s')}"

    @property
    def link(self) -> str:
        """`docs/rules.md#s9`."""
        return f"{RULES_DOC}#{self.anchor}"

    def text(self, value: Any) -> str:
        """A value as it is typed back (`--set name=TEXT`): true, 3, tie,lost_solo, 1,3, none (a list
        may also be typed as a rule file writes it: [tie, lost_solo])."""
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, (tuple, list)):
            return ",".join(str(v) for v in value) or "none"
        return str(value)

    def parse(self, text: str) -> Any:
        """A value typed or posted as text, as the rule set holds it (`RuleSetError` when it is not
        one of the values this option takes: the rule set's check says which)."""
        text = text.strip()
        if self.kind == "bool":
            word = text.lower()
            if word in ("true", "yes", "on", "1"):
                return True
            if word in ("false", "no", "off", "0"):
                return False
            raise RuleSetError(
                msg(
                    "rule option {option} takes true or false, not {value}",
                    option=repr(self.name),
                    value=repr(text[:40]),
                )
            )
        if self.kind == "number":
            if not (text.isascii() and text.isdigit() and len(text) <= 6):
                raise RuleSetError(
                    msg(
                        "rule option {option} takes a whole number from {lowest} to {highest}, not {value}",
                        option=repr(self.name),
                        lowest=self.lowest,
                        highest=self.highest,
                        value=repr(text[:40]),
                    )
                )
            return int(text)
        if self.kind in (*SETS, "seats"):
            if text.startswith("[") and text.endswith("]"):  # as a rule file writes a list: [tie, lost_solo]
                text = text[1:-1].strip()
            items = [] if text.lower() in ("", "none") else [t.strip() for t in text.split(",")]
            if self.kind == "seats":
                if not all(t.isascii() and t.isdigit() and len(t) == 1 for t in items):
                    raise RuleSetError(
                        msg(
                            "rule option {option} takes none or two different seats 0-3, not {value}",
                            option=repr(self.name),
                            value=repr(text[:40]),
                        )
                    )
                return tuple(int(t) for t in items)
            return tuple(items)
        return text


def _option(name: str, group: str, line: Message, anchor: str) -> RuleOption:
    hint = get_type_hints(RuleSet)[name]
    if name == "bock_triggers":
        return RuleOption(name, group, line, "triggers", BOCK_TRIGGERS, anchor=anchor)
    if name == "computer_seats":
        return RuleOption(name, group, line, "seats", SEAT_PAIRS, anchor=anchor)
    if name == "picture_solos":
        return RuleOption(name, group, line, "set", PICTURE_SOLOS, anchor=anchor)
    if name in NUMBER_RANGES:
        lowest, highest = NUMBER_RANGES[name]
        return RuleOption(name, group, line, "number", lowest=lowest, highest=highest, anchor=anchor)
    if hint is bool:
        return RuleOption(name, group, line, "bool", anchor=anchor)
    return RuleOption(name, group, line, "choice", get_args(hint), anchor=anchor)


OPTIONS: tuple[RuleOption, ...] = tuple(
    _option(*row)
    for row in (
        ("with_nines", "deck", msg("48 cards with the nines, or 40 without"), "s1"),
        ("second_dulle_beats_first", "deck", msg("a second H10 beats the first, except in the last trick"), "s2"),
        ("schweinchen", "deck", msg("both DA in one hand rank above the H10 (normal games and marriages)"), "s2"),
        ("computer_seats", "deck", msg("duel rules: the two seats a computer plays (none: four people)"), "s8"),
        (
            "soloist_leads",
            "solos and reservations",
            msg("the soloist of a declared solo leads to the first trick"),
            "s3",
        ),
        ("pure_suit_solos", "solos and reservations", msg("the pure suit solos may be played"), "s4"),
        (
            "picture_solos",
            "solos and reservations",
            msg("the picture solos played beyond the queen and jack solo"),
            "s4",
        ),
        ("poverty", "solos and reservations", msg("a poverty may be declared"), "s4"),
        ("marriage_clarification", "solos and reservations", msg("which tricks can find a marriage partner"), "s4"),
        ("poverty_fox", "solos and reservations", msg("a poverty's DA: counted, not counted, or passed on top"), "s4"),
        ("poverty_passes", "solos and reservations", msg("a poverty passes three cards, or its trumps only"), "s4"),
        (
            "poverty_exchange",
            "solos and reservations",
            msg("a poverty passes cards; without, it throws the deal in"),
            "s4",
        ),
        ("poverty_throw_one_trump", "solos and reservations", msg("a poverty with one trump or none throws in"), "s4"),
        (
            "marriage_tricks",
            "solos and reservations",
            msg("how many of the first tricks can find a marriage partner"),
            "s4",
        ),
        (
            "marriage_first_decides",
            "solos and reservations",
            msg("the first trick that can find the partner decides"),
            "s4",
        ),
        ("marriage_before_poverty", "solos and reservations", msg("a marriage goes before a poverty"), "s4"),
        (
            "throw_nines",
            "solos and reservations",
            msg("a hand with this many nines may throw the deal in (0: never)"),
            "s4",
        ),
        (
            "throw_kings",
            "solos and reservations",
            msg("a hand with this many kings may throw the deal in (0: never)"),
            "s4",
        ),
        ("throw_nines_and_kings", "solos and reservations", msg("this many nines and kings together (0: never)"), "s4"),
        (
            "throw_richness",
            "solos and reservations",
            msg("a hand with this many card points may throw in (0: never)"),
            "s4",
        ),
        (
            "throw_fox_highest_trump",
            "solos and reservations",
            msg("no trump above the DA: the hand may throw in"),
            "s4",
        ),
        ("throws_before_solo", "solos and reservations", msg("a throw goes before a solo"), "s4"),
        (
            "lone_marriage_specials",
            "solos and reservations",
            msg("a lone marriage keeps its first tricks' specials"),
            "s4",
        ),
        ("marriage_shift", "announcements", msg("how far a late-found marriage partner moves the deadlines"), "s5"),
        ("solo_must_announce_no90", "announcements", msg("a declared solo carries the soloist's no 90"), "s5"),
        ("announcement_scoring", "announcements", msg("Re and Kontra add 2 each, or each doubles the value"), "s7"),
        ("re_deadline", "announcements", msg("Re or Kontra: the most cards the announcer may have played"), "s5"),
        ("no90_deadline", "announcements", msg("no 90: the most cards the announcer may have played"), "s5"),
        ("no60_deadline", "announcements", msg("no 60: the most cards the announcer may have played"), "s5"),
        ("no30_deadline", "announcements", msg("no 30: the most cards the announcer may have played"), "s5"),
        ("schwarz_deadline", "announcements", msg("schwarz: the most cards the announcer may have played"), "s5"),
        ("deadlines_count", "announcements", msg("the deadlines count the announcer's cards, or the tricks"), "s5"),
        ("late_answer", "announcements", msg("a late Re or Kontra may answer the other party's call"), "s5"),
        ("last_announcement_trick", "announcements", msg("the last trick in which anything may be announced"), "s5"),
        ("first_trick_thirty", "announcements", msg("a first trick of 30 or more makes its winner announce"), "s5"),
        ("against_old_ones_doubled", "announcements", msg("under doubling, against the old ones is doubled"), "s7"),
        ("scoring", "scoring", msg("the standard count, or the DDV's"), "s8"),
        ("specials_doubled", "scoring", msg("under doubling, special points are doubled too"), "s7"),
        ("karlchen_capture", "scoring", msg("1 for catching the other party's CJ in the last trick"), "s7"),
        ("special_points_in_poverty", "scoring", msg("special points count in a poverty"), "s7"),
        ("karlchen_in_poverty", "scoring", msg("the Karlchen points count in a poverty"), "s7"),
        ("bock_triggers", "bock", msg("what starts a bock round"), "s9"),
        ("bock_multiplier", "bock", msg("what a bock round multiplies a deal's value by"), "s9"),
        ("bock_overlap", "bock", msg("what a trigger during a bock round does: queue, stack, extend or ignore"), "s9"),
        ("bock_effect", "bock", msg("a bock deal's value multiplied, or one more game point per round"), "s9"),
        ("counting", "counting", msg("the sheet: plus and minus, only the winners' points, or only the losers'"), "s9"),
        ("compulsory_solo", "tournament", msg("every player owes a solo"), "s9"),
        ("tournament_deals", "tournament", msg("the deals that count in a tournament"), "s9"),
        ("forced_solos", "tournament", msg("when owed solos are forced: after the deals, or as soon as owed"), "s9"),
        ("dullen", "card order", msg("the H10 is the highest trump (Dulle); false: an ordinary heart"), "s2"),
        ("second_dulle_last_trick", "card order", msg("in the last trick the second H10 beats the first"), "s2"),
        (
            "first_dulle_with_schweinchen",
            "card order",
            msg("once Schweinchen are in the game, the first H10 always wins"),
            "s2",
        ),
        (
            "schweinchen_shown",
            "card order",
            msg("Schweinchen seen in the deal, or called: before the first card or while held"),
            "s2",
        ),
        (
            "schweinchen_in_solo",
            "card order",
            msg("Schweinchen in club, spade, heart and diamond solos (the trump suit's aces)"),
            "s2",
        ),
        ("schweinchen_in_poverty", "card order", msg("Schweinchen in a poverty"), "s2"),
        ("hyperschweinchen", "card order", msg("both trump nines (kings without nines) above the Schweinchen"), "s2"),
        (
            "hyperschweinchen_joint",
            "card order",
            msg("the Schweinchen's holder may have the Hyperschweinchen too"),
            "s2",
        ),
        ("fox_caught", "extra points", msg("1 for catching the other party's DA"), "s7"),
        ("fox_caught_last_trick", "extra points", msg("1 more for a DA caught in the last trick"), "s7"),
        ("fox_last_trick", "extra points", msg("1 for taking the last trick with a DA"), "s7"),
        (
            "double_fox_last_trick",
            "extra points",
            msg("1 more when the partner adds the second DA to that trick"),
            "s7",
        ),
        ("dulle_caught_dulle", "extra points", msg("1 for catching the other party's H10 with an H10"), "s7"),
        ("heart_trick_point", "extra points", msg("1 for taking a trick of four hearts"), "s7"),
        ("karlchen", "extra points", msg("1 for taking the last trick with a CJ"), "s7"),
        ("double_karlchen", "extra points", msg("1 more when the partner adds the second CJ to that trick"), "s7"),
        ("karlchen_captured_twice", "extra points", msg("both CJ caught in the last trick count, not only one"), "s7"),
        ("karlchen_capture_with_dq", "extra points", msg("only a last trick won with a DQ catches a CJ"), "s7"),
    )
)
"""Every option of `RuleSet`, in the order of the groups."""

OPTION_BY_NAME: dict[str, RuleOption] = {o.name: o for o in OPTIONS}


def option(name: str) -> RuleOption:
    """The option `name`; `RuleSetError` for a name the rule set has no option of."""
    found = OPTION_BY_NAME.get(name)
    if found is None:
        raise RuleSetError(msg("unknown rule option {name} (see `doko rules show standard`)", name=repr(name[:60])))
    return found


def grouped() -> list[tuple[str, list[RuleOption]]]:
    """The options by group, in the order of `GROUPS`."""
    return [(group, [o for o in OPTIONS if o.group == group]) for group in GROUPS]


def rules_with(base: RuleSet, typed: Mapping[str, str]) -> RuleSet:
    """`base` with the options typed as text (`{"bock_triggers": "tie,lost_solo"}`) changed, checked
    as a rule file's options are: an unknown option or a value it does not take is refused by name."""
    changes = {name: option(name).parse(text) for name, text in typed.items()}
    return rules_from_mapping({**dict(base.to_dict()), **changes})


def changes_text(rules: RuleSet) -> str:
    """What a rule set changes from its preset, as `--set` would type it: `bock_triggers=tie,lost_solo;
    counting=winners_only` ("" when nothing)."""
    return "; ".join(f"{name}={option(name).text(value)}" for name, value in rules.changed_from_preset().items())


def parse_setting(text: str) -> tuple[str, str]:
    """`option=value` as `--set` takes it."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise RuleSetError(msg("--set takes option=value, not {text}", text=repr(text[:60])))
    return name.strip(), value
