"""Special points found in real play (docs/rules.md §7): *Fuchs*, *Doppelkopf*, *Karlchen*.

The games are written trick by trick, one card per seat (seat 0 … 3); the play order follows
from the winners, the hands from the tricks, and every card goes through `decide`, so each
game is a legal one.
"""

from __future__ import annotations

from collections import Counter

import pytest
from helpers import cards

from doko_ledger.doppelkopf.cards import Card, deck
from doko_ledger.doppelkopf.files.game_file import read_file
from doko_ledger.doppelkopf.game import (
    AnswerPoverty,
    Command,
    DealCards,
    DeclareReservation,
    GameState,
    NameReservation,
    PassPovertyCards,
    PlayCard,
    ReturnPovertyCards,
    StartGame,
    decide,
    evolve,
)
from doko_ledger.doppelkopf.game.facts import deal_facts, specials
from doko_ledger.doppelkopf.game.parties import is_lone, true_parties
from doko_ledger.doppelkopf.rules.announcements import Party
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.order import card_order
from doko_ledger.doppelkopf.rules.play import winning_index
from doko_ledger.doppelkopf.rules.reservations import ReservationKind, asking_order
from doko_ledger.doppelkopf.rules.ruleset import RuleSet, preset, rules_from_mapping
from doko_ledger.doppelkopf.rules.scoring import SpecialKind
from doko_ledger.doppelkopf.score import score_game

G = GameType
RE, KONTRA = Party.RE, Party.KONTRA
FOX, KARLCHEN, CAPTURED, DOPPELKOPF = (
    SpecialKind.FOX_CAUGHT,
    SpecialKind.KARLCHEN,
    SpecialKind.KARLCHEN_CAPTURED,
    SpecialKind.DOPPELKOPF,
)
STANDARD = preset("standard")
PLAYERS = ("Anna", "Ben", "Cleo", "Dirk")
DEALER = 3  # Anna (seat 0) leads the first trick


def replaced(tricks: list[str], changes: dict[int, str]) -> list[str]:
    """`tricks` with some tricks (numbered from 1) written differently."""
    return [changes.get(number, trick) for number, trick in enumerate(tricks, 1)]


def play(
    tricks: list[str],
    *,
    rules: RuleSet = STANDARD,
    reserving: tuple[int, ReservationKind, GameType | None] | None = None,
    poverty: tuple[int, str, str] | None = None,
) -> GameState:
    """Deal the hands the tricks need, say the reservations and play every card through decide.

    Each trick names the card of seat 0, 1, 2, 3. `poverty` is (acceptor, cards passed, cards
    returned) for the reserving player's poverty: the dealt hands are the played ones before
    the exchange.
    """
    order = card_order(G.NORMAL)  # every game here plays in the normal order
    hands: list[list[Card]] = [[] for _ in range(4)]
    plays: list[tuple[int, Card]] = []
    leader = (DEALER + 1) % 4
    for number, trick in enumerate(tricks, 1):
        column = cards(trick)
        seats = [(leader + i) % 4 for i in range(4)]
        for seat in seats:
            hands[seat].append(column[seat])
            plays.append((seat, column[seat]))
        in_order = [column[s] for s in seats]
        leader = seats[winning_index(in_order, order, last_trick=number == len(tricks))]
    assert Counter(c for hand in hands for c in hand) == deck()
    dealt = [list(hand) for hand in hands]
    if poverty is not None:
        assert reserving is not None
        poor, (acceptor, passed, returned) = reserving[0], poverty
        for card in cards(returned):
            dealt[poor].remove(card)
            dealt[acceptor].append(card)
        for card in cards(passed):
            dealt[acceptor].remove(card)
            dealt[poor].append(card)
    reserver = None if reserving is None else reserving[0]
    commands: list[Command] = [
        StartGame("specials", PLAYERS, DEALER, rules),
        DealCards(tuple(tuple(hand) for hand in dealt)),
        *(DeclareReservation(seat, healthy=seat != reserver) for seat in asking_order(DEALER)),
    ]
    if reserving is not None:
        commands.append(NameReservation(*reserving))
    if poverty is not None:
        assert reserver is not None
        acceptor, passed, returned = poverty
        commands.append(PassPovertyCards(reserver, cards(passed)))
        seat = (reserver + 1) % 4
        while seat != acceptor:
            commands.append(AnswerPoverty(seat, accepted=False))
            seat = (seat + 1) % 4
        commands += [AnswerPoverty(acceptor, accepted=True), ReturnPovertyCards(acceptor, cards(returned))]
    commands += [PlayCard(seat, card) for seat, card in plays]
    state = GameState()
    for command in commands:
        for event in decide(state, command):
            state = evolve(state, event)
    assert state.finished
    return state


