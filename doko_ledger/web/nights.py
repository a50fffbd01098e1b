"""The pages of card nights: home, joining the table, a night, recording, taking back and
correcting a deal, and the live version the pages poll. Each handler parses, calls one library
function, renders."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import date
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response

from doko_ledger.doppelkopf.book import card_nights, house_rules
from doko_ledger.doppelkopf.files.quick_entry import EntryError
from doko_ledger.doppelkopf.house_rules import NamedRules
from doko_ledger.doppelkopf.nights.book import CardNights, DealAlreadyRecorded, DealChanged
from doko_ledger.doppelkopf.nights.decide import MAX_BOCK_ROUNDS, MAX_PLAYERS, NIGHT_ID_TAKES
from doko_ledger.doppelkopf.nights.night import Night
from doko_ledger.doppelkopf.nights.page import NightPage
from doko_ledger.doppelkopf.rules.bock import heart_trick_matters
from doko_ledger.doppelkopf.rules.options import changes_text
from doko_ledger.doppelkopf.rules.ruleset import RuleSet, preset
from doko_ledger.doppelkopf.rules.scoring import SpecialKind
from doko_ledger.doppelkopf.views import bock_causes_view, score_view, standings_view
from doko_ledger.errors import DokoError, reason_of
from doko_ledger.games import DOPPELKOPF
from doko_ledger.i18n import current, msg
from doko_ledger.i18n import render as render_message
from doko_ledger.ledger import Ledger
from doko_ledger.store.base import ConcurrencyError, LedgerBusy
from doko_ledger.web import forms, qr
from doko_ledger.web.chart import running_totals
from doko_ledger.web.common import (
    NAME_COOKIE,
    PostedForm,
    code_accepted,
    is_joined,
    join_code_of,
    now,
    open_ledger,
    player_name,
    render,
    render_kept,
    settings_of,
    status_of,
    viewed,
)
from doko_ledger.web.guard import CSRF_FIELD, JOIN_COOKIE, join_token, same

if TYPE_CHECKING:
    from doko_ledger.doppelkopf.nights.changes import NightChange

router = APIRouter(tags=["pages"], include_in_schema=False)

COOKIE = {"httponly": True, "samesite": "lax", "max_age": 60 * 60 * 24 * 30}

HOME_SECTIONS: dict[str, Callable[[Ledger], Any]] = {}
"""What the home page shows of the sessions of other games than Doppelkopf, by the name the
page's template gives each: registered by the game's web module (`web/doudizhu.py`)."""


# -- home and joining -------------------------------------------------------------------------


def _home(ledger: Ledger, rules: NamedRules | None = None) -> dict[str, Any]:
    """The home page: the nights, and the start form with `rules` (default the standard preset)."""
    nights = card_nights(ledger)
    ids = nights.session_ids()
    open_ids = set(nights.open_ids())
    listed = [standings_view(nights.standings(sid)) for sid in ids]
    listed.sort(key=lambda v: (v["session"] not in open_ids, -ids.index(v["session"])))
    names: list[str] = []
    for view in listed:
        names += [p for p in view["players"] if p not in names]
    shown = rules or NamedRules(preset("standard"))
    return {
        "nights": listed,
        "open_ids": open_ids,
        "known_names": names,
        "rules_choices": forms.rules_choices(house_rules(ledger).list(), _nights_rules(ledger)),
        "rule_groups": forms.option_groups(shown.rules),
        "rules_changes": changes_text(shown.rules),
        "rules_preset": shown.rules.preset,
        "request_id": forms.request_id(),
        **{name: section(ledger) for name, section in HOME_SECTIONS.items()},
        "max_players": MAX_PLAYERS,
        "night_id_takes": NIGHT_ID_TAKES,
        "default_id": date.today().isoformat() if date.today().isoformat() not in ids else "",
    }


def _deal_named(page: NightPage, game_id: str) -> dict[str, Any]:
    """A game the night names, as people count it: `deal 6`, with its game id to link."""
    place = page.places.get(game_id)
    number = place.number if place is not None else None
    label = render_message(msg("deal {number}", number=number)) if number is not None else game_id
    return {"game_id": game_id, "label": label, "number": number}


@router.get("/")
def home(request: Request, closed: str | None = None) -> Response:
    """The nights; after a night was closed from the start form, which (`closed`)."""
    with open_ledger(request) as ledger:
        return render(request, "home.html", _home(ledger) | {"closed": closed})


def _nights_rules(ledger: Ledger) -> list[tuple[str, RuleSet]]:
    nights = card_nights(ledger)
    return [(sid, nights.state(sid).rules) for sid in nights.session_ids()]


def _save_rules(ledger: Ledger, post: PostedForm, rules: NamedRules) -> NamedRules:
    """Save the form's rules as the house rules named in `save_as`."""
    name = post.get("save_as")
    if not name:
        raise EntryError(msg("name the house rules to save them (e.g. kitchen)"))
    saved = house_rules(ledger).save(name, rules.rules, by=post.by, at=now(), request_id=forms.posted_request_id(post))
    return NamedRules(saved.rules, saved.name)


