"""Who wins a trick and which cards may be played to it (docs/rules.md §2-§3)."""

from __future__ import annotations

import pytest
from helpers import cards
from hypothesis import given, settings
from hypothesis import strategies as st

from doko_ledger.doppelkopf.cards import ALL_CARDS, Card, parse_card
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.order import TRUMP, card_order
from doko_ledger.doppelkopf.rules.play import best_index, is_revoke, legal_plays, must_follow, next_seat, winning_index

G = GameType


# (game type, cards in play order, index of the winning card, why)
WINNERS: list[tuple[GameType, str, int, str]] = [
    # normal game
    (G.NORMAL, "CA C10 CK C9", 0, "highest of the led suit"),
    (G.NORMAL, "C9 CA CK C10", 1, "highest of the led suit, not the first"),
    (G.NORMAL, "C9 CK C10 CA", 3, "highest of the led suit played last"),
    (G.NORMAL, "CA D9 C10 CK", 1, "lowest trump beats the led ace"),
    (G.NORMAL, "CA CK D9 DJ", 3, "higher trump beats lower trump"),
    (G.NORMAL, "C9 SA HA S10", 0, "off-suit discards never win"),
    (G.NORMAL, "C9 SA HA CK", 3, "off-suit discards never win; CK beats C9"),
    (G.NORMAL, "H10 CQ SQ DQ", 0, "the Dulle is the highest trump"),
    (G.NORMAL, "DQ CQ HJ DA", 1, "CQ highest queen"),
    (G.NORMAL, "HQ DJ SQ CQ", 3, "queens: C > S > H > D"),
    (G.NORMAL, "DJ HJ SJ CJ", 3, "jacks: C > S > H > D"),
    (G.NORMAL, "DJ DA D10 DQ", 3, "any queen beats any jack; jacks beat DA"),
    (G.NORMAL, "D9 DA D10 DK", 1, "DA highest plain diamond trump"),
    (G.NORMAL, "DA HK H9 SA", 0, "diamond lead is trump; discards never win"),
    (G.NORMAL, "HA HK H10 H9", 2, "H10 is trump, not a heart"),
    (G.NORMAL, "HA HK H9 D9", 3, "trump beats a heart lead"),
    (G.NORMAL, "HK HA H9 SA", 1, "hearts: A above K"),
    (G.NORMAL, "CA CA C10 CK", 0, "two identical cards: the first wins"),
    (G.NORMAL, "C10 CA CA CK", 1, "two identical aces: the first of them wins"),
    (G.NORMAL, "CQ D9 CQ HQ", 0, "two CQ: the first wins"),
    (G.NORMAL, "H10 H10 CQ CQ", 0, "two H10: the first wins"),
    (G.NORMAL, "CQ H10 SQ H10", 1, "two H10 after a lead: the first wins"),
    (G.NORMAL, "DA D9 DA D10", 0, "two DA without Schweinchen: the first wins"),
    (G.MARRIAGE, "H10 CQ DA SQ", 0, "marriage plays the normal order"),
    (G.POVERTY, "HA H9 DK HK", 2, "poverty plays the normal order"),
    (G.SILENT_SOLO, "CA DJ D9 C10", 1, "silent solo plays the normal order"),
    # diamond solo: the normal order
    (G.DIAMOND_SOLO, "DA H10 CQ D9", 1, "H10 top trump"),
    (G.DIAMOND_SOLO, "SA S10 D9 SK", 2, "diamond trumps a spade"),
    # heart solo
    (G.HEART_SOLO, "HA H10 HK H9", 1, "H10 top trump in a heart solo too"),
    (G.HEART_SOLO, "HA HK H9 CA", 0, "HA trump, CA a plain discard"),
    (G.HEART_SOLO, "CA H9 C10 CK", 1, "lowest heart trumps clubs"),
    (G.HEART_SOLO, "DA D10 DK D9", 0, "diamonds are plain"),
    (G.HEART_SOLO, "D9 DA DJ DK", 2, "DJ is still trump"),
    # club solo
    (G.CLUB_SOLO, "DA D10 DK D9", 0, "diamonds plain: DA wins the diamond lead"),
    (G.CLUB_SOLO, "D10 DA DK HA", 1, "diamonds plain: DA above D10"),
    (G.CLUB_SOLO, "D9 DA C9 DK", 2, "C9 trumps the diamonds"),
    (G.CLUB_SOLO, "CA C10 DQ CK", 2, "DQ above CA"),
    (G.CLUB_SOLO, "C9 CA CK C10", 1, "club trumps A 10 K 9"),
    (G.CLUB_SOLO, "CQ H10 DA D9", 1, "H10 top trump"),
    (G.CLUB_SOLO, "SA S10 SK S9", 0, "spades plain"),
    (G.CLUB_SOLO, "HA H9 HK SA", 0, "hearts plain A K 9"),
    # spade solo
    (G.SPADE_SOLO, "DA D9 S9 D10", 2, "S9 trumps diamonds"),
    (G.SPADE_SOLO, "CA C10 SA CK", 2, "SA trumps clubs"),
    (G.SPADE_SOLO, "SA SJ SK S10", 1, "jack above the spade ace"),
    # queen solo
    (G.QUEEN_SOLO, "HA H10 HK H9", 0, "H10 is a plain heart below HA"),
    (G.QUEEN_SOLO, "H10 HK HJ H9", 0, "H10 above HK"),
    (G.QUEEN_SOLO, "HK H10 HA HJ", 2, "HA the highest heart"),
    (G.QUEEN_SOLO, "H10 DQ HA HK", 1, "DQ trump"),
    (G.QUEEN_SOLO, "SQ CQ DQ HQ", 1, "queens C > S > H > D"),
    (G.QUEEN_SOLO, "CJ C9 CK C10", 3, "jacks plain: A 10 K J 9"),
    (G.QUEEN_SOLO, "CJ CA C10 CK", 1, "jacks plain: CJ loses to CA"),
    (G.QUEEN_SOLO, "CA SQ C10 CK", 1, "SQ trumps a club lead"),
    (G.QUEEN_SOLO, "DA D10 CJ D9", 0, "diamonds plain; CJ a discard"),
    (G.QUEEN_SOLO, "H10 H10 HK H9", 0, "two H10: the first wins"),
    # jack solo
    (G.JACK_SOLO, "HA H10 HK HQ", 0, "H10 plain heart"),
    (G.JACK_SOLO, "HQ HK H10 H9", 2, "hearts: A 10 K Q 9"),
    (G.JACK_SOLO, "HQ DJ HA H10", 1, "DJ trumps hearts"),
    (G.JACK_SOLO, "CJ SJ HJ DJ", 0, "CJ highest jack"),
    (G.JACK_SOLO, "DJ HJ SJ CJ", 3, "jacks C > S > H > D"),
    (G.JACK_SOLO, "CQ CK C10 C9", 2, "queens plain: C10 > CK > CQ"),
    (G.JACK_SOLO, "CQ SQ HQ DQ", 0, "queens are not trump: discards lose"),
    # ace solo (Fleischloser)
    (G.ACE_SOLO, "H10 HA HK HQ", 1, "no trumps: HA above H10"),
    (G.ACE_SOLO, "CQ CJ C9 CK", 3, "clubs: K above Q above J"),
    (G.ACE_SOLO, "CJ CQ C9 CA", 3, "CA highest club"),
    (G.ACE_SOLO, "DQ CQ SQ HQ", 0, "queens are plain: the led suit wins"),
    (G.ACE_SOLO, "DJ CJ SJ HJ", 0, "jacks are plain: the led suit wins"),
    (G.ACE_SOLO, "CJ SA SK S10", 0, "discards never win"),
    (G.ACE_SOLO, "H10 H10 HA HJ", 2, "two H10 lose to HA"),
    (G.ACE_SOLO, "D9 H10 CQ DQ", 3, "DQ a plain diamond above D9"),
    # pure suit solos (bistro)
    (G.PURE_CLUB_SOLO, "CA C10 CK CQ", 0, "club trumps A 10 K Q J 9"),
    (G.PURE_CLUB_SOLO, "CJ CQ C9 CK", 3, "club trumps: K above Q above J"),
    (G.PURE_CLUB_SOLO, "H10 C9 HA HK", 1, "C9 trumps; H10 a plain heart"),
    (G.PURE_CLUB_SOLO, "HA H10 HK HQ", 0, "H10 below HA"),
    (G.PURE_CLUB_SOLO, "CQ SQ HQ DQ", 0, "only CQ is trump; other queens discards"),
    (G.PURE_CLUB_SOLO, "SQ HQ CJ DQ", 2, "CJ trumps the queens"),
    (G.PURE_CLUB_SOLO, "SQ SK SJ S9", 1, "spades plain: K above Q"),
    (G.PURE_CLUB_SOLO, "DA D10 C9 DQ", 2, "C9 trumps diamonds"),
    (G.PURE_SPADE_SOLO, "CJ SJ HJ DJ", 1, "SJ the only trump"),
    (G.PURE_SPADE_SOLO, "H10 HA HQ SK", 3, "SK trumps hearts"),
    (G.PURE_HEART_SOLO, "H10 HA HK HQ", 1, "HA above H10 in a pure heart solo"),
    (G.PURE_HEART_SOLO, "CQ H9 CA SQ", 1, "H9 trumps a club lead"),
    (G.PURE_HEART_SOLO, "HJ HQ HK H9", 2, "hearts A 10 K Q J 9"),
    (G.PURE_DIAMOND_SOLO, "DQ CQ SQ HQ", 0, "DQ trump"),
    (G.PURE_DIAMOND_SOLO, "CQ DQ SQ HQ", 1, "DQ trumps CQ"),
    (G.PURE_DIAMOND_SOLO, "DJ D9 DQ DA", 3, "DA highest diamond"),
    (G.PURE_DIAMOND_SOLO, "CQ CJ CK CA", 3, "clubs A 10 K Q J 9"),
    (G.PURE_DIAMOND_SOLO, "H10 H9 HA D9", 3, "D9 trumps the Dulle"),
    # the further picture solos (option picture_solos)
    (G.KING_SOLO, "SK CK HQ DQ", 1, "kings C > S > H > D"),
    (G.KING_SOLO, "HQ H10 HA HJ", 2, "hearts A 10 Q J 9: H10 a plain heart"),
    (G.KING_SOLO, "CQ CA DK C10", 2, "DK trumps clubs"),
    (G.QUEEN_JACK_SOLO, "CJ DQ SJ HJ", 1, "the lowest queen above the highest jack"),
    (G.QUEEN_JACK_SOLO, "CK CA C10 C9", 1, "kings plain: CA above CK"),
    (G.KING_JACK_SOLO, "CJ DK CQ SJ", 1, "the lowest king above the highest jack"),
    (G.KING_JACK_SOLO, "SQ SJ S10 S9", 1, "SJ trumps spades"),
    (G.KING_JACK_SOLO, "SQ S10 S9 SA", 3, "spades A 10 Q 9"),
    (G.KING_QUEEN_SOLO, "SK CK HQ DQ", 1, "kings above queens"),
    (G.KING_QUEEN_SOLO, "CQ SQ DK HK", 3, "HK above DK"),
    (G.KING_QUEEN_SOLO, "CJ CA C10 C9", 1, "jacks plain: CA above CJ"),
    (G.KOEHLER_SOLO, "CJ SQ DK HQ", 2, "kings above queens above jacks"),
    (G.KOEHLER_SOLO, "DA D10 D9 CJ", 3, "CJ trumps diamonds"),
    (G.KOEHLER_SOLO, "HK HK DK DK", 0, "two HK: the first wins"),
]


