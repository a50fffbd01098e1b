"""`doko rules list`, `show`: the rule presets and house-rule files."""

from __future__ import annotations

from typing import Annotated

import typer

from doko_ledger.cli.common import JsonOption, Typer, echo_json, out

rules_app = Typer(help="Rule sets: presets and house-rule files.", no_args_is_help=True)

RulesOption = Annotated[
    list[str] | None,
    typer.Option("--rules", help="Re-score under a preset or a house-rule file (repeatable; nothing is written)."),
]


@rules_app.command("list")
def rules_list(as_json: JsonOption = False) -> None:
    """List the rule presets, each with what it changes."""
    from doko_ledger.cli import render_scores
    from doko_ledger.doppelkopf.rules.ruleset import presets

    shown = presets()
    if as_json:
        echo_json([{"name": p.name, "description": p.description, "changes": p.changes} for p in shown])
    else:
        out().print(render_scores.presets_table(shown))


@rules_app.command("show")
def rules_show(
    spec: Annotated[str, typer.Argument(help="A preset name (see `doko rules list`) or a house-rule file.")],
    as_json: JsonOption = False,
) -> None:
    """Print every option of a rule set and its value."""
    from doko_ledger.cli import render_scores
    from doko_ledger.doppelkopf.files.rules_file import rules_named

    rules = rules_named(spec)
    if as_json:
        echo_json(rules.to_dict())
    else:
        out().print(render_scores.rules_table(rules))