@router.post("/nights")
def start_night(request: Request, post: PostedForm) -> Response:
    """Start a night under the rules chosen (a preset, saved house rules) with the options the
    form changed; `choose` shows the chosen rules' options, `save` only saves them as house
    rules; a name in `save_as` saves them before the night starts."""
    action = post.get("action")
    with open_ledger(request, writing=action != "choose") as ledger:
        typed = dict(post.form) | {"save_as": ""}
        named = None
        try:
            named = forms.chosen_rules(post, house_rules(ledger), _nights_rules(ledger))
            if action == "choose":
                return render(request, "home.html", _home(ledger, named) | {"typed": typed})
            named = forms.rules_of(post, named)
            if action == "save":
                named = _save_rules(ledger, post, named)
                context = _home(ledger, named) | {"typed": typed | {"rules": f"saved:{named.name}"}}
                return render(request, "home.html", context | {"rules_saved": named.name})
            command = forms.start_command(post, named)
            if post.get("save_as"):
                Night().start(command)  # refuse a bad night before its rules are saved
                named = _save_rules(ledger, post, named)
                command = dataclasses.replace(command, rules_name=named.name)
            card_nights(ledger).start(command, by=post.by, at=now())
        except DokoError as exc:
            context = _home(ledger, named) | {"start_error": str(exc), "typed": dict(post.form)}
            return render(request, "home.html", context, status=status_of(exc))
    return RedirectResponse(f"/nights/{command.session_id}", status_code=303)


def _join_players(request: Request, ledger: Ledger) -> tuple[tuple[str, ...], bool]:
    """The names to choose from on the join page, and whether they are the open night's table
    (else the names of the earlier nights, the newest first)."""
    open_ids = card_nights(ledger).open_ids()
    if open_ids:
        return card_nights(ledger).state(open_ids[0]).players, True
    sids = reversed(card_nights(ledger).session_ids())
    known = [p for sid in sids for p in card_nights(ledger).state(sid).players]
    return tuple(dict.fromkeys(known))[:16], False


def _join_page(request: Request, context: dict[str, Any], status: int = 200) -> Response:
    players: tuple[str, ...] = ()
    if is_joined(request) or not settings_of(request).private:  # with --private, the names are the ledger's too
        with open_ledger(request) as ledger:
            players, _ = _join_players(request, ledger)
    base = {"code": "", "players": players, "already": is_joined(request), "chosen": player_name(request)}
    return render(request, "join.html", base | context, status=status)


@router.get("/join")
def join_page(request: Request, code: str = "") -> Response:
    return _join_page(request, {"code": code})


def _at_table(name: str, players: tuple[str, ...]) -> str | None:
    """The player of the open night's table that `name` names (ignoring case), or None."""
    return next((p for p in players if p.casefold() == name.casefold()), None)


