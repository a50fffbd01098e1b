"""Penalty points (docs/rules.md §9, "Penalties", DDV): minor and severe, in normal games and
solos; what they do to the score, the audit, a card night's standings, game files and the CLI.

Every expectation is worked out by hand in the comment beside it, from docs/rules.md §9 and the
sample game's own score (given in the comment, from §7):

- minor: the offender -3, each other player +1, added to the game's result; in a solo, when
  the offence could harm the soloist, the offender -3 and the soloist +3 (the others 0).
- severe: the game is void (its own score is dropped); the offender -12 -3 per denial the
  other party had made (no 90 = 1 … schwarz = 4; Re/Kontra alone is none), the three others
  share the total: +4 +1 per denial each; in a solo, when an opponent offends, the solo counts
  as won: the soloist +12 +3 per denial of his, paid by the offender, the others 0.
- the four scores always sum to zero; only a penalty in a solo may mix even and odd.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import flat, ok, refused, snapshot
from typer.testing import Result

from doko_ledger.doppelkopf import audit as audit_module
from doko_ledger.doppelkopf.events import CardPlayed, PenaltyImposed
from doko_ledger.doppelkopf.files import game_file
from doko_ledger.doppelkopf.files.game_file import LoadedGame
from doko_ledger.doppelkopf.game import GameState, IllegalMove, PlayCard, decide, evolve, fold
from doko_ledger.doppelkopf.game.commands import Announce, ImposePenalty
from doko_ledger.doppelkopf.game.penalty import counted_denials, soloist
from doko_ledger.doppelkopf.game.record import PenaltyRecord, from_events
from doko_ledger.doppelkopf.rules.announcements import Announcement
from doko_ledger.doppelkopf.rules.penalties import Penalty, penalty_points
from doko_ledger.doppelkopf.rules.play import legal_plays
from doko_ledger.doppelkopf.score import GameScore, score_game
from doko_ledger.formats.yaml_source import SourceError
from doko_ledger.games import DOPPELKOPF
from doko_ledger.ledger import Ledger
from doko_ledger.streams import game_stream

Cli = Callable[..., Result]

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"
ANNA, BEN, CLARA, DIRK = range(4)
BY, AT = "tester", "2026-11-30T20:00:00+00:00"

NORMAL = "01-normal.yaml"  # Re Anna+Dirk win 3: (+3, -3, -3, +3); no announcement
CLUB_SOLO = "05-club-solo.yaml"  # Anna's club solo, lost for 4: (-12, +4, +4, +4); no announcement
LONE_MARRIAGE = "16-lone-marriage.yaml"  # Karl (seat 3) alone, lost for 1: (+1, +1, +1, -3)
SILENT_SOLO = "17-silent-solo.yaml"  # Karl (seat 3) silent solo, lost for 3: (+3, +3, +3, -9)
SCHWARZ = "21-announced-schwarz.yaml"  # Re Clara+Dirk: re, no 90, no 60, no 30, schwarz; Kontra wins 12
KONTRA_REPLY = "22-kontra-reply.yaml"  # Re Anna+Dirk win 4: (+4, -4, -4, +4); re and kontra only
NO60_SKIPPING = "23-no60-skipping.yaml"  # Re Anna+Dirk: Anna says no 60 at once; Kontra wins 7
KONTRA_NO90 = "24-kontra-no90-not-dealt.yaml"  # Kontra Ben+Clara: kontra, no 90; Re wins 4, no hands

NORMAL_ID = "2026-11-28-kitchen-01-normal"
CLUB_SOLO_ID = "2026-11-28-kitchen-05-club-solo"
SCHWARZ_ID = "2026-11-28-kitchen-10-announced-schwarz"

# 05-club-solo with Anna's no 90 (which makes her Re too, docs/rules.md §5) before her first card
# and Ben's no 90 (Kontra too) before his: each party has made one denial.
SOLO_WITH_DENIALS = "  - [{Anna: no90}, CJ, {Ben: no90}, C9, HJ, DQ]"


# -- helpers ---------------------------------------------------------------------------


def sample_text(name: str) -> str:
    return (SAMPLES / name).read_text(encoding="utf-8")


@cache
def load(name: str) -> LoadedGame:
    return game_file.read(sample_text(name), name)


@cache
def solo_with_denials() -> LoadedGame:
    text = sample_text(CLUB_SOLO)
    assert "  - [CJ, C9, HJ, DQ]" in text
    return game_file.read(text.replace("  - [CJ, C9, HJ, DQ]", SOLO_WITH_DENIALS), "solo-with-denials")


def until_card(events: Sequence[Any], cards: int) -> list[Any]:
    """The events up to and including the `cards`-th card played."""
    played = 0
    for i, event in enumerate(events):
        if isinstance(event, CardPlayed):
            played += 1
            if played == cards:
                return list(events[: i + 1])
    raise AssertionError(f"fewer than {cards} cards")


def penalized(state: GameState, *commands: ImposePenalty) -> GameState:
    """The state after each command is decided and its events folded in."""
    for command in commands:
        for event in decide(state, command):
            state = evolve(state, event)
    return state


def minor(seat: int, harms_soloist: bool = False) -> ImposePenalty:
    return ImposePenalty(seat, severe=False, harms_soloist=harms_soloist)


def severe(seat: int, denials: int | None = None) -> ImposePenalty:
    return ImposePenalty(seat, severe=True, denials=denials)


def deltas(state: GameState) -> tuple[int, ...]:
    return score_game(state).deltas


def one_parity(values: Sequence[int]) -> bool:
    return len({v % 2 for v in values}) == 1


def cli_points(cli: Cli, game_id: str) -> dict[str, int]:
    players: dict[str, int] = json.loads(ok(cli("score", game_id, "--json")).stdout)["players"]
    return players


def night_points(cli: Cli) -> list[dict[str, int]]:
    return [deal["points"] for deal in json.loads(ok(cli("standings", "--json")).stdout)["deals"]]


@pytest.fixture
def ledger(tmp_path: Path) -> Any:
    """A ledger holding the samples the audit tests need."""
    with Ledger.open(tmp_path / "audit.sqlite", create=True) as opened:
        names = (NORMAL, CLUB_SOLO)
        opened.import_games([(n, load(n)) for n in names], recorded_by=BY, recorded_at=AT)
        yield opened


# -- the points of one penalty (pure) ---------------------------------------------------


@pytest.mark.parametrize(
    ("penalty", "lone", "expected"),
    [
        # minor, normal game: offender -3, each other +1
        (Penalty(BEN, severe=False), None, (1, -3, 1, 1)),
        (Penalty(DIRK, severe=False), None, (1, 1, 1, -3)),
        # minor in a solo, could harm the soloist (Anna): offender -3, soloist +3, others 0
        (Penalty(BEN, severe=False, harms_soloist=True), ANNA, (3, -3, 0, 0)),
        (Penalty(CLARA, severe=False, harms_soloist=True), DIRK, (0, 0, -3, 3)),
        # minor in a solo that could not harm the soloist: the general rule
        (Penalty(BEN, severe=False), ANNA, (1, -3, 1, 1)),
        # minor by the soloist himself: the general rule
        (Penalty(ANNA, severe=False), ANNA, (-3, 1, 1, 1)),
        # severe, normal game: -12 -3 per denial; the others +4 +1 per denial each
        (Penalty(BEN, severe=True, denials=0), None, (4, -12, 4, 4)),
        (Penalty(BEN, severe=True, denials=1), None, (5, -15, 5, 5)),
        (Penalty(BEN, severe=True, denials=2), None, (6, -18, 6, 6)),
        (Penalty(BEN, severe=True, denials=4), None, (8, -24, 8, 8)),
        # severe in a solo by an opponent: the soloist +12 +3 per denial of his, the offender pays
        (Penalty(BEN, severe=True, denials=0), ANNA, (12, -12, 0, 0)),
        (Penalty(CLARA, severe=True, denials=1), ANNA, (15, 0, -15, 0)),
        (Penalty(ANNA, severe=True, denials=2), DIRK, (-18, 0, 0, 18)),
        # severe by the soloist himself: the general rule
        (Penalty(ANNA, severe=True, denials=0), ANNA, (-12, 4, 4, 4)),
        (Penalty(ANNA, severe=True, denials=1), ANNA, (-15, 5, 5, 5)),
    ],
)
def test_penalty_points(penalty: Penalty, lone: int | None, expected: tuple[int, ...]) -> None:
    assert penalty_points(penalty, lone) == expected
    assert sum(expected) == 0


# -- minor penalties --------------------------------------------------------------------


def test_a_minor_penalty_in_a_normal_game_is_added_to_the_result() -> None:
    state = load(NORMAL).state
    before = score_game(state)
    assert before.deltas == (3, -3, -3, 3)
    after = score_game(penalized(state, ImposePenalty(BEN, severe=False, reason="showed a card")))
    # (+3, -3, -3, +3) + (+1, -3, +1, +1) = (+4, -6, -2, +4): all even, sum zero
    assert after.deltas == (4, -6, -2, 4)
    assert after.score == before.score  # the game's own derivation stands
    [line] = after.penalties
    assert (line.player, line.severe, line.points, line.reason) == ("Ben", False, (1, -3, 1, 1), "showed a card")
    assert line.item == "minor penalty: Ben"
    assert not after.solo_penalty


@pytest.mark.parametrize("name", [NORMAL, KONTRA_REPLY, SCHWARZ, NO60_SKIPPING, KONTRA_NO90])
@pytest.mark.parametrize("offender", range(4))
def test_a_minor_penalty_in_a_normal_game_keeps_the_sum_and_the_parity(name: str, offender: int) -> None:
    state = load(name).state
    base = deltas(state)
    after = deltas(penalized(state, minor(offender)))
    assert after == tuple(b + (-3 if s == offender else 1) for s, b in enumerate(base))
    assert sum(after) == 0
    # -3 and +1 are both odd: every score flips parity together
    assert one_parity(base) and one_parity(after)


def test_two_minor_penalties_add_up() -> None:
    state = penalized(load(NORMAL).state, minor(BEN), minor(CLARA))
    # (+3, -3, -3, +3) + (+1, -3, +1, +1) + (+1, +1, -3, +1) = (+5, -5, -5, +5)
    assert deltas(state) == (5, -5, -5, 5)
    assert len(score_game(state).penalties) == 2


def test_a_minor_penalty_that_could_harm_the_soloist() -> None:
    state = load(CLUB_SOLO).state
    assert soloist(state) == ANNA
    assert deltas(state) == (-12, 4, 4, 4)
    result = score_game(penalized(state, minor(BEN, harms_soloist=True)))
    # (-12, +4, +4, +4) + (+3, -3, 0, 0) = (-9, +1, +4, +4): mixed even and odd, sum zero
    assert result.deltas == (-9, 1, 4, 4)
    assert result.penalties[0].item == "minor penalty: Ben, could harm the soloist"
    assert result.solo_penalty


def test_a_minor_penalty_in_a_solo_that_could_not_harm_the_soloist() -> None:
    state = load(CLUB_SOLO).state
    # (-12, +4, +4, +4) + (+1, -3, +1, +1) = (-11, +1, +5, +5)
    assert deltas(penalized(state, minor(BEN))) == (-11, 1, 5, 5)


def test_a_minor_penalty_by_the_soloist_is_the_general_rule() -> None:
    state = load(CLUB_SOLO).state
    # (-12, +4, +4, +4) + (-3, +1, +1, +1) = (-15, +5, +5, +5)
    assert deltas(penalized(state, minor(ANNA))) == (-15, 5, 5, 5)


@pytest.mark.parametrize(
    ("name", "offender", "expected"),
    [
        # silent solo by Karl (seat 3), lost: (+3, +3, +3, -9) + (-3, 0, 0, +3)
        (SILENT_SOLO, 0, (0, 3, 3, -6)),
        # lone marriage by Karl (seat 3), lost: (+1, +1, +1, -3) + (0, -3, 0, +3)
        (LONE_MARRIAGE, 1, (1, -2, 1, 0)),
    ],
)
def test_a_silent_solo_and_a_lone_marriage_have_a_soloist_too(
    name: str, offender: int, expected: tuple[int, ...]
) -> None:
    state = load(name).state
    assert soloist(state) == 3
    assert deltas(penalized(state, minor(offender, harms_soloist=True))) == expected


# -- severe penalties in a normal game --------------------------------------------------


def test_a_severe_penalty_without_denials_replaces_the_games_score() -> None:
    result = score_game(penalized(load(NORMAL).state, severe(BEN)))
    # the game's (+3, -3, -3, +3) is dropped; Ben -12, the others +4 each
    assert result.deltas == (4, -12, 4, 4)
    assert result.score is None
    assert result.note == "void: a severe penalty"
    [line] = result.penalties
    assert (line.severe, line.denials, line.points) == (True, 0, (4, -12, 4, 4))
    assert line.item == "severe penalty: Ben"


def test_re_and_no_90_of_the_other_party_is_one_denial() -> None:
    # trick 1 of sample 21: Clara (Re) says re and no 90; Ben is Kontra
    state = fold(until_card(load(SCHWARZ).events, 4))
    assert counted_denials(state, BEN) == 1
    result = score_game(penalized(state, severe(BEN)))
    # Ben -12 -3 = -15; the others +4 +1 = +5 each
    assert result.deltas == (5, -15, 5, 5)
    assert result.penalties[0].item == "severe penalty: Ben, 1 denial(s)"


def test_a_skipped_no_60_counts_as_two_denials() -> None:
    # sample 23: Anna (Re) says no 60 at once, which makes no 90 too (docs/rules.md §5)
    state = load(NO60_SKIPPING).state
    assert counted_denials(state, BEN) == 2
    # Ben -12 -6 = -18; the others +6 each
    assert deltas(penalized(state, severe(BEN))) == (6, -18, 6, 6)


def test_only_the_other_partys_denials_count() -> None:
    # sample 23: Anna offends; her own party's no 60 does not count, Kontra made none
    state = load(NO60_SKIPPING).state
    assert counted_denials(state, ANNA) == 0
    assert deltas(penalized(state, severe(ANNA))) == (-12, 4, 4, 4)


def test_every_denial_up_to_schwarz_counts() -> None:
    # sample 21 to the end: Re said no 90, no 60, no 30 and schwarz: 4 denials against Kontra's Ben
    state = load(SCHWARZ).state
    assert [counted_denials(state, seat) for seat in range(4)] == [4, 4, 0, 0]
    # Ben -12 -12 = -24; the others +8 each
    assert deltas(penalized(state, severe(BEN))) == (8, -24, 8, 8)


def test_denials_of_a_deal_recorded_without_hands() -> None:
    # sample 24: Kontra (Ben, Clara) said kontra and no 90; Anna (Re) offends: 1 denial
    state = load(KONTRA_NO90).state
    assert counted_denials(state, ANNA) == 1
    assert deltas(penalized(state, severe(ANNA))) == (-15, 5, 5, 5)


@pytest.mark.parametrize(
    ("name", "denials", "expected"),
    [
        # sample 01 has no denial; the table says two: Ben -18, the others +6
        (NORMAL, 2, (6, -18, 6, 6)),
        # sample 21 has four; the table says one: Ben -15, the others +5
        (SCHWARZ, 1, (5, -15, 5, 5)),
        (SCHWARZ, 0, (4, -12, 4, 4)),
    ],
)
def test_the_denials_can_be_given(name: str, denials: int, expected: tuple[int, ...]) -> None:
    result = score_game(penalized(load(name).state, severe(BEN, denials)))
    assert result.deltas == expected
    assert result.penalties[0].denials == denials


def test_a_severe_penalty_for_a_late_announcement() -> None:
    # sample 21 after trick 3: Clara (Re) has said re, no 90 and no 60; Anna (Kontra) has
    # played 3 cards. Her no 90 (with the Kontra it implies) was due by her first card.
    state = fold(until_card(load(SCHWARZ).events, 12))
    assert state.to_play == ANNA
    with pytest.raises(IllegalMove, match="too late"):
        decide(state, Announce(ANNA, Announcement.NO90))
    # the recorder refuses the call; the table imposes a severe penalty for it, counting the
    # denials Re had made by then: no 90 and no 60 (Clara's no 30 and schwarz came later)
    assert counted_denials(state, ANNA) == 2
    result = score_game(penalized(state, ImposePenalty(ANNA, severe=True, reason="no 90 after the deadline")))
    # Anna -12 -6 = -18; the others +6 each
    assert result.deltas == (-18, 6, 6, 6)
    assert result.penalties[0].reason == "no 90 after the deadline"


# -- severe penalties in a solo ---------------------------------------------------------


def test_a_severe_penalty_by_an_opponent_wins_the_solo() -> None:
    # sample 05: Anna's club solo was lost (-12, +4, +4, +4); Ben offends: the solo counts as
    # won, Anna +12, Ben pays -12, Clara and Dirk 0
    result = score_game(penalized(load(CLUB_SOLO).state, severe(BEN)))
    assert result.deltas == (12, -12, 0, 0)
    assert result.score is None
    assert result.solo_penalty


def test_a_severe_penalty_by_an_opponent_counts_the_soloists_denials() -> None:
    state = solo_with_denials().state
    # Anna said no 90 (1 denial); Ben's own no 90 does not count for him
    assert counted_denials(state, BEN) == 1
    # Anna +12 +3 = +15, Ben -15
    assert deltas(penalized(state, severe(BEN))) == (15, -15, 0, 0)
    # Dirk offends: the same, Dirk pays
    assert deltas(penalized(state, severe(DIRK))) == (15, 0, 0, -15)
    # given: two denials of the soloist's
    assert deltas(penalized(state, severe(CLARA, 2))) == (18, 0, -18, 0)


def test_a_severe_penalty_by_the_soloist_is_the_general_rule() -> None:
    # sample 05, no denial: Anna -12, the others +4 each
    assert deltas(penalized(load(CLUB_SOLO).state, severe(ANNA))) == (-12, 4, 4, 4)
    # with Ben's no 90, Kontra made one denial: Anna -15, the others +5 each
    state = solo_with_denials().state
    assert counted_denials(state, ANNA) == 1
    assert deltas(penalized(state, severe(ANNA))) == (-15, 5, 5, 5)


def test_a_severe_penalty_by_an_opponent_of_a_silent_solo() -> None:
    # sample 17: Karl's (seat 3) silent solo; Hannes (seat 1) offends: Karl +12, Hannes -12
    assert deltas(penalized(load(SILENT_SOLO).state, severe(1))) == (0, -12, 0, 12)


def test_a_minor_and_a_severe_penalty_in_one_game() -> None:
    state = penalized(load(NORMAL).state, minor(BEN), severe(BEN))
    # the game's score is dropped; the minor stays: (+1, -3, +1, +1) + (+4, -12, +4, +4)
    assert deltas(state) == (5, -15, 5, 5)


# -- a void game ------------------------------------------------------------------------


@cache
def half_played() -> GameState:
    """Sample 01 after 14 cards (trick 4 under way)."""
    return fold(until_card(load(NORMAL).events, 14))


def next_play(state: GameState) -> PlayCard:
    seat = state.to_play
    assert seat is not None and state.hands is not None
    on_table = state.current.cards if state.current is not None else ()
    return PlayCard(seat, legal_plays(state.hands[seat], on_table, state.order)[0])


def test_a_severe_penalty_voids_the_game() -> None:
    state = half_played()
    card = next_play(state)
    assert decide(state, card)  # legal before the penalty
    void = penalized(state, severe(BEN))
    assert void.void
    with pytest.raises(IllegalMove):
        decide(void, card)
    with pytest.raises(IllegalMove):
        decide(void, Announce(ANNA, Announcement.RE))


@pytest.mark.parametrize("what", ["card", "call"])
def test_the_refusal_after_a_severe_penalty_says_the_game_is_void(what: str) -> None:
    state = half_played()
    command = next_play(state) if what == "card" else Announce(ANNA, Announcement.RE)
    void = penalized(state, severe(BEN))
    # not "the reservations are not settled yet": they are, the game is void
    with pytest.raises(IllegalMove, match=r"void|severe penalty"):
        decide(void, command)


def test_a_void_game_scores_only_its_penalties() -> None:
    result = score_game(penalized(half_played(), severe(BEN)))
    assert result.score is None
    assert result.note == "void: a severe penalty"
    assert result.deltas == (4, -12, 4, 4)
    assert [line.item for line in result.penalties] == ["severe penalty: Ben"]


def test_a_second_severe_penalty_is_refused() -> None:
    void = penalized(load(NORMAL).state, severe(BEN))
    with pytest.raises(IllegalMove, match="already void"):
        decide(void, severe(CLARA))
    with pytest.raises(IllegalMove, match="already void"):
        decide(void, minor(CLARA))


# -- refused penalties ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "command", "message"),
    [
        (NORMAL, minor(BEN, harms_soloist=True), "needs a solo"),
        (CLUB_SOLO, minor(ANNA, harms_soloist=True), "Anna is the soloist"),
        (CLUB_SOLO, ImposePenalty(BEN, severe=True, harms_soloist=True), "is for a minor penalty"),
        (NORMAL, ImposePenalty(BEN, severe=False, denials=1), "denials count only for a severe penalty"),
        (NORMAL, severe(BEN, 5), "0 to 4 denials"),
        (NORMAL, severe(BEN, -1), "0 to 4 denials"),
        (NORMAL, minor(4), "there is no seat 4"),
    ],
)
def test_a_bad_penalty_is_refused(name: str, command: ImposePenalty, message: str) -> None:
    with pytest.raises(IllegalMove, match=message):
        decide(load(name).state, command)


def test_no_penalty_before_the_game_has_started() -> None:
    with pytest.raises(IllegalMove, match="not started"):
        decide(GameState(), minor(BEN))


# -- the audit's even/odd check ---------------------------------------------------------


def check(report: Any, name: str) -> Any:
    """The audit's check of that (English) name, as data: its words in English."""
    [found] = [c.view() for c in report.checks if c.view()["name"] == name]
    return found


