"""Rich renderables for scores, audits and rule sets. Rendering only: every figure comes from the library."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from doko_ledger.cli.user_text import user_text
from doko_ledger.i18n import msg, plural, render

if TYPE_CHECKING:
    from doko_ledger.doppelkopf.audit import AuditReport
    from doko_ledger.doppelkopf.house_rules import HouseRules
    from doko_ledger.doppelkopf.nights.place import DealPlace
    from doko_ledger.doppelkopf.rules.ruleset import Preset, RuleSet
    from doko_ledger.doppelkopf.score import GameScore
    from doko_ledger.projections.checks import Check
    from doko_ledger.store.base import Head


def rules_table(rules: RuleSet) -> Table:
    """Every option of a rule set by group, with its value (marking what differs from its
    preset), what it does in one line, and its section of docs/rules.md."""
    from doko_ledger.doppelkopf.rules.options import GROUP_WORDS, grouped

    changed = rules.changed_from_preset()
    title = (
        msg("rules: {preset} (changed)", preset=rules.preset)
        if changed
        else msg("rules: {preset}", preset=rules.preset)
    )
    table = Table(title=render(title), title_justify="left")
    table.add_column(render(msg("option")))
    table.add_column(render(msg("value")))
    table.add_column(render(msg("what it does")), style="dim")
    table.add_row("preset", rules.preset, render(msg("what the options start from (docs/rules.md §8)")))
    for group, options in grouped():
        table.add_section()
        table.add_row(Text(render(GROUP_WORDS[group]), style="bold"), "", "")
        for option in options:
            shown = Text(render(option.text(getattr(rules, option.name))))
            if option.name in changed:
                shown.stylize("bold yellow")
                shown.append("  " + render(msg("(changed)")), style="dim")
            table.add_row(option.name, shown, f"{render(option.line)} ({option.section})")
    return table


def presets_table(presets: Sequence[Preset]) -> Table:
    """The rule presets, one line each, with the options each changes."""
    table = Table(title=render(msg("rule presets")), title_justify="left")
    table.add_column(render(msg("preset")), style="bold")
    table.add_column(render(msg("what it is")))
    table.add_column(render(msg("changes")), style="dim")
    for preset in presets:
        changes = ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in preset.changes.items())
        table.add_row(preset.name, render(preset.description), changes or "-")
    return table


def house_rules_table(saved: Sequence[HouseRules]) -> Table:
    """The house-rule sets saved in the ledger, each with its preset and what it changes."""
    from doko_ledger.doppelkopf.rules.options import changes_text

    table = Table(title=render(msg("saved house rules")), title_justify="left")
    table.add_column(render(msg("name")), style="bold")
    table.add_column(render(msg("preset")))
    table.add_column(render(msg("changes")), style="dim")
    table.add_column(render(msg("version")))
    for house in saved:
        table.add_row(user_text(house.name), house.rules.preset, changes_text(house.rules) or "-", str(house.version))
    return table


def signed(value: int) -> Text:
    """A player's points: +n green, -n red, 0 dim."""
    return Text(f"{value:+d}", style="green" if value > 0 else "red" if value < 0 else "")


def score_lines_table(result: GameScore) -> Table:
    """The derivation: one line per item, who scores it, the points or doubling, the cause."""
    title = Text.assemble((result.game_id, "bold"), "  ·  " + render(msg("rules {preset}", preset=result.rules.preset)))
    changed = result.rules.changed_from_preset()
    if changed:
        title.append("  (" + ", ".join(f"{k}={v}" for k, v in changed.items()) + ")", style="dim")
    if result.place is not None:
        title.append_text(place_text(result.place))
    table = Table(title=title, title_justify="left")
    table.add_column(render(msg("item")))
    table.add_column(render(msg("party")))
    table.add_column(render(msg("points")), justify="right")
    table.add_column(render(msg("because")))
    score = result.score
    if score is None:
        table.add_row(render(result.note), "", "0", "")
        if result.bock is not None:
            factor = "" if result.bock.extra else f"×{result.bock.multiplier}"  # extra points: none without a winner
            table.add_row(render(result.bock.said), "", factor, render(result.bock.shown_cause))
        return table
    for line in score.lines:
        points = f"×{line.factor}" if line.factor != 1 else (f"+{line.points}" if line.points else "")
        party = "" if line.party is None else render(line.party.title)
        item = msg("{item} (special)", item=line.shown) if line.special else line.shown
        table.add_row(render(item), party, points, render(line.shown_cause))
    if result.valued is not None:  # entered by its value: its one line says it all
        return table
    if score.winner is None:
        why = (
            msg("each party's own items count; the value is Re's")
            if result.rules.scoring == "ddv"
            else msg("only the special points count; the value is Re's")
        )
        table.add_row(Text(render(msg("nobody wins")), style="bold"), "", str(score.value), render(why))
    else:
        winner = render(score.winner.title)
        table.add_row(Text(render(msg("{party} wins", party=winner)), style="bold"), winner, str(score.value), "")
    return table