@pytest.mark.parametrize(
    ("game_type", "played", "winner", "why"), WINNERS, ids=[f"{r[0].value}:{r[1]}" for r in WINNERS]
)
def test_trick_winner(game_type: GameType, played: str, winner: int, why: str) -> None:
    order = card_order(game_type)

    assert winning_index(cards(played), order) == winner, why


@pytest.mark.parametrize("game_type", list(GameType))
@pytest.mark.parametrize("last_trick", [False, True])
def test_lone_card_wins(game_type: GameType, last_trick: bool) -> None:
    assert winning_index(cards("C9"), card_order(game_type), last_trick=last_trick) == 0


# (game type, schweinchen, cards, winner, why)
SCHWEINCHEN: list[tuple[GameType, bool, str, int, str]] = [
    (G.NORMAL, True, "H10 DA CQ D9", 1, "DA above H10"),
    (G.NORMAL, True, "H10 CQ DA SQ", 2, "DA above H10 and the queens"),
    (G.NORMAL, False, "H10 CQ DA SQ", 0, "without Schweinchen H10 stays on top"),
    (G.NORMAL, True, "DA H10 H10 DA", 0, "two DA: the first wins"),
    (G.NORMAL, True, "D10 DK DA D9", 2, "DA top of the diamonds too"),
    (G.NORMAL, True, "CA CK DA C10", 2, "DA trumps a club lead"),
    (G.MARRIAGE, True, "H10 CQ DA SQ", 2, "Schweinchen in a marriage"),
    (G.DIAMOND_SOLO, True, "H10 CQ DA SQ", 0, "no Schweinchen in a diamond solo"),
    (G.SILENT_SOLO, True, "H10 CQ DA SQ", 0, "no Schweinchen in a silent solo"),
    (G.POVERTY, True, "H10 CQ DA SQ", 0, "no Schweinchen in a poverty game"),
]