def test_the_audit_allows_mixed_parity_from_a_penalty_in_a_solo(ledger: Ledger) -> None:
    ledger.book_of(DOPPELKOPF).impose_penalty(CLUB_SOLO_ID, minor(BEN, harms_soloist=True), by=BY, at=AT)
    report = ledger.book_of(DOPPELKOPF).audit(CLUB_SOLO_ID)
    parity = check(report, "all scores even or all odd")
    assert parity["ok"]
    assert parity["details"][0] == "-9 +1 +4 +4"
    assert "penalty in a solo" in parity["details"][1]
    assert check(report, "scores sum to zero")["ok"]
    assert check(report, "every other event legal")["ok"]
    assert report.ok


def test_the_audit_of_a_normal_game_with_a_minor_penalty(ledger: Ledger) -> None:
    ledger.book_of(DOPPELKOPF).impose_penalty(NORMAL_ID, minor(BEN), by=BY, at=AT)
    report = ledger.book_of(DOPPELKOPF).audit(NORMAL_ID)
    parity = check(report, "all scores even or all odd")
    assert parity["ok"]
    assert parity["details"] == ["+4 -6 -2 +4"]
    assert report.ok


def test_the_audit_of_a_void_game(ledger: Ledger) -> None:
    ledger.book_of(DOPPELKOPF).impose_penalty(CLUB_SOLO_ID, severe(CLARA), by=BY, at=AT)
    report = ledger.book_of(DOPPELKOPF).audit(CLUB_SOLO_ID)
    assert report.score is not None and report.score.deltas == (12, 0, -12, 0)
    assert report.ok, [c for c in report.checks if not c.ok]


