"""Any file `doko import` reads: a game or a session file of any game, each game's told apart by
its `format:` line (`games.game_of_file`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from doko_ledger.formats.yaml_source import SourceError, read_text
from doko_ledger.games import Game, game_of_file


def is_session_file(path: str | Path) -> bool:
    """True for a session file of any game (a card night, a Dou Dizhu session), by its text
    (False when unreadable: `read_file` then says why)."""
    try:
        text = read_text(path)
    except SourceError:
        return False
    return game_of_file(text).files().is_session(text)


def read_game_file(path: str | Path) -> tuple[Game[Any], Any]:
    """Read, validate and replay one file of any game: its game and what it holds (a game or a
    session); `SourceError` naming file, line and field."""
    text = read_text(path)
    game = game_of_file(text)
    return game, game.files().read(text, str(path))


def read_file(path: str | Path) -> Any:
    """What one file of any game holds (`read_game_file`)."""
    return read_game_file(path)[1]
