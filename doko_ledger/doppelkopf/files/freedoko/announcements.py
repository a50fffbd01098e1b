"""FreeDoko's announcement options as doko's deadline options (docs/rules.md §5).

FreeDoko allows an announcement while the announcer still holds at least N cards (with
`announcement till full trick`: while at least N tricks are not yet taken), the tricks a
marriage took to find its partner, less one, added to what is held. doko counts what has
been played, so N cards held is `hand size - N` played, and a late answer gets one card more
than the call it answers in both. `last announcement = N` closes every announcement once
fewer than N tricks are left: the last trick for one is `tricks + 1 - N`. The duty of the
first trick's thirty points is checked by FreeDoko only in a normal game, so its
`... in marriage` changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from doko_ledger.doppelkopf.files.freedoko.blocks import Entry
from doko_ledger.doppelkopf.files.freedoko.log import FreeDokoFileError
from doko_ledger.i18n import Message, msg

DEADLINES: dict[str, str] = {
    "announcement no 120": "re_deadline",
    "announcement no 90": "no90_deadline",
    "announcement no 60": "no60_deadline",
    "announcement no 30": "no30_deadline",
    "announcement no 0": "schwarz_deadline",
}
"""FreeDoko's cards held for each level, and the doko option of cards played it becomes."""

LAST = "last announcement"
TILL_FULL_TRICK = "announcement till full trick"
REPLY = "announcement reply"
THIRTY = "announcement first trick thirty points"
THIRTY_ONLY_FIRST = "announcement first trick thirty points only first"
THIRTY_ONLY_RE_CONTRA = "announcement first trick thirty points only re/contra"
THIRTY_IN_MARRIAGE = "announcement first trick thirty points in marriage"

OPTIONS: frozenset[str] = frozenset(
    {*DEADLINES, LAST, TILL_FULL_TRICK, REPLY, THIRTY, THIRTY_ONLY_FIRST, THIRTY_ONLY_RE_CONTRA, THIRTY_IN_MARRIAGE}
)
"""The FreeDoko options read here, all together once the rule block is read."""


def announcement_options(entries: Mapping[str, Entry], with_nines: bool, source: str) -> dict[str, Any]:
    """The doko options for FreeDoko's announcement `entries` (those of `OPTIONS` the block
    has; a missing one keeps doko's default); `FreeDokoFileError` at the line of a value doko
    cannot play."""
    tricks = 12 if with_nines else 10
    changes: dict[str, Any] = {"marriage_shift": "after_first"}  # the tricks to find the partner, less one
    for name, option in DEADLINES.items():
        if name in entries:
            held = _number(entries[name], source)
            if held > tricks:
                raise _refuse(
                    entries[name],
                    msg("with {tricks} cards a hand no such call could ever be made", tricks=tricks),
                    source,
                )
            changes[option] = tricks - held
    if LAST in entries:
        last = tricks + 1 - _number(entries[LAST], source)
        if last < 1:
            raise _refuse(
                entries[LAST], msg("with {tricks} tricks nothing could ever be announced", tricks=tricks), source
            )
        changes["last_announcement_trick"] = 12 if last >= tricks else last  # the last trick: no limit
    if TILL_FULL_TRICK in entries:
        changes["deadlines_count"] = "tricks" if _bool(entries[TILL_FULL_TRICK], source) else "cards"
    if REPLY in entries:
        changes["late_answer"] = _bool(entries[REPLY], source)
    if THIRTY in entries:
        changes["first_trick_thirty"] = _first_trick(entries, source)
    if THIRTY_IN_MARRIAGE in entries:
        _bool(entries[THIRTY_IN_MARRIAGE], source)  # FreeDoko checks the duty only in a normal game
    return changes


def _first_trick(entries: Mapping[str, Entry], source: str) -> str:
    """`first_trick_thirty` from FreeDoko's three switches."""
    if not _bool(entries[THIRTY], source):
        return "off"
    if THIRTY_ONLY_FIRST in entries and _bool(entries[THIRTY_ONLY_FIRST], source):
        return "all_silent"
    if THIRTY_ONLY_RE_CONTRA not in entries or _bool(entries[THIRTY_ONLY_RE_CONTRA], source):
        return "party_silent"  # FreeDoko's default
    return "always"


def _number(entry: Entry, source: str) -> int:
    if not (entry.value.isascii() and entry.value.isdigit() and 1 <= int(entry.value) <= 12):
        raise _refuse(entry, msg("takes a whole number from 1 to 12"), source)
    return int(entry.value)


def _bool(entry: Entry, source: str) -> bool:
    if entry.value not in ("true", "false"):
        raise _refuse(entry, msg("takes true or false"), source)
    return entry.value == "true"


def _refuse(entry: Entry, why: str | Message, source: str) -> FreeDokoFileError:
    rule = f"rule '{entry.key} = {entry.value}'"
    return FreeDokoFileError(msg("{field}: {problem}", field=rule, problem=why), source=source, line=entry.line)