@pytest.mark.parametrize(
    ("game_type", "schweinchen", "played", "winner", "why"),
    SCHWEINCHEN,
    ids=[f"{r[0].value}-{r[1]}:{r[2]}" for r in SCHWEINCHEN],
)
def test_trick_winner_with_schweinchen(
    game_type: GameType, schweinchen: bool, played: str, winner: int, why: str
) -> None:
    order = card_order(game_type, schweinchen)

    assert winning_index(cards(played), order) == winner, why


# (game type, schweinchen, cards, second_dulle_beats_first, last trick, winner)
DULLE_OPTION: list[tuple[GameType, bool, str, bool, bool, int]] = [
    (G.NORMAL, False, "H10 H10 CQ CQ", False, False, 0),
    (G.NORMAL, False, "H10 H10 CQ CQ", False, True, 0),
    (G.NORMAL, False, "H10 H10 CQ CQ", True, False, 1),
    (G.NORMAL, False, "H10 H10 CQ CQ", True, True, 0),  # except in the last trick
    (G.NORMAL, False, "CQ H10 SQ H10", True, False, 3),
    (G.NORMAL, False, "CQ H10 SQ H10", True, True, 1),
    (G.NORMAL, False, "CA H10 C10 H10", True, False, 3),
    (G.NORMAL, False, "H10 CQ H10 DA", True, False, 2),
    (G.NORMAL, False, "CQ CQ SQ HQ", True, False, 0),  # only the Dulle is special
    (G.NORMAL, False, "DA DA D10 DK", True, False, 0),
    (G.CLUB_SOLO, False, "C9 H10 CA H10", True, False, 3),
    (G.HEART_SOLO, False, "HA H10 H10 HK", True, False, 2),
    (G.HEART_SOLO, False, "HA H10 H10 HK", True, True, 1),
    (G.NORMAL, True, "DA H10 H10 DA", True, False, 0),  # Schweinchen still above both
    (G.NORMAL, True, "H10 H10 CQ D9", True, False, 1),
]


