"""FreeDoko's rule block as doko's rule set (docs/rules.md §10).

Every FreeDoko option is one of four kinds:
- mapped onto a doko option (`with nines` → `with_nines`);
- required to have the value doko plays (`knocking = false`): another value refuses the game,
  naming the option and its value;
- a permission of an action (`genscher`, `marriage first trump`): it changes nothing in a game
  that does not use it; a game that does is refused at the action's line (a genscher), or
  takes the choice it allows as its own rule (a marriage's `marriage_clarification`);
- ignored: FreeDoko's display, its computer players and the party's length.
Unknown options refuse the game: doko cannot tell what they would change.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import field
from typing import Any

from doko_ledger.doppelkopf.files.freedoko import announcements
from doko_ledger.doppelkopf.files.freedoko.blocks import Entry
from doko_ledger.doppelkopf.files.freedoko.card_rules import OPTIONS as CARD_OPTIONS
from doko_ledger.doppelkopf.files.freedoko.card_rules import OptionRefused, card_rules
from doko_ledger.doppelkopf.files.freedoko.defaults import DEFAULTS
from doko_ledger.doppelkopf.files.freedoko.log import FreeDokoFileError
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.ruleset import MarriageClarification, RuleSet, RuleSetError, rules_from_mapping
from doko_ledger.errors import reason_of
from doko_ledger.frozen import frozen
from doko_ledger.i18n import Message, msg

BASE_PRESET = "ddv"
"""FreeDoko counts announcements as the DDV does (docs/rules.md §10)."""
BASE: dict[str, Any] = {
    "preset": BASE_PRESET,
    "poverty": True,
    "karlchen_capture": True,
    "special_points_in_poverty": True,
    "lone_marriage_specials": True,
} | card_rules({})
"""The rule set a FreeDoko rule block starts from: the DDV's, with what FreeDoko always does
(special points in a poverty and in a lone marriage's first tricks) and its defaults that
the block may change."""

GAME_TYPES: dict[str, GameType] = {
    "normal": GameType.NORMAL,
    "marriage": GameType.MARRIAGE,
    "poverty": GameType.POVERTY,
    "marriage silent": GameType.SILENT_SOLO,
    "solo club": GameType.CLUB_SOLO,
    "solo spade": GameType.SPADE_SOLO,
    "solo heart": GameType.HEART_SOLO,
    "solo diamond": GameType.DIAMOND_SOLO,
    "solo queen": GameType.QUEEN_SOLO,
    "solo jack": GameType.JACK_SOLO,
    "solo meatless": GameType.ACE_SOLO,
    "solo king": GameType.KING_SOLO,
    "solo queen-jack": GameType.QUEEN_JACK_SOLO,
    "solo king-jack": GameType.KING_JACK_SOLO,
    "solo king-queen": GameType.KING_QUEEN_SOLO,
    "solo koehler": GameType.KOEHLER_SOLO,
}
"""FreeDoko's game types that doko plays."""

SOLO_PERMISSIONS: dict[str, tuple[GameType, ...]] = {
    "solo jack": (GameType.JACK_SOLO,),
    "solo queen": (GameType.QUEEN_SOLO,),
    "solo king": (GameType.KING_SOLO,),
    "solo queen jack": (GameType.QUEEN_JACK_SOLO,),
    "solo king jack": (GameType.KING_JACK_SOLO,),
    "solo king queen": (GameType.KING_QUEEN_SOLO,),
    "solo koehler": (GameType.KOEHLER_SOLO,),
    "solo color": (GameType.CLUB_SOLO, GameType.SPADE_SOLO, GameType.HEART_SOLO, GameType.DIAMOND_SOLO),
    "solo meatless": (GameType.ACE_SOLO,),
}
"""FreeDoko's permission of each declared solo, all of them under its option `solo` (true by
default, as each of these is). The further picture solos become doko's option `picture_solos`;
the solos every doko table plays stay permissions: a reservation of one the rules forbid is
refused at its line."""

IGNORED: frozenset[str] = frozenset(
    {
        "show if valid",
        "show all hands",
        "show tricks number",
        "show tricks in trickpiles",
        "show trickpiles points",
        "show known teams in game",
        "show soloplayer in game",
        "card hint",
        "take back tricks",
        "number of rounds limited",
        "number of rounds",
        "points limited",
        "points",
        "offer duty solo",
        "mutate",
        "unsupported",
        "poverty fox shift open",
    }
)
"""Options about FreeDoko's display, its computer players or the length of a party."""

PERMISSIONS: frozenset[str] = frozenset(
    {
        "genscher",
        "marriage first foreign",
        "marriage first color",
        "marriage first single color",
        "marriage first trump",
    }
)
"""Options that allow an action: a game without that action is played alike either way."""

REQUIRED: dict[str, str] = {
    "number of players": "4",
    "number of players in game": "4",
    "knocking": "false",
    "number of duty soli": "0",
    "number of duty color soli": "0",
    "number of duty picture soli": "0",
    "announcement strict limit": "false",
    "solo always counts triple": "false",
}
"""Options doko plays only one way: the value it plays."""


def _bool(entry: Entry) -> bool:
    if entry.value not in ("true", "false"):
        raise RuleSetError(msg("{key} takes true or false, not {value}", key=entry.key, value=repr(entry.value)))
    return entry.value == "true"


_FOX_EXTRA = " fox shift extra"
"""A key (with a space, so never a doko option) holding `poverty fox shift extra` until combined."""
_THROWS: dict[str, tuple[str, str]] = {
    name: (f" {name} on", f" {name} least")
    for name in ("throw_nines", "throw_kings", "throw_nines_and_kings", "throw_richness")
}
"""FreeDoko gives a throw as a switch and a least number; doko as the number alone (0: no throw).
These keys (with a space, as above) hold the two until both are read."""


BOCK_AFTER: dict[str, str] = {
    "bock after 120-120": "tie",
    "bock after lost solo": "lost_solo",
    "bock after lost re/contra": "lost_announcement",
    "bock after heart trick": "heart_trick",
    "bock after black game": "schwarz",
}
"""FreeDoko's bock triggers as doko's (docs/rules.md §9): a 120:120 tie, a lost solo, a party that
announced and lost, a trick of four plain hearts, a party without a trick."""
_BOCK = " bock"
"""A key (with a space, so never a doko option) holding FreeDoko's `bock` switch until combined."""


def _switch(key: str) -> Callable[[Entry], dict[str, Any]]:
    """A FreeDoko switch kept under `key` until it is combined with others."""
    return lambda e: {key: _bool(e)}


MAPPED: dict[str, Callable[[Entry], dict[str, Any]]] = {
    "with nines": lambda e: {"with_nines": _bool(e)},
    "poverty": lambda e: {"poverty": _bool(e)},
    "lustsolo player leads": lambda e: {"soloist_leads": _bool(e)},
    "announcement re/contra doubles": lambda e: {"announcement_scoring": "doubling" if _bool(e) else "additive"},
    "announcement contra doubles against re": lambda e: {"against_old_ones_doubled": _bool(e)},
    "counting": lambda e: {"counting": _counting(e)},
    "bock multiplier": lambda e: {"bock_multiplier": int(e.value)},
    "bock": lambda e: {_BOCK: _bool(e)},
    "append bock": lambda e: {"bock_overlap": "queue" if _bool(e) else "stack"},
    **{name: _switch(f" {name}") for name in BOCK_AFTER},
    "poverty shift": lambda e: {"poverty_exchange": _bool(e)},
    "poverty shift only trump": lambda e: {"poverty_passes": "trumps" if _bool(e) else "three"},
    "poverty fox do not count": lambda e: {"poverty_fox": "not_counted" if _bool(e) else "counted"},
    "poverty fox shift extra": lambda e: {_FOX_EXTRA: _bool(e)},
    "throw with one trump": lambda e: {"poverty_throw_one_trump": _bool(e)},
    "throw when fox highest trump": lambda e: {"throw_fox_highest_trump": _bool(e)},
    "throwing before solo": lambda e: {"throws_before_solo": _bool(e)},
    "marriage determination": lambda e: {"marriage_tricks": int(e.value)},
    "marriage first one decides": lambda e: {"marriage_first_decides": _bool(e)},
    "marriage before poverty": lambda e: {"marriage_before_poverty": _bool(e)},
    "throw with nines": lambda e: {_THROWS["throw_nines"][0]: _bool(e)},
    "min number of throwing nines": lambda e: {_THROWS["throw_nines"][1]: int(e.value)},
    "throw with kings": lambda e: {_THROWS["throw_kings"][0]: _bool(e)},
    "min number of throwing kings": lambda e: {_THROWS["throw_kings"][1]: int(e.value)},
    "throw with nines and kings": lambda e: {_THROWS["throw_nines_and_kings"][0]: _bool(e)},
    "min number of throwing nines and kings": lambda e: {_THROWS["throw_nines_and_kings"][1]: int(e.value)},
    "throw with richness": lambda e: {_THROWS["throw_richness"][0]: _bool(e)},
    "min richness for throwing": lambda e: {_THROWS["throw_richness"][1]: int(e.value)},
}

MARRIAGE_SELECTORS: dict[str, tuple[MarriageClarification, str]] = {
    "first foreign": ("any", "marriage first foreign"),
    "first trump": ("trump", "marriage first trump"),
    "first color": ("plain", "marriage first color"),
    "first club": ("clubs", "marriage first single color"),
    "first spade": ("spades", "marriage first single color"),
    "first heart": ("hearts", "marriage first single color"),
}
"""A marriage player's choice of the tricks that find the partner: doko's `marriage_clarification`
for that game, and the FreeDoko option that allows it."""


def _combined(changes: dict[str, Any]) -> dict[str, Any]:
    """The FreeDoko options that make one doko option together, combined: a throw's switch and
    least number, the fox not counted and passed on top. An option FreeDoko ignores while another
    is off is left at doko's default: a throw with nines without nines, the poverty's passing
    without its exchange (a poverty then throws the deal in anyway)."""
    out = {k: v for k, v in changes.items() if not k.startswith(" ")}
    for name, (on, least) in _THROWS.items():
        if on in changes or least in changes:
            out[name] = changes.get(least, 0) if changes.get(on, False) else 0
    if not out.get("with_nines", True):
        out.update(throw_nines=0, throw_nines_and_kings=0)
    if changes.get(_FOX_EXTRA) and out.get("poverty_fox") == "not_counted":
        out["poverty_fox"] = "passed_extra"
    if out.get("poverty_exchange") is False:
        out.update(poverty_passes="three", poverty_throw_one_trump=False)
    return out


def _bock(changes: Mapping[str, Any]) -> dict[str, Any]:
    """The bock triggers FreeDoko's switches name, none while its `bock` is off; its rounds of
    four games multiply each other (`append bock = false`: doko's `stack`) or wait in turn."""
    if not changes.get(_BOCK, True):
        return {"bock_triggers": ()}
    return {"bock_triggers": tuple(t for name, t in BOCK_AFTER.items() if changes.get(f" {name}"))}


def _counting(entry: Entry) -> str:
    words = {"plus": "winners_only", "minus": "losers_only", "plus-minus": "plus_minus"}
    if entry.value not in words:
        raise RuleSetError(msg("counting = {value} is not a counting doko keeps", value=entry.value))
    return words[entry.value]


@frozen
class FreeDokoRules:
    """The rule set a FreeDoko rule block maps to, the options left out as FreeDoko's own, and
    the permissions the block turns off (`marriage first trump = false`: that choice is refused)."""

    rules: RuleSet
    ignored: tuple[str, ...]
    forbidden_solos: Mapping[GameType, str] = field(default_factory=dict)
    """The solos doko always allows that these rules forbid, each with the rule that does."""
    forbidden: frozenset[str] = frozenset()


def _solo_permissions(block: Mapping[str, Entry]) -> tuple[list[str], dict[GameType, str]]:
    """What FreeDoko's solo options allow: the further picture solos (doko's `picture_solos`)
    and, by the rule that forbids it, every other declared solo these rules forbid. An option
    the block leaves out has FreeDoko's default, true."""
    solo = block.get("solo")
    picture: list[str] = []
    forbidden: dict[GameType, str] = {}
    for name, games in SOLO_PERMISSIONS.items():
        entry = block.get(name)
        refusing = next((e for e in (solo, entry) if e is not None and not _bool(e)), None)
        if refusing is None:
            picture += [game.value for game in games if game.is_further_picture_solo]
        else:
            rule = f"{refusing.key} = {refusing.value}"
            forbidden.update({game: rule for game in games if not game.is_further_picture_solo})
    return picture, forbidden


def read_rules(block: Mapping[str, Entry], source: str, with_defaults: bool = False) -> FreeDokoRules:
    """The rule set of a FreeDoko rule block; `FreeDokoFileError` naming the first option doko
    cannot honour, at its line. `with_defaults`: the block names only the options it changes
    (a party file's), the others are FreeDoko's defaults."""
    if with_defaults:
        block = {name: Entry(name, value, 0) for name, value in DEFAULTS.items()} | dict(block)
    changes: dict[str, Any] = dict(BASE)
    try:
        changes.update(card_rules(block))
    except OptionRefused as exc:
        entry = block.get(exc.option)
        raise FreeDokoFileError(
            reason_of(exc), source=source, line=None if entry is None else entry.line or None
        ) from None
    ignored = []
    calls: dict[str, Entry] = {}
    forbidden = {name for name, entry in block.items() if name in PERMISSIONS and entry.value == "false"}
    for name, entry in block.items():

        def refuse(why: str | Message, entry: Entry = entry) -> FreeDokoFileError:
            return FreeDokoFileError(why, source=source, line=entry.line or None)

        if name in CARD_OPTIONS:
            continue
        if name in SOLO_PERMISSIONS or name == "solo":
            try:
                _bool(entry)
            except RuleSetError as exc:
                raise refuse(reason_of(exc)) from None
            continue
        if name in announcements.OPTIONS:
            calls[name] = entry
            continue
        if name in IGNORED or name in PERMISSIONS:
            if name in IGNORED:
                ignored.append(name)
            continue
        if name in REQUIRED:
            if entry.value != REQUIRED[name]:
                raise refuse(
                    msg(
                        "rule {rule} is not one doko plays (only {value})",
                        rule=f"'{name} = {entry.value}'",
                        value=REQUIRED[name],
                    )
                )
            continue
        if name in MAPPED:
            try:
                changes.update(MAPPED[name](entry))
            except (RuleSetError, ValueError) as exc:
                raise refuse(reason_of(exc)) from None
            continue
        raise refuse(msg("unknown FreeDoko rule {name}: doko cannot tell what it changes", name=repr(name)))
    changes.update(announcements.announcement_options(calls, changes.get("with_nines", True), source))
    try:
        changes["picture_solos"], forbidden_solos = _solo_permissions(block)
        rules = rules_from_mapping(_combined(changes | _bock(changes)))
    except RuleSetError as exc:
        raise FreeDokoFileError(reason_of(exc), source=source) from None
    return FreeDokoRules(rules, tuple(ignored), forbidden_solos, frozenset(forbidden))