def place_text(place: DealPlace) -> Text:
    """ "  ·  deal 3 of kitchen", a voided or corrected deal marked in yellow."""
    text = Text("  ·  " + place.said)
    if place.marks:
        text.append(f"  ({render(place.marks)})", style="bold yellow")
    return text


def penalties_table(result: GameScore) -> Table | None:
    if not result.penalties:
        return None
    table = Table(title=render(msg("penalties")), title_justify="left", box=None)
    table.add_column(render(msg("penalty")))
    for player in result.players:
        table.add_column(player, justify="right")
    table.add_column(render(msg("why")))
    for line in result.penalties:
        table.add_row(render(line.item), *(signed(p) for p in line.points), line.reason)
    return table


def deltas_table(results: list[GameScore], labels: Sequence[str] | None = None) -> Table:
    """Each player's points, one column per rule set (side by side for what-if), or per label."""
    table = Table(box=None)
    table.add_column(render(msg("player")))
    for i, result in enumerate(results):
        label = result.rules.preset + ("*" if result.rules.changed_from_preset() else "")
        table.add_column(labels[i] if labels else label, justify="right")
    for seat, player in enumerate(results[0].players):
        table.add_row(player, *(signed(r.deltas[seat]) for r in results))
    return table


def score(results: list[GameScore]) -> RenderableType:
    parts: list[RenderableType] = []
    for result in results:
        parts += [score_lines_table(result), Text("")]
        penalties = penalties_table(result)
        if penalties is not None:
            parts += [penalties, Text("")]
    parts.append(deltas_table(results))
    return Group(*parts)


def correction(number: int, game_id: str, new_id: str, before: GameScore | None, after: GameScore | None) -> Group:
    """A correction before it is appended: the deal's old and new score, side by side."""
    heading = msg("deal {number}: {game} as recorded, {new} corrected", number=number, game=game_id, new=new_id)
    parts: list[RenderableType] = [Text(render(heading), style="bold")]
    labels = (render(msg("as recorded")), render(msg("corrected")))
    for label, result in zip(labels, (before, after), strict=True):
        if result is None:
            parts += [Text(render(msg("{label}: not finished, no score", label=label))), Text("")]
        else:
            parts += [Text(label, style="bold"), score_lines_table(result), Text("")]
    if before is not None and after is not None:
        parts.append(deltas_table([before, after], labels))
    return Group(*parts)


def checks(game_id: str, done: Sequence[Check]) -> list[RenderableType]:
    """An audit's heading and each check: ok or FAIL, and what it found."""
    parts: list[RenderableType] = [Text(render(msg("audit of {game}", game=game_id)), style="bold")]
    for check in done:
        name = render(check.name)
        if check.ok is None:
            unchecked = " " + render(msg("(not checked)"))
            parts.append(Text.assemble(Text(f"  {check.mark}   ", style="dim"), name, (unchecked, "dim")))
        else:
            mark = Text("  ok  ", style="green") if check.ok else Text(" FAIL ", style="bold red")
            parts.append(Text.assemble(mark, name))
        for detail in check.details:
            parts.append(user_text(f"        {render(detail)}", style="red" if check.failed else ""))
    return parts


def audit(report: AuditReport) -> RenderableType:
    parts = checks(report.game_id, report.checks)
    heading = parts[0]
    if report.place is not None and isinstance(heading, Text):
        heading.append_text(place_text(report.place))
    if report.score is not None:
        parts += [Text(""), score_lines_table(report.score)]
    claim = report.claim
    if claim is not None:
        table = Table(title=render(msg("claimed against computed")), title_justify="left", box=None)
        table.add_column(render(msg("player")))
        for column in (msg("claimed"), msg("computed"), msg("difference")):
            table.add_column(render(column), justify="right")
        for player, computed in claim.computed.items():
            claimed = claim.claimed.get(player, 0)
            table.add_row(player, f"{claimed:+d}", f"{computed:+d}", signed(claim.difference[player]))
        parts += [Text(""), table]
        if not any(claim.difference.values()):
            parts.append(Text(render(msg("the claim matches the computed score")), style="green"))
        for lines in claim.lines:
            exactly = "; ".join(
                f"{render(line.shown)} ({line.points:+d}, {render(line.party.word) if line.party else ''})"
                for line in lines
            )
            parts.append(user_text(render(msg("the difference is exactly: {items}", items=exactly))))
        for name in claim.rules:
            parts.append(user_text(render(msg("the claim is right under: {rules}", rules=name)), style="cyan"))
        if claim.why:
            parts.append(user_text(render(claim.why), style="dim"))
        if any(claim.difference.values()) and not claim.lines and not claim.rules:
            unexplained = msg("no derivation line or single rule change explains the difference")
            parts.append(Text(render(unexplained), style="yellow"))
    return Group(*parts)


def head_line(head: Head) -> str:
    """The head as one line for a score sheet or a group chat."""
    events = plural("{count} event", "{count} events", head.events)
    return render(
        msg("ledger head {hash} (position {position}, {events})", hash=head.hash, position=head.position, events=events)
    )
