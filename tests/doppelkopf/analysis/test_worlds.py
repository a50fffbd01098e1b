"""The sampled worlds: deals the player could not tell from the real one, and the share of them
in which a card was worse, by the measure of the card's cost in the real deal (card points, the
result class, or the special points within it), checked against every card's exact value."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from doko_ledger.doppelkopf.analysis.analyze import analyze_game, deal_of, game_value, judge, past_before
from doko_ledger.doppelkopf.analysis.position import Position, position
from doko_ledger.doppelkopf.analysis.solver import Solver
from doko_ledger.doppelkopf.analysis.specials import legal_cards
from doko_ledger.doppelkopf.analysis.verdicts import CardVerdict
from doko_ledger.doppelkopf.analysis.worlds import _known, _voids, sample_worlds, world_deal
from doko_ledger.doppelkopf.cards import parse_card
from doko_ledger.doppelkopf.files.game_file import read_file
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.play import SEATS

SAMPLES = Path(__file__).resolve().parents[3] / "sample_games"


def sample(name: str) -> GameState:
    return read_file(SAMPLES / name).state


def before(state: GameState, v: CardVerdict) -> Position:
    """The position the card of verdict `v` was played from, every hand as dealt for play."""
    return at(state, v.trick, v.index % SEATS)


def at(state: GameState, number: int, i: int) -> Position:
    """The position before the `i`-th card of trick `number` (from 0)."""
    deal = deal_of(state, state.game_id)
    hands = [list(hand) for hand in deal.hands]
    for trick in state.all_tricks[: number - 1]:
        for seat, card in trick.plays:
            hands[seat].remove(card)
    trick = state.all_tricks[number - 1]
    for seat, card in trick.plays[:i]:
        hands[seat].remove(card)
    return position(deal.tables, hands, trick.leader, trick.cards[:i], deal.re)


def exact_values(state: GameState, world: Position, trick: int) -> dict[int, tuple[int, int]]:
    """Per legal card of the player to move in `world`: the party's card points at the end of
    the game with best play, and the game's value for the party (no special point counted)."""
    deal = replace(deal_of(state, state.game_id), re=world.re)
    solver = Solver(deal.tables, world.re)
    taken = past_before(state, world.re, trick, False).re_points
    mine = world.re[world.to_play]
    out = {}
    for card in legal_cards(deal.tables, world):
        re_points = taken + solver.value_after(world, card)
        assert 0 < re_points < 240  # no schwarz in this ending: card points settle the class
        value = game_value(deal, state, re_points)
        out[card] = (re_points, value) if mine else (240 - re_points, -value)
    return out


def test_a_card_that_cost_the_game_is_worse_in_a_world_only_where_it_costs_the_game_there() -> None:
    """Anna's D9 in trick 9 of the sample normal game cost 21 card points and, with them, the
    class above no 60. In the deals Anna could not rule out, it gives away card points more often
    than it gives away that class: the share counts only the worlds where the game's value fell."""
    state = sample("01-normal.yaml")
    analysis = analyze_game(state, game_id=state.game_id, from_trick=9, worlds=24, seed=5)
    v = next(v for v in analysis.verdicts if v.trick == 9 and str(v.card) == "D9")
    assert v.game_points == 1 and v.cost == 21 and v.worse_share is not None
    pos = before(state, v)
    deal = deal_of(state, state.game_id)
    played = deal.tables.number[v.card]
    worlds = sample_worlds(state, deal, pos, 24, 5 + v.index)
    assert len(worlds) == 24
    by_game = by_points = 0
    for world in worlds:
        assert world.hands[world.to_play] == pos.hands[pos.to_play] and world.trick == pos.trick
        values = exact_values(state, world, v.trick)
        by_points += max(p for p, _ in values.values()) > values[played][0]
        by_game += max(g for _, g in values.values()) > values[played][1]
    assert v.worse_share == by_game / len(worlds)
    assert 0 < by_game < by_points  # some worlds lose card points but keep the class
    assert not v.mistake


def test_a_card_that_cost_card_points_only_is_judged_by_card_points_in_each_world() -> None:
    state = sample("01-normal.yaml")
    analysis = analyze_game(state, game_id=state.game_id, from_trick=9, worlds=16, seed=2)
    deal = deal_of(state, state.game_id)
    points_only = [v for v in analysis.verdicts if v.cost > 0 and not v.game_points]
    assert points_only
    for v in points_only:
        played = deal.tables.number[v.card]
        worlds = sample_worlds(state, deal, before(state, v), 16, 2 + v.index)
        worse = 0
        for world in worlds:
            values = exact_values(state, world, v.trick)
            worse += max(p for p, _ in values.values()) > values[played][0]
        assert v.worse_share == worse / len(worlds)


