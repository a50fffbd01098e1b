"""Dou Dizhu's files as `doko import` reads them (`games.GameFiles`): a deal or a session, told
by their `format:` line."""

from __future__ import annotations

from doko_ledger.doudizhu import files
from doko_ledger.doudizhu.files import LoadedDeal, LoadedDouDizhuSession


def claims(text: str) -> bool:
    return files.is_session(text) or files.is_doudizhu_file(text)


def is_session(text: str) -> bool:
    return files.is_session(text)


def read(text: str, source: str) -> LoadedDeal | LoadedDouDizhuSession:
    """Read, validate and replay a deal or a session file."""
    if is_session(text):
        return files.read_session(text, source)
    return files.read(text, source)
