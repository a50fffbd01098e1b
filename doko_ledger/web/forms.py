"""The deal form's fields read into the library's terms (a `SummaryRecord`, a `StartNight`, a
rule set), and back into fields for a form shown again. Only reading: every rule is the library's."""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from doko_ledger.doppelkopf.files.quick_entry import EntryError
from doko_ledger.doppelkopf.game.record import DealEntry, SummaryRecord, ValueRecord
from doko_ledger.doppelkopf.house_rules import HouseRules, HouseRulesBook, NamedRules
from doko_ledger.doppelkopf.nights.book import BockMark
from doko_ledger.doppelkopf.nights.decide import MAX_PLAYERS, StartNight
from doko_ledger.doppelkopf.rules.announcements import Announcement
from doko_ledger.doppelkopf.rules.bock import TRIGGER_SAID
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.options import (
    OPTION_BY_NAME,
    OPTIONS,
    SETS,
    RuleOption,
    changes_text,
    grouped,
)
from doko_ledger.doppelkopf.rules.ruleset import PRESETS, RuleSet, RuleSetError, preset
from doko_ledger.doppelkopf.rules.scoring import SpecialKind
from doko_ledger.i18n import Message, msg, render
from doko_ledger.web.common import Posted

SPECIAL_ROWS = 3
GAME_TYPES = [g.value for g in GameType]
CALLS = [a.value for a in Announcement]
SPECIALS = [k.value for k in SpecialKind]


@dataclass(slots=True)
class DealFields:
    """What the deal form holds, as typed: shown again after a preview or a refusal."""

    game: str = "normal"
    re: list[str] = field(default_factory=list)
    re_points: str = ""
    re_tricks: str = ""
    kontra_tricks: str = ""
    calls: dict[str, str] = field(default_factory=dict)
    specials: list[dict[str, str]] = field(default_factory=list)
    misdeal: bool = False
    heart_trick: bool = False
    entry: str = "facts"
    """`facts` (the form above) or `value` (value only: the winners, the value, a solo mark)."""
    winners: list[str] = field(default_factory=list)
    value: str = ""
    solo: bool = False
    bock: str = "0"
    """Bock marked with the deal: "0" none, "1" Bock, "2" Doppelbock, "3" Triplebock (rounds)."""
    bock_by: str = ""
    bock_reason: str = ""

    def __post_init__(self) -> None:
        self.specials += [{"kind": "", "party": "", "from": ""} for _ in range(SPECIAL_ROWS - len(self.specials))]


def deal_fields(post: Posted, playing: Sequence[str]) -> DealFields:
    specials = [
        {
            "kind": post.get(f"special_kind_{i}"),
            "party": post.get(f"special_party_{i}"),
            "from": post.get(f"special_from_{i}"),
        }
        for i in range(SPECIAL_ROWS)
    ]
    return DealFields(
        game=post.get("game", "normal") or "normal",
        re=post.all("re"),
        re_points=post.get("re_points"),
        re_tricks=post.get("re_tricks"),
        kontra_tricks=post.get("kontra_tricks"),
        calls={p: post.get(f"call_{i}") for i, p in enumerate(playing) if post.get(f"call_{i}")},
        specials=specials,
        misdeal=post.get("misdeal") == "1",
        heart_trick=post.get("heart_trick") == "1",
        entry=VALUE_ENTRY if post.get("entry") == VALUE_ENTRY else "facts",
        winners=post.all("winner"),
        value=post.get("value_more") or post.get("value"),
        solo=post.get("solo") == "1",
        bock=post.get("bock") or "0",
        bock_by=post.get("bock_by"),
        bock_reason=post.get("bock_reason"),
    )


BOCK_MARKS = (("0", "none"), ("1", "Bock"), ("2", "Doppelbock"), ("3", "Triplebock"))
"""The bock mark's taps: the rounds declared with the deal."""


