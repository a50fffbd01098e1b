"""The rule set: every option of docs/rules.md as a named field, chosen by preset (docs/rules.md §8)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Literal, get_args, get_type_hints

from doko_ledger.errors import DokoError
from doko_ledger.frozen import frozen
from doko_ledger.i18n import Message, msg


class RuleSetError(DokoError, ValueError):
    """An unknown preset, an unknown option or a value an option does not take."""

    exit_code = 2


MarriageClarification = Literal["any", "trump", "plain", "clubs", "spades", "hearts"]
MarriageShift = Literal["after_first", "tricks"]
AnnouncementScoring = Literal["additive", "doubling"]
Scoring = Literal["standard", "ddv"]
ForcedSolos = Literal["after_deals", "when_owed"]
BockOverlap = Literal["queue", "stack", "extend", "ignore"]
BockEffect = Literal["multiply", "extra_point"]
Counting = Literal["plus_minus", "winners_only", "losers_only"]
DeadlinesCount = Literal["cards", "tricks"]
FirstTrickThirty = Literal["off", "party_silent", "all_silent", "always"]
PovertyFox = Literal["counted", "not_counted", "passed_extra"]
PovertyPasses = Literal["three", "trumps"]
SchweinchenCall = Literal["automatic", "before_play", "while_held"]
BOCK_TRIGGERS = (
    "tie",
    "lost_solo",
    "lost_re",
    "lost_kontra",
    "nobody_wins",
    "heart_trick",
    "schwarz",
    "lost_announcement",
)
"""What can start a bock round (docs/rules.md §9): a 120:120 tie, a lost solo, a lost Re or
Kontra announcement, a game nobody wins, a trick of four hearts, a party without a trick, any
announced party losing."""
PICTURE_SOLOS = ("king_solo", "queen_jack_solo", "king_jack_solo", "king_queen_solo", "koehler_solo")
"""The picture solos beyond the queen and jack solo that a table may allow (docs/rules.md §2, §4):
kings alone; queens over jacks; kings over jacks; kings over queens; kings, queens and jacks."""


@frozen
class RuleSet:
    """The house rules in force for a game. Defaults are the `standard` preset."""

    preset: str = "standard"
    with_nines: bool = True
    second_dulle_beats_first: bool = False
    schweinchen: bool = False
    soloist_leads: bool = False
    pure_suit_solos: bool = False
    poverty: bool = True
    marriage_clarification: MarriageClarification = "any"
    marriage_shift: MarriageShift = "after_first"
    solo_must_announce_no90: bool = False
    announcement_scoring: AnnouncementScoring = "additive"
    specials_doubled: bool = False
    karlchen_capture: bool = True
    scoring: Scoring = "standard"
    special_points_in_poverty: bool = True
    karlchen_in_poverty: bool = True
    computer_seats: tuple[int, ...] = ()
    bock_triggers: tuple[str, ...] = ()
    bock_multiplier: int = 2
    bock_overlap: BockOverlap = "queue"
    bock_effect: BockEffect = "multiply"
    counting: Counting = "plus_minus"
    compulsory_solo: bool = False
    tournament_deals: int = 20
    forced_solos: ForcedSolos = "after_deals"
    # the further picture solos
    picture_solos: tuple[str, ...] = ()
    # announcement house rules: deadlines (docs/rules.md §5), Kontra doubling against the old ones (§7)
    re_deadline: int = 1
    no90_deadline: int = 2
    no60_deadline: int = 3
    no30_deadline: int = 4
    schwarz_deadline: int = 5
    deadlines_count: DeadlinesCount = "cards"
    late_answer: bool = True
    last_announcement_trick: int = 12
    first_trick_thirty: FirstTrickThirty = "off"
    against_old_ones_doubled: bool = False
    # reservations: poverty, marriage and throwing in as FreeDoko plays them (docs/rules.md §4)
    poverty_fox: PovertyFox = "counted"
    poverty_passes: PovertyPasses = "three"
    poverty_exchange: bool = True
    poverty_throw_one_trump: bool = False
    marriage_tricks: int = 3
    marriage_first_decides: bool = False
    marriage_before_poverty: bool = False
    throw_nines: int = 0
    throw_kings: int = 0
    throw_nines_and_kings: int = 0
    throw_richness: int = 0
    throw_fox_highest_trump: bool = False
    throws_before_solo: bool = False
    lone_marriage_specials: bool = False
    # card order and extra points
    dullen: bool = True
    second_dulle_last_trick: bool = False
    first_dulle_with_schweinchen: bool = False
    schweinchen_shown: SchweinchenCall = "automatic"
    schweinchen_in_solo: bool = False
    schweinchen_in_poverty: bool = False
    fox_caught: bool = True
    fox_caught_last_trick: bool = False
    fox_last_trick: bool = False
    double_fox_last_trick: bool = False
    dulle_caught_dulle: bool = False
    heart_trick_point: bool = False
    karlchen: bool = True
    double_karlchen: bool = False
    karlchen_captured_twice: bool = True
    karlchen_capture_with_dq: bool = False
    hyperschweinchen: bool = False
    hyperschweinchen_joint: bool = False

    def is_computer(self, seat: int) -> bool:
        """Duel rules: a computer seat never announces Re/Kontra nor plays a solo (docs/rules.md §8)."""
        return seat in self.computer_seats

    @property
    def hand_size(self) -> int:
        return 12 if self.with_nines else 10

    def to_dict(self) -> dict[str, Any]:
        """Every option and its value, in field order (the snapshot stored with a game)."""
        return {name: list(value) if isinstance(value := getattr(self, name), tuple) else value for name in _OPTIONS}

    def changed_from_preset(self) -> dict[str, Any]:
        """Only the options that differ from this rule set's own preset."""
        base = preset(self.preset).to_dict()
        return {k: v for k, v in self.to_dict().items() if k != "preset" and base[k] != v}


