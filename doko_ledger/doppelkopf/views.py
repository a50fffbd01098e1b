"""Plain-data views of a game for scripts (`--json`) and for the renderers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from doko_ledger.doppelkopf.audit import AuditReport
from doko_ledger.doppelkopf.cards import Cards
from doko_ledger.doppelkopf.events import AbandonReason
from doko_ledger.doppelkopf.frames import Frame, note_step
from doko_ledger.doppelkopf.game.facts import summary_facts
from doko_ledger.doppelkopf.game.parties import Parties, announced, marriage_status, public_parties, true_parties
from doko_ledger.doppelkopf.game.state import GameState, Trick
from doko_ledger.doppelkopf.nights.place import DealPlace
from doko_ledger.doppelkopf.nights.standings import Standings
from doko_ledger.doppelkopf.replay import Replay
from doko_ledger.doppelkopf.rules.announcements import Party
from doko_ledger.doppelkopf.rules.bock import TRIGGER_SAID
from doko_ledger.doppelkopf.rules.counting import COUNTING_SAID
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.play import SEATS
from doko_ledger.doppelkopf.rules.scoring import ScoreLine
from doko_ledger.doppelkopf.rules.value import VALUE_ONLY, ValueDeal
from doko_ledger.doppelkopf.score import GameScore
from doko_ledger.doppelkopf.sight import as_the_table_knows
from doko_ledger.events.annotations import AnnotationAdded
from doko_ledger.events.codec import to_payload
from doko_ledger.events.envelope import Recorded
from doko_ledger.i18n import DEFAULT, Message, msg, render
from doko_ledger.projections.checks import Check
from doko_ledger.sight import ALL, TOURNAMENT
from doko_ledger.store.base import Head, VerifyReport
from doko_ledger.store.copy import Copied


def running_points(state: GameState) -> list[tuple[int, ...]]:
    """Card points per seat after each completed trick."""
    totals = [0] * SEATS
    out = []
    for trick in state.tricks:
        assert trick.winner is not None
        totals[trick.winner] += trick.points
        out.append(tuple(totals))
    return out


def trick_view(state: GameState, trick: Trick) -> dict[str, Any]:
    players = state.players
    return {
        "number": trick.number,
        "leader": players[trick.leader],
        "plays": [{"player": players[s], "card": str(c)} for s, c in trick.plays],
        "winner": None if trick.winner is None else players[trick.winner],
        "points": trick.points,
    }


def hands_view(state: GameState) -> dict[str, list[str]] | None:
    if state.hands is None:
        return None
    return {p: [str(c) for c in state.order.sorted(h)] for p, h in zip(state.players, state.hands, strict=True)}


def _parties(players: tuple[str, ...], parties: Parties) -> dict[str, str | None]:
    return {name: None if p is None else p.value for name, p in zip(players, parties, strict=True)}


def place_view(place: DealPlace | None) -> dict[str, Any] | None:
    """A game's place in its card night for scripts: session, deal number, status ("in force",
    "voided", "corrected"), corrected_by, replaces, bock (None: no night's deal)."""
    return None if place is None else place.view()


def replay_view(shown: Replay, before_trick: int | None = None, place: DealPlace | None = None) -> dict[str, Any]:
    """A replay for scripts: the game (or the position before a trick), parties public and
    true, each revelation, every announced level, and its place in a card night."""
    state = shown.state
    players = state.players
    view = game_view(state) if before_trick is None else position_view(state, before_trick)
    view["night"] = place_view(place)
    view["parties_public"] = _parties(players, shown.public)
    view["parties_true"] = _parties(players, shown.truth)
    view["revealed"] = [
        {"player": players[r.seat], "party": r.party.value, "trick": r.trick, "cause": render(r.cause, DEFAULT)}
        for r in shown.revelations
    ]
    view["announced"] = [
        {
            "party": a.party.value,
            "announcement": a.announcement.value,
            "player": None if a.seat is None else players[a.seat],
            "played": a.played,
            "trick": a.trick,
            "implied": a.implied,
        }
        for a in shown.announced
    ]
    return view


def game_view(state: GameState) -> dict[str, Any]:
    """The whole game: header, every trick, card points and tricks per player."""
    players = state.players
    return {
        "game_id": state.game_id,
        "played_on": state.played_on,
        "players": list(players),
        "dealer": state.dealer_name,
        "first_leader": players[state.first_leader],
        "rules": state.rules.to_dict(),
        "game_type": None if state.game_type is None else state.game_type.value,
        "declarer": None if state.declarer is None else players[state.declarer],
        "reservations": {players[s]: "healthy" if h else "reservation" for s, h in state.declared}
        | {players[n.seat]: (n.solo or n.kind).value for n in state.named},
        "abandoned": state.abandoned,
        "hands_dealt": None
        if state.dealt is None
        else {p: [str(c) for c in h] for p, h in zip(players, state.dealt, strict=True)},
        "tricks": [trick_view(state, t) for t in state.all_tricks],
        "card_points": dict(zip(players, state.points_won(), strict=True)),
        "tricks_won": dict(zip(players, state.tricks_won(), strict=True)),
        "finished": state.finished,
    }


def position_view(state: GameState, number: int) -> dict[str, Any]:
    """The game before trick `number`: hands as they stood, tricks so far, who leads."""
    leader = state.to_play
    return {
        "game_id": state.game_id,
        "before_trick": number,
        "leader": None if leader is None else state.players[leader],
        "hands": hands_view(state),
        "card_points": dict(zip(state.players, state.points_won(), strict=True)),
        "tricks": [trick_view(state, t) for t in state.tricks],
    }


def event_view(recorded: Recorded) -> dict[str, Any]:
    e = recorded.envelope
    return {
        "position": e.position,
        "stream": e.stream,
        "version": e.version,
        "type": e.event_type,
        "schema_version": e.schema_version,
        "recorded_at": e.recorded_at,
        "recorded_by": e.recorded_by,
        "hash": e.hash,
        "payload": to_payload(recorded.event),
    }


def verify_view(report: VerifyReport) -> dict[str, Any]:
    return {
        "ok": report.ok,
        "format": report.format,
        "events": report.events,
        "streams": report.streams,
        "head": report.head,
        "position": report.position,
        "first_bad_position": report.first_bad_position,
        "expected": report.expected,
        "expected_at": report.expected_at,
        "problems": [render(problem, "en") for problem in report.problems],
        "more_problems": report.more_problems,
        "read_models": report.read_models,
        "read_models_note": render(report.read_models_note, "en"),
        "repair": report.repair,
    }


def head_view(head: Head) -> dict[str, Any]:
    return {"head": head.hash, "position": head.position, "events": head.events}


def copy_view(copied: Copied, source: str, target: str) -> dict[str, Any]:
    """`doko copy --json`: where from, where to, and the head both ledgers now have."""
    return {"from": source, "to": target, "streams": copied.streams} | head_view(copied.head)


def anchored_standings_view(night: Standings, head: Head) -> dict[str, Any]:
    """`doko standings --json`: the night, and the ledger head it was read at."""
    return standings_view(night) | {"ledger_head": head_view(head)}


def settle_view(night: Standings, head: Head) -> dict[str, Any]:
    """`doko settle --json`: who pays whom in the fewest payments, and the ledger head."""
    from doko_ledger.doppelkopf.nights.standings import payments

    return {
        "session": night.session_id,
        "payments": [{"payer": p.payer, "payee": p.payee, "amount": str(p.amount)} for p in payments(night)],
        "ledger_head": head_view(head),
    }


def describe(state: GameState) -> str:
    """One line for people: the game type, its declarer, a marriage's partner."""
    if state.valued is not None:
        return f"{VALUE_ONLY}: {state.valued.words(state.players)}"
    if state.game_type is None:
        return "reservations open"
    text = state.game_type.value.replace("_", " ")
    if state.declarer is not None:
        text += f" by {state.players[state.declarer]}"
    if state.game_type is GameType.MARRIAGE:
        partner, clarified = marriage_status(state)
        if partner is not None:
            text += f", partner {state.players[partner]} (trick {clarified})"
        elif clarified is not None:
            text += ", alone"
    return text


def described(state: GameState) -> Message:
    """`describe` in the reader's language: `Damensolo von Anna`, `mariage de Ben, partenaire Cleo (pli 2)`."""
    if state.valued is not None:
        return msg("value only: {words}", words=state.valued.said(state.players))
    game = state.game_type
    if game is None:
        return msg("reservations open")
    if state.declarer is None:
        return game.word
    who = state.players[state.declarer]
    if game is GameType.MARRIAGE:
        partner, clarified = marriage_status(state)
        if partner is not None:
            return msg(
                "{game} by {who}, partner {partner} (trick {trick})",
                game=game,
                who=who,
                partner=state.players[partner],
                trick=clarified,
            )
        if clarified is not None:
            return msg("{game} by {who}, alone", game=game, who=who)
    return msg("{game} by {who}", game=game, who=who)


def score_view(result: GameScore, language: str | None = None) -> dict[str, Any]:
    """A score for scripts: the rules, the winner, the value, each line, each player's points;
    for a deal entered by its value, `value_only`: who won and the value as entered. Its words
    are English; with a `language`, each line also says its item and cause in it (`said`,
    `said_cause`), for a page or a client that asked for that language."""
    score = result.score
    return _value_only(result.valued, result.players) | {
        "game_id": result.game_id,
        "rules": result.rules.to_dict(),
        "winner": None if score is None or score.winner is None else score.winner.value,
        "value": 0 if score is None else score.value,
        "lone": result.in_solo,
        "note": result.note,
        "lines": [] if score is None else [_line_view(line, language) for line in score.lines],
        "penalties": [
            {
                "player": line.player,
                "severe": line.severe,
                "harms_soloist": line.harms_soloist,
                "denials": line.denials,
                "reason": line.reason,
                "points": dict(zip(result.players, line.points, strict=True)),
            }
            for line in result.penalties
        ],
        "players": result.by_player,
        "night": place_view(result.place),
    }


def _line_view(line: ScoreLine, language: str | None) -> dict[str, Any]:
    """A derivation line in English; with a `language`, its item and cause said in it as well,
    as the command line shows them."""
    view: dict[str, Any] = {
        "item": line.item,
        "party": None if line.party is None else line.party.value,
        "points": line.points,
        "factor": line.factor,
        "special": line.special,
        "cause": line.cause,
    }
    if language is not None:
        view["said"] = render(line.shown, language)
        view["said_cause"] = render(line.shown_cause, language)
    return view


def _value_only(valued: ValueDeal | None, players: Sequence[str]) -> dict[str, Any]:
    """`{"value_only": {...}}` for a deal entered by its value (the winners, the value, the solo
    mark, in words); nothing for other deals, whose views stay as they were."""
    if valued is None:
        return {}
    return {
        "value_only": {
            "winners": [players[s] for s in valued.winners],
            "value": valued.value,
            "solo": valued.solo,
            "words": valued.words(players),
        }
    }


def audit_view(report: AuditReport, language: str | None = None) -> dict[str, Any]:
    """An audit for scripts, its words in English: each check, the score and a claim's
    difference, explained by lines or by rules; with a `language`, each of them also said in it
    (`said_name`, `said_details`, the score's `said`, `explained_by_said`, `said_rules`,
    `said_because`), for a page or a client that asked for that language."""
    claim = report.claim
    view: dict[str, Any] = {
        "game_id": report.game_id,
        "night": place_view(report.place),
        "ok": report.ok,
        "checks": [_check_view(check, language) for check in report.checks],
        "score": None if report.score is None else score_view(report.score, language),
        "claim": None,
    }
    if claim is not None:
        view["claim"] = {
            "claimed": claim.claimed,
            "computed": claim.computed,
            "difference": claim.difference,
            "explained_by_lines": [[line.item for line in lines] for lines in claim.lines],
            "right_under_rules": [render(name, DEFAULT) for name in claim.rules],
            "first_because": "" if claim.why is None else render(claim.why, DEFAULT),
        }
        if language is not None:
            view["claim"] |= {
                "explained_by_said": [[render(line.shown, language) for line in lines] for lines in claim.lines],
                "said_rules": [render(name, language) for name in claim.rules],
                "said_because": "" if claim.why is None else render(claim.why, language),
            }
    return view


def _check_view(check: Check, language: str | None) -> dict[str, Any]:
    """A check in English, and with a `language` its name and details said in it as well."""
    view = check.view(DEFAULT)
    if language is not None:
        said = check.view(language)
        view |= {"said_name": said["name"], "said_details": said["details"]}
    return view


def standings_view(night: Standings, language: str | None = "en") -> dict[str, Any]:
    """A card night for scripts: every deal with its points, its sheet row (the points under
    the counting in force at it), the running totals and the changes that took effect at it;
    the table; the seating and counting in force; the night's changes; the bock rounds in
    force and queued. Its words in `language` (English, for scripts), or with `language` None
    kept as messages, for a page that shows them in its reader's language."""

    def said(words: Message | str) -> Message | str:
        return words if language is None else render(words, language)

    return {
        "session": night.session_id,
        "players": list(night.players),
        "seating": list(night.seating),
        "counting": night.counting,
        "counting_words": said(COUNTING_SAID[night.counting]),
        "closed": night.closed,
        "rate": None if night.rate is None else str(night.rate),
        "changes": [c.view(language) for c in night.changes],
        "bock_rounds": bock_causes_view(night),
        "deals": [
            {
                "number": r.number,
                "game_id": r.game_id,
                "dealer": r.dealer,
                "playing": list(r.playing),
                "sitting_out": list(r.sitting_out),
                "match": r.match,
                "round": r.round,
                "multiplier": r.multiplier,
                "bock": r.bock or None,
                "bock_extra": 0 if r.bock_round is None else r.bock_round.extra,
                "counting": r.rules.counting,
                "changes": [said(c) for c in r.changes],
                "counts": r.counts,
                "compulsory_solo": r.compulsory,
                "forced_solo": r.forced,
                "game_type": None if r.outcome.game_type is None else r.outcome.game_type.value,
                "thrown_in": r.outcome.abandoned,
                **({} if r.outcome.value_words is None else {"value_only": r.outcome.value_words}),
                "points": r.deltas,
                "sheet": r.sheet,
                "totals": r.totals,
            }
            for r in night.rows
        ],
        "table": [
            {
                "player": s.player,
                "total": s.total,
                "played": s.played,
                "won": s.won,
                "solos": s.solos,
                "solos_won": s.solos_won,
                "owes_solo": s.owes_solo,
                "money": None if s.money is None else str(s.money),
            }
            for s in night.table
        ],
        "next": {
            "number": night.next.number,
            "dealer": night.next.dealer,
            "playing": list(night.next.playing),
            "multiplier": night.next.multiplier,
            "bock_extra": 0 if night.next.bock is None else night.next.bock.extra,
            "bock": None if night.next.bock is None else night.next.bock.cause,
            "sitting_out": list(night.next.sitting_out),
            "changes": [said(c) for c in night.next.changes],
            "forced_solo_by": list(night.next.forced_solo_by),
            "over": night.next.over,
        },
    }


PLAYER = "player"


def frames_view(
    shown: Sequence[Frame],
    notes: Sequence[AnnotationAdded],
    perspective: str = ALL,
    result: GameScore | None = None,
    place: DealPlace | None = None,
    *,
    player: str | None = None,
) -> dict[str, Any]:
    """A replay as frames, as one viewer could see it: `all` (every hand and the true parties),
    `tournament` (no card points, parties or announcements before the end) or a
    player's name (their own hand, and only what the table knew); `player` names the player
    even when the name is `all` or `tournament`. `seen_as` says which of the three it is.
    Feeds the terminal stepper and the HTML export alike; each frame's caption is in the
    reader's language (English for scripts: render the view in English)."""
    final = shown[-1].state
    players = final.players
    if player is not None:
        perspective = player
    seen_as = PLAYER if player is not None or perspective not in (ALL, TOURNAMENT) else perspective
    viewer = perspective if seen_as == PLAYER else None
    truth = _parties(players, true_parties(final))
    placed = [(note_step(n, shown), n) for n in notes]
    game_type, declarer = final.game_type, None if final.declarer is None else players[final.declarer]
    if seen_as != ALL and viewer != declarer:
        game_type, declarer = as_the_table_knows(game_type, declarer)
    return {
        "game_id": final.game_id,
        "played_on": final.played_on,
        "players": list(players),
        "dealer": final.dealer_name,
        "game_type": None if game_type is None else game_type.value,
        "declarer": declarer,
        "hand_size": final.hand_size,
        "perspective": perspective,
        "seen_as": seen_as,
        "frames": [
            _frame_view(frame, seen_as, viewer, truth, [n for at, n in placed if at == frame.step], frame is shown[-1])
            for frame in shown
        ],
        "result": None if result is None else _result_view(result),
        "night": place_view(place),
    }


def _frame_view(
    frame: Frame,
    seen_as: str,
    viewer: str | None,
    truth: dict[str, str | None],
    notes: list[AnnotationAdded],
    last: bool,
) -> dict[str, Any]:
    state = frame.state
    players = state.players
    hidden = seen_as == TOURNAMENT and not (last and state.over)
    dealt = hands_view(state) or {}
    hands: dict[str, list[str] | None] = {
        p: dealt.get(p) if seen_as != PLAYER or p == viewer else None for p in players
    }
    public = _parties(players, public_parties(state))
    if viewer in players:
        public[viewer] = public[viewer] or _parties(players, true_parties(state))[viewer]
    trick = state.current or (state.tricks[-1] if state.tricks and frame.step else None)
    leader = state.to_play
    summary = state.summary  # a score-sheet deal: the parties' points and the calls, no cards
    party_points: dict[str, int] | None = None
    party_tricks: dict[str, int] | None = None
    if summary is not None and not hidden:
        facts = summary_facts(state, summary)
        party_points = {p.value: facts.points(p) for p in (Party.RE, Party.KONTRA)}
        if summary.re_tricks is not None:
            party_tricks = {p.value: facts.tricks(p) for p in (Party.RE, Party.KONTRA)}
    return {
        "step": frame.step,
        "trick": frame.trick,
        "card": frame.card,
        "caption": render(_caption(frame, points=not hidden)),
        "hands": hands,
        "trick_cards": [] if trick is None else [{"player": players[s], "card": str(c)} for s, c in trick.plays],
        "trick_winner": None if trick is None or trick.winner is None else players[trick.winner],
        "leader": None if leader is None else players[leader],
        "tricks_won": None if summary is not None else dict(zip(players, state.tricks_won(), strict=True)),
        "card_points": None if hidden or summary is not None else dict(zip(players, state.points_won(), strict=True)),
        "party_points": party_points,
        "party_tricks": party_tricks,
        "parties": None if hidden else public,
        "true_parties": truth if seen_as == ALL else None,
        "announcements": None
        if hidden
        else _summary_calls(state)
        if summary is not None
        else [
            {
                "player": None if a.seat is None else players[a.seat],
                "party": a.party.value,
                "announcement": a.announcement.value,
                "implied": a.implied,
            }
            for a in announced(state)
        ],
        "notes": [_note_view(n) for n in notes],
    }


def _summary_calls(state: GameState) -> list[dict[str, Any]]:
    """A score-sheet deal's announcements as the frames show calls (each as it was said)."""
    assert state.summary is not None
    re_seats = state.summary.re_seats
    return [
        {
            "player": state.players[call.seat],
            "party": (Party.RE if call.seat in re_seats else Party.KONTRA).value,
            "announcement": call.announcement.value,
            "implied": False,
        }
        for call in state.summary.announcements
    ]


def _caption(frame: Frame, *, points: bool = True) -> Message:
    """What the frame shows, in words; `points=False` (the tournament view) leaves out the
    trick's card points."""
    state = frame.state
    players = state.players
    if frame.played is None:
        if state.valued is not None:
            return msg("a deal entered by its value only: {words}", words=state.valued.said(players))
        if state.summary is not None:
            re = ", ".join(players[s] for s in state.summary.re_seats)
            return msg("a deal recorded by its facts, without its cards: Re ({re})", re=re)
        if state.abandoned is not None:
            why = AbandonReason.said(state.abandoned)
            return msg("deal thrown in ({why})", why=why)
        leader = state.to_play
        return msg("before the first card") if leader is None else msg("{player} leads trick 1", player=players[leader])
    seat, card = frame.played
    play = msg("trick {trick} · {player} plays {card}", trick=frame.trick, player=players[seat], card=Cards([card]))
    done = state.tricks[-1] if frame.card == SEATS and state.tricks else None
    if done is None or done.winner is None:
        return play
    winner = players[done.winner]
    if points:
        return msg("{play} · {player} wins the trick ({points})", play=play, player=winner, points=done.points)
    return msg("{play} · {player} wins the trick", play=play, player=winner)


def _note_view(note: AnnotationAdded) -> dict[str, Any]:
    return {"author": note.author, "at": note.written_at, "text": note.text, "trick": note.trick, "card": note.card}


def notes_view(notes: Sequence[AnnotationAdded]) -> list[dict[str, Any]]:
    return [_note_view(n) for n in notes]


def _result_view(result: GameScore) -> dict[str, Any]:
    score = result.score
    lines = [] if score is None else [_line_text(line) for line in score.lines if line.points or line.factor != 1]
    lines += [render(_penalty_text(p.player, p.reason)) for p in result.penalties]
    return {
        "value": 0 if score is None else score.value,
        "winner": None if score is None or score.winner is None else score.winner.value,
        "deltas": result.by_player,
        "lines": lines,
    }


def _line_text(line: ScoreLine) -> str:
    """`Kontra announced (Re): +2`, in the reader's language."""
    party = "" if line.party is None else f" ({render(line.party.word)})"
    amount = f"×{line.factor}" if line.factor != 1 else f"{line.points:+d}"
    return f"{render(line.shown)}{party}: {amount}"


def _penalty_text(player: str, reason: str) -> Message:
    """`penalty for Dirk: revoked`, the reason in the table's own words."""
    if reason:
        return msg("penalty for {player}: {reason}", player=player, reason=reason)
    return msg("penalty for {player}", player=player)


def bock_causes_view(night: Standings, language: str | None = "en") -> list[dict[str, Any]]:
    """The bock rounds in force and queued after the night's last deal (`BockRounds.causes`):
    the rounds in force first, then the queue, each with what started it and the deals left;
    with `language` None (a page), each trigger's words too, as messages."""
    views = [cause.view() for cause in night.bock_causes]
    if language is None:
        for view in views:
            view["trigger_words"] = [TRIGGER_SAID.get(t, t) for t in view["triggers"]]
    return views
