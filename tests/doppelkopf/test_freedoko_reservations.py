"""FreeDoko's reservation options and lines read as doko's: the poverty's cards, the marriage
player's choice and its line, the throws and a poverty nobody takes (docs/rules.md §4)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from helpers import MARRIAGE_DEAL, cards, run

from doko_ledger.doppelkopf.cards import Card
from doko_ledger.doppelkopf.files.freedoko.blocks import Entry
from doko_ledger.doppelkopf.files.freedoko.game import import_game
from doko_ledger.doppelkopf.files.freedoko.log import Action, FreeDokoFileError, GameLog, Party, card_name
from doko_ledger.doppelkopf.files.freedoko.rules import read_rules
from doko_ledger.doppelkopf.game import DealCards, DeclareReservation, GameState, NameReservation, PlayCard, StartGame
from doko_ledger.doppelkopf.game.parties import marriage_status
from doko_ledger.doppelkopf.rules.play import legal_plays
from doko_ledger.doppelkopf.rules.reservations import ReservationKind, asking_order

PLAYERS = ("Anna", "Ben", "Cleo", "Dirk")
ANNA, BEN, CLEO, DIRK = range(4)

# Cleo: three trumps and a DA (DA D10 HJ DK); Dirk: no nine to speak of, Anna five nines.
FOX_POVERTY_DEAL = (
    cards("H10 H10 CQ SQ SQ HQ HQ DQ CK C9 SK S9"),
    cards("CQ DQ CJ CJ SJ SJ HJ DJ CK C9 HK H9"),
    cards("DA D10 HJ CA CA DK C10 SA SA S10 HA HA"),
    cards("DJ DA D10 C10 DK D9 D9 S10 SK S9 HK H9"),
)
NINES_DEAL = (
    cards("C9 C9 S9 S9 H9 CQ DQ CA SA HA HK DA"),
    cards("H9 D9 D9 CQ SQ SQ HQ HQ DQ CJ CJ SJ"),
    cards("H10 H10 SJ HJ HJ DJ DJ DA D10 D10 DK DK"),
    cards("CA C10 C10 CK CK SA S10 S10 SK SK HA HK"),
)


def rules_block(**options: str) -> dict[str, Entry]:
    """A FreeDoko rule block: `poverty_fox_do_not_count="true"` is `poverty fox do not count = true`."""
    return {k.replace("_", " "): Entry(k.replace("_", " "), v, n) for n, (k, v) in enumerate(options.items(), 10)}


def action(kind: str, seat: int | None, *fields: str | Card) -> Action:
    return Action(kind, seat, tuple(card_name(f) if isinstance(f, Card) else f for f in fields), 0)


def game_log(deal: tuple[tuple[Card, ...], ...], block: dict[str, Entry], actions: list[Action]) -> GameLog:
    """A game log with Anna leading (FreeDoko's start player 0, dealer Dirk); lines numbered in order."""
    numbered = tuple(replace(a, line=100 + i) for i, a in enumerate(actions))
    return GameLog("test.FreeDoko", "0.7.13", None, 0, Party(block, PLAYERS, ()), deal, 50, numbered, None)


def reservations(said: dict[int, tuple[str, ...]]) -> list[Action]:
    return [action("reservation", seat, *said.get(seat, ("normal",))) for seat in (ANNA, BEN, CLEO, DIRK)]


# --- the rule block ---


@pytest.mark.parametrize(
    ("block", "expected"),
    [
        ({}, {"poverty_fox": "counted", "poverty_passes": "three", "throw_nines": 0, "marriage_tricks": 3}),
        ({"poverty_fox_do_not_count": "true"}, {"poverty_fox": "not_counted"}),
        ({"poverty_fox_do_not_count": "true", "poverty_fox_shift_extra": "true"}, {"poverty_fox": "passed_extra"}),
        ({"poverty_fox_do_not_count": "false", "poverty_fox_shift_extra": "true"}, {"poverty_fox": "counted"}),
        ({"poverty_shift_only_trump": "true"}, {"poverty_passes": "trumps"}),
        ({"poverty_shift_only_trump": "true", "poverty_shift": "false"}, {"poverty_passes": "three"}),
        ({"throw_with_nines": "true", "min_number_of_throwing_nines": "5", "with_nines": "false"}, {"throw_nines": 0}),
        ({"poverty_shift": "false"}, {"poverty_exchange": False}),
        ({"throw_with_nines": "true", "min_number_of_throwing_nines": "5"}, {"throw_nines": 5}),
        ({"throw_with_nines": "false", "min_number_of_throwing_nines": "5"}, {"throw_nines": 0}),
        ({"throw_with_richness": "true", "min_richness_for_throwing": "70"}, {"throw_richness": 70}),
        ({"throw_when_fox_highest_trump": "true", "throwing_before_solo": "true"}, {"throws_before_solo": True}),
        ({"throw_with_one_trump": "true"}, {"poverty_throw_one_trump": True}),
        ({"marriage_determination": "12", "marriage_first_one_decides": "true"}, {"marriage_tricks": 12}),
        ({"marriage_before_poverty": "true"}, {"marriage_before_poverty": True, "lone_marriage_specials": True}),
    ],
)
def test_freedoko_options_map_onto_doko_options(block: dict[str, str], expected: dict[str, object]) -> None:
    rules = read_rules(rules_block(**block), "test").rules
    assert {name: getattr(rules, name) for name in expected} == expected


def test_the_marriage_choices_are_permissions() -> None:
    read = read_rules(rules_block(marriage_first_trump="true", marriage_first_color="false"), "test")
    assert "marriage first color" in read.forbidden and "marriage first trump" not in read.forbidden


# --- poverty and throwing in, to the end of the deal ---


def test_a_fox_passed_extra_goes_with_four_cards_and_nobody_takes_it() -> None:
    block = rules_block(poverty_fox_do_not_count="true", poverty_fox_shift_extra="true")
    passed = cards("DA D10 HJ DK CA")  # three trumps and the DA, plus one: five is one too many
    actions = [
        *reservations({CLEO: ("poverty",)}),
        action("poverty shift", CLEO, *passed),
    ]
    with pytest.raises(FreeDokoFileError, match="Cleo passes 5 cards; a poverty passes four"):
        import_game(game_log(FOX_POVERTY_DEAL, block, actions), "g")
    actions[-1] = action("poverty shift", CLEO, *passed[:4])
    actions += [
        action("poverty denied", DIRK),
        action("poverty denied", ANNA),
        action("poverty denied", BEN),
        action("poverty denied by all", None),
    ]
    state = import_game(game_log(FOX_POVERTY_DEAL, block, actions), "g").state
    assert state.over and state.abandoned == "poverty_declined"


def test_four_trumps_with_the_fox_are_no_poverty_by_default() -> None:
    actions = [*reservations({CLEO: ("poverty",)})]
    with pytest.raises(FreeDokoFileError, match="Cleo holds 4 trumps: a poverty needs 3 or fewer"):
        import_game(game_log(FOX_POVERTY_DEAL, rules_block(), actions), "g")


def test_thrown_nines_throw_the_deal_in() -> None:
    block = rules_block(throw_with_nines="true", min_number_of_throwing_nines="5")
    state = import_game(game_log(NINES_DEAL, block, reservations({ANNA: ("thrown nines",)})), "g").state
    assert state.over and state.abandoned == "thrown_nines"
    block = rules_block(throw_with_nines="true", min_number_of_throwing_nines="6")
    with pytest.raises(FreeDokoFileError, match="the hand has 5 nines; throwing in needs 6"):
        import_game(game_log(NINES_DEAL, block, reservations({ANNA: ("thrown nines",)})), "g")


def test_a_genscher_is_refused_by_name() -> None:
    actions = [*reservations({}), action("genscher", ANNA, "2")]
    with pytest.raises(FreeDokoFileError, match="a genscher is not a game doko can record"):
        import_game(game_log(NINES_DEAL, rules_block(genscher="true"), actions), "g")


# --- a marriage played out, with FreeDoko's marriage line ---


def played_out(state: GameState, partner_line: int | None = None) -> list[Action]:
    """The rest of the game as FreeDoko writes it, the first legal card each turn; the marriage
    line names `partner_line` instead of the partner found when given."""
    lines: list[Action] = []
    told = False
    while not state.finished:
        seat = state.to_play
        assert seat is not None and state.hands is not None
        trick = state.current.cards if state.current is not None else ()
        card = legal_plays(state.hands[seat], trick, state.order)[0]
        state = run(state, PlayCard(seat, card))
        lines.append(action("card played", seat, card))
        if state.current is None:
            done = state.tricks[-1]
            partner, clarified = marriage_status(state)
            if clarified is not None and not told and state.declarer is not None:
                named = partner if partner is not None else state.declarer
                lines.append(action("marriage", state.declarer, str(named if partner_line is None else partner_line)))
                told = True
            lines.append(action("trick full", done.leader, *done.cards, str(done.winner)))
    return lines


def marriage_game(block: dict[str, Entry], choice: str, clarification: str, partner_line: int | None = None) -> GameLog:
    rules = replace(read_rules(block, "test").rules, marriage_clarification=clarification)  # type: ignore[arg-type]
    state = run(GameState(), StartGame("g", PLAYERS, DIRK, rules), DealCards(MARRIAGE_DEAL))
    for seat in asking_order(DIRK):
        state = run(state, DeclareReservation(seat, seat != ANNA))
    state = run(state, NameReservation(ANNA, ReservationKind.MARRIAGE))
    actions = [*reservations({ANNA: ("marriage", choice)}), *played_out(state, partner_line)]
    return game_log(MARRIAGE_DEAL, block, actions)


@pytest.mark.parametrize(
    ("choice", "clarification", "within", "status"),
    [
        ("first foreign", "any", "12", (BEN, 1)),
        ("first trump", "trump", "12", (BEN, 1)),
        ("first color", "plain", "12", (CLEO, 8)),
        ("first color", "plain", "3", (None, 3)),
        ("first heart", "hearts", "12", (CLEO, 12)),
    ],
)
def test_the_marriage_players_choice_finds_the_partner(
    choice: str, clarification: str, within: str, status: tuple[int | None, int]
) -> None:
    # the first H10 wins, as these tricks were written (FreeDoko's default has the second win)
    block = rules_block(
        marriage_determination=within, marriage_first_single_color="true", dollen_second_over_first="false"
    )
    imported = import_game(marriage_game(block, choice, clarification), "g")
    assert imported.state.rules.marriage_clarification == clarification
    assert imported.state.finished and marriage_status(imported.state) == status


def test_a_marriage_line_other_than_the_rules_find_is_refused() -> None:
    block = rules_block(marriage_determination="12", dollen_second_over_first="false")
    with pytest.raises(FreeDokoFileError, match="FreeDoko's marriage is settled with player 2, these rules have it"):
        import_game(marriage_game(block, "first foreign", "any", partner_line=CLEO), "g")


def test_a_marriage_choice_the_rules_do_not_allow_is_refused() -> None:
    block = rules_block(marriage_first_trump="false")
    with pytest.raises(FreeDokoFileError, match="marriage 'first trump' is not allowed by these rules"):
        import_game(game_log(MARRIAGE_DEAL, block, reservations({ANNA: ("marriage", "first trump")})), "g")