_OPTIONS = tuple(f.name for f in dataclasses.fields(RuleSet))
"""Every option's name, in field order: asked of `dataclasses.fields` once, not for every
snapshot (one is made for every game written and every score shown, and the fields cost it
half its time)."""

PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "bistro": {
        "with_nines": False,
        "soloist_leads": True,
        "pure_suit_solos": True,
        "solo_must_announce_no90": True,
        "schweinchen": True,
        "karlchen_in_poverty": False,
    },
    "ddv": {"poverty": False, "karlchen_capture": False, "scoring": "ddv", "special_points_in_poverty": False},
    "duel": {"computer_seats": (1, 3)},
    "tournament": {"compulsory_solo": True},
}


def preset_descriptions() -> dict[str, Message]:
    """One line per preset, for `doko rules list` (made when asked for: no command pays for
    them at its start)."""
    return {
        "standard": msg("the default rules: 48 cards, poverty and marriage, Re/Kontra worth 2 each (docs/rules.md §8)"),
        "bistro": msg("pub rules: no nines, the soloist leads, pure suit solos, solos announce no 90, schweinchen"),
        "ddv": msg("the DDV's tournament rules: no poverty, DDV scoring, no Karlchen capture"),
        "duel": msg("two people against two computer seats (1 and 3)"),
        "tournament": msg("the standard rules with a compulsory solo for every player (docs/rules.md §9)"),
    }


@frozen
class Preset:
    """A named preset: what it is, and the options it changes from the defaults."""

    name: str
    description: Message
    changes: dict[str, Any]


def presets() -> tuple[Preset, ...]:
    """Every preset, in the order of `PRESETS`."""
    descriptions = preset_descriptions()
    return tuple(
        Preset(name, descriptions[name], {k: list(v) if isinstance(v, tuple) else v for k, v in changes.items()})
        for name, changes in PRESETS.items()
    )


NUMBER_RANGES: dict[str, tuple[int, int]] = {
    "bock_multiplier": (1, 100),
    "tournament_deals": (1, 100),
    "re_deadline": (0, 12),
    "no90_deadline": (0, 12),
    "no60_deadline": (0, 12),
    "no30_deadline": (0, 12),
    "schwarz_deadline": (0, 12),
    "last_announcement_trick": (1, 12),
    "marriage_tricks": (1, 12),
    "throw_nines": (0, 8),
    "throw_kings": (0, 8),
    "throw_nines_and_kings": (0, 16),
    "throw_richness": (0, 240),
}
"""The whole-number options and the lowest and highest value each takes."""

_HINTS = get_type_hints(RuleSet)
OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(RuleSet) if f.name != "preset")