def bock_mark(fields: DealFields, recorder: str) -> BockMark | None:
    """The bock marked with the deal (declared by the player chosen, else by who records it), or
    None; the library says how many rounds may be declared and who may declare them."""
    rounds = _number(fields.bock, msg("bock rounds"))
    if rounds == 0:
        return None
    return BockMark(rounds, fields.bock_by or recorder, fields.bock_reason)


VALUE_ENTRY = "value"
VALUE_CHIPS = tuple(range(1, 9))
"""The values offered as chips; more in the number field."""


def fields_of(summary: DealEntry, playing: Sequence[str]) -> DealFields:
    """A recorded deal's facts (or its value entry) as form fields (to correct it)."""
    if isinstance(summary, ValueRecord):
        winners = summary.winners or tuple(p for p in playing if p not in summary.losers)
        return DealFields(entry=VALUE_ENTRY, winners=list(winners), value=str(summary.value), solo=summary.solo)
    calls: dict[str, str] = {}
    for player, call in summary.announcements:
        calls[player] = call  # the highest call a player made is the last
    specials = [{"kind": k, "party": p, "from": f or ""} for k, p, f in summary.specials]
    return DealFields(
        game=summary.game,
        re=list(summary.re),
        re_points=str(summary.re_points),
        re_tricks="" if summary.tricks is None else str(summary.tricks[0]),
        kontra_tricks="" if summary.tricks is None else str(summary.tricks[1]),
        calls={p: c for p, c in calls.items() if p in playing},
        specials=specials[:SPECIAL_ROWS],
        heart_trick=summary.heart_trick,
    )


REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,100}")
"""A client's request id: what a form's hidden field or an `Idempotency-Key` header holds."""

TYPED_FACTS_SKIPPED = frozenset({"csrf", "version", "deal", "request_id", "action"})


def request_id() -> str:
    """A new id for a write form, made when the form is rendered."""
    return secrets.token_urlsafe(12)


def checked_request_id(text: str | None) -> str | None:
    """A client's request id, or None when none was sent; a malformed one is refused."""
    if not text:
        return None
    if not REQUEST_ID.fullmatch(text):
        raise EntryError(msg("request id: 1 to 100 letters, digits, '.', '_' or '-'"))
    return text


def posted_request_id(post: Posted) -> str | None:
    return checked_request_id(post.get("request_id"))


def deal_number(post: Posted) -> int | None:
    """The deal number a form was made for, or None (a form without one)."""
    text = post.get("deal")
    if not text:
        return None
    if not whole(text):
        raise EntryError(msg("deal: {text} is not a deal number", text=repr(text)))
    return int(text)


def typed_facts(post: Posted) -> list[tuple[str, str]]:
    """A posted deal form's facts as typed (the form's own fields left out), to offer again."""
    return [(k, v) for k, v in post.form.multi_items() if k not in TYPED_FACTS_SKIPPED and isinstance(v, str)]


def whole(text: str) -> bool:
    """A whole number as a phone's number pad types it: ASCII digits, at most six."""
    return text.isascii() and text.isdigit() and len(text) <= 6


def _number(text: str, what: Message) -> int:
    if not text:
        raise EntryError(msg("{field}: give a number", field=what))
    if not whole(text):
        raise EntryError(msg("{field}: give a whole number, not {text}", field=what, text=repr(text[:20])))
    return int(text)


