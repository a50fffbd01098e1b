"""The deal form's fields read into the library's terms (a `SummaryRecord`, a `StartNight`),
and back into fields for a form shown again. Only reading: every rule is the library's."""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from doko_ledger.doppelkopf.files.quick_entry import EntryError
from doko_ledger.doppelkopf.game.record import DealEntry, SummaryRecord, ValueRecord
from doko_ledger.doppelkopf.nights.decide import MAX_PLAYERS, StartNight
from doko_ledger.doppelkopf.rules.announcements import Announcement
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.ruleset import PRESETS, RuleSet, preset
from doko_ledger.doppelkopf.rules.scoring import SpecialKind
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
    entry: str = "facts"
    """`facts` (the form above) or `value` (value only: the winners, the value, a solo mark)."""
    winners: list[str] = field(default_factory=list)
    value: str = ""
    solo: bool = False

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
        entry=VALUE_ENTRY if post.get("entry") == VALUE_ENTRY else "facts",
        winners=post.all("winner"),
        value=post.get("value_more") or post.get("value"),
        solo=post.get("solo") == "1",
    )


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
        raise EntryError("request id: 1 to 100 letters, digits, '.', '_' or '-'")
    return text


def posted_request_id(post: Posted) -> str | None:
    return checked_request_id(post.get("request_id"))


def deal_number(post: Posted) -> int | None:
    """The deal number a form was made for, or None (a form without one)."""
    text = post.get("deal")
    if not text:
        return None
    if not whole(text):
        raise EntryError(f"deal: {text!r} is not a deal number")
    return int(text)


def typed_facts(post: Posted) -> list[tuple[str, str]]:
    """A posted deal form's facts as typed (the form's own fields left out), to offer again."""
    return [(k, v) for k, v in post.form.multi_items() if k not in TYPED_FACTS_SKIPPED and isinstance(v, str)]


def whole(text: str) -> bool:
    """A whole number as a phone's number pad types it: ASCII digits, at most six."""
    return text.isascii() and text.isdigit() and len(text) <= 6


def _number(text: str, what: str) -> int:
    if not whole(text):
        raise EntryError(f"{what}: give a whole number, not {text[:20]!r}" if text else f"{what}: give a number")
    return int(text)


def summary_of(fields: DealFields) -> DealEntry:
    """The deal's facts, or its value entry; the library checks them when the deal is decided."""
    if fields.entry == VALUE_ENTRY:
        if not fields.winners:
            raise EntryError("tap the winners (one, two or three of the four playing)")
        return ValueRecord(_number(fields.value, "the value"), winners=tuple(fields.winners), solo=fields.solo)
    if fields.game not in GAME_TYPES:
        raise EntryError(f"unknown game type {fields.game!r}")
    if not fields.re:
        raise EntryError("tap the Re players (or, in a solo, the soloist)")
    tricks = None
    if fields.re_tricks or fields.kontra_tricks:
        tricks = (_number(fields.re_tricks, "Re's tricks"), _number(fields.kontra_tricks, "Kontra's tricks"))
    for call in fields.calls.values():
        if call not in CALLS:
            raise EntryError(f"unknown call {call!r} ({', '.join(CALLS)})")
    specials = []
    for row in fields.specials:
        if not row["kind"]:
            continue
        if row["kind"] not in SPECIALS:
            raise EntryError(f"special points: choose one of {', '.join(k.label for k in SpecialKind)}")
        kind = SpecialKind(row["kind"])
        if row["party"] not in ("re", "kontra", ""):
            raise EntryError(f"{kind.label}: choose the party, Re or Kontra")
        specials.append((row["kind"], row["party"], row["from"] or None))
    return SummaryRecord(
        game=fields.game,
        re=tuple(fields.re),
        re_points=_number(fields.re_points, "Re's card points"),
        tricks=tricks,
        announcements=tuple(fields.calls.items()),
        specials=tuple(specials),
    )


# -- starting a night ---------------------------------------------------------------------------


def rules_choices(nights: Sequence[tuple[str, RuleSet]]) -> list[dict[str, Any]]:
    """The presets, then each different rule set an earlier night used (its house rules)."""
    out = [{"value": f"preset:{name}", "label": name, "rules": preset(name)} for name in PRESETS]
    seen = [c["rules"] for c in out]
    for night_id, rules in nights:
        if rules not in seen:
            seen.append(rules)
            changed = ", ".join(f"{k}={v}" for k, v in rules.changed_from_preset().items())
            out.append({"value": f"night:{night_id}", "label": f"as night {night_id}: {rules.preset}, {changed}"})
    return out


def start_command(post: Posted, nights: Sequence[tuple[str, RuleSet]]) -> StartNight:
    names = [post.get(f"player_{i}") for i in range(MAX_PLAYERS)]
    players = tuple(n for n in names if n)
    dealer_slot = post.get("dealer", "0")
    dealer_name = names[int(dealer_slot)] if whole(dealer_slot) and int(dealer_slot) < len(names) else ""
    first = players.index(dealer_name) if dealer_name in players else 0
    choice = post.get("rules", "preset:standard")
    kind, _, name = choice.partition(":")
    by_night = dict(nights)
    if kind == "preset" and name in PRESETS:
        rules = preset(name)
    elif kind == "night" and name in by_night:
        rules = by_night[name]
    else:
        raise EntryError(f"unknown rules {choice!r}: choose a preset or an earlier night's rules")
    match = post.get("match", "8") or "8"
    rate = post.get("rate") or None
    return StartNight(
        post.get("session_id"),
        players,
        first,
        rules,
        _number(match, "deals per match"),
        post.get("played_on") or None,
        rate.replace(",", ".") if rate else None,
    )
