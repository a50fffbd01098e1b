"""The `doko` commands on a Dou Dizhu game or session: the same commands as for Doppelkopf,
which hand a Dou Dizhu game (`cli.games.GAME_COMMANDS`) or session (`cli.nights.GAME_SESSIONS`)
to these functions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import typer

from doko_ledger.cli import render_doudizhu
from doko_ledger.cli.common import echo_json, out
from doko_ledger.errors import DokoError
from doko_ledger.games import DOUDIZHU
from doko_ledger.i18n import msg
from doko_ledger.ledger import Ledger

if TYPE_CHECKING:
    from rich.console import RenderableType

    from doko_ledger.doudizhu.book import DouDizhuStandings
    from doko_ledger.store.base import Head


def _view(ledger: Ledger, game_id: str) -> dict[str, object]:
    from doko_ledger.doudizhu.projection import deal_view  # with the game's views: not for the standings

    games = ledger.book_of(DOUDIZHU)
    return deal_view(games.state(game_id), games.notes(game_id))


def replay(ledger: Ledger, game_id: str, as_json: bool, options: Mapping[str, object]) -> None:
    """The deal trick by trick; the Doppelkopf-only options are refused by name."""
    used = [name for name, value in options.items() if value]
    if used:
        raise DokoError(
            msg("{option} is for Doppelkopf games; {game} is a Dou Dizhu game", option=used[0], game=game_id)
        )
    view = _view(ledger, game_id)
    if as_json:
        echo_json(view)
    else:
        out().print(render_doudizhu.deal(view))


def score(ledger: Ledger, game_id: str, as_json: bool, rules: object) -> None:
    if rules:
        raise DokoError(
            msg("--rules re-scores Doppelkopf games; {game} is a Dou Dizhu game (its rules are fixed)", game=game_id)
        )
    view = _view(ledger, game_id)
    if as_json:
        from doko_ledger.doudizhu.projection import stake_view

        echo_json(stake_view(view))
    else:
        out().print(render_doudizhu.score(view))


def audit(ledger: Ledger, game_id: str, as_json: bool, claimed: dict[str, int] | None) -> None:
    report = ledger.book_of(DOUDIZHU).audit(game_id, claimed)
    view = _view(ledger, game_id)
    if as_json:
        from doko_ledger.doudizhu.projection import audit_view

        echo_json(audit_view(report))
    else:
        out().print(render_doudizhu.audit(report, view))
    if not report.ok:
        raise typer.Exit(5)


def export_text(ledger: Ledger, game_id: str, format: str) -> str:
    if format != "yaml":
        raise DokoError(
            msg(
                "--format {format} is for Doppelkopf games; export {game} as yaml or jsonl", format=format, game=game_id
            )
        )
    from doko_ledger.doudizhu import files as doudizhu_file

    return doudizhu_file.dumps(ledger.book_of(DOUDIZHU).record(game_id))


def standings(table: DouDizhuStandings, as_json: bool, as_csv: bool, head: Head) -> None:
    """A Dou Dizhu session's standings (`doko standings --session`): a table, JSON or CSV."""
    from doko_ledger.cli.nights import echo_csv
    from doko_ledger.cli.render_scores import head_line

    if as_json:
        from doko_ledger.doppelkopf.views import head_view
        from doko_ledger.doudizhu.book import standings_view as doudizhu_standings_view

        echo_json(doudizhu_standings_view(table) | {"ledger_head": head_view(head)})
    elif as_csv:
        rows = [
            [n, r.game_id, r.landlord or "", r.stake, *(r.totals[p] for p in table.players)]
            for n, r in enumerate(table.rows, 1)
        ]
        echo_csv(["deal", "game", "landlord", "stake", *table.players], rows)
    else:
        out().print(render_doudizhu.standings(table))
        out().print(head_line(head), markup=False, soft_wrap=True)


def sessions_table(sessions: list[DouDizhuStandings]) -> RenderableType:
    """The Dou Dizhu sessions, for `doko session list`."""
    return render_doudizhu.sessions_table(sessions)
