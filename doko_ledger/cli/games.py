"""`doko import`, `export`, `games`, `replay`, `annotate`, `notes`, `score`, `audit`: the games
in the ledger, one at a time or as a list."""

from __future__ import annotations

import importlib
import itertools
import json
import sys
from collections.abc import Iterable
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from doko_ledger.cli.common import (
    ByOption,
    GameArg,
    JsonOption,
    echo_json,
    err_console,
    interactive,
    ledger_path,
    now,
    out,
    recorder,
)
from doko_ledger.cli.help_texts import described, helped
from doko_ledger.cli.rules import RulesOption
from doko_ledger.cli.words import localized
from doko_ledger.errors import DokoError
from doko_ledger.games import DOPPELKOPF, GAMES, Game
from doko_ledger.i18n import DEFAULT, current, msg, plural, render, using
from doko_ledger.ledger import Ledger
from doko_ledger.store.location import shown

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

    from doko_ledger.doppelkopf.analysis_marks import Mark

GAME_COMMANDS: dict[Game[Any], str] = {}
"""The module that answers `export`, `replay`, `score` and `audit` for the games of a game
whose answers are its own (its `export_text`, `replay`, `score`, `audit`), loaded only for
such a game: each game's command module registers it (`cli/ddz.py`). The commands below
answer for Doppelkopf's games."""


def _own_commands(ledger: Ledger, game_id: str) -> Any:
    """The module of the game `game_id` is a game of, when that game answers for itself."""
    module = GAME_COMMANDS.get(ledger.game_of(game_id))
    return None if module is None else importlib.import_module(module)


# Each command imports the renderers and formats it uses itself: `doko score` should not wait
# for the HTML export, the YAML reader or Dou Dizhu to load.


class ExportFormat(StrEnum):
    yaml = "yaml"
    jsonl = "jsonl"
    html = "html"
    freedoko = "freedoko"


@described(
    "Import game and session files, Doppelkopf or Dou Dizhu, and FreeDoko's game logs (a folder: the files "
    "in it): each is validated completely, then appended atomically."
)
def import_(
    ctx: typer.Context,
    files: Annotated[
        list[Path],
        typer.Argument(
            help=helped(
                "Game or session files (YAML, Doppelkopf or Dou Dizhu), FreeDoko game logs or party files, or folders."
            )
        ),
    ],
    by: Annotated[
        str | None, typer.Option("--by", help=helped("Who records (default $DOKO_USER or your login)."))
    ] = None,
    check: Annotated[
        bool,
        typer.Option(
            "--check",
            help=helped("Import nothing: replay FreeDoko game logs and check their scores against FreeDoko's."),
        ),
    ] = False,
    as_json: JsonOption = False,
) -> None:
    if check:
        _cross_check(files, as_json)
        return
    with _ImportProgress() as progress, Ledger.open(ledger_path(ctx), create=True, when_needed=True) as ledger:
        report = ledger.import_files(files, by=recorder(by), at=now(), progress=progress)
    if as_json:
        echo_json(
            {
                "imported_games": report.games,
                "imported_events": report.events,
                "imported_nights": report.sessions,
                "errors": report.errors,
                "remarks": [{"remark": remark, "files": times} for remark, times in report.remarks.items()],
            }
        )
    else:
        console = out()
        if report.games:
            games = plural("{count} game", "{count} games", report.games)
            events = plural("{count} event", "{count} events", report.events)
            where = shown(ledger_path(ctx))
            console.print(
                render(msg("imported {games}, {events} into {ledger}", games=games, events=events, ledger=where))
            )
        if report.sessions:
            sessions = plural("{count} session", "{count} sessions", report.sessions)
            console.print(
                render(msg("imported {sessions} into {ledger}", sessions=sessions, ledger=shown(ledger_path(ctx))))
            )
    for remark, times in report.remarks.items():
        seen_in = plural("{count} file", "{count} files", times)
        note = render(msg("note: {note}", note=msg("{remark} ({files})", remark=remark, files=seen_in)))
        err_console().print(note, markup=False, soft_wrap=True)
    for message in report.errors:
        err_console().print(render(msg("error: {reason}", reason=message)), markup=False, soft_wrap=True)
    if report.errors:
        left = plural("{count} file not imported", "{count} files not imported", len(report.errors))
        err_console().print(render(left), markup=False)
        raise typer.Exit(2)


