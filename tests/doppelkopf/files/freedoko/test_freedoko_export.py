"""A doko game written as a FreeDoko game log: FreeDoko's layout, every sample log that imports
round-trips (import, write, read back, import again: the same events, hands, actions and
summary), random legal games round-trip, and what FreeDoko cannot hold is refused by name."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doko_ledger.doppelkopf.cards import deck
from doko_ledger.doppelkopf.events import CardPlayed, DoppelkopfEvent
from doko_ledger.doppelkopf.files.freedoko import rules as fd_rules
from doko_ledger.doppelkopf.files.freedoko.blocks import parse_blocks
from doko_ledger.doppelkopf.files.freedoko.game import ImportedGame, import_game
from doko_ledger.doppelkopf.files.freedoko.log import Action, FreeDokoFileError, GameLog, Summary, load_game, loads_game
from doko_ledger.doppelkopf.files.freedoko.rules import BASE
from doko_ledger.doppelkopf.files.freedoko.write import FreeDokoExportError, dumps_game
from doko_ledger.doppelkopf.files.freedoko.write_rules import rule_values
from doko_ledger.doppelkopf.game.commands import (
    Announce,
    AnswerPoverty,
    Command,
    DealCards,
    DeclareReservation,
    IllegalMove,
    NameReservation,
    PassPovertyCards,
    PlayCard,
    ReturnPovertyCards,
    StartGame,
)
from doko_ledger.doppelkopf.game.decide import decide
from doko_ledger.doppelkopf.game.evolve import evolve
from doko_ledger.doppelkopf.game.parties import true_parties
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.nights.place import DealPlace
from doko_ledger.doppelkopf.rules.announcements import Announcement, Party
from doko_ledger.doppelkopf.rules.bock import Bock
from doko_ledger.doppelkopf.rules.counting import sheet_points
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.doppelkopf.rules.order import card_order
from doko_ledger.doppelkopf.rules.play import legal_plays
from doko_ledger.doppelkopf.rules.reservations import ReservationKind, asking_order, silent_soloist, trump_count
from doko_ledger.doppelkopf.rules.ruleset import RuleSet, preset, rules_from_mapping
from doko_ledger.doppelkopf.score import score_game

if TYPE_CHECKING:
    from conftest import RandomGame

SAMPLES = Path(__file__).resolve().parents[3] / "fixtures" / "freedoko"
GAME_LOGS = sorted(SAMPLES.glob("*/*.BugReport.FreeDoko"))
FREEDOKO = BASE
"""The rules a FreeDoko rule block starts from (`rules.read_rules`)."""
MakeGame = Callable[..., "RandomGame"]


@cache
def imported(path: Path) -> tuple[GameLog, ImportedGame] | None:
    log = load_game(path)
    try:
        return log, import_game(log, "fd")
    except FreeDokoFileError:
        return None


IMPORTED = [path for path in GAME_LOGS if imported(path) is not None]


def sample(path: Path) -> tuple[GameLog, ImportedGame]:
    """A sample that imports: its log and its game."""
    found = imported(path)
    assert found is not None
    return found


def written(path: Path) -> tuple[str, GameLog, ImportedGame]:
    """A sample's game exported, read back and imported again."""
    log, game = sample(path)
    text = dumps_game(game.events, seed=log.seed or 0)
    again = loads_game(text, "exported")
    return text, again, import_game(again, "fd")


def test_most_sample_logs_import_so_the_round_trips_cover_every_kind_of_game() -> None:
    assert len(IMPORTED) >= 60
    kinds = Counter(sample(path)[1].state.game_type for path in IMPORTED)
    assert {GameType.NORMAL, GameType.MARRIAGE, GameType.POVERTY} <= set(kinds)
    assert any(t.is_declared_solo for t in kinds)


@pytest.mark.parametrize("path", IMPORTED, ids=lambda p: f"{p.parent.name}/{p.name[:10]}")
def test_a_sample_log_round_trips_with_its_events_hands_actions_and_summary(path: Path) -> None:
    log, game = sample(path)
    text, again, game_again = written(path)
    assert game_again.events == game.events
    assert again.hands == log.hands
    assert again.startplayer == log.startplayer and again.players == log.players
    assert again.played_on == log.played_on
    doko_agrees = _agrees(log.summary, again.summary)
    assert _actions(again, game.state, doko_agrees) == _actions(log, game.state, doko_agrees)
    assert again.summary is not None and log.summary is not None
    assert again.summary.trick_points == log.summary.trick_points
    if doko_agrees:  # where doko scores the game as FreeDoko did, FreeDoko's own summary comes back
        assert _specials(again.summary) == _specials(log.summary)
        assert again.summary.highest_re == log.summary.highest_re
        assert again.summary.highest_contra == log.summary.highest_contra
        assert again.summary.swines_player == log.summary.swines_player
        assert again.summary.soloplayer == log.summary.soloplayer
    assert dumps_game(game_again.events, seed=log.seed or 0) == text