@router.post("/join")
async def join_table(request: Request) -> Response:
    """Join the table (or change who this phone is, keeping the join) as the name chosen or
    typed: a name that is not at the open night's table is asked about, an empty one refused."""
    form = await request.form()
    typed = " ".join(str(form.get("typed", "")).split())[:40]
    name = typed or str(form.get("name", "")).strip()[:40]
    code = str(form.get("code", "")).strip()
    context = {"code": code, "typed": typed, "picked": name}
    if not same(str(form.get(CSRF_FIELD, "")), request.state.csrf):
        return _join_page(request, context | {"error": render_message(msg("reload the page"))}, status=403)
    keeping = is_joined(request) and not code  # changing who this phone is
    if not keeping and not code_accepted(request, code):
        error = render_message(msg("that is not the table's join code (it is printed beside the QR code)"))
        return _join_page(request, context | {"error": error}, status=403)
    if not name:
        error = render_message(msg("say who you are: choose your name or type it (what you record is credited to it)"))
        return _join_page(request, context | {"error": error}, status=422)
    with open_ledger(request) as ledger:
        players, at_table = _join_players(request, ledger)
    if at_table:
        found = _at_table(name, players)
        if found is None and form.get("watcher") != "1":
            asked = context | {"ask": name, "players": players, "typed": ""}  # the question carries the name
            return _join_page(request, asked, status=409)
        name = found or name
    settings = settings_of(request)
    response = RedirectResponse("/", status_code=303)
    if not keeping:
        token = join_token(settings.secret, join_code_of(settings.join_code))
        response.set_cookie(JOIN_COOKIE, token, **COOKIE)  # type: ignore[arg-type]
    response.set_cookie(NAME_COOKIE, quote(name), **COOKIE)  # type: ignore[arg-type]
    return response


# -- a night ----------------------------------------------------------------------------------


def night_context(nights: CardNights, session_id: str) -> dict[str, Any]:
    """Everything the night page shows: the library's `NightPage`, as the templates take it
    (made once for each page the library derives, that is once for each point of the log;
    each rendering gets a request id of its own)."""
    page = nights.page(session_id)
    view = viewed(("night", nights.store.where, session_id), page, lambda: _night_view(nights, page))
    return view | {"request_id": forms.request_id()}


def _night_view(nights: CardNights, page: NightPage) -> dict[str, Any]:
    session_id = page.standings.session_id
    view = standings_view(page.standings, language=None)
    return {
        "night": view,
        "version": page.version,
        "etag": _tag(page.version, page.position),
        "bock": bock_causes_view(page.standings, language=None),
        "payments": [{"payer": p.payer, "payee": p.payee, "amount": p.amount} for p in page.payments],
        "rate": page.standings.rate,
        "sitting_out": list(page.sitting_out),
        "voided": [_deal_named(page, g) for g in page.voided],
        "replaced": [_deal_named(page, g) for g in page.replaced],
        "corrections": list(page.replaced.values()),
        "chart": running_totals(view),
        "match_length": page.match_length,
        "in_play": page.in_play,
        "undo": _to_take_back(nights, session_id),
    }


def _to_take_back(nights: CardNights, session_id: str) -> str | None:
    """What "Undo" takes back now, in words ("deal 8", "Erik joins after Anna, from deal 7"), or
    None when there is nothing (or the night is closed)."""
    try:
        taken = nights.to_take_back(session_id, whole_deal=True)
    except DokoError:
        return None
    return render_message(msg("deal {number}", number=taken.number) if taken.change is None else taken.what)


def night_page_context(ledger: Ledger, session_id: str) -> dict[str, Any]:
    """The night page: `night_context`, and the forms that change the night (the rules in force
    with every option, who sits at the table, the bock button)."""
    nights = card_nights(ledger)
    page = nights.page(session_id)

    def forms_view() -> dict[str, Any]:
        standings, rules = page.standings, page.standings.rules
        return {
            "rules_choices": forms.rules_choices(house_rules(ledger).list(), [], in_force=(session_id, rules)),
            "rule_groups": forms.option_groups(rules),
            "rules_changes": changes_text(rules),
            "rules_preset": rules.preset,
            "seating": list(standings.seating),
            "gone": [p for p in standings.players if p not in standings.seating],
            "bock_round_choices": list(range(1, MAX_BOCK_ROUNDS + 1)),
            "last_deal": standings.rows[-1].number if standings.rows else None,
        }

    return night_context(nights, session_id) | viewed(("forms", nights.store.where, session_id), page, forms_view)