def found(state: GameState) -> list[tuple[SpecialKind, Party, int]]:
    """The specials of a finished game as (kind, party, trick number)."""
    out = []
    for special in specials(state, true_parties(state)):
        number = int(special.cause.split(":")[0].removeprefix("trick "))
        out.append((special.kind, special.party, number))
    return out


def special_lines(state: GameState, rules: RuleSet | None = None) -> list[tuple[str, Party | None]]:
    result = score_game(state, rules).score
    assert result is not None
    return [(line.item, line.party) for line in result.lines if line.special]


# The first five tricks of every normal game below: each player follows suit.
OPENING = [
    "CA C9 CK C9",  # 1: Anna wins 15
    "CA C10 C10 CK",  # 2: Anna wins 35
    "SA S9 SK S9",  # 3: Anna wins 15
    "SA S10 S10 SK",  # 4: Anna wins 35
    "HA H9 HK H9",  # 5: Anna wins 15; Cleo and Dirk have no heart left
]

# Anna and Cleo hold the CQ (Re). Each party's DA falls into its own partner's trick, and both
# of Kontra's CJ go into the last trick, which Anna wins with DQ.
OWN_FOXES = [
    *OPENING,
    "HA HK D9 D9",  # 6: Cleo trumps first: Cleo wins 15
    "DA DJ CQ DK",  # 7: Cleo leads CQ and wins Anna's DA (her partner's) 20
    "DJ DA D10 H10",  # 8: Dirk wins Ben's DA (his partner's) with H10, 33
    "CQ HJ SJ SQ",  # 9: Anna wins 10
    "H10 HQ DQ HQ",  # 10: Anna wins 19
    "SQ DK HJ D10",  # 11: Anna wins 19
    "DQ CJ SJ CJ",  # 12: Anna's DQ beats Ben's and Dirk's CJ, 9
]

# Anna and Cleo (Re) again. Trick 2 has 42, trick 8 exactly 40 (H10 H10 D10 D10). Cleo catches
# Dirk's DA, Dirk's SQ catches Anna's; Cleo wins the last trick with the first CJ, Ben's CJ in it.
FOXES = [
    "CK C9 CK C9",  # 1: Anna wins 8
    "CA C10 CA C10",  # 2: Anna wins 42
    "SA S9 SK S9",  # 3: Anna wins 15
    "SA S10 S10 SK",  # 4: Anna wins 35
    "HA H9 HK H9",  # 5: Anna wins 15
    "HA HK DJ DA",  # 6: Cleo's DJ wins Dirk's DA: 28
    "DA DK D9 SQ",  # 7: Dirk's SQ wins Anna's DA: 18
    "D10 D10 H10 H10",  # 8: Dirk leads the first H10: 40
    "CQ HQ SJ HJ",  # 9: Anna wins 10
    "HQ DQ CQ DJ",  # 10: Cleo wins 11
    "HJ DQ SQ SJ",  # 11: Cleo wins 10
    "D9 CJ CJ DK",  # 12: Cleo leads CJ and wins; Ben's CJ in the trick: 8
]


def test_the_scripted_games_are_legal_and_add_up() -> None:
    for tricks in (OWN_FOXES, FOXES):
        state = play(tricks)
        assert state.game_type is G.NORMAL
        assert true_parties(state) == (RE, KONTRA, RE, KONTRA)
        assert sum(state.points_won()) == 240


def test_a_fox_is_caught_only_from_the_other_party() -> None:
    state = play(FOXES)
    foxes = [(party, trick) for kind, party, trick in found(state) if kind is FOX]
    assert foxes == [(RE, 6), (KONTRA, 7)]


def test_a_partners_fox_in_ones_own_trick_gives_nothing() -> None:
    state = play(OWN_FOXES)
    assert [kind for kind, _, _ in found(state) if kind is FOX] == []


def test_doppelkopf_is_a_trick_of_40_or_more() -> None:
    state = play(FOXES)
    points = {t.number: t.points for t in state.tricks}
    assert points[2] == 42 and points[8] == 40 and points[4] == 35
    assert [(party, trick) for kind, party, trick in found(state) if kind is DOPPELKOPF] == [(RE, 2), (KONTRA, 8)]
    assert [kind for kind, _, _ in found(play(OWN_FOXES)) if kind is DOPPELKOPF] == []