@pytest.mark.parametrize(
    ("game_type", "schweinchen", "played", "option", "last", "winner"),
    DULLE_OPTION,
    ids=[f"{r[0].value}-pigs{r[1]}:{r[2]}-opt{r[3]}-last{r[4]}" for r in DULLE_OPTION],
)
def test_second_dulle_beats_first_option(
    game_type: GameType, schweinchen: bool, played: str, option: bool, last: bool, winner: int
) -> None:
    order = card_order(game_type, schweinchen)

    assert winning_index(cards(played), order, second_dulle_beats_first=option, last_trick=last) == winner


# --- following suit --------------------------------------------------------------------------

# (game type, hand, cards of the trick so far, the distinct legal cards)
LEGAL: list[tuple[GameType, str, str, str]] = [
    (G.NORMAL, "CA CA SQ", "", "CA SQ"),  # leading: anything
    (G.NORMAL, "DQ SA HA", "DA", "DQ"),  # a DQ follows a diamond (trump) lead
    (G.NORMAL, "DQ SA HA", "D9 CQ", "DQ"),
    (G.NORMAL, "H10 DA CA", "CQ", "H10 DA"),
    (G.NORMAL, "H10 HK CA", "HA", "HK"),  # H10 is trump, not a heart
    (G.NORMAL, "H10 CA", "HA", "H10 CA"),  # no heart: any card
    (G.NORMAL, "CJ C9 SA", "CA", "C9"),  # CJ is trump, not a club
    (G.NORMAL, "CJ SA", "CA", "CJ SA"),
    (G.NORMAL, "CQ SA", "CA H10", "CQ SA"),  # the led suit counts, not the highest card
    (G.NORMAL, "CA CA C9 SA", "CK", "CA C9"),
    (G.DIAMOND_SOLO, "DQ SA", "DA", "DQ"),
    (G.SILENT_SOLO, "DJ HA", "D9", "DJ"),
    (G.CLUB_SOLO, "DQ D9 CA", "DA", "D9"),  # DQ trump; diamonds plain
    (G.CLUB_SOLO, "DQ CA", "DA", "DQ CA"),
    (G.CLUB_SOLO, "CA DQ H10 SA", "C9", "CA DQ H10"),
    (G.HEART_SOLO, "H10 HQ H9 CA", "HA", "H10 HQ H9"),
    (G.HEART_SOLO, "DQ D9 HA", "DA", "D9"),
    (G.QUEEN_SOLO, "H10 HQ SA", "HA", "H10"),  # H10 a plain heart, HQ trump
    (G.QUEEN_SOLO, "DQ DJ", "DA", "DJ"),  # a DQ does not follow diamonds
    (G.QUEEN_SOLO, "DQ CA CK", "CQ", "DQ"),
    (G.QUEEN_SOLO, "CA CK", "CQ", "CA CK"),
    (G.JACK_SOLO, "HQ HJ H10", "HA", "HQ H10"),
    (G.JACK_SOLO, "DJ SA", "SJ", "DJ"),
    (G.ACE_SOLO, "DQ DJ CA", "DA", "DQ DJ"),  # no trumps: DQ is a diamond
    (G.ACE_SOLO, "DQ C9 SA", "CQ", "C9"),  # CQ led is a club
    (G.ACE_SOLO, "H10 CQ", "HA", "H10"),
    (G.PURE_CLUB_SOLO, "CQ CJ SQ H10", "CA", "CQ CJ"),
    (G.PURE_CLUB_SOLO, "SQ SJ CQ", "SA", "SQ SJ"),
    (G.PURE_CLUB_SOLO, "DQ HA", "D9", "DQ"),  # DQ is a plain diamond
    (G.PURE_HEART_SOLO, "H10 CQ", "H9", "H10"),
    (G.PURE_DIAMOND_SOLO, "HQ HJ CQ", "HA", "HQ HJ"),
    (G.KING_SOLO, "HK HQ H10 SA", "HA", "HQ H10"),  # HK trump, HQ and H10 hearts
    (G.KING_SOLO, "DK DQ SA", "CK", "DK"),
    (G.KING_QUEEN_SOLO, "DQ DJ D9", "DA", "DJ D9"),  # a DQ does not follow diamonds
    (G.KING_QUEEN_SOLO, "HQ HJ SA", "CK", "HQ"),
    (G.KING_JACK_SOLO, "SQ SJ SK", "SA", "SQ"),  # SJ and SK trump
    (G.QUEEN_JACK_SOLO, "CK CJ", "DQ", "CJ"),
    (G.KOEHLER_SOLO, "CA CK CQ CJ", "C9", "CA"),  # only ace, ten, nine follow clubs
]


