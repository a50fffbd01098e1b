"""Players' names, as every game, card night and file checks them and finds them.

A name is kept in Unicode's composed form (NFC), so `Zoë` typed either way is one name. It
may not hold what a reader cannot see (control and format characters, bidi controls, zero
width and other invisible characters) nor be combining marks alone, and two players at one table may not have names
that differ only in case or in look-alike letters (`Anna` and `ANNA` written with a Cyrillic
A, U+0410; `Ben` and `Ben` in fullwidth letters; `Bob` and `B0b`): a score sheet must tell
them apart.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import lru_cache

from doko_ledger.i18n import Message, msg
from doko_ledger.numbers import shortened

MAX_LENGTH = 100

_INVISIBLE_CATEGORIES = ("Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp")
"""Controls, format characters (zero width, bidi controls, soft hyphen, BOM), private use,
surrogates, unassigned code points, line and paragraph separators."""

_INVISIBLE = frozenset(
    "\u034f"  # combining grapheme joiner
    "\u115f\u1160\u3164\uffa0"  # Hangul fillers
    "\u17b4\u17b5"  # Khmer inherent vowels
    "\u180b\u180c\u180d\u180e\u180f"  # Mongolian variation selectors and vowel separator
    "\u2800"  # braille pattern blank
    "\ufe00\ufe01\ufe02\ufe03\ufe04\ufe05\ufe06\ufe07\ufe08\ufe09\ufe0a\ufe0b\ufe0c\ufe0d\ufe0e\ufe0f"
)
"""Characters that show nothing although Unicode calls them letters, marks or symbols."""

_MARKS = ("Mn", "Mc", "Me")
"""Combining marks: each is drawn on the character before it, so a name of marks alone shows nothing."""

_UPPER = {
    # Cyrillic, Greek
    "А": "A", "В": "B", "С": "C", "Е": "E", "Н": "H", "І": "I", "Ј": "J", "К": "K", "М": "M", "О": "O",
    "Р": "P", "Ѕ": "S", "Т": "T", "Х": "X", "У": "Y", "Ү": "Y", "Ԛ": "Q", "Ԝ": "W", "Ӏ": "l",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O",
    "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
}  # fmt: skip
_LOWER = {
    # Cyrillic, Greek, Armenian, Latin letters that pass for other Latin ones
    "а": "a", "с": "c", "ԁ": "d", "е": "e", "һ": "h", "і": "i", "ј": "j", "к": "k", "о": "o", "р": "p",
    "ԛ": "q", "ѕ": "s", "у": "y", "ү": "y", "х": "x", "ԝ": "w", "ӏ": "l", "ѵ": "v",
    "ο": "o", "ν": "v", "ρ": "p", "ι": "i", "κ": "k", "υ": "u", "ϲ": "c", "ϳ": "j", "α": "a",
    "օ": "o", "ս": "u", "ı": "i", "ȷ": "j", "ɩ": "i", "ǀ": "l", "ɡ": "g",
    "1": "l", "|": "l",
}  # fmt: skip
_AS_WRITTEN = str.maketrans(_UPPER | _LOWER | {"0": "O", "I": "l"})
"""Look-alikes as they are written: an uppercase I is a lowercase l, a zero a capital O."""
_ANY_CASE = str.maketrans(_LOWER | {"0": "o"})
"""Look-alikes once case is ignored."""


def normalized(name: str) -> str:
    """The form a name is kept in: Unicode NFC."""
    return unicodedata.normalize("NFC", name)


def name_problem(name: str) -> Message | None:
    """Why a player's name cannot be used (what follows the name: "is empty"), or None: names
    are written in files and tables."""
    if not name.strip():
        return msg("is empty")
    if name != name.strip():
        return msg("starts or ends with white space")
    if len(name) > MAX_LENGTH:
        return msg("is longer than {count} characters", count=MAX_LENGTH)
    for ch in name:
        category = unicodedata.category(ch)
        if category in ("Cc", "Zl", "Zp"):
            return msg("holds a control character or line break")
        if category in _INVISIBLE_CATEGORIES or ch in _INVISIBLE:
            return msg("holds an invisible character ({character})", character=_named(ch, "unnamed"))
        if category == "Zs" and ch != " ":
            return msg("holds a space other than a plain one ({character})", character=_named(ch))
    if all(unicodedata.category(ch) in _MARKS or ch == " " for ch in name):
        mark = next(ch for ch in name if ch != " ")
        return msg("holds only combining marks ({character}), which show nothing", character=_named(mark, "unnamed"))
    return None


def _named(ch: str, unnamed: str = "") -> str:
    """A character by its code point and Unicode name: `U+200B ZERO WIDTH SPACE`."""
    return f"U+{ord(ch):04X} {unicodedata.name(ch, unnamed)}"


def skeletons(name: str) -> tuple[str, str]:
    """What a name looks like, with compatibility forms folded (fullwidth, ligatures, styled
    letters) and look-alike letters of other scripts taken as the Latin ones: as written
    (`Ian` looks like `lan`), and with case ignored (`ANNA` with a Cyrillic A is `anna`)."""
    folded = unicodedata.normalize("NFKC", name)
    return folded.translate(_AS_WRITTEN), folded.casefold().translate(_ANY_CASE)


def look_alike(players: Sequence[str]) -> tuple[str, str] | None:
    """Two different names at one table that differ only in case or in look-alike letters
    (the earlier one first), or None."""
    seen: dict[tuple[int, str], str] = {}
    for player in players:
        for key in enumerate((player.casefold(), *skeletons(player))):
            other = seen.setdefault(key, player)
            if other != player:
                return other, player
    return None


def _odd_letter(first: str, second: str) -> tuple[str, str]:
    """The name and the letter that makes two names look alike: one outside ASCII if any."""
    differing = [(second, ch) for ch in second if ch not in first] + [(first, ch) for ch in first if ch not in second]
    fallback = differing[0] if differing else (second, second[0])
    return next((pair for pair in differing if not pair[1].isascii()), fallback)


def table_problem(players: Sequence[str]) -> Message | None:
    """Why these names cannot sit at one table (a name that is refused, or two that a reader
    cannot tell apart), or None. The same name twice is each caller's own message."""
    return _table_problem(tuple(players))


@lru_cache(maxsize=256)
def _table_problem(players: tuple[str, ...]) -> Message | None:
    """`table_problem`, once per table: a night's deals sit the same players again and again."""
    for player in players:
        problem = name_problem(player)
        if problem:
            return msg("player name {name} {problem}", name=repr(shortened(player, 40)), problem=problem)
    pair = look_alike(players)
    if pair is not None:
        first, second = pair
        if first.lower() == second.lower():
            return msg(
                "players {first} and {second} differ only in case: names at one table must be told apart",
                first=repr(first),
                second=repr(second),
            )
        holder, odd = _odd_letter(first, second)
        return msg(
            "players {first} and {second} differ only in look-alike letters ({holder} holds {character}):"
            " names at one table must be told apart",
            first=repr(first),
            second=repr(second),
            holder=repr(holder),
            character=_named(odd),
        )
    return None


def find_player(name: str, players: Sequence[str]) -> str | None:
    """The player `name` means, matched without regard to case (`anna` is Anna), or None.
    An exact match wins; a name that fits several players only by case fits none."""
    name = normalized(name)
    if name in players:
        return name
    key = name.strip().casefold()
    matches = [p for p in players if p.casefold() == key]
    return matches[0] if len(matches) == 1 else None
