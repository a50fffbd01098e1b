"""A game's score: the derivation lines, penalties, and what each player gets (docs/rules.md §7, §9)."""

from __future__ import annotations

from dataclasses import replace

from doko_ledger.doppelkopf.game.facts import deal_facts
from doko_ledger.doppelkopf.game.parties import Parties, soloist, true_parties
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.nights.place import DealPlace
from doko_ledger.doppelkopf.rules.announcements import Party
from doko_ledger.doppelkopf.rules.bock import Bock, bocked
from doko_ledger.doppelkopf.rules.penalties import Penalty, penalty_points
from doko_ledger.doppelkopf.rules.ruleset import RuleSet
from doko_ledger.doppelkopf.rules.scoring import Score, score
from doko_ledger.doppelkopf.rules.value import ValueDeal
from doko_ledger.frozen import frozen


@frozen
class PenaltyLine:
    """A penalty as its own line of the score: who, how grave, why, and the points per player."""

    player: str
    severe: bool
    harms_soloist: bool
    denials: int
    reason: str
    points: tuple[int, ...]

    @property
    def item(self) -> str:
        grave = "severe" if self.severe else "minor"
        extra = f", {self.denials} denial(s)" if self.denials else ""  # as the read models keep it
        extra += ", could harm the soloist" if self.harms_soloist else ""
        return f"{grave} penalty: {self.player}{extra}"


@frozen
class GameScore:
    """The score of one game under one rule set; `score` is None for a deal thrown in or a game
    voided by a severe penalty. `deltas` include the penalties."""

    game_id: str
    players: tuple[str, ...]
    rules: RuleSet
    score: Score | None
    deltas: tuple[int, ...]
    note: str = ""
    penalties: tuple[PenaltyLine, ...] = ()
    in_solo: bool = False
    place: DealPlace | None = None
    """The game's place in its card night: its bock round is in the score (docs/rules.md §9)."""
    valued: ValueDeal | None = None
    """A deal entered by its value only: who won and the value (the derivation's one line)."""

    @property
    def value_words(self) -> str | None:
        """Who won a deal entered by its value, and the value, in words (None for other deals)."""
        return None if self.valued is None else self.valued.words(self.players)

    @property
    def bock(self) -> Bock | None:
        return None if self.place is None else self.place.bock

    @property
    def by_player(self) -> dict[str, int]:
        return dict(zip(self.players, self.deltas, strict=True))

    @property
    def solo_penalty(self) -> bool:
        """A penalty in a solo: the only thing that may make the scores mixed even and odd."""
        return bool(self.penalties) and self.in_solo


def score_game(
    state: GameState,
    rules: RuleSet | None = None,
    *,
    parties: Parties | None = None,
    won: tuple[int, ...] | None = None,
    tricks: tuple[int, ...] | None = None,
    place: DealPlace | None = None,
) -> GameScore:
    """Score a finished game under its own rules (the snapshot) or under `rules` (what-if).

    Raises `NotScorable` for an unfinished game that no severe penalty voided. A deal thrown
    in scores nothing; penalties are added (a severe one replaces the game's score).
    `parties`, `won` and `tricks`: `true_parties(state)`, `state.points_won()` and
    `state.tricks_won()`, when the caller has them already. `place`: the game's place in its
    card night; its bock (docs/rules.md §9) multiplies every player's points, penalties
    included, or adds game points to the winners' value (`bock_effect: extra_point`), as the
    night's standings do, and is the derivation's last line.
    """
    rules = rules or state.rules
    lone = soloist(state)
    lines = tuple(
        [
            PenaltyLine(
                state.players[p.seat],
                p.severe,
                p.harms_soloist,
                p.denials,
                p.reason,
                penalty_points(Penalty(p.seat, p.severe, p.harms_soloist, p.denials), lone),
            )
            for p in state.penalties
        ]
    )
    extra = [sum(line.points[s] for line in lines) for s in range(4)] if lines else [0, 0, 0, 0]
    void = state.void
    bock = None if place is None else place.bock
    if void or state.abandoned is not None:
        note = "void: a severe penalty" if void else f"thrown in: {(state.abandoned or '').replace('_', ' ')}"
        points = bocked(extra, bock, (None,) * 4, None, False)  # nobody won: a multiplier only
        return GameScore(state.game_id, state.players, rules, None, points, note, lines, lone is not None, place)
    if state.valued is not None:  # entered by its value only (docs/rules.md §7): the sides it names
        parties, result = state.valued.sides(), state.valued.score(state.players)
    else:
        parties = true_parties(state) if parties is None else parties
        result = score(deal_facts(state, parties, won, tricks), rules)
    re_seats = [s for s, p in enumerate(parties) if p is Party.RE]
    deltas = result.deltas(re_seats, range(4))
    total = bocked([deltas[s] + extra[s] for s in range(4)], bock, parties, result.winner, result.lone)
    if bock is not None:
        result = _in_bock(result, bock)
    return GameScore(
        state.game_id, state.players, rules, result, total, "", lines, lone is not None, place, state.valued
    )


def _in_bock(result: Score, bock: Bock) -> Score:
    """The score with its bock as the last line (docs/rules.md §9): the value multiplied, or
    grown by the extra game points for the winners (nothing when nobody won)."""
    if bock.extra:
        if result.winner is None:
            return replace(result, lines=(*result.lines, bock.line()))
        re_extra = bock.extra if result.winner is Party.RE else -bock.extra
        return replace(result, lines=(*result.lines, bock.line(result.winner)), re_value=result.re_value + re_extra)
    if bock.multiplier == 1:
        return result
    return replace(result, lines=(*result.lines, bock.line()), re_value=result.re_value * bock.multiplier)
