"""Golden replays of the bundled `sample_games/`.

Every trick winner the library computes is checked against a naive reference
written here straight from docs/rules.md §2's table: trump lists and plain-suit
orders as literal strings per game type, the first of two identical cards
wins, with the `second_dulle_beats_first` and `schweinchen` options. The game
type itself is read from the file's reservations by the reference too
(docs/rules.md §4), never taken from the library.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from doko_ledger.doppelkopf.files import game_file
from doko_ledger.doppelkopf.files.game_file import LoadedGame
from doko_ledger.doppelkopf.game.parties import (
    announced,
    announcement_shift,
    is_lone,
    marriage_status,
    public_parties,
    true_parties,
)
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.rules.announcements import DEADLINE, Announcement, Party
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.games import DOPPELKOPF
from doko_ledger.ledger import Ledger

SAMPLES_DIR = Path(__file__).resolve().parents[2] / "sample_games"
SAMPLE_FILES = sorted(p.name for p in SAMPLES_DIR.glob("*.yaml"))
# deals thrown in: no tricks (docs/rules.md §4)
ABANDONED = {"19-poverty-declined.yaml": "poverty_declined", "20-misdeal.yaml": "misdeal"}
# deals recorded by their facts only (a `summary:`), without cards
SUMMARIES = [n for n in SAMPLE_FILES if "summary:" in (SAMPLES_DIR / n).read_text(encoding="utf-8")]
PLAYED_FILES = [n for n in SAMPLE_FILES if n not in ABANDONED and n not in SUMMARIES]
CARD_FILES = [n for n in SAMPLE_FILES if n not in SUMMARIES]

# -- the reference: docs/rules.md §2, written out by hand ---------------------------

NORMAL_TRUMPS = "H10 CQ SQ HQ DQ CJ SJ HJ DJ DA D10 DK D9"
NORMAL_PLAIN = {"C": "CA C10 CK C9", "S": "SA S10 SK S9", "H": "HA HK H9"}

# game type -> (trumps high to low, {plain suit: its cards high to low})
ORDERS: dict[str, tuple[str, dict[str, str]]] = {
    "normal": (NORMAL_TRUMPS, NORMAL_PLAIN),
    "marriage": (NORMAL_TRUMPS, NORMAL_PLAIN),
    "poverty": (NORMAL_TRUMPS, NORMAL_PLAIN),
    "silent_solo": (NORMAL_TRUMPS, NORMAL_PLAIN),
    "diamond_solo": (NORMAL_TRUMPS, NORMAL_PLAIN),
    "club_solo": (
        "H10 CQ SQ HQ DQ CJ SJ HJ DJ CA C10 CK C9",
        {"S": "SA S10 SK S9", "H": "HA HK H9", "D": "DA D10 DK D9"},
    ),
    "spade_solo": (
        "H10 CQ SQ HQ DQ CJ SJ HJ DJ SA S10 SK S9",
        {"C": "CA C10 CK C9", "H": "HA HK H9", "D": "DA D10 DK D9"},
    ),
    "heart_solo": (
        "H10 CQ SQ HQ DQ CJ SJ HJ DJ HA HK H9",
        {"C": "CA C10 CK C9", "S": "SA S10 SK S9", "D": "DA D10 DK D9"},
    ),
    "queen_solo": (
        "CQ SQ HQ DQ",
        {"C": "CA C10 CK CJ C9", "S": "SA S10 SK SJ S9", "H": "HA H10 HK HJ H9", "D": "DA D10 DK DJ D9"},
    ),
    "jack_solo": (
        "CJ SJ HJ DJ",
        {"C": "CA C10 CK CQ C9", "S": "SA S10 SK SQ S9", "H": "HA H10 HK HQ H9", "D": "DA D10 DK DQ D9"},
    ),
    "ace_solo": (
        "",
        {
            "C": "CA C10 CK CQ CJ C9",
            "S": "SA S10 SK SQ SJ S9",
            "H": "HA H10 HK HQ HJ H9",
            "D": "DA D10 DK DQ DJ D9",
        },
    ),
    "pure_club_solo": (
        "CA C10 CK CQ CJ C9",
        {"S": "SA S10 SK SQ SJ S9", "H": "HA H10 HK HQ HJ H9", "D": "DA D10 DK DQ DJ D9"},
    ),
    "pure_spade_solo": (
        "SA S10 SK SQ SJ S9",
        {"C": "CA C10 CK CQ CJ C9", "H": "HA H10 HK HQ HJ H9", "D": "DA D10 DK DQ DJ D9"},
    ),
    "pure_heart_solo": (
        "HA H10 HK HQ HJ H9",
        {"C": "CA C10 CK CQ CJ C9", "S": "SA S10 SK SQ SJ S9", "D": "DA D10 DK DQ DJ D9"},
    ),
    "pure_diamond_solo": (
        "DA D10 DK DQ DJ D9",
        {"C": "CA C10 CK CQ CJ C9", "S": "SA S10 SK SQ SJ S9", "H": "HA H10 HK HQ HJ H9"},
    ),
}
# Schweinchen (docs/rules.md §2): both DA above H10, normal and marriage games only.
SCHWEINCHEN_TRUMPS = "DA H10 CQ SQ HQ DQ CJ SJ HJ DJ D10 DK D9"

# the options the reference needs, per preset (docs/rules.md §8)
PRESET_OPTIONS: dict[str, dict[str, bool]] = {
    "standard": {"with_nines": True, "second_dulle_beats_first": False, "schweinchen": False, "soloist_leads": False},
    "bistro": {"with_nines": False, "second_dulle_beats_first": False, "schweinchen": True, "soloist_leads": True},
    "duel": {"with_nines": True, "second_dulle_beats_first": False, "schweinchen": False, "soloist_leads": False},
}


def reference_order(game_type: str, schweinchen: bool) -> dict[str, tuple[str, int]]:
    """card -> (suit for following, rank from the top: 0 is highest)."""
    trumps, plain = ORDERS[game_type]
    if schweinchen and game_type in ("normal", "marriage"):
        trumps = SCHWEINCHEN_TRUMPS
    order = {card: ("trump", i) for i, card in enumerate(trumps.split())}
    for suit, cards in plain.items():
        order.update({card: (suit, i) for i, card in enumerate(cards.split())})
    assert len(order) == 24, game_type
    return order


def reference_winner(cards: list[str], order: dict[str, tuple[str, int]], second_dulle: bool, last: bool) -> int:
    """Index of the winning card: highest trump, else highest of the led suit; first of two equal cards wins."""
    best = 0
    for i in range(1, len(cards)):
        card, top = cards[i], cards[best]
        if card == top:
            if card == "H10" and second_dulle and not last:
                best = i
            continue
        (suit, rank), (top_suit, top_rank) = order[card], order[top]
        if (suit == "trump" and top_suit != "trump") or (suit == top_suit and rank < top_rank):
            best = i
    return best


def options(rules: Any) -> dict[str, bool]:
    if isinstance(rules, str):
        return PRESET_OPTIONS[rules]
    return {**PRESET_OPTIONS[rules.get("preset", "standard")], **{k: v for k, v in rules.items() if k != "preset"}}


# docs/rules.md §4: solo > poverty > marriage; between equals the earlier player asked
PRECEDENCE = {"marriage": 1, "poverty": 2}


def reference_contract(data: dict[str, Any]) -> tuple[str, str | None]:
    """(game type, declarer) from the raw YAML: the winning reservation, else a silent solo
    where the hands show one player with both CQ, else a normal game."""
    players, dealer = data["players"], data["dealer"]
    asked = [players[(players.index(dealer) + i) % 4] for i in range(1, 5)]
    said = data.get("reservations", {})
    named = [(p, said[p]) for p in asked if said.get(p, "healthy") not in ("healthy", "reservation")]
    if named:
        best = max(named, key=lambda n: (PRECEDENCE.get(n[1], 3), -asked.index(n[0])))
        return best[1], best[0]
    hands = data.get("hands")
    both = [p for p, h in (hands or {}).items() if h.count("CQ") == 2]
    if both:
        return "silent_solo", both[0]
    return "normal", None


def reference_tricks(text: str) -> list[tuple[int, list[str], int]]:
    """(leader seat, cards, winner seat) of every trick, from the raw YAML and the reference alone."""
    data = yaml.safe_load(text)
    players = data["players"]
    game_type, declarer = reference_contract(data)
    opts = options(data.get("rules", "standard"))
    hands = data.get("hands")
    schweinchen = opts["schweinchen"] and hands is not None and any(h.count("DA") == 2 for h in hands.values())
    leader = (players.index(data["dealer"]) + 1) % 4
    if opts["soloist_leads"] and declarer is not None and game_type not in ("silent_solo", "marriage", "poverty"):
        leader = players.index(declarer)
    out = []
    n_tricks = len(data["tricks"])
    for t, items in enumerate(data["tricks"]):
        if any(isinstance(i, dict) and "schweinchen" in i.values() for i in items):
            schweinchen = schweinchen or opts["schweinchen"]
        cards = [i for i in items if isinstance(i, str)]
        order = reference_order(game_type, schweinchen)
        index = reference_winner(cards, order, opts["second_dulle_beats_first"], last=t == n_tricks - 1)
        winner = (leader + index) % 4
        out.append((leader, cards, winner))
        leader = winner
    return out


# -- loading -----------------------------------------------------------------


@cache
def sample(name: str) -> tuple[str, LoadedGame]:
    text = (SAMPLES_DIR / name).read_text(encoding="utf-8")
    return text, game_file.read(text, name)


def sample_with(game_type: str) -> list[str]:
    return [n for n in PLAYED_FILES if reference_contract(yaml.safe_load(sample(n)[0]))[0] == game_type]


def seat(loaded: LoadedGame, player: str) -> int:
    return loaded.record.players.index(player)


def test_there_are_enough_samples() -> None:
    assert len(SAMPLE_FILES) >= 25
    assert set(ABANDONED) <= set(SAMPLE_FILES)


@pytest.mark.parametrize("name", PLAYED_FILES)
def test_sample_is_a_complete_legal_game(name: str) -> None:
    _, loaded = sample(name)
    state = loaded.state
    tricks = 12 if state.rules.with_nines else 10
    assert len(loaded.record.tricks) == tricks
    assert len(state.tricks) == tricks
    assert state.finished
    assert all(t.complete and t.winner is not None for t in state.tricks)
    assert sum(t.points for t in state.tricks) == 240
    assert sum(state.points_won()) == 240
    assert state.game_id == loaded.record.id
    assert state.abandoned is None


@pytest.mark.parametrize(("name", "reason"), sorted(ABANDONED.items()))
def test_abandoned_sample_has_no_tricks(name: str, reason: str) -> None:
    text, loaded = sample(name)
    state = loaded.state
    assert state.abandoned == reason
    assert yaml.safe_load(text)["tricks"] == []
    assert loaded.record.tricks == ()
    assert state.tricks == () and state.current is None
    assert not state.ready and not state.finished
    assert state.to_play is None


@pytest.mark.parametrize("name", SAMPLE_FILES)
def test_sample_is_canonical(name: str) -> None:
    text, loaded = sample(name)
    assert game_file.dumps(game_file.loads(text)) == text
    assert game_file.dumps(loaded.record) == text


@pytest.mark.parametrize("name", CARD_FILES)
def test_every_trick_winner_agrees_with_the_reference(name: str) -> None:
    text, loaded = sample(name)
    expected = reference_tricks(text)
    assert len(expected) == len(loaded.state.tricks)
    for trick, (leader, cards, winner) in zip(loaded.state.tricks, expected, strict=True):
        assert [str(c) for c in trick.cards] == cards, f"trick {trick.number}"
        assert trick.leader == leader, f"trick {trick.number}: leader"
        assert trick.winner == winner, f"trick {trick.number} {cards}: winner"


@pytest.mark.parametrize(
    ("cards", "game_type", "schweinchen", "second_dulle", "last", "winner"),
    [
        (["H10", "H10", "CQ", "D9"], "normal", False, False, False, 0),
        (["H10", "H10", "CQ", "D9"], "normal", False, True, False, 1),
        (["H10", "H10", "CQ", "D9"], "normal", False, True, True, 0),
        (["CA", "C10", "D9", "CA"], "normal", False, False, False, 2),
        (["CA", "C10", "CK", "CA"], "normal", False, False, False, 0),
        (["H10", "DA", "CQ", "DA"], "normal", True, False, False, 1),
        (["H10", "DA", "CQ", "DA"], "normal", False, False, False, 0),
        (["DA", "SA", "D10", "DK"], "club_solo", False, False, False, 0),
        (["CK", "CQ", "C9", "C10"], "queen_solo", False, False, False, 1),
        (["H10", "HA", "HK", "SQ"], "queen_solo", False, False, False, 3),
        (["HK", "HQ", "HJ", "HA"], "ace_solo", False, False, False, 3),
        (["HQ", "H10", "CQ", "H9"], "pure_heart_solo", False, False, False, 1),
    ],
)
def test_the_reference_itself(
    cards: list[str], game_type: str, schweinchen: bool, second_dulle: bool, last: bool, winner: int
) -> None:
    assert reference_winner(cards, reference_order(game_type, schweinchen), second_dulle, last) == winner


# -- the features each sample shows ---------------------------------------------


@pytest.mark.parametrize(
    ("game_type", "with_nines"),
    [
        ("normal", True),
        ("diamond_solo", True),
        ("heart_solo", True),
        ("spade_solo", True),
        ("club_solo", True),
        ("queen_solo", True),
        ("jack_solo", True),
        ("ace_solo", True),
        ("marriage", True),
        ("poverty", True),
        ("silent_solo", True),
    ],
)
def test_each_game_type_has_a_sample(game_type: str, with_nines: bool) -> None:
    names = sample_with(game_type)
    assert names, game_type
    for name in names:
        if name in SUMMARIES:
            continue
        text, loaded = sample(name)
        assert loaded.state.game_type is GameType(game_type)
        _, declarer = reference_contract(yaml.safe_load(text))
        if declarer is None:
            assert game_type == "normal"
            assert loaded.state.declarer is None
            continue
        assert loaded.state.declarer == seat(loaded, declarer)
        if GameType(game_type).is_declared_solo:
            assert dict(loaded.record.reservations)[declarer] == game_type
    assert any(sample(n)[1].state.rules.with_nines is with_nines for n in names)


@pytest.mark.parametrize(
    ("name", "game_type"),
    [
        ("02-diamond-solo.yaml", GameType.DIAMOND_SOLO),
        ("03-heart-solo.yaml", GameType.HEART_SOLO),
        ("04-spade-solo.yaml", GameType.SPADE_SOLO),
        ("05-club-solo.yaml", GameType.CLUB_SOLO),
        ("06-queen-solo.yaml", GameType.QUEEN_SOLO),
        ("07-jack-solo.yaml", GameType.JACK_SOLO),
        ("08-ace-solo.yaml", GameType.ACE_SOLO),
        ("11-bistro-pure-heart-solo.yaml", GameType.PURE_HEART_SOLO),
        ("25-bistro-club-solo.yaml", GameType.CLUB_SOLO),
    ],
)
def test_solo_sample_has_its_game_type(name: str, game_type: GameType) -> None:
    text, loaded = sample(name)
    assert loaded.state.game_type is game_type
    assert loaded.state.declarer is not None
    # the solo is declared as a reservation; the game type is never written down
    data = yaml.safe_load(text)
    assert "game_type" not in data and "soloist" not in data
    assert list(data["reservations"].values()) == [game_type.value]
    assert loaded.record.reservations == ((loaded.record.players[loaded.state.declarer], game_type.value),)
    assert is_lone(loaded.state)


def test_normal_sample_with_hands() -> None:
    _, loaded = sample("01-normal.yaml")
    assert loaded.state.game_type is GameType.NORMAL
    assert loaded.record.hands is not None
    assert loaded.record.reservations == ()
    assert loaded.state.rules.with_nines
    # the CQs are split: a normal game, not a silent solo
    assert max([str(c) for c in h].count("CQ") for h in loaded.record.hands) == 1


@pytest.mark.parametrize("name", PLAYED_FILES)
def test_finished_game_has_every_party_public(name: str) -> None:
    """At the end of a normal, marriage or poverty game the table knows every party (docs/rules.md §4)."""
    _, loaded = sample(name)
    state = loaded.state
    parties = true_parties(state)
    assert None not in parties
    assert parties.count(Party.RE) == (1 if is_lone(state) else 2)
    if state.game_type in (GameType.NORMAL, GameType.MARRIAGE, GameType.POVERTY):
        assert public_parties(state) == parties


def test_second_dulle_sample_has_a_trick_won_by_the_second_h10() -> None:
    _, loaded = sample("10-second-dulle.yaml")
    assert loaded.state.rules.second_dulle_beats_first
    assert loaded.state.rules.preset == "standard"
    won_by_second = [
        t.number
        for t in loaded.state.tricks
        if [str(c) for c in t.cards].count("H10") == 2
        and t.winner == t.seat_of([i for i, c in enumerate(t.cards) if str(c) == "H10"][1])
    ]
    assert won_by_second
    assert all(n < len(loaded.state.tricks) for n in won_by_second)
    # under the standard rules the same cards would have gone to the first H10
    standard = reference_order("normal", False)
    for n in won_by_second:
        cards = [str(c) for c in loaded.state.tricks[n - 1].cards]
        assert reference_winner(cards, standard, second_dulle=False, last=False) == cards.index("H10")


def test_bistro_pure_suit_solo_has_ten_tricks_without_nines() -> None:
    _, loaded = sample("11-bistro-pure-heart-solo.yaml")
    state = loaded.state
    assert state.rules.preset == "bistro"
    assert not state.rules.with_nines
    assert state.game_type is not None and state.game_type.is_pure_suit_solo
    assert len(state.tricks) == 10
    assert not any(str(c).endswith("9") for t in state.tricks for c in t.cards)
    # soloist_leads (bistro): the soloist leads the first trick
    assert state.tricks[0].leader == state.declarer


@pytest.mark.parametrize("name", ["12-bistro-schweinchen.yaml", "13-bistro-schweinchen-called.yaml"])
def test_schweinchen_sample_has_a_da_beating_an_h10(name: str) -> None:
    _, loaded = sample(name)
    state = loaded.state
    assert state.rules.schweinchen
    assert state.game_type is GameType.NORMAL
    assert state.schweinchen_seat is not None
    decided = [
        t.number
        for t in state.tricks
        if "H10" in [str(c) for c in t.cards] and str(t.cards[((t.winner or 0) - t.leader) % 4]) == "DA"
    ]
    assert decided
    # the DA that wins was played by the Schweinchen holder
    for n in decided:
        trick = state.tricks[n - 1]
        assert trick.winner == state.schweinchen_seat


def test_schweinchen_with_hands_is_held_by_one_player() -> None:
    _, loaded = sample("12-bistro-schweinchen.yaml")
    assert loaded.record.hands is not None
    holders = [
        p
        for p, h in zip(loaded.record.players, loaded.record.hands, strict=True)
        if [str(c) for c in h].count("DA") == 2
    ]
    assert len(holders) == 1
    assert loaded.state.schweinchen_seat == loaded.record.players.index(holders[0])


@pytest.mark.parametrize(
    "name", ["09-normal-not-dealt.yaml", "13-bistro-schweinchen-called.yaml", "24-kontra-no90-not-dealt.yaml"]
)
def test_sample_without_hands(name: str) -> None:
    text, loaded = sample(name)
    assert "hands" not in yaml.safe_load(text)
    assert loaded.record.hands is None
    assert loaded.state.hands is None
    assert loaded.state.dealt is None


def test_normal_sample_without_hands_is_a_normal_game() -> None:
    _, loaded = sample("09-normal-not-dealt.yaml")
    assert loaded.state.game_type is GameType.NORMAL
    assert loaded.record.rules.preset == "standard"


def test_schweinchen_called_before_the_first_da() -> None:
    text, loaded = sample("13-bistro-schweinchen-called.yaml")
    tricks = yaml.safe_load(text)["tricks"]
    flat = [i for t in tricks for i in t]
    calls = [i for i, item in enumerate(flat) if isinstance(item, dict)]
    assert len(calls) == 1
    assert flat[calls[0] + 1] == "DA"
    assert "DA" not in flat[: calls[0]]
    (caller,) = flat[calls[0]]
    assert loaded.state.schweinchen_seat == loaded.record.players.index(caller)


# -- reservations (docs/rules.md §4) ---------------------------------------------------


@pytest.mark.parametrize(("name", "trick"), [("14-marriage-first-trick.yaml", 1), ("15-marriage-third-trick.yaml", 3)])
def test_marriage_finds_its_partner(name: str, trick: int) -> None:
    text, loaded = sample(name)
    state = loaded.state
    declarer = state.declarer
    assert state.game_type is GameType.MARRIAGE and declarer is not None
    assert loaded.record.reservations == ((loaded.record.players[declarer], "marriage"),)
    assert loaded.record.hands is not None and [str(c) for c in loaded.record.hands[declarer]].count("CQ") == 2
    # the reference: the first trick won by another player
    winners = [winner for _, _, winner in reference_tricks(text)]
    assert winners[: trick - 1] == [declarer] * (trick - 1)
    partner = winners[trick - 1]
    assert partner != declarer
    assert marriage_status(state) == (partner, trick)
    assert not is_lone(state)
    parties = true_parties(state)
    assert [s for s, p in enumerate(parties) if p is Party.RE] == sorted({declarer, partner})
    assert announcement_shift(state) == trick - 1


def test_marriage_clarified_late_moves_the_deadlines() -> None:
    """Trick 3 clarifies: every deadline two cards later; the partner's Re with 3 cards played."""
    _, loaded = sample("15-marriage-third-trick.yaml")
    state = loaded.state
    partner, _ = marriage_status(state)
    (call,) = state.calls
    assert (call.seat, call.announcement, call.party) == (partner, Announcement.RE, Party.RE)
    assert call.played == DEADLINE[0] + 2 == 3
    assert call.trick == 4