@pytest.mark.parametrize("path", IMPORTED, ids=lambda p: f"{p.parent.name}/{p.name[:10]}")
def test_the_summary_written_is_dokos_score(path: Path) -> None:
    _, game = sample(path)
    _, again, _ = written(path)
    summary, state = again.summary, game.state
    score = score_game(state)
    assert summary is not None and score.score is not None
    assert summary.points == score.score.value
    winner = score.score.winner
    assert summary.winner == {Party.RE: "re", Party.KONTRA: "contra", None: "no team"}[winner]
    assert summary.teams == tuple("re" if p is Party.RE else "contra" for p in true_parties(state))
    assert summary.trick_points == state.points_won()
    row = sheet_points(score.by_player, state.rules.counting)
    assert summary.player_points == tuple(row[name] for name in state.players)


def test_doko_and_freedoko_agree_on_most_sample_summaries() -> None:
    agreeing = [path for path in IMPORTED if _agrees(sample(path)[0].summary, written(path)[1].summary)]
    assert len(agreeing) >= len(IMPORTED) - 8


def _agrees(original: Summary | None, exported: Summary | None) -> bool:
    assert original is not None and exported is not None
    fields = ("teams", "winner", "points", "gametype")
    return all(getattr(original, f) == getattr(exported, f) for f in fields) and _specials(original) == _specials(
        exported
    )


def _specials(summary: Summary) -> list[tuple[Any, ...]]:
    return sorted((p.name, p.team, p.counts_for, p.player, p.of_player, p.value) for p in summary.specials)


def _actions(log: GameLog, state: GameState, marriages: bool) -> list[tuple[Any, ...]]:
    """The log's actions; a reservation doko never asked to be named only as not healthy (doko
    knows no more of it), and the marriage's partner only where doko found the same. An
    announcement made between a trick's fourth card and the next lead is one event, before or
    after FreeDoko's `trick full` line alike: such announcements are put before it. A player's
    wish for swines (`, swines` on the reservation) counts only from the player who got them."""
    named = {n.seat for n in state.named}
    out: list[tuple[Any, ...]] = []
    for action in log.actions:
        if action.kind == "marriage" and not marriages:
            continue
        if action.kind == "reservation" and action.fields[-1:] == ("swines",) and action.seat != state.schweinchen_seat:
            action = Action(action.kind, action.seat, action.fields[:-1], action.line)
        out.append(_action(action, named))
    i = 1
    while i < len(out):
        if out[i][0] == "announcement" and out[i - 1][0] == "trick full":
            out[i - 1], out[i] = out[i], out[i - 1]
            i = max(i - 1, 1)
        else:
            i += 1
    return out


def _action(action: Action, named: set[int]) -> tuple[Any, ...]:
    if action.kind == "reservation" and action.seat not in named and action.fields[0] != "normal":
        return (action.kind, action.seat, "reserved", action.fields[1:] == ("swines",))
    return (action.kind, action.seat, action.fields)


def test_the_log_has_freedokos_head_and_blocks_in_the_order_its_reader_takes_them() -> None:
    text, _, _ = written(IMPORTED[0])
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    assert lines[0] == "# FreeDoko Bugreport"
    box = lines.index("/---------\\")
    assert lines[box : box + 3] == ["/---------\\", "| message |", "\\---------/"]
    output = lines.index("/--------\\")
    assert lines[output : output + 5] == ["/--------\\", "| output |", "\\--------/", "seed: 53325", "startplayer: 0"]
    assert lines[output + 5] == "party"
    root = parse_blocks(text, "exported")
    assert [b.name for b in root.blocks()] == [
        "party",
        "dealt hands",
        "hands",
        "gameplay actions",
        "game summary",
        "special points",
        "corpus",
    ]
    party = root.block("party")
    assert party is not None
    assert [b.name for b in party.blocks()] == ["rules", "players", "game summaries", "points"]
    assert lines.index("gametype: normal") < lines.index("hands")
    played = [line for line in text.splitlines() if line.startswith("  card played = ")]
    assert len(played) == 48 and all(line.count(",") == 1 for line in played)


