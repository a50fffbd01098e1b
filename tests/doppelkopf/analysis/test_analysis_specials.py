"""The search for the result class and the special points within it: against every line of
short endings played out with the rules core (`legal_plays`, `best_index`) and scored by the
whole game's `specials` and `score`; positions worked out by hand (a fox to save, a Karlchen
to bring home, a Doppelkopf to make); and what the analysis of a game says of them."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from doko_ledger.doppelkopf.analysis.analyze import (
    Schwarz,
    analyze_game,
    deal_of,
    game_score,
    game_value,
)
from doko_ledger.doppelkopf.analysis.position import position
from doko_ledger.doppelkopf.analysis.solver import SearchLimit, Solver
from doko_ledger.doppelkopf.analysis.specials import (
    WEIGHT,
    Outcome,
    Past,
    SpecialsSearch,
    better_outcomes,
    lost_kinds,
    outcomes,
)
from doko_ledger.doppelkopf.analysis.thresholds import result_class, thresholds
from doko_ledger.doppelkopf.analysis.view import verdict_line
from doko_ledger.doppelkopf.cards import Card, parse_card, parse_cards
from doko_ledger.doppelkopf.files.game_file import read_file
from doko_ledger.doppelkopf.game.facts import specials
from doko_ledger.doppelkopf.game.state import Call, GameState, Trick
from doko_ledger.doppelkopf.rules.announcements import Announcement, Party
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.play import best_index, legal_plays, second_dulle_wins
from doko_ledger.doppelkopf.rules.ruleset import RuleSet
from doko_ledger.doppelkopf.rules.scoring import DealFacts, score
from doko_ledger.i18n import using

SAMPLES = Path(__file__).resolve().parents[3] / "sample_games"
NONE_ANNOUNCED = {Party.RE: -1, Party.KONTRA: -1}
RE_NO_90 = {Party.RE: 1, Party.KONTRA: -1}
EXTRAS = RuleSet(
    fox_caught_last_trick=True,
    fox_last_trick=True,
    double_fox_last_trick=True,
    double_karlchen=True,
    dulle_caught_dulle=True,
    heart_trick_point=True,
)


def cards(text: str) -> list[Card]:
    return list(parse_cards(text.split()))


def sample(name: str) -> GameState:
    return read_file(SAMPLES / name).state


def base(rules: RuleSet | None = None) -> GameState:
    """A normal game of standard rules (twelve tricks): what the search reads of a game."""
    state = sample("29-fox-and-karlchen.yaml")
    return state if rules is None else state.but(rules=rules)


def search_of(state: GameState, re: tuple[bool, bool, bool, bool], levels: dict[Party, int]) -> SpecialsSearch:
    deal = deal_of(state, state.game_id)
    return SpecialsSearch(state, deal.tables, re, GameType.NORMAL, False, levels)


# -- brute force: every line played out -------------------------------------------------------


def line_value(
    state: GameState, tricks: list[Trick], re: tuple[bool, ...], levels: dict[Party, int], rules: RuleSet
) -> int:
    """A whole game's class and special points, as the score counts them from its tricks."""
    parties = tuple(Party.RE if r else Party.KONTRA for r in re)
    done = state.but(tricks=tuple(tricks), current=None)
    re_points = sum(t.points for t in tricks if t.winner is not None and re[t.winner])
    re_tricks = sum(1 for t in tricks if t.winner is not None and re[t.winner])
    plain = DealFacts(GameType.NORMAL, False, re_points, re_tricks, len(tricks) - re_tricks, levels)
    full = DealFacts(
        GameType.NORMAL, False, re_points, re_tricks, len(tricks) - re_tricks, levels, specials=specials(done, parties)
    )
    cls = score(plain, rules).re_value
    return cls * WEIGHT + score(full, rules).re_value - cls


def brute(
    state: GameState,
    done: list[Trick],
    hands: list[list[Card]],
    leader: int,
    trick: list[Card],
    re: tuple[bool, ...],
    levels: dict[Party, int],
) -> int:
    """Best play of both parties for the class first and the special points second, every line tried."""
    rules, order = state.rules, state.order
    number = len(done) + 1
    if len(trick) == 4:
        last = number == state.hand_size
        winner = (leader + best_index(trick, order.keys, second_dulle_wins(rules, last, order.schweinchen))) % 4
        played = [*done, Trick(number, leader, tuple(trick), winner)]
        if last:
            return line_value(state, played, re, levels, rules)
        return brute(state, played, hands, winner, [], re, levels)
    seat = (leader + len(trick)) % 4
    values = []
    for card in set(legal_plays(hands[seat], trick, order)):
        hands[seat].remove(card)
        values.append(brute(state, done, hands, leader, [*trick, card], re, levels))
        hands[seat].append(card)
    return max(values) if re[seat] else min(values)


