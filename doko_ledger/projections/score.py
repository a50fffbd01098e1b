"""A game's score: the derivation lines and what each player gets (RULES.md §7)."""

from __future__ import annotations

from dataclasses import dataclass

from doko_ledger.game.facts import deal_facts
from doko_ledger.game.parties import true_parties
from doko_ledger.game.state import GameState
from doko_ledger.rules.announcements import Party
from doko_ledger.rules.ruleset import RuleSet
from doko_ledger.rules.scoring import Score, score


@dataclass(frozen=True, slots=True)
class GameScore:
    """The score of one game under one rule set; `score` is None for a deal thrown in."""

    game_id: str
    players: tuple[str, ...]
    rules: RuleSet
    score: Score | None
    deltas: tuple[int, ...]
    note: str = ""

    @property
    def by_player(self) -> dict[str, int]:
        return dict(zip(self.players, self.deltas, strict=True))


def score_game(state: GameState, rules: RuleSet | None = None) -> GameScore:
    """Score a finished game under its own rules (the snapshot) or under `rules` (what-if).

    Raises `NotScorable` for an unfinished game. A deal thrown in scores nothing.
    """
    rules = rules or state.rules
    if state.abandoned is not None:
        reason = state.abandoned.replace("_", " ")
        return GameScore(state.game_id, state.players, rules, None, (0,) * 4, f"thrown in: {reason}")
    facts = deal_facts(state)
    result = score(facts, rules)
    parties = true_parties(state)
    re_seats = [s for s, p in enumerate(parties) if p is Party.RE]
    deltas = result.deltas(re_seats, range(4))
    return GameScore(state.game_id, state.players, rules, result, tuple(deltas[s] for s in range(4)))
