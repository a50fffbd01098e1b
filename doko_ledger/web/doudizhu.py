"""The pages of Dou Dizhu sessions: the standings, and the next deal recorded by its facts as a
score sheet holds them (landlord, bid, bombs and rockets played, who went out first), with a
preview of the stake and the payments; the live version the page polls; and the same under
/api/. Each handler parses, calls one library function, renders."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response
from pydantic import BaseModel, Field

from doko_ledger.doppelkopf.files.quick_entry import EntryError
from doko_ledger.doppelkopf.views import notes_view
from doko_ledger.doudizhu.book import DouDizhuSessionNotFound
from doko_ledger.doudizhu.book import standings_view as doudizhu_standings_view
from doko_ledger.doudizhu.files import DouDizhuSummary
from doko_ledger.doudizhu.projection import score_view, summary_view
from doko_ledger.errors import DokoError, reason_of
from doko_ledger.games import DOUDIZHU
from doko_ledger.i18n import Message, msg
from doko_ledger.i18n import render as render_message
from doko_ledger.ledger import Ledger
from doko_ledger.store.base import ConcurrencyError, LedgerBusy
from doko_ledger.web import api as web_api
from doko_ledger.web import games as web_games
from doko_ledger.web import nights as web_nights
from doko_ledger.web.common import ApiWriter, PostedForm, now, open_ledger, render, status_of
from doko_ledger.web.guard import same

router = APIRouter(tags=["pages"], include_in_schema=False)
api = APIRouter(prefix="/api", tags=["api"])

BIDS = ("1", "2", "3")


def _score(ledger: Ledger, game_id: str) -> dict[str, Any]:
    """A Dou Dizhu game's stake and payments (`doko score --json`)."""
    from doko_ledger.doudizhu.projection import deal_view, stake_view

    book = ledger.book_of(DOUDIZHU)
    return stake_view(deal_view(book.state(game_id), book.notes(game_id)))


def _audit(ledger: Ledger, game_id: str, claim: dict[str, int] | None) -> dict[str, Any]:
    """A Dou Dizhu game's audit (`doko audit --json`)."""
    from doko_ledger.doudizhu.projection import audit_view

    return audit_view(ledger.book_of(DOUDIZHU).audit(game_id, claim))


def _page_context(ledger: Ledger, game_id: str, context: dict[str, Any]) -> dict[str, Any]:
    """What a Dou Dizhu game's page shows: its players, its notes, the summary of the deal."""
    book = ledger.book_of(DOUDIZHU)
    dealt = book.state(game_id)
    return context | {
        "notes": notes_view(book.notes(game_id)),
        "players": list(dealt.players),
        "ddz_summary": summary_view(dealt),
        "label": DOUDIZHU.title,
        "result": "_doudizhu_result.html",
        "replay_as": None,  # a Dou Dizhu deal is replayed at a terminal (`doko replay`)
    }


def _page_audit(ledger: Ledger, game_id: str, claim: dict[str, int] | None) -> dict[str, Any]:
    """A Dou Dizhu game's audit as its page shows it."""
    report = ledger.book_of(DOUDIZHU).audit(game_id, claim)
    return {"ok": report.ok, "checks": [c.view(language=None) for c in report.checks]}


def _home_sessions(ledger: Ledger) -> list[Any]:
    """The Dou Dizhu sessions the home page lists."""
    book = ledger.book_of(DOUDIZHU)
    return [book.standings(session_id) for session_id in book.session_ids()]


web_nights.HOME_SECTIONS["doudizhu"] = _home_sessions
web_api.GAME_VIEWS[DOUDIZHU] = web_api.GameViews(score=_score, audit=_audit)
web_games.GAME_PAGES[DOUDIZHU] = web_games.GamePages(context=_page_context, audit=_page_audit)


@dataclass(slots=True)
class SheetFields:
    """What the score-sheet form holds, as typed: shown again after a preview or a refusal."""

    landlord: str = ""
    bid: str = ""
    bombs: str = "0"
    big_bombs: str = "0"
    rockets: str = "0"
    out_first: str = ""