def test_karlchen_wins_the_last_trick_and_catches_the_other_partys_cj() -> None:
    state = play(FOXES)
    last = [(kind, party) for kind, party, trick in found(state) if trick == 12]
    assert last == [(KARLCHEN, RE), (CAPTURED, RE)]


def test_karlchen_needs_cj_to_be_the_winning_card() -> None:
    # Anna's DQ wins the last trick: no Karlchen, but both of Kontra's CJ are caught
    state = play(OWN_FOXES)
    assert [(kind, party) for kind, party, _ in found(state)] == [(CAPTURED, RE), (CAPTURED, RE)]


def test_karlchen_only_in_the_last_trick() -> None:
    # the CJ trick becomes trick 11: Cleo wins it with CJ, and the last trick with SQ
    state = play(replaced(FOXES, {11: "D9 CJ CJ DK", 12: "HJ DQ SQ SJ"}))
    assert state.tricks[10].winner == 2 and state.tricks[11].winner == 2
    assert [kind for kind, _, _ in found(state) if kind in (KARLCHEN, CAPTURED)] == []


def test_karlchen_with_the_partners_cj_is_no_capture() -> None:
    # Dirk wins the last trick with the first CJ; the other CJ is his partner Ben's
    state = play(replaced(FOXES, {12: "D9 CJ DK CJ"}))
    assert state.tricks[11].winner == 3
    assert [(kind, party) for kind, party, trick in found(state) if trick == 12] == [(KARLCHEN, KONTRA)]


def test_specials_are_scored_per_party() -> None:
    state = play(FOXES)
    facts = deal_facts(state)
    assert Counter((s.kind, s.party) for s in facts.specials) == Counter(
        {
            (FOX, RE): 1,
            (FOX, KONTRA): 1,
            (DOPPELKOPF, RE): 1,
            (DOPPELKOPF, KONTRA): 1,
            (KARLCHEN, RE): 1,
            (CAPTURED, RE): 1,
        }
    )
    game = score_game(state)
    # Re 182 : Kontra 58: won 1 + Kontra below 90 1 + below 60 1 = 3;
    # specials Re 4 (fox, Doppelkopf, Karlchen, capture) - Kontra 2 (fox, Doppelkopf): 5
    assert facts.re_points == 182
    assert game.deltas == (5, -5, 5, -5)
    # without the capture point: 3 + 3 - 2 = 4
    assert score_game(state, rules_from_mapping({"karlchen_capture": False})).deltas == (4, -4, 4, -4)
    # DDV: no capture point either: 4
    assert score_game(state, preset("ddv")).deltas == (4, -4, 4, -4)


def test_captures_count_per_cj() -> None:
    state = play(OWN_FOXES)
    # Re 207 : Kontra 33: won 1 + below 90 1 + below 60 1 = 3, + two CJ caught 2 = 5
    assert deal_facts(state).re_points == 207
    assert score_game(state).deltas == (5, -5, 5, -5)
    assert score_game(state, rules_from_mapping({"karlchen_capture": False})).deltas == (3, -3, 3, -3)


# Anna holds both CQ (trick 9 and 10); Cleo wins tricks 6, 11 and 12 as in FOXES.
BOTH_QUEENS = replaced(FOXES, {10: "CQ DQ HQ DJ"})


@pytest.mark.parametrize(
    ("reserving", "game_type"),
    [
        pytest.param(None, G.SILENT_SOLO, id="silent-solo"),
        pytest.param((0, ReservationKind.SOLO, G.DIAMOND_SOLO), G.DIAMOND_SOLO, id="diamond-solo"),
        pytest.param((0, ReservationKind.MARRIAGE, None), G.MARRIAGE, id="lone-marriage"),
    ],
)
def test_no_special_points_when_one_plays_against_three(
    reserving: tuple[int, ReservationKind, GameType | None] | None, game_type: GameType
) -> None:
    state = play(BOTH_QUEENS, reserving=reserving)
    assert state.game_type is game_type and state.declarer == 0
    assert is_lone(state)
    assert true_parties(state) == (RE, KONTRA, KONTRA, KONTRA)
    # play does show them (Anna's 42, Dirk's catch of her DA, Dirk's 40, Cleo's Karlchen) …
    assert [(kind, party) for kind, party, _ in found(state)] == [
        (DOPPELKOPF, RE),
        (FOX, KONTRA),
        (DOPPELKOPF, KONTRA),
        (KARLCHEN, KONTRA),
    ]
    # … but none counts: Anna 136 : 104 wins 1, three shares
    assert deal_facts(state).re_points == 136
    assert special_lines(state) == []
    assert score_game(state).deltas == (3, -1, -1, -1)