def summary_of(fields: DealFields) -> DealEntry:
    """The deal's facts, or its value entry; the library checks them when the deal is decided."""
    if fields.entry == VALUE_ENTRY:
        if not fields.winners:
            raise EntryError(msg("tap the winners (one, two or three of the four playing)"))
        return ValueRecord(_number(fields.value, msg("the value")), winners=tuple(fields.winners), solo=fields.solo)
    if fields.game not in GAME_TYPES:
        raise EntryError(msg("unknown game type {game}", game=repr(fields.game)))
    if not fields.re:
        raise EntryError(msg("tap the Re players (or, in a solo, the soloist)"))
    tricks = None
    if fields.re_tricks or fields.kontra_tricks:
        tricks = (_number(fields.re_tricks, msg("Re's tricks")), _number(fields.kontra_tricks, msg("Kontra's tricks")))
    for call in fields.calls.values():
        if call not in CALLS:
            raise EntryError(msg("unknown call {call} ({calls})", call=repr(call), calls=", ".join(CALLS)))
    specials = []
    for row in fields.specials:
        if not row["kind"]:
            continue
        if row["kind"] not in SPECIALS:
            raise EntryError(
                msg("special points: choose one of {kinds}", kinds=", ".join(k.label for k in SpecialKind))
            )
        kind = SpecialKind(row["kind"])
        if row["party"] not in ("re", "kontra", ""):
            raise EntryError(msg("{special}: choose the party, Re or Kontra", special=kind.label))
        specials.append((row["kind"], row["party"], row["from"] or None))
    return SummaryRecord(
        game=fields.game,
        re=tuple(fields.re),
        re_points=_number(fields.re_points, msg("Re's card points")),
        tricks=tricks,
        announcements=tuple(fields.calls.items()),
        specials=tuple(specials),
        heart_trick=fields.heart_trick,
    )


# -- rules: a preset or a saved set, then every option -------------------------------------------

RULE_FIELD = "rule."
"""The prefix of an option's field: `rule.bock_overlap`."""


def rules_choices(
    saved: Sequence[HouseRules], nights: Sequence[tuple[str, RuleSet]], in_force: tuple[str, RuleSet] | None = None
) -> list[dict[str, Any]]:
    """The presets, the saved house-rule sets, then each other rule set an earlier night used;
    each with its options' values (`values`, JSON: the page's script shows them when chosen).
    `in_force`: a night and its rules in force, offered first (to change them)."""
    out: list[dict[str, Any]] = []
    if in_force is not None:
        night_id, rules = in_force
        changed = changes_text(rules)
        shown = f"{rules.preset}, {changed}" if changed else rules.preset
        label = render(msg("the rules in force: {rules}", rules=shown))
        out.append(_choice(f"night:{night_id}", label, rules))
    out += [_choice(f"preset:{name}", name, preset(name)) for name in PRESETS]
    seen = [preset(name) for name in PRESETS] + ([] if in_force is None else [in_force[1]])
    for house in saved:
        changed = changes_text(house.rules) or render(msg("as it is"))
        out.append(_choice(f"saved:{house.name}", f"{house.name}: {house.rules.preset}, {changed}", house.rules))
        seen.append(house.rules)
    for night_id, rules in nights:
        if rules not in seen:
            seen.append(rules)
            out.append(
                _choice(
                    f"night:{night_id}",
                    render(msg("as night {night}: {rules}", night=night_id, rules=_preset_and_changes(rules))),
                    rules,
                )
            )
    return out


def _preset_and_changes(rules: RuleSet) -> str:
    return f"{rules.preset}, {changes_text(rules)}"


def _choice(value: str, label: str, rules: RuleSet) -> dict[str, Any]:
    values = {RULE_FIELD + entry.name: _texts(entry, getattr(rules, entry.name)) for entry in OPTIONS}
    return {"value": value, "label": label, "values": json.dumps({"preset": rules.preset, "fields": values})}


def _texts(entry: RuleOption, value: Any) -> list[str]:
    """An option's value as the form's fields hold it: one text, or one per trigger."""
    return [entry.text(v) for v in value] if entry.kind in SETS else [entry.text(value)]


