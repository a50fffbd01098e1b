"""Rich renderables for the CLI. Rendering only: every figure comes from the library."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from doko_ledger.cli.user_text import escaped, user_text
from doko_ledger.cli.words import day, localized
from doko_ledger.doppelkopf.cards import Card
from doko_ledger.doppelkopf.events import AbandonReason
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.replay import Replay
from doko_ledger.doppelkopf.rules.announcements import Party
from doko_ledger.doppelkopf.views import described, running_points
from doko_ledger.events.envelope import Recorded
from doko_ledger.i18n import current, msg, plural, render
from doko_ledger.store.base import VerifyReport
from doko_ledger.store.verify import READ_MODEL_STATES


def card_text(card: Card, *, winner: bool = False) -> Text:
    """A card with its suit symbol and the reader's rank letter (`♣Q`, `♣D` in German), red
    suits in red."""
    style = "red" if card.suit.is_red else ""
    if winner:
        style += " bold underline"
    return Text(card.localized(current()), style=style.strip())


def cards_text(cards: Sequence[Card]) -> Text:
    return Text(" ").join(card_text(c) for c in cards)


def game_header(state: GameState) -> Text:
    dealer = (
        msg("dealer {player} (sitting out)", player=state.dealer_name)
        if state.dealt_by is not None
        else msg("dealer {player}", player=state.dealer_name)
    )
    leads = msg("{player} leads", player=state.players[state.first_leader])
    rules = msg("rules {preset}", preset=state.rules.preset)
    head = Text.assemble(
        (escaped(state.game_id), "bold"),
        escaped(f"  {render(described(state))}  ·  {render(dealer)}  ·  {render(leads)}  ·  {render(rules)}"),
    )
    changed = state.rules.changed_from_preset()
    if changed:
        head.append(escaped("  (" + ", ".join(f"{k}={v}" for k, v in changed.items()) + ")"), style="dim")
    if state.played_on:
        head.append(escaped(f"  ·  {day(state.played_on)}"))
    return head


def _party_label(party: Party | None) -> str:
    return "?" if party is None else localized(party)


def _trick_notes(state: GameState, shown: Replay, number: int, remarks: Sequence[dict[str, Any]] = ()) -> Text:
    """Calls made during trick `number`, the parties that became public in it, and a mark for
    each note on it (the notes follow the table)."""
    notes = Text()
    for remark in remarks:
        if remark["trick"] == number:
            card = " " + render(msg("card {number}", number=remark["card"])) if remark["card"] else ""
            notes.append(escaped(f"✎{card} {remark['author']}  "), style="yellow")
    for call in state.calls:
        if call.trick == number:
            said = render(call.announcement.word)
            notes.append(escaped(f"{state.players[call.seat]}: {said}!  "), style="bold magenta")
    for r in shown.revelations:
        if r.trick == number:
            notes.append(
                escaped(f"{state.players[r.seat]} {localized(r.party)} ({localized(r.cause)})  "), style="cyan"
            )
    return notes


class TricksTable:
    """Every trick: who led, each player's card (winner marked), winner, points, running totals,
    calls and the parties that became public. Where that last column would be squeezed to a
    few letters (a terminal of 80 columns), the calls and parties follow the table instead,
    a line per trick."""

    def __init__(self, shown: Replay, show_all: bool, remarks: Sequence[dict[str, Any]] = ()) -> None:
        self.shown, self.show_all, self.remarks = shown, show_all, remarks

    NOTES_WIDTH = 30
    """The least width, borders included, that the column of calls and parties reads well in."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        rest = self.table(notes=False)
        if Measurement.get(console, options.update_width(10_000), rest).maximum + self.NOTES_WIDTH <= options.max_width:
            yield self.table(notes=True)
            return
        yield rest
        state = self.shown.state
        for trick in state.all_tricks:
            notes = _trick_notes(state, self.shown, trick.number, self.remarks)
            if notes.plain:
                yield Text(render(msg("trick {number}: ", number=trick.number)), style="dim") + notes

    def table(self, *, notes: bool) -> Table:
        shown, state = self.shown, self.shown.state
        players = state.players
        table = Table(title=game_header(state), title_justify="left", show_lines=False)
        table.add_column("#", justify="right")
        table.add_column(render(msg("lead")))
        for seat, name in enumerate(players):
            header = f"{name} ({_party_label(shown.truth[seat])})" if self.show_all else name
            table.add_column(header, justify="center")
        table.add_column(render(msg("won by")))
        table.add_column(render(msg("pts")), justify="right")
        table.add_column(render(msg("running")), justify="right", style="dim")
        if notes:
            table.add_column(render(msg("calls · made public")))
        running = running_points(state)
        for i, trick in enumerate(state.all_tricks):
            by_seat: dict[int, Text] = {}
            for index, (seat, card) in enumerate(trick.plays):
                text = card_text(card, winner=trick.winner == seat)
                if index == 0:
                    text = Text("›", style="dim") + text
                by_seat[seat] = text
            totals = " ".join(str(p) for p in running[i]) if i < len(running) else ""
            cells: list[RenderableType] = [
                str(trick.number),
                players[trick.leader],
                *(by_seat.get(s, Text("")) for s in range(len(players))),
                players[trick.winner] if trick.winner is not None else "…",
                str(trick.points),
                totals,
            ]
            if notes:
                cells.append(_trick_notes(state, shown, trick.number, self.remarks))
            table.add_row(*cells)
        return table


