"""Rich renderables for card nights: the running table, a chart of totals, payments, a live deal."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from doko_ledger.cli.render_scores import signed
from doko_ledger.cli.user_text import escaped, user_text
from doko_ledger.doppelkopf.cards import Card
from doko_ledger.doppelkopf.game.state import GameState, Trick
from doko_ledger.doppelkopf.nights.schedule import NextDeal
from doko_ledger.doppelkopf.nights.standings import Payment, Standings
from doko_ledger.doppelkopf.rules.bock import TRIGGER_WORDS, Bock, BockCause
from doko_ledger.doppelkopf.rules.counting import COUNTING_WORDS
from doko_ledger.doppelkopf.rules.play import legal_plays
from doko_ledger.numbers import counted

BARS = "▁▂▃▄▅▆▇█"


def next_deal(upcoming: NextDeal) -> Text:
    text = Text.assemble(("deal ", "bold"), (str(upcoming.number), "bold"), escaped(f": {upcoming.dealer} deals; "))
    text.append(escaped("playing " + ", ".join(upcoming.playing)))
    if upcoming.bock is not None and upcoming.bock.extra:
        text.append(f"  bock +{upcoming.bock.extra}", style="bold magenta")
    elif upcoming.multiplier > 1:
        text.append(f"  bock ×{upcoming.multiplier}", style="bold magenta")
    if upcoming.forced_solo_by:
        text.append(escaped("  forced solo due: " + ", ".join(upcoming.forced_solo_by)), style="bold yellow")
    if upcoming.over:
        text.append("  the tournament is complete", style="bold")
    return text


def sessions_table(nights: Sequence[Standings]) -> Table:
    table = Table(title="card nights", title_justify="left")
    for name in ("night", "players", "deals", "leader", ""):
        table.add_column(name)
    for night in nights:
        leader = max(night.table, key=lambda s: s.total) if night.table else None
        table.add_row(
            night.session_id,
            ", ".join(night.players),
            str(len(night.rows)),
            f"{leader.player} {leader.total:+d}" if leader is not None and night.rows else "",
            "closed" if night.closed else "open",
        )
    return table


def chart(night: Standings) -> Table:
    """Each player's running total over the night as a bar line, lowest to highest total."""
    values = [r.totals.get(p, 0) for r in night.rows for p in night.players] or [0]
    low, high = min(values), max(values)
    span = (high - low) or 1
    table = Table(title="running totals", title_justify="left", box=None, show_header=False)
    table.add_column("player")
    table.add_column("chart")
    table.add_column("total", justify="right")
    for player in night.players:
        line = "".join(BARS[(r.totals.get(player, 0) - low) * (len(BARS) - 1) // span] for r in night.rows)
        total = night.rows[-1].totals.get(player, 0) if night.rows else 0
        table.add_row(player, Text(line, style="cyan"), signed(total))
    table.add_row("", Text(f"from {low:+d} to {high:+d}", style="dim"), "")
    return table


def standings(night: Standings) -> RenderableType:
    """Every deal (its match and round, the deal's points on the sheet and each running total,
    labelled apart), the changes of the night marked where they took effect, the table, a
    chart of the totals, the counting in force, the bock rounds, and what comes next."""
    deals = Table(
        title=f"card night {night.session_id}",
        title_justify="left",
        caption="each player: the deal's points, then Σ the running total after it (as the sheet counts them);"
        " · sits out, blank: not at the table; ▸ the night changed from that deal on (listed below)",
        caption_justify="left",
    )
    bock = any(r.bock_round is not None for r in night.rows)
    for name in ("#", "match", "round", "game", "dealer", *(["×"] if bock else [])):
        deals.add_column(name, justify="left" if name in ("game", "dealer") else "right")
    for player in night.players:
        deals.add_column(player, justify="right", no_wrap=True)
    for row in night.rows:
        outcome = row.outcome
        kind = "thrown in" if outcome.abandoned else (outcome.game_type.value if outcome.game_type else "playing")
        if outcome.valued is not None:
            kind = f"value only {outcome.valued.value}"
        if outcome.solo_by:
            kind += f" ({outcome.solo_by})"
        if row.compulsory:
            kind += " compulsory"
        if row.forced:
            kind += " forced"
        cells: list[Text] = []
        for player in night.players:
            if player not in row.totals:
                cells.append(Text(""))
                continue
            cell = signed(row.sheet[player]) if player in row.playing else Text("·", style="dim")
            cell.append(f" Σ{row.totals[player]:+d}", style="dim")
            cells.append(cell)
        times = [Text(_bock_mark(row.bock_round), style="magenta")] if bock else []
        number = f"{row.number}▸" if row.changes else str(row.number)
        deals.add_row(number, str(row.match), str(row.round), kind, row.dealer, *times, *cells)
    summary = Table(box=None)
    for name in ("player", "total", "played", "won", "solos", "solos won", ""):
        summary.add_column(name, justify="left" if name in ("player", "") else "right")
    if night.rate is not None:
        summary.add_column("money", justify="right")
    for s in sorted(night.table, key=lambda s: -s.total):
        extra = [f"{s.money:+.2f}"] if s.money is not None else []
        owes = Text("owes a solo", style="yellow") if s.owes_solo else Text("")
        summary.add_row(
            s.player, signed(s.total), str(s.played), str(s.won), str(s.solos), str(s.solos_won), owes, *extra
        )
    parts: list[RenderableType] = [deals]
    parts += [
        Text(escaped(f"▸ from deal {r.number}: {change}"), style="cyan") for r in night.rows for change in r.changes
    ]
    parts += [Text(""), summary, Text(""), chart(night), Text("")]
    parts.append(Text(f"counting in force: {COUNTING_WORDS[night.counting]}"))
    if night.seating != night.players:
        parts.append(Text(escaped("at the table: " + ", ".join(night.seating))))
    parts.append(next_deal(night.next))
    for change in night.next.changes:
        parts.append(Text(escaped(f"▸ from deal {night.next.number}: {change}"), style="cyan"))
    if night.bock_deals_left:
        parts.append(Text(f"bock deals still queued: {night.bock_deals_left}", style="magenta"))
    for cause in night.bock_causes:
        parts.append(Text(escaped(_cause_words(cause)), style="magenta"))
    return Group(*parts)


def _bock_mark(bock: Bock | None) -> str:
    """A deal's bock in its bock column: `2`, `4` (stacked), `+1` (extra points); blank outside bock."""
    if bock is None:
        return ""
    return f"+{bock.extra}" if bock.extra else str(bock.multiplier)


def _cause_words(cause: BockCause) -> str:
    """ "bock in force: deal 3 (lost solo), 2 deals left" / "bock queued: declared by Anna (Hochzeit), 4 deals"."""
    state = "in force" if cause.in_force else "queued"
    origin = f"deal {cause.deal}" if cause.deal else "before the first deal"
    what = ", ".join(TRIGGER_WORDS.get(t, t) for t in cause.triggers)
    if cause.declared_by is not None:
        what = f"declared by {cause.declared_by}" + (f" ({cause.reason})" if cause.reason else "")
    rounds = f", {cause.rounds} rounds" if cause.rounds > 1 else ""
    return f"bock {state}: {origin}, {what}{rounds}, {counted(cause.deals_left, 'deal')} left"


def payments(items: Sequence[Payment], rate: Decimal | None) -> RenderableType:
    if not items:
        return Text("everybody is even: nothing to pay")
    unit = "" if rate is not None else " points"
    lines = [
        user_text(f"{p.payer} pays {p.payee} " + (f"{p.amount:.2f}" if rate else f"{p.amount}") + unit) for p in items
    ]
    return Group(*lines, Text(counted(len(items), "payment"), style="dim"))


def dealt(game: GameState) -> RenderableType:
    """The game's header, then each player's hand in card order."""
    from doko_ledger.cli.render import game_header  # with the views: not loaded for the standings

    table = Table(show_header=False)
    table.add_column("player")
    table.add_column("hand")
    assert game.hands is not None
    for name, hand in zip(game.players, game.hands, strict=True):
        table.add_row(name, _cards(game.order.sorted(hand)))
    return Group(game_header(game), table)


def _card(card: Card) -> Text:
    """A card in the notation the table types (`CQ`, `H10`), red suits in red."""
    return Text(str(card), style="red" if card.suit.is_red else "")


def _cards(cards: Sequence[Card]) -> Text:
    return Text(" ").join(_card(c) for c in cards)


def _trick(game: GameState, trick: Trick) -> Text:
    """`trick 3: Ben S10 Clara S9 Dirk SA Anna SK` (who led comes first)."""
    shown = Text(f"trick {trick.number}: ")
    return shown + Text(" ").join(Text(f"{game.players[s]} ") + _card(c) for s, c in trick.plays)


def live(game: GameState, before: GameState | None = None) -> RenderableType:
    """The deal being played: what the last entries did (each call echoed, each trick they
    completed with its winner and points), the trick on the table and who leads it, whose
    turn, and the legal cards when the hands are known. Cards as typed: CQ, H10."""
    from doko_ledger.cli.render import game_header

    players = game.players
    parts: list[RenderableType] = [game_header(game)]
    if game.game_type is None:
        parts.append(Text("reservations open: NAME=club_solo / NAME=marriage, or play the first card"))
        return Group(*parts)
    for call in game.calls[len(before.calls) if before is not None else len(game.calls) :]:
        parts.append(Text(f"{players[call.seat]}: {call.announcement.label}!", style="bold magenta"))
    for won in game.tricks[len(before.tricks) if before is not None else len(game.tricks) :]:
        assert won.winner is not None
        done = _trick(game, won)
        done.append(f" · won by {players[won.winner]}, {won.points} points", style="bold")
        parts.append(done)
    if game.finished or game.abandoned is not None:
        parts.append(Text("the deal is complete", style="bold"))
        return Group(*parts)
    seat = game.to_play
    trick = game.current
    if trick is None and seat is not None:
        parts.append(Text(f"trick {len(game.tricks) + 1}: {players[seat]} leads"))
    elif trick is not None:
        parts.append(_trick(game, trick))
    if seat is not None:
        turn = user_text(f"{players[seat]} to play", style="bold")
        if game.hands is not None:
            legal = legal_plays(game.hands[seat], trick.cards if trick else (), game.order)
            turn.append(": ")
            turn.append_text(_cards(game.order.sorted(list(legal))))
        parts.append(turn)
    return Group(*parts)