def test_the_real_deal_judged_as_a_world_finds_the_card_worse_by_its_own_measure() -> None:
    """The fox the poverty's S10 let be caught: the special points decide in the real deal, and
    the world that is the real deal finds the card worse by them, while the class is kept."""
    state = sample("18-poverty.yaml")
    v = next(v for v in analyze_game(state, game_id=state.game_id, from_trick=8).verdicts if v.specials_lost)
    deal = deal_of(state, state.game_id)
    pos = before(state, v)
    played = deal.tables.number[v.card]
    assert judge(state, deal, v.trick, played, by_game=True, weighed=True)(pos) is True
    assert judge(state, deal, v.trick, played, by_game=True, weighed=False)(pos) is False  # the class alone: kept


def test_the_same_seed_gives_the_same_worlds_and_shares() -> None:
    state = sample("18-poverty.yaml")
    first = analyze_game(state, game_id=state.game_id, from_trick=8, worlds=6, seed=11)
    again = analyze_game(state, game_id=state.game_id, from_trick=8, worlds=6, seed=11)
    assert first == again
    shared = [v for v in first.verdicts if v.worse_share is not None]
    assert any(v.specials_lost for v in shared)  # the fox, judged by its special point
    assert all(v.cost > 0 or v.game_points > 0 for v in shared)
    deal = deal_of(state, state.game_id)
    v = shared[0]
    assert sample_worlds(state, deal, before(state, v), 6, 11) == sample_worlds(state, deal, before(state, v), 6, 11)


def test_a_marriages_queens_stay_with_the_one_who_announced_it_in_every_world() -> None:
    state = sample("14-marriage-first-trick.yaml")
    karl = state.players.index("Karl")
    deal = deal_of(state, state.game_id)
    queen = deal.tables.number[parse_card("CQ")]
    pos = at(state, 2, 0)  # Hannes leads trick 2; Karl's CQs fall in tricks 4 and 6
    assert pos.to_play != karl
    worlds = sample_worlds(state, deal, pos, 12, 1)
    assert len(worlds) == 12
    assert all(w.hands[karl] >> (2 * queen) & 3 == 3 for w in worlds)
    assert len({w.hands for w in worlds}) > 1  # the other cards are dealt anew


def test_the_poor_player_knows_which_passed_trumps_the_partner_kept() -> None:
    """Karl passed H10, HQ, DJ to Hannes and got back C9, C9, H9: before Karl's card of trick 3,
    Hannes holds the HQ and the DJ in every world Karl could imagine (both H10s are played)."""
    state = sample("18-poverty.yaml")
    karl, hannes = state.players.index("Karl"), state.players.index("Hannes")
    deal = deal_of(state, state.game_id)
    trick = state.all_tricks[2]
    pos = at(state, 3, [seat for seat, _ in trick.plays].index(karl))
    assert pos.to_play == karl
    kept = [deal.tables.number[parse_card(c)] for c in ("HQ", "DJ")]
    worlds = sample_worlds(state, deal, pos, 12, 4)
    assert len(worlds) == 12
    for w in worlds:
        assert all(w.hands[hannes] >> (2 * card) & 1 for card in kept)
    assert len({w.hands for w in worlds}) > 1


@pytest.mark.parametrize("name", ["12-bistro-schweinchen.yaml", "25-bistro-club-solo.yaml", "01-normal.yaml"])
def test_the_real_deal_keeps_every_bound_a_world_is_sampled_within(name: str) -> None:
    """At every card of the game (ten tricks without nines, twelve with them), the voids shown so
    far and the cards known for certain hold of the real hands: the real deal is always a world."""
    state = sample(name)
    deal = deal_of(state, state.game_id)
    t = deal.tables
    for trick in state.all_tricks:
        for i in range(len(trick.plays)):
            pos = at(state, trick.number, i)
            for seat, void in enumerate(_voids(state, deal, pos)):
                assert not pos.hands[seat] & sum(t.suit_bits[s] for s in range(5) if void >> s & 1), (trick.number, i)
            for seat, cards in _known(state, deal, pos).items():
                assert all(pos.hands[seat] >> (2 * card) & 3 for card in cards)


