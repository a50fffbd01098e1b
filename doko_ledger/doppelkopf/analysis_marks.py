"""The marks an analysis puts on a replay: one for each card that cost its party something, on the
step the card was played at (a replay's frame `step`: the cards played so far), with the line
`analysis.view` words for it and the better card. The terminal stepper, the HTML replay and the
web game page show the same marks; none of them words a verdict of its own."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from doko_ledger.doppelkopf.analysis.verdicts import CardVerdict, GameAnalysis
from doko_ledger.doppelkopf.analysis.view import (
    KNOWN,
    NOTE,
    analysis_view,
    better_card,
    unweighed_message,
    verdict_line,
)
from doko_ledger.doppelkopf.cards import Card
from doko_ledger.i18n import current, render

CARD_POINTS = "?"
"""The mark of a card that cost card points only (as a chess player marks a weak move)."""
GAME = "??"
"""The mark of a card that cost the game: its result class or a special point."""


@dataclass(frozen=True, slots=True)
class Mark:
    """One costly card on a replay: the step it was played at, who played it, its glyph, its
    verdict's line, the better card and, in words, the better card with what it would have
    kept (`better`); the card points and game points the card cost."""

    step: int
    trick: int
    player: str
    card: Card
    glyph: str
    line: str
    best: Card
    better: str
    card_points: int
    game_points: int


def glyph(verdict: CardVerdict) -> str:
    return GAME if verdict.game_points > 0 else CARD_POINTS


def marks(analysis: GameAnalysis, players: Sequence[str], *, of: str | None = None) -> dict[int, Mark]:
    """The marks of `analysis` by step; with `of`, only that player's cards."""
    return {
        v.index + 1: Mark(
            v.index + 1,
            v.trick,
            players[v.seat],
            v.card,
            glyph(v),
            verdict_line(v, players),
            v.best,
            better_card(v),
            v.cost,
            v.game_points,
        )
        for v in analysis.costly()
        if of is None or players[v.seat] == of
    }


def marks_view(analysis: GameAnalysis, players: Sequence[str], *, of: str | None = None) -> dict[str, Any]:
    """`marks` as plain data, in play order, with the line that says every hand was known (and
    how many cards' special points were not weighed, if any): what the HTML replay embeds and
    the web game page is sent."""
    shown = sorted(marks(analysis, players, of=of).values(), key=lambda m: m.step)
    known = render(KNOWN)
    return {
        "note": _note(analysis),
        "from_trick": analysis.from_trick,
        "marks": [
            {
                "step": m.step,
                "trick": m.trick,
                "player": m.player,
                "card": str(m.card),
                "glyph": m.glyph,
                "line": m.line,
                "best": str(m.best),
                "card_points": m.card_points,
                "game_points": m.game_points,
                "card_pretty": m.card.localized(current()),
                "better": m.better,
                "known": known,
            }
            for m in shown
        ],
    }


def marked_view(analysis: GameAnalysis, players: Sequence[str]) -> dict[str, Any]:
    """`analysis_view` (what `doko analyze --json` prints) with the marks of every player's cards
    and the note the marks carry: what the web's API answers and its pages draw."""
    shown = marks_view(analysis, players)
    return analysis_view(analysis, players) | {"marks": shown["marks"], "note": shown["note"]}


def _note(analysis: GameAnalysis) -> str:
    """The note shown beside the marks: every hand was known, and how many cards' special
    points were not weighed, if any."""
    unweighed = unweighed_message(analysis)
    return render(NOTE) if unweighed is None else f"{render(NOTE)}. {render(unweighed)}"