def test_lone_marriage() -> None:
    text, loaded = sample("16-lone-marriage.yaml")
    state = loaded.state
    declarer = state.declarer
    assert state.game_type is GameType.MARRIAGE and declarer is not None
    assert loaded.record.reservations == ((loaded.record.players[declarer], "marriage"),)
    assert [winner for _, _, winner in reference_tricks(text)][:3] == [declarer] * 3
    assert marriage_status(state) == (None, 3)
    assert is_lone(state)
    assert true_parties(state) == tuple(Party.RE if s == declarer else Party.KONTRA for s in range(4))
    assert f"tricks:  # marriage by {loaded.record.players[declarer]}, alone\n" in text


def test_silent_solo_is_derived_from_the_hands() -> None:
    text, loaded = sample("17-silent-solo.yaml")
    data = yaml.safe_load(text)
    assert "reservations" not in data  # everybody said healthy
    assert loaded.record.reservations == ()
    holders = [p for p, h in data["hands"].items() if h.count("CQ") == 2]
    assert len(holders) == 1
    state = loaded.state
    assert state.game_type is GameType.SILENT_SOLO
    assert state.declarer == seat(loaded, holders[0])
    assert is_lone(state)
    assert true_parties(state) == tuple(Party.RE if s == state.declarer else Party.KONTRA for s in range(4))
    # a silent solo is not declared: the player left of the dealer leads
    assert state.tricks[0].leader == (state.dealer + 1) % 4


