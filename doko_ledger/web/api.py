"""The JSON API under /api/: the views `doko ... --json` prints, made by the same functions, and
the writes the pages use. A refusal is a 4xx with `{"error": "one line"}`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field

from doko_ledger.doppelkopf.analysis.verdicts import DEFAULT_FROM_TRICK
from doko_ledger.doppelkopf.book import card_nights, house_rules
from doko_ledger.doppelkopf.files import quick_entry
from doko_ledger.doppelkopf.files.quick_entry import EntryError
from doko_ledger.doppelkopf.game.record import DealEntry, SummaryRecord, ValueRecord
from doko_ledger.doppelkopf.house_rules import rules_named
from doko_ledger.doppelkopf.nights.book import BockMark, PreparedCorrection
from doko_ledger.doppelkopf.nights.decide import StartNight
from doko_ledger.doppelkopf.nights.page import NightPage
from doko_ledger.doppelkopf.rules.announcements import Announcement, Party
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.scoring import SpecialKind
from doko_ledger.doppelkopf.views import (
    anchored_standings_view,
    audit_view,
    notes_view,
    score_view,
    settle_view,
    standings_view,
)
from doko_ledger.errors import DokoError, reason_of
from doko_ledger.games import DOPPELKOPF, Game
from doko_ledger.i18n import current, msg
from doko_ledger.ledger import Ledger
from doko_ledger.store.base import ConcurrencyError, Head, LedgerBusy
from doko_ledger.streams import game_stream
from doko_ledger.web.common import (
    ApiWriter,
    json_bytes,
    not_doppelkopf,
    now,
    open_ledger,
    render,
    settings_of,
    viewed,
    writer_named,
)
from doko_ledger.web.forms import checked_request_id

router = APIRouter(prefix="/api", tags=["api"])


def asked(request: Request) -> str | None:
    """The language a client asked for with `Accept-Language` (the answer's, `i18n.current`),
    in which a score's lines are said beside their English words; None for a client that asked
    for none: its answers are the command line's `--json`, word for word."""
    return current() if "accept-language" in request.headers else None


@router.get("/", include_in_schema=False)
def api_page(request: Request) -> Response:
    """The API's own page, drawn from its OpenAPI description (nothing loaded from the network)."""
    spec = request.app.openapi()
    return render(request, "api.html", {"paths": spec["paths"]})


# -- reading ----------------------------------------------------------------------------------


@router.get("/health", summary="The server answers and reaches the ledger")
def health(request: Request) -> dict[str, str]:
    with open_ledger(request):
        return {"status": "ok"}


@dataclass(frozen=True, slots=True)
class GameViews:
    """The JSON answers of a game whose games answer for themselves: its score and its audit."""

    score: Callable[[Ledger, str], dict[str, Any]]
    audit: Callable[[Ledger, str, dict[str, int] | None], dict[str, Any]]


GAME_VIEWS: dict[Game[Any], GameViews] = {}
"""The views of each game whose games answer for themselves, registered by its web module
(`web/doudizhu.py`); the endpoints below answer for Doppelkopf's games."""


@router.get("/games", summary="The recorded games (doko games --json); a deal being played is marked being_played")
def games(request: Request) -> list[dict[str, Any]]:
    with open_ledger(request) as ledger:
        return ledger.book_of(DOPPELKOPF).public_games(ledger.games())


@router.get("/games/{game}/score", summary="A game's score with its derivation (doko score --json)")
def score(request: Request, game: str) -> dict[str, Any]:
    with open_ledger(request) as ledger:
        game_id = ledger.resolve(game)
        own = GAME_VIEWS.get(ledger.game_of(game_id))
        if own is not None:
            return own.score(ledger, game_id)
        ledger.sight(game_id).require_over()
        return score_view(ledger.book_of(DOPPELKOPF).score(game_id), asked(request))


@router.get("/games/{game}/audit", summary="A game's audit, a claimed result explained (doko audit --json)")
def audit(
    request: Request,
    game: str,
    claimed: Annotated[str | None, Query(description="Anna=+5,Ben=-5,Clara=+5,Dirk=-5")] = None,
) -> dict[str, Any]:
    claim = None if claimed is None else quick_entry.claim(claimed, "claimed")
    with open_ledger(request) as ledger:
        game_id = ledger.resolve(game)
        own = GAME_VIEWS.get(ledger.game_of(game_id))
        if own is not None:
            return own.audit(ledger, game_id, claim)
        ledger.sight(game_id).require_over()
        return audit_view(ledger.book_of(DOPPELKOPF).audit(game_id, claim), asked(request))


@router.get("/games/{game}/notes", summary="A game's notes (doko notes --json)")
def notes(request: Request, game: str) -> list[dict[str, Any]]:
    with open_ledger(request) as ledger:
        return notes_view(ledger.notes(ledger.resolve(game)))


@router.get(
    "/games/{game}/analysis",
    summary="The cards that cost their party something, found with every hand known; 202 while it is computed",
    response_model=dict[str, Any],
    response_class=JSONResponse,
    responses={202: {"description": "Being computed in the background: ask again after Retry-After"}},
)
def analysis(
    request: Request,
    game: str,
    from_trick: Annotated[
        int, Query(ge=1, le=12, description="Analyse the cards from this trick on")
    ] = DEFAULT_FROM_TRICK,
) -> Response:
    """The game's analysis (`analysis_view`) with the marks its replay shows, at once if it is
    kept; else computed in the background (`web.analyses`) and answered 202 meanwhile."""
    from doko_ledger.doppelkopf.analysis.verdicts import GameAnalysis
    from doko_ledger.doppelkopf.analysis_marks import marked_view
    from doko_ledger.web.analyses import ANALYSES, Asked, Pending

    with open_ledger(request) as ledger:
        game_id = ledger.resolve(game)
        played = ledger.game_of(game_id)
        if played is not DOPPELKOPF:
            raise DokoError(not_doppelkopf(msg("the analysis"), game_id, played.title))
        ledger.sight(game_id).require_over()  # it shows every hand
        book = ledger.book_of(DOPPELKOPF)
        players = book.state(game_id).players
        found: GameAnalysis | Pending | None = book.kept_analysis(game_id, from_trick)
        if found is None:
            version = ledger.store.stream_version(game_stream(game_id))
            found = ANALYSES.ask(Asked(str(settings_of(request).db), game_id, version, from_trick))
    if isinstance(found, Pending):
        status = "computing" if found.computing else "waiting"
        return JSONResponse({"game_id": game_id, "status": status}, status_code=202, headers={"Retry-After": "1"})
    return JSONResponse(marked_view(found, players))


@router.get("/nights", summary="The card nights (doko session list --json)")
def nights(request: Request) -> list[dict[str, Any]]:
    with open_ledger(request) as ledger:
        rows = [card_nights(ledger).standings(sid) for sid in card_nights(ledger).session_ids()]
        return [
            {"session": s.session_id, "players": list(s.players), "deals": len(s.rows), "closed": s.closed}
            | {"game": DOPPELKOPF.name, "version": card_nights(ledger).version(s.session_id)}
            for s in rows
        ]


@router.get(
    "/nights/{session}/standings",
    summary="A night's standings (doko standings --json)",
    response_model=dict[str, Any],
    response_class=JSONResponse,
)
def standings(request: Request, session: str) -> Response:
    return _night_json(
        request,
        session,
        "standings",
        lambda page, head: anchored_standings_view(page.standings, head) | {"version": page.version},
    )


@router.get(
    "/nights/{session}/settle",
    summary="Who pays whom (doko settle --json)",
    response_model=dict[str, Any],
    response_class=JSONResponse,
)
def settle(request: Request, session: str) -> Response:
    return _night_json(request, session, "settle", lambda page, head: settle_view(page.standings, head))


def _night_json(
    request: Request, session: str, name: str, view: Callable[[NightPage, Head], dict[str, Any]]
) -> Response:
    """A night's JSON `view` of its page and the ledger's head, made once for each page the
    library derives (a point of the log)."""
    with open_ledger(request) as ledger:
        nights = card_nights(ledger)
        sid = nights.resolve(session)
        page = nights.page(sid)
        made = viewed((name, nights.store.where, sid), page, lambda: json_bytes(view(page, ledger.head())))
        return Response(made, media_type="application/json")


@router.get("/stats", summary="Per-player statistics (doko stats --json)")
def stats(request: Request, session: str | None = None) -> dict[str, Any]:
    from doko_ledger.doppelkopf.stats import ledger_stats, stats_view

    with open_ledger(request) as ledger:
        return stats_view(ledger_stats(ledger, session))


# -- writing ----------------------------------------------------------------------------------


class NightIn(BaseModel):
    session_id: str = Field(max_length=100)
    players: list[str] = Field(max_length=7)
    dealer: str | None = None
    rules: str = Field("standard", max_length=100, description="A preset, or house rules saved in the ledger.")
    match: int = 8
    rate: str | None = None
    played_on: str | None = None


class SpecialIn(BaseModel):
    kind: SpecialKind
    party: Party | None = None
    """Left out when `caught_from` is given: the party that caught that player's card."""
    caught_from: str | None = None


FACT_FIELDS = frozenset({"game", "re", "re_points", "tricks", "calls", "specials", "misdeal", "heart_trick"})
"""The facts of a deal, which a deal by its value does not take."""


class ValueIn(BaseModel):
    """A deal by its value only (docs/rules.md §7), as `doko record --winners ... --value N` takes it."""

    winners: list[str] = Field(default_factory=list, max_length=7, description="The winners (or give the losers).")
    losers: list[str] = Field(default_factory=list, max_length=7, description="The losers instead of the winners.")
    value: int = Field(description="The deal's simple value before bock (0-99).")
    solo: bool = Field(False, description="The one winner or the one loser played a solo.")

    def record(self) -> ValueRecord:
        return ValueRecord(self.value, winners=tuple(self.winners), losers=tuple(self.losers), solo=self.solo)


class BockMarkIn(BaseModel):
    """Bock marked with the deal, as `doko record --bock N` marks it (docs/rules.md §9)."""

    rounds: int = Field(description="1 Bock, 2 Doppelbock, 3 Triplebock: the rounds declared with the deal.")
    by: str | None = Field(
        None, max_length=100, description="Who declares it, a player at the table (default: who writes)."
    )
    reason: str = Field("", max_length=200, description='Why (default: "marked with the deal").')

    def mark(self, writer: str) -> BockMark:
        return BockMark(self.rounds, self.by or writer, self.reason)


class DealIn(BaseModel):
    """A deal by its facts, as `doko record` takes them, or by its value only (`by_value`); with
    a bock mark (`bock`) recorded with it."""

    game: GameType = GameType.NORMAL
    re: list[str] = Field(default_factory=list, max_length=4)
    re_points: int = 0
    tricks: tuple[int, int] | None = None
    calls: list[tuple[str, Announcement]] = Field(default_factory=list, max_length=24)
    specials: list[SpecialIn] = Field(default_factory=list, max_length=24)
    misdeal: bool = False
    heart_trick: bool = Field(
        False, description="A trick of four hearts was played (a bock trigger, docs/rules.md §9)."
    )
    by_value: ValueIn | None = Field(
        None, description="The deal by its value only, instead of its facts (game, re, re_points, ...)."
    )
    bock: BockMarkIn | None = Field(None, description="Bock marked with the deal, recorded with it.")

    def summary(self) -> DealEntry | None:
        if self.by_value is not None:
            if self.model_fields_set & FACT_FIELDS:
                raise EntryError(
                    msg("a deal by its value takes none of {fields}", fields=", ".join(sorted(FACT_FIELDS)))
                )
            return self.by_value.record()
        if self.misdeal:
            return None
        return SummaryRecord(
            game=self.game.value,
            re=tuple(self.re),
            re_points=self.re_points,
            tricks=self.tricks,
            announcements=tuple((player, call.value) for player, call in self.calls),
            specials=tuple((s.kind.value, s.party.value if s.party else "", s.caught_from) for s in self.specials),
            heart_trick=self.heart_trick,
        )


class Versioned(BaseModel):
    version: int = Field(description="The night's version the write was made from (GET standings).")
    request_id: str | None = Field(
        None,
        description="The client's id of this write (or the Idempotency-Key header): sent again, the answer "
        "is the first sending's, and nothing more is written.",
    )


class DealAt(Versioned):
    deal: DealIn
    number: int | None = Field(
        None, ge=1, description="The deal's number the write is for: refused (409) once that deal is recorded."
    )


class NoteIn(BaseModel):
    text: str = Field(min_length=1, max_length=4000)


@router.post("/nights", status_code=201, summary="Start a card night (doko session start)")
def start(request: Request, body: NightIn, by: ApiWriter) -> dict[str, Any]:
    players = tuple(body.players)
    first = players.index(body.dealer) if body.dealer in players else 0
    if body.dealer is not None and body.dealer not in players:
        raise EntryError(
            msg(
                "dealer: {dealer} is not one of the players ({players})",
                dealer=repr(body.dealer),
                players=", ".join(players),
            )
        )
    with open_ledger(request, writing=True) as ledger:
        named = rules_named(body.rules, house_rules(ledger), files=False)
        command = StartNight(
            body.session_id, players, first, named.rules, body.match, body.played_on, body.rate, named.name
        )
        card_nights(ledger).start(command, by=by, at=now())
        return standings_view(card_nights(ledger).standings(body.session_id)) | {
            "version": card_nights(ledger).version(body.session_id)
        }


@router.post("/nights/{session}/preview", summary="The next deal's score and the bock it marks, nothing written")
def preview(request: Request, session: str, body: DealIn) -> dict[str, Any]:
    mark = None if body.bock is None else body.bock.mark(writer_named(request))
    with open_ledger(request) as ledger:
        sid = card_nights(ledger).resolve(session)
        prepared = card_nights(ledger).prepare(sid, body.summary(), misdeal=body.misdeal, bock=mark)
    score = None if prepared.score is None else score_view(prepared.score, asked(request))
    return {"game_id": prepared.game_id, "score": score, "bock_marked": prepared.bock_in_english}


@router.post("/nights/{session}/deals", status_code=201, summary="Record the next deal (doko record)")
def record(
    request: Request,
    session: str,
    body: DealAt,
    by: ApiWriter,
    idempotency_key: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    request_id = checked_request_id(idempotency_key or body.request_id)
    with open_ledger(request, writing=True) as ledger:
        sid = card_nights(ledger).resolve(session)
        try:
            prepared = card_nights(ledger).prepare(
                sid,
                body.deal.summary(),
                misdeal=body.deal.misdeal,
                deal=body.number,
                version=body.version,
                request_id=request_id,
                bock=None if body.deal.bock is None else body.deal.bock.mark(by),
            )
            card_nights(ledger).commit(prepared, by=by, at=now())
        except LedgerBusy:
            raise  # the lock, not another deal (503)
        except ConcurrencyError as exc:
            told = card_nights(ledger).change_since(sid, body.version)
            reason = reason_of(exc) if told is None else msg("{change}: nothing was written", change=told)
            raise ConcurrencyError(reason) from None
        ledger.refresh()
        return {
            "game_id": prepared.game_id,
            "number": prepared.number,
            "score": None if prepared.score is None else score_view(prepared.score, asked(request)),
            "bock_marked": prepared.bock_in_english,
            "version": card_nights(ledger).version(sid),
            "repeated": prepared.repeated,
        }


@router.post("/nights/{session}/undo", summary="Take back the night's last deal (doko undo)")
def undo(
    request: Request,
    session: str,
    body: Versioned,
    by: ApiWriter,
    idempotency_key: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    request_id = checked_request_id(idempotency_key or body.request_id)
    with open_ledger(request, writing=True) as ledger:
        sid = card_nights(ledger).resolve(session)
        taken = card_nights(ledger).undo(
            sid, by=by, at=now(), version=body.version, whole_deal=True, request_id=request_id
        )
        ledger.refresh()
        return {
            "taken_back": taken.game_id,
            "number": taken.number,
            "version": card_nights(ledger).version(sid),
            "repeated": taken.repeated,
        }


def _correction_facts(body: DealIn) -> DealEntry:
    if body.bock is not None:
        raise EntryError(msg("a correction takes no bock mark: a bock declared with the deal stays with it"))
    summary = body.summary()
    if summary is None:
        raise EntryError(msg("a correction gives the deal's facts (or its value), not a misdeal"))
    return summary


@router.post("/nights/{session}/deals/{game}/preview", summary="A deal's score with corrected facts, nothing written")
def correction_preview(request: Request, session: str, game: str, body: DealIn) -> dict[str, Any]:
    summary = _correction_facts(body)
    with open_ledger(request) as ledger:
        sid = card_nights(ledger).resolve(session)
        prepared = card_nights(ledger).prepare_correction(sid, game, summary)
    return _correction_view(prepared, asked(request))


@router.post("/nights/{session}/deals/{game}/correct", summary="Replace a deal's facts (doko correct)")
def correct(
    request: Request,
    session: str,
    game: str,
    body: DealAt,
    by: ApiWriter,
    idempotency_key: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    summary = _correction_facts(body.deal)
    request_id = checked_request_id(idempotency_key or body.request_id)
    with open_ledger(request, writing=True) as ledger:
        sid = card_nights(ledger).resolve(session)
        prepared = card_nights(ledger).correct(
            sid, game, summary, by=by, at=now(), version=body.version, request_id=request_id
        )
        ledger.refresh()
        view = _correction_view(prepared, asked(request))
        return view | {"version": card_nights(ledger).version(sid), "repeated": prepared.repeated}


def _correction_view(prepared: PreparedCorrection, language: str | None) -> dict[str, Any]:
    """A correction for scripts: the deal's number, the game it replaces, the new game, and the
    deal's score before and after (None for a deal not finished), its lines said in `language`."""
    before, after = prepared.before, prepared.after
    return {
        "game_id": prepared.game.game_id,
        "number": prepared.number,
        "replaces": prepared.game_id,
        "before": None if before is None else score_view(before, language),
        "score": None if after is None else score_view(after, language),
    }


@router.post("/games/{game}/notes", status_code=201, summary="Add a note on a game (doko annotate)")
def add_note(request: Request, game: str, body: NoteIn, by: ApiWriter) -> dict[str, Any]:
    with open_ledger(request, writing=True) as ledger:
        game_id = ledger.resolve(game)
        note = ledger.annotate(game_id, None, None, body.text.strip(), by=by, at=now())
    return {"game_id": game_id, "author": note.author, "text": note.text}