@pytest.mark.parametrize(
    ("game_id", "penalty", "passes"),
    [
        (NORMAL_ID, minor(BEN), False),  # a normal game may never mix them, penalty or not
        (NORMAL_ID, None, False),
        (CLUB_SOLO_ID, None, False),  # a solo without a penalty may not either
        (CLUB_SOLO_ID, minor(BEN), True),  # a penalty in a solo may
    ],
)
def test_the_audit_fails_mixed_parity_except_for_a_penalty_in_a_solo(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch, game_id: str, penalty: ImposePenalty | None, passes: bool
) -> None:
    """Mixed scores cannot be recorded in a normal game; the audit is handed some to judge."""
    if penalty is not None:
        ledger.book_of(DOPPELKOPF).impose_penalty(game_id, penalty, by=BY, at=AT)
    real = score_game

    def mixed(state: GameState, rules: Any = None, **options: Any) -> GameScore:
        return replace(real(state, rules, **options), deltas=(2, -1, -1, 0))

    monkeypatch.setattr(audit_module, "score_game", mixed)
    report = ledger.book_of(DOPPELKOPF).audit(game_id)
    assert check(report, "scores sum to zero")["ok"]
    assert check(report, "all scores even or all odd")["ok"] is passes


# -- a card night's standings -----------------------------------------------------------