def test_poverty_taken_by_the_second_player_asked() -> None:
    text, loaded = sample("18-poverty.yaml")
    data = yaml.safe_load(text)
    state = loaded.state
    poor = state.declarer
    assert state.game_type is GameType.POVERTY and poor is not None
    assert data["reservations"] == {loaded.record.players[poor]: "poverty"}
    poverty = state.poverty
    assert poverty is not None and poverty.poor == poor
    acceptor = seat(loaded, data["poverty"]["accepted_by"])
    assert poverty.acceptor == acceptor == (poor + 2) % 4
    assert poverty.answers == (((poor + 1) % 4, False), (acceptor, True))
    # three or fewer trumps, all of them passed (docs/rules.md §4)
    trumps = set(NORMAL_TRUMPS.split())
    dealt = data["hands"][loaded.record.players[poor]]
    assert sum(c in trumps for c in dealt) <= 3
    assert len(data["poverty"]["passed"]) == len(data["poverty"]["returned"]) == 3
    assert [c for c in dealt if c in trumps] == [c for c in data["poverty"]["passed"] if c in trumps]
    assert [str(c) for c in poverty.passed_cards or ()] == data["poverty"]["passed"]
    assert [str(c) for c in poverty.returned_cards or ()] == data["poverty"]["returned"]
    # the poor player and the acceptor are Re, whoever holds the CQs
    parties = true_parties(state)
    assert [s for s, p in enumerate(parties) if p is Party.RE] == sorted({poor, acceptor})
    assert not is_lone(state)
    # the cards the two played are their hands after the exchange
    assert sorted(str(c) for c in state.played_by(acceptor)) == sorted(
        _minus(data["hands"][data["poverty"]["accepted_by"]] + data["poverty"]["passed"], data["poverty"]["returned"])
    )
    assert sorted(str(c) for c in state.played_by(poor)) == sorted(
        _minus(dealt, data["poverty"]["passed"]) + data["poverty"]["returned"]
    )


