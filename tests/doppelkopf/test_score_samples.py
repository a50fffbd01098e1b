"""Scores of the bundled sample games (docs/rules.md §6-§8).

Every finished sample scores to zero under its own rules and under the others.
The scoring samples (26 onwards) are worked out by hand, from docs/rules.md and the
cards in the file, in the comment above each test: who wins, the items of the
game value, the special points, and what each player gets. The parties are the
holders of CQ (normal game), the marriage player and partner, or the soloist.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from doko_ledger.doppelkopf.files import game_file, rules_file
from doko_ledger.doppelkopf.files.game_file import LoadedGame
from doko_ledger.doppelkopf.game.parties import is_lone, true_parties
from doko_ledger.doppelkopf.rules.announcements import Party
from doko_ledger.doppelkopf.rules.ruleset import RuleSet, preset
from doko_ledger.doppelkopf.score import GameScore, score_game
from doko_ledger.formats import yaml_source

SAMPLES_DIR = Path(__file__).resolve().parents[2] / "sample_games"
RULES_DIR = SAMPLES_DIR / "rules"
SAMPLE_FILES = sorted(p.name for p in SAMPLES_DIR.glob("*.yaml"))

STANDARD = preset("standard")
DDV = preset("ddv")


@cache
def load(name: str) -> LoadedGame:
    return game_file.read((SAMPLES_DIR / name).read_text(encoding="utf-8"), name)


@cache
def house_rules(name: str) -> RuleSet:
    return rules_file.load(RULES_DIR / name)


def doubling() -> RuleSet:
    return house_rules("doubling.yaml")


def rule_sets() -> dict[str, RuleSet]:
    """Every preset and every house-rule file of the samples."""
    named = {name: preset(name) for name in ("standard", "bistro", "ddv", "duel")}
    named.update({f"rules/{p.name}": rules_file.load(p) for p in sorted(RULES_DIR.glob("*.yaml"))})
    return named


def lines(result: GameScore) -> list[tuple[str, str | None, int | str]]:
    """The derivation lines that count: (item, party, points; a doubling as its factor); no targets."""
    assert result.score is not None
    return [
        (
            line.item,
            None if line.party is None else line.party.value,
            f"×{line.factor}" if line.factor != 1 else line.points,
        )
        for line in result.score.lines
        if line.points or line.factor != 1
    ]


# -- every sample -------------------------------------------------------------------------


def test_the_rule_files_are_not_games() -> None:
    """`make demo` imports sample_games/*.yaml: the house-rule files live one level down."""
    assert not any(name.startswith("rules") for name in SAMPLE_FILES)
    assert sorted(p.name for p in RULES_DIR.glob("*.yaml")) == ["doubling.yaml", "kitchen.yaml"]


@pytest.mark.parametrize("name", SAMPLE_FILES)
@pytest.mark.parametrize("rules_name", [None, *rule_sets()])
def test_every_finished_sample_scores_to_zero(name: str, rules_name: str | None) -> None:
    state = load(name).state
    assert state.finished or state.abandoned is not None
    rules = None if rules_name is None else rule_sets()[rules_name]
    result = score_game(state, rules)
    assert sum(result.deltas) == 0
    assert len({d % 2 for d in result.deltas}) == 1  # all even or all odd (docs/rules.md §9)
    if result.score is None:
        assert state.abandoned is not None and result.deltas == (0, 0, 0, 0)
        return
    parties = true_parties(state)
    re_value = result.score.re_value
    for seat, party in enumerate(parties):
        share = re_value * (3 if is_lone(state) else 1) if party is Party.RE else -re_value
        assert result.deltas[seat] == share, state.players[seat]


@pytest.mark.parametrize("name", SAMPLE_FILES)
def test_every_sample_has_a_note_from_26_on(name: str) -> None:
    record = load(name).record
    if int(name[:2]) >= 26:
        assert record.note, name
        text = (SAMPLES_DIR / name).read_text(encoding="utf-8")
        assert text.startswith("# ")
        assert yaml_source.leading_comment(text) == record.note


# -- 26: nobody wins ------------------------------------------------------------------------
#
# Re = Clara, Dirk (one CQ each); Kontra = Anna, Ben.
# Clara said no 90, Ben said no 90, each after one card: both parties denied.
# Re won tricks 3 (8), 4 (32), 5 (42), 8 (18), 10 (34) = 134; Kontra 106.
# §6: each needs 151 after its own no 90; 134 and 106 both miss: nobody wins.
# §7: no game points, only the special points are netted.
#   Re: trick 5 is SA SA S10 S10 = 42, a Doppelkopf (+1); trick 10: Clara's H10
#   takes Ben's DA, a fox caught (+1). Kontra: no trick of 40 (most is 23),
#   Anna's DA in trick 1 went to her partner Ben, the last trick is won with DK.
#   Re's net 2 - 0 = 2: Clara, Dirk +2; Anna, Ben -2.
# doubling: nothing to double when nobody wins: the same +-2.
# ddv §8.3: each party scores its own threshold items. Re took 134, which reaches
#   120 against Kontra's no 90 (+1); Kontra took 106 (no 120 against Re's no 90),
#   nobody stayed below 90. With the specials (normal game): Re 3, Kontra 0: +-3.


def test_nobody_wins_when_both_denied_and_both_missed() -> None:
    state = load("26-nobody-wins.yaml").state
    result = score_game(state)
    assert result.score is not None and result.score.winner is None
    assert result.score.value == 2  # nobody wins: the value is Re's net
    assert result.by_player == {"Anna": -2, "Ben": -2, "Clara": 2, "Dirk": 2}
    assert lines(result) == [
        ("trick of 40 or more (Doppelkopf)", "re", 1),
        ("fox caught (Fuchs)", "re", 1),
    ]
    assert not any(line.item == "won" for line in result.score.lines)
    assert score_game(state, doubling()).by_player == result.by_player
    ddv = score_game(state, DDV)
    assert ddv.score is not None and ddv.score.winner is None
    assert ddv.by_player == {"Anna": -3, "Ben": -3, "Clara": 3, "Dirk": 3}
    assert lines(ddv) == [
        ("120 reached against Kontra's no 90", "re", 1),
        ("trick of 40 or more (Doppelkopf)", "re", 1),
        ("fox caught (Fuchs)", "re", 1),
    ]


# -- 27: only Kontra announced, 120:120 ------------------------------------------------------
#
# Re = Anna, Clara; Kontra = Ben, Dirk. Dirk said kontra after one card; Re said nothing.
# Re won tricks 1 (15), 8 (21), 10 (30), 11 (13), 12 (41) = 120; Kontra 120.
# §6: only Kontra announced, so Re needs 120 and Kontra 121: Re wins with 120.
# §7: won +1, Kontra announced +2; Kontra 120 is not below 90. Specials: Re's
#   trick 12 (CA S10 D10 S10 = 41) is a Doppelkopf (+1); Kontra: no trick of 40,
#   Clara's two DA went to Anna (trick 8) and to Clara herself (trick 10), no CJ
#   wins the last trick. Net 1 + 2 + 1 = 4: Anna, Clara +4; Ben, Dirk -4.
# ddv: no denial, nothing differs: +-4.
# doubling: won 1, doubled by Kontra's announcement = 2, then the Doppelkopf: 3.


def test_only_kontra_announced_and_re_wins_with_120() -> None:
    state = load("27-kontra-only-120.yaml").state
    result = score_game(state)
    assert result.score is not None
    assert result.score.winner is Party.RE and result.score.value == 4
    assert sum(t.points for t in state.tricks if true_parties(state)[t.winner or 0] is Party.RE) == 120
    assert result.by_player == {"Anna": 4, "Ben": -4, "Clara": 4, "Dirk": -4}
    assert lines(result) == [
        ("won", "re", 1),
        ("Kontra announced", "re", 2),
        ("trick of 40 or more (Doppelkopf)", "re", 1),
    ]
    assert result.score.lines[0].item == "Re's goal: target 120"
    assert result.score.lines[1].item == "Kontra's goal: target 121"
    assert score_game(state, DDV).by_player == result.by_player
    assert score_game(state, doubling()).by_player == {"Anna": 3, "Ben": -3, "Clara": 3, "Dirk": -3}


# -- 28: schwarz broken by a trick worth nothing ------------------------------------------------
#
# Re = Anna, Clara; Kontra = Ben, Dirk. Anna said re before her first card and
# schwarz after her second (no 90, no 60, no 30 implied, each still in time).
# Re won tricks 1-11, all 240 card points; Ben won trick 12, H9 D9 D9 H9, with
# the first D9: one trick, 0 card points.
# §6: only Re denied; Kontra wins by breaking it: one trick against schwarz.
# §7 for Kontra: won +1, against the old ones +1, Re announced +2.
#   no 90 / no 60 / no 30: Re is not below 90, Kontra did not announce them, and
#   Re did not miss them (Kontra took 0, below 90, 60 and 30): nothing.
#   schwarz: Re won tricks, Kontra did not announce it, Re's schwarz missed +2.
#   No special points: the DAs are Clara's and went to Anna, no trick of 40
#   (most is 27), the last trick is won with D9.
#   Kontra wins 6: Ben, Dirk +6; Anna, Clara -6, with 0 card points against 240.
# ddv: won 1, against the old ones 1, Re announced 2, each of Re's no 90, no 60,
#   no 30, schwarz announced +1 (4); Kontra took 0, so no threshold against them: 8.
# doubling: (won 1 + schwarz missed 2) doubled by Re's announcement = 6, plus
#   against the old ones, added after the doubling: 7.


def test_schwarz_broken_by_a_trick_of_four_nines() -> None:
    state = load("28-schwarz-broken-by-nines.yaml").state
    last = state.tricks[-1]
    assert [str(c) for c in last.cards] == ["H9", "D9", "D9", "H9"]
    assert last.points == 0 and state.players[last.winner or 0] == "Ben"
    assert all(state.players[t.winner or 0] in ("Anna", "Clara") for t in state.tricks[:-1])
    result = score_game(state)
    assert result.score is not None
    assert result.score.winner is Party.KONTRA and result.score.value == 6
    assert result.by_player == {"Anna": -6, "Ben": 6, "Clara": -6, "Dirk": 6}
    assert lines(result) == [
        ("won", "kontra", 1),
        ("against the old ones", "kontra", 1),
        ("Re announced", "kontra", 2),
        ("Re's schwarz missed", "kontra", 2),
    ]
    assert score_game(state, DDV).by_player == {"Anna": -8, "Ben": 8, "Clara": -8, "Dirk": 8}
    assert lines(score_game(state, DDV))[3:] == [
        ("no 90 announced by Re", "kontra", 1),
        ("no 60 announced by Re", "kontra", 1),
        ("no 30 announced by Re", "kontra", 1),
        ("schwarz announced by Re", "kontra", 1),
    ]
    assert score_game(state, doubling()).by_player == {"Anna": -7, "Ben": 7, "Clara": -7, "Dirk": 7}


# -- 29: a fox and the Karlchen in the last trick -----------------------------------------------
#
# Re = Ben, Clara; Kontra = Anna, Dirk; no announcements.
# Trick 12: Clara leads DA, Dirk CJ, Anna H9, Ben HA: Dirk's CJ wins it.
# Re took 19 + 22 + 11 + 10 + 25 = 87; Kontra 153.
# §6: Kontra needs 120: wins. §7: won +1, against the old ones +1, Re below 90 +1.
#   Specials, Kontra: Clara's DA caught in trick 12 (+1), the last trick won with
#   CJ (+1). Re: no trick of 40 (most 25), Anna's DA in trick 8 went to Dirk.
#   Kontra wins 5: Anna, Dirk +5; Ben, Clara -5.
# ddv: the same items (a normal game; the Karlchen for winning the last trick
#   with CJ counts there too): 5. doubling: nothing announced, nothing doubled: 5.
# kitchen.yaml (karlchen_capture: false) drops only the capture point, which
#   this game does not have: 5.


def test_fox_caught_and_karlchen_in_the_last_trick() -> None:
    state = load("29-fox-and-karlchen.yaml").state
    last = state.tricks[-1]
    assert [str(c) for c in last.cards] == ["DA", "CJ", "H9", "HA"]
    assert state.players[last.winner or 0] == "Dirk"
    result = score_game(state)
    assert result.score is not None
    assert result.score.winner is Party.KONTRA and result.score.value == 5
    assert result.by_player == {"Anna": 5, "Ben": -5, "Clara": -5, "Dirk": 5}
    assert lines(result) == [
        ("won", "kontra", 1),
        ("against the old ones", "kontra", 1),
        ("Re below 90", "kontra", 1),
        ("fox caught (Fuchs)", "kontra", 1),
        ("last trick won with CJ (Karlchen)", "kontra", 1),
    ]
    specials = [line for line in result.score.lines if line.special]
    assert [line.cause for line in specials] == [
        "trick 12: Dirk caught Clara's DA",
        "trick 12: Dirk won it with CJ",
    ]
    for rules in (DDV, doubling(), house_rules("kitchen.yaml")):
        assert score_game(state, rules).by_player == result.by_player


# -- 30: one deal, three rule sets -----------------------------------------------------------
#
# Re = Ben, Clara; Kontra = Anna, Dirk. Dirk said no 90 after one card (Kontra implied).
# Re took 103, Kontra 137. §6: only Kontra denied; Re breaks a no 90 with 90: Re wins.
# Specials, Re: trick 12 (Dirk S10, Anna DA, Ben HA, Clara CJ) is won by Clara's CJ:
#   Anna's DA caught (+1) and the Karlchen (+1). Kontra: none (Anna's other DA
#   went to Dirk in trick 11; no trick of 40).
# standard: won 1, Kontra announced 2, Kontra's no 90 missed 2 = 5, + 2 specials = 7.
# ddv: won 1, Kontra announced 2, no 90 announced by Kontra 1; Re's 103 is short
#   of 120 against the no 90: 4, + 2 specials = 6.
# doubling: (won 1 + no 90 missed 2) doubled by Kontra's announcement = 6, + 2 = 8.
# Ben, Clara get +7 / +6 / +8, Anna and Dirk the negative; the note says the same.

NOTE_LINE = re.compile(r"^(?P<rules>standard|ddv|doubling): (?P<results>.+)$")


def noted(note: str) -> dict[str, dict[str, int]]:
    """The results the note writes down: `standard: Anna -7, Ben +7, ...`."""
    out = {}
    for line in note.splitlines():
        match = NOTE_LINE.match(line)
        if match:
            pairs = (part.rsplit(" ", 1) for part in match["results"].split(", "))
            out[match["rules"]] = {player: int(points) for player, points in pairs}
    return out


THREE_RULES = {
    "standard": {"Anna": -7, "Ben": 7, "Clara": 7, "Dirk": -7},
    "ddv": {"Anna": -6, "Ben": 6, "Clara": 6, "Dirk": -6},
    "doubling": {"Anna": -8, "Ben": 8, "Clara": 8, "Dirk": -8},
}


def test_the_three_rule_sets_note_is_what_score_game_says() -> None:
    loaded = load("30-three-rule-sets.yaml")
    assert loaded.record.note is not None
    results = noted(loaded.record.note)
    assert results == THREE_RULES  # the hand computation above
    under = {"standard": STANDARD, "ddv": DDV, "doubling": doubling()}
    for name, rules in under.items():
        result = score_game(loaded.state, rules)
        assert result.score is not None and result.score.winner is Party.RE
        assert result.by_player == results[name], name
        assert result.score.value == results[name]["Ben"]
    assert len({tuple(r.values()) for r in results.values()}) == 3  # all three differ


def test_three_rule_sets_derivations() -> None:
    state = load("30-three-rule-sets.yaml").state
    specials = [("fox caught (Fuchs)", "re", 1), ("last trick won with CJ (Karlchen)", "re", 1)]
    assert lines(score_game(state)) == [
        ("won", "re", 1),
        ("Kontra announced", "re", 2),
        ("Kontra's no 90 missed", "re", 2),
        *specials,
    ]
    assert lines(score_game(state, DDV)) == [
        ("won", "re", 1),
        ("Kontra announced", "re", 2),
        ("no 90 announced by Kontra", "re", 1),
        *specials,
    ]
    assert lines(score_game(state, doubling())) == [
        ("won", "re", 1),
        ("Kontra announced: doubles", "re", "×2"),
        ("Kontra's no 90 missed", "re", 2),
        *specials,
    ]


# -- 31-33: deals written down by their facts ---------------------------------------------------
#
# 31: normal game, Re = Hannes, Karl with 164; Hannes said re, Ilse kontra.
#   §6: no denial, Re needs 121: wins. §7: won 1, Re announced 2, Kontra announced 2,
#   Kontra (76) below 90 1 = 6. Specials: Re fox + 2 Doppelkopf = 3, Kontra
#   Karlchen 1: net 6 + 3 - 1 = 8: Hannes, Karl +8; Greta, Ilse -8.
#   ddv: the same items: 8. doubling: (1 + 1) x 2 x 2 = 8, + 3 - 1 = 10.
# 32: Ilse's queen solo with 187 after re and no 90. §6: her own target 151: wins.
#   §7: won 1, Re announced 2, Kontra (53) below 90 1, no 90 announced by Re 1,
#   below 60 1 = 6; no special points in a solo. Lone: Ilse 3 x 6 = +18, each
#   of the others -6. doubling: (1 + 1 + 1 + 1) x 2 = 8: +24 / -8.
# 33: normal game, Re = Greta, Karl with 0 points and no trick; Hannes said kontra.
#   §6: Kontra wins. §7: won 1, against the old ones 1, Kontra announced 2, Re
#   below 90, 60, 30 and no trick 4 = 8: Hannes, Ilse +8. doubling: (1 + 4) x 2 = 10,
#   + against the old ones after the doubling = 11.


@pytest.mark.parametrize(
    ("name", "winner", "value", "standard", "with_doubling"),
    [
        (
            "31-summary-specials.yaml",
            Party.RE,
            8,
            {"Greta": -8, "Hannes": 8, "Ilse": -8, "Karl": 8},
            {"Greta": -10, "Hannes": 10, "Ilse": -10, "Karl": 10},
        ),
        (
            "32-summary-queen-solo.yaml",
            Party.RE,
            6,
            {"Greta": -6, "Hannes": -6, "Ilse": 18, "Karl": -6},
            {"Greta": -8, "Hannes": -8, "Ilse": 24, "Karl": -8},
        ),
        (
            "33-summary-schwarz.yaml",
            Party.KONTRA,
            8,
            {"Greta": -8, "Hannes": 8, "Ilse": 8, "Karl": -8},
            {"Greta": -11, "Hannes": 11, "Ilse": 11, "Karl": -11},
        ),
    ],
)
def test_summary_sample(
    name: str, winner: Party, value: int, standard: dict[str, int], with_doubling: dict[str, int]
) -> None:
    loaded = load(name)
    assert loaded.record.summary is not None
    assert loaded.record.hands is None and loaded.record.tricks == ()
    result = score_game(loaded.state)
    assert result.score is not None and result.score.winner is winner
    assert result.score.value == value
    assert result.by_player == standard
    assert score_game(loaded.state, DDV).by_player == standard  # no denial by the losers
    assert score_game(loaded.state, doubling()).by_player == with_doubling


def test_summary_with_special_points_lists_each() -> None:
    result = score_game(load("31-summary-specials.yaml").state)
    assert lines(result) == [
        ("won", "re", 1),
        ("Re announced", "re", 2),
        ("Kontra announced", "re", 2),
        ("Kontra below 90", "re", 1),
        ("fox caught (Fuchs)", "re", 1),
        ("trick of 40 or more (Doppelkopf)", "re", 1),
        ("trick of 40 or more (Doppelkopf)", "re", 1),
        ("last trick won with CJ (Karlchen)", "kontra", 1),
    ]
    assert result.score is not None
    assert next(line.cause for line in result.score.lines if line.special) == "recorded: from Greta"


def test_summary_solo_is_lone() -> None:
    state = load("32-summary-queen-solo.yaml").state
    result = score_game(state)
    assert result.score is not None and result.score.lone
    assert lines(result) == [
        ("won", "re", 1),
        ("Re announced", "re", 2),
        ("Kontra below 90", "re", 1),
        ("no 90 announced by Re", "re", 1),
        ("Kontra below 60", "re", 1),
    ]


# -- 34: a person's marriage under duel rules -------------------------------------------------
#
# Players Nina, Bot-1, Tom, Bot-2; seats 1 and 3 are the computer's. Tom holds both
# CQ and says marriage; Bot-2 wins trick 1 (HQ SJ HJ SQ): a computer seat clarifies
# a person's marriage, so Bot-2 is Tom's partner (docs/rules.md §8). Re = Tom, Bot-2.
# Re took 155, Kontra 85. §7: won 1, Kontra below 90 1; specials: Tom's SQ takes
# Bot-1's DA in trick 6 (+1); no trick of 40, no CJ in the last trick: 3.
# Tom, Bot-2 +3; Nina, Bot-1 -3.


def test_duel_marriage_with_a_computer_partner() -> None:
    loaded = load("34-duel-marriage.yaml")
    state = loaded.state
    assert state.rules.computer_seats == (1, 3)
    assert loaded.record.reservations == (("Tom", "marriage"),)
    parties = true_parties(state)
    assert [state.players[s] for s, p in enumerate(parties) if p is Party.RE] == ["Tom", "Bot-2"]
    result = score_game(state)
    assert result.score is not None
    assert result.score.winner is Party.RE and result.score.value == 3
    assert result.by_player == {"Nina": -3, "Bot-1": -3, "Tom": 3, "Bot-2": 3}
    assert lines(result) == [("won", "re", 1), ("Kontra below 90", "re", 1), ("fox caught (Fuchs)", "re", 1)]


# -- the house-rule files ----------------------------------------------------------------------


def test_house_rule_files() -> None:
    assert doubling() == RuleSet(announcement_scoring="doubling")
    assert doubling().changed_from_preset() == {"announcement_scoring": "doubling"}
    kitchen = house_rules("kitchen.yaml")
    assert kitchen.preset == "standard"
    assert kitchen.changed_from_preset() == {
        "second_dulle_beats_first": True,
        "soloist_leads": True,
        "karlchen_capture": False,
    }
    for path in sorted(RULES_DIR.glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        comment = [line for line in text.splitlines() if line.startswith("#")]
        assert comment and text.startswith("# "), path.name
        # below the comment: exactly what rules_file.dumps writes
        assert text.split("\n", len(comment))[-1] == rules_file.dumps(rules_file.load(path))
