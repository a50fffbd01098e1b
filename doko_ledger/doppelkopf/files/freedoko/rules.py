"""FreeDoko's rule block as doko's rule set (docs/rules.md §10).

Every FreeDoko option is one of four kinds:
- mapped onto a doko option (`with nines` → `with_nines`);
- required to have the value doko plays (`dollen = true`): another value refuses the game,
  naming the option and its value;
- a permission of an action (`genscher`, `throw with nines`): it changes nothing in a game
  that does not use it, and a game that does is refused at the action's line;
- ignored: FreeDoko's display, its computer players and the party's length.
Unknown options refuse the game: doko cannot tell what they would change.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from doko_ledger.doppelkopf.files.freedoko import announcements
from doko_ledger.doppelkopf.files.freedoko.blocks import Entry
from doko_ledger.doppelkopf.files.freedoko.defaults import DEFAULTS
from doko_ledger.doppelkopf.files.freedoko.log import FreeDokoFileError
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.ruleset import RuleSet, RuleSetError, rules_from_mapping

BASE_PRESET = "ddv"
"""FreeDoko counts announcements as the DDV does (docs/rules.md §10)."""

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
    }
)
"""Options about FreeDoko's display, its computer players or the length of a party."""

PERMISSIONS: frozenset[str] = frozenset(
    {
        "genscher",
        "throw with nines",
        "min number of throwing nines",
        "throw with kings",
        "min number of throwing kings",
        "throw with nines and kings",
        "min number of throwing nines and kings",
        "throw with richness",
        "min richness for throwing",
        "throwing before solo",
        "throw with one trump",
        "throw when fox highest trump",
    }
)
"""Options that allow an action: a game without that action is played alike either way."""

REQUIRED: dict[str, str] = {
    "number of players": "4",
    "number of players in game": "4",
    "dollen": "true",
    "hyperswines": "false",
    "knocking": "false",
    "number of duty soli": "0",
    "number of duty color soli": "0",
    "number of duty picture soli": "0",
    "extrapoint catch fox": "true",
    "extrapoint charlie": "true",
    "extrapoint catch fox last trick": "false",
    "extrapoint fox last trick": "false",
    "extrapoint double fox last trick": "false",
    "extrapoint dolle jabs dolle": "false",
    "extrapoint heart trick": "false",
    "extrapoint double charlie": "false",
    "extrapoint catch double charlie": "false",
    "extrapoint catch charlie only with diamond queen": "false",
    "announcement strict limit": "false",
    "solo always counts triple": "false",
}
"""Options doko plays only one way: the value it plays."""


def _bool(entry: Entry) -> bool:
    if entry.value not in ("true", "false"):
        raise RuleSetError(f"{entry.key} takes true or false, not {entry.value!r}")
    return entry.value == "true"


MAPPED: dict[str, Callable[[Entry], dict[str, Any]]] = {
    "with nines": lambda e: {"with_nines": _bool(e)},
    "poverty": lambda e: {"poverty": _bool(e)},
    "lustsolo player leads": lambda e: {"soloist_leads": _bool(e)},
    "dollen second over first": lambda e: {"second_dulle_beats_first": _bool(e)},
    "swines": lambda e: {"schweinchen": _bool(e)},
    "extrapoint catch charlie": lambda e: {"karlchen_capture": _bool(e)},
    "announcement re/contra doubles": lambda e: {"announcement_scoring": "doubling" if _bool(e) else "additive"},
    "announcement contra doubles against re": lambda e: {"against_old_ones_doubled": _bool(e)},
    "counting": lambda e: {"counting": _counting(e)},
    "bock multiplier": lambda e: {"bock_multiplier": int(e.value)},
}


def _counting(entry: Entry) -> str:
    words = {"plus": "winners_only", "minus": "losers_only", "plus-minus": "plus_minus"}
    if entry.value not in words:
        raise RuleSetError(f"counting = {entry.value} is not a counting doko keeps")
    return words[entry.value]


@dataclass(frozen=True, slots=True)
class FreeDokoRules:
    """The rule set a FreeDoko rule block maps to, and the options left out as FreeDoko's own."""

    rules: RuleSet
    ignored: tuple[str, ...]
    forbidden_solos: Mapping[GameType, str] = field(default_factory=dict)
    """The solos doko always allows that these rules forbid, each with the rule that does."""


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
    changes: dict[str, Any] = {"preset": BASE_PRESET, "poverty": True, "karlchen_capture": True}
    changes["special_points_in_poverty"] = True
    ignored = []
    calls: dict[str, Entry] = {}
    for name, entry in block.items():

        def refuse(why: str, entry: Entry = entry) -> FreeDokoFileError:
            return FreeDokoFileError(why, source=source, line=entry.line or None)

        if name in _PENDING:
            continue
        if name in SOLO_PERMISSIONS or name == "solo":
            try:
                _bool(entry)
            except RuleSetError as exc:
                raise refuse(str(exc)) from None
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
                raise refuse(f"rule '{name} = {entry.value}' is not one doko plays (only {REQUIRED[name]})")
            continue
        if name in MAPPED:
            try:
                changes.update(MAPPED[name](entry))
            except (RuleSetError, ValueError) as exc:
                raise refuse(str(exc)) from None
            continue
        raise refuse(f"unknown FreeDoko rule {name!r}: doko cannot tell what it changes")
    changes.update(announcements.announcement_options(calls, changes.get("with_nines", True), source))
    try:
        changes["picture_solos"], forbidden = _solo_permissions(block)
        rules = rules_from_mapping(changes)
    except RuleSetError as exc:
        raise FreeDokoFileError(str(exc), source=source) from None
    return FreeDokoRules(rules, tuple(ignored), forbidden)


_PENDING = {  # options not mapped yet: each is taken out as it becomes a doko rule option
    "append bock",
    "bock",
    "bock after 120-120",
    "bock after black game",
    "bock after heart trick",
    "bock after lost re/contra",
    "bock after lost solo",
    "dollen contrary in last trick",
    "dollen first over second with swines",
    "extrapoint fox last trick",
    "hyperswines announcement begin",
    "hyperswines in poverty",
    "hyperswines in solo",
    "marriage before poverty",
    "marriage determination",
    "marriage first color",
    "marriage first foreign",
    "marriage first one decides",
    "marriage first single color",
    "marriage first trump",
    "poverty fox do not count",
    "poverty fox shift extra",
    "poverty fox shift open",
    "poverty shift",
    "poverty shift only trump",
    "swine only second",
    "swines and hyperswines joint",
    "swines announcement begin",
    "swines in poverty",
    "swines in solo",
}
