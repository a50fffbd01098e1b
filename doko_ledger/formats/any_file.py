"""Any file `doko import` reads: a Doppelkopf game or card night, a Dou Dizhu game or session,
told apart by their `format:` line (a Doppelkopf game may leave it out)."""

from __future__ import annotations

from pathlib import Path

from doko_ledger.doppelkopf.files import game_file
from doko_ledger.doppelkopf.files import night_file as session_file
from doko_ledger.doppelkopf.files.game_file import LoadedGame
from doko_ledger.doppelkopf.files.night_file import LoadedSession, is_session_text
from doko_ledger.doudizhu import files as doudizhu_file
from doko_ledger.doudizhu.files import LoadedDeal, LoadedDouDizhuSession
from doko_ledger.formats.yaml_source import SourceError, read_text

Loaded = LoadedGame | LoadedDeal | LoadedSession | LoadedDouDizhuSession


def is_session_file(path: str | Path) -> bool:
    """True for a card night or a Dou Dizhu session file, by its text (False when unreadable:
    `read_file` then says why)."""
    try:
        text = read_text(path)
    except SourceError:
        return False
    return doudizhu_file.is_session(text) or (not doudizhu_file.is_doudizhu_file(text) and is_session_text(text))


def read_file(path: str | Path) -> Loaded:
    """Read, validate and replay one file of any kind; `SourceError` naming file, line and field."""
    text = read_text(path)
    source = str(path)
    if doudizhu_file.is_session(text):
        return doudizhu_file.read_session(text, source)
    if doudizhu_file.is_doudizhu_file(text):
        return doudizhu_file.read(text, source)
    if is_session_text(text):
        return session_file.read(text, source)
    return game_file.read(text, source)
