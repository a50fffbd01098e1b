"""FreeDoko's card order and extra point options as doko's (docs/rules.md §2, §7).

These options depend on each other: FreeDoko honours one only where the options it rests on
are on (`dollen first over second with swines` needs the Dullen, the Schweinchen and one of the
two Dullen orders; `extrapoint heart trick` needs the Dullen and a game without nines). Each is
read here as FreeDoko plays it, from the whole rule block at once; an option the block leaves
out has FreeDoko's default (`defaults.DEFAULTS`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from doko_ledger.doppelkopf.files.freedoko.blocks import Entry
from doko_ledger.doppelkopf.files.freedoko.defaults import DEFAULTS, flag
from doko_ledger.doppelkopf.rules.ruleset import RuleSet, RuleSetError
from doko_ledger.i18n import Message, msg

OPTIONS: frozenset[str] = frozenset(
    {
        "dollen",
        "dollen second over first",
        "dollen contrary in last trick",
        "dollen first over second with swines",
        "swines",
        "swines in solo",
        "swines in poverty",
        "swines announcement begin",
        "swine only second",
        "hyperswines",
        "hyperswines in solo",
        "hyperswines in poverty",
        "hyperswines announcement begin",
        "swines and hyperswines joint",
        "extrapoint catch fox",
        "extrapoint catch fox last trick",
        "extrapoint fox last trick",
        "extrapoint double fox last trick",
        "extrapoint dolle jabs dolle",
        "extrapoint heart trick",
        "extrapoint charlie",
        "extrapoint catch charlie",
        "extrapoint double charlie",
        "extrapoint catch double charlie",
        "extrapoint catch charlie only with diamond queen",
    }
)
"""The options read here."""

_READ_TOO = ("with nines", "poverty", "poverty shift")
"""Options mapped elsewhere that these depend on."""


class OptionRefused(RuleSetError):
    """An option set to a value doko does not play, naming the option."""

    def __init__(self, option: str, why: str | Message) -> None:
        super().__init__(why)
        self.option = option


def card_rules(block: Mapping[str, Entry]) -> dict[str, Any]:
    """doko's rule options for FreeDoko's card order and extra points, as FreeDoko plays them."""
    value: dict[str, bool] = {}
    for name in (*sorted(OPTIONS), *_READ_TOO):
        entry = block.get(name)
        text = DEFAULTS[name] if entry is None else entry.value
        if text not in ("true", "false"):
            raise OptionRefused(name, msg("{option} takes true or false, not {text}", option=name, text=repr(text)))
        value[name] = text == "true"
    dollen, swines = value["dollen"], value["swines"]
    second = dollen and value["dollen second over first"]
    contrary = dollen and value["dollen contrary in last trick"]
    if swines and value["swine only second"] and not value["swines announcement begin"] and not value["hyperswines"]:
        refused = msg(
            "rule {rule} is not one doko plays (only {value})", rule="'swine only second = true'", value="false"
        )
        raise OptionRefused("swine only second", refused)
    begin = swines and value["swines announcement begin"] and not value["swine only second"]
    in_solo = swines and value["swines in solo"]
    in_poverty = swines and value["swines in poverty"] and value["poverty"] and value["poverty shift"]
    hyper = swines and value["hyperswines"]
    if hyper:
        _hyperswines_as_swines(value, begin, in_solo, in_poverty)
    charlie = value["extrapoint charlie"]
    catch_charlie = charlie and value["extrapoint catch charlie"]
    double_charlie = charlie and value["extrapoint double charlie"]
    return {
        "dullen": dollen,
        "second_dulle_beats_first": second,
        "second_dulle_last_trick": second != contrary,
        "first_dulle_with_schweinchen": (
            dollen and swines and (second or contrary) and value["dollen first over second with swines"]
        ),
        "schweinchen": swines,
        "schweinchen_shown": "automatic" if not swines else "before_play" if begin else "while_held",
        "schweinchen_in_solo": in_solo,
        "schweinchen_in_poverty": in_poverty,
        "fox_caught": value["extrapoint catch fox"],
        "fox_caught_last_trick": value["extrapoint catch fox"] and value["extrapoint catch fox last trick"],
        "fox_last_trick": value["extrapoint fox last trick"],
        "double_fox_last_trick": value["extrapoint fox last trick"] and value["extrapoint double fox last trick"],
        "dulle_caught_dulle": dollen and (second or contrary) and value["extrapoint dolle jabs dolle"],
        "heart_trick_point": dollen and not value["with nines"] and value["extrapoint heart trick"],
        "karlchen": charlie,
        "karlchen_capture": catch_charlie,
        "double_karlchen": double_charlie,
        "karlchen_captured_twice": double_charlie and value["extrapoint catch double charlie"],
        "karlchen_capture_with_dq": catch_charlie and value["extrapoint catch charlie only with diamond queen"],
        "hyperschweinchen": hyper,
        "hyperschweinchen_joint": hyper and value["swines and hyperswines joint"],
    }


def _hyperswines_as_swines(value: dict[str, bool], begin: bool, in_solo: bool, in_poverty: bool) -> None:
    """doko's Hyperschweinchen come in the games of the Schweinchen and are shown as they are:
    FreeDoko's hyperswines options must say the same where they have an effect."""
    same = {
        "hyperswines in solo": (in_solo, value["hyperswines in solo"]),
        "hyperswines in poverty": (in_poverty, value["hyperswines in poverty"]),
        "hyperswines announcement begin": (begin, value["hyperswines announcement begin"]),
    }
    for name, (swines, hyper) in same.items():
        if swines and not hyper:
            raise OptionRefused(
                name,
                msg(
                    "rule {rule} is not one doko plays with the swines' {option}",
                    rule=f"'{name} = false'",
                    option=repr(name.replace("hyper", "")),
                ),
            )


