"""The compiled search of the double-dummy solver (`solver.c`), loaded with ctypes when its
library was built (`build.py`; the package build and `make` build it where a C compiler is).

`search_core(tables, re, plain, limit)` gives a `NativeSearch` over one deal, or None when
the library is missing, stale (built from another version of `solver.c`) or switched off by
`DOKO_PURE_PYTHON=1`: the solver then searches in pure Python, with the same answers.
"""

from __future__ import annotations

import ctypes
import os
import weakref
from functools import cache
from pathlib import Path

from doko_ledger.doppelkopf.analysis.position import CARD_TYPES, Tables

VERSION = 3
"""`DK_VERSION` of the `solver.c` this module speaks to; another library is not used."""

STOPPED = -(1 << 30)
"""What the library answers once a search passed its node limit."""

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
    return lib


class NativeSearch:
    """One deal's search context in the library (its transposition table, history and node
    count), freed with this object."""

    def __init__(self, lib: ctypes.CDLL, tables: Tables, re: tuple[bool, bool, bool, bool], plain: bool, limit: int):
        def u8(values: tuple[int, ...] | tuple[bool, ...]) -> ctypes.Array[ctypes.c_uint8]:
            return (ctypes.c_uint8 * len(values))(*(int(v) for v in values))

        suit_bits = (ctypes.c_uint64 * 5)(*tables.suit_bits)
        assert len(tables.points) == CARD_TYPES
        ctx = lib.dk_new(
            u8(tables.points),
            u8(tables.suit),
            suit_bits,
            u8(tables.beats),
            u8(tables.beats_last),
            u8(tables.equal_ok),
            u8(re),
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


def search_core(tables: Tables, re: tuple[bool, bool, bool, bool], plain: bool, limit: int) -> NativeSearch | None:
    """The compiled search for one deal, or None (the Python search is to be used)."""
    if not wanted():
        return None
    lib = library()
    return None if lib is None else NativeSearch(lib, tables, re, plain, limit)
