"""The ledger's stream names, shared by every game: a game is `game/<id>` whatever is played
(its first event says which game it is), a card night `session/<id>`, a Dou Dizhu session
`doudizhu-session/<id>`."""

from __future__ import annotations

GAME_PREFIX = "game/"
SESSION_PREFIX = "session/"
DOUDIZHU_SESSION_PREFIX = "doudizhu-session/"


def game_stream(game_id: str) -> str:
    return GAME_PREFIX + game_id
