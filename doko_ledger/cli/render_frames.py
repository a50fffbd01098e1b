"""Rich renderables for frame-by-frame replays (the terminal stepper and its static print).

They draw the plain-data frames of `views.frames_view`, so the terminal shows exactly
what the HTML export shows, perspective and all.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from doko_ledger.cli.render import card_text
from doko_ledger.cli.user_text import escaped, user_text
from doko_ledger.cli.words import day, localized
from doko_ledger.doppelkopf.cards import parse_card
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.i18n import msg, plural, render

if TYPE_CHECKING:
    from doko_ledger.doppelkopf.analysis_marks import Mark

KEYS = msg("→/← card · ↓/↑ trick · Home/End · number+Enter: trick · q: quit")
MARKED = "bold yellow"
"""How a costly card's glyph and its verdict are drawn."""


def _card(text: str, *, winner: bool = False) -> Text:
    return card_text(parse_card(text), winner=winner)


def _hand(cards: Sequence[str] | None, recorded: bool) -> Text:
    if cards is None:
        return Text(render(msg("hidden") if recorded else msg("not recorded")), style="dim")
    return Text(" ").join(_card(c) for c in cards)


def _party(frame: Mapping[str, Any], player: str) -> Text:
    if frame["parties"] is None:
        return Text("·", style="dim")
    known = frame["parties"][player]
    text = Text("?" if known is None else known.title(), style="" if known else "dim")
    truth = frame["true_parties"]
    if truth is not None and truth[player] != known and truth[player] is not None:
        text.append(f" ({truth[player].title()})", style="dim")
    return text


def header(view: Mapping[str, Any]) -> Text:
    head = Text.assemble((escaped(view["game_id"]), "bold"))
    if view["game_type"]:
        head.append(f"  {localized(GameType(view['game_type']))}")
        if view["declarer"]:
            head.append(escaped(f" ({view['declarer']})"))
    head.append(escaped("  ·  " + render(msg("dealer {player}", player=view["dealer"]))))
    if view["played_on"]:
        head.append(escaped(f"  ·  {day(view['played_on'])}"))
    perspective = view["perspective"]
    if view["seen_as"] != "all":
        seen = render(
            msg("tournament view") if view["seen_as"] == "tournament" else msg("as {player}", player=perspective)
        )
        head.append(escaped(f"  ·  {seen}"), style="cyan")
    return head


def frame(view: Mapping[str, Any], index: int, *, keys: bool = False, marks: Marks | None = None) -> RenderableType:
    """One frame: every player's party, hand, card on the table, tricks and points; the calls,
    the notes on this moment and, at the end, the result. With an analysis's `marks`, each
    costly card on the table carries its glyph, the verdict on the card just played is said
    under the table, and the line that every hand was known closes the frame."""
    shown = view["frames"][index]
    recorded = any(h is not None for f in view["frames"] for h in f["hands"].values()) or view["seen_as"] != "all"
    caption = render(shown["caption"]) if shown["caption"] else shown["caption"]
    table = Table(title=header(view), title_justify="left", caption=caption, caption_justify="left")
    for name in (msg("player"), msg("party"), msg("hand")):
        table.add_column(render(name))
    table.add_column(render(msg("trick")), justify="center")
    table.add_column(render(msg("tricks")), justify="right")
    table.add_column(render(msg("points")), justify="right")
    on_table = {play["player"]: play["card"] for play in shown["trick_cards"]}
    glyphs = {} if marks is None else _glyphs(shown, marks)
    for player in view["players"]:
        label = user_text(player, style="bold" if player == shown["leader"] else "")
        if player == shown["leader"]:
            label.append(" ▸", style="bold green")
        card = on_table.get(player)
        points = "·" if shown["card_points"] is None else str(shown["card_points"][player])
        table.add_row(
            label,
            _party(shown, player),
            _hand(shown["hands"][player], recorded),
            Text("")
            if card is None
            else _marked(_card(card, winner=player == shown["trick_winner"]), glyphs.get(player)),
            "·" if shown["tricks_won"] is None else str(shown["tricks_won"][player]),
            points,
        )
    parts: list[RenderableType] = [table]
    if shown.get("party_points"):
        parts.append(Text(render(msg("card points: {totals}", totals=party_totals(shown))), style="bold"))
    said = calls(shown)
    if said is not None:
        parts.append(said)
    parts += [_note_panel(n) for n in shown["notes"]]
    if index == len(view["frames"]) - 1 and view["result"] is not None:
        parts.append(result(view["result"]))
    if marks is not None:
        parts += analysis_lines(marks, shown["step"])
    footer = frame_number(view, index)
    parts.append(Text(footer + (f"  ·  {render(KEYS)}" if keys else ""), style="dim"))
    return Group(*parts)