def _cross_check(files: list[Path], as_json: bool) -> None:
    """`doko import --check`: FreeDoko's scores against doko's, nothing written; exit 1 when a
    game differs or is refused."""
    from doko_ledger.doppelkopf.files.freedoko.cross_check import cross_check

    report = cross_check(files)
    agree, differ, refused = (report.count(o) for o in ("agrees", "differs", "refused"))
    if as_json:
        echo_json(
            {
                "agree": agree,
                "differ": differ,
                "refused": refused,
                "games": [
                    {"file": g.source, "outcome": g.outcome, "details": [render(d, "en") for d in g.details]}
                    for g in report.games
                ],
            }
        )
    else:
        console = out()
        for game in report.games:
            if game.outcome != "agrees":
                outcome = render(msg("differs") if game.outcome == "differs" else msg("refused"))
                console.print(f"{outcome}: {game.source}", markup=False, soft_wrap=True)
                for line in game.details:
                    console.print(f"  {localized(line)}", markup=False, soft_wrap=True)
        total = len(report.games)
        checked = plural(
            "{agree} of {count} game agree with FreeDoko's score, {differ} differ, {refused} refused",
            "{agree} of {count} games agree with FreeDoko's score, {differ} differ, {refused} refused",
            total,
            agree=agree,
            differ=differ,
            refused=refused,
        )
        console.print(render(checked), markup=False)
    if differ or refused or not report.games:
        raise typer.Exit(1)


class _ImportProgress:
    """A progress bar on stderr while an import reads many game files (none for a few)."""

    SHOWN_FROM = 20

    def __init__(self) -> None:
        self.bar: Progress | None = None
        self.task: TaskID | None = None

    def __enter__(self) -> _ImportProgress:
        return self

    def __call__(self, done: int, total: int) -> None:
        if total < self.SHOWN_FROM:
            return
        if self.bar is None:
            from rich.progress import Progress

            self.bar = Progress(console=err_console(), transient=True)
            self.bar.start()
            self.task = self.bar.add_task("importing", total=total)
        assert self.task is not None
        self.bar.update(self.task, completed=done)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()


