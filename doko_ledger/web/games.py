"""The pages of games: the list, one game's score with its derivation, its audit against a
claimed result, its notes, and its HTML replay."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from doko_ledger.doppelkopf.book import card_nights
from doko_ledger.doppelkopf.files import quick_entry
from doko_ledger.doppelkopf.files.quick_entry import EntryError
from doko_ledger.doppelkopf.game.facts import NotScorable
from doko_ledger.doppelkopf.nights.place import stored_place
from doko_ledger.doppelkopf.sight import public_row
from doko_ledger.doppelkopf.views import audit_view, notes_view, score_view
from doko_ledger.errors import DokoError
from doko_ledger.games import DOPPELKOPF, Game
from doko_ledger.i18n import msg
from doko_ledger.ledger import Ledger
from doko_ledger.sight import TOURNAMENT
from doko_ledger.web.common import (
    NAME_COOKIE,
    PostedForm,
    is_joined,
    not_doppelkopf,
    now,
    open_ledger,
    player_name,
    render,
    status_of,
    viewed,
)

router = APIRouter(tags=["pages"], include_in_schema=False)

_POLICY = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">')


@dataclass(frozen=True, slots=True)
class GamePages:
    """The game page of a game whose games show themselves: what its page shows of one game
    (added to the context every game's page has), and its audit."""

    context: Callable[[Ledger, str, dict[str, Any]], dict[str, Any]]
    audit: Callable[[Ledger, str, dict[str, int] | None], dict[str, Any]]


GAME_PAGES: dict[Game[Any], GamePages] = {}
"""The pages of each game whose games show themselves, registered by its web module
(`web/doudizhu.py`); the pages below show Doppelkopf's games."""


def analysis_url(game_id: str) -> str:
    """Where a page asks for the marks of a game's analysis (`web.analyses`)."""
    from doko_ledger.web.analyses import FROM_TRICK

    return f"/api/games/{game_id}/analysis?from_trick={FROM_TRICK}"


def viewer(request: Request) -> str | None:
    """The player this phone joined the table as (None: not joined, or joined without a name):
    who may see their own hand of a deal being played."""
    return player_name(request) if is_joined(request) and request.cookies.get(NAME_COOKIE) else None


@router.get("/games")
def games_page(request: Request) -> Response:
    with open_ledger(request) as ledger:
        rows = ledger.book_of(DOPPELKOPF).public_games(ledger.games())
    marks = {row["game_id"]: place for row in rows if (place := stored_place(row)) is not None}
    titles = {game.name: game.title for game in GAME_PAGES}  # a game whose games have no game type
    return render(request, "games.html", {"games": rows, "marks": marks, "titles": titles})


def game_context(ledger: Ledger, game_id: str, seen_by: str | None) -> dict[str, Any]:
    game = ledger.game_of(game_id)
    sight = ledger.sight(game_id, seen_by)
    row = next((public_row(r, sight.playing) for _, r in ledger.game_rows(game_ids=[game_id])), None)
    mark = ledger.book_of(DOPPELKOPF).place(game_id) if game is DOPPELKOPF else None
    context: dict[str, Any] = {
        "game_id": game_id,
        "label": None,  # a Doppelkopf game's type is named by the page, in its reader's language
        "result": None,
        "row": row,
        "score": None,
        "unscored": None,
        "mark": mark,
        "night_open": mark is not None and not card_nights(ledger).closed(mark.session_id),
        "replay_as": next(iter(sight.perspectives()), None),
        "being_played": str(sight.refusal()) if sight.being_played else None,
    }
    own = GAME_PAGES.get(game)
    if own is not None:
        return own.context(ledger, game_id, context)
    state = ledger.book_of(DOPPELKOPF).state(game_id)
    if state.hands is None and not state.tricks and state.current is None:  # recorded by its facts: no card to replay
        context["replay_as"] = None
    context["players"] = list(state.players)
    context["notes"] = notes_view(ledger.notes(game_id))
    if sight.being_played:
        return context
    if context["replay_as"] is not None:  # its cards were recorded: they can be analysed (in the background)
        context["analysis_url"] = analysis_url(game_id)
    try:
        context["score"] = score_view(ledger.book_of(DOPPELKOPF).score(game_id))
    except NotScorable as exc:
        context["unscored"] = str(exc)
    return context


@router.get("/games/{game}")
def game_page(request: Request, game: str, claimed: str | None = None) -> Response:
    with open_ledger(request) as ledger:
        game_id = ledger.resolve(game)
        seen_by = viewer(request)
        key = ("game", ledger.store.where, game_id, seen_by or "")
        context = viewed(key, ledger.store.newest(), lambda: game_context(ledger, game_id, seen_by))
        return render(request, "game.html", dict(context))


@router.get("/games/{game}/audit")
def audit_page(request: Request, game: str) -> Response:
    """The audit; with a claimed result (one field per player), its difference explained."""
    with open_ledger(request) as ledger:
        game_id = ledger.resolve(game)
        ledger.sight(game_id).require_over()
        context = game_context(ledger, game_id, viewer(request))
        typed = {p: request.query_params.get(f"claim_{i}", "").strip() for i, p in enumerate(context["players"])}
        try:
            claim = _claim(typed)
            own = GAME_PAGES.get(ledger.game_of(game_id))
            if own is not None:
                view = own.audit(ledger, game_id, claim)
            else:
                view = audit_view(ledger.book_of(DOPPELKOPF).audit(game_id, claim), language=None)
        except DokoError as exc:
            context |= {"audit_error": str(exc), "typed": typed}
            return render(request, "game.html", context, status=status_of(exc))
        return render(request, "game.html", context | {"audit": view, "typed": typed})


def _claim(typed: dict[str, str]) -> dict[str, int] | None:
    """The points claimed, by player; an empty field is a player not claimed (not 0: the
    library names who is missing), no field filled is no claim."""
    if not any(typed.values()):
        return None
    return {
        player: quick_entry.points(text, msg("{player}'s claimed points", player=player))
        for player, text in typed.items()
        if text
    }


@router.post("/games/{game}/notes")
def add_note(request: Request, game: str, post: PostedForm) -> Response:
    with open_ledger(request, writing=True) as ledger:
        game_id = ledger.resolve(game)
        text = post.get("text")
        try:
            if not text:
                raise EntryError(msg("write the note first"))
            ledger.annotate(game_id, None, None, text, by=post.by, at=now())
        except DokoError as exc:
            context = game_context(ledger, game_id, viewer(request)) | {"note_error": str(exc), "note_text": text}
            return render(request, "game.html", context, status=status_of(exc))
    return RedirectResponse(f"/games/{game_id}#notes", status_code=303)


@router.get("/games/{game}/replay")
def replay_page(request: Request, game: str, perspective: str | None = None) -> Response:
    """The page `doko export --format html` writes, served with its own stricter policy: every
    hand by default; while the deal is being played, only a player's own view, to that player."""
    from doko_ledger.doppelkopf.files import html_replay

    with open_ledger(request) as ledger:
        game_id = ledger.resolve(game)
        played = ledger.game_of(game_id)
        if played is not DOPPELKOPF:
            raise DokoError(not_doppelkopf(msg("the HTML replay"), game_id, played.title))
        sight = ledger.sight(game_id, viewer(request))
        shown = sight.perspective(perspective)
        view = ledger.book_of(DOPPELKOPF).frames(game_id, shown)
        night = view.get("night")
        back = [(f"/games/{game_id}", f"← {game_id}")]
        back += [(f"/nights/{night['session']}", f"← {night['session']}")] if night else []
        # the marks of its analysis, asked for by the page (the analysis shows every hand: not
        # while the deal is played, nor in a view that hides the card points until the end)
        marked = not sight.being_played and view["seen_as"] != TOURNAMENT and len(view["frames"]) > 1
        page = html_replay.dumps(view, back, analysis_url=analysis_url(game_id) if marked else None)
    found = _POLICY.search(page)
    headers = {} if found is None else {"content-security-policy": found.group(1)}
    return HTMLResponse(page, headers=headers)
