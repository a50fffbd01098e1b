"""The compiled searches of the double-dummy solver (`solver.c`, and `specials.c` for the
special points), loaded with ctypes when their library was built (`build.py`; the package
build and `make` build it where a C compiler is).

`search_core(tables, re, plain, limit)` gives a `NativeSearch` over one deal, and `usable()` the
library a `NativeSpecials` is made on: None when the library is missing, stale (built from
another version of the sources) or switched off by `DOKO_PURE_PYTHON=1`; the search then runs
in pure Python, with the same answers.
"""

from __future__ import annotations

import ctypes
import os
import weakref
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path

from doko_ledger.doppelkopf.analysis.position import CARD_TYPES, Tables

VERSION = 5
"""`DK_VERSION` of the `solver.c` this module speaks to; another library is not used."""

STOPPED = -(1 << 30)
"""What the library answers once a search passed its node limit."""

UNSAID = STOPPED + 1
"""What the special points' search answers when Python could not say a trick's special points."""

TrickNet = Callable[[int, int, int, int, int, int], int]
"""(leader, the trick's four card numbers in the order played, whether it is the last trick)
-> Re's net special points in it."""

_TrickNet = ctypes.CFUNCTYPE(ctypes.c_int, *[ctypes.c_int] * 6)

_LIBRARY = Path(__file__).resolve().parent / "libsolver.so"
_Hands = ctypes.c_uint64 * 4


def wanted() -> bool:
    """Whether the compiled search may be used: not when `DOKO_PURE_PYTHON` is set (but to 0 or empty)."""
    return os.environ.get("DOKO_PURE_PYTHON", "") in ("", "0")


@cache
def library() -> ctypes.CDLL | None:
    """The compiled search, or None when it is not built or not of this version."""
    if not _LIBRARY.is_file():
        return None
    try:
        lib = ctypes.CDLL(str(_LIBRARY))
        if lib.dk_version() != VERSION:
            return None
    except (OSError, AttributeError):
        return None
    u8p, u64p, i64 = ctypes.POINTER(ctypes.c_uint8), ctypes.POINTER(ctypes.c_uint64), ctypes.c_int64
    lib.dk_new.argtypes = [u8p, u8p, u64p, u8p, u8p, u8p, u8p, ctypes.c_int, i64]
    lib.dk_new.restype = ctypes.c_void_p
    lib.dk_free.argtypes = [ctypes.c_void_p]
    lib.dk_free.restype = None
    lib.dk_nodes.argtypes = [ctypes.c_void_p]
    lib.dk_nodes.restype = i64
    lib.dk_stored.argtypes = [ctypes.c_void_p]
    lib.dk_stored.restype = i64
    c_int = ctypes.c_int
    lib.dk_search.argtypes = [ctypes.c_void_p, u64p, *[c_int] * 6, ctypes.c_uint64, *[c_int] * 3]
    lib.dk_search.restype = c_int
    i32 = ctypes.c_int32
    lib.dk_specials_new.argtypes = [u8p, u8p, u64p, u8p, u8p, u8p, u8p, ctypes.POINTER(i32), u8p, u8p, c_int]
    lib.dk_specials_new.argtypes += [ctypes.c_void_p, c_int, _TrickNet, i64]
    lib.dk_specials_new.restype = ctypes.c_void_p
    lib.dk_specials_free.argtypes = [ctypes.c_void_p]
    lib.dk_specials_free.restype = None
    lib.dk_specials_nodes.argtypes = [ctypes.c_void_p]
    lib.dk_specials_nodes.restype = i64
    lib.dk_specials_allow.argtypes = [ctypes.c_void_p, i64]
    lib.dk_specials_allow.restype = None
    lib.dk_specials_search.argtypes = [
        ctypes.c_void_p,
        u64p,
        *[c_int] * 6,
        ctypes.c_uint32,
        *[c_int] * 4,
        i32,
        i32,
        i32,
    ]
    lib.dk_specials_search.restype = i32
    return lib


def _u8(values: Sequence[int] | Sequence[bool]) -> ctypes.Array[ctypes.c_uint8]:
    return (ctypes.c_uint8 * len(values))(*(int(v) for v in values))