def _count(text: str, what: Message) -> int:
    if not text.strip().isdigit():
        raise EntryError(
            msg("{field}: write how many were played (0, 1, 2, ...), not {text}", field=what, text=repr(text))
        )
    return int(text)


def sheet_facts(fields: SheetFields, players: Sequence[str]) -> DouDizhuSummary:
    """The form's fields read into the library's terms; what cannot be read is refused naming the
    field. Whether the facts can be is the library's to say."""
    if fields.landlord not in players:
        raise EntryError(msg("tap the landlord"))
    if fields.bid not in BIDS:
        raise EntryError(msg("tap the landlord's bid: 1, 2 or 3"))
    if fields.out_first not in players:
        raise EntryError(msg("tap who went out first"))
    return DouDizhuSummary(
        landlord=fields.landlord,
        bid=int(fields.bid),
        out_first=fields.out_first,
        bombs=_count(fields.bombs, msg("bombs")),
        rockets=_count(fields.rockets, msg("rockets")),
        big_bombs=_count(fields.big_bombs, msg("bombs of six or more cards")) if len(players) == 4 else 0,
    )


def _session(ledger: Ledger, ref: str) -> str:
    sid = ledger.book_of(DOUDIZHU).resolve_session(ref)
    if sid is None:
        raise DouDizhuSessionNotFound(msg("no Dou Dizhu session {session} in the ledger", session=repr(ref)))
    return sid


def _page(
    request: Request,
    ledger: Ledger,
    sid: str,
    fields: SheetFields,
    *,
    version: int | None = None,
    preview: dict[str, Any] | None = None,
    error: str | None = None,
    status: int = 200,
) -> Response:
    games = ledger.book_of(DOUDIZHU)
    view = doudizhu_standings_view(games.standings(sid))
    context = {
        "session": view,
        "version": games.session_version(sid) if version is None else version,
        "summaries": {d["game_id"]: _summary(ledger, d["game_id"]) for d in view["deals"]},
        "fields": fields,
        "bids": BIDS,
        "preview": preview,
        "error": error,
    }
    return render(request, "doudizhu.html", context, status=status)


def _summary(ledger: Ledger, game_id: str) -> dict[str, Any] | None:
    return summary_view(ledger.book_of(DOUDIZHU).state(game_id))


@router.get("/doudizhu")
def start_form(request: Request) -> Response:
    return render(request, "doudizhu_start.html", {"typed": {}, "error": None})


@router.post("/doudizhu")
def start_session(request: Request, post: PostedForm) -> Response:
    """Start a Dou Dizhu session: its id, 3 or 4 players counter-clockwise, the day."""
    session_id = post.get("session_id")
    players = tuple(name for name in (post.get(f"player_{i}") for i in range(4)) if name)
    with open_ledger(request) as ledger:
        try:
            ledger.book_of(DOUDIZHU).start_session(
                session_id, players, played_on=post.get("played_on") or None, by=post.by, at=now()
            )
        except DokoError as exc:
            context = {"typed": dict(post.form), "error": str(exc)}
            return render(request, "doudizhu_start.html", context, status=status_of(exc))
    return RedirectResponse(f"/doudizhu/{session_id}", status_code=303)


@router.get("/doudizhu/{session_id}")
def doudizhu_session(request: Request, session_id: str) -> Response:
    with open_ledger(request) as ledger:
        return _page(request, ledger, _session(ledger, session_id), SheetFields())


def _version(text: str) -> int:
    if not text.isdigit():
        raise EntryError(msg("the form has no session version: reload the page"))
    return int(text)


