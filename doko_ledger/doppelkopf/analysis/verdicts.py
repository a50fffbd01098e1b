"""What the analysis of a game says about each card played, and its JSON form (what a cache keeps).

Values are card points with every hand known (double dummy): what a party can secure against
best play of the other side. A card's `cost` is what the best card would have secured more;
its `game_points` what that difference did to the score (docs/rules.md §7).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from doko_ledger.doppelkopf.cards import Card, parse_card
from doko_ledger.doppelkopf.rules.announcements import Party

SOLVER_VERSION = "dd-4"
"""Bumped whenever an answer of the analysis can change: cached analyses are keyed by it."""

DEFAULT_FROM_TRICK = 7
"""Where an analysis starts unless told (`doko analyze`, `doko replay --analysis`, `doko export
--analysis`, the web's background analyses and its API): the cards of the earlier tricks are
left unweighed, so that a game's analysis takes seconds, not the minutes to hours a search
from the first trick takes. In a game with nines these are its last six tricks."""


def start_trick(from_trick: int | None, tricks: int) -> int:
    """The trick an analysis starts at: `from_trick` when given, else `DEFAULT_FROM_TRICK` or,
    in a game of fewer tricks played, its last trick."""
    if from_trick is not None:
        return from_trick
    return max(1, min(DEFAULT_FROM_TRICK, tricks))


@dataclass(frozen=True, slots=True)
class Alternative:
    """A card the player could have played, and the most card points the player's party can
    secure after playing it (every hand known)."""

    card: Card
    value: int


@dataclass(frozen=True, slots=True)
class CardVerdict:
    """One card played, against the cards the player could have played instead.

    `index` counts the game's cards in play order from 0, `trick` from 1. `value` is what the
    party can secure after the card played, `best_value` after the best card (`best`);
    `alternatives` hold each legal card once per class of equivalent cards. `points_before`
    and `points_after` are Re's card points at the end of the game with best play from both
    sides, before and after this card. `game_points`: what the card cost its party in game
    points (0 unless the result or a special point changed), `specials_lost` those special
    points by kind; `lost`: the card turned a game its party would have won into a lost one
    (the winning target as the announcements set it, docs/rules.md §6). `specials_unweighed`:
    special points count in the game, but their search for this card passed its limit, so the
    verdict weighs card points and the result class only.
    `worse_share`: in the sampled hands the player could not tell from the real ones, the share
    in which the card played was worse than the best, by the measure of its cost here: game
    points (the result class, and the special points where they were weighed) for a card that
    cost game points, card points for one that cost card points only (None: not sampled).
    """

    index: int
    trick: int
    seat: int
    card: Card
    party: Party
    value: int
    best: Card
    best_value: int
    alternatives: tuple[Alternative, ...]
    points_before: int
    points_after: int
    game_points: int = 0
    specials_lost: tuple[str, ...] = ()
    worse_share: float | None = None
    lost: bool = False
    specials_unweighed: bool = False

    @property
    def cost(self) -> int:
        """The card points the card gave away against the best card, with every hand known."""
        return max(self.best_value - self.value, 0)

    @property
    def mistake(self) -> bool:
        """Worse than the best card in every hand the player could not rule out (sampled)."""
        return self.worse_share is not None and self.worse_share >= 1.0


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    """The verdict on every card of a game from trick `from_trick` on, by one solver version."""

    game_id: str
    solver_version: str
    from_trick: int
    verdicts: tuple[CardVerdict, ...]

    def costly(self) -> list[CardVerdict]:
        """The cards that cost something, the most game points first, then the most card points."""
        costly = [v for v in self.verdicts if v.cost > 0 or v.game_points > 0]
        return sorted(costly, key=lambda v: (-v.game_points, -v.cost, v.index))


def analysis_to_json(analysis: GameAnalysis) -> dict[str, Any]:
    """The analysis as JSON data; `analysis_from_json` reads it back to an equal analysis."""
    return {
        "game_id": analysis.game_id,
        "solver_version": analysis.solver_version,
        "from_trick": analysis.from_trick,
        "verdicts": [_verdict_to_json(v) for v in analysis.verdicts],
    }


def _verdict_to_json(v: CardVerdict) -> dict[str, Any]:
    return {
        "index": v.index,
        "trick": v.trick,
        "seat": v.seat,
        "card": str(v.card),
        "party": v.party.value,
        "value": v.value,
        "best": str(v.best),
        "best_value": v.best_value,
        "alternatives": [[str(a.card), a.value] for a in v.alternatives],
        "points_before": v.points_before,
        "points_after": v.points_after,
        "game_points": v.game_points,
        "specials_lost": list(v.specials_lost),
        "worse_share": v.worse_share,
        "lost": v.lost,
        "specials_unweighed": v.specials_unweighed,
    }


def analysis_from_json(data: dict[str, Any]) -> GameAnalysis:
    """The analysis `analysis_to_json` wrote (a `KeyError` or `CardError` for other data)."""
    return GameAnalysis(
        game_id=str(data["game_id"]),
        solver_version=str(data["solver_version"]),
        from_trick=int(data["from_trick"]),
        verdicts=tuple(_verdict_from_json(v) for v in data["verdicts"]),
    )


def _verdict_from_json(d: dict[str, Any]) -> CardVerdict:
    share = d["worse_share"]
    return CardVerdict(
        index=int(d["index"]),
        trick=int(d["trick"]),
        seat=int(d["seat"]),
        card=parse_card(d["card"]),
        party=Party(d["party"]),
        value=int(d["value"]),
        best=parse_card(d["best"]),
        best_value=int(d["best_value"]),
        alternatives=tuple(Alternative(parse_card(card), int(value)) for card, value in d["alternatives"]),
        points_before=int(d["points_before"]),
        points_after=int(d["points_after"]),
        game_points=int(d["game_points"]),
        specials_lost=tuple(str(kind) for kind in d["specials_lost"]),
        worse_share=None if share is None else float(share),
        lost=bool(d["lost"]),
        specials_unweighed=bool(d.get("specials_unweighed", False)),
    )
