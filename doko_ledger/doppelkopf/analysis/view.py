"""The words of an analysis: the one place they are made. `doko analyze`, the replay's marks
and the web page show these lines and this JSON as they are."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from doko_ledger.doppelkopf.analysis.verdicts import CardVerdict, GameAnalysis
from doko_ledger.doppelkopf.rules.scoring import SpecialKind
from doko_ledger.i18n import Message, current, msg, plural, render

NOTE = msg(
    "with all cards known: each card is weighed against the best play of both sides, every hand "
    "in view; a mistake is a card that was worse in every deal the player could not rule out"
)
"""The honesty note shown with every analysis."""
DOUBLE_DUMMY = NOTE.id
"""The note in English."""

KNOWN = msg("with all cards known")
"""What each mark says of itself."""
WITH_ALL_CARDS = KNOWN.id
"""What each mark says of itself, in English."""


def verdict_message(v: CardVerdict, players: Sequence[str]) -> Message:
    """One costly card in words: `Anna's ♥10 in trick 6: 19 card points, and the game: Re 121 → 102, lost`,
    or, a special point given up within the result class, `…: 1 card point, and fox caught (Fuchs): 1 game point`;
    `…; special points not weighed (search limit)` where their search for the card passed its limit."""
    line = _cost_message(v, players)
    if v.specials_unweighed:
        return msg("{line}; special points not weighed (search limit)", line=line)
    return line


def unweighed_message(analysis: GameAnalysis) -> Message | None:
    """How many cards' special points went unweighed (their search passed its limit), or None."""
    count = sum(1 for v in analysis.verdicts if v.specials_unweighed)
    if not count:
        return None
    return plural(
        "The special points of {count} card were not weighed: their search reached its limit.",
        "The special points of {count} cards were not weighed: their search reached its limit.",
        count,
    )


def _cost_message(v: CardVerdict, players: Sequence[str]) -> Message:
    line = msg(
        "{player}'s {card} in trick {trick}: {cost}",
        player=players[v.seat],
        card=v.card,
        trick=v.trick,
        cost=plural("{count} card point", "{count} card points", v.cost),
    )
    game_points = plural("{count} game point", "{count} game points", v.game_points)
    if v.specials_lost:
        language = current()
        specials = ", ".join(render(_special(kind), language) for kind in v.specials_lost)
        return msg("{line}, and {specials}: {game_points}", line=line, specials=specials, game_points=game_points)
    if v.game_points:
        outcome = msg("lost") if v.lost else game_points
        return msg(
            "{line}, and the game: Re {before} → {after}, {outcome}",
            line=line,
            before=v.points_before,
            after=v.points_after,
            outcome=outcome,
        )
    return line


def verdict_line(v: CardVerdict, players: Sequence[str]) -> str:
    """`verdict_message` in the reader's language."""
    return render(verdict_message(v, players))


def _special(kind: str) -> Message | str:
    try:
        return SpecialKind(kind).word  # the score's label, in the reader's language
    except ValueError:
        return kind


def better_card(v: CardVerdict) -> str:
    """The better card and what it was worth more: `♥A (+19)`."""
    return f"{v.best.localized(current())} (+{v.cost})"


def analysis_view(analysis: GameAnalysis, players: Sequence[str]) -> dict[str, Any]:
    """The JSON of an analysis for people's programs (`doko analyze --json`, the web's API):
    each costly card with its line, the better card and the difference, biggest first, and
    a summary per player; `unweighed`: the cards whose special points were not weighed, and
    `unweighed_note` says so in words (None when every card's were)."""
    unweighed = unweighed_message(analysis)
    return {
        "game_id": analysis.game_id,
        "solver_version": analysis.solver_version,
        "from_trick": analysis.from_trick,
        "note": render(NOTE),
        "cards": len(analysis.verdicts),
        "unweighed": sum(1 for v in analysis.verdicts if v.specials_unweighed),
        "unweighed_note": None if unweighed is None else render(unweighed),
        "costly": [_costly(v, players) for v in analysis.costly()],
        "players": player_summary(analysis, players),
    }


def _costly(v: CardVerdict, players: Sequence[str]) -> dict[str, Any]:
    return {
        "index": v.index,
        "trick": v.trick,
        "player": players[v.seat],
        "seat": v.seat,
        "party": v.party.value,
        "card": str(v.card),
        "better": str(v.best),
        "cost": v.cost,
        "game_points": v.game_points,
        "specials_lost": list(v.specials_lost),
        "re_before": v.points_before,
        "re_after": v.points_after,
        "worse_share": v.worse_share,
        "mistake": v.mistake,
        "specials_unweighed": v.specials_unweighed,
        "line": verdict_line(v, players),
    }


def player_summary(analysis: GameAnalysis, players: Sequence[str]) -> list[dict[str, Any]]:
    """Per player, in seat order: cards analysed, how many cost something, the card points and
    game points they cost, and the mistakes (worse in every sampled deal)."""
    out = []
    for seat, name in enumerate(players):
        mine = [v for v in analysis.verdicts if v.seat == seat]
        costly = [v for v in mine if v.cost > 0 or v.game_points > 0]
        out.append(
            {
                "player": name,
                "cards": len(mine),
                "costly": len(costly),
                "card_points": sum(v.cost for v in costly),
                "game_points": sum(v.game_points for v in costly),
                "mistakes": sum(1 for v in costly if v.mistake),
            }
        )
    return out