def _minus(cards: list[str], taken: list[str]) -> list[str]:
    rest = list(cards)
    for card in taken:
        rest.remove(card)
    return rest


def test_poverty_declined_by_everybody_throws_the_deal_in() -> None:
    text, loaded = sample("19-poverty-declined.yaml")
    data = yaml.safe_load(text)
    state = loaded.state
    poor = state.declarer
    assert state.game_type is GameType.POVERTY and poor is not None
    assert "accepted_by" not in data["poverty"] and "returned" not in data["poverty"]
    assert state.poverty is not None and state.poverty.acceptor is None
    assert state.poverty.answers == tuple(((poor + i) % 4, False) for i in (1, 2, 3))
    assert state.abandoned == "poverty_declined"
    assert state.tricks == ()


def test_misdeal() -> None:
    text, loaded = sample("20-misdeal.yaml")
    data = yaml.safe_load(text)
    assert data["abandoned"] == "misdeal"
    assert "hands" not in data and "reservations" not in data
    state = loaded.state
    assert state.abandoned == "misdeal"
    assert state.game_type is None
    assert state.tricks == ()


# -- announcements (docs/rules.md §5) ------------------------------------------------------


def levels(state: GameState, party: Party) -> list[Announcement]:
    return [a.announcement for a in announced(state) if a.party is party]