def start_night(cli: Cli) -> None:
    ok(cli("session", "start", "n", "--players", "Anna,Ben,Clara,Dirk"))


def test_the_standings_include_a_penalty(cli: Cli, ledger_path: Path) -> None:
    start_night(cli)
    ok(cli("record", "--re", "Anna,Clara", "--re-points", "150", "--yes"))  # Re wins 1: +1 -1 +1 -1
    with Ledger.open(ledger_path) as opened:
        result = opened.book_of(DOPPELKOPF).impose_penalty("n-01", minor(BEN), by=BY, at=AT)
    # (+1, -1, +1, -1) + (+1, -3, +1, +1) = (+2, -4, +2, 0)
    assert result.by_player == {"Anna": 2, "Ben": -4, "Clara": 2, "Dirk": 0}
    ok(cli("record", "--re", "Ben,Dirk", "--re-points", "150", "--yes"))  # +1 for Ben and Dirk
    night = json.loads(ok(cli("standings", "--json")).stdout)
    assert [d["points"] for d in night["deals"]] == [
        {"Anna": 2, "Ben": -4, "Clara": 2, "Dirk": 0},
        {"Anna": -1, "Ben": 1, "Clara": -1, "Dirk": 1},
    ]
    totals = {"Anna": 1, "Ben": -3, "Clara": 1, "Dirk": 1}
    assert night["deals"][-1]["totals"] == totals
    assert {row["player"]: row["total"] for row in night["table"]} == totals


