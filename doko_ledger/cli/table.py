"""`doko record`, `undo`, `penalty`, `correct`, `deal`, `play`: a card night's deals entered at
the table, by their facts or card by card."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

if TYPE_CHECKING:  # the commands import what they use: `doko` starts faster
    from rich.console import Console

    from doko_ledger.doppelkopf.game.record import DealEntry, SummaryRecord, ValueRecord
    from doko_ledger.doppelkopf.game.state import GameState
    from doko_ledger.doppelkopf.nights.book import BockMark, NextDealChecks
    from doko_ledger.i18n import Message
    from doko_ledger.ledger import Ledger

from doko_ledger.cli.common import (
    ByOption,
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
from doko_ledger.doppelkopf.book import card_nights
from doko_ledger.doppelkopf.rules.bock import heart_trick_matters
from doko_ledger.errors import DokoError
from doko_ledger.games import DOPPELKOPF
from doko_ledger.i18n import Message, msg, render
from doko_ledger.store.errors import LedgerBusy

T = TypeVar("T")

NightOption = Annotated[
    str | None, typer.Option("--session", help=helped("The card night (default: the open one)."), show_default=False)
]
YesOption = Annotated[bool, typer.Option("--yes", "-y", help=helped("Append without asking for confirmation."))]
GameOption = Annotated[
    str | None, typer.Option("--game", metavar="TYPE", help=helped("Game type: normal, marriage, club_solo, ..."))
]
ReOption = Annotated[str | None, typer.Option("--re", help=helped("The Re players, or the soloist alone: Anna,Clara."))]
PointsOption = Annotated[int | None, typer.Option("--re-points", help=helped("Re's card points, 0-240."))]
TricksOption = Annotated[
    str | None, typer.Option("--tricks", help=helped("Tricks won RE:KONTRA, where it matters (9:3)."))
]
CallOption = Annotated[
    list[str] | None, typer.Option("--call", help=helped("Announcements in order: Anna=re,Clara=no90."))
]
SpecialOption = Annotated[
    list[str] | None, typer.Option("--special", help=helped("Special points PARTY:KIND[:FROM]: re:fox_caught:Ben."))
]
HeartTrickOption = Annotated[
    bool | None,
    typer.Option(
        "--heart-trick/--no-heart-trick",
        help=helped("A trick of four hearts that are not trumps was played (a bock trigger, docs/rules.md §9)."),
        show_default=False,
    ),
]
WinnersOption = Annotated[
    str | None, typer.Option("--winners", help=helped("Value only: the winners, Anna,Ben (or give --losers)."))
]
LosersOption = Annotated[
    str | None, typer.Option("--losers", help=helped("Value only: the losers instead of the winners."))
]
ValueOption = Annotated[
    int | None, typer.Option("--value", help=helped("Value only: the deal's simple value before bock, 0-99."))
]
SoloOption = Annotated[
    bool, typer.Option("--solo", help=helped("Value only: the one winner or the one loser played a solo."))
]
BockMarkOption = Annotated[
    int | None,
    typer.Option(
        "--bock",
        help=helped(
            "Bock marked with this deal: 1 Bock, 2 Doppelbock, 3 Triplebock (rounds, docs/rules.md §9),"
            " recorded with it; taking the deal back takes it too."
        ),
        show_default=False,
    ),
]
BockByOption = Annotated[
    str | None,
    typer.Option("--bock-by", help=helped("Who declares the --bock mark (default: who records)."), show_default=False),
]
BockReasonOption = Annotated[
    str | None,
    typer.Option(
        "--bock-reason", help=helped('Why the --bock mark (default: "marked with the deal").'), show_default=False
    ),
]


def _bock_mark(rounds: int | None, declared_by: str | None, reason: str | None, recorder: str) -> BockMark | None:
    """The bock marked with the deal, or None; --bock-by and --bock-reason only with --bock."""
    from doko_ledger.doppelkopf.files.quick_entry import EntryError
    from doko_ledger.doppelkopf.nights.book import BockMark

    if rounds is None:
        if declared_by is not None or reason is not None:
            raise EntryError(msg("--bock-by and --bock-reason describe a --bock mark: give --bock 1, 2 or 3 with them"))
        return None
    return BockMark(rounds, declared_by or recorder, reason or "")


def _facts(
    game: str | None,
    re: str | None,
    re_points: int | None,
    tricks: str | None,
    calls: list[str],
    specials: list[str],
    heart_trick: bool | None = None,
    *,
    playing: Sequence[str],
    yes: bool = False,
    checks: NextDealChecks | None = None,
    console: Console | None = None,
) -> DealEntry:
    """The deal's facts from the flags. `--re` and `--re-points` say enough (a normal game, no
    calls, no special points unless given); without them, and without --yes, a person at the
    keyboard is asked for the rest, each answer checked by `checks` when it is given."""
    from doko_ledger.doppelkopf.files import quick_entry

    if re is not None and re_points is not None:
        return quick_entry.summary(game or "normal", re, re_points, tricks, calls, specials, bool(heart_trick))
    if yes or not interactive():
        raise quick_entry.EntryError(
            msg("give --re and --re-points (or run `doko record` at a terminal, without --yes, to be asked)")
        )
    given = _Given(game, re, re_points, tricks, calls or None, specials or None, heart_trick)
    asked = checks is not None and heart_trick_matters(checks.rules)
    return _ask_facts(given, playing, checks, console, ask_heart_trick=asked)


@dataclass(frozen=True)
class _Given:
    """The facts the flags gave (None: not given, so asked)."""

    game: str | None
    re: str | None
    re_points: int | None
    tricks: str | None = None
    calls: list[str] | None = None
    specials: list[str] | None = None
    heart_trick: bool | None = None


def _ask_facts(
    given: _Given,
    playing: Sequence[str],
    checks: NextDealChecks | None,
    console: Console | None = None,
    recorded: SummaryRecord | None = None,
    *,
    ask_heart_trick: bool = False,
) -> DealEntry:
    """Ask for what the flags did not give, one question at a time, with the `recorded` facts
    (of a deal being corrected) as the answers Enter keeps; a refused answer is shown and
    asked again (the answers before it are kept). The examples name players of this deal.
    A trick of four hearts is asked only when `ask_heart_trick` (it can start bock)."""
    from doko_ledger.cli.prompts import Ask, AskNumber, AskYesNo
    from doko_ledger.doppelkopf.files import quick_entry
    from doko_ledger.doppelkopf.rules.game_types import GameType

    example = _Examples(playing)
    calls, specials = given.calls, given.specials

    def game_ok(text: str) -> GameType:
        return checks.game_type(text) if checks is not None else quick_entry.game_type(text)

    hearts = bool(recorded.heart_trick if given.heart_trick is None and recorded is not None else given.heart_trick)

    def facts_ok(
        points: int, said: Sequence[str], extra: Sequence[str], four_hearts: bool | None = None
    ) -> SummaryRecord:
        assert re is not None
        four_hearts = hearts if four_hearts is None else four_hearts
        summary = quick_entry.summary(game_type.value, re, points, given.tricks, said, extra, four_hearts)
        if recorded is not None and given.tricks is None:
            summary = replace(summary, tricks=recorded.tricks)
        if checks is not None:
            checks.facts(summary)
        return summary

    def kept(text: str) -> str:
        """A recorded list is kept by Enter and cleared by `none` (or the language's word)."""
        return "" if text.strip().lower() in ("none", render(msg("none")).lower()) else text

    def old(value: object) -> dict[str, Any]:
        """The recorded answer as the prompt's default (none without a record)."""
        return {} if recorded is None else {"default": value}

    game = given.game
    if game is None:
        types = checks.game_types if checks is not None else tuple(GameType)
        default = (
            recorded.game
            if recorded is not None
            else (checks.default_game_type.value if checks is not None else GameType.NORMAL.value)
        )
        names = ", ".join(g.value for g in types)
        question = render(
            msg("game type ({types})", types=names)
            if recorded is not None
            else msg("game type ({types}; or {value}, the value only)", types=names, value=_value_word())
        )
        game = _until_accepted(
            lambda: Ask.ask(question, default=default, console=console),
            lambda text: (recorded is None and _is_value(text)) or game_ok(text),
        )
        if recorded is None and _is_value(game):
            return _ask_value(playing, checks, console)
    game_type = game_ok(game)
    re = given.re
    if re is None:

        def re_ok(text: str) -> None:
            players = quick_entry.names(text, "Re")
            if checks is not None:
                checks.re_players(game_type, players)

        question = render(
            msg("the soloist, e.g. {example}", example=example.soloist)
            if game_type.is_solo
            else msg("Re players, e.g. {example}", example=example.re)
        )
        old_re = old(None if recorded is None else ",".join(recorded.re))
        re = _until_accepted(lambda: Ask.ask(question, console=console, **old_re), re_ok)
    re_points = given.re_points
    if re_points is None:
        old_points = old(None if recorded is None else recorded.re_points)
        re_points = _until_accepted(
            lambda: AskNumber.ask(render(msg("Re's card points (0-240)")), console=console, **old_points),
            lambda p: facts_ok(p, calls or [], specials or []),
        )
    points = re_points
    none = msg("Enter for none") if recorded is None else msg("Enter keeps them, {none} for none", none=msg("none"))
    if calls is None:
        old_calls = "" if recorded is None else quick_entry.calls_text(recorded.announcements)
        calls = [
            kept(
                _ask_text(
                    render(msg("announcements, e.g. {example} ({none})", example=example.calls, none=none)),
                    old_calls,
                    lambda text: facts_ok(points, [kept(text)], specials or []),
                    console,
                )
            )
        ]
    said = calls
    if specials is None and (checks is None or checks.special_points_count(game_type, quick_entry.names(re, "Re"))):
        old_specials = "" if recorded is None else quick_entry.specials_text(recorded.specials)
        specials = [
            kept(
                _ask_text(
                    render(msg("special points, e.g. {example} ({none})", example=example.specials, none=none)),
                    old_specials,
                    lambda text: facts_ok(points, said, [kept(text)]),
                    console,
                )
            )
        ]
    if given.heart_trick is None and ask_heart_trick:
        question = render(msg("a trick of four hearts (a bock trigger)?"))
        extra = specials or []
        hearts = _until_accepted(
            lambda: AskYesNo.ask(question, default=hearts, console=console),
            lambda answer: facts_ok(points, said, extra, answer),
        )
    return facts_ok(points, calls, specials or [])


VALUE_ANSWER = "value"
"""The answer to the game-type question that enters the deal by its value only (or its
word in the command's language, `_value_word`)."""


def _value_word() -> str:
    return render(msg("value"))


def _is_value(answer: str) -> bool:
    """The answer to the game-type question that enters the deal by its value only."""
    return answer.strip().lower() in (VALUE_ANSWER, _value_word().lower())


def _ask_value(playing: Sequence[str], checks: NextDealChecks | None, console: Console | None) -> ValueRecord:
    """Ask for a deal by its value only: the winners, the value, and a solo mark where one
    player won or lost alone; each answer is checked when given and asked again if refused."""
    from doko_ledger.cli.prompts import Ask, AskNumber, AskYesNo
    from doko_ledger.doppelkopf.files import quick_entry

    def entry(winners: str, value: int, solo: bool = False) -> ValueRecord:
        entered = quick_entry.value_entry(winners, None, value, solo=solo)
        if checks is not None:
            checks.facts(entered)
        return entered

    winners = _until_accepted(
        lambda: Ask.ask(render(msg("the winners, e.g. {example}", example=",".join(playing[:2]))), console=console),
        lambda text: entry(text, 0),
    )
    value = _until_accepted(
        lambda: AskNumber.ask(render(msg("the deal's value before bock")), console=console), lambda v: entry(winners, v)
    )
    solo = entry(winners, value).alone and AskYesNo.ask(
        render(msg("was it a solo (the one winner or the one loser played it)")), console=console
    )
    return entry(winners, value, solo)


@dataclass(frozen=True)
class _Examples:
    """The prompts' examples, made of the players of the deal (never one who sits out)."""

    playing: Sequence[str]

    @property
    def soloist(self) -> str:
        return self.playing[0]

    @property
    def re(self) -> str:
        return ",".join(self.playing[:2])

    @property
    def calls(self) -> str:
        return f"{self.playing[0]}=re,{self.playing[-1]}=kontra"

    @property
    def specials(self) -> str:
        return f"re:fox:{self.playing[-1]},kontra:doko"


def _ask_text(question: str, old: str, accept: Callable[[str], object], console: Console | None) -> str:
    """Ask for a free answer (Enter: `old`, shown when there is one) until `accept` takes it."""
    from doko_ledger.cli.prompts import Ask

    return _until_accepted(lambda: Ask.ask(question, default=old, show_default=bool(old), console=console), accept)


def _until_accepted(ask: Callable[[], T], accept: Callable[[T], object]) -> T:
    """Ask until `accept` takes the answer; a refusal is shown and the question asked again."""
    from doko_ledger.cli.prompts import refuse

    while True:
        answer = ask()
        try:
            accept(answer)
        except DokoError as exc:
            refuse(exc)
            continue
        return answer


def _confirm(
    yes: bool,
    question: Message | None = None,
    console: Console | None = None,
    nothing: Message | None = None,
) -> bool:
    from doko_ledger.cli.prompts import AskYesNo
    from doko_ledger.doppelkopf.files import quick_entry

    if yes:
        return True
    if not interactive():
        nothing = nothing or msg("nothing was appended")
        raise quick_entry.EntryError(msg("{nothing}: confirm with --yes when not at a terminal", nothing=nothing))
    return AskYesNo.ask(render(question or msg("append this deal?")), default=True, console=console)


def _by_value(
    winners: str | None, losers: str | None, value: int | None, solo: bool, *, facts_given: Sequence[object]
) -> bool:
    """The deal is entered by its value only (a flag of the value entry given); refuses the
    flags of the facts beside it."""
    from doko_ledger.doppelkopf.files.quick_entry import EntryError

    if winners is None and losers is None and value is None and not solo:
        return False
    if any(given for given in facts_given):
        raise EntryError(
            msg(
                "a deal by its value (--winners/--losers, --value, --solo) takes no --game, --re, --re-points,"
                " --tricks, --call, --special, --heart-trick or --misdeal"
            )
        )
    return True


@described(
    "Add the next deal of the card night by its facts (or by its value only: --winners or --losers, "
    "--value, --solo), with a bock mark if given (--bock); shows the score before appending.\n\n"
    "The deal is the one that was next when the command started: if someone else records a deal meanwhile, "
    "this one is refused, not recorded as the deal after it."
)
def record(
    ctx: typer.Context,
    session: NightOption = None,
    game: GameOption = None,
    re: ReOption = None,
    re_points: PointsOption = None,
    tricks: TricksOption = None,
    call: CallOption = None,
    special: SpecialOption = None,
    heart_trick: HeartTrickOption = None,
    winners: WinnersOption = None,
    losers: LosersOption = None,
    value: ValueOption = None,
    solo: SoloOption = False,
    misdeal: Annotated[bool, typer.Option("--misdeal", help=helped("The deal was thrown in."))] = False,
    bock: BockMarkOption = None,
    bock_by: BockByOption = None,
    bock_reason: BockReasonOption = None,
    deal: Annotated[
        int | None,
        typer.Option(
            "--deal",
            min=1,
            help=helped(
                "The deal's number (default: the next deal when the command starts). Refused when the night"
                " holds that deal already, so trying again after a deal was recorded never records it twice."
            ),
            show_default=False,
        ),
    ] = None,
    yes: YesOption = False,
    as_json: JsonOption = False,
    by: ByOption = None,
) -> None:
    from doko_ledger.cli import render_nights, render_scores
    from doko_ledger.doppelkopf.files import quick_entry
    from doko_ledger.doppelkopf.views import score_view
    from doko_ledger.ledger import Ledger

    shown = err_console() if as_json else out()  # with --json, stdout holds the JSON alone
    mark = _bock_mark(bock, bock_by, bock_reason, recorder(by))
    with Ledger.open(ledger_path(ctx)) as ledger:
        nights = card_nights(ledger)
        session_id = nights.resolve(session)
        read_at = nights.version(session_id)  # before the deal shown: a write between them refuses this one
        upcoming = nights.standings(session_id).next
        if deal is not None:  # refused before any question is asked
            nights.expect_next(session_id, deal)
        shown.print(render_nights.next_deal(upcoming))
        by_value = _by_value(
            winners, losers, value, solo, facts_given=(game, re, re_points, tricks, call, special, heart_trick, misdeal)
        )
        quick = misdeal or by_value or (re is not None and re_points is not None)
        checks = None if quick else nights.checks(session_id)
        facts: DealEntry | None = (
            None
            if misdeal
            else quick_entry.value_entry(winners, losers, value, solo=solo)
            if by_value
            else _facts(
                game,
                re,
                re_points,
                tricks,
                call or [],
                special or [],
                heart_trick,
                playing=upcoming.playing,
                yes=yes,
                checks=checks,
                console=shown,
            )
        )
        # the deal given, or the night as it was when the next deal was shown
        at = None if deal is not None else read_at
        prepared = nights.prepare(session_id, facts, misdeal=misdeal, deal=deal, version=at, bock=mark)
        if prepared.score is not None:
            shown.print(render_scores.score([prepared.score]))
        if prepared.bock is not None:
            shown.print(render(msg("with it: {bock}", bock=prepared.bock)), markup=False, highlight=False)
        if not _confirm(yes, console=shown):
            shown.print(render(msg("nothing appended")))
            raise typer.Exit(1)
        with _retried_with_deal(prepared.number):
            nights.commit(prepared, by=recorder(by), at=now())
        ledger.refresh()
    if as_json:
        echo_json(
            {
                "session": session_id,
                "number": prepared.number,
                "game_id": prepared.game_id,
                "dealer": upcoming.dealer,
                "playing": list(upcoming.playing),
                "multiplier": upcoming.multiplier,
                "thrown_in": misdeal,
                "score": None if prepared.score is None else score_view(prepared.score),
                "bock_marked": prepared.bock_in_english,
            }
        )
    else:
        number, game_id = prepared.number, prepared.game_id
        done = (
            msg("recorded deal {number} as {game}", number=number, game=game_id)
            if prepared.bock is None
            else msg("recorded deal {number} as {game}, with {bock}", number=number, game=game_id, bock=prepared.bock)
        )
        out().print(render(done), markup=False, highlight=False)


@described(
    "Take back the newest entry of the night: a change (a join, a leave, a rule change, bock declared), "
    "else the newest card, call or penalty of the last deal, else the last deal; with --game, the newest "
    "event of that game (appends a void, never deletes). Says what it will take back and asks first, unless "
    "--yes."
)
def undo(
    ctx: typer.Context,
    session: NightOption = None,
    game: Annotated[
        str | None, typer.Option("--game", help=helped("Take back the newest event of this game instead."))
    ] = None,
    deal: Annotated[
        int | None,
        typer.Option(
            "--deal",
            min=1,
            help=helped(
                "Only if this is the night's last deal (default: the last deal when the command starts): trying"
                " again after it was taken back is refused instead of taking back the deal before it."
            ),
            show_default=False,
        ),
    ] = None,
    yes: Annotated[
        bool, typer.Option("--yes", "-y", help=helped("Take back without asking for confirmation."))
    ] = False,
    by: ByOption = None,
) -> None:
    from doko_ledger.doppelkopf.files import quick_entry
    from doko_ledger.ledger import Ledger

    if game is not None and deal is not None:
        raise quick_entry.EntryError(msg("give --game or --deal, not both"))
    with Ledger.open(ledger_path(ctx)) as ledger:
        if game is not None:
            game_id = ledger.resolve(game)
            book = ledger.book_of(DOPPELKOPF)
            _confirm_take_back(yes, book.to_take_back(game_id))
            what: Message | str = book.take_back(game_id, by=recorder(by), at=now())
        else:
            nights = card_nights(ledger)
            session_id = nights.resolve(session)
            planned = nights.to_take_back(session_id, deal=deal)
            _confirm_take_back(
                yes, msg("{what}: {facts}", what=planned.what, facts=planned.facts) if planned.facts else planned.what
            )
            if planned.change is not None:  # a change of the night: that one, never the entry before it
                what = nights.undo(session_id, by=recorder(by), at=now(), change=planned.change).what
            else:
                with _retried_with_deal(planned.number):  # what was asked about, never the deal before it
                    what = nights.undo(session_id, by=recorder(by), at=now(), deal=planned.number).what
            ledger.refresh()
    out().print(render(msg("took back {what}", what=what)))


def _confirm_take_back(yes: bool, what: object) -> None:
    """Say what undo will take back and ask (unless `yes`); a no ends the command."""
    if not yes:
        out().print(render(msg("this takes back {what}", what=what)), markup=False, highlight=False, soft_wrap=True)
    if not _confirm(yes, msg("take it back?"), nothing=msg("nothing was taken back")):
        out().print(render(msg("nothing taken back")))
        raise typer.Exit(1)


@described("Record penalty points for a rule violation (docs/rules.md §9); `doko undo` takes it back.")
def penalty(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help=helped("The game (deal) the violation happened in."))],
    player: Annotated[str | None, typer.Option("--player", help=helped("Who offended."))] = None,
    severe: Annotated[
        bool | None,
        typer.Option("--severe/--minor", help=helped("Severe (voids the game) or minor."), show_default=False),
    ] = None,
    harms_soloist: Annotated[
        bool, typer.Option("--harms-soloist", help=helped("Minor, in a solo: the offence could harm the soloist."))
    ] = False,
    denials: Annotated[
        int | None, typer.Option("--denials", help=helped("Severe: the denials that count (default: from the record)."))
    ] = None,
    reason: Annotated[str, typer.Option("--reason", help=helped("What happened."))] = "",
    yes: YesOption = False,
    as_json: JsonOption = False,
    by: ByOption = None,
) -> None:
    from doko_ledger.cli import render_scores
    from doko_ledger.cli.prompts import Ask
    from doko_ledger.doppelkopf.files import quick_entry
    from doko_ledger.doppelkopf.game.commands import ImposePenalty
    from doko_ledger.doppelkopf.views import score_view
    from doko_ledger.ledger import Ledger
    from doko_ledger.names import find_player

    shown = err_console() if as_json else out()  # with --json, stdout holds the JSON alone
    if (player is None or severe is None) and (yes or not interactive()):
        raise quick_entry.EntryError(
            msg("give --player and --minor or --severe (or run `doko penalty` at a terminal, without --yes)")
        )
    if player is None:
        player = Ask.ask(render(msg("who offended")), console=shown)
    if severe is None:
        minor, severe_word = render(msg("minor")), render(msg("severe"))
        question = render(msg("minor or severe"))
        severe = Ask.ask(question, choices=[minor, severe_word], default=minor, console=shown) == severe_word
    with Ledger.open(ledger_path(ctx)) as ledger:
        game_id = ledger.resolve(game)
        players = ledger.book_of(DOPPELKOPF).state(game_id).players
        offender = find_player(player, players)
        if offender is None:
            raise quick_entry.EntryError(
                msg(
                    "--player: {player} did not play {game} ({players})",
                    player=repr(player),
                    game=game_id,
                    players=", ".join(players),
                )
            )
        command = ImposePenalty(players.index(offender), severe, harms_soloist, denials, reason)
        if not _confirm(yes, console=shown):
            raise typer.Exit(1)
        result = ledger.book_of(DOPPELKOPF).impose_penalty(game_id, command, by=recorder(by), at=now())
    if as_json:
        echo_json(
            {
                "game_id": game_id,
                "finished": result is not None,
                "score": None if result is None else score_view(result),
            }
        )
    elif result is None:
        out().print(render(msg("penalty recorded in {game}; the deal is still being played", game=game_id)))
    else:
        out().print(render_scores.score([result]))