def test_announcements_up_to_schwarz() -> None:
    _, loaded = sample("21-announced-schwarz.yaml")
    state = loaded.state
    parties = true_parties(state)
    (caller,) = {c.seat for c in state.calls}
    party = parties[caller]
    assert party is Party.RE
    assert levels(state, party) == [
        Announcement.RE,
        Announcement.NO90,
        Announcement.NO60,
        Announcement.NO30,
        Announcement.SCHWARZ,
    ]
    assert levels(state, party.other) == []
    for entry in announced(state):
        assert not entry.implied and entry.seat == caller
        assert entry.played is not None and entry.played <= DEADLINE[entry.announcement.level]
    # each call by the same player, one after another
    assert [c.announcement.level for c in state.calls] == [0, 1, 2, 3, 4]


def test_reply_at_the_last_legal_moment() -> None:
    _, loaded = sample("22-kontra-reply.yaml")
    state = loaded.state
    parties = true_parties(state)
    re_call, reply = state.calls
    assert re_call.announcement is Announcement.RE and parties[re_call.seat] is Party.RE
    assert re_call.played <= DEADLINE[0]
    assert reply.announcement is Announcement.KONTRA and parties[reply.seat] is Party.KONTRA
    # too late for a first Kontra (1 card), just in time as a reply to Re (2 cards)
    assert reply.played == 2 == DEADLINE[0] + 1
    (kontra,) = [a for a in announced(state) if a.party is Party.KONTRA]
    assert (kontra.announcement, kontra.played, kontra.implied) == (Announcement.KONTRA, 2, False)


