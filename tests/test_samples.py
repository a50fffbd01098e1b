"""Golden replays of the bundled `sample_games/`.

Every trick winner the library computes is checked against a naive reference
written here straight from RULES.md §2's table: trump lists and plain-suit
orders as literal strings per game type, the first of two identical cards
wins, with the `second_dulle_beats_first` and `schweinchen` options.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from doko_ledger.formats import game_file
from doko_ledger.formats.game_file import LoadedGame
from doko_ledger.ledger import Ledger
from doko_ledger.rules.game_types import GameType

SAMPLES_DIR = Path(__file__).resolve().parent.parent / "sample_games"
SAMPLE_FILES = sorted(p.name for p in SAMPLES_DIR.glob("*.yaml"))

# -- the reference: RULES.md §2, written out by hand ---------------------------

NORMAL_TRUMPS = "H10 CQ SQ HQ DQ CJ SJ HJ DJ DA D10 DK D9"
NORMAL_PLAIN = {"C": "CA C10 CK C9", "S": "SA S10 SK S9", "H": "HA HK H9"}

# game type -> (trumps high to low, {plain suit: its cards high to low})
ORDERS: dict[str, tuple[str, dict[str, str]]] = {
    "normal": (NORMAL_TRUMPS, NORMAL_PLAIN),
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
# Schweinchen (RULES.md §2): both DA above H10, normal and marriage games only.
SCHWEINCHEN_TRUMPS = "DA H10 CQ SQ HQ DQ CJ SJ HJ DJ D10 DK D9"

# the options the reference needs, per preset (RULES.md §8)
PRESET_OPTIONS: dict[str, dict[str, bool]] = {
    "standard": {"with_nines": True, "second_dulle_beats_first": False, "schweinchen": False, "soloist_leads": False},
    "bistro": {"with_nines": False, "second_dulle_beats_first": False, "schweinchen": True, "soloist_leads": True},
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


def reference_tricks(text: str) -> list[tuple[int, list[str], int]]:
    """(leader seat, cards, winner seat) of every trick, from the raw YAML and the reference alone."""
    data = yaml.safe_load(text)
    players, game_type = data["players"], data["game_type"]
    opts = options(data.get("rules", "standard"))
    hands = data.get("hands")
    schweinchen = opts["schweinchen"] and hands is not None and any(h.count("DA") == 2 for h in hands.values())
    leader = (players.index(data["dealer"]) + 1) % 4
    if opts["soloist_leads"] and "soloist" in data and game_type != "silent_solo":
        leader = players.index(data["soloist"])
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
    return [n for n in SAMPLE_FILES if yaml.safe_load(sample(n)[0])["game_type"] == game_type]


def test_there_are_enough_samples() -> None:
    assert len(SAMPLE_FILES) >= 10


@pytest.mark.parametrize("name", SAMPLE_FILES)
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


@pytest.mark.parametrize("name", SAMPLE_FILES)
def test_sample_is_canonical(name: str) -> None:
    text, loaded = sample(name)
    assert game_file.dumps(game_file.loads(text)) == text
    assert game_file.dumps(loaded.record) == text


@pytest.mark.parametrize("name", SAMPLE_FILES)
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
    ],
)
def test_each_game_type_has_a_sample(game_type: str, with_nines: bool) -> None:
    names = sample_with(game_type)
    assert names, game_type
    for name in names:
        _, loaded = sample(name)
        assert loaded.state.game_type is GameType(game_type)
        assert loaded.record.game_type is GameType(game_type)
        if GameType(game_type).is_solo:
            assert loaded.record.soloist in loaded.record.players
            assert loaded.state.declarer == loaded.record.players.index(loaded.record.soloist)


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
    ],
)
def test_solo_sample_has_its_game_type(name: str, game_type: GameType) -> None:
    _, loaded = sample(name)
    assert loaded.state.game_type is game_type
    assert loaded.state.declarer is not None


def test_normal_sample_with_hands() -> None:
    _, loaded = sample("01-normal.yaml")
    assert loaded.state.game_type is GameType.NORMAL
    assert loaded.record.hands is not None
    assert loaded.state.rules.with_nines


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


@pytest.mark.parametrize("name", ["09-normal-not-dealt.yaml", "13-bistro-schweinchen-called.yaml"])
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
        assert verified.streams == len(SAMPLE_FILES)
        assert sorted(ledger.game_ids()) == sorted(g.record.id for _, g in games)
        for name, loaded in games:
            text = sample(name)[0]
            assert game_file.dumps(ledger.record(loaded.record.id)) == text, name
            replayed = ledger.state(loaded.record.id)
            assert [t.winner for t in replayed.tricks] == [t.winner for t in loaded.state.tricks]
        rows = {row["game_id"]: row for row in ledger.games()}
        assert set(rows) == {g.record.id for _, g in games}
        for _, loaded in games:
            row = rows[loaded.record.id]
            assert row["finished"]
            assert row["hands_recorded"] is (loaded.record.hands is not None)
            assert sum(row["points"]) == 240
    finally:
        ledger.close()
