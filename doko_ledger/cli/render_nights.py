"""Rich renderables for card nights: the running table, a chart of totals, payments, a live deal."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from doko_ledger.cli.render_scores import signed
from doko_ledger.cli.sheet import Column, Sheet
from doko_ledger.cli.user_text import escaped, user_text
from doko_ledger.cli.words import day, localized
from doko_ledger.doppelkopf.cards import Card
from doko_ledger.doppelkopf.game.state import GameState, Trick
from doko_ledger.doppelkopf.nights.schedule import NextDeal
from doko_ledger.doppelkopf.nights.standings import Payment, Standings
from doko_ledger.doppelkopf.rules.bock import TRIGGER_WORDS, Bock, BockCause
from doko_ledger.doppelkopf.rules.counting import COUNTING_SAID
from doko_ledger.doppelkopf.rules.play import legal_plays
from doko_ledger.i18n import current, msg, plural, render
from doko_ledger.i18n.formats import Money, Number

BARS = "▁▂▃▄▅▆▇█"


def next_deal(upcoming: NextDeal) -> Text:
    text = Text(render(msg("deal {number}", number=upcoming.number)), style="bold")
    dealer, playing = upcoming.dealer, ", ".join(upcoming.playing)
    text.append(escaped(render(msg(": {dealer} deals; playing {players}", dealer=dealer, players=playing))))
    if upcoming.bock is not None and upcoming.bock.extra:
        text.append("  " + render(msg("bock +{extra}", extra=upcoming.bock.extra)), style="bold magenta")
    elif upcoming.multiplier > 1:
        text.append("  " + render(msg("bock ×{times}", times=upcoming.multiplier)), style="bold magenta")
    if upcoming.forced_solo_by:
        due = ", ".join(upcoming.forced_solo_by)
        text.append(escaped("  " + render(msg("forced solo due: {players}", players=due))), style="bold yellow")
    if upcoming.over:
        text.append("  " + render(msg("the tournament is complete")), style="bold")
    return text


def sessions_table(nights: Sequence[Standings]) -> Table:
    table = Table(title=render(msg("card nights")), title_justify="left")
    for name in (msg("night"), msg("players"), msg("deals"), msg("leader"), ""):
        table.add_column(render(name))
    for night in nights:
        leader = max(night.table, key=lambda s: s.total) if night.table else None
        table.add_row(
            night.session_id,
            ", ".join(night.players),
            localized(Number(len(night.rows))),
            f"{leader.player} {leader.total:+d}" if leader is not None and night.rows else "",
            render(msg("closed") if night.closed else msg("open")),
        )
    return table


def chart(night: Standings) -> Sheet:
    """Each player's running total over the night as a bar line, lowest to highest total."""
    values = [r.totals.get(p, 0) for r in night.rows for p in night.players] or [0]
    low, high = min(values), max(values)
    span = (high - low) or 1
    columns = (Column("player"), Column("chart"), Column("total", right=True))
    table = Sheet(columns, title=render(msg("running totals")), ruled=False, header=False)
    for player in night.players:
        line = "".join(BARS[(r.totals.get(player, 0) - low) * (len(BARS) - 1) // span] for r in night.rows)
        total = night.rows[-1].totals.get(player, 0) if night.rows else 0
        table.add_row(player, Text(line, style="cyan"), signed(total))
    table.add_row("", Text(render(msg("from {low} to {high}", low=f"{low:+d}", high=f"{high:+d}")), style="dim"), "")
    return table


def standings(night: Standings, played_on: str | None = None) -> RenderableType:
    """Every deal (its match and round, the deal's points on the sheet and each running total,
    labelled apart), the changes of the night marked where they took effect, the table, a
    chart of the totals, the counting in force, the bock rounds, and what comes next; the
    night's day (`played_on`, as recorded) in the title when it has one."""
    title = msg("card night {night}", night=night.session_id)
    if played_on:
        title = msg("card night {night} of {day}", night=night.session_id, day=day(played_on))
    caption = msg(
        "each player: the deal's points, then Σ the running total after it (as the sheet counts them);"
        " · sits out, blank: not at the table; ▸ the night changed from that deal on (listed below)"
    )
    bock = any(r.bock_round is not None for r in night.rows)
    columns = [Column("#", right=True), *(Column(render(name), right=True) for name in (msg("match"), msg("round")))]
    columns += [Column(render(msg("game")), wraps=True), Column(render(msg("dealer")))]
    columns += [Column("×", right=True)] if bock else []
    columns += [Column(player, right=True) for player in night.players]
    deals = Sheet(columns, title=render(title), caption=render(caption))
    for row in night.rows:
        outcome = row.outcome
        kind = render(
            msg("thrown in") if outcome.abandoned else (outcome.game_type.word if outcome.game_type else msg("playing"))
        )
        if outcome.valued is not None:
            kind = render(msg("value only {value}", value=outcome.valued.value))
        if outcome.solo_by:
            kind += f" ({outcome.solo_by})"
        if row.compulsory:
            kind += " " + render(msg("compulsory"))
        if row.forced:
            kind += " " + render(msg("forced"))
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
    columns = [Column(render(msg("player")))]
    counted = (msg("total"), msg("played"), msg("won"), msg("solos"), msg("solos won"))
    columns += [Column(render(name), right=True) for name in counted]
    columns += [Column("")]
    columns += [Column(render(msg("money")), right=True)] if night.rate is not None else []
    summary = Sheet(columns, ruled=False)
    for s in sorted(night.table, key=lambda s: -s.total):
        extra = [money(s.money, sign=True)] if s.money is not None else []
        owes = Text(render(msg("owes a solo")), style="yellow") if s.owes_solo else Text("")
        counts = (localized(Number(n)) for n in (s.played, s.won, s.solos, s.solos_won))
        summary.add_row(s.player, signed(s.total), *counts, owes, *extra)
    parts: list[RenderableType] = [deals]
    parts += [_change(r.number, change) for r in night.rows for change in r.changes]
    parts += [Text(""), summary, Text(""), chart(night), Text("")]
    parts.append(Text(render(msg("counting in force: {counting}", counting=COUNTING_SAID[night.counting]))))
    if night.seating != night.players:
        parts.append(Text(escaped(render(msg("at the table: {players}", players=", ".join(night.seating))))))
    parts.append(next_deal(night.next))
    for change in night.next.changes:
        parts.append(_change(night.next.number, change))
    if night.bock_deals_left:
        queued = msg("bock deals still queued: {count}", count=Number(night.bock_deals_left))
        parts.append(Text(render(queued), style="magenta"))
    for cause in night.bock_causes:
        parts.append(Text(escaped(_cause_words(cause)), style="magenta"))
    return Group(*parts)


def _change(number: int, change: object) -> Text:
    """`▸ from deal 3: Eva joins` (a change of the night, where it took effect)."""
    return Text(escaped(render(msg("▸ from deal {number}: {change}", number=number, change=change))), style="cyan")


def money(amount: Decimal, *, sign: bool = False) -> str:
    """An amount of money in the language's form (`0,05 €`), with its `+` when `sign`."""
    plus = "+" if sign and amount > 0 else ""
    if current() == "en":  # as Babel writes it, without reading its locale data
        return f"{plus}{'-' if amount < 0 else ''}€{abs(amount):,.2f}"
    return plus + Money(amount).localized(current())


def _bock_mark(bock: Bock | None) -> str:
    """A deal's bock in its bock column: `2`, `4` (stacked), `+1` (extra points); blank outside bock."""
    if bock is None:
        return ""
    return f"+{bock.extra}" if bock.extra else str(bock.multiplier)


def _cause_words(cause: BockCause) -> str:
    """ "bock in force: deal 3 (lost solo), 2 deals left" / "bock queued: declared by Anna (Hochzeit), 4 deals"."""
    origin = msg("deal {number}", number=cause.deal) if cause.deal else msg("before the first deal")
    what: object = ", ".join(render(TRIGGER_WORDS.get(t, t)) for t in cause.triggers)
    if cause.declared_by is not None:
        who = cause.declared_by
        what = (
            msg("declared by {player} ({reason})", player=who, reason=cause.reason)
            if cause.reason
            else msg("declared by {player}", player=who)
        )
    left = plural("{count} deal left", "{count} deals left", cause.deals_left)
    if cause.rounds > 1:
        rounds = plural("{count} round", "{count} rounds", cause.rounds)
        return render(
            msg("bock in force: {origin}, {what}, {rounds}, {left}", origin=origin, what=what, rounds=rounds, left=left)
            if cause.in_force
            else msg(
                "bock queued: {origin}, {what}, {rounds}, {left}", origin=origin, what=what, rounds=rounds, left=left
            )
        )
    return render(
        msg("bock in force: {origin}, {what}, {left}", origin=origin, what=what, left=left)
        if cause.in_force
        else msg("bock queued: {origin}, {what}, {left}", origin=origin, what=what, left=left)
    )


def payments(items: Sequence[Payment], rate: Decimal | None) -> RenderableType:
    if not items:
        return Text(render(msg("everybody is even: nothing to pay")))
    lines = [
        user_text(
            render(msg("{payer} pays {payee} {amount}", payer=p.payer, payee=p.payee, amount=money(p.amount)))
            if rate is not None
            else render(
                plural(
                    "{payer} pays {payee} {count} point",
                    "{payer} pays {payee} {count} points",
                    int(p.amount),
                    payer=p.payer,
                    payee=p.payee,
                )
            )
        )
        for p in items
    ]
    return Group(*lines, Text(render(plural("{count} payment", "{count} payments", len(items))), style="dim"))


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
    shown = Text(render(msg("trick {number}: ", number=trick.number)))
    return shown + Text(" ").join(Text(f"{game.players[s]} ") + _card(c) for s, c in trick.plays)


def live(game: GameState, before: GameState | None = None) -> RenderableType:
    """The deal being played: what the last entries did (each call echoed, each trick they
    completed with its winner and points), the trick on the table and who leads it, whose
    turn, and the legal cards when the hands are known. Cards as typed: CQ, H10."""
    from doko_ledger.cli.render import game_header

    players = game.players
    parts: list[RenderableType] = [game_header(game)]
    if game.game_type is None:
        parts.append(Text(render(msg("reservations open: NAME=club_solo / NAME=marriage, or play the first card"))))
        return Group(*parts)
    for call in game.calls[len(before.calls) if before is not None else len(game.calls) :]:
        parts.append(Text(f"{players[call.seat]}: {localized(call.announcement)}!", style="bold magenta"))
    for won in game.tricks[len(before.tricks) if before is not None else len(game.tricks) :]:
        assert won.winner is not None
        done = _trick(game, won)
        taken = plural(
            " · won by {player}, {count} point",
            " · won by {player}, {count} points",
            won.points,
            player=players[won.winner],
        )
        done.append(render(taken), style="bold")
        parts.append(done)
    if game.finished or game.abandoned is not None:
        parts.append(Text(render(msg("the deal is complete")), style="bold"))
        return Group(*parts)
    seat = game.to_play
    trick = game.current
    if trick is None and seat is not None:
        parts.append(
            Text(render(msg("trick {number}: {player} leads", number=len(game.tricks) + 1, player=players[seat])))
        )
    elif trick is not None:
        parts.append(_trick(game, trick))
    if seat is not None:
        turn = user_text(render(msg("{player} to play", player=players[seat])), style="bold")
        if game.hands is not None:
            legal = legal_plays(game.hands[seat], trick.cards if trick else (), game.order)
            turn.append(": ")
            turn.append_text(_cards(game.order.sorted(list(legal))))
        parts.append(turn)
    return Group(*parts)