# Ben's poverty, taken by Cleo (Re: Ben and Cleo). Cleo catches both of Kontra's DA (tricks 5
# and 6) and wins the last trick with the first CJ, catching Anna's.
POVERTY = [
    *OPENING[:4],
    "DA D9 H10 DK",  # 5: Cleo's H10 wins Anna's DA: 25
    "D10 D9 CQ DA",  # 6: Cleo's CQ wins Dirk's DA: 24
    "CQ DK SQ DJ",  # 7: Anna wins 12; Ben has no trump left
    "SQ H9 HQ HJ",  # 8: Anna wins 8
    "H10 H9 DQ SJ",  # 9: Anna wins 15
    "HJ HK HQ D10",  # 10: Cleo wins 19
    "SJ HK DQ DJ",  # 11: Cleo wins 11
    "CJ HA CJ HA",  # 12: Cleo leads CJ and wins 26, Anna's CJ in it
]


def poverty_game() -> GameState:
    return play(
        POVERTY,
        reserving=(1, ReservationKind.POVERTY, None),
        poverty=(2, "H10 HQ DQ", "D9 D9 DK"),
    )


def test_the_poverty_game() -> None:
    state = poverty_game()
    assert state.game_type is G.POVERTY
    assert true_parties(state) == (KONTRA, RE, RE, KONTRA)
    assert [(kind, party, trick) for kind, party, trick in found(state)] == [
        (FOX, RE, 5),
        (FOX, RE, 6),
        (KARLCHEN, RE, 12),
        (CAPTURED, RE, 12),
    ]
    assert deal_facts(state).re_points == 105


@pytest.mark.parametrize(
    ("rules", "deltas"),
    [
        # Kontra 135 wins: won 1 + against the old ones 1 = 2; Re's specials 4: net 2 - 4 = -2
        pytest.param(STANDARD, (-2, 2, 2, -2), id="standard"),
        # no special points in a poverty: 2
        pytest.param(rules_from_mapping({"special_points_in_poverty": False}), (2, -2, -2, 2), id="no-specials"),
        # no Karlchen points in a poverty (bistro's option): 2 - 2 foxes = 0
        pytest.param(rules_from_mapping({"karlchen_in_poverty": False}), (0, 0, 0, 0), id="no-karlchen"),
        # no capture point: 2 - 3 = -1
        pytest.param(rules_from_mapping({"karlchen_capture": False}), (-1, 1, 1, -1), id="no-capture"),
    ],
)
def test_poverty_specials_follow_the_options(rules: RuleSet, deltas: tuple[int, ...]) -> None:
    game = score_game(poverty_game(), rules)
    assert game.score is not None and game.score.winner is KONTRA
    assert game.deltas == deltas
    assert sum(game.deltas) == 0


@pytest.mark.parametrize(
    "name", ["02-diamond-solo", "06-queen-solo", "08-ace-solo", "16-lone-marriage", "17-silent-solo"]
)
def test_sample_lone_games_have_no_special_lines(name: str) -> None:
    state = read_file(f"sample_games/{name}.yaml").state
    assert is_lone(state)
    game = score_game(state)
    assert special_lines(state) == []
    assert sum(game.deltas) == 0
    soloist = true_parties(state).index(RE)
    others = [game.deltas[s] for s in range(4) if s != soloist]
    assert len(set(others)) == 1 and game.deltas[soloist] == -3 * others[0]


def test_the_normal_sample() -> None:
    """01-normal: Ben wins his own DA in trick 7 (nothing); Dirk (Re) catches Clara's in trick 8."""
    state = read_file("sample_games/01-normal.yaml").state
    assert true_parties(state) == (RE, KONTRA, KONTRA, RE)
    assert [(t.cards, t.winner) for t in state.tricks[6:8]] == [
        (cards("CA CK C10 DA"), 1),
        (cards("DQ DA HQ HJ"), 3),
    ]
    assert found(state) == [(FOX, RE, 8)]
