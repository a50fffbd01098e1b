"""FreeDoko's solo options read onto doko's rules: the further picture solos become option
`picture_solos`, and a solo every doko table plays that FreeDoko's rules forbid is named with
the rule that forbids it (docs/rules.md §4)."""

from __future__ import annotations

import pytest
from helpers import cards

from doko_ledger.doppelkopf.files.freedoko.blocks import Entry
from doko_ledger.doppelkopf.files.freedoko.game import import_game
from doko_ledger.doppelkopf.files.freedoko.log import Action, FreeDokoFileError, GameLog, Party
from doko_ledger.doppelkopf.files.freedoko.rules import GAME_TYPES, read_rules
from doko_ledger.doppelkopf.rules.game_types import FURTHER_PICTURE_SOLOS, GameType
from doko_ledger.doppelkopf.rules.ruleset import PICTURE_SOLOS
from doko_ledger.doppelkopf.score import score_game

G = GameType

# FreeDoko's options: each picture solo is a permission under `solo`, true by default.
FREEDOKO_SOLOS = ("solo king", "solo queen jack", "solo king jack", "solo king queen", "solo koehler")


def block(**values: str) -> dict[str, Entry]:
    names = {name: "true" for name in ("solo", *FREEDOKO_SOLOS, "solo jack", "solo color")}
    names.update({k.replace("_", " "): v for k, v in values.items()})
    return {name: Entry(name, value, line) for line, (name, value) in enumerate(names.items(), 1)}


def test_freedoko_names_its_picture_solos() -> None:
    assert [GAME_TYPES[f"solo {n}"] for n in ("king", "queen-jack", "king-jack", "king-queen", "koehler")] == list(
        FURTHER_PICTURE_SOLOS
    )


def test_freedoko_allows_each_picture_solo_by_its_own_option() -> None:
    assert read_rules(block(), "x").rules.picture_solos == PICTURE_SOLOS
    rules = read_rules(block(solo_king="false", solo_koehler="false"), "x")
    assert rules.rules.picture_solos == ("queen_jack_solo", "king_jack_solo", "king_queen_solo")
    assert rules.forbidden_solos == {}


def test_freedoko_without_solos_forbids_every_declared_solo() -> None:
    rules = read_rules(block(solo="false"), "x")
    assert rules.rules.picture_solos == ()
    assert rules.forbidden_solos[G.JACK_SOLO] == "solo = false"
    assert rules.forbidden_solos[G.CLUB_SOLO] == "solo = false"


def test_freedoko_forbids_a_solo_doko_always_plays_by_its_option() -> None:
    rules = read_rules(block(solo_jack="false", solo_color="false"), "x")
    assert rules.rules.picture_solos == PICTURE_SOLOS
    assert rules.forbidden_solos == {
        G.JACK_SOLO: "solo jack = false",
        **dict.fromkeys((G.CLUB_SOLO, G.SPADE_SOLO, G.HEART_SOLO, G.DIAMOND_SOLO), "solo color = false"),
    }


# FreeDoko's sample game 17 of its default rules as a game log: Sven (player 3) plays a
# king-queen solo and leads; the trick lines give FreeDoko's winners, checked trick by trick.
HANDS = (
    "SA CK H10 SJ CK H10 HK DK DJ D9 HK C9",
    "HA D10 CA DK SA D10 CJ DJ HQ HA C10 S10",
    "D9 DQ S9 S10 H9 SJ DA HJ H9 HJ S9 SK",
    "SQ CQ C9 DQ CA CJ DA SK SQ HQ CQ C10",
)
TRICKS = [
    (3, "SK CK HQ DQ", 0),
    (0, "SA S10 S10 DQ", 3),
    (3, "HQ DK DK SK", 2),
    (2, "DA DA DJ D10", 2),
    (2, "S9 CQ SJ SA", 3),
    (3, "SQ HK HA SJ", 0),
    (0, "C9 CA HJ C9", 1),
    (1, "HA HJ SQ H10", 3),
    (3, "C10 HK C10 D9", 0),
    (0, "CK D10 H9 CQ", 0),
    (0, "H10 CJ H9 CJ", 0),
    (0, "D9 DJ S9 CA", 1),
]
WORDS = {"C": "club", "S": "spade", "H": "heart", "D": "diamond"}
RANK_WORDS = {"A": "ace", "10": "ten", "K": "king", "Q": "queen", "J": "jack", "9": "nine"}


def fd_card(text: str) -> str:
    return f"{WORDS[text[0]]} {RANK_WORDS[text[1:]]}"


def game_log(reservation: str, **rules: str) -> GameLog:
    entries = block(lustsolo_player_leads="true", **rules)
    said = {seat: reservation if seat == 3 else "normal" for seat in range(4)}
    actions = [Action("reservation", seat, (said[seat],), 100 + seat) for seat in (1, 2, 3, 0)]
    for number, (leader, played, winner) in enumerate(TRICKS):
        line = 200 + 10 * number
        seats = [(leader + i) % 4 for i in range(4)]
        texts = [fd_card(card) for card in played.split()]
        actions += [
            Action("card played", seat, (text,), line + i)
            for i, (seat, text) in enumerate(zip(seats, texts, strict=True))
        ]
        actions.append(Action("trick full", leader, (*texts, str(winner)), line + 4))
    party = Party(entries, ("Mara", "Gerd", "Erika", "Sven"), ())
    hands = tuple(cards(hand) for hand in HANDS)
    return GameLog("fd.log", "0.7.13", 252569, 1, party, hands, 90, tuple(actions), None)


def test_a_king_queen_solo_is_imported_and_replayed() -> None:
    game = import_game(game_log("solo king-queen"), "fd-17")
    assert (game.state.game_type, game.state.declarer) == (G.KING_QUEEN_SOLO, 3)
    assert game.state.finished and game.state.points_won() == (89, 26, 49, 76)
    assert score_game(game.state).deltas == (2, 2, 2, -6)


def test_a_picture_solo_its_option_forbids_is_refused_at_its_line() -> None:
    with pytest.raises(FreeDokoFileError, match=r"fd.log:103: .*option picture_solos"):
        import_game(game_log("solo king-queen", solo_king_queen="false"), "fd-17")


def test_a_solo_the_rules_forbid_is_refused_naming_the_rule() -> None:
    with pytest.raises(FreeDokoFileError, match=r"fd.log:103: reservation 'solo jack' .* \(solo = false\)"):
        import_game(game_log("solo jack", solo="false"), "fd-17")
