"""The table's join code for `doko serve`: what a phone gives once to record from it, and the
secret its join token (and CSRF tokens) are made with. Both are kept among the ledger's own
settings (never in its log), so that phones that joined stay joined when the server starts
again; a new code lets in only those who join again."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from doko_ledger.store.base import EventStore

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud across a table
CODE_KEY = "join_code"
SECRET_KEY = "join_secret"
KEYS = (CODE_KEY, SECRET_KEY)
SECRET_BYTES = 32


@dataclass(frozen=True, slots=True)
class TableJoin:
    """The join code and the token secret a server uses: `changed` when the code differs from
    the one the ledger kept before (the phones that joined must join again); `not_kept` says
    why they hold for this start only (the ledger cannot be written), None when kept."""

    code: str
    secret: bytes
    changed: bool = False
    not_kept: str | None = None


def new_join_code() -> str:
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(6))


def join_code_of(typed: str) -> str:
    """A join code as typed: any case, with spaces around."""
    return typed.strip().upper()


def table_join(store: EventStore, *, code: str | None = None, new: bool = False) -> TableJoin:
    """The table's join code and token secret, kept in the ledger: made once, then the same at
    every start; `code` sets this one, `new` makes a new one (the secret stays). On a ledger
    that cannot be written what it holds serves as it is, and what it lacks is made for this
    start only."""
    wanted = None if code is None else join_code_of(code)
    before: dict[str, str] = {}

    def change(held: dict[str, str]) -> dict[str, str]:
        before.update(held)
        return _changes(held, wanted, new)

    not_kept = None
    if store.read_only is None:
        now = store.change_settings(KEYS, change)
    else:
        now = before | change(store.settings(KEYS))
        not_kept = store.read_only if now != before else None
    changed = CODE_KEY in before and before[CODE_KEY] != now[CODE_KEY]
    return TableJoin(now[CODE_KEY], bytes.fromhex(now[SECRET_KEY]), changed, not_kept)


def _changes(held: dict[str, str], wanted: str | None, new: bool) -> dict[str, str]:
    changes: dict[str, str] = {}
    if wanted:
        if held.get(CODE_KEY) != wanted:
            changes[CODE_KEY] = wanted
    elif new or not held.get(CODE_KEY, "").strip():
        changes[CODE_KEY] = new_join_code()
    if not _is_secret(held.get(SECRET_KEY, "")):
        changes[SECRET_KEY] = secrets.token_hex(SECRET_BYTES)
    return changes


def _is_secret(text: str) -> bool:
    return len(text) == 2 * SECRET_BYTES and all(ch in "0123456789abcdef" for ch in text)