def test_a_void_deal_scores_its_penalty_and_the_dealer_moves_on(cli: Cli, ledger_path: Path) -> None:
    start_night(cli)
    ok(cli("record", "--re", "Anna,Clara", "--re-points", "150", "--yes"))
    with Ledger.open(ledger_path) as opened:
        opened.book_of(DOPPELKOPF).impose_penalty("n-01", severe(BEN), by=BY, at=AT)
    night = json.loads(ok(cli("standings", "--json")).stdout)
    # the deal's +1/-1 is dropped: Ben -12, the others +4
    assert night["deals"][0]["points"] == {"Anna": 4, "Ben": -12, "Clara": 4, "Dirk": 4}
    assert night["deals"][0]["dealer"] == "Anna"
    # a void deal is not a deal thrown in: the next dealer deals
    assert night["next"]["dealer"] == "Ben"
    assert "recorded deal 2 as n-02" in ok(cli("record", "--re", "Anna,Ben", "--re-points", "150", "--yes")).stdout
    assert json.loads(ok(cli("standings", "--json")).stdout)["deals"][1]["dealer"] == "Ben"


def test_a_severe_penalty_on_a_deal_of_facts_counts_its_denials(cli: Cli, ledger_path: Path) -> None:
    start_night(cli)
    ok(cli("record", "--re", "Anna,Clara", "--re-points", "150", "--call", "Anna=no90", "--yes"))
    with Ledger.open(ledger_path) as opened:
        result = opened.book_of(DOPPELKOPF).impose_penalty("n-01", severe(BEN), by=BY, at=AT)
    # Re (Anna) said no 90: one denial against Ben (Kontra): -15, the others +5
    assert result.by_player == {"Anna": 5, "Ben": -15, "Clara": 5, "Dirk": 5}
    assert night_points(cli) == [result.by_player]