def test_skipped_levels_are_implied() -> None:
    text, loaded = sample("23-no60-skipping.yaml")
    assert "{Anna: no60}" in text
    state = loaded.state
    anna = seat(loaded, "Anna")
    assert true_parties(state)[anna] is Party.RE
    (call,) = state.calls
    assert (call.seat, call.announcement) == (anna, Announcement.NO60)
    assert call.played <= DEADLINE[0]  # every skipped step still in time
    entries = [(a.announcement, a.implied, a.seat) for a in announced(state)]
    assert entries == [
        (Announcement.RE, True, anna),
        (Announcement.NO90, True, anna),
        (Announcement.NO60, False, anna),
    ]


def test_denial_with_the_party_word_where_hands_are_not_recorded() -> None:
    text, loaded = sample("24-kontra-no90-not-dealt.yaml")
    assert "{Clara: kontra no90}" in text
    assert loaded.record.hands is None
    state = loaded.state
    clara = seat(loaded, "Clara")
    (call,) = state.calls
    assert (call.seat, call.announcement, call.party) == (clara, Announcement.NO90, Party.KONTRA)
    assert true_parties(state)[clara] is Party.KONTRA
    assert [(a.announcement, a.implied) for a in announced(state)] == [
        (Announcement.KONTRA, True),
        (Announcement.NO90, False),
    ]
    # without the party word the call cannot be recorded
    bad = text.replace("{Clara: kontra no90}", "{Clara: no90}")
    with pytest.raises(ValueError, match="Clara"):
        game_file.loads(bad)