@router.get("/nights/{session_id}")
def night_page(
    request: Request,
    session_id: str,
    new: str | None = None,
    corrected: str | None = None,
    taken_back: str | None = None,
    changed: int | None = None,
) -> Response:
    """The night; after a write from this phone, what it did (`new`, `corrected`: the game
    recorded; `taken_back`: the game taken back; `changed`: the night's version a change made)."""
    with open_ledger(request) as ledger:
        sid = card_nights(ledger).resolve(session_id)
        done = {"new": new, "just_corrected": corrected, "taken_back": taken_back, "changed": changed}
        page = card_nights(ledger).page(sid)
        context = night_page_context(ledger, sid) | done
    settings = settings_of(request)
    if settings.join_url:
        context |= {"qr": qr.svg(settings.join_url), "join_code": settings.join_code}
    return render_kept(request, "night.html", context, (sid,), (page, *done.values()), forms.request_id)


@router.get("/nights/{session_id}/night.yaml")
def night_download(request: Request, session_id: str) -> Response:
    """The night as its session file with its changes (`doko import` reads it back), to keep
    on the phone; a night with a deal played card by card has none (422)."""
    from doko_ledger.doppelkopf.files import night_file

    with open_ledger(request) as ledger:
        nights = card_nights(ledger)
        sid = nights.resolve(session_id)
        text = night_file.dumps(night_file.from_night(nights.night(sid)))
    headers = {"Content-Disposition": f'attachment; filename="{sid}.yaml"'}
    return Response(text, media_type="application/yaml; charset=utf-8", headers=headers)


@router.get("/nights/{session_id}/fragment")
def night_fragment(request: Request, session_id: str) -> Response:
    """The changing part of the night page, for the live update."""
    with open_ledger(request) as ledger:
        nights = card_nights(ledger)
        sid = nights.resolve(session_id)
        page = nights.page(sid)
        return render_kept(request, "_night_live.html", night_context(nights, sid), (sid,), page, forms.request_id)


def live_tag(nights: CardNights, session_id: str) -> str:
    """The ETag of a night's live state: its version and the ledger's newest position (a deal
    finished card by card changes only its game's stream)."""
    return _tag(nights.version(session_id), nights.store.last_position())


def _tag(version: int, position: int) -> str:
    return f'"{version}-{position}"'


@router.get("/nights/{session_id}/live")
def night_live(request: Request, session_id: str, since: int | None = None) -> Response:
    """The night's version, cheap to poll: 304 while the ETag (the night's version and the
    ledger's newest position) is unchanged."""
    with open_ledger(request) as ledger:
        version = card_nights(ledger).version(session_id)
        if version == 0:
            missing = msg("no card night {night} in the ledger", night=repr(session_id))
            return JSONResponse({"error": render_message(missing)}, status_code=404)
        tag = live_tag(card_nights(ledger), session_id)
        if same(request.headers.get("if-none-match"), tag):
            return Response(status_code=304, headers={"etag": tag})
        change = card_nights(ledger).change_since(session_id, since) if since is not None and since < version else None
        text = "" if change is None else render_message(change)
    return JSONResponse({"version": version, "change": text}, headers={"etag": tag, "cache-control": "no-cache"})


# -- recording --------------------------------------------------------------------------------