@pytest.mark.parametrize(
    ("game_type", "hand", "trick", "legal"), LEGAL, ids=[f"{r[0].value}:{r[2]}|{r[1]}" for r in LEGAL]
)
def test_legal_plays(game_type: GameType, hand: str, trick: str, legal: str) -> None:
    order = card_order(game_type)

    plays = legal_plays(cards(hand), cards(trick), order)

    assert sorted(map(str, plays)) == sorted(legal.split())
    assert len(set(plays)) == len(plays)


def test_legal_plays_with_schweinchen_treats_da_as_trump() -> None:
    order = card_order(G.NORMAL, True)

    assert set(legal_plays(cards("DA SA"), cards("H10"), order)) == {parse_card("DA")}


def test_must_follow_keeps_both_copies() -> None:
    order = card_order(G.NORMAL)

    assert must_follow(parse_card("CK"), cards("CA CA CJ C9 SA"), order) == cards("CA CA C9")
    assert must_follow(parse_card("CK"), cards("CJ SA"), order) == ()


# (game type, card played, hand before the play, trick so far, is it a revoke)
REVOKES: list[tuple[GameType, str, str, str, bool]] = [
    (G.NORMAL, "SA", "DQ SA", "DA", True),
    (G.NORMAL, "DQ", "DQ SA", "DA", False),
    (G.NORMAL, "SA", "SA CA", "DA", False),  # no trump: free
    (G.NORMAL, "SA", "H10 SA", "HA", False),  # H10 is no heart
    (G.NORMAL, "H10", "H10 H9", "HA", True),
    (G.NORMAL, "CJ", "CJ C9", "CA", True),
    (G.NORMAL, "SA", "SA", "", False),  # the lead is never a revoke
    (G.ACE_SOLO, "SA", "DQ SA", "DA", True),  # DQ is a diamond
    (G.QUEEN_SOLO, "SA", "DQ SA", "DA", False),  # DQ is trump
    (G.QUEEN_SOLO, "DQ", "DQ D9", "DA", True),
    (G.CLUB_SOLO, "DQ", "DQ D9", "DA", True),
    (G.CLUB_SOLO, "C9", "C9 D9", "DA", True),
    (G.CLUB_SOLO, "SA", "SA C9", "DQ", True),
]


