"""Any file `doko import` reads: a game or a session file of any game, each game's told apart by
its `format:` line (`games.game_of_file`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from doko_ledger.formats.yaml_source import SourceError, read_text
from doko_ledger.games import Game, game_of_file

FILE_SUFFIXES = (".yaml", ".yml", ".FreeDoko")
"""The files a folder given to `doko import` is read for."""
FOLDER_PARTY = "party.FreeDoko"
"""FreeDoko's party file: in a folder beside the party's game logs, it sums up the same games."""


def files_in(paths: Sequence[str | Path]) -> list[Path]:
    """The files named, each folder's game files (`FILE_SUFFIXES`, sorted by name) in its place;
    a FreeDoko party file in a folder is passed over (its games are the game logs beside it). A
    folder without game files stays as it is, for `read_text` to refuse."""
    found: list[Path] = []
    for path in map(Path, paths):
        inside = (
            sorted(p for p in path.iterdir() if p.suffix in FILE_SUFFIXES and p.name != FOLDER_PARTY and p.is_file())
            if path.is_dir()
            else []
        )
        found += inside or [path]
    return found


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