def _queen_holders(state: GameState, world: Position, number: int, i: int) -> list[bool]:
    """Per seat, whether it holds a CQ in `world` or played one before the `i`-th card of trick `number`."""
    queen = deal_of(state, state.game_id).tables.number[parse_card("CQ")]
    plays = [play for trick in state.all_tricks for play in trick.plays][: (number - 1) * SEATS + i]
    played = {seat for seat, card in plays if str(card) == "CQ"}
    return [s in played or bool(world.hands[s] >> (2 * queen) & 3) for s in range(SEATS)]


def test_in_a_normal_game_a_player_without_a_queen_cannot_rule_out_a_silent_solo() -> None:
    """Nobody has shown a party in the first trick of the sample normal game: to a player
    without a CQ, one of the others may hold both and play a silent solo. Such worlds are
    sampled, with the lone holder as Re and judged as a solo; the others are normal games."""
    state = sample("01-normal.yaml")
    deal = deal_of(state, state.game_id)
    i = next(i for i, (seat, _) in enumerate(state.all_tricks[0].plays) if not deal.re[seat])
    worlds = sample_worlds(state, deal, at(state, 1, i), 40, 3)
    assert len(worlds) == 40
    for w in worlds:
        assert list(w.re) == _queen_holders(state, w, 1, i)
    solos = [w for w in worlds if sum(w.re) == 1]
    assert solos and len(solos) < len(worlds)
    alone = world_deal(deal, solos[0].re)
    assert alone.game_type is GameType.SILENT_SOLO and alone.lone
    assert world_deal(deal, deal.re) == deal


def test_a_player_with_a_queen_knows_the_game_is_no_silent_solo() -> None:
    state = sample("01-normal.yaml")
    deal = deal_of(state, state.game_id)
    seat = next(s for s in range(SEATS) if deal.re[s])
    trick = state.all_tricks[0]
    i = [s for s, _ in trick.plays].index(seat)
    worlds = sample_worlds(state, deal, at(state, 1, i), 30, 8)
    assert len(worlds) == 30
    assert all(sum(w.re) == 2 and w.re[seat] for w in worlds)
    assert all(list(w.re) == _queen_holders(state, w, 1, i) for w in worlds)


def test_a_silent_solo_looks_like_a_normal_game_to_everybody_but_its_soloist() -> None:
    """Karl plays both CQs in tricks 5 and 8 of the sample silent solo. Before, Greta cannot tell
    it from a normal game: her worlds hold normal games (two Re players, judged as such) beside
    silent solos. Karl's own worlds are all his solo."""
    state = sample("17-silent-solo.yaml")
    deal = deal_of(state, state.game_id)
    karl, greta = state.players.index("Karl"), state.players.index("Greta")
    assert deal.game_type is GameType.SILENT_SOLO and deal.re == tuple(s == karl for s in range(SEATS))
    pos = at(state, 2, 0)  # Greta leads trick 2
    assert pos.to_play == greta
    worlds = sample_worlds(state, deal, pos, 40, 2)
    assert len(worlds) == 40
    assert all(list(w.re) == _queen_holders(state, w, 2, 0) for w in worlds)
    normal = [w for w in worlds if sum(w.re) == 2]
    assert normal and len(normal) < len(worlds)
    assert world_deal(deal, normal[0].re).game_type is GameType.NORMAL
    assert not world_deal(deal, normal[0].re).lone
    trick = state.all_tricks[1]
    mine = sample_worlds(state, deal, at(state, 2, [s for s, _ in trick.plays].index(karl)), 20, 2)
    assert len(mine) == 20 and all(w.re == deal.re for w in mine)


def test_a_card_of_a_silent_solo_is_judged_in_worlds_of_both_contracts() -> None:
    """Greta's S9, the lead of trick 8, cost a card point. Karl has played one CQ: Greta's worlds
    hold the other with Karl (his silent solo) or with another player (a normal game), and the
    share of them in which the S9 was worse is taken over both."""
    state = sample("17-silent-solo.yaml")
    analysis = analyze_game(state, game_id=state.game_id, from_trick=7, worlds=8, seed=1)
    v = next(v for v in analysis.verdicts if v.trick == 8 and str(v.card) == "S9")
    assert v.cost > 0 and v.worse_share is not None
    deal = deal_of(state, state.game_id)
    worlds = sample_worlds(state, deal, before(state, v), 8, 1 + v.index)
    assert {sum(w.re) for w in worlds} == {1, 2}


def test_a_marriage_world_keeps_the_marriage() -> None:
    state = sample("14-marriage-first-trick.yaml")
    deal = deal_of(state, state.game_id)
    lone = tuple(s == 0 for s in range(SEATS))
    assert world_deal(deal, (lone[0], lone[1], lone[2], lone[3])).game_type is GameType.MARRIAGE