def test_the_rule_block_names_every_option_freedoko_has() -> None:
    known = (
        fd_rules.IGNORED | fd_rules.PERMISSIONS | set(fd_rules.REQUIRED) | set(fd_rules.MAPPED) | fd_rules.CARD_OPTIONS
    ) - {"mutate", "unsupported"}
    assert known <= set(rule_values(rules_from_mapping(FREEDOKO)))


def test_the_rule_block_says_what_doko_plays_where_freedoko_defaults_otherwise() -> None:
    values = rule_values(rules_from_mapping({**FREEDOKO, "with_nines": False, "second_dulle_beats_first": True}))
    assert values["with nines"] == "false"
    assert (values["announcement no 120"], values["announcement no 90"], values["announcement no 0"]) == ("9", "8", "5")
    assert values["dollen second over first"] == "true"  # and in the last trick too, as FreeDoko's default
    assert values["dollen contrary in last trick"] == "false"
    not_last = rule_values(
        rules_from_mapping({**FREEDOKO, "second_dulle_beats_first": True, "second_dulle_last_trick": False})
    )
    assert not_last["dollen contrary in last trick"] == "true"
    assert values["announcement first trick thirty points"] == "false"
    assert values["marriage determination"] == "3"
    assert values["solo koehler"] == "false" and values["solo meatless"] == "true"


def test_the_ddv_preset_exports_though_freedoko_keeps_special_points_in_a_poverty(make_game: MakeGame) -> None:
    game = make_game(7, rules=preset("ddv"), game_type=GameType.NORMAL, played_on=None)
    log = loads_game(dumps_game(game.events))
    assert log.party.rules["poverty"].value == "false"
    assert log.party.rules["extrapoint catch charlie"].value == "false"
    assert import_game(log, game.final.game_id).state.tricks == game.final.tricks


@pytest.mark.parametrize(
    ("rules", "named"),
    [
        (preset("standard"), "scoring: standard"),
        (preset("bistro"), "pure_suit_solos: true; solo_must_announce_no90: true"),
        (rules_from_mapping({**FREEDOKO, "specials_doubled": True}), "specials_doubled: true"),
        (rules_from_mapping({**FREEDOKO, "computer_seats": [1, 3]}), "computer_seats: [1, 3]"),
    ],
)
def test_rules_freedoko_cannot_play_are_refused_by_their_doko_name(
    make_game: MakeGame, rules: RuleSet, named: str
) -> None:
    game = make_game(3, rules=rules, game_type=GameType.NORMAL)
    with pytest.raises(FreeDokoExportError, match="no FreeDoko equivalent") as refused:
        dumps_game(game.events)
    assert named in str(refused.value)


def test_a_game_not_played_to_the_end_or_without_hands_is_refused(make_game: MakeGame) -> None:
    rules = rules_from_mapping(FREEDOKO)
    with pytest.raises(FreeDokoExportError, match="stops after 4 of 12 tricks"):
        dumps_game(make_game(5, rules=rules, tricks=4).events)
    events = [
        e for e in make_game(5, rules=rules, game_type=GameType.NORMAL).events if type(e).__name__ != "CardsDealt"
    ]
    with pytest.raises(FreeDokoExportError, match="hands were not recorded"):
        dumps_game(events)


def test_a_pure_suit_solo_has_no_freedoko_name(make_game: MakeGame) -> None:
    rules = rules_from_mapping({**FREEDOKO, "pure_suit_solos": True})
    game = make_game(11, rules=rules, game_type=GameType.PURE_HEART_SOLO)
    with pytest.raises(FreeDokoExportError, match="pure_suit_solos: true"):
        dumps_game(game.events)


# -- random legal games (Hypothesis) ----------------------------------------------------------

EXPORTABLE = st.sampled_from(
    [
        rules_from_mapping(FREEDOKO),
        rules_from_mapping({**FREEDOKO, "with_nines": False, "soloist_leads": False}),
        rules_from_mapping({**FREEDOKO, "schweinchen": True, "second_dulle_beats_first": True}),
        rules_from_mapping({**FREEDOKO, "announcement_scoring": "additive", "counting": "winners_only"}),
    ]
)
GAME_TYPES = st.sampled_from(
    [None, GameType.NORMAL, GameType.CLUB_SOLO, GameType.HEART_SOLO, GameType.QUEEN_SOLO, GameType.JACK_SOLO]
)
"""None: a type drawn with the deal, so a normal game may turn out a silent solo."""
CALLS = (Announcement.RE, Announcement.KONTRA, Announcement.NO90, Announcement.NO60, Announcement.SCHWARZ)