# -- game files -------------------------------------------------------------------------

PENALTIES_BLOCK = (
    "penalties:\n"
    "  - {player: Ben, severity: minor, harms_soloist: true, reason: looked at a card}\n"
    "  - {player: Anna, severity: minor}\n"
    "  - {player: Clara, severity: severe, denials: 1}\n"
)


def test_a_game_file_with_penalties_round_trips() -> None:
    text = game_file.dumps(load(CLUB_SOLO).record) + PENALTIES_BLOCK
    loaded = game_file.read(text)
    assert loaded.record.penalties == (
        PenaltyRecord("Ben", False, True, None, "looked at a card"),
        PenaltyRecord("Anna", False),
        PenaltyRecord("Clara", True, False, 1),
    )
    assert game_file.dumps(game_file.loads(text)) == text
    # Ben minor, could harm the soloist: (+3, -3, 0, 0); Anna, the soloist, minor: (-3, +1, +1, +1);
    # Clara severe, one denial given, the solo counts as won: (+15, 0, -15, 0); the game's
    # (-12, +4, +4, +4) is dropped: (+15, -2, -14, +1)
    assert deltas(loaded.state) == (15, -2, -14, 1)
    assert sum(e.severe for e in loaded.events if isinstance(e, PenaltyImposed)) == 1


def test_a_void_half_played_game_round_trips_through_its_record() -> None:
    state = penalized(half_played(), severe(BEN))
    events = [*until_card(load(NORMAL).events, 14), *decide(half_played(), severe(BEN))]
    text = game_file.dumps(from_events(events))
    assert text.endswith("penalties:\n  - {player: Ben, severity: severe, denials: 0}\n")
    again = game_file.read(text)
    assert game_file.dumps(again.record) == text
    assert again.events == events
    assert deltas(again.state) == deltas(state) == (4, -12, 4, 4)


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ("{player: Zoe, severity: minor}", "Zoe"),
        ("{player: Ben, severity: minor, harms_soloist: true}", "needs a solo"),
    ],
)
def test_a_bad_penalty_in_a_game_file_is_a_source_error(entry: str, message: str) -> None:
    text = game_file.dumps(load(NORMAL).record) + f"penalties:\n  - {entry}\n"
    with pytest.raises(SourceError, match=message) as caught:
        game_file.read(text, "bad.yaml")
    assert caught.value.line == text.count("\n")  # the entry's line