Marks = Mapping[int, "Mark"]
"""An analysis's marks by the step of the card each marks (`doppelkopf.analysis_marks.marks`)."""


def _glyphs(shown: Mapping[str, Any], marks: Marks) -> dict[str, str]:
    """The glyph of each costly card on the table, by who played it: the trick's cards are the
    steps before and up to this frame's."""
    first = shown["step"] - shown["card"] + 1
    return {
        play["player"]: mark.glyph
        for step, play in enumerate(shown["trick_cards"], first)
        if (mark := marks.get(step)) is not None
    }


def _marked(card: Text, glyph: str | None) -> Text:
    if glyph is not None:
        card.append(glyph, style=MARKED)
    return card


def analysis_lines(marks: Marks, step: int | None = None) -> list[Text]:
    """The verdict on the card of `step` if it is marked (every marked card's without a step, in
    play order), and the line that says every hand was known."""
    from doko_ledger.doppelkopf.analysis.view import NOTE
    from doko_ledger.i18n import msg, render

    chosen = sorted(marks) if step is None else [step] if step in marks else []
    lines = [user_text(f"{marks[s].glyph} {render(marks[s].line)}", style=MARKED) for s in chosen]
    if step is None and not marks:
        lines.append(Text(render(msg("no card cost its party anything")), style=MARKED))
    return [*lines, Text(render(NOTE), style="dim")]


def analysis(marks: Marks) -> RenderableType:
    """Every marked card's verdict, in play order, and the line that says every hand was known:
    what the printed replay ends with."""
    return Group(*analysis_lines(marks))


def calls(shown: Mapping[str, Any]) -> Text | None:
    """The calls made so far, as they were said (none: nothing, or hidden)."""
    made = shown["announcements"]
    if not made:
        return None
    said = [f"{a['player'] or a['party'].title()}: {a['announcement']}" for a in made if not a["implied"]]
    return user_text(render(msg("calls: {calls}", calls=", ".join(said))), style="magenta")


def frame_number(view: Mapping[str, Any], index: int) -> str:
    """`frame N of M`: N is the frame's step (the cards played so far), as in `#step-N` links
    and the HTML export."""
    return render(msg("frame {step} of {last}", step=view["frames"][index]["step"], last=view["frames"][-1]["step"]))


def party_totals(shown: Mapping[str, Any]) -> str:
    """A score-sheet deal's card points (and tricks, where recorded) per party."""
    tricks = shown.get("party_tricks")
    return " · ".join(
        f"{party.title()} {points}"
        + (" " + render(plural("in {count} trick", "in {count} tricks", tricks[party])) if tricks else "")
        for party, points in shown["party_points"].items()
    )


def local_minute(at: str) -> str:
    """A stored UTC time (ISO 8601) in this computer's time zone, to the minute."""
    try:
        moment = datetime.fromisoformat(at)
    except (TypeError, ValueError):
        return str(at)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")


def result(shown: Mapping[str, Any]) -> Text:
    text = Text(render(msg("result: ")), style="bold")
    winner, value = shown["winner"], shown["value"]
    won = msg("{party} wins, value {value}", party=winner.title(), value=value) if winner else None
    text.append(render(won or msg("nobody wins, value {value}", value=value)) + "  ·  ")
    text.append(escaped("  ".join(f"{p} {d:+d}" for p, d in shown["deltas"].items())))
    for line in shown["lines"]:
        text.append(escaped(f"\n  {render(line)}"), style="dim")
    return text