def dealt_anew(
    state: GameState, rng: random.Random, left: int, re_size: int, on_table: int
) -> tuple[list[Trick], list[list[Card]], tuple[bool, bool, bool, bool], int, list[Card]]:
    """The game's last `left` tricks' cards dealt anew at random among the four hands, the
    tricks before as played: those tricks, the hands, `re_size` seats drawn for Re, a leader,
    and fewer than `on_table` legal cards already on the table."""
    done = list(state.tricks[: state.hand_size - left])
    cards = [c for t in state.tricks[len(done) :] for c in t.cards]
    rng.shuffle(cards)
    hands = [cards[i * left : (i + 1) * left] for i in range(4)]
    re_seats = rng.sample(range(4), re_size)
    re = (0 in re_seats, 1 in re_seats, 2 in re_seats, 3 in re_seats)
    leader = rng.randrange(4)
    trick: list[Card] = []
    for i in range(rng.randrange(on_table)):
        seat = (leader + i) % 4
        card = rng.choice(legal_plays(hands[seat], trick, state.order))
        hands[seat].remove(card)
        trick.append(card)
    return done, hands, re, leader, trick


def past_of(state: GameState, done: list[Trick], re: tuple[bool, ...]) -> Past:
    """What the tricks `done` left, the parties being `re`."""
    parties = tuple(Party.RE if r else Party.KONTRA for r in re)
    re_won = [t for t in done if t.winner is not None and re[t.winner]]
    earned = specials(state.but(tricks=tuple(done)), parties)
    return Past(sum(t.points for t in re_won), len(re_won), len(done) - len(re_won), earned)


@pytest.mark.parametrize("rules_name", ["standard", "extra points"])
@pytest.mark.parametrize("levels", [NONE_ANNOUNCED, RE_NO_90], ids=["nothing announced", "Re no 90"])
@pytest.mark.parametrize("seed", range(10))
def test_the_search_finds_what_every_line_played_out_finds(
    rules_name: str, levels: dict[Party, int], seed: int
) -> None:
    """The last two or three tricks of the sample game dealt anew at random among the four
    hands, some cards already on the table: the search's value is that of every line tried."""
    state = base(None if rules_name == "standard" else EXTRAS)
    rng = random.Random(seed)
    done, hands, re, leader, trick = dealt_anew(state, rng, 2 + seed % 2, 2, 3)
    expected = brute(state, list(done), [list(h) for h in hands], leader, list(trick), re, levels)
    search = search_of(state, re, levels)
    past = past_of(state, done, re)
    pos = position(search.tables, hands, leader, trick, re)
    got = search.outcome(pos, past)
    near = search_of(state, re, levels).near(pos, past, WEIGHT * rng.randrange(-4, 5))  # from a guess
    assert (near.re_class, near.re_specials) == (got.re_class, got.re_specials)
    assert got.value == expected
    assert (got.re_class, got.re_specials) == divmod_class(expected)
    every = outcomes(search_of(state, re, levels), pos, past)  # a fresh table too
    mover = sign(re[pos.to_play])
    for number, outcome in every.items():
        assert mover * outcome.value <= mover * got.value, number
    for played in every:  # the cheaper question: the card played, and the cards that do better
        better = better_outcomes(search_of(state, re, levels), pos, past, played, rng.randrange(-3, 4))
        expected_better = {c for c, o in every.items() if mover * o.value > mover * every[played].value}
        assert set(better) == {played} | expected_better
        assert {c: o.value for c, o in better.items()} == {c: every[c].value for c in better}