def _deal_page(
    request: Request,
    ledger: Ledger,
    session_id: str,
    fields: forms.DealFields,
    *,
    version: int | None = None,
    correcting: str | None = None,
    preview: dict[str, Any] | None = None,
    error: str | None = None,
    status: int = 200,
    stale: dict[str, Any] | None = None,
) -> Response:
    page = card_nights(ledger).page(session_id)
    table = page.standings
    context = {
        "night": standings_view(table),
        "version": page.version if version is None else version,
        "request_id": forms.request_id(),
        "playing": table.next.playing if correcting is None else page.deal_players[correcting],
        "fields": fields,
        "game_types": [g.value for g in (page.game_types if correcting is None else page.correction_game_types)],
        "calls": forms.CALLS,
        "value_chips": forms.VALUE_CHIPS,
        "bock_marks": forms.BOCK_MARKS,
        "table": table.seating,
        "specials": list(SpecialKind),
        "correcting": correcting,
        "old": None if correcting is None else score_view(ledger.book_of(DOPPELKOPF).score(correcting), current()),
        "preview": preview,
        "error": error,
        "bock": table.next.multiplier,
        "heart_trick": fields.heart_trick or heart_trick_matters(card_nights(ledger).state(session_id).rules),
        "stale": stale,
        "in_play": None if correcting is not None else page.in_play,
    }
    return render(request, "record.html", context, status=status)


@router.get("/nights/{session_id}/record")
def record_form(request: Request, session_id: str) -> Response:
    with open_ledger(request) as ledger:
        sid = card_nights(ledger).resolve(session_id)
        first = card_nights(ledger).page(sid).default_game_type  # a forced solo due: a solo, never "normal"
        return _deal_page(request, ledger, sid, forms.DealFields(game=first.value))


def _version(post: Any) -> int:
    text = post.get("version")
    if not forms.whole(text):
        raise EntryError(msg("the form has no night version: reload the page"))
    return int(text)


def _stale_page(request: Request, ledger: Ledger, sid: str, deal: int, post: PostedForm, exc: DokoError) -> Response:
    """A form for a deal that was recorded meanwhile: what was recorded, an empty form for the
    next deal, and the typed facts offered for it (never recorded as it)."""
    recorded = card_nights(ledger).recorded_deal(sid, deal)
    stale = {
        "deal": deal,
        "game_id": recorded.game_id,
        "by": recorded.by,
        "score": None if recorded.score is None else score_view(recorded.score, current()),
        "typed": forms.typed_facts(post),
        "message": str(exc),
    }
    return _deal_page(request, ledger, sid, forms.DealFields(), stale=stale, status=409)


@router.post("/nights/{session_id}/record")
def record_deal(request: Request, session_id: str, post: PostedForm) -> Response:
    """Preview (score and derivation, nothing written) or record the next deal; `fill` only
    shows the form again with the facts posted (the facts of a stale form offered again)."""
    action = post.get("action")
    with open_ledger(request, writing=action == "record") as ledger:
        sid = card_nights(ledger).resolve(session_id)
        playing = card_nights(ledger).standings(sid).next.playing
        fields = forms.deal_fields(post, playing)
        if action == "fill":
            return _deal_page(request, ledger, sid, fields)
        version, deal, request_id = _version(post), forms.deal_number(post), forms.posted_request_id(post)
        try:
            summary = None if fields.misdeal else forms.summary_of(fields)
            bock = forms.bock_mark(fields, post.by)
            if action != "record":  # the same decision, not appended
                prepared = card_nights(ledger).prepare(sid, summary, misdeal=fields.misdeal, deal=deal, bock=bock)
                preview = {
                    "score": None if prepared.score is None else score_view(prepared.score, current()),
                    "next": prepared.night.schedule().next,
                    "game_id": prepared.game_id,
                    "bock_mark": prepared.bock,
                }
                return _deal_page(request, ledger, sid, fields, version=version, preview=preview)
            prepared = card_nights(ledger).prepare(
                sid, summary, misdeal=fields.misdeal, deal=deal, version=version, request_id=request_id, bock=bock
            )
            card_nights(ledger).commit(prepared, by=post.by, at=now())
            ledger.refresh()
        except DealAlreadyRecorded as exc:  # another phone recorded this form's deal: this form is done
            assert deal is not None
            return _stale_page(request, ledger, sid, deal, post, exc)
        except LedgerBusy as exc:  # the lock, not another deal: the form stays as it was
            return _deal_page(request, ledger, sid, fields, version=version, error=str(exc), status=status_of(exc))
        except ConcurrencyError:
            text = card_nights(ledger).change_since(sid, version) or msg("someone else recorded first")
            error = render_message(
                msg(
                    "{change}: nothing was recorded from this form. Check it and record again if it is a new deal.",
                    change=text,
                )
            )
            return _deal_page(request, ledger, sid, fields, error=error, status=409)
        except DokoError as exc:
            return _deal_page(request, ledger, sid, fields, version=version, error=str(exc), status=status_of(exc))
    return RedirectResponse(f"/nights/{sid}?new={prepared.game_id}", status_code=303)