@pytest.mark.parametrize(
    ("game_type", "card", "hand", "trick", "revoke"),
    REVOKES,
    ids=[f"{r[0].value}:{r[3]}|{r[2]}->{r[1]}" for r in REVOKES],
)
def test_is_revoke(game_type: GameType, card: str, hand: str, trick: str, revoke: bool) -> None:
    order = card_order(game_type)

    assert is_revoke(parse_card(card), cards(hand), cards(trick), order) is revoke
    assert (parse_card(card) not in legal_plays(cards(hand), cards(trick), order)) is revoke


@pytest.mark.parametrize(("seat", "left"), [(0, 1), (1, 2), (2, 3), (3, 0)])
def test_next_seat_goes_clockwise(seat: int, left: int) -> None:
    assert next_seat(seat) == left


@settings(max_examples=400)
@given(
    game_type=st.sampled_from(list(GameType)),
    schweinchen=st.booleans(),
    trick=st.lists(st.sampled_from(ALL_CARDS), min_size=4, max_size=4),
)
def test_a_complete_tricks_winner_is_the_highest_trump_else_the_highest_of_the_led_suit(
    game_type: GameType, schweinchen: bool, trick: list[Card]
) -> None:
    """The rule itself, against every card order: what the fold's unrolled path for four cards
    gives agrees with it."""
    order = card_order(game_type, schweinchen)
    led = order.suit_of(trick[0])

    def rank(i: int) -> tuple[bool, bool, int, int]:
        suit = order.suit_of(trick[i])
        return (suit == TRUMP, suit == led, order.strength(trick[i]), -i)

    expected = max(range(4), key=rank)
    assert winning_index(tuple(trick), order) == expected
    assert best_index(trick, order.keys, False) == expected
