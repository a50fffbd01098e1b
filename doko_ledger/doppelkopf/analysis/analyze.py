"""The analysis of a game recorded card by card: for every card played, what each card the
player could have played was worth, every hand known (docs/rules.md §7).

Pure: a folded `GameState` in, a `GameAnalysis` out. The record says what happened (who led,
who took each trick); the solver says what could have happened.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from doko_ledger.doppelkopf.analysis.position import CARD_TYPES, TOTAL_POINTS, Position, Tables, position, tables
from doko_ledger.doppelkopf.analysis.solver import SearchLimit, Solver
from doko_ledger.doppelkopf.analysis.specials import Past, SpecialsSearch, better_outcomes, lost_kinds
from doko_ledger.doppelkopf.analysis.verdicts import SOLVER_VERSION, Alternative, CardVerdict, GameAnalysis
from doko_ledger.doppelkopf.analysis.worlds import beaten, world_deal, worse_share
from doko_ledger.doppelkopf.cards import Card
from doko_ledger.doppelkopf.game.facts import lone_marriage_tricks, specials
from doko_ledger.doppelkopf.game.parties import is_lone, party_calls, true_parties
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.rules.announcements import Party
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.play import SEATS, second_dulle_wins
from doko_ledger.doppelkopf.rules.scoring import DealFacts, Score, Special, score, special_points_count
from doko_ledger.errors import DokoError
from doko_ledger.i18n import msg

if TYPE_CHECKING:
    from doko_ledger.doppelkopf.analysis.worlds import Judge


class NotAnalyzable(DokoError):
    """A game the analysis cannot take: recorded by its facts, without cards played, without
    every card of every hand, or asked from a trick it does not have."""

    exit_code = 2


@dataclass(frozen=True, slots=True)
class Deal:
    """What the solver needs of a game: its tables, the hands as dealt for play (after a
    poverty's exchange), the parties, and the game's announced levels."""

    tables: Tables
    hands: tuple[tuple[Card, ...], ...]
    re: tuple[bool, bool, bool, bool]
    game_type: GameType
    lone: bool
    levels: dict[Party, int]


def deal_of(state: GameState, game_id: str) -> Deal:
    """The deal of a game recorded card by card; `NotAnalyzable` says why another game is not."""
    if state.summary is not None or state.valued is not None:
        raise NotAnalyzable(
            msg("game {game} was recorded by its facts, not card by card: no card to analyse", game=repr(game_id))
        )
    played = state.cards_played
    if state.game_type is None or not played:
        raise NotAnalyzable(msg("game {game} has no card played: nothing to analyse", game=repr(game_id)))
    size = state.hand_size
    if state.hands is not None:
        hands = tuple(state.played_by(s) + state.hands[s] for s in range(4))
    elif state.finished:
        hands = tuple(state.played_by(s) for s in range(4))
    else:
        raise NotAnalyzable(
            msg("game {game}: the hands were not recorded and not every card is played", game=repr(game_id))
        )
    short = [state.players[s] for s, hand in enumerate(hands) if len(hand) != size]
    if short:
        raise NotAnalyzable(
            msg(
                "game {game}: the record does not show all {size} cards of {players}",
                game=repr(game_id),
                size=size,
                players=", ".join(short),
            )
        )
    parties = true_parties(state)
    if None in parties:
        raise NotAnalyzable(msg("game {game}: the record does not show every player's party", game=repr(game_id)))
    order = state.order
    rules = state.rules
    table = tables(
        order,
        rules,
        second_dulle_wins(rules, False, order.schweinchen),
        second_dulle_wins(rules, True, order.schweinchen),
    )
    re = tuple(p is Party.RE for p in parties)
    levels = {party: calls.level for party, calls in party_calls(state).items()}
    return Deal(table, hands, (re[0], re[1], re[2], re[3]), state.game_type, is_lone(state), levels)


def game_score(
    deal: Deal, state: GameState, re_points: int, re_trick: bool | None = None, kontra_trick: bool | None = None
) -> Score:
    """The game's score without special points (docs/rules.md §6-§7) when Re ends with
    `re_points`, the announcements made: who wins and Re's value. `re_trick`, `kontra_trick`:
    whether each party took a trick (schwarz is a party without one); by default a party took
    one when it has card points."""
    facts = DealFacts(
        game_type=deal.game_type,
        lone=deal.lone,
        re_points=re_points,
        re_tricks=int(re_points > 0 if re_trick is None else re_trick),
        kontra_tricks=int(re_points < TOTAL_POINTS if kontra_trick is None else kontra_trick),
        announced=deal.levels,
    )
    return score(facts, state.rules)


def game_value(
    deal: Deal, state: GameState, re_points: int, re_trick: bool | None = None, kontra_trick: bool | None = None
) -> int:
    """What the game is worth to Re (per share; negative when Re loses) when Re ends with
    `re_points` (and, as `game_score` takes them, the tricks), no special point counted."""
    return game_score(deal, state, re_points, re_trick, kontra_trick).re_value


SPECIALS_LIMIT = 400_000
"""At most so many positions searched for one card's special points (some ten seconds): the
search for the class and the special points within it has no table of card points to lean
on, and takes a few seconds for a card of the last six tricks, far longer from the first. A
card past the limit is weighed by its card points and result class alone, and says so
(`specials_unweighed`)."""


def analyze_game(
    state: GameState,
    *,
    game_id: str,
    from_trick: int = 1,
    worlds: int = 0,
    seed: int = 0,
    plain: bool = False,
    specials_limit: int = SPECIALS_LIMIT,
) -> GameAnalysis:
    """The verdict on every card played from trick `from_trick` on.

    `worlds`: for each card that cost something, how many deals the player could not tell
    from the real one to sample (the same `seed`, the same deals); 0 samples none. `plain`:
    with the plain search (no table, ordering or equivalence), the benchmark's floor.
    Special points are weighed for every card where the rules count them, each card's search
    for them bounded by `specials_limit` positions (a card past it says so).
    Raises `NotAnalyzable` for a game recorded by its facts, one without cards played or
    without every card known, and for a trick the game has not reached.
    """
    deal = deal_of(state, game_id)
    tricks = state.all_tricks
    require_trick(game_id, from_trick, len(tricks))
    solver = Solver(deal.tables, deal.re, plain=plain)
    schwarz = Schwarz(deal, state.hand_size)
    counted = special_points_count(deal.game_type, deal.lone, state.rules)
    search = SpecialsSearch(state, deal.tables, deal.re, deal.game_type, deal.lone, deal.levels, limit=specials_limit)
    number = deal.tables.number
    hands = [list(hand) for hand in deal.hands]
    index = 0
    verdicts: list[CardVerdict] = []
    for trick in tricks:
        if trick.number < from_trick:
            for seat, card in trick.plays:
                hands[seat].remove(card)
            index += len(trick.cards)
            continue
        past = past_before(state, deal.re, trick.number, counted)
        for i, (seat, card) in enumerate(trick.plays):
            pos = position(deal.tables, hands, trick.leader, trick.cards[:i], deal.re)
            played = number[card]
            verdict = _verdict(
                solver, schwarz, deal, state, pos, played, past.re_points, past.re_tricks, index, trick.number
            )
            if counted:
                verdict = _with_specials(search, solver, verdict, pos, played, past)
            if worlds and (verdict.cost > 0 or verdict.game_points > 0):
                weighed = counted and not verdict.specials_unweighed
                by_game = verdict.game_points > 0
                by_measure = judge(state, deal, trick.number, played, by_game, weighed, specials_limit)
                verdict = replace(verdict, worse_share=worse_share(state, deal, pos, worlds, seed + index, by_measure))
            verdicts.append(verdict)
            hands[seat].remove(card)
            index += 1
    return GameAnalysis(game_id, SOLVER_VERSION, from_trick, tuple(verdicts))


def past_before(state: GameState, re: tuple[bool, bool, bool, bool], number: int, weigh: bool) -> Past:
    """What the tricks before trick `number` left, the parties being `re`: Re's card points,
    each party's tricks and, when `weigh`, the special points earned (none after a lone
    marriage's tricks of finding a partner)."""
    won = [(t.winner, t.points) for t in state.all_tricks[: number - 1] if t.winner is not None]
    re_won = [points for winner, points in won if re[winner]]
    earned: tuple[Special, ...] = ()
    if weigh:
        parties = tuple(Party.RE if r else Party.KONTRA for r in re)
        upto = lone_marriage_tricks(state)
        earned = specials(state, parties, number - 1 if upto is None else min(upto, number - 1))
    return Past(sum(re_won), len(re_won), len(won) - len(re_won), earned)


def judge(
    state: GameState,
    deal: Deal,
    number: int,
    played: int,
    by_game: bool,
    weighed: bool,
    limit: int = SPECIALS_LIMIT,
) -> Judge:
    """How a sampled world (a position of trick `number` with its own parties) judges card
    number `played`: by the measure of its cost in the real deal. `by_game`: it cost game
    points there, so it is worse where another card keeps more of the game's value for the
    player's party (the result class, and the special points within it when `weighed` and the
    world's contract counts them: a world of a normal game may be a silent solo); else where
    another card secures more card points. A world whose search for the special points passes
    `limit` positions has no answer."""

    def worse(world: Position) -> bool | None:
        solver = Solver(deal.tables, world.re)
        if not by_game:
            return beaten(solver, world, played)
        mine = world_deal(deal, world.re)
        counted = weighed and special_points_count(mine.game_type, mine.lone, state.rules)
        past = past_before(state, world.re, number, counted)
        if counted:
            search = SpecialsSearch(state, deal.tables, world.re, mine.game_type, mine.lone, mine.levels, limit=limit)
            try:
                return len(better_outcomes(search, world, past, played)) > 1
            except SearchLimit:
                return None
        schwarz = Schwarz(mine, state.hand_size)
        verdict = _verdict(solver, schwarz, mine, state, world, played, past.re_points, past.re_tricks, 0, number)
        return verdict.game_points > 0

    return worse


def _with_specials(
    search: SpecialsSearch, solver: Solver, verdict: CardVerdict, pos: Position, played: int, past: Past
) -> CardVerdict:
    """`verdict` weighed by the result class first and the special points within it second: the
    class by card points and tricks (schwarz: no trick taken), the best card the one that keeps
    the best class and the most special points in it (of those, the most card points). A card
    that kept the class but gave up special points costs them: `specials_lost` by kind, and
    their net as game points. Where the search stopped at its limit, unchanged but for saying
    so (`specials_unweighed`)."""
    t = search.tables
    re_tricks = past.re_tricks + (verdict.points_after > past.re_points)
    kontra_tricks = past.kontra_tricks + (verdict.points_after < TOTAL_POINTS)
    guess = search.re_class(verdict.points_after, re_tricks, kontra_tricks)  # the class by card points
    try:
        found = better_outcomes(search, pos, past, played, guess)
    except SearchLimit:
        return replace(verdict, specials_unweighed=True)
    sign = 1 if verdict.party is Party.RE else -1
    values = {t.number[a.card]: a.value for a in verdict.alternatives}
    for card in found:
        if card not in values:  # a card that plays as another does for card points alone
            re_points = past.re_points + solver.value_after(pos, card)
            values[card] = re_points if sign > 0 else TOTAL_POINTS - re_points
    mine = found[played]
    best = max(found, key=lambda c: (sign * found[c].value, values[c], c == played))
    top = found[best]
    if sign * top.value <= sign * mine.value:
        return replace(verdict, game_points=0, lost=False)
    alternatives = tuple(Alternative(t.cards[c], values[c]) for c in sorted(values))
    better = replace(verdict, best=t.cards[best], best_value=values[best], alternatives=alternatives)
    classes = sign * (top.re_class - mine.re_class)
    if classes:
        return replace(better, game_points=classes)
    counted = [s for s in (*top.line, *mine.line) if search.re_specials((s,))]  # not those the rules leave out
    lost = lost_kinds(
        verdict.party, tuple(s for s in top.line if s in counted), tuple(s for s in mine.line if s in counted)
    )
    return replace(better, game_points=sign * (top.re_specials - mine.re_specials), specials_lost=lost, lost=False)


class Schwarz:
    """Whether a party takes a trick with best play, where card points cannot tell (docs/rules.md
    §7: schwarz is a party without a trick, and with nines a trick may hold no card point): the
    solver on tables in which every card is worth one point counts tricks instead."""

    def __init__(self, deal: Deal, hand_size: int) -> None:
        self.solver = Solver(replace(deal.tables, points=(1,) * CARD_TYPES), deal.re)
        self.hand_size = hand_size

    def tricks(self, pos: Position, card: int, re_points: int, re_tricks: int) -> tuple[bool, bool]:
        """Whether Re and Kontra each end with a trick once `card` is played, Re ending with
        `re_points` card points and having taken `re_tricks` tricks so far: where one party
        ends without card points, whether the other party can keep it without a trick too."""
        if 0 < re_points < TOTAL_POINTS:
            return True, True
        re_total = re_tricks + self.solver.value_after(pos, card) // SEATS
        return (re_total > 0, True) if re_points == 0 else (True, re_total < self.hand_size)


def _verdict(
    solver: Solver,
    schwarz: Schwarz,
    deal: Deal,
    state: GameState,
    pos: Position,
    played: int,
    re_taken: int,
    re_tricks: int,
    index: int,
    trick: int,
) -> CardVerdict:
    seat = pos.to_play
    party = Party.RE if deal.re[seat] else Party.KONTRA
    cards = deal.tables.cards
    re_totals: dict[int, int] = {}
    for group in solver.classes(pos):
        card = played if played in group else group[0]
        re_totals[card] = re_taken + solver.value_after(pos, card)
    if played not in re_totals:  # a card the rules did not allow (a revoke the record shows)
        re_totals[played] = re_taken + solver.value_after(pos, played)
    scores = {
        card: game_score(deal, state, total, *schwarz.tricks(pos, card, total, re_tricks))
        for card, total in re_totals.items()
    }

    def own(re_points: int) -> int:
        return re_points if party is Party.RE else TOTAL_POINTS - re_points

    sign = 1 if party is Party.RE else -1
    best = max(re_totals, key=lambda c: (sign * scores[c].re_value, own(re_totals[c]), c == played))
    before, after = re_totals[best], re_totals[played]
    lost = sign * (scores[best].re_value - scores[played].re_value)
    return CardVerdict(
        index=index,
        trick=trick,
        seat=seat,
        card=cards[played],
        party=party,
        value=own(after),
        best=cards[best],
        best_value=own(before),
        alternatives=tuple(Alternative(cards[c], own(v)) for c, v in re_totals.items()),
        points_before=before,
        points_after=after,
        game_points=max(lost, 0),
        lost=scores[best].winner is party and scores[played].winner is not party,
    )


def require_trick(game_id: str, from_trick: int, played: int) -> None:
    """Refuses an analysis asked from a trick the game did not reach."""
    if not 1 <= from_trick <= played:
        raise NotAnalyzable(
            msg(
                "game {game} has no trick {trick}: tricks 1 to {last} were played",
                game=repr(game_id),
                trick=from_trick,
                last=played,
            )
        )
