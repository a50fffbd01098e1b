"""Doppelkopf's files as `doko import` reads them (`games.GameFiles`): a game file, a card
night's file, or FreeDoko's game log or party file. A file that names no other game's format is Doppelkopf's."""

from __future__ import annotations

from doko_ledger.doppelkopf.files import game_file, night_file
from doko_ledger.doppelkopf.files.freedoko import log as freedoko_log
from doko_ledger.doppelkopf.files.game_file import LoadedGame
from doko_ledger.doppelkopf.files.night_file import LoadedNight


def claims(text: str) -> bool:
    """Every file may be a Doppelkopf game file (its `format:` line may be left out)."""
    return True


def is_session(text: str) -> bool:
    return night_file.is_session_text(text) or freedoko_log.is_party(text)


def read(text: str, source: str) -> LoadedGame | LoadedNight:
    """Read, validate and replay a game file, a card night's file, or FreeDoko's game log or party file."""
    if freedoko_log.is_game_log(text):
        from doko_ledger.doppelkopf.files.freedoko import game

        return game.read(text, source)
    if freedoko_log.is_party(text):
        from doko_ledger.doppelkopf.files.freedoko import party

        return party.read(text, source)
    if is_session(text):
        return night_file.read(text, source)
    return game_file.read(text, source)
