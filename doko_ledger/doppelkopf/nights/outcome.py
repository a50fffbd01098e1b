"""What a card night needs of each deal: who played, who dealt, the points, and what it triggers."""

from __future__ import annotations

from doko_ledger.doppelkopf.game.facts import deal_facts
from doko_ledger.doppelkopf.game.parties import is_lone, true_parties
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.rules.announcements import Party
from doko_ledger.doppelkopf.rules.bock import deal_triggers
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.value import ValueDeal
from doko_ledger.doppelkopf.score import score_game
from doko_ledger.doppelkopf.sight import as_the_table_knows
from doko_ledger.frozen import frozen


@frozen
class DealOutcome:
    """One deal of the night, as the schedule and the standings see it.

    `dealer` is the game's dealer seat among its four players; `deltas` are the game's
    points by player before any bock multiplier; `solo_by` is the player of a declared
    solo (what counts as a compulsory solo; not a silent solo nor a lone marriage).
    """

    game_id: str
    players: tuple[str, ...]
    deltas: dict[str, int]
    abandoned: bool
    finished: bool
    game_type: GameType | None
    solo_by: str | None
    lone: bool
    winner: Party | None
    triggers: tuple[str, ...]
    re_players: tuple[str, ...] = ()
    valued: ValueDeal | None = None
    """A deal entered by its value only: who won and the value (docs/rules.md §7)."""

    @property
    def value_words(self) -> str | None:
        """Who won a deal entered by its value, and the value, in words (None for other deals)."""
        return None if self.valued is None else self.valued.words(self.players)

    def won(self, player: str) -> bool:
        """The player was on the winning party of a scored deal."""
        if self.winner is None or player not in self.players:
            return False
        return (player in self.re_players) == (self.winner is Party.RE)


def deal_outcome(state: GameState) -> DealOutcome:
    """The outcome of a recorded game (a finished one is scored under its own rules)."""
    names = state.players
    solo_by = None
    if state.game_type is not None and state.game_type.is_declared_solo and state.declarer is not None:
        solo_by = names[state.declarer]
    valued = state.valued
    if valued is not None and valued.solo and state.declarer is not None:  # the solo mark: a declared solo
        solo_by = names[state.declarer]
    if state.void or (state.abandoned is not None and state.penalties):
        return DealOutcome(
            state.game_id,
            names,
            score_game(state).by_player,
            state.abandoned is not None,
            state.void,
            state.game_type,
            solo_by,
            False,
            None,
            (),
        )
    if state.abandoned is not None or not state.finished:
        shown = state.game_type if state.over else as_the_table_knows(state.game_type, None)[0]  # being played
        return DealOutcome(
            state.game_id,
            names,
            dict.fromkeys(names, 0),
            state.abandoned is not None,
            False,
            shown,
            solo_by,
            False,
            None,
            (),
        )
    result = score_game(state)
    score = result.score
    assert score is not None
    if valued is not None:  # entered by its value: the sides and the triggers it names
        lone, triggers, re_seats = valued.lone is not None, valued.triggers, valued.re_seats
    else:
        lone, triggers = is_lone(state), deal_triggers(deal_facts(state), score.winner)
        re_seats = tuple(s for s, p in enumerate(true_parties(state)) if p is Party.RE)
    return DealOutcome(
        state.game_id,
        names,
        result.by_player,
        False,
        True,
        None if valued is not None else state.game_type,
        solo_by,
        lone,
        score.winner,
        triggers,
        tuple(names[s] for s in re_seats),
        valued,
    )