def test_export_writes_the_penalty_with_its_counted_denials(cli: Cli, ledger_path: Path) -> None:
    ok(cli("import", SAMPLES / SCHWARZ))
    ok(cli("penalty", SCHWARZ_ID, "--player", "Ben", "--severe", "--yes"))
    exported = ok(cli("export", SCHWARZ_ID)).stdout
    # Re made four denials: written out, so a re-import scores the same
    assert exported.endswith("penalties:\n  - {player: Ben, severity: severe, denials: 4}\n")
    assert game_file.dumps(game_file.loads(exported)) == exported
    assert deltas(game_file.read(exported).state) == (8, -24, 8, 8)
    with Ledger.open(ledger_path) as opened:
        assert game_file.dumps(opened.book_of(DOPPELKOPF).record(SCHWARZ_ID)) == exported


# -- the CLI ----------------------------------------------------------------------------


def test_doko_penalty_prints_the_penalty_and_the_new_result(cli: Cli) -> None:
    ok(cli("import", SAMPLES / NORMAL))
    result = ok(cli("penalty", NORMAL_ID, "--player", "Ben", "--minor", "--reason", "showed a card", "--yes"))
    text = flat(result.stdout)
    assert "minor penalty: Ben +1 -3 +1 +1 showed a card" in text
    assert "Anna +4 Ben -6 Clara -2 Dirk +4" in text
    assert cli_points(cli, NORMAL_ID) == {"Anna": 4, "Ben": -6, "Clara": -2, "Dirk": 4}


def test_doko_penalty_severe_in_a_solo(cli: Cli) -> None:
    ok(cli("import", SAMPLES / CLUB_SOLO))
    text = flat(ok(cli("penalty", CLUB_SOLO_ID, "--player", "Dirk", "--severe", "--denials", "1", "--yes")).stdout)
    assert "void: a severe penalty" in text
    assert "severe penalty: Dirk, 1 denial(s) +15 +0 +0 -15" in text
    assert cli_points(cli, CLUB_SOLO_ID) == {"Anna": 15, "Ben": 0, "Clara": 0, "Dirk": -15}


def test_doko_penalty_harms_soloist(cli: Cli) -> None:
    ok(cli("import", SAMPLES / CLUB_SOLO))
    ok(cli("penalty", CLUB_SOLO_ID, "--player", "Ben", "--minor", "--harms-soloist", "--yes"))
    assert cli_points(cli, CLUB_SOLO_ID) == {"Anna": -9, "Ben": 1, "Clara": 4, "Dirk": 4}


@pytest.mark.parametrize(
    ("game", "args", "fragments"),
    [
        (NORMAL_ID, ["--player", "Zoe", "--minor", "--yes"], ["--player", "'Zoe' did not play"]),
        (NORMAL_ID, ["--player", "Ben", "--minor"], ["confirm with --yes"]),
        (NORMAL_ID, ["--player", "Ben", "--yes"], ["--minor or --severe"]),
        (NORMAL_ID, ["--minor", "--yes"], ["--player"]),
        (NORMAL_ID, ["--player", "Ben", "--minor", "--harms-soloist", "--yes"], ["needs a solo"]),
        (CLUB_SOLO_ID, ["--player", "Anna", "--minor", "--harms-soloist", "--yes"], ["Anna is the soloist"]),
        (CLUB_SOLO_ID, ["--player", "Ben", "--severe", "--harms-soloist", "--yes"], ["for a minor penalty"]),
        (NORMAL_ID, ["--player", "Ben", "--minor", "--denials", "1", "--yes"], ["only for a severe penalty"]),
        (NORMAL_ID, ["--player", "Ben", "--severe", "--denials", "5", "--yes"], ["0 to 4 denials"]),
        ("no-such-game", ["--player", "Ben", "--minor", "--yes"], ["no game 'no-such-game'"]),
    ],
)
def test_doko_penalty_refusals(cli: Cli, ledger_path: Path, game: str, args: list[str], fragments: list[str]) -> None:
    ok(cli("import", SAMPLES / NORMAL, SAMPLES / CLUB_SOLO))
    before = snapshot(ledger_path)
    refused(cli("penalty", game, *args), *fragments)
    assert snapshot(ledger_path) == before


def test_doko_penalty_refuses_a_second_severe_one(cli: Cli, ledger_path: Path) -> None:
    ok(cli("import", SAMPLES / NORMAL))
    ok(cli("penalty", NORMAL_ID, "--player", "Ben", "--severe", "--yes"))
    before = snapshot(ledger_path)
    refused(cli("penalty", NORMAL_ID, "--player", "Clara", "--severe", "--yes"), "already void")
    assert snapshot(ledger_path) == before


def test_doko_undo_game_takes_the_penalty_back(cli: Cli) -> None:
    ok(cli("import", SAMPLES / NORMAL))
    before = cli_points(cli, NORMAL_ID)
    assert before == {"Anna": 3, "Ben": -3, "Clara": -3, "Dirk": 3}
    ok(cli("penalty", NORMAL_ID, "--player", "Ben", "--severe", "--yes"))
    assert cli_points(cli, NORMAL_ID) == {"Anna": 4, "Ben": -12, "Clara": 4, "Dirk": 4}
    # 54 events (start, deal, four reservations, 48 cards); the penalty is the 55th
    assert ok(cli("undo", "-y", "--game", NORMAL_ID)).stdout.strip() == (
        f"took back the severe penalty on Ben (event 55 of {NORMAL_ID})"
    )
    assert cli_points(cli, NORMAL_ID) == before
    score = json.loads(ok(cli("score", NORMAL_ID, "--json")).stdout)
    assert score["penalties"] == [] and score["note"] == ""