def before_play(shown: Replay) -> Text:
    """The reservations, a poverty's exchange and what they made public."""
    state = shown.state
    players = state.players
    text = Text()
    said = {seat: render(msg("healthy") if healthy else msg("reservation")) for seat, healthy in state.declared}
    said |= {n.seat: render((n.solo or n.kind).word) for n in state.named}
    if said:
        each = ", ".join(f"{players[s]} {w}" for s, w in said.items())
        text.append(escaped(render(msg("reservations: {said}", said=each))))
    poverty = state.poverty
    if poverty is not None:
        taker = poverty.acceptor
        text.append(escaped("\n" + render(msg("poverty: {player} passes", player=players[poverty.poor]))))
        if poverty.passed_cards:
            text.append(" ")
            text.append_text(cards_text(poverty.passed_cards))
        taken = msg("; taken by {player}", player=players[taker]) if taker is not None else msg("; nobody takes it")
        text.append(escaped(render(taken)))
        if poverty.returned_cards:
            text.append(render(msg(", who returns ")))
            text.append_text(cards_text(poverty.returned_cards))
    if state.abandoned:
        why = AbandonReason.said(state.abandoned)
        text.append("\n" + render(msg("the deal was thrown in: {why}", why=why)), style="bold")
    early = [r for r in shown.revelations if r.trick == 0]
    if early:
        known = ", ".join(f"{players[r.seat]} {localized(r.party)}" for r in early)
        text.append(escaped("\n" + render(msg("known at once: {parties}", parties=known))), style="cyan")
    return text


def announced_table(shown: Replay) -> Table | None:
    if not shown.announced:
        return None
    state = shown.state
    table = Table(title=render(msg("announced")), title_justify="left", box=None)
    for name in (msg("party"), msg("call"), msg("by"), msg("cards played"), msg("trick"), msg("how")):
        table.add_column(render(name))
    for a in shown.announced:
        table.add_row(
            localized(a.party),
            localized(a.announcement),
            "" if a.seat is None else state.players[a.seat],
            "" if a.played is None else str(a.played),
            "" if a.trick is None else str(a.trick),
            localized(a.cause) if a.implied else render(msg("said")),
        )
    return table


def totals_table(shown: Replay, show_all: bool) -> Table:
    state = shown.state
    table = Table(show_header=True, box=None)
    table.add_column(render(msg("player")))
    table.add_column(render(msg("party (known)")))
    if show_all:
        table.add_column(render(msg("party (true)")))
    table.add_column(render(msg("card points")), justify="right")
    table.add_column(render(msg("tricks")), justify="right")
    rows = zip(state.players, shown.public, shown.truth, state.points_won(), state.tricks_won(), strict=True)
    for name, public, truth, points, tricks in rows:
        parties = [_party_label(public)] + ([_party_label(truth)] if show_all else [])
        table.add_row(name, *parties, str(points), str(tricks))
    blanks = [""] * (2 if show_all else 1)
    table.add_row(
        Text(render(msg("total")), style="bold"), *blanks, str(sum(state.points_won())), str(len(state.tricks))
    )
    return table


def summary(shown: Replay) -> RenderableType:
    """A deal recorded by its facts: who was Re, the points, the calls, the special points."""
    state = shown.state
    facts = state.summary
    assert facts is not None
    names = state.players
    table = Table(title=game_header(state), title_justify="left", show_header=False)
    table.add_column("what")
    table.add_column("recorded")
    re_names = ", ".join(names[s] for s in facts.re_seats)
    table.add_row("Re", re_names)
    table.add_row(render(msg("card points")), f"Re {facts.re_points} : Kontra {240 - facts.re_points}")
    if facts.re_tricks is not None:
        table.add_row(render(msg("tricks")), f"Re {facts.re_tricks} : Kontra {facts.kontra_tricks}")
    calls = ", ".join(f"{names[c.seat]} {localized(c.announcement)}" for c in facts.announcements)
    table.add_row(render(msg("announcements")), calls or render(msg("none")))
    specials = ", ".join(
        f"{localized(s.party)} {localized(s.kind)}"
        + ("" if s.caught_from is None else " " + render(msg("from {player}", player=names[s.caught_from])))
        for s in facts.specials
    )
    table.add_row(render(msg("special points")), specials or render(msg("none")))
    return table


def value_only(shown: Replay) -> RenderableType:
    """A deal entered by its value only: who won and the value, nothing else is known."""
    state = shown.state
    assert state.valued is not None
    table = Table(title=game_header(state), title_justify="left", show_header=False)
    table.add_column("what")
    table.add_column("recorded")
    table.add_row(render(msg("value only")), localized(state.valued.words(state.players)))
    unknown = msg("the cards, the card points, the announcements and the special points")
    table.add_row(render(msg("not known")), render(unknown))
    return table