@router.post("/nights/{session_id}/undo")
def undo_deal(request: Request, session_id: str, post: PostedForm) -> Response:
    with open_ledger(request, writing=True) as ledger:
        sid = card_nights(ledger).resolve(session_id)
        version = _version(post)
        try:
            request_id = forms.posted_request_id(post)
            taken = card_nights(ledger).undo(
                sid, by=post.by, at=now(), version=version, whole_deal=True, request_id=request_id
            )
            ledger.refresh()
        except DokoError as exc:
            message = str(exc)
            if isinstance(exc, ConcurrencyError):
                change = card_nights(ledger).change_since(sid, version) or reason_of(exc)
                message = render_message(msg("{change}: nothing was taken back", change=change))
            context = night_page_context(ledger, sid) | {"error": message}
            return render(request, "night.html", context, status=status_of(exc))
        if taken.change is not None:  # a change is gone from the night: say which here
            return render(request, "night.html", night_page_context(ledger, sid) | {"undone": taken.what})
    return RedirectResponse(f"/nights/{sid}?taken_back={quote(taken.game_id)}", status_code=303)


# -- the night changes: rules, players, bock by hand ---------------------------------------------

ChangeCall = Callable[[Ledger, str, dict[str, Any]], "NightChange"]
"""One of CardNights' changes of a night (`join`, `leave`, `change_rules`, `declare_bock`), given
the ledger, the night and the write's `by`, `at`, `version` and `request_id`."""


def _change_night(request: Request, session_id: str, post: PostedForm, change: ChangeCall) -> Response:
    """Make a change of the night from a form made at the night's `version`; a refusal is shown on
    the night's page with the library's words, and a form made before another write changes nothing."""
    with open_ledger(request, writing=True) as ledger:
        nights = card_nights(ledger)
        sid = nights.resolve(session_id)
        try:
            version = _version(post)
            write = {"by": post.by, "at": now(), "version": version, "request_id": forms.posted_request_id(post)}
            done = change(ledger, sid, write)
            ledger.refresh()
        except DokoError as exc:
            message = str(exc)
            if isinstance(exc, ConcurrencyError):
                meanwhile = nights.change_since(sid, version) or reason_of(exc)
                message = render_message(msg("{change}: nothing was changed from this form", change=meanwhile))
            context = night_page_context(ledger, sid) | {"error": message, "typed": dict(post.form)}
            return render(request, "night.html", context, status=status_of(exc))
        return RedirectResponse(f"/nights/{sid}?changed={done.version}", status_code=303)


@router.post("/nights/{session_id}/rules")
def change_rules(request: Request, session_id: str, post: PostedForm) -> Response:
    """The rules from the next deal: the rules chosen (those in force, a preset, saved house rules)
    with the options the form changed."""

    def change(ledger: Ledger, sid: str, write: dict[str, Any]) -> NightChange:
        in_force = card_nights(ledger).standings(sid).rules
        named = forms.rules_of(post, forms.chosen_rules(post, house_rules(ledger), [(sid, in_force)]))
        return card_nights(ledger).change_rules(sid, named.rules, name=named.name, **write)

    return _change_night(request, session_id, post, change)


@router.post("/nights/{session_id}/join")
def player_joins(request: Request, session_id: str, post: PostedForm) -> Response:
    """Someone joins the table, in the seat after the player chosen, from the next deal."""
    player, after = post.get("player"), post.get("after") or None
    return _change_night(
        request, session_id, post, lambda ledger, sid, w: card_nights(ledger).join(sid, player, after=after, **w)
    )