def _check_value(name: str, value: Any) -> None:
    hint = _HINTS[name]
    if name == "bock_triggers":
        if not isinstance(value, (list, tuple)) or any(t not in BOCK_TRIGGERS for t in value):
            raise RuleSetError(
                msg(
                    "rule option {option} takes a list of {choices}, not {value}",
                    option=repr(name),
                    choices=", ".join(BOCK_TRIGGERS),
                    value=repr(value),
                )
            )
        return
    if name == "picture_solos":
        if not isinstance(value, (list, tuple)) or any(s not in PICTURE_SOLOS for s in value):
            raise RuleSetError(
                msg(
                    "rule option {option} takes a list of {choices}, not {value}",
                    option=repr(name),
                    choices=", ".join(PICTURE_SOLOS),
                    value=repr(value),
                )
            )
        return
    if hint is int:
        lowest, highest = NUMBER_RANGES[name]
        if not isinstance(value, int) or isinstance(value, bool) or not lowest <= value <= highest:
            raise RuleSetError(
                msg(
                    "rule option {option} takes a whole number from {lowest} to {highest}, not {value}",
                    option=repr(name),
                    lowest=lowest,
                    highest=highest,
                    value=repr(value),
                )
            )
        return
    if name == "computer_seats":
        seats = list(value) if isinstance(value, (list, tuple)) else None
        if (
            seats is None
            or len(seats) not in (0, 2)
            or any(not isinstance(s, int) or isinstance(s, bool) or not 0 <= s <= 3 for s in seats)
            or len(set(seats)) != len(seats)
        ):
            raise RuleSetError(
                msg(
                    "rule option {option} takes [] or two different seats 0-3, not {value}",
                    option=repr(name),
                    value=repr(value),
                )
            )
        return
    if hint is bool:
        if not isinstance(value, bool):
            raise RuleSetError(
                msg("rule option {option} takes true or false, not {value}", option=repr(name), value=repr(value))
            )
        return
    choices = get_args(hint)
    if value not in choices:
        allowed = ", ".join(repr(c) for c in choices)
        raise RuleSetError(
            msg(
                "rule option {option} takes one of {choices}, not {value}",
                option=repr(name),
                choices=allowed,
                value=repr(value),
            )
        )


def preset(name: str) -> RuleSet:
    """The rule set of a named preset (`standard`, `bistro`, `ddv`, `duel`)."""
    if name not in PRESETS:
        raise RuleSetError(
            msg("unknown rule preset {name} (known: {known})", name=repr(name), known=", ".join(PRESETS))
        )
    return RuleSet(preset=name, **PRESETS[name])


def rules_from_mapping(data: Mapping[str, Any]) -> RuleSet:
    """A rule set from `{preset: NAME, option: value, ...}`; unknown options are refused by name."""
    if not isinstance(data, Mapping):
        raise RuleSetError(msg("rules must be a preset name or a mapping, not {value}", value=repr(data)))
    base = preset(str(data.get("preset", "standard")))
    overrides = {k: v for k, v in data.items() if k != "preset"}
    for name, value in overrides.items():
        if name not in OPTION_NAMES:
            raise RuleSetError(msg("unknown rule option {name}", name=repr(name)))
        _check_value(name, value)
    return dataclasses.replace(base, **_typed(overrides))


def _typed(options: Mapping[str, Any]) -> dict[str, Any]:
    """Option values as the fields hold them (JSON and YAML give lists for tuples)."""
    return {k: tuple(v) if k in ("computer_seats", "bock_triggers", "picture_solos") else v for k, v in options.items()}


def rules_from_snapshot(data: Mapping[str, Any]) -> RuleSet:
    """The rule set stored with a game. Options the snapshot predates keep their defaults.

    Remembered by the snapshot's options and the `repr` of its values: every game stores its
    snapshot, and a ledger's games share a few rule sets (a `RuleSet` is immutable). The `repr`
    of JSON's values tells apart what equality does not (`true` and `1`, `[1]` and `[true]`), and
    is made in C: half the cost of a key built value by value.
    """
    key = (tuple(data), repr([*data.values()]))
    rules = _SNAPSHOTS.get(key)
    if rules is None:
        rules = RuleSet(**_typed({k: v for k, v in data.items() if k in _HINTS}))
        if len(_SNAPSHOTS) < 1024:
            _SNAPSHOTS[key] = rules
    return rules


_SNAPSHOTS: dict[tuple[tuple[str, ...], str], RuleSet] = {}
