"""Dou Dizhu read models, plain-data views and the audit of one deal.

Tables (rebuilt by `doko rebuild`):

- `doudizhu_games`: game_id, stream, played_on, players (JSON list, counter-clockwise),
  dealer, opener, hands_recorded, phase, landlord, bid, stake, winner (landlord,
  farmers or null), out_first, payments (JSON object player → points), tricks, moves,
  first_position, last_position, summarized (recorded by its facts: no bidding or play).
- `doudizhu_doublings`: game_id, number, player, combination (in words), cards, move
  (the combination's number in the deal); a summarized deal's doublings have no player,
  cards or move, only what the score sheet counted (`bomb`, `rocket`).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from doko_ledger.doudizhu.cards import cards_text, deck
from doko_ledger.doudizhu.combinations import describe, described
from doko_ledger.doudizhu.commands import Bid, Command, Deal, PassBid, PassTurn, Play, Summarize, TakeKitty
from doko_ledger.doudizhu.decide import decide
from doko_ledger.doudizhu.errors import IllegalMove
from doko_ledger.doudizhu.events import (
    BidMade,
    BidPassed,
    CombinationPlayed,
    DouDizhuAbandoned,
    DouDizhuDealt,
    DouDizhuSummarized,
    KittyTaken,
    TurnPassed,
)
from doko_ledger.doudizhu.evolve import evolve, fold
from doko_ledger.doudizhu.game_list import LISTED
from doko_ledger.doudizhu.payment import BIG_BOMB, BOMB, ROCKET
from doko_ledger.doudizhu.state import DealState, Move
from doko_ledger.errors import reason_of
from doko_ledger.events.annotations import AnnotationAdded
from doko_ledger.events.envelope import Recorded
from doko_ledger.events.voiding import in_force
from doko_ledger.i18n import Message, msg, plural, render
from doko_ledger.projections.checks import Check
from doko_ledger.store.base import StreamEvents
from doko_ledger.store.database import Database
from doko_ledger.streams import GAME_PREFIX

KEYS: Mapping[str, tuple[str, ...]] = {"doudizhu_games": ("game_id",), "doudizhu_doublings": ("game_id", "number")}
"""Each table, with the columns of its primary key."""
TABLES = tuple(KEYS)
FIRST_EVENT = DouDizhuDealt.event_name


class DouDizhuProjection:
    """Folds each Dou Dizhu game stream into `doudizhu_games` and `doudizhu_doublings` rows;
    streams of other games are left alone."""

    name = "doudizhu-v2"
    """Versioned with the tables' layout: a ledger whose read models have an older layout has no
    position under this name, so every stream is folded again (`create` drops the old tables)."""
    stream_prefix = GAME_PREFIX
    first_events = (FIRST_EVENT,)
    tables: Mapping[str, tuple[str, ...]] = KEYS

    def create(self, db: Database) -> None:
        if "doudizhu_games" in db.table_names() and "summarized" not in db.columns("doudizhu_games"):
            self.drop(db)  # an older layout
        db.executescript(
            """
            CREATE TABLE IF NOT EXISTS doudizhu_games (
                game_id TEXT PRIMARY KEY, stream TEXT NOT NULL, played_on TEXT, players TEXT NOT NULL,
                dealer TEXT NOT NULL, opener TEXT NOT NULL, hands_recorded BIGINT NOT NULL, phase TEXT NOT NULL,
                landlord TEXT, bid BIGINT NOT NULL, stake BIGINT NOT NULL, winner TEXT, out_first TEXT,
                payments TEXT, tricks BIGINT NOT NULL, moves BIGINT NOT NULL,
                first_position BIGINT NOT NULL, last_position BIGINT NOT NULL, summarized BIGINT NOT NULL
            );
            CREATE TABLE IF NOT EXISTS doudizhu_doublings (
                game_id TEXT NOT NULL, number BIGINT NOT NULL, player TEXT, combination TEXT NOT NULL,
                cards TEXT, move BIGINT, PRIMARY KEY (game_id, number)
            );
            """
        )
        db.execute(LISTED.index)  # `#N` and `doko games` read through it

    def drop(self, db: Database) -> None:
        db.executescript("".join(f"DROP TABLE IF EXISTS {table};" for table in TABLES))

    def write(self, db: Database, streams: Sequence[StreamEvents]) -> None:
        games: list[tuple[Any, ...]] = []
        doublings: list[tuple[Any, ...]] = []
        for stream in streams:
            if not stream.events or not isinstance(stream.events[0], DouDizhuDealt):
                continue
            state = fold(in_force(stream.events))
            games.append(_game_row(state, stream))
            plays = state.plays
            for number, doubling in enumerate(state.stake.doublings, 1):
                cards = plays[doubling.move - 1].cards
                doublings.append(
                    (
                        state.game_id,
                        number,
                        state.players[doubling.seat],
                        describe(doubling.combination),
                        cards_text(cards),
                        doubling.move,
                    )
                )
            start = len(state.stake.doublings) + 1
            for number, what in enumerate(state.stake.counted, start):
                doublings.append((state.game_id, number, None, what, None, None))
        if not games:
            return
        ids = [g[0] for g in games]
        marks = ", ".join("?" * len(ids))
        for table in TABLES:
            db.execute(f"DELETE FROM {table} WHERE game_id IN ({marks})", ids)
        db.executemany(f"INSERT INTO doudizhu_games VALUES ({', '.join('?' * 19)})", games)
        db.executemany("INSERT INTO doudizhu_doublings VALUES (?, ?, ?, ?, ?, ?)", doublings)


def _game_row(state: DealState, stream: StreamEvents) -> tuple[Any, ...]:
    players = state.players
    payments = state.payments
    landlord, out = state.landlord, state.out_first
    winner = state.winner_side
    return (
        state.game_id,
        stream.stream,
        state.played_on,
        json.dumps(list(players), ensure_ascii=False),
        players[state.dealer],
        players[state.opener],
        state.dealt_hands is not None,
        state.phase.value,
        None if landlord is None else players[landlord],
        state.bid,
        state.stake.amount,
        None if winner is None else winner.value,
        None if out is None else players[out],
        None if payments is None else json.dumps(dict(zip(players, payments, strict=True)), ensure_ascii=False),
        len(state.tricks) + (1 if state.current is not None and state.current.moves else 0),
        len(state.moves),
        stream.first_position,
        stream.last_position,
        state.summary is not None,
    )


# -- views ---------------------------------------------------------------------


def _move_view(state: DealState, move: Move) -> dict[str, Any]:
    player = state.players[move.seat]
    if move.combination is None:
        return {"player": player, "passed": True}
    c = move.combination
    return {
        "player": player,
        "cards": [str(r) for r in move.cards],
        "combination": describe(c),
        "kind": c.kind.value,
        "rank": str(c.rank),
        "size": c.size,
    }


def summary_view(state: DealState) -> dict[str, Any] | None:
    """The facts of a deal recorded by them alone (None for a deal recorded by its play)."""
    summary, players = state.summary, state.players
    if summary is None:
        return None
    return {
        "landlord": state.name(summary.landlord),
        "bid": summary.bid,
        "bombs": summary.bombs,
        "rockets": summary.rockets,
        "big_bombs": summary.big_bombs if len(players) == 4 else None,
        "out_first": state.name(summary.out_first),
    }


def deal_view(state: DealState, notes: Sequence[AnnotationAdded] = ()) -> dict[str, Any]:
    """A whole deal for scripts and renderers: the deal, the bidding, every trick, the stake
    with each doubling and its cause, the result and the payments. A deal recorded by its
    facts has `summary` (else None), no bidding or tricks, and `cards_left` None."""
    players = state.players
    tricks = [*state.tricks, *([state.current] if state.current is not None and state.current.moves else [])]
    return {
        "game": "doudizhu",
        "game_id": state.game_id,
        "played_on": state.played_on,
        "note": state.note,
        "players": list(players),
        "dealer": players[state.dealer],
        "opener": players[state.opener],
        "hands_dealt": None
        if state.dealt_hands is None
        else {p: [str(r) for r in h] for p, h in zip(players, state.dealt_hands, strict=True)},
        "kitty": None if state.kitty is None else [str(r) for r in state.kitty],
        "bidding": [{"player": players[s], "bid": "pass" if b == 0 else b} for s, b in state.calls],
        "phase": state.phase.value,
        "summary": summary_view(state),
        "landlord": None if state.landlord is None else state.name(state.landlord),
        "tricks": [
            {
                "number": n,
                "leader": players[t.leader],
                "moves": [_move_view(state, m) for m in t.moves],
                "winner": players[t.winner],
            }
            for n, t in enumerate(tricks, 1)
        ],
        "cards_left": None if state.summary is not None else dict(zip(players, state.left, strict=True)),
        "hands": None
        if state.hands is None
        else {p: [str(r) for r in h] for p, h in zip(players, state.hands, strict=True)},
        "to_beat": None if state.to_beat is None else _move_view(state, state.to_beat),
        "out_first": None if state.out_first is None else state.name(state.out_first),
        "winner": None if state.winner_side is None else state.winner_side.value,
        **score_view(state),
        "notes": [{"author": n.author, "at": n.written_at, "text": n.text} for n in notes],
    }


def score_view(state: DealState) -> dict[str, Any]:
    """The stake line by line (the bid, each doubling and what caused it) and the payments. A
    doubling a score sheet counted has no move, player or cards: only its combination."""
    players = state.players
    stake = state.stake
    plays = state.plays
    payments = state.payments
    return {
        "bid": state.bid,
        "doublings": [
            {
                "move": d.move,
                "player": players[d.seat],
                "combination": describe(d.combination),
                "cards": [str(r) for r in plays[d.move - 1].cards],
            }
            for d in stake.doublings
        ]
        + [{"move": None, "player": None, "combination": c, "cards": None} for c in stake.counted],
        "stake": stake.amount,
        "payments": None if payments is None else dict(zip(players, payments, strict=True)),
    }


# -- audit ---------------------------------------------------------------------


@dataclass(slots=True)
class DouDizhuAudit:
    """Every check of one deal; with a claimed result, the difference and the stakes that
    would explain it."""

    game_id: str
    checks: list[Check]
    state: DealState
    claimed: dict[str, int] | None = None
    difference: dict[str, int] = field(default_factory=dict)
    explanations: list[Message] = field(default_factory=list)
    """What could explain a claim's difference, in the reader's language when rendered."""

    @property
    def ok(self) -> bool:
        return not any(c.failed for c in self.checks) and not any(self.difference.values())


def command_of(event: Any) -> Command | None:
    """The command that records `event` (None for what another event brings with it)."""
    match event:
        case DouDizhuDealt():
            return Deal(
                event.game_id,
                event.players,
                event.dealer,
                event.opener,
                event.hands,
                event.kitty,
                event.played_on,
                event.note,
            )
        case BidMade(seat=seat, bid=bid):
            return Bid(seat, bid)
        case BidPassed(seat=seat):
            return PassBid(seat)
        case KittyTaken(cards=cards):
            return TakeKitty(cards)
        case CombinationPlayed(seat=seat, cards=cards):
            return Play(seat, cards, event.combination)
        case TurnPassed(seat=seat):
            return PassTurn(seat)
        case DouDizhuSummarized():
            return Summarize(event.landlord, event.bid, event.out_first, event.bombs, event.rockets, event.big_bombs)
    return None


def audit(
    recorded: Sequence[Recorded], chain_problems: Sequence[Message | str], claimed: dict[str, int] | None
) -> DouDizhuAudit:
    """Re-decide every event, check the cards add up to the deck, the payments to zero, and
    explain a claimed result."""
    found: list[Message | str] = list(chain_problems) or [msg("every hash matches")]
    chain = Check(msg("hash chain intact"), not chain_problems, found)
    state = DealState()
    refused: list[Message | str] = []
    for r in recorded:
        command = command_of(r.event)
        if command is not None and not isinstance(r.event, DouDizhuAbandoned):
            try:
                decided = decide(state, command)
                if decided[0] != r.event:
                    refused.append(
                        msg(
                            "event {version}: recorded {recorded}, the rules give {decided}",
                            version=r.envelope.version,
                            recorded=r.event,
                            decided=decided[0],
                        )
                    )
            except IllegalMove as exc:
                refused.append(
                    msg(
                        "event {version} ({event}): {reason}",
                        version=r.envelope.version,
                        event=r.event.event_name,
                        reason=reason_of(exc),
                    )
                )
        state = evolve(state, r.event)
    checks = [chain, Check(msg("every call and move legal"), not refused, refused or [msg("all re-decided")])]
    checks.append(_conservation(state))
    if state.payments is not None:
        total = sum(state.payments)
        checks.append(Check(msg("payments sum to zero"), total == 0, [msg("sum {total}", total=f"{total:+d}")]))
    report = DouDizhuAudit(state.game_id, checks, state)
    if claimed is not None:
        _explain(report, claimed)
    return report


def _conservation(state: DealState) -> Check:
    """Hands, kitty and the cards played are exactly the deck (when the hands were recorded)."""
    name = msg("cards add up to the deck")
    if state.summary is not None:
        return Check.not_checked(name, msg("recorded by its facts: no cards to count"))
    if state.dealt_hands is None or state.kitty is None:
        return Check.not_checked(name, msg("hands not recorded: nothing to count"))
    n = len(state.players)
    dealt = Counter(c for h in state.dealt_hands for c in h) + Counter(state.kitty)
    now = Counter(state.cards_played) + Counter(c for h in state.hands or () for c in h)
    if not state.kitty_taken:
        now += Counter(state.kitty)
    details: list[Message | str] = []
    if dealt != deck(n):
        extra = cards_text((dealt - deck(n)).elements())
        details.append(msg("the deal is not the {count}-player deck: {cards} too many", count=n, cards=extra))
    if now != dealt:
        missing = cards_text((dealt - now).elements()) or msg("none")
        details.append(msg("cards lost or invented in play: {cards} missing", cards=missing))
    counted = plural("{count} card accounted for", "{count} cards accounted for", sum(dealt.values()))
    return Check(name, not details, details or [counted])


_COUNTED: dict[str, Message] = {BOMB: msg("bomb"), BIG_BOMB: msg("bomb of six or more cards"), ROCKET: msg("rocket")}
"""What a score sheet counted as a doubling, in the reader's language when rendered."""