def test_bistro_solo_carries_no90_from_the_start() -> None:
    text, loaded = sample("25-bistro-club-solo.yaml")
    assert yaml.safe_load(text)["rules"] == "bistro"
    state = loaded.state
    assert state.rules.solo_must_announce_no90
    assert state.game_type is GameType.CLUB_SOLO
    soloist = state.declarer
    rule = [a for a in announced(state) if a.cause == "solo rule"]
    assert [(a.party, a.announcement, a.implied, a.seat) for a in rule] == [
        (Party.RE, Announcement.RE, True, soloist),
        (Party.RE, Announcement.NO90, True, soloist),
    ]
    # the soloist's own no 60 follows the rule's no 90 (deadline 3 cards)
    assert levels(state, Party.RE) == [Announcement.RE, Announcement.NO90, Announcement.NO60]
    no60 = [c for c in state.calls if c.announcement is Announcement.NO60]
    assert [(c.seat, c.played) for c in no60] == [(soloist, 3)]
    assert levels(state, Party.KONTRA) == [Announcement.KONTRA]
    # soloist_leads (bistro)
    assert state.tricks[0].leader == soloist


def test_no_other_sample_announces() -> None:
    with_calls = {n for n in SAMPLE_FILES if any(c.announcement for c in sample(n)[1].state.calls)}
    assert with_calls - set(SUMMARIES) == {
        "15-marriage-third-trick.yaml",
        "21-announced-schwarz.yaml",
        "22-kontra-reply.yaml",
        "23-no60-skipping.yaml",
        "24-kontra-no90-not-dealt.yaml",
        "25-bistro-club-solo.yaml",
        "26-nobody-wins.yaml",
        "27-kontra-only-120.yaml",
        "28-schwarz-broken-by-nines.yaml",
        "30-three-rule-sets.yaml",
    }


