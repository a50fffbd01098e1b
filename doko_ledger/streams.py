"""The ledger's stream names, shared by every game: a game is `game/<id>` whatever is played
(its first event says which game it is, `games.game_starting_with`), a card night
`session/<id>`; a game's other streams are its own (a Dou Dizhu session's, `doudizhu.book`)."""

from __future__ import annotations

GAME_PREFIX = "game/"
SESSION_PREFIX = "session/"


def game_stream(game_id: str) -> str:
    return GAME_PREFIX + game_id