def divmod_class(value: int) -> tuple[int, int]:
    re_class = (value + WEIGHT // 2) // WEIGHT
    return re_class, value - re_class * WEIGHT


def sign(re: bool) -> int:
    return 1 if re else -1


# -- positions worked out by hand ---------------------------------------------------------------

RE = (True, False, True, False)
"""Seats 0 and 2 play Re, 1 and 3 Kontra."""
PAST = Past(150, 5, 5, ())
"""Ten tricks played: Re took 150 card points, five tricks each, no special point yet."""


def by_card(found: dict[int, Outcome], search: SpecialsSearch) -> dict[str, Outcome]:
    return {str(search.tables.cards[c]): o for c, o in found.items()}


def test_a_fox_played_into_the_partners_trick_is_saved() -> None:
    """Kontra leads DJ into trick 11, Re's H10 takes it, Kontra adds CQ: Re's DA goes in now,
    or it is caught by Kontra's SQ in the last trick (Re's partner must lead CA there)."""
    search = search_of(base(), RE, NONE_ANNOUNCED)
    hands = [cards("DA D9"), cards("C9"), cards("CA"), cards("SQ")]
    pos = position(search.tables, hands, 1, cards("DJ H10 CQ"), RE)
    found = by_card(outcomes(search, pos, PAST), search)
    assert set(found) == {"DA", "D9"}
    saved, lost = found["DA"], found["D9"]
    assert saved.re_class == lost.re_class  # 176 or 165 for Re: the same class
    assert (saved.re_specials, lost.re_specials) == (0, -1)
    assert [s.kind.value for s in lost.line] == ["fox_caught"] and lost.line[0].party is Party.KONTRA
    assert lost_kinds(Party.RE, saved.line, lost.line) == ("fox_caught",)


def test_a_karlchen_is_brought_home_by_drawing_the_trump_above_it_first() -> None:
    """Re leads trick 11 holding CJ and H10: the H10 first draws Kontra's DQ, and the CJ takes
    the last trick; the CJ first loses it to the DQ, and the last trick to the H10."""
    search = search_of(base(), RE, NONE_ANNOUNCED)
    hands = [cards("CJ H10"), cards("DQ S9"), cards("SA S10"), cards("HJ SK")]
    pos = position(search.tables, hands, 0, (), RE)
    found = by_card(outcomes(search, pos, PAST), search)
    home, lost = found["H10"], found["CJ"]
    assert [s.kind.value for s in home.line] == ["karlchen"]
    assert home.re_specials == 1 and lost.re_specials == 0
    assert home.value > lost.value
    assert "karlchen" in lost_kinds(Party.RE, home.line, lost.line)


def test_a_doppelkopf_is_made_with_the_second_ace() -> None:
    """Re's SA leads trick 11, Kontra's S10 follows: Re's partner adds the other SA, Kontra's
    last S10 makes 42, a Doppelkopf; the S9 instead leaves 31, and 36 in the last trick."""
    search = search_of(base(), RE, NONE_ANNOUNCED)
    hands = [cards("CA"), cards("C10"), cards("SA S9"), cards("S10 CK")]
    pos = position(search.tables, hands, 0, cards("SA S10"), RE)
    found = by_card(outcomes(search, pos, PAST), search)
    made, missed = found["SA"], found["S9"]
    assert made.re_class == missed.re_class
    assert (made.re_specials, missed.re_specials) == (1, 0)
    assert lost_kinds(Party.RE, made.line, missed.line) == ("doppelkopf",)


# -- the analysis of a game ---------------------------------------------------------------------


def test_a_card_of_the_sample_poverty_that_let_the_fox_be_caught_costs_a_game_point() -> None:
    state = sample("18-poverty.yaml")
    analysis = analyze_game(state, game_id=state.game_id, from_trick=8)
    lost = [v for v in analysis.verdicts if v.specials_lost]
    assert [(v.trick, str(v.card), v.specials_lost, v.game_points) for v in lost] == [(8, "S10", ("fox_caught",), 1)]
    v = lost[0]
    deal = deal_of(state, state.game_id)
    assert game_value(deal, state, v.points_before) == game_value(deal, state, v.points_after)  # the class kept
    assert v.best == parse_card("SA")
    assert (
        verdict_line(v, state.players) == "Greta's ♠10 in trick 8: 1 card point, and fox caught (Fuchs): 1 game point"
    )


def test_a_solo_weighs_no_special_point() -> None:
    state = sample("03-heart-solo.yaml")
    analysis = analyze_game(state, game_id=state.game_id, from_trick=state.hand_size - 3)
    assert not any(v.specials_lost for v in analysis.verdicts)


# -- schwarz by tricks, and the targets the announcements set --------------------------------


def test_a_trick_of_nines_breaks_schwarz_though_it_holds_no_card_point() -> None:
    """Re took every trick so far and announced schwarz. Leading H9 lets Kontra's D9 take a
    trick of nines, worth nothing: the card points stay 240 for Re, the schwarz is lost; CQ
    first draws the D9 and keeps every trick."""
    state = base()
    levels = {Party.RE: 4, Party.KONTRA: -1}
    deal = replace(deal_of(state, state.game_id), re=RE, levels=levels)
    hands = [cards("CQ H9"), cards("D9 S9"), cards("C9 S9"), cards("H9 C9")]
    pos = position(deal.tables, hands, 0, (), RE)
    schwarz = Schwarz(deal, state.hand_size)
    cq, h9 = deal.tables.number[parse_card("CQ")], deal.tables.number[parse_card("H9")]
    assert schwarz.tricks(pos, cq, 240, 10) == (True, False)
    assert schwarz.tricks(pos, h9, 240, 10) == (True, True)
    kept, broken = game_score(deal, state, 240, True, False), game_score(deal, state, 240, True, True)
    assert kept.winner is Party.RE and broken.winner is Party.KONTRA  # the announced schwarz missed
    search = search_of(state, RE, levels)
    found = by_card(outcomes(search, pos, Past(237, 10, 0, ())), search)
    assert found["CQ"].re_class == kept.re_value and found["H9"].re_class == broken.re_value


def announced(state: GameState, seat: int, what: Announcement) -> GameState:
    """`state` as if `seat` had made the call `what` with the first card."""
    party = Party.RE if what is not Announcement.KONTRA else Party.KONTRA
    return state.but(calls=(*state.calls, Call(seat, what, party, 0, 1)))


def test_a_card_that_makes_an_announced_no_60_fail_costs_the_game() -> None:
    """Anna's D9 in trick 9 of the sample normal game lets Re fall from 187 to 166 card points:
    one game point below no 60 as played; had Re announced no 60, the game itself."""
    plain = sample("01-normal.yaml")
    anna = plain.players.index("Anna")
    state = announced(plain, anna, Announcement.NO60)
    deal = deal_of(state, state.game_id)
    assert deal.levels[Party.RE] == 2 and 181 in thresholds(deal, state) and 121 not in thresholds(deal, state)
    worst = analyze_game(state, game_id=state.game_id, from_trick=9).costly()[0]
    assert (str(worst.card), worst.trick, worst.points_before, worst.points_after) == ("D9", 9, 187, 166)
    cost = game_value(deal, state, 187) - game_value(deal, state, 166)
    assert worst.lost and worst.game_points == cost > 1
    assert verdict_line(worst, state.players).endswith("Re 187 → 166, lost")


def test_a_game_lost_by_the_target_kontra_alone_announced_says_lost() -> None:
    """Only Kontra announced: Re wins with 120. Dirk's HJ let Re reach 120 from 117."""
    state = sample("27-kontra-only-120.yaml")
    analysis = analyze_game(state, game_id=state.game_id, from_trick=9)
    v = next(v for v in analysis.verdicts if v.trick == 9 and str(v.card) == "HJ")
    assert (v.points_before, v.points_after, v.lost) == (117, 120, True)
    assert verdict_line(v, state.players).endswith("Re 117 → 120, lost")


def test_a_verdict_is_worded_in_the_readers_language() -> None:
    state = sample("18-poverty.yaml")
    v = next(v for v in analyze_game(state, game_id=state.game_id, from_trick=8).verdicts if v.specials_lost)
    with using("de"):
        assert verdict_line(v, state.players) == "Greta, ♠10 in Stich 8: 1 Auge, dazu Fuchs gefangen: 1 Spielpunkt"
    with using("fr"):
        assert verdict_line(v, state.players) == (
            "Greta, ♠10 au pli 8 : 1 point de cartes, et renard pris : 1 point de partie"
        )
    lost = replace(v, specials_lost=(), lost=True, game_points=3, card=parse_card("CQ"))
    with using("de"):
        assert verdict_line(lost, state.players).endswith(
            "♣D in Stich 8: 1 Auge, dazu das Spiel: Re 164 → 165, verloren"
        )
    with using("fr"):
        assert verdict_line(lost, state.players).endswith("et la partie : Re 164 → 165, perdue")


def test_the_threshold_questions_take_schwarz_by_tricks() -> None:
    """Before the last trick of the sample where four nines broke Re's schwarz: Re has every
    card point to come, but Ben's D9 takes the trick, so Re does not reach the schwarz class."""
    state = sample("28-schwarz-broken-by-nines.yaml")
    deal = deal_of(state, state.game_id)
    steps = thresholds(deal, state)
    hands = [list(state.all_tricks[-1].cards[(seat - state.all_tricks[-1].leader) % 4 :][:1]) for seat in range(4)]
    pos = position(deal.tables, hands, state.all_tricks[-1].leader, (), deal.re)
    solver = Solver(deal.tables, deal.re)
    assert result_class(solver, pos, 240, steps) == 240  # by card points alone: nothing lost
    schwarz = Schwarz(deal, state.hand_size)
    assert result_class(solver, pos, 240, steps, schwarz, (11, 0)) == steps[-2] < 240
    assert game_value(deal, state, 240, True, True) == game_value(deal, state, steps[-2])


def test_the_search_limit_counts_one_questions_positions() -> None:
    """A question past the limit has no answer; the next, smaller one still has."""
    state = base()
    deal = deal_of(state, state.game_id)
    search = SpecialsSearch(state, deal.tables, RE, GameType.NORMAL, False, NONE_ANNOUNCED, limit=60)
    big = [cards("CQ DA S9"), cards("H10 DK C9"), cards("CA SA D9"), cards("SQ HA HK")]
    with pytest.raises(SearchLimit):
        outcomes(search, position(search.tables, big, 0, (), RE), Past(120, 4, 5, ()))
    small = [cards("DA D9"), cards("C9"), cards("CA"), cards("SQ")]
    found = outcomes(search, position(search.tables, small, 1, cards("DJ H10 CQ"), RE), PAST)
    assert {str(search.tables.cards[c]) for c in found} == {"DA", "D9"}