@described(
    "Change a deal's facts, or make it a misdeal: the facts given replace the recorded ones, the rest are "
    "kept (at a terminal, without --yes, each fact not given is asked, Enter keeping the recorded one); "
    "shows the old and the new score side by side before appending (a new game takes its place; the old one "
    "stays in the log)."
)
def correct(
    ctx: typer.Context,
    deal: Annotated[str, typer.Argument(help=helped("The deal: its number in `doko standings`, or its game id."))],
    session: NightOption = None,
    game: GameOption = None,
    re: ReOption = None,
    re_points: PointsOption = None,
    tricks: TricksOption = None,
    call: CallOption = None,
    special: SpecialOption = None,
    heart_trick: HeartTrickOption = None,
    winners: WinnersOption = None,
    losers: LosersOption = None,
    value: ValueOption = None,
    solo: SoloOption = False,
    misdeal: Annotated[bool, typer.Option("--misdeal", help=helped("The deal was thrown in after all."))] = False,
    yes: YesOption = False,
    as_json: JsonOption = False,
    by: ByOption = None,
) -> None:
    from doko_ledger.cli import render_scores
    from doko_ledger.doppelkopf.files import quick_entry
    from doko_ledger.doppelkopf.views import score_view
    from doko_ledger.ledger import Ledger

    with Ledger.open(ledger_path(ctx)) as ledger:
        nights = card_nights(ledger)
        session_id = nights.resolve(session)
        facts: DealEntry | None = None
        facts_given = (game, re, re_points, tricks, call, special, heart_trick, misdeal)
        if _by_value(winners, losers, value, solo, facts_given=facts_given):
            facts = quick_entry.value_entry(winners, losers, value, solo=solo)
        elif not misdeal:
            _, record = nights.deal_record(session_id, deal)
            recorded = record.summary
            if yes or not interactive() or (recorded is None and re is not None and re_points is not None):
                facts = quick_entry.corrected(recorded, game, re, re_points, tricks, call, special, heart_trick)
            else:
                given = _Given(game, re, re_points, tricks, call, special, heart_trick)
                asked = heart_trick_matters(record.rules)
                facts = _ask_facts(given, record.players, None, out(), recorded, ask_heart_trick=asked)  # its players
        prepared = nights.prepare_correction(session_id, deal, facts, misdeal=misdeal)
        new_id = prepared.game.game_id
        if not as_json:
            before, after = prepared.before, prepared.after
            out().print(render_scores.correction(prepared.number, prepared.game_id, new_id, before, after))
        if not _confirm(yes, msg("append this correction?")):
            out().print(render(msg("nothing appended")))
            raise typer.Exit(1)
        with _retried_with_deal(prepared.number):
            nights.commit(prepared, by=recorder(by), at=now())
        ledger.refresh()
    if as_json:
        before, after = prepared.before, prepared.after
        echo_json(
            {
                "session": session_id,
                "deal": prepared.number,
                "game_id": prepared.game_id,
                "new_game_id": new_id,
                "before": None if before is None else score_view(before),
                "after": None if after is None else score_view(after),
            }
        )
    else:
        out().print(
            render(
                msg(
                    "deal {number} ({game}) corrected: now {new}",
                    number=prepared.number,
                    game=prepared.game_id,
                    new=new_id,
                )
            )
        )