def test_undoing_a_severe_penalty_lets_the_game_go_on(tmp_path: Path) -> None:
    events = until_card(load(NORMAL).events, 14)
    with Ledger.open(tmp_path / "l.sqlite", create=True) as opened:
        record = from_events(events)
        loaded = game_file.read(game_file.dumps(record))
        opened.import_games([("half", loaded)], recorded_by=BY, recorded_at=AT)
        opened.book_of(DOPPELKOPF).impose_penalty(NORMAL_ID, severe(BEN), by=BY, at=AT)
        assert opened.book_of(DOPPELKOPF).state(NORMAL_ID).void
        assert opened.book_of(DOPPELKOPF).undo(NORMAL_ID, by=BY, at=AT) == len(events) + 1
        state = opened.book_of(DOPPELKOPF).state(NORMAL_ID)
        assert not state.void and state.penalties == ()
        assert decide(state, next_play(state))


def test_doko_undo_in_a_card_night_takes_back_the_penalty_before_the_deal(cli: Cli) -> None:
    start_night(cli)
    ok(cli("record", "--re", "Anna,Clara", "--re-points", "150", "--yes"))
    ok(cli("penalty", "n-01", "--player", "Ben", "--minor", "--yes"))
    assert night_points(cli) == [{"Anna": 2, "Ben": -4, "Clara": 2, "Dirk": 0}]
    # a deal of facts: GameStarted, DealSummarized, PenaltyImposed
    assert ok(cli("undo", "-y")).stdout.strip() == "took back the minor penalty on Ben (deal 1, n-01)"
    assert night_points(cli) == [{"Anna": 1, "Ben": -1, "Clara": 1, "Dirk": -1}]
    assert ok(cli("undo", "-y")).stdout.strip() == "took back deal 1 (n-01)"
    assert night_points(cli) == []


# -- penalties on a deal being played card by card --------------------------------------


def next_token(ledger_path: Path, game_id: str) -> str:
    """A legal next card of a deal being played; the first card (which settles the
    reservations: everybody healthy) is any card of the dealer's left."""
    with Ledger.open(ledger_path) as opened:
        state = opened.book_of(DOPPELKOPF).state(game_id)
    if state.to_play is None and not state.declared:
        assert state.hands is not None
        return str(state.hands[(state.dealer + 1) % 4][0])
    return str(next_play(state).card)


def live_deal(cli: Cli, ledger_path: Path, cards: int = 2) -> None:
    """A card night whose first deal is dealt from a seed and `cards` cards into trick 1."""
    start_night(cli)
    ok(cli("deal", "--seed", "2026-11-30"))
    for _ in range(cards):
        ok(cli("play", next_token(ledger_path, "n-01")))


def append_penalty(ledger_path: Path, game_id: str, command: ImposePenalty) -> None:
    """What `Ledger.impose_penalty` appends, without the score it returns (an unfinished game
    has none)."""
    with Ledger.open(ledger_path) as opened:
        events = decide(opened.book_of(DOPPELKOPF).state(game_id), command)
        version = len(opened.events(game_id))
        opened.store.append(game_stream(game_id), events, expected_version=version, recorded_by=BY, recorded_at=AT)


def test_doko_penalty_on_a_deal_being_played(cli: Cli, ledger_path: Path) -> None:
    live_deal(cli, ledger_path)
    before = snapshot(ledger_path)
    result = cli("penalty", "n-01", "--player", "Ben", "--minor", "--yes")
    with Ledger.open(ledger_path) as opened:
        penalties = opened.book_of(DOPPELKOPF).state("n-01").penalties
    # never an error after the penalty was appended
    assert result.exit_code == 0 or snapshot(ledger_path) == before, (result.output, penalties)
    # a violation during play is recorded like any other
    ok(result)
    assert len(penalties) == 1


def test_play_goes_on_after_a_minor_penalty(cli: Cli, ledger_path: Path) -> None:
    live_deal(cli, ledger_path)
    append_penalty(ledger_path, "n-01", minor(BEN))
    ok(cli("play", next_token(ledger_path, "n-01")))
    with Ledger.open(ledger_path) as opened:
        state = opened.book_of(DOPPELKOPF).state("n-01")
    assert len(state.penalties) == 1
    assert sum(len(t.plays) for t in state.all_tricks) == 3


def test_after_a_severe_penalty_on_the_deal_being_played(cli: Cli, ledger_path: Path) -> None:
    live_deal(cli, ledger_path)
    token = next_token(ledger_path, "n-01")
    with Ledger.open(ledger_path) as opened:
        result = opened.book_of(DOPPELKOPF).impose_penalty("n-01", severe(BEN), by=BY, at=AT)
    assert result.by_player["Ben"] in (-12, -24)  # -12 in a normal game; an opponent's in a solo too
    night = json.loads(ok(cli("standings", "--json")).stdout)
    assert night["deals"][0]["points"] == result.by_player
    assert night["next"]["dealer"] == "Ben"
    # the void deal takes no more cards: the next deal starts, or the refusal says the deal is void
    played = cli("play", token)
    assert "the deal changed while recording" not in played.output
    if played.exit_code != 0:
        assert "void" in refused(played)
