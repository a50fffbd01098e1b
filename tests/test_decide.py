"""decide/evolve of one Doppelkopf game, given/when/then (RULES.md §1-§3)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from doko_ledger.cards import ALTE, Card, card_points, deck, parse_card
from doko_ledger.events.doppelkopf import (
    CardPlayed,
    CardsDealt,
    DoppelkopfEvent,
    GameStarted,
    GameTypeSet,
    SchweinchenShown,
)
from doko_ledger.game import (
    Command,
    DealCards,
    GameState,
    IllegalMove,
    PlayCard,
    SetGameType,
    ShowSchweinchen,
    StartGame,
    decide,
    evolve,
    fold,
)
from doko_ledger.rules.game_types import GameType
from doko_ledger.rules.play import legal_plays, winning_index
from doko_ledger.rules.ruleset import RuleSet, preset, rules_from_mapping

G = GameType
PLAYERS = ("Anna", "Ben", "Cleo", "Dirk")
ANNA, BEN, CLEO, DIRK = range(4)
STANDARD = preset("standard")
BISTRO = preset("bistro")


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_card(t) for t in text.split())


def c(text: str) -> Card:
    return parse_card(text)


# A full 48-card deal. Anna holds both CQ; the two DA are split (Anna, Dirk); H10 with Anna and Dirk.
DEAL = (
    cards("CQ CQ H10 DA D10 CA C10 CK SA S10 HA HK"),
    cards("SQ SQ HQ DK CJ CA C9 SK S9 H9 HK D9"),
    cards("HQ DQ DQ SJ SJ HJ C10 CK C9 SA S10 H9"),
    cards("H10 CJ HJ DJ DJ DA D10 DK D9 SK S9 HA"),
)
# A 40-card deal (no nines), suit by suit: Anna clubs, Ben spades, Cleo hearts, Dirk diamonds (both DA).
SHORT_DEAL = (
    cards("CA CA C10 C10 CK CK CQ CQ CJ CJ"),
    cards("SA SA S10 S10 SK SK SQ SQ SJ SJ"),
    cards("HA HA H10 H10 HK HK HQ HQ HJ HJ"),
    cards("DA DA D10 D10 DK DK DQ DQ DJ DJ"),
)


def test_the_fixed_deals_are_whole_decks() -> None:
    assert Counter(card for hand in DEAL for card in hand) == deck()
    assert Counter(card for hand in SHORT_DEAL for card in hand) == deck(with_nines=False)


# --- given / when / then -------------------------------------------------------------------------


def started(rules: RuleSet = STANDARD, dealer: int = DIRK) -> GameStarted:
    return GameStarted("g1", PLAYERS, dealer, rules, None)


def given(*events: DoppelkopfEvent) -> GameState:
    return fold(events)


def run(state: GameState, *commands: Command) -> GameState:
    """Decide and evolve each command in turn."""
    for command in commands:
        for event in decide(state, command):
            state = evolve(state, event)
    return state


def plays(*moves: tuple[int, str]) -> list[PlayCard]:
    return [PlayCard(seat, c(card)) for seat, card in moves]


def refused(state: GameState, command: Command, message: str) -> None:
    with pytest.raises(IllegalMove) as raised:
        decide(state, command)
    assert str(raised.value) == message


def normal_game(rules: RuleSet = STANDARD, dealer: int = DIRK, hands: tuple[tuple[Card, ...], ...] = DEAL) -> GameState:
    return given(started(rules, dealer), CardsDealt(hands), GameTypeSet(G.NORMAL))


# --- StartGame -----------------------------------------------------------------------------------


def test_start_game_records_players_dealer_and_rules() -> None:
    command = StartGame("g1", PLAYERS, 2, BISTRO, "2024-05-01")

    events = decide(GameState(), command)

    assert events == [GameStarted("g1", PLAYERS, 2, BISTRO, "2024-05-01")]
    state = fold(events)
    assert state.started
    assert state.players == PLAYERS
    assert state.dealer == 2
    assert state.rules == BISTRO
    assert state.hand_size == 10
    assert state.to_play is None


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (("Anna", "Ben", "Cleo"), "a game has 4 players, not 3"),
        (("Anna", "Ben", "Cleo", "Dirk", "Eva"), "a game has 4 players, not 5"),
        ((), "a game has 4 players, not 0"),
        (("Anna", "Ben", "Anna", "Dirk"), "player 'Anna' sits at the table twice"),
        (("Anna", "Ben", "", "Dirk"), "player name '' is empty"),
        (("Anna", "Ben", "  ", "Dirk"), "player name '  ' is empty"),
        (("Anna", " Ben", "Clara", "Dirk"), "player name ' Ben' starts or ends with white space"),
        (("Anna", "Ben", "Cla\nra", "Dirk"), "player name 'Cla\\nra' holds a control character or line break"),
    ],
)
def test_start_refuses_bad_players(players: tuple[str, ...], message: str) -> None:
    refused(GameState(), StartGame("g1", players, 0, STANDARD), message)


@pytest.mark.parametrize("dealer", [-1, 4, 7])
def test_start_refuses_a_dealer_who_is_not_a_seat(dealer: int) -> None:
    refused(GameState(), StartGame("g1", PLAYERS, dealer, STANDARD), f"the dealer must be seat 0-3, not {dealer}")


def test_start_refuses_an_empty_id() -> None:
    refused(GameState(), StartGame(" ", PLAYERS, 0, STANDARD), "a game needs an id")


def test_start_refuses_a_second_start() -> None:
    refused(given(started()), StartGame("g2", PLAYERS, 0, STANDARD), "game 'g1' has already started")


@pytest.mark.parametrize(
    "command",
    [DealCards(DEAL), SetGameType(G.NORMAL), ShowSchweinchen(0), PlayCard(0, c("CA"))],
    ids=lambda cmd: type(cmd).__name__,
)
def test_nothing_before_the_start(command: Command) -> None:
    refused(GameState(), command, "the game has not started")


# --- DealCards -----------------------------------------------------------------------------------


def test_deal_records_the_hands() -> None:
    state = given(started())

    events = decide(state, DealCards(DEAL))

    assert events == [CardsDealt(DEAL)]
    after = evolve(state, events[0])
    assert after.hands == DEAL
    assert after.dealt == DEAL


def test_deal_refuses_a_third_copy_of_a_card() -> None:
    ben = cards("SQ SQ HQ DK CJ CA CA SK S9 H9 HK D9")  # C9 became a third CA
    hands = (DEAL[0], ben, DEAL[2], DEAL[3])

    refused(
        given(started()),
        DealCards(hands),
        "the deal has 3 copies of CA (Anna, Ben); the deck has two (RULES.md §1)",
    )


def test_deal_refuses_a_wrong_hand_size() -> None:
    hands = (DEAL[0], DEAL[1], DEAL[2][:-1], DEAL[3])

    refused(given(started()), DealCards(hands), "Cleo's hand has 11 cards; each hand has 12 (RULES.md §1)")


def test_deal_refuses_12_cards_when_the_rules_have_no_nines() -> None:
    refused(
        given(started(BISTRO)),
        DealCards(DEAL),
        "Anna's hand has 12 cards; each hand has 10 (RULES.md §1)",
    )


def test_deal_refuses_nines_when_the_rules_have_none() -> None:
    anna = cards("C9 CA C10 C10 CK CK CQ CQ CJ CJ")  # one CA became C9
    hands = (anna, *SHORT_DEAL[1:])

    refused(
        given(started(BISTRO)),
        DealCards(hands),
        "C9 is not in the deck: this game is played without nines (RULES.md §1)",
    )


def test_deal_without_nines_is_accepted() -> None:
    assert decide(given(started(BISTRO)), DealCards(SHORT_DEAL)) == [CardsDealt(SHORT_DEAL)]


def test_deal_refuses_three_hands() -> None:
    refused(given(started()), DealCards(DEAL[:3]), "a deal has 4 hands, not 3")


def test_deal_refuses_dealing_twice() -> None:
    refused(given(started(), CardsDealt(DEAL)), DealCards(DEAL), "the cards were already dealt")


def test_deal_refuses_after_the_game_type() -> None:
    refused(
        given(started(), GameTypeSet(G.NORMAL)),
        DealCards(DEAL),
        "the deal comes before the game type and the first card",
    )


# --- SetGameType ---------------------------------------------------------------------------------


def test_set_game_type() -> None:
    state = given(started(), CardsDealt(DEAL))

    events = decide(state, SetGameType(G.CLUB_SOLO, CLEO))

    assert events == [GameTypeSet(G.CLUB_SOLO, CLEO)]
    after = evolve(state, events[0])
    assert after.game_type is G.CLUB_SOLO
    assert after.declarer == CLEO
    assert after.order.is_trump(c("C9"))


def test_game_type_cannot_be_set_twice() -> None:
    refused(normal_game(), SetGameType(G.CLUB_SOLO, CLEO), "the game type is already normal")


@pytest.mark.parametrize("declarer", [None, -1, 4])
@pytest.mark.parametrize("game_type", [G.CLUB_SOLO, G.QUEEN_SOLO, G.ACE_SOLO, G.SILENT_SOLO])
def test_a_solo_needs_its_soloist(game_type: GameType, declarer: int | None) -> None:
    refused(
        given(started(), CardsDealt(DEAL)),
        SetGameType(game_type, declarer),
        f"a {game_type.value} needs its soloist",
    )


def test_a_normal_game_has_no_soloist() -> None:
    refused(given(started()), SetGameType(G.NORMAL, BEN), "a normal game has no soloist")


@pytest.mark.parametrize("game_type", [G.PURE_CLUB_SOLO, G.PURE_SPADE_SOLO, G.PURE_HEART_SOLO, G.PURE_DIAMOND_SOLO])
def test_pure_suit_solo_only_where_the_rules_allow_it(game_type: GameType) -> None:
    refused(
        given(started(STANDARD), CardsDealt(DEAL)),
        SetGameType(game_type, BEN),
        f"{game_type.value} is not allowed under these rules (option pure_suit_solos)",
    )
    bistro = given(started(BISTRO), CardsDealt(SHORT_DEAL))
    assert decide(bistro, SetGameType(game_type, BEN)) == [GameTypeSet(game_type, BEN)]


@pytest.mark.parametrize("seat", [BEN, CLEO, DIRK])
def test_silent_solo_needs_both_queens_of_clubs(seat: int) -> None:
    refused(
        given(started(), CardsDealt(DEAL)),
        SetGameType(G.SILENT_SOLO, seat),
        f"a silent solo needs both CQ, and {PLAYERS[seat]} does not hold them (RULES.md §4)",
    )


def test_silent_solo_by_the_holder_of_both_queens_of_clubs() -> None:
    state = given(started(), CardsDealt(DEAL))

    assert decide(state, SetGameType(G.SILENT_SOLO, ANNA)) == [GameTypeSet(G.SILENT_SOLO, ANNA)]


def test_silent_solo_without_recorded_hands_is_taken_on_trust() -> None:
    assert decide(given(started()), SetGameType(G.SILENT_SOLO, BEN)) == [GameTypeSet(G.SILENT_SOLO, BEN)]


@pytest.mark.parametrize("game_type", [G.MARRIAGE, G.POVERTY])
@pytest.mark.parametrize("declarer", [None, ANNA])
def test_marriage_and_poverty_come_with_reservations(game_type: GameType, declarer: int | None) -> None:
    refused(
        given(started(), CardsDealt(DEAL)),
        SetGameType(game_type, declarer),
        f"a {game_type.value} is declared as a reservation, not set directly (RULES.md §4)",
    )


# --- who leads -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("dealer", "leader"), [(0, 1), (1, 2), (2, 3), (3, 0)])
def test_the_player_left_of_the_dealer_leads_the_first_trick(dealer: int, leader: int) -> None:
    state = given(started(dealer=dealer), GameTypeSet(G.NORMAL))

    assert state.to_play == leader
    refused(
        state,
        PlayCard((leader + 1) % 4, c("CA")),
        f"{PLAYERS[(leader + 1) % 4]} played CA out of turn: it is {PLAYERS[leader]}'s turn (RULES.md §3)",
    )


@pytest.mark.parametrize("game_type", [G.CLUB_SOLO, G.DIAMOND_SOLO, G.QUEEN_SOLO, G.JACK_SOLO, G.ACE_SOLO])
def test_soloist_leads_a_declared_solo_under_soloist_leads(game_type: GameType) -> None:
    rules = rules_from_mapping({"soloist_leads": True})

    state = given(started(rules, dealer=DIRK), GameTypeSet(game_type, CLEO))

    assert state.to_play == CLEO


def test_soloist_leads_a_pure_suit_solo_under_bistro_rules() -> None:
    state = given(started(BISTRO, dealer=DIRK), GameTypeSet(G.PURE_SPADE_SOLO, BEN))

    assert state.to_play == BEN


def test_without_soloist_leads_the_left_of_the_dealer_leads_a_solo() -> None:
    state = given(started(STANDARD, dealer=DIRK), GameTypeSet(G.CLUB_SOLO, CLEO))

    assert state.to_play == ANNA


def test_silent_solo_is_led_from_the_dealers_left_even_under_soloist_leads() -> None:
    rules = rules_from_mapping({"soloist_leads": True})
    state = run(given(started(rules, dealer=BEN), CardsDealt(DEAL)), SetGameType(G.SILENT_SOLO, ANNA))

    assert state.to_play == CLEO


def test_the_trick_winner_leads_the_next_trick() -> None:
    state = run(normal_game(), *plays((ANNA, "CA"), (BEN, "C9"), (CLEO, "CK"), (DIRK, "DJ")))

    assert state.tricks[0].winner == DIRK
    assert state.current is None
    assert state.to_play == DIRK
    refused(state, PlayCard(ANNA, c("C10")), "Anna played C10 out of turn: it is Dirk's turn (RULES.md §3)")
    assert run(state, PlayCard(DIRK, c("DJ"))).current.leader == DIRK  # type: ignore[union-attr]


def test_play_goes_clockwise_from_the_leader() -> None:
    state = run(normal_game(), *plays((ANNA, "CA"), (BEN, "C9")))

    assert state.to_play == CLEO
    refused(state, PlayCard(DIRK, c("DJ")), "Dirk played DJ out of turn: it is Cleo's turn (RULES.md §3)")


# --- PlayCard ------------------------------------------------------------------------------------


def test_play_card_removes_it_from_the_hand() -> None:
    state = normal_game()

    events = decide(state, PlayCard(ANNA, c("CA")))

    assert events == [CardPlayed(ANNA, c("CA"))]
    after = evolve(state, events[0])
    assert after.hands is not None
    assert len(after.hands[ANNA]) == 11
    assert Counter(after.hands[ANNA]) == Counter(DEAL[ANNA]) - Counter([c("CA")])
    assert after.hands[1:] == DEAL[1:]
    assert after.dealt == DEAL
    assert after.current is not None
    assert after.current.cards == (c("CA"),)
    assert after.current.leader == ANNA


def test_hands_shrink_by_one_card_per_play() -> None:
    state = run(normal_game(), *plays((ANNA, "CQ"), (BEN, "SQ"), (CLEO, "HQ"), (DIRK, "H10")))

    assert state.hands is not None
    assert [len(h) for h in state.hands] == [11, 11, 11, 11]
    assert state.hands[ANNA].count(c("CQ")) == 1
    assert c("H10") not in state.hands[DIRK]


def test_play_refuses_a_card_not_held() -> None:
    refused(
        normal_game(),
        PlayCard(ANNA, c("DQ")),
        "Anna does not hold DQ (holds H10 CQ CQ DA D10 CA C10 CK SA S10 HA HK)",
    )


def test_play_refuses_a_card_already_played_from_the_hand() -> None:
    state = run(normal_game(), *plays((ANNA, "CA"), (BEN, "CA"), (CLEO, "C10"), (DIRK, "DJ")))
    state = run(state, *plays((DIRK, "DJ"), (ANNA, "H10"), (BEN, "SQ"), (CLEO, "DQ")))

    assert state.tricks[1].winner == ANNA
    refused(
        state,
        PlayCard(ANNA, c("H10")),
        "Anna does not hold H10 (holds CQ CQ DA D10 C10 CK SA S10 HA HK)",
    )


def test_play_refuses_a_revoke_of_a_plain_suit() -> None:
    state = run(normal_game(), PlayCard(ANNA, c("CA")))

    refused(
        state,
        PlayCard(BEN, c("SK")),
        "revoke: Ben must follow the led suit of CA with one of CA C9, not SK (RULES.md §3)",
    )
    refused(  # CJ is trump, not a club
        state,
        PlayCard(BEN, c("CJ")),
        "revoke: Ben must follow the led suit of CA with one of CA C9, not CJ (RULES.md §3)",
    )
    assert decide(state, PlayCard(BEN, c("C9"))) == [CardPlayed(BEN, c("C9"))]


def test_play_refuses_a_revoke_of_trump() -> None:
    state = run(normal_game(), PlayCard(ANNA, c("H10")))

    refused(
        state,
        PlayCard(BEN, c("CA")),
        "revoke: Ben must follow trump with one of SQ SQ HQ CJ DK D9, not CA (RULES.md §3)",
    )
    assert decide(state, PlayCard(BEN, c("DK"))) == [CardPlayed(BEN, c("DK"))]


def test_without_the_led_suit_any_card_may_be_played() -> None:
    state = run(normal_game(), *plays((ANNA, "CA"), (BEN, "C9"), (CLEO, "CK")))

    # Dirk has no plain club (his CJ is trump): he may discard or trump.
    assert decide(state, PlayCard(DIRK, c("SK"))) == [CardPlayed(DIRK, c("SK"))]
    assert decide(state, PlayCard(DIRK, c("CJ"))) == [CardPlayed(DIRK, c("CJ"))]


@pytest.mark.parametrize(
    ("game_type", "declarer", "must"),
    [
        (G.NORMAL, None, "SQ SQ HQ CJ DK D9"),  # DA is trump: every trump follows
        (G.ACE_SOLO, ANNA, "DK D9"),  # DA is a plain diamond: no queen follows
        (G.CLUB_SOLO, ANNA, "DK D9"),  # diamonds plain; SQ HQ are trump
    ],
)
def test_what_follows_a_diamond_lead_depends_on_the_game_type(
    game_type: GameType, declarer: int | None, must: str
) -> None:
    state = run(given(started(), CardsDealt(DEAL), GameTypeSet(game_type, declarer)), PlayCard(ANNA, c("DA")))
    kind = "trump" if game_type is G.NORMAL else "the led suit of DA"

    refused(state, PlayCard(BEN, c("SK")), f"revoke: Ben must follow {kind} with one of {must}, not SK (RULES.md §3)")


def test_play_refuses_before_the_game_type_is_set() -> None:
    refused(
        given(started(), CardsDealt(DEAL)),
        PlayCard(ANNA, c("CA")),
        "Anna cannot play CA: the game type is not set yet",
    )


def test_play_without_recorded_hands_refuses_a_third_copy() -> None:
    state = run(given(started(), GameTypeSet(G.NORMAL)), *plays((ANNA, "CA"), (BEN, "CA")))

    refused(state, PlayCard(CLEO, c("CA")), "Cleo played a third CA: both copies are already played")


def test_play_without_recorded_hands_accepts_any_card_in_turn() -> None:
    state = run(given(started(), GameTypeSet(G.NORMAL)), PlayCard(ANNA, c("CA")))

    # Ben's hand is unknown: a card that might be a revoke is recorded (audit proves it later).
    assert decide(state, PlayCard(BEN, c("SK"))) == [CardPlayed(BEN, c("SK"))]


def test_play_without_recorded_hands_refuses_a_nine_when_the_rules_have_none() -> None:
    refused(
        given(started(BISTRO), GameTypeSet(G.NORMAL)),
        PlayCard(ANNA, c("C9")),
        "Anna played C9, which is not in the deck: this game has no nines",
    )


# --- Schweinchen ---------------------------------------------------------------------------------

SCHWEINCHEN_STANDARD = rules_from_mapping({"schweinchen": True})


def test_schweinchen_is_refused_where_the_rules_have_none() -> None:
    refused(
        given(started(STANDARD), GameTypeSet(G.NORMAL)),
        ShowSchweinchen(BEN),
        "these rules have no Schweinchen (option schweinchen)",
    )


@pytest.mark.parametrize("game_type", [G.DIAMOND_SOLO, G.SILENT_SOLO, G.CLUB_SOLO])
def test_schweinchen_only_in_a_normal_or_marriage_game(game_type: GameType) -> None:
    refused(
        given(started(BISTRO), GameTypeSet(game_type, BEN)),
        ShowSchweinchen(BEN),
        "Schweinchen counts only in a normal or marriage game (RULES.md §2)",
    )


def test_schweinchen_is_refused_before_the_game_type() -> None:
    refused(
        given(started(BISTRO)),
        ShowSchweinchen(BEN),
        "Schweinchen counts only in a normal or marriage game (RULES.md §2)",
    )


def test_schweinchen_refuses_a_seat_that_does_not_exist() -> None:
    refused(given(started(BISTRO), GameTypeSet(G.NORMAL)), ShowSchweinchen(4), "there is no seat 4")


def test_schweinchen_shown_without_recorded_hands_puts_da_on_top() -> None:
    state = given(started(BISTRO), GameTypeSet(G.NORMAL))

    events = decide(state, ShowSchweinchen(BEN))

    assert events == [SchweinchenShown(BEN)]
    after = evolve(state, events[0])
    assert after.schweinchen_seat == BEN
    assert after.order.trumps[:2] == (c("DA"), c("H10"))
    refused(after, ShowSchweinchen(CLEO), "Ben already showed the Schweinchen")


def test_schweinchen_in_a_marriage_is_accepted() -> None:
    state = given(started(BISTRO), GameTypeSet(G.MARRIAGE))

    assert decide(state, ShowSchweinchen(BEN)) == [SchweinchenShown(BEN)]


def test_schweinchen_is_refused_after_a_da_was_played() -> None:
    state = run(given(started(BISTRO), GameTypeSet(G.NORMAL)), PlayCard(ANNA, c("DA")))

    refused(state, ShowSchweinchen(BEN), "a DA was already played: the Schweinchen is shown with the first one")


@pytest.mark.parametrize(
    ("rules", "hands", "seat"),
    [(SCHWEINCHEN_STANDARD, DEAL, ANNA), (BISTRO, SHORT_DEAL, DIRK), (BISTRO, SHORT_DEAL, BEN)],
    ids=["nobody-holds-both", "holder", "not-the-holder"],
)
def test_schweinchen_call_is_refused_where_hands_are_recorded(
    rules: RuleSet, hands: tuple[tuple[Card, ...], ...], seat: int
) -> None:
    refused(
        normal_game(rules, hands=hands),
        ShowSchweinchen(seat),
        "the hands are recorded, so the Schweinchen is known from the deal; leave the call out",
    )


def test_a_dealt_schweinchen_is_known_from_the_hands() -> None:
    assert normal_game(BISTRO, hands=SHORT_DEAL).schweinchen_seat == DIRK
    assert normal_game(SCHWEINCHEN_STANDARD, hands=DEAL).schweinchen_seat is None
    assert normal_game(replace(BISTRO, schweinchen=False), hands=SHORT_DEAL).schweinchen_seat is None


def test_after_a_schweinchen_call_only_its_holder_plays_a_da() -> None:
    state = run(given(started(BISTRO), GameTypeSet(G.NORMAL)), ShowSchweinchen(BEN), PlayCard(ANNA, c("CA")))

    assert decide(state, PlayCard(BEN, c("DA"))) == [CardPlayed(BEN, c("DA"))]
    state = run(state, *plays((BEN, "C10"), (CLEO, "CK"), (DIRK, "CK")))
    refused(state, PlayCard(ANNA, c("DA")), "Anna cannot hold DA: Ben showed both (Schweinchen)")


@pytest.mark.parametrize(("schweinchen", "winner"), [(True, DIRK), (False, CLEO)])
def test_dealt_schweinchen_wins_over_the_dulle(schweinchen: bool, winner: int) -> None:
    rules = replace(BISTRO, schweinchen=schweinchen)

    state = run(normal_game(rules, hands=SHORT_DEAL), *plays((ANNA, "CQ"), (BEN, "SQ"), (CLEO, "H10"), (DIRK, "DA")))

    assert state.tricks[0].winner == winner


# --- the Dulle option through evolve -------------------------------------------------------------


@pytest.mark.parametrize(("option", "winner"), [(False, ANNA), (True, DIRK)])
def test_second_dulle_in_a_trick(option: bool, winner: int) -> None:
    rules = rules_from_mapping({"second_dulle_beats_first": option})

    state = run(normal_game(rules), *plays((ANNA, "H10"), (BEN, "D9"), (CLEO, "DQ"), (DIRK, "H10")))

    assert state.tricks[0].winner == winner


@pytest.mark.parametrize("option", [False, True])
def test_first_dulle_wins_the_last_trick_even_under_the_option(option: bool) -> None:
    rules = rules_from_mapping({"second_dulle_beats_first": option})
    state = given(started(rules), GameTypeSet(G.NORMAL))
    rest = Counter(deck()) - Counter(cards("H10 H10 C9 C9"))
    for card in sorted(rest.elements(), key=str):
        assert state.to_play is not None
        state = run(state, PlayCard(state.to_play, card))
    assert len(state.tricks) == 11
    leader = state.to_play
    assert leader is not None

    state = run(state, *[PlayCard((leader + i) % 4, card) for i, card in enumerate(cards("H10 C9 H10 C9"))])

    assert state.finished
    assert state.tricks[-1].winner == leader


# --- whole games ---------------------------------------------------------------------------------


def random_game(
    rules: RuleSet, game_type: GameType, declarer: int | None, seed: int, dealer: int = 0
) -> tuple[GameState, list[DoppelkopfEvent], list[GameState]]:
    """A full game of random legal plays; the events and every state on the way."""
    rng = random.Random(seed)
    pack = list(deck(rules.with_nines).elements())
    size = rules.hand_size
    while True:  # a normal game needs the two CQ in two hands (else it is a silent solo)
        rng.shuffle(pack)
        hands = tuple(tuple(pack[i * size : (i + 1) * size]) for i in range(4))
        if game_type is not GameType.NORMAL or all(h.count(ALTE) < 2 for h in hands):
            break
    commands: list[Command] = [
        StartGame(f"game-{seed}", PLAYERS, dealer, rules),
        DealCards(hands),
        SetGameType(game_type, declarer),
    ]
    state = GameState()
    states = [state]
    events: list[DoppelkopfEvent] = []
    for command in commands:
        for event in decide(state, command):
            state = evolve(state, event)
            events.append(event)
            states.append(state)
    while not state.finished:
        seat = state.to_play
        assert seat is not None and state.hands is not None
        trick = state.current.cards if state.current is not None else ()
        card = rng.choice(sorted(legal_plays(state.hands[seat], trick, state.order), key=str))
        for event in decide(state, PlayCard(seat, card)):
            state = evolve(state, event)
            events.append(event)
            states.append(state)
    return state, events, states


GAMES = [
    (STANDARD, G.NORMAL, None, 1),
    (STANDARD, G.NORMAL, None, 2),
    (STANDARD, G.NORMAL, None, 3),
    (rules_from_mapping({"second_dulle_beats_first": True}), G.NORMAL, None, 4),
    (rules_from_mapping({"soloist_leads": True}), G.CLUB_SOLO, CLEO, 5),
    (STANDARD, G.QUEEN_SOLO, BEN, 6),
    (STANDARD, G.JACK_SOLO, DIRK, 7),
    (STANDARD, G.ACE_SOLO, ANNA, 8),
    (STANDARD, G.HEART_SOLO, ANNA, 9),
    (BISTRO, G.NORMAL, None, 10),
    (BISTRO, G.PURE_HEART_SOLO, BEN, 11),
    (BISTRO, G.DIAMOND_SOLO, CLEO, 12),
]


@pytest.mark.parametrize(
    ("rules", "game_type", "declarer", "seed"), GAMES, ids=[f"{g[0].preset}-{g[1].value}-{g[3]}" for g in GAMES]
)
def test_a_random_legal_game_deals_out_240_card_points(
    rules: RuleSet, game_type: GameType, declarer: int | None, seed: int
) -> None:
    state, events, _ = random_game(rules, game_type, declarer, seed)

    assert state.finished
    assert state.to_play is None
    assert len(state.tricks) == rules.hand_size
    assert sum(state.points_won()) == 240
    assert sum(card_points(t.cards) for t in state.tricks) == 240
    assert sum(state.tricks_won()) == rules.hand_size
    assert Counter(state.cards_played) == deck(rules.with_nines)
    assert state.hands is not None
    assert all(hand == () for hand in state.hands)
    assert sum(isinstance(e, CardPlayed) for e in events) == 4 * rules.hand_size


@pytest.mark.parametrize(
    ("rules", "game_type", "declarer", "seed"), GAMES, ids=[f"{g[0].preset}-{g[1].value}-{g[3]}" for g in GAMES]
)
def test_each_trick_is_led_by_the_previous_winner(
    rules: RuleSet, game_type: GameType, declarer: int | None, seed: int
) -> None:
    state, _, _ = random_game(rules, game_type, declarer, seed, dealer=2)

    assert state.tricks[0].leader == state.first_leader
    for before, after in zip(state.tricks, state.tricks[1:], strict=False):
        assert after.leader == before.winner
    for trick in state.tricks:
        index = winning_index(
            trick.cards,
            state.order,
            second_dulle_beats_first=rules.second_dulle_beats_first,
            last_trick=trick.number == rules.hand_size,
        )
        assert trick.winner == (trick.leader + index) % 4


def test_the_first_leader_of_a_random_game() -> None:
    soloist_leads = rules_from_mapping({"soloist_leads": True})

    normal, _, _ = random_game(STANDARD, G.NORMAL, None, 21, dealer=2)
    solo, _, _ = random_game(soloist_leads, G.CLUB_SOLO, BEN, 22, dealer=2)

    assert normal.tricks[0].leader == DIRK
    assert solo.tricks[0].leader == BEN


@pytest.mark.parametrize("seed", [31, 32])
def test_fold_equals_step_by_step_evolve(seed: int) -> None:
    final, events, states = random_game(STANDARD, G.NORMAL, None, seed)

    assert fold(events) == final
    for k in range(len(events) + 1):
        assert fold(events[:k]) == states[k]
    middle = 20
    assert fold(events[middle:], states[middle]) == final


def test_play_after_the_last_trick_is_refused() -> None:
    final, _, _ = random_game(STANDARD, G.NORMAL, None, 41)

    refused(final, PlayCard(ANNA, c("CA")), "Anna cannot play CA: all 12 tricks are played")


def test_play_after_the_last_trick_of_a_short_game_is_refused() -> None:
    final, _, _ = random_game(BISTRO, G.NORMAL, None, 42)

    refused(final, PlayCard(CLEO, c("HA")), "Cleo cannot play HA: all 10 tricks are played")


# --- evolve never validates ----------------------------------------------------------------------


def test_evolve_applies_an_event_decide_would_refuse() -> None:
    state = normal_game()

    after = evolve(state, CardPlayed(BEN, c("DQ")))  # out of turn and not in Ben's hand

    assert after.current is not None
    assert after.current.cards == (c("DQ"),)
    assert after.current.leader == BEN
    assert after.hands == state.hands


def test_evolve_ignores_unknown_events() -> None:
    state = normal_game()

    assert evolve(state, object()) is state
