"""`doko rules list`, `show`, `save`: the rule presets, the house-rule sets saved in the ledger,
and house-rule files; `rules_called`, what `--rules NAME` names for every command taking it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from doko_ledger.cli.common import ByOption, JsonOption, Typer, echo_json, ledger_path, now, out, recorder
from doko_ledger.cli.help_texts import described, helped
from doko_ledger.i18n import msg, render

if TYPE_CHECKING:
    from doko_ledger.doppelkopf.house_rules import NamedRules
    from doko_ledger.ledger import Ledger

rules_app = Typer(help=helped("Rule sets: presets, saved house rules and house-rule files."), no_args_is_help=True)

RulesOption = Annotated[
    list[str] | None,
    typer.Option(
        "--rules",
        help=helped(
            "Re-score under a preset, a saved house-rule set or a house-rule file (repeatable; nothing is written)."
        ),
    ),
]


def _ledger_exists(ctx: typer.Context) -> bool:
    path = ledger_path(ctx)
    return not isinstance(path, Path) or path.exists()


def rules_called(ctx: typer.Context, spec: str, ledger: Ledger | None = None) -> NamedRules:
    """What `--rules SPEC` names: a preset, a house-rule set saved in the ledger (`ledger`, else
    the one `--db` names when it exists), or a house-rule file."""
    from doko_ledger.doppelkopf.book import house_rules
    from doko_ledger.doppelkopf.house_rules import may_be_saved, rules_named
    from doko_ledger.ledger import Ledger

    if ledger is not None:
        return rules_named(spec, house_rules(ledger))
    if not may_be_saved(spec) or not _ledger_exists(ctx):
        return rules_named(spec)
    with Ledger.open(ledger_path(ctx)) as opened:
        return rules_named(spec, house_rules(opened))


@rules_app.command("list")
@described("List the rule presets and the house-rule sets saved in the ledger, each with what it changes.")
def rules_list(ctx: typer.Context, as_json: JsonOption = False) -> None:
    from doko_ledger.cli import render_scores
    from doko_ledger.doppelkopf.book import house_rules
    from doko_ledger.doppelkopf.rules.ruleset import presets
    from doko_ledger.ledger import Ledger

    shown = presets()
    saved = []
    if _ledger_exists(ctx):
        with Ledger.open(ledger_path(ctx)) as ledger:
            saved = house_rules(ledger).list()
    if as_json:
        echo_json(
            [
                {"name": p.name, "kind": "preset", "description": render(p.description, "en"), "changes": p.changes}
                for p in shown
            ]
            + [
                {"name": h.name, "kind": "saved", "preset": h.rules.preset, "version": h.version}
                | {"saved_by": h.saved_by, "saved_at": h.saved_at, "changes": h.changes()}
                for h in saved
            ]
        )
        return
    out().print(render_scores.presets_table(shown))
    if saved:
        out().print(render_scores.house_rules_table(saved))


@rules_app.command("show")
@described("Print every option of a rule set and its value.")
def rules_show(
    ctx: typer.Context,
    spec: Annotated[
        str,
        typer.Argument(help=helped("A preset, a saved house-rule set (see `doko rules list`) or a house-rule file.")),
    ],
    as_json: JsonOption = False,
) -> None:
    from doko_ledger.cli import render_scores

    named = rules_called(ctx, spec)
    if as_json:
        echo_json(named.rules.to_dict())
        return
    if named.name is not None:
        shown = msg(
            "house rules {name}: {preset} with what it changes marked", name=named.name, preset=named.rules.preset
        )
        out().print(render(shown))
    out().print(render_scores.rules_table(named.rules))


@rules_app.command("save")
@described("Save house rules in the ledger under a name; saving a name again makes a new version.")
def rules_save(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help=helped("The house rules' name, e.g. kitchen (not a preset's)."))],
    file: Annotated[
        str | None, typer.Argument(help=helped("A house-rule file to save (or --preset and --set)."))
    ] = None,
    base: Annotated[
        str | None,
        typer.Option(
            "--preset", help=helped("The preset or saved set to start from (default standard)."), show_default=False
        ),
    ] = None,
    settings: Annotated[
        list[str] | None,
        typer.Option(
            "--set", help=helped("Change an option: option=value (repeatable; see `doko rules show standard`).")
        ),
    ] = None,
    by: ByOption = None,
) -> None:
    from doko_ledger.doppelkopf.book import house_rules
    from doko_ledger.doppelkopf.files import rules_file
    from doko_ledger.doppelkopf.house_rules import checked_name
    from doko_ledger.doppelkopf.rules.options import changes_text, parse_setting, rules_with
    from doko_ledger.ledger import Ledger

    checked_name(name)
    if file is not None and (base is not None or settings):
        raise typer.BadParameter(
            render(msg("give a house-rule file, or --preset and --set, not both")), param_hint="FILE"
        )
    with Ledger.open(ledger_path(ctx), create=True) as ledger:
        if file is not None:
            rules = rules_file.load(file)
        else:
            start = rules_called(ctx, base or "standard", ledger).rules
            rules = rules_with(start, dict(parse_setting(s) for s in settings or ()))
        saved = house_rules(ledger).save(name, rules, by=recorder(by), at=now())
    changes = changes_text(saved.rules) or msg("nothing")
    done = msg(
        "house rules {name} saved (version {version}): {preset}, changing {changes}",
        name=saved.name,
        version=saved.version,
        preset=saved.rules.preset,
        changes=changes,
    )
    out().print(render(done))
