"""Rich renderables for `doko stats`: the table per player, the details, and a bar chart.
Rendering only: every figure comes from `doko_ledger.doppelkopf.stats`."""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from doko_ledger.cli.render_scores import signed
from doko_ledger.doppelkopf.rules.announcements import Announcement
from doko_ledger.doppelkopf.stats import PlayerStats, Stats
from doko_ledger.i18n import current, msg, plural, render

BAR_WIDTH = 16
"""Characters of the longest bar on each side of the chart's zero."""

_EIGHTHS = " ▏▎▍▌▋▊▉"


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{value:.0%}"


def _average(value: float | None, signed_value: bool = False) -> str:
    if value is None:
        return "–"
    form = "+0.00;-0.00" if signed_value else "0.0"
    language = current()
    if language == "en":  # no locale data read for English
        return f"{value:+.2f}" if signed_value else f"{value:.1f}"
    from babel.numbers import format_decimal

    from doko_ledger.i18n.formats import LOCALES

    shown = str(format_decimal(value, format=form, locale=LOCALES[language]))
    return shown if value >= 0 or not signed_value else shown.replace("+", "")


def _of(part: int, whole: int) -> str:
    return f"{part}/{whole}" if whole else "–"


def _scope(stats: Stats) -> Text:
    where = msg("the whole ledger") if stats.session_id is None else msg("card night {night}", night=stats.session_id)
    games = plural("{count} game", "{count} games", stats.games)
    text = Text.assemble(
        (render(msg("stats")), "bold"), " " + render(msg("of {where}: {games}", where=where, games=games))
    )
    if stats.unscored:
        text.append(", " + render(msg("{count} unscored (thrown in or voided)", count=stats.unscored)))
    if stats.in_progress:
        playing = msg("{count} still being played, not counted", count=stats.in_progress)
        text.append("; " + render(playing), style="dim")
    return text


def players_table(stats: Stats) -> Table:
    """One row per player: games, wins, score, solos, announcements, foxes, card points."""
    table = Table(
        title=_scope(stats), title_justify="left", box=box.SIMPLE_HEAVY, pad_edge=False, collapse_padding=True
    )
    table.add_column(render(msg("player")), no_wrap=True)
    columns = (msg("games"), msg("won"), msg("win%"), msg("total"), msg("Ø/game"), msg("solos"), msg("calls"))
    for name in (*columns, msg("foxes"), msg("Ø party"), msg("Ø own")):
        table.add_column(render(name), justify="right", overflow="fold")
    for p in stats.players:
        table.add_row(
            p.player,
            str(p.games) + ("*" if p.unscored else ""),
            str(p.wins),
            _percent(p.win_rate),
            signed(p.total),
            _average(p.average_score, signed_value=True),
            _of(p.solos_won, p.solos_played),
            _of(p.announcements_won, p.announcements_made),
            f"+{p.foxes_caught} −{p.foxes_lost}" if p.foxes_caught or p.foxes_lost else "–",
            _average(p.average_party_points),
            _average(p.average_own_points),
        )
    return table


def _legend() -> Text:
    return Text(
        render(
            msg(
                "* some unscored (thrown in or voided); win%: of the scored games; Ø/game: points per game played;"
                " solos and calls: won/made; foxes: +caught −lost; Ø party: the party's card points per"
                " scored game; Ø own: card points in the player's own tricks (games recorded card by card)"
            )
        ),
        style="dim",
    )


def announcements_table(players: tuple[PlayerStats, ...]) -> Table | None:
    """Announcements by kind, won/made, for the players who made any."""
    callers = [p for p in players if p.announcements_made]
    if not callers:
        return None
    table = Table(title=render(msg("announcements (won/made)")), title_justify="left", box=None)
    table.add_column(render(msg("player")), no_wrap=True)
    for kind in Announcement:
        table.add_column(render(kind.word), justify="right")
    for p in callers:
        table.add_row(p.player, *(_of(a.won, a.made) for a in p.announcements))
    return table


def solos_table(players: tuple[PlayerStats, ...]) -> Table | None:
    """Solos by type: played, won, lost and the soloist's points."""
    rows = [(p.player, s) for p in players for s in p.solos]
    if not rows:
        return None
    table = Table(title=render(msg("solos")), title_justify="left", box=None)
    table.add_column(render(msg("player")), no_wrap=True)
    table.add_column(render(msg("solo")))
    for name in (msg("played"), msg("won"), msg("lost"), msg("points")):
        table.add_column(render(name), justify="right")
    for player, s in rows:
        table.add_row(player, render(s.game_type.word), str(s.played), str(s.won), str(s.lost), signed(s.points))
    return table


def _bar(value: float, scale: float, *, leftward: bool = False) -> str:
    """A bar of `value / scale` of the full width, in eighths of a character; a `leftward` bar
    grows to the left (in halves: no left-growing eighths exist) and reads right to left."""
    eighths = round(abs(value) / scale * BAR_WIDTH * 8) if scale else 0
    if value and not eighths:
        eighths = 1
    full, part = divmod(eighths, 8)
    if leftward:
        tip = "" if not part else "▐" if part >= 4 or not full else ""
        return tip + "█" * full
    return "█" * full + (_EIGHTHS[part] if part else "")


def chart(stats: Stats) -> Table:
    """Horizontal bars per player: the total score around zero (red left, green right) and the
    win rate."""
    scale = max((abs(p.total) for p in stats.players), default=0)
    table = Table(title=render(msg("total score and win rate")), title_justify="left", box=None, show_header=False)
    table.add_column("player", no_wrap=True)
    table.add_column("below zero", justify="right", no_wrap=True)
    table.add_column("axis", no_wrap=True)
    table.add_column("above zero", no_wrap=True)
    table.add_column("total", justify="right")
    table.add_column("win rate", no_wrap=True)
    table.add_column("win %", justify="right")
    for p in stats.players:
        below = Text(_bar(p.total, scale, leftward=True) if p.total < 0 else "", style="red")
        above = Text(_bar(p.total, scale) if p.total > 0 else "", style="green")
        rate = p.win_rate
        wins = Text(_bar(rate, 1.0) if rate else "", style="cyan")
        wins.append("·" * max(0, BAR_WIDTH - len(wins.plain)), style="dim")
        table.add_row(p.player, below, "│", above, signed(p.total), wins, _percent(rate))
    return table


def stats(result: Stats) -> RenderableType:
    """The whole `doko stats` output."""
    if not result.players or not result.games:
        return _scope(result)
    parts: list[RenderableType] = [players_table(result), _legend()]
    for detail in (announcements_table(result.players), solos_table(result.players)):
        if detail is not None:
            parts += [Text(""), detail]
    parts += [Text(""), chart(result)]
    return Group(*parts)