@router.post("/doudizhu/{session_id}/record")
def record_deal(request: Request, session_id: str, post: PostedForm) -> Response:
    """Preview (stake and payments, nothing written) or record the session's next deal."""
    fields = SheetFields(
        landlord=post.get("landlord"),
        bid=post.get("bid"),
        bombs=post.get("bombs", "0") or "0",
        big_bombs=post.get("big_bombs", "0") or "0",
        rockets=post.get("rockets", "0") or "0",
        out_first=post.get("out_first"),
    )
    with open_ledger(request) as ledger:
        sid = _session(ledger, session_id)
        games = ledger.book_of(DOUDIZHU)
        version = None
        try:
            version = _version(post.get("version"))
            facts = sheet_facts(fields, games.standings(sid).players)
            if post.get("action") != "record":
                game_id, _, state = games.summary_deal(sid, facts)
                preview = {"game_id": game_id, "score": score_view(state), "summary": summary_view(state)}
                return _page(request, ledger, sid, fields, version=version, preview=preview)
            done = games.record_summary(sid, facts, expected_version=version, by=post.by, at=now())
            ledger.refresh()
        except LedgerBusy as exc:  # the lock, not another deal: the form stays as it was
            return _page(request, ledger, sid, fields, version=version, error=str(exc), status=status_of(exc))
        except ConcurrencyError as exc:
            kept = msg("{reason}. This form was kept: record it again if it is a new deal.", reason=reason_of(exc))
            error = render_message(kept)
            return _page(request, ledger, sid, fields, error=error, status=409)
        except DokoError as exc:
            return _page(request, ledger, sid, fields, version=version, error=str(exc), status=status_of(exc))
    return RedirectResponse(f"/doudizhu/{sid}#deal-{done.game_id}", status_code=303)


@router.get("/doudizhu/{session_id}/live")
def session_live(request: Request, session_id: str, since: int | None = None) -> Response:
    """The session's version, cheap to poll: 304 while the ETag is unchanged."""
    with open_ledger(request) as ledger:
        games = ledger.book_of(DOUDIZHU)
        sid = games.resolve_session(session_id)
        if sid is None:
            missing = msg("no Dou Dizhu session {session} in the ledger", session=repr(session_id))
            return JSONResponse({"error": render_message(missing)}, status_code=404)
        version = games.session_version(sid)
        tag = f'"ddz-{version}"'
        if same(request.headers.get("if-none-match"), tag):
            return Response(status_code=304, headers={"etag": tag})
        text = games.change_since(sid, since) if since is not None and since < version else ""
    return JSONResponse({"version": version, "change": text}, headers={"etag": tag, "cache-control": "no-cache"})


# -- the JSON API -----------------------------------------------------------------------------


class SheetIn(BaseModel):
    """A Dou Dizhu deal by its facts, as `doko ddz record` takes them."""

    landlord: str = Field(max_length=40)
    bid: int
    out_first: str = Field(max_length=40)
    bombs: int = 0
    rockets: int = 0
    big_bombs: int = 0


class SheetAt(BaseModel):
    version: int = Field(description="The session's version the write was made from (GET standings).")
    deal: SheetIn


@api.get("/doudizhu/{session}/standings", summary="A Dou Dizhu session's standings (doko standings --session)")
def standings(request: Request, session: str) -> dict[str, Any]:
    with open_ledger(request) as ledger:
        sid = _session(ledger, session)
        view = doudizhu_standings_view(ledger.book_of(DOUDIZHU).standings(sid))
        return view | {"version": ledger.book_of(DOUDIZHU).session_version(sid)}


@api.post("/doudizhu/{session}/deals", status_code=201, summary="A Dou Dizhu deal by its facts (doko ddz record)")
def record(request: Request, session: str, body: SheetAt, by: ApiWriter) -> dict[str, Any]:
    deal = body.deal
    facts = DouDizhuSummary(deal.landlord, deal.bid, deal.out_first, deal.bombs, deal.rockets, deal.big_bombs)
    with open_ledger(request) as ledger:
        sid = _session(ledger, session)
        done = ledger.book_of(DOUDIZHU).record_summary(sid, facts, expected_version=body.version, by=by, at=now())
        ledger.refresh()
    return {"game_id": done.game_id, "version": done.version, **score_view(done.state)}
