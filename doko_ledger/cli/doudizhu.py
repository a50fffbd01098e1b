"""The `doko` commands on a Dou Dizhu game: the same commands as for Doppelkopf, which hand a
Dou Dizhu game (`Ledger.kind`) to these functions."""

from __future__ import annotations

from collections.abc import Mapping

import typer

from doko_ledger.cli import render_doudizhu
from doko_ledger.cli.common import echo_json, out
from doko_ledger.doudizhu import files as doudizhu_file
from doko_ledger.doudizhu.projection import audit_view, deal_view, stake_view
from doko_ledger.errors import DokoError
from doko_ledger.ledger import Ledger


def _view(ledger: Ledger, game_id: str) -> dict[str, object]:
    games = ledger.doudizhu
    return deal_view(games.state(game_id), games.notes(game_id))


def replay(ledger: Ledger, game_id: str, as_json: bool, options: Mapping[str, object]) -> None:
    """The deal trick by trick; the Doppelkopf-only options are refused by name."""
    used = [name for name, value in options.items() if value]
    if used:
        raise DokoError(f"{used[0]} is for Doppelkopf games; {game_id} is a Dou Dizhu game")
    view = _view(ledger, game_id)
    if as_json:
        echo_json(view)
    else:
        out().print(render_doudizhu.deal(view))


def score(ledger: Ledger, game_id: str, as_json: bool, rules: object) -> None:
    if rules:
        raise DokoError(f"--rules re-scores Doppelkopf games; {game_id} is a Dou Dizhu game (its rules are fixed)")
    view = _view(ledger, game_id)
    if as_json:
        echo_json(stake_view(view))
    else:
        out().print(render_doudizhu.score(view))


def audit(ledger: Ledger, game_id: str, as_json: bool, claimed: dict[str, int] | None) -> None:
    report = ledger.doudizhu.audit(game_id, claimed)
    view = _view(ledger, game_id)
    if as_json:
        echo_json(audit_view(report))
    else:
        out().print(render_doudizhu.audit(report, view))
    if not report.ok:
        raise typer.Exit(5)


def export_text(ledger: Ledger, game_id: str, format: str) -> str:
    if format != "yaml":
        raise DokoError(f"--format {format} is for Doppelkopf games; export {game_id} as yaml or jsonl")
    return doudizhu_file.dumps(ledger.doudizhu.record(game_id))