# -- the ledger ------------------------------------------------------------------


def test_samples_import_into_a_verifying_ledger_and_export_byte_for_byte(tmp_path: Path) -> None:
    games = [(name, sample(name)[1]) for name in SAMPLE_FILES]
    ledger = Ledger.open(tmp_path / "l.sqlite", create=True)
    try:
        report = ledger.import_games(games, recorded_by="test", recorded_at="2026-11-30T00:00:00+00:00")
        assert report.refused == []
        assert report.games == len(SAMPLE_FILES)
        assert report.events == sum(len(g.events) for _, g in games)
        verified = ledger.verify()
        assert verified.ok, verified.problems
        assert verified.read_models == "match"
        assert verified.streams == len(SAMPLE_FILES)
        assert sorted(ledger.game_ids()) == sorted(g.record.id for _, g in games)
        for name, loaded in games:
            text = sample(name)[0]
            assert game_file.dumps(ledger.book_of(DOPPELKOPF).record(loaded.record.id)) == text, name
            replayed = ledger.book_of(DOPPELKOPF).state(loaded.record.id)
            assert [t.winner for t in replayed.tricks] == [t.winner for t in loaded.state.tricks]
        rows = {row["game_id"]: row for row in ledger.games()}
        assert set(rows) == {g.record.id for _, g in games}
        for name, loaded in games:
            row = rows[loaded.record.id]
            assert row["hands_recorded"] is (loaded.record.hands is not None)
            if name in SUMMARIES:
                assert row["summarized"] and row["finished"]
                assert row["re_points"] == loaded.state.summary.re_points if loaded.state.summary else False
            elif name in ABANDONED:
                assert not row["finished"]
                assert row["abandoned"] == ABANDONED[name]
                assert row["tricks_played"] == 0
                assert sum(row["points"]) == 0
            else:
                assert row["finished"]
                assert row["abandoned"] is None
                assert sum(row["points"]) == 240
    finally:
        ledger.close()