def replay(shown: Replay, show_all: bool = False, remarks: Sequence[dict[str, Any]] = ()) -> RenderableType:
    """The whole game at once; `remarks` (notes) are marked on their tricks."""
    if shown.state.valued is not None:
        return value_only(shown)
    if shown.state.summary is not None:
        return summary(shown)
    parts: list[RenderableType] = []
    intro = before_play(shown)
    if intro.plain:
        parts.append(intro)
    parts += [TricksTable(shown, show_all, remarks), Text("")]
    table = announced_table(shown)
    if table is not None:
        parts += [table, Text("")]
    parts.append(totals_table(shown, show_all))
    return Group(*parts)


def position(shown: Replay, number: int, show_all: bool = False) -> RenderableType:
    """The game before trick `number`: every hand as it stood, the parties known so far."""
    state = shown.state
    players = state.players
    before = "  ·  " + render(msg("before trick {number}", number=number))
    table = Table(title=Text.assemble(game_header(state), before), title_justify="left")
    table.add_column(render(msg("player")))
    table.add_column(render(msg("party (known)")))
    if show_all:
        table.add_column(render(msg("party (true)")))
    table.add_column(render(msg("hand")))
    table.add_column(render(msg("card points")), justify="right")
    points = state.points_won()
    leader = state.to_play
    for seat, name in enumerate(players):
        hand: RenderableType = (
            cards_text(state.order.sorted(state.hands[seat]))
            if state.hands is not None
            else Text(render(msg("(not recorded)")))
        )
        label = user_text(name, style="bold" if seat == leader else "")
        if seat == leader:
            label.append(" " + render(msg("leads")), style="dim")
        parties = [_party_label(shown.public[seat])] + ([_party_label(shown.truth[seat])] if show_all else [])
        table.add_row(label, *parties, hand, str(points[seat]))
    parts: list[RenderableType] = [table]
    if state.hands is None:
        so_far = plural("played so far: {count} card", "played so far: {count} cards", len(state.cards_played))
        parts.append(Text(render(so_far), style="dim"))
    return Group(*parts)


def log_table(recorded: Sequence[Recorded], payloads: Sequence[str]) -> Table:
    table = Table(title=recorded[0].envelope.stream if recorded else "log", title_justify="left")
    for name in (msg("pos"), msg("ver"), msg("event"), msg("payload"), msg("recorded"), msg("by"), msg("hash")):
        table.add_column(render(name), overflow="fold")
    for r, payload in zip(recorded, payloads, strict=True):
        e = r.envelope
        table.add_row(
            str(e.position),
            str(e.version),
            f"{e.event_type} v{e.schema_version}",
            payload,
            e.recorded_at,
            e.recorded_by,
            e.hash[:12],
        )
    return table


def verify_report(report: VerifyReport) -> RenderableType:
    if report.ok:
        events = plural("{count} event", "{count} events", report.events)
        streams = plural("{count} stream", "{count} streams", report.streams)
        matches = msg("{events} in {streams}; every hash chain matches", events=events, streams=streams)
        if report.expected_at is not None:
            matches = msg(
                "{events} in {streams}; every hash chain matches; it extends the expected head (position {position})",
                events=events,
                streams=streams,
                position=report.expected_at,
            )
        head = msg(
            "head {hash} (position {position}: it covers every event before it)",
            hash=report.head,
            position=report.position,
        )
        return Group(
            Text.assemble((render(msg("ledger verified: ")), "green bold"), f"{render(matches)}. {render(head)}"),
            Text(_read_models_line(report)),
        )
    count = len(report.problems) + report.more_problems
    problems = plural("{count} problem", "{count} problems", count)
    failed = (
        msg("ledger NOT verified: {problems}", problems=problems)
        if report.first_bad_position is None
        else msg(
            "ledger NOT verified: {problems}, the first at position {position}",
            problems=problems,
            position=report.first_bad_position,
        )
    )
    lines = [Text(render(failed), style="red bold")]
    lines += [user_text(f"  {localized(p)}") for p in report.problems]
    if report.more_problems:
        lines.append(Text("  " + render(msg("... and {count} more", count=report.more_problems))))
    lines.append(Text(_read_models_line(report)))
    return Group(*lines)


def _read_models_line(report: VerifyReport) -> str:
    """What was found of the read models, and how to repair them when they differ."""
    if report.read_models == "match":
        return render(msg("read models: exactly what folding the log gives"))
    if report.read_models == "differ":
        return render(
            msg(
                "read models: not what folding the log gives; `{repair}` folds them again from the log"
                " (if the log is as recorded: check it against a head noted earlier with `doko verify --expect HEAD`)",
                repair=report.repair,
            )
        )
    state = READ_MODEL_STATES.get(report.read_models, report.read_models)
    return render(msg("read models: {state} ({note})", state=state, note=localized(report.read_models_note)))