def _explain(report: DouDizhuAudit, claimed: dict[str, int]) -> None:
    state = report.state
    players = state.players
    unknown = [p for p in claimed if p not in players]
    if unknown:
        raise IllegalMove(
            msg(
                "claimed result names {name}, who did not play (players: {players})",
                name=repr(unknown[0]),
                players=", ".join(players),
            )
        )
    missing = [p for p in players if p not in claimed]
    if missing:
        raise IllegalMove(msg("the claimed result must name every player: {names} missing", names=", ".join(missing)))
    computed = dict(zip(players, state.payments or (0,) * len(players), strict=True))
    report.claimed = dict(claimed)
    report.difference = {p: claimed.get(p, 0) - computed[p] for p in players}
    landlord = state.landlord
    if landlord is None or not any(report.difference.values()):
        return
    farmer = next(p for s, p in enumerate(players) if s != landlord)
    claimed_stake, doublings = abs(claimed[farmer]), state.stake.times
    if claimed_stake == state.stake.amount:
        report.explanations.append(msg("the claim has the stake right but the wrong side winning"))
        return
    k = next((k for k in range(12) if state.bid << k == claimed_stake), None)
    if k is None:
        return
    why: Message | str = ""
    for d in state.stake.doublings:
        why = msg(
            "{before}, for {combination} (play {move})", before=why, combination=described(d.combination), move=d.move
        )
    for what in state.stake.counted:
        why = msg("{before}, for a {what} (counted)", before=why, what=_COUNTED.get(what, what))
    report.explanations.append(
        msg(
            "the claim's stake {stake} is the bid {bid} with {claimed}; the rules count {counted}{why}",
            stake=claimed_stake,
            bid=state.bid,
            claimed=plural("{count} doubling", "{count} doublings", k),
            counted=plural("{count} doubling", "{count} doublings", doublings),
            why=why,
        )
    )
    bombs = len([m for m in state.plays if m.combination is not None and m.combination.is_bomb_or_rocket])
    if state.summary is not None:
        bombs = state.summary.bombs + state.summary.rockets
    if len(players) == 4 and k == bombs > doublings:
        report.explanations.append(
            msg(
                "the claim doubles for every bomb, as three players do; with four players only bombs of six or more"
                " cards and the rocket double (docs/rules.md §D5)"
            )
        )


SCORE_KEYS = ("game_id", "landlord", "bid", "doublings", "stake", "winner", "payments")


def stake_view(deal: dict[str, Any]) -> dict[str, Any]:
    """`doko score --json` of a Dou Dizhu deal, from its `deal_view`: the landlord, the stake
    with each doubling, the winner and the payments."""
    return {key: deal[key] for key in SCORE_KEYS}


def audit_view(report: DouDizhuAudit) -> dict[str, Any]:
    """An audit for scripts: every check, the payments, and a claim's difference explained."""
    state = report.state
    payments = state.payments
    return {
        "game_id": report.game_id,
        "ok": report.ok,
        "checks": [c.view() for c in report.checks],
        "payments": None if payments is None else dict(zip(state.players, payments, strict=True)),
        "claimed": report.claimed,
        "difference": report.difference,
        "explanations": [render(e, "en") for e in report.explanations],
    }