@described(
    "Write a game as a YAML game file, its raw events as JSON lines, a self-contained HTML replay (no "
    "network needed) with its notes and, with --analysis, its costly cards marked, or a game log FreeDoko "
    "opens."
)
def export(
    ctx: typer.Context,
    game: GameArg,
    format: Annotated[
        ExportFormat,
        typer.Option(
            "--format",
            help=helped(
                "yaml: the game file; jsonl: raw events; html: a page that replays the game in a browser;"
                " freedoko: a FreeDoko game log."
            ),
        ),
    ] = ExportFormat.yaml,
    output: Annotated[
        Path | None,
        typer.Option(
            "-o", "--output", help=helped("Write to a file (or through a link to one) instead of stdout; - is stdout.")
        ),
    ] = None,
    perspective: PerspectiveOption = None,
    tournament: TournamentOption = False,
    analysis: AnalysisOption = False,
    from_trick: FromTrickOption = None,
) -> None:
    from doko_ledger.doppelkopf.files import game_file
    from doko_ledger.doppelkopf.views import event_view
    from doko_ledger.events.codec import dumps_canonical

    if analysis and format is not ExportFormat.html:
        raise DokoError(msg("--analysis marks the HTML replay: add --format html"))
    _analysis_options(analysis, from_trick, tournament)
    with Ledger.open(ledger_path(ctx)) as ledger:
        game_id = ledger.resolve(game)
        own = None if format is ExportFormat.jsonl else _own_commands(ledger, game_id)
        if own is not None and analysis:
            raise _only_doppelkopf(ledger, game_id)
        if own is not None and format is ExportFormat.freedoko:
            raise DokoError(msg("a FreeDoko game log holds a Doppelkopf game; {game} is not one", game=game_id))
        if own is not None:
            text = own.export_text(ledger, game_id, format.value)
        elif format is ExportFormat.freedoko:
            from doko_ledger.doppelkopf.files.freedoko import game as freedoko_game
            from doko_ledger.doppelkopf.files.freedoko import write

            book = ledger.book_of(DOPPELKOPF)
            text = write.dumps_game(
                book.game_events(game_id), freedoko_game.seed_of(game_id), book.place_in_log(game_id)
            )
        elif format is ExportFormat.yaml:
            text = game_file.dumps(ledger.book_of(DOPPELKOPF).record(game_id))
        elif format is ExportFormat.jsonl:
            text = "".join(dumps_canonical(event_view(r)) + "\n" for r in ledger.events(game_id))
        else:
            from doko_ledger.doppelkopf.files import html_replay

            view = ledger.book_of(DOPPELKOPF).frames(game_id, _perspective(perspective, tournament), player=perspective)
            marked = _analysis_marks(ledger, view, from_trick) if analysis else None
            text = html_replay.dumps(view, analysis=None if marked is None else marked[1])
    from doko_ledger.formats.output import STDOUT, write_export

    if output is None or str(output) == STDOUT:
        typer.echo(text, nl=False)
    else:
        write_export(output, text, ledger=ledger_path(ctx))
        wrote = msg("wrote {file} ({format}, {game})", file=output, format=format.value, game=game_id)
        err_console().print(render(wrote), markup=False, highlight=False)


def _only_doppelkopf(ledger: Ledger, game_id: str) -> DokoError:
    """--analysis asked of a game that is not Doppelkopf."""
    kind = ledger.game_of(game_id).title
    return DokoError(msg("--analysis is for Doppelkopf games; {game} is a {kind} game", game=game_id, kind=kind))


TERMINAL_PAGE = 20
"""How many of the newest games `doko games` shows at a terminal without `--last` or `--all`."""