# -- written back (a doko game exported as a FreeDoko game log) -------------------------------


CARD_OPTIONS: dict[str, Callable[[RuleSet], str]] = {
    "dollen": lambda r: flag(r.dullen),
    "dollen second over first": lambda r: flag(r.second_dulle_beats_first),
    "dollen contrary in last trick": lambda r: flag(r.second_dulle_beats_first != r.second_dulle_last_trick),
    "dollen first over second with swines": lambda r: flag(r.first_dulle_with_schweinchen),
    "swines": lambda r: flag(r.schweinchen),
    "swines in solo": lambda r: flag(r.schweinchen_in_solo),
    "swines in poverty": lambda r: flag(r.schweinchen_in_poverty),
    "swines announcement begin": lambda r: flag(r.schweinchen_shown != "while_held"),
    "swine only second": lambda r: "false",
    "hyperswines": lambda r: flag(r.hyperschweinchen),
    "hyperswines in solo": lambda r: "true",
    "hyperswines in poverty": lambda r: "true",
    "hyperswines announcement begin": lambda r: "true",
    "swines and hyperswines joint": lambda r: flag(r.hyperschweinchen_joint),
    "extrapoint catch fox": lambda r: flag(r.fox_caught),
    "extrapoint catch fox last trick": lambda r: flag(r.fox_caught_last_trick),
    "extrapoint fox last trick": lambda r: flag(r.fox_last_trick),
    "extrapoint double fox last trick": lambda r: flag(r.double_fox_last_trick),
    "extrapoint dolle jabs dolle": lambda r: flag(r.dulle_caught_dulle),
    "extrapoint heart trick": lambda r: flag(r.heart_trick_point),
    "extrapoint charlie": lambda r: flag(r.karlchen),
    "extrapoint catch charlie": lambda r: flag(r.karlchen_capture),
    "extrapoint double charlie": lambda r: flag(r.double_karlchen),
    "extrapoint catch double charlie": lambda r: flag(r.karlchen_captured_twice),
    "extrapoint catch charlie only with diamond queen": lambda r: flag(r.karlchen_capture_with_dq),
}
"""The card order and extra point options written from doko's (`card_rules` read back)."""

CARD_OPTIONS_IDLE: dict[str, Callable[[RuleSet], bool]] = {
    "second_dulle_beats_first": lambda r: not r.dullen,
    "second_dulle_last_trick": lambda r: not r.dullen,
    "first_dulle_with_schweinchen": lambda r: (
        not r.dullen or not r.schweinchen or not (r.second_dulle_beats_first or r.second_dulle_last_trick)
    ),
    # automatic Schweinchen are written as swines their holder announces at the start
    "schweinchen_shown": lambda r: not r.schweinchen or r.schweinchen_shown == "automatic",
    "schweinchen_in_solo": lambda r: not r.schweinchen,
    "schweinchen_in_poverty": lambda r: not r.schweinchen or not r.poverty,
    "hyperschweinchen": lambda r: not r.schweinchen,
    "hyperschweinchen_joint": lambda r: not r.schweinchen or not r.hyperschweinchen,
    "fox_caught_last_trick": lambda r: not r.fox_caught,
    "double_fox_last_trick": lambda r: not r.fox_last_trick,
    "double_karlchen": lambda r: not r.karlchen,
    # FreeDoko counts a second Karlchen caught only with the double Karlchen: the game log's
    # writer refuses a game where that second one was caught
    "karlchen_captured_twice": lambda r: not r.karlchen_capture or not r.double_karlchen,
    "karlchen_capture_with_dq": lambda r: not r.karlchen_capture,
}
"""doko's card order and extra point options that change nothing under the rest of the rules
(no Dullen, no Schweinchen, the point they add to off): FreeDoko need not express them."""
