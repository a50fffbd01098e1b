"""`doko analyze`: which cards of a game cost card points or the game, every hand known."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any

import typer

from doko_ledger.cli.common import GameArg, JsonOption, echo_json, ledger_path, out
from doko_ledger.cli.help_texts import described, helped
from doko_ledger.i18n import msg, render

if TYPE_CHECKING:  # the command imports what it uses: `doko` starts faster
    from rich.console import Group

FromTrickOption = Annotated[
    int | None,
    typer.Option(
        "--from-trick",
        help=helped(
            "Weigh the cards from this trick on (default: the last six tricks; the earlier, the slower: "
            "from trick 1 it can take hours)."
        ),
        show_default=False,
    ),
]
WorldsOption = Annotated[
    int,
    typer.Option(
        "--worlds",
        min=0,
        help=helped(
            "For each costly card, deals the player could not rule out to try it in (0: none); "
            "a card worse in all of them is a mistake."
        ),
    ),
]


@described(
    "The cards of a game that cost card points or the game, biggest first, and a summary per player: each "
    "card weighed against the best play of both sides with all cards known."
)
def analyze(
    ctx: typer.Context,
    game: GameArg,
    from_trick: FromTrickOption = None,
    worlds: WorldsOption = 0,
    as_json: JsonOption = False,
) -> None:
    from doko_ledger.doppelkopf.analysis.analyze import NotAnalyzable
    from doko_ledger.doppelkopf.analysis.verdicts import start_trick
    from doko_ledger.doppelkopf.analysis.view import analysis_view
    from doko_ledger.games import DOPPELKOPF, GameNotFound
    from doko_ledger.ledger import Ledger

    with Ledger.open(ledger_path(ctx)) as ledger:
        try:
            game_id = ledger.resolve(game)
            if ledger.game_of(game_id) is not DOPPELKOPF:
                problem = msg("game {game} is not a Doppelkopf game: only those are analysed", game=repr(game_id))
                raise NotAnalyzable(problem)
            book = ledger.book_of(DOPPELKOPF)
            state = book.state(game_id)
        except GameNotFound as exc:
            raise NotAnalyzable(str(exc)) from None
        start = start_trick(from_trick, len(state.all_tricks))
        analysis = book.analysis(game_id, start, worlds=worlds)  # kept once computed
    view = analysis_view(analysis, state.players)
    if as_json:
        echo_json(view)
    else:
        out().print(_rendered(view, state.players))


def _rendered(view: dict[str, Any], players: Sequence[str]) -> Group:
    """The costly cards as a table, the summary per player, and the note on what was known."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    from doko_ledger.cli.render import card_text
    from doko_ledger.doppelkopf.cards import parse_card

    title = msg(
        "{game}: cards that cost something (from trick {trick})", game=view["game_id"], trick=view["from_trick"]
    )
    cards = Table(title=render(title))
    right = (msg("trick"), msg("card points"), msg("game points"))
    for name in (
        *right[:1],
        msg("player"),
        msg("card"),
        msg("better"),
        *right[1:],
        msg("Re before → after"),
        msg("mistake"),
    ):
        cards.add_column(render(name), justify="right" if name in right else "left")
    for c in view["costly"]:
        share = c["worse_share"]
        worse = msg("no ({share}%)", share=round(100 * share)) if share is not None else ""
        mistake = "" if share is None else render(msg("yes") if c["mistake"] else worse)
        cards.add_row(
            str(c["trick"]),
            c["player"],
            card_text(parse_card(c["card"])),
            card_text(parse_card(c["better"])),
            str(c["cost"]),
            str(c["game_points"]),
            f"{c['re_before']} → {c['re_after']}",
            mistake,
        )
    summary = Table(title=render(msg("per player")))
    summary.add_column(render(msg("player")))
    for column in (msg("cards"), msg("costly"), msg("card points"), msg("game points"), msg("mistakes")):
        summary.add_column(render(column), justify="right")
    for p in view["players"]:
        summary.add_row(
            p["player"],
            str(p["cards"]),
            str(p["costly"]),
            str(p["card_points"]),
            str(p["game_points"]),
            str(p["mistakes"]),
        )
    lines = [Text(render(c["line"])) for c in view["costly"][:3]]
    parts: list[Any] = [cards] if view["costly"] else [Text(render(msg("No card cost anything.")))]
    if view["unweighed_note"]:
        lines.append(Text(view["unweighed_note"]))
    if any(c["worse_share"] is not None for c in view["costly"]):
        shares = msg("no (a share): not a mistake, worse in that share of the deals the player could not rule out")
        lines.append(Text(render(shares), style="dim"))
    return Group(*parts, *lines, summary, Text(render(view["note"]), style="dim"))


def register(app: typer.Typer) -> None:
    """Add `doko analyze` to the `doko` app."""
    app.command()(analyze)