class NativeSearch:
    """One deal's search context in the library (its transposition table, history and node
    count), freed with this object."""

    def __init__(self, lib: ctypes.CDLL, tables: Tables, re: tuple[bool, bool, bool, bool], plain: bool, limit: int):
        suit_bits = (ctypes.c_uint64 * 5)(*tables.suit_bits)
        assert len(tables.points) == CARD_TYPES
        ctx = lib.dk_new(
            _u8(tables.points),
            _u8(tables.suit),
            suit_bits,
            _u8(tables.beats),
            _u8(tables.beats_last),
            _u8(tables.equal_ok),
            _u8(re),
            int(plain),
            min(limit, (1 << 62)),
        )
        if not ctx:
            raise MemoryError("no memory for the solver's search")
        self._lib = lib
        self._ctx = ctx
        self._search = lib.dk_search
        weakref.finalize(self, lib.dk_free, ctx)

    def search(
        self,
        hands: list[int],
        seat: int,
        n: int,
        led: int,
        wseat: int,
        wcard: int,
        pts: int,
        on_table: int,
        rest: int,
        alpha: int,
        beta: int,
    ) -> int:
        """As the Python search's node: the fail-soft value, or `STOPPED` past the node limit."""
        return int(
            self._search(self._ctx, _Hands(*hands), seat, n, led, wseat, wcard, pts, on_table, rest, alpha, beta)
        )

    @property
    def nodes(self) -> int:
        return int(self._lib.dk_nodes(self._ctx))

    @property
    def stored(self) -> int:
        return int(self._lib.dk_stored(self._ctx))


def usable() -> ctypes.CDLL | None:
    """The library, when it is built, of this version and not switched off; else None (the
    searches are then the Python ones)."""
    return library() if wanted() else None


def search_core(tables: Tables, re: tuple[bool, bool, bool, bool], plain: bool, limit: int) -> NativeSearch | None:
    """The compiled search for one deal, or None (the Python search is to be used)."""
    lib = usable()
    return None if lib is None else NativeSearch(lib, tables, re, plain, limit)


class NativeSpecials:
    """One deal's special points' search in the library (its table, the special points of the
    tricks it met, its node count), freed with this object.

    `alike`: by card number, whether the card may count as one with a card next to it in
    rank with the same points (not a card a special point names by itself); `classes`: the
    class times the weight, 241 values (Re's card points 0 to 240) for each of the four cases
    of who took a trick (bit 0: Re, bit 1: Kontra); `weights`: by card number, the most special
    points the card can earn in one trick for its holder's party and for the other party (at
    most 3 each); `rich`: the card points from which a trick earns one whatever its cards;
    `cards`: the deal's card points' search, whose table and questions bound the class a
    position can end in; `upto`: the last trick whose special points count; `net`: Re's net
    special points in a trick, asked once for each."""

    def __init__(
        self,
        lib: ctypes.CDLL,
        tables: Tables,
        re: tuple[bool, bool, bool, bool],
        alike: Sequence[bool],
        classes: Sequence[int],
        weights: Sequence[tuple[int, int]],
        rich: int,
        cards: NativeSearch | None,
        upto: int,
        net: TrickNet,
        limit: int,
    ):
        assert len(classes) == 4 * 241 and max(max(w) for w in weights) <= 3
        self._cards = cards  # its context must outlive this one
        self._net = _TrickNet(net)  # kept alive as long as the library may call it
        ctx = lib.dk_specials_new(
            _u8(tables.points),
            _u8(tables.suit),
            (ctypes.c_uint64 * 5)(*tables.suit_bits),
            _u8(tables.beats),
            _u8(tables.beats_last),
            _u8(alike),
            _u8(re),
            (ctypes.c_int32 * len(classes))(*classes),
            _u8([own for own, _ in weights]),
            _u8([other for _, other in weights]),
            rich,
            None if cards is None else cards._ctx,
            upto,
            self._net,
            min(limit, (1 << 62)),
        )
        if not ctx:
            raise MemoryError("no memory for the special points' search")
        self._lib = lib
        self._ctx = ctx
        self._search = lib.dk_specials_search
        weakref.finalize(self, lib.dk_specials_free, ctx)

    def search(self, hands: Sequence[int], *args: int) -> int:
        """(hands, seat, card in the trick, led suit, winning seat, winning card, the trick's
        points, its cards five bits each, points in the hands, the trick's number, Re's points
        taken, who took a trick, Re's net special points so far, alpha, beta) -> the fail-soft
        value; `STOPPED` past the node limit, `UNSAID` when `net` failed."""
        return int(self._search(self._ctx, _Hands(*hands), *args))

    @property
    def nodes(self) -> int:
        return int(self._lib.dk_specials_nodes(self._ctx))

    def allow(self, more: int) -> None:
        """Lets the search go on for `more` positions from here, after a limit it passed."""
        self._lib.dk_specials_allow(self._ctx, min(more, 1 << 62))