@described(
    "List the recorded games, oldest first, with each game's number (#N), result and score. The list is "
    "printed as it is read, however many games there are."
)
def games(
    ctx: typer.Context,
    last: Annotated[
        int | None,
        typer.Option(
            "--last",
            min=1,
            help=helped("Only the newest N games (at a terminal, one page of them by default)."),
            metavar="N",
        ),
    ] = None,
    show_all: Annotated[bool, typer.Option("--all", help=helped("Every game, also at a terminal."))] = False,
    session: Annotated[
        str | None, typer.Option("--session", help=helped("Only the games of this card night or Dou Dizhu session."))
    ] = None,
    player: Annotated[str | None, typer.Option("--player", help=helped("Only the games this player sat in."))] = None,
    since: Annotated[
        str | None,
        typer.Option("--since", help=helped("Only games played on or after this day (YYYY-MM-DD)."), metavar="DAY"),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    from doko_ledger.cli import render_games
    from doko_ledger.projections.game_list import GameFilter

    if last is not None and show_all:
        raise typer.BadParameter(render(msg("give --last N or --all, not both")), param_hint="--last")
    if since is not None:
        _day(since)
    paged = last is None and not show_all and not as_json and output_is_terminal()
    if paged:
        last = TERMINAL_PAGE
    with Ledger.open(ledger_path(ctx)) as ledger:
        ids = None if session is None else _session_games(ledger, session)
        keep = GameFilter(None, player, since)
        listed = ledger.game_rows(last=last, keep=None if keep == GameFilter() else keep, game_ids=ids)
        if as_json:
            _stream_json(row for _, row in listed)
            return
        console = out()
        console.print(render_games.header(), soft_wrap=True)
        first = None
        while chunk := list(itertools.islice(listed, 200)):  # a page at a time: the output starts at once
            first = chunk[0][0] if first is None else first
            if console.is_terminal:
                console.print(render_games.page(chunk), soft_wrap=True)
            else:  # piped: the same lines without styles, and without Rich's rendering of each
                typer.echo(render_games.plain_page(chunk))
    if paged and first is not None and first > 1:
        more = msg("(the newest {count} shown: --all for every game, --last N for more)", count=TERMINAL_PAGE)
        console.print(render(more), style="dim")


def output_is_terminal() -> bool:
    return sys.stdout.isatty()


def _day(text: str) -> str:
    from datetime import date

    try:
        return date.fromisoformat(text).isoformat()
    except ValueError:
        problem = msg("{text} is not a day: write YYYY-MM-DD", text=repr(text[:40]))
        raise typer.BadParameter(render(problem), param_hint="--since") from None


def _session_games(ledger: Ledger, ref: str) -> set[str]:
    """The games of the session (a card night, a Dou Dizhu session) `ref` names."""
    for game in GAMES:
        book = ledger.book_of(game)
        session_id = book.resolve_session(ref)
        if session_id is not None:
            return set(book.session_game_ids(session_id))
    sessions = msg("card night or Dou Dizhu session")
    raise NightNotFound(msg("no {sessions} {ref} in the ledger", sessions=sessions, ref=repr(ref[:40])))


class NightNotFound(DokoError, LookupError):
    """A session reference that names no session of any game."""


def _stream_json(rows: Iterable[dict[str, Any]]) -> None:
    """A JSON list written a few items at a time (the same text as `echo_json` of the list)."""
    items = (json.dumps(row, indent=2, ensure_ascii=False).replace("\n", "\n  ") for row in rows)
    opening = "[\n  "
    while chunk := list(itertools.islice(items, 200)):
        typer.echo(opening + ",\n  ".join(chunk), nl=False)
        opening = ",\n  "
    typer.echo("[]" if opening == "[\n  " else "\n]")


AnalysisOption = Annotated[
    bool,
    typer.Option(
        "--analysis",
        help=helped(
            "Mark each card that cost its party card points or the game, found with every hand known"
            " (as `doko analyze` finds them), and say at its step what it cost."
        ),
    ),
]
FromTrickOption = Annotated[
    int | None, typer.Option("--from-trick", min=1, help=helped("With --analysis: mark the cards from trick N on."))
]
PerspectiveOption = Annotated[
    str | None,
    typer.Option(
        "--as", help=helped("Show only what this player could know: their hand, the cards played, public parties.")
    ),
]
TournamentOption = Annotated[
    bool,
    typer.Option("--tournament", help=helped("Hide card points, announcements and parties until the game is over.")),
]


def _perspective(player: str | None, tournament: bool) -> str:
    if player is not None and tournament:
        raise DokoError(msg("choose one perspective: --as PLAYER or --tournament"))
    return "player" if player is not None else "tournament" if tournament else "all"


@described(
    "Step through a game card by card at a terminal (arrows: card and trick, Home/End, a trick number and "
    "Enter, q). Piped, with --all, or for a game without cards (a score sheet) it prints the game at once; "
    "--trick N shows the game before trick N; --analysis marks the cards that cost something."
)
def replay(
    ctx: typer.Context,
    game: GameArg,
    trick: Annotated[int | None, typer.Option("--trick", min=1, help=helped("Show the game before trick N."))] = None,
    show_all: Annotated[
        bool, typer.Option("--all", help=helped("Print the whole game at once instead of stepping through it."))
    ] = False,
    perspective: PerspectiveOption = None,
    tournament: TournamentOption = False,
    analysis: AnalysisOption = False,
    from_trick: FromTrickOption = None,
    as_json: JsonOption = False,
) -> None:
    from doko_ledger.cli import render, render_frames, stepper
    from doko_ledger.doppelkopf.views import notes_view, replay_view

    _analysis_options(analysis, from_trick, tournament)
    with Ledger.open(ledger_path(ctx)) as ledger:
        game_id = ledger.resolve(game)
        own = _own_commands(ledger, game_id)
        if own is not None and analysis:
            raise _only_doppelkopf(ledger, game_id)
        if own is not None:
            options = {"--trick": trick, "--as": perspective, "--tournament": tournament}
            return own.replay(ledger, game_id, as_json, options)  # type: ignore[no-any-return]
        seen_as = _perspective(perspective, tournament)
        with using(DEFAULT if as_json else current()):  # what is meant for scripts stays English
            view = ledger.book_of(DOPPELKOPF).frames(game_id, seen_as, player=perspective)
        shown = ledger.book_of(DOPPELKOPF).replay(game_id, trick) if seen_as == "all" else None
        remarks = notes_view(ledger.notes(game_id))
        place = ledger.book_of(DOPPELKOPF).place(game_id)
        marked = _analysis_marks(ledger, view, from_trick) if analysis else None
    marks = None if marked is None else marked[0]
    if as_json:
        found = view if shown is None else replay_view(shown, trick, place) | {"notes": remarks}
        echo_json(found if marked is None else found | {"analysis": marked[1]})
        return
    if place is not None:
        out().print(localized(place.label), markup=False, style="bold yellow" if place.marks else "")
    if trick is not None and shown is not None:
        out().print(render.position(shown, trick, show_all=True))
        if marks is not None:
            out().print(render_frames.analysis(marks))
    elif trick is not None:
        out().print(render_frames.frame(view, stepper.Stepper.of(view).before_trick(trick), marks=marks))
    elif not show_all and interactive() and sys.stdout.isatty() and stepper.has_steps(view):
        stepper.run(view, out(), marks)
    else:
        if shown is not None:
            out().print(render.replay(shown, show_all=True, remarks=remarks))
        else:
            out().print(render_frames.tricks(view, marks))
        out().print(render_frames.notes(view))
        if marks is not None:
            out().print(render_frames.analysis(marks))


def _analysis_options(analysis: bool, from_trick: int | None, tournament: bool) -> None:
    """Refuse --from-trick without --analysis, and --analysis in a tournament view."""
    if from_trick is not None and not analysis:
        raise DokoError(msg("--from-trick says where --analysis starts: add --analysis"))
    if analysis and tournament:
        raise DokoError(msg("--analysis tells card points, which --tournament hides until the end: choose one"))


def _analysis_marks(
    ledger: Ledger, view: dict[str, Any], from_trick: int | None
) -> tuple[dict[int, Mark], dict[str, Any]]:
    """The marks of the game's analysis from trick `from_trick` on (None: where analyses start
    unless told), by step, and as plain data: every player's cards, or only the viewer's in a
    player's view."""
    from doko_ledger.doppelkopf.analysis.verdicts import start_trick
    from doko_ledger.doppelkopf.analysis_marks import marks, marks_view

    book, game_id = ledger.book_of(DOPPELKOPF), view["game_id"]
    from_trick = start_trick(from_trick, len(book.state(game_id).all_tricks))
    analysed = book.kept_analysis(game_id, from_trick)
    if analysed is None:  # computed now, and kept: seconds from a late trick, minutes from the first
        working = msg("analysing {game} from trick {trick}, every hand known…", game=game_id, trick=from_trick)
        with err_console().status(render(working)):
            analysed = book.analysis(game_id, from_trick)
    viewer = view["perspective"] if view["seen_as"] == "player" else None
    return marks(analysed, view["players"], of=viewer), marks_view(analysed, view["players"], of=viewer)


@described("Add a note to a game, a trick or one card; replays and exports show it in place.")
def annotate(
    ctx: typer.Context,
    game: GameArg,
    text: Annotated[str, typer.Argument(help=helped("The note."))],
    trick: Annotated[
        int | None, typer.Option("--trick", min=1, help=helped("The trick (left out: the whole game)."))
    ] = None,
    card: Annotated[
        int | None, typer.Option("--card", min=1, max=4, help=helped("The card within the trick (1-4)."))
    ] = None,
    by: ByOption = None,
) -> None:
    with Ledger.open(ledger_path(ctx)) as ledger:
        game_id = ledger.resolve(game)
        note = ledger.annotate(game_id, trick, card, text.strip(), by=recorder(by), at=now())
    if note.trick is None:
        noted = msg("noted on the game of {game}", game=game_id)
    elif note.card:
        noted = msg("noted on trick {trick}, card {card} of {game}", trick=note.trick, card=note.card, game=game_id)
    else:
        noted = msg("noted on trick {trick} of {game}", trick=note.trick, game=game_id)
    out().print(render(noted), markup=False)


@described("List a game's notes: where, who, when, what.")
def notes(ctx: typer.Context, game: GameArg, as_json: JsonOption = False) -> None:
    from doko_ledger.cli import render_frames
    from doko_ledger.doppelkopf.views import notes_view

    with Ledger.open(ledger_path(ctx)) as ledger:
        game_id = ledger.resolve(game)
        shown = notes_view(ledger.notes(game_id))
    if as_json:
        echo_json(shown)
    else:
        out().print(render_frames.notes_table(game_id, shown))


@described("Score a game with its derivation; `--rules` re-scores it under other rules, side by side.")
def score(ctx: typer.Context, game: GameArg, rules: RulesOption = None, as_json: JsonOption = False) -> None:
    # imported as needed (Dou Dizhu, rule files, JSON views): this is the command of the cold start
    with Ledger.open(ledger_path(ctx)) as ledger:
        game_id = ledger.resolve(game)
        own = _own_commands(ledger, game_id)
        if own is not None:
            return own.score(ledger, game_id, as_json, rules)  # type: ignore[no-any-return]
        alternatives = []
        if rules:
            from doko_ledger.cli.rules import rules_called

            alternatives = [rules_called(ctx, spec, ledger).rules for spec in rules]
        results = [ledger.book_of(DOPPELKOPF).score(game_id)] + [
            ledger.book_of(DOPPELKOPF).score(game_id, r) for r in alternatives
        ]
    if as_json:
        from doko_ledger.doppelkopf.views import score_view

        echo_json(score_view(results[0]) if len(results) == 1 else [score_view(r) for r in results])
    else:
        from doko_ledger.cli import render_scores

        out().print(render_scores.score(results))


@described("Check everything that can be disputed in a game; explain a claimed result's difference.")
def audit(
    ctx: typer.Context,
    game: GameArg,
    claimed: Annotated[
        str | None, typer.Option("--claimed", help=helped("A claimed result, e.g. Anna=+5,Ben=-5,Clara=+5,Dirk=-5."))
    ] = None,
    as_json: JsonOption = False,
) -> None:
    from doko_ledger.cli import render_scores
    from doko_ledger.doppelkopf.files import quick_entry
    from doko_ledger.doppelkopf.views import audit_view

    claim = None if claimed is None else quick_entry.claim(claimed)
    with Ledger.open(ledger_path(ctx)) as ledger:
        game_id = ledger.resolve(game)
        own = _own_commands(ledger, game_id)
        if own is not None:
            return own.audit(ledger, game_id, as_json, claim)  # type: ignore[no-any-return]
        report = ledger.book_of(DOPPELKOPF).audit(game_id, claim)
    if as_json:
        echo_json(audit_view(report))
    else:
        out().print(render_scores.audit(report))
    if not report.ok:
        raise typer.Exit(5)


def register(app: typer.Typer) -> None:
    """Add the commands on games to the `doko` app."""
    app.command("import")(import_)
    app.command()(export)
    app.command()(games)
    app.command()(replay)
    app.command()(annotate)
    app.command()(notes)
    app.command()(score)
    app.command()(audit)