def chosen_rules(post: Posted, saved: HouseRulesBook, nights: Sequence[tuple[str, RuleSet]]) -> NamedRules:
    """The rules the form's `rules` choice names: a preset, a saved set, an earlier night's."""
    choice = post.get("rules", "preset:standard")
    kind, _, name = choice.partition(":")
    house = saved.find(name) if kind == "saved" else None
    by_night = dict(nights)
    if kind == "preset" and name in PRESETS:
        return NamedRules(preset(name))
    if house is not None:
        return NamedRules(house.rules, house.name)
    if kind == "night" and name in by_night:
        return NamedRules(by_night[name])
    raise EntryError(
        msg(
            "unknown rules {choice}: choose a preset, saved house rules or an earlier night's rules",
            choice=repr(choice[:60]),
        )
    )


def posted_options(post: Posted) -> dict[str, str] | None:
    """Every option's field as posted, as text by option name (None: the form sent no options);
    a field of an option the rule set does not have is refused."""
    unknown = [k for k in post.form if k.startswith(RULE_FIELD) and k[len(RULE_FIELD) :] not in OPTION_BY_NAME]
    if unknown:
        raise RuleSetError(msg("unknown rule option {option}", option=repr(unknown[0][len(RULE_FIELD) :][:60])))
    if post.get("options") != "1":
        return None
    typed: dict[str, str] = {}
    for entry in OPTIONS:
        field_name = RULE_FIELD + entry.name
        if entry.kind == "bool":
            typed[entry.name] = post.get(field_name) or "false"  # an unticked box is not sent
        elif entry.kind in SETS:
            typed[entry.name] = ",".join(post.all(field_name))
        else:
            typed[entry.name] = post.get(field_name)
    return typed


def rules_of(post: Posted, base: NamedRules) -> NamedRules:
    """`base` with the options the form changed; its saved set's name kept only if none changed."""
    typed = posted_options(post)
    if typed is None:
        return base
    return base.changed(typed)


def option_groups(rules: RuleSet) -> list[dict[str, Any]]:
    """Every option by group with its value in `rules`, its preset's value and its one line."""
    base = preset(rules.preset)
    groups = []
    for group, entries in grouped():
        rows = []
        for entry in entries:
            value, was = getattr(rules, entry.name), getattr(base, entry.name)
            rows.append(
                {
                    "option": entry,
                    "field": RULE_FIELD + entry.name,
                    "value": entry.text(value),
                    "chosen": _texts(entry, value),
                    "choices": [(entry.text(c), _choice_label(entry.kind, c)) for c in entry.choices],
                    "changed": value != was,
                    "was": entry.text(was),
                    "link": f"/rules#{entry.anchor}",
                }
            )
        groups.append({"group": group, "options": rows, "changed": sum(r["changed"] for r in rows)})
    return groups


def _choice_label(kind: str, choice: Any) -> Message | str:
    if kind == "triggers":
        return TRIGGER_SAID.get(choice, str(choice).replace("_", " "))
    if kind == "seats":
        return msg("{first} and {second}", first=choice[0], second=choice[1]) if choice else msg("none")
    return str(choice).replace("_", " ")


def bock_rounds(post: Posted) -> int:
    """How many bock rounds the bock button declares (the library says how many it may)."""
    return _number(post.get("rounds", "1") or "1", msg("bock rounds"))


def with_deal(post: Posted) -> int | None:
    """The deal a bock was declared with (it goes when that deal is taken back), or None."""
    return deal_number(post) if post.get("with_deal") == "1" else None


# -- starting a night ---------------------------------------------------------------------------


def start_command(post: Posted, rules: NamedRules) -> StartNight:
    names = [post.get(f"player_{i}") for i in range(MAX_PLAYERS)]
    players = tuple(n for n in names if n)
    dealer_slot = post.get("dealer", "0")
    dealer_name = names[int(dealer_slot)] if whole(dealer_slot) and int(dealer_slot) < len(names) else ""
    first = players.index(dealer_name) if dealer_name in players else 0
    match = post.get("match", "8") or "8"
    return StartNight(
        post.get("session_id"),
        players,
        first,
        rules.rules,
        _number(match, msg("deals per match")),
        post.get("played_on") or None,
        post.get("rate") or None,
        rules.name,
    )
