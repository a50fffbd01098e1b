"""`doko import --check`: FreeDoko as a second scorer, over a whole folder of its game logs.

Every game log is replayed under its own rules and scored by doko; FreeDoko's own result
(its claim) is set against that score line by line. Nothing is written: the report says how
many games agree, which differ and in which derivation lines, and which were refused and why.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from doko_ledger.doppelkopf.claimed import claimed_points, derivation_check, outside_bock
from doko_ledger.doppelkopf.events import ResultClaimed
from doko_ledger.doppelkopf.files.freedoko import game
from doko_ledger.doppelkopf.files.freedoko.log import is_game_log, is_party
from doko_ledger.doppelkopf.game.facts import NotScorable
from doko_ledger.doppelkopf.score import score_game
from doko_ledger.errors import DokoError
from doko_ledger.formats.any_file import files_in
from doko_ledger.formats.yaml_source import SourceError, read_text
from doko_ledger.frozen import frozen
from doko_ledger.i18n import Message

Outcome = Literal["agrees", "differs", "refused"]


@frozen
class CheckedGame:
    """One game log: whether doko's score agrees with FreeDoko's, and what differs or why it
    was refused."""

    source: str
    outcome: Outcome
    details: tuple[Message | str, ...] = ()


@dataclass(slots=True)
class CrossCheck:
    games: list[CheckedGame] = field(default_factory=list)

    def count(self, outcome: Outcome) -> int:
        return sum(1 for g in self.games if g.outcome == outcome)


def game_logs(paths: Iterable[str | Path]) -> list[Path]:
    """The files named, and the FreeDoko files of each folder in its place (as `doko import`
    reads a folder: `any_file.files_in`)."""
    named = [Path(p) for p in paths]
    return [p for p in files_in(named) if p in named or p.suffix == ".FreeDoko"]


def check_text(text: str, source: str) -> CheckedGame:
    """One game log checked (`refused` with the `file:line: what` doko refuses it for)."""
    try:
        loaded = game.read(text, source)
    except DokoError as exc:
        return CheckedGame(source, "refused", (str(exc),))
    claim = next((e for e in reversed(loaded.events) if isinstance(e, ResultClaimed)), None)
    if claim is None:
        return CheckedGame(source, "refused", (f"{source}: the game log holds no game summary to check against",))
    try:
        result = score_game(loaded.state)
    except NotScorable as exc:
        return CheckedGame(source, "refused", (f"{source}: {exc}",))
    check = derivation_check(result, claim, loaded.state.rules.counting)
    points = claimed_points(claim, result.players, outside_bock(result, claim))
    differences: list[Message | str] = [
        f"{player}: {mine:+d} here, {points[player]:+d} in {claim.source}'s"
        for player, mine in result.by_player.items()
        if mine != points[player]
    ]
    if check.ok and not differences:
        return CheckedGame(source, "agrees")
    return CheckedGame(source, "differs", tuple(differences + (check.details if not check.ok else [])))


def cross_check(paths: Sequence[str | Path]) -> CrossCheck:
    """Every FreeDoko game log among `paths` (folders opened) checked; party files, which hold
    no cards, are passed over."""
    report = CrossCheck()
    for path in game_logs(paths):
        try:
            text = read_text(path)
        except SourceError as exc:
            report.games.append(CheckedGame(str(path), "refused", (str(exc),)))
            continue
        if is_party(text):
            continue
        if not is_game_log(text):
            report.games.append(CheckedGame(str(path), "refused", (f"{path}: not a FreeDoko game log",)))
            continue
        report.games.append(check_text(text, str(path)))
    return report