@router.post("/nights/{session_id}/leave")
def player_leaves(request: Request, session_id: str, post: PostedForm) -> Response:
    """Someone leaves the table from the next deal."""
    player = post.get("player")
    return _change_night(request, session_id, post, lambda ledger, sid, w: card_nights(ledger).leave(sid, player, **w))


@router.post("/nights/{session_id}/bock")
def declare_bock(request: Request, session_id: str, post: PostedForm) -> Response:
    """The bock button: 1 to 3 rounds declared by a player, for a reason, optionally with the last deal."""

    def change(ledger: Ledger, sid: str, write: dict[str, Any]) -> NightChange:
        rounds, deal = forms.bock_rounds(post), forms.with_deal(post)
        declared_by, reason = post.get("declared_by") or post.by, post.get("reason")
        return card_nights(ledger).declare_bock(
            sid, declared_by=declared_by, reason=reason, rounds=rounds, with_deal=deal, **write
        )

    return _change_night(request, session_id, post, change)


@router.post("/nights/{session_id}/close")
def close_night(request: Request, session_id: str, post: PostedForm) -> Response:
    with open_ledger(request, writing=True) as ledger:
        sid = card_nights(ledger).resolve(session_id)
        card_nights(ledger).close(sid, by=post.by, at=now())
    if post.get("then") == "start":  # closed from the start form: back to it
        return RedirectResponse(f"/?closed={quote(sid)}#start", status_code=303)
    return RedirectResponse(f"/nights/{sid}", status_code=303)


@router.get("/nights/{session_id}/deals/{game_id}/correct")
def correct_form(request: Request, session_id: str, game_id: str) -> Response:
    with open_ledger(request) as ledger:
        sid = card_nights(ledger).resolve(session_id)
        record = ledger.book_of(DOPPELKOPF).record(game_id)
        summary = record.summary or record.value
        fields = forms.DealFields() if summary is None else forms.fields_of(summary, record.players)
        return _deal_page(request, ledger, sid, fields, correcting=game_id)


@router.post("/nights/{session_id}/deals/{game_id}/correct")
def correct_deal(request: Request, session_id: str, game_id: str, post: PostedForm) -> Response:
    """Preview the corrected score beside the old one, or record the correction."""
    with open_ledger(request, writing=post.get("action") == "record") as ledger:
        sid = card_nights(ledger).resolve(session_id)
        players = ledger.book_of(DOPPELKOPF).record(game_id).players
        fields = forms.deal_fields(post, players)
        version = _version(post)
        try:
            summary = forms.summary_of(fields)
            if post.get("action") != "record":
                prepared = card_nights(ledger).prepare_correction(
                    sid, game_id, summary, version=version
                )  # not appended
                score = None if prepared.after is None else score_view(prepared.after, current())
                preview = {"score": score, "next": None, "game_id": game_id}
                return _deal_page(request, ledger, sid, fields, version=version, correcting=game_id, preview=preview)
            request_id = forms.posted_request_id(post)
            corrected = card_nights(ledger).correct(
                sid, game_id, summary, by=post.by, at=now(), version=version, request_id=request_id
            )
            ledger.refresh()
        except DealChanged as exc:  # the deal itself was corrected or taken back: this form is done
            return _deal_page(request, ledger, sid, fields, correcting=game_id, error=str(exc), status=409)
        except LedgerBusy as exc:
            return _deal_page(
                request, ledger, sid, fields, version=version, correcting=game_id, error=str(exc), status=status_of(exc)
            )
        except ConcurrencyError:
            text = card_nights(ledger).change_since(sid, version) or msg("someone else changed the night first")
            error = render_message(msg("{change}: nothing was corrected from this form.", change=text))
            return _deal_page(request, ledger, sid, fields, correcting=game_id, error=error, status=409)
        except DokoError as exc:
            status = status_of(exc)
            return _deal_page(
                request, ledger, sid, fields, version=version, correcting=game_id, error=str(exc), status=status
            )
    return RedirectResponse(f"/nights/{sid}?corrected={quote(corrected.game.game_id)}", status_code=303)