def played_with_calls(
    make_game: MakeGame, seed: int, rules: RuleSet, game_type: GameType | None
) -> list[DoppelkopfEvent]:
    """A random legal game in which the players also make random announcements `decide` allows,
    none repeating what its party already said."""
    start = make_game(seed, rules=rules, game_type=game_type, tricks=0, played_on="2026-12-01")
    events, state = list(start.events), start.final
    rng = random.Random(seed)
    while not state.finished:
        seat = state.to_play
        assert seat is not None and state.hands is not None
        if rng.random() < 0.15:
            call = rng.choice(CALLS)
            party = true_parties(state)[seat]
            said = max((c.announcement.level for c in state.calls if c.party is party), default=-1)
            if call.level > said:
                try:
                    new = decide(state, Announce(seat, call))
                except IllegalMove:
                    new = []
                for event in new:
                    events.append(event)
                    state = evolve(state, event)
        on_table = state.current.cards if state.current is not None else ()
        played = CardPlayed(seat, rng.choice(legal_plays(state.hands[seat], on_table, state.order)))
        events.append(played)
        state = evolve(state, played)
    return events


@pytest.mark.slow
@settings(max_examples=40, deadline=None, derandomize=True)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), rules=EXPORTABLE, game_type=GAME_TYPES)
def test_a_random_game_written_and_read_back_is_the_same_game(
    make_game: MakeGame, seed: int, rules: RuleSet, game_type: GameType | None
) -> None:
    events = played_with_calls(make_game, seed, rules, game_type)
    state = GameState()
    for event in events:
        state = evolve(state, event)
    log = loads_game(dumps_game(events, seed=seed))
    again = import_game(log, state.game_id)
    assert again.events == events
    score = score_game(again.state).score
    assert log.summary is not None and score is not None and log.summary.points == score.value


def test_a_poverty_passed_declined_taken_and_returned_round_trips() -> None:
    rules = rules_from_mapping(FREEDOKO)
    rng = random.Random(4)
    cards = sorted(deck(True).elements(), key=str)
    while True:
        rng.shuffle(cards)
        hands = tuple(tuple(cards[i * 12 : (i + 1) * 12]) for i in range(4))
        if trump_count(hands[1]) <= 3 and silent_soloist(hands) is None:
            break
    order = card_order(GameType.NORMAL)
    trumps = [c for c in hands[1] if order.is_trump(c)]
    passed = tuple(trumps + [c for c in hands[1] if not order.is_trump(c)][: 3 - len(trumps)])
    state = GameState()
    events: list[DoppelkopfEvent] = []

    def run(command: Command) -> None:
        nonlocal state
        for event in decide(state, command):
            events.append(event)
            state = evolve(state, event)

    run(StartGame("poor", ("Anna", "Ben", "Clara", "Dirk"), 0, rules, "2026-12-01"))
    run(DealCards(hands))
    for seat in asking_order(0):
        run(DeclareReservation(seat, healthy=seat != 1))
    run(NameReservation(1, ReservationKind.POVERTY))
    run(PassPovertyCards(1, passed))
    run(AnswerPoverty(2, False))
    run(AnswerPoverty(3, True))
    assert state.hands is not None
    run(ReturnPovertyCards(3, state.hands[3][:3]))
    while not state.finished:
        seat = state.to_play
        assert seat is not None and state.hands is not None
        on_table = state.current.cards if state.current is not None else ()
        run(PlayCard(seat, rng.choice(legal_plays(state.hands[seat], on_table, state.order))))
    text = dumps_game(events)
    log = loads_game(text)
    kinds = [a.kind for a in log.actions if a.kind.startswith("poverty")]
    assert kinds == ["poverty shift", "poverty denied", "poverty accepted", "poverty returned"]
    assert "gametype: poverty" in text.splitlines()
    assert log.summary is not None and log.summary.soloplayer == 1 and log.summary.gametype == "poverty"
    assert import_game(log, "poor").events == events


def test_a_game_in_a_bock_round_has_its_points_multiplied_and_the_bock_named(make_game: MakeGame) -> None:
    game = make_game(21, rules=rules_from_mapping(FREEDOKO), game_type=GameType.NORMAL)
    plain = loads_game(dumps_game(game.events)).summary
    place = DealPlace("night", 4, bock=Bock(2, "deal 3, 120:120"))
    bocked = loads_game(dumps_game(game.events, place=place)).summary
    assert plain is not None and bocked is not None
    assert bocked.points == 2 * plain.points
    assert bocked.bock_multiplier == 2 and plain.bock_multiplier == 1
    assert plain.player_points is not None and bocked.player_points == tuple(2 * p for p in plain.player_points)
    assert [(p.name, p.value) for p in bocked.specials if p.name == "bock"] == [("bock", 2)]