def tricks(view: Mapping[str, Any], marks: Marks | None = None) -> RenderableType:
    """The static print of a perspective: each trick as the viewer saw it once it was complete;
    with an analysis's `marks`, each costly card with its glyph."""
    frames = view["frames"]
    unfinished = frames[-1]["trick"] and frames[-1]["trick_winner"] is None
    ends = [f for f in frames if f["trick_winner"] is not None] + ([frames[-1]] if unfinished else [])
    table = Table(title=header(view), title_justify="left")
    table.add_column("#", justify="right")
    for player in view["players"]:
        table.add_column(player, justify="center")
    table.add_column(render(msg("won by")))
    table.add_column(render(msg("points (running)")), justify="right")
    table.add_column(render(msg("parties known")))
    for shown in ends:
        glyphs = {} if marks is None else _glyphs(shown, marks)
        cards = {
            p["player"]: _marked(_card(p["card"], winner=p["player"] == shown["trick_winner"]), glyphs.get(p["player"]))
            for p in shown["trick_cards"]
        }
        points = "·" if shown["card_points"] is None else " ".join(str(v) for v in shown["card_points"].values())
        known = "" if shown["parties"] is None else _known(shown["parties"])
        table.add_row(
            str(shown["trick"]),
            *(cards.get(p, Text("")) for p in view["players"]),
            shown["trick_winner"] or "",
            points,
            known,
        )
    parts: list[RenderableType] = [table]
    if frames[-1].get("party_points"):  # a deal recorded by its facts: no tricks, the sheet's points
        parts.append(Text(render(msg("card points: {totals}", totals=party_totals(frames[-1]))), style="bold"))
        said = calls(frames[-1])
        if said is not None:
            parts.append(said)
    own = [p for p in view["players"] if p == view["perspective"] and view["seen_as"] == "player"]
    if own and frames[0]["hands"][own[0]] is not None:
        hand = render(msg("{player}'s hand: ", player=own[0]))
        parts.insert(0, Text.assemble(escaped(hand), _hand(frames[0]["hands"][own[0]], True)))
    if view["result"] is not None:
        parts.append(result(view["result"]))
    return Group(*parts)


def _known(parties: Mapping[str, str | None]) -> str:
    sides = {side: [p for p, v in parties.items() if v == side] for side in ("re", "kontra")}
    return " · ".join(f"{side.title()} {', '.join(names)}" for side, names in sides.items() if names)


def notes(view: Mapping[str, Any]) -> RenderableType:
    """Every note of a replay, where it sits."""
    placed = [(f["step"], n) for f in view["frames"] for n in f["notes"]]
    return Group(*(_note_panel(n) for _, n in placed))


def _note_panel(note: Mapping[str, Any]) -> Panel:
    title = user_text(f"{_where(note)} · {note['author']} · {local_minute(note['at'])}")
    return Panel(user_text(note["text"]), title=title, title_align="left")


def _where(note: Mapping[str, Any]) -> str:
    if note["trick"] is None:
        return render(msg("the game"))
    if note["card"]:
        return render(msg("trick {trick}, card {card}", trick=note["trick"], card=note["card"]))
    return render(msg("trick {trick}", trick=note["trick"]))


def notes_table(game_id: str, shown: Sequence[Mapping[str, Any]]) -> RenderableType:
    if not shown:
        return Text(render(msg("no notes on {game} (add one with `doko annotate`)", game=game_id)), style="dim")
    table = Table(title=render(msg("notes on {game}", game=game_id)), title_justify="left")
    for name in (msg("on"), msg("by"), msg("at"), msg("note")):
        table.add_column(render(name))
    for note in shown:
        table.add_row(_where(note), note["author"], local_minute(note["at"]), user_text(note["text"]))
    return table