@described("Deal the next deal's four hands from a seed and record them; then `doko play`.")
def deal(
    ctx: typer.Context,
    seed: Annotated[
        str, typer.Option("--seed", help=helped("The same text always deals the same hands (e.g. a date)."))
    ],
    session: NightOption = None,
    as_json: JsonOption = False,
    by: ByOption = None,
) -> None:
    from doko_ledger.cli import render_nights
    from doko_ledger.doppelkopf.views import game_view, hands_view
    from doko_ledger.ledger import Ledger

    with Ledger.open(ledger_path(ctx)) as ledger:
        session_id = card_nights(ledger).resolve(session)
        game = card_nights(ledger).deal(session_id, seed, by=recorder(by), at=now())
        ledger.refresh()
    if as_json:
        echo_json({"session": session_id, "seed": seed} | game_view(game) | {"hands": hands_view(game)})
    else:
        out().print(render_nights.dealt(game))


@described("Record the deal being played card by card; at a terminal without tokens, asks for each card.")
def play(
    ctx: typer.Context,
    tokens: Annotated[
        list[str] | None,
        typer.Argument(
            help=helped("Cards in play order (CQ, ♥10), calls NAME=re or NAME=no90, reservations NAME=club_solo first.")
        ),
    ] = None,
    session: NightOption = None,
    by: ByOption = None,
) -> None:
    from doko_ledger.cli.prompts import Ask, refuse
    from doko_ledger.doppelkopf.files import quick_entry
    from doko_ledger.doppelkopf.game.state import GameState
    from doko_ledger.ledger import Ledger

    with Ledger.open(ledger_path(ctx)) as ledger:
        session_id = card_nights(ledger).resolve(session)
        if tokens:
            before = card_nights(ledger).being_played(session_id) or GameState()  # a new deal: everything is news
            game = card_nights(ledger).play(session_id, tokens, by=recorder(by), at=now())
            ledger.refresh()
            _show_played(ledger, game, before)
            return
        if not interactive():
            raise quick_entry.EntryError(msg("give cards and calls as arguments, or run `doko play` at a terminal"))
        game = card_nights(ledger).play(session_id, [], by=recorder(by), at=now())
        before = game
        while not _show_played(ledger, game, before):
            before = game  # a refused entry adds nothing to echo
            line = Ask.ask(render(msg("card, NAME=call, or q to stop")))
            if line.strip().lower() in ("q", "quit", ""):
                break
            try:  # the deal as this entry left it: the last card finishes it
                game = card_nights(ledger).play(session_id, line.split(), by=recorder(by), at=now())
            except DokoError as exc:
                refuse(exc)
        ledger.refresh()


def _show_played(ledger: Ledger, game: GameState, before: GameState | None = None) -> bool:
    """Print the deal being played (with what the entries since `before` did); once it is
    over, its result and score. True when over."""
    from doko_ledger.cli import render_nights, render_scores

    out().print(render_nights.live(game, before))
    if not (game.finished or game.abandoned is not None or game.void):
        return False
    ledger.refresh()
    out().print(render_scores.score([ledger.book_of(DOPPELKOPF).score(game.game_id)]))
    return True


@contextmanager
def _retried_with_deal(number: int) -> Iterator[None]:
    """A write the lock kept out says how to try it again safely: with its deal's number,
    which refuses it once it is done."""
    try:
        yield
    except LedgerBusy as exc:
        exc.args = (msg("{error} with --deal {number}", error=str(exc), number=number), *exc.args[1:])
        raise
