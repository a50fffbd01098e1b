"""Replay frames (`projections.frames`, `views.frames_view`, `Ledger.frames`) and the
perspectives of `doko replay` (`--as PLAYER`, `--tournament`).

A frame is the game after one card (frame 0: before the first card). What a frame should
hold is derived here from the recorded games themselves: the cards from the events in
order, trick winners and points from the sample files' trick comments (as written in the
files), each frame's state by folding the events up to the next card, and the parties and
hands from the recorded deal.
"""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import yaml
from cli_helpers import ok, refused, table_rows
from rich.console import Console
from typer.testing import Result

from doko_ledger.cli import render_frames
from doko_ledger.doppelkopf.events import AnnouncementMade, CardPlayed
from doko_ledger.doppelkopf.files import game_file
from doko_ledger.doppelkopf.game.evolve import fold
from doko_ledger.doppelkopf.game.parties import public_parties, true_parties
from doko_ledger.doppelkopf.game.record import from_events
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.errors import DokoError
from doko_ledger.games import DOPPELKOPF
from doko_ledger.ledger import Ledger

if TYPE_CHECKING:
    from conftest import RandomGame

Cli = Callable[..., Result]
MakeGame = Callable[..., "RandomGame"]

SAMPLES_DIR = Path(__file__).resolve().parents[2] / "sample_games"
SAMPLE_FILES = sorted(p.name for p in SAMPLES_DIR.glob("*.yaml"))
AT = "2026-11-30T20:00:00+00:00"
SUITS = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}
CARD = re.compile(r"[♣♠♥♦](?:10|[AKQJ9])")
COMMENT = re.compile(r"#\s*(\d+): (\S+) leads(?:, (\S+) wins (\d+))?\s*$")

# An unfinished game: three whole tricks and two cards of the fourth (seed 11, a normal game).
PARTIAL_ID = "partial-11"
PARTIAL_CARDS = 3 * 4 + 2


def _data(name: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((SAMPLES_DIR / name).read_text(encoding="utf-8"))
    return data


SUMMARY_FILES = [n for n in SAMPLE_FILES if "summary" in _data(n)]
CARD_FILES = [n for n in SAMPLE_FILES if _data(n).get("tricks")]
HANDS_FILES = [n for n in CARD_FILES if "hands" in _data(n)]
NO_HANDS_FILES = [n for n in CARD_FILES if "hands" not in _data(n)]
THROWN_IN_FILES = [n for n in SAMPLE_FILES if n not in SUMMARY_FILES and n not in CARD_FILES]
NORMAL_WITH_HANDS = [n for n in HANDS_FILES if "reservations" not in _data(n) and "poverty" not in _data(n)]


def symbol(card: str) -> str:
    """`H10` → `♥10`, as the terminal draws it."""
    return SUITS[card[0]] + card[1:]


@dataclass(frozen=True)
class Recorded:
    """What a sample file itself says about its tricks: (leader, winner, points) per trick
    from the comments the file carries."""

    tricks: list[tuple[str, str | None, int | None]]


@cache
def recorded(name: str) -> Recorded:
    tricks: list[tuple[str, str | None, int | None]] = []
    for line in (SAMPLES_DIR / name).read_text(encoding="utf-8").splitlines():
        match = COMMENT.search(line)
        if match and line.lstrip().startswith("- ["):
            number, leader, winner, points = match.groups()
            assert int(number) == len(tricks) + 1, line
            tricks.append((leader, winner, None if points is None else int(points)))
    return Recorded(tricks)


def frame_states(events: Sequence[Any]) -> list[GameState]:
    """Each frame's state, folded independently: before the first card, then after each card
    with everything recorded before the next one."""
    cuts = [i for i, e in enumerate(events) if isinstance(e, CardPlayed)]
    return [fold(events[:i]) for i in cuts] + [fold(events)]


def plays(events: Sequence[Any], players: Sequence[str]) -> list[tuple[str, str]]:
    """(player, card) of every card, in the order played."""
    return [(players[e.seat], str(e.card)) for e in events if isinstance(e, CardPlayed)]


def named(players: Sequence[str], parties: Sequence[Any]) -> dict[str, str | None]:
    return {p: None if x is None else x.value for p, x in zip(players, parties, strict=True)}


# -- the ledger: every sample game and an unfinished random game ----------------------------


@dataclass
class Samples:
    ledger: Ledger
    ids: dict[str, str]
    """sample file name (or PARTIAL_ID) -> game id"""

    def gid(self, name: str) -> str:
        return self.ids[name]

    def events(self, name: str) -> list[Any]:
        return self.ledger.game_events(self.gid(name))

    def view(self, name: str, perspective: str = "all") -> dict[str, Any]:
        return self.ledger.book_of(DOPPELKOPF).frames(self.gid(name), perspective)


@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory, make_game: MakeGame) -> Iterator[Samples]:
    path = tmp_path_factory.mktemp("frames") / "ledger.sqlite"
    loaded = [(name, game_file.read_file(SAMPLES_DIR / name)) for name in SAMPLE_FILES]
    whole = make_game(11, game_id=PARTIAL_ID, game_type=GameType.NORMAL, tricks=4)
    cut = [i for i, e in enumerate(whole.events) if isinstance(e, CardPlayed)][PARTIAL_CARDS]
    text = game_file.dumps(from_events(whole.events[:cut]))
    loaded.append((PARTIAL_ID, game_file.read(text, "partial.yaml")))
    with Ledger.open(path, create=True) as ledger:
        report = ledger.import_games(loaded, recorded_by="test", recorded_at=AT)
        assert report.refused == [] and report.games == len(loaded)
        yield Samples(ledger, {name: game.record.id for name, game in loaded})


# -- one frame per card -------------------------------------------------------------------


@pytest.mark.parametrize("name", [*CARD_FILES, PARTIAL_ID])
def test_one_frame_before_play_and_one_after_every_card(samples: Samples, name: str) -> None:
    cards = sum(isinstance(e, CardPlayed) for e in samples.events(name))
    frames = samples.view(name)["frames"]
    assert len(frames) == cards + 1
    assert [f["step"] for f in frames] == list(range(cards + 1))
    if name != PARTIAL_ID:
        assert cards == 4 * len(recorded(name).tricks)
    else:
        assert cards == PARTIAL_CARDS


@pytest.mark.parametrize("name", [*CARD_FILES, PARTIAL_ID])
def test_each_frame_places_its_card_and_shows_the_trick_so_far(samples: Samples, name: str) -> None:
    view = samples.view(name)
    played = plays(samples.events(name), view["players"])
    frames = view["frames"]
    assert (frames[0]["trick"], frames[0]["card"], frames[0]["trick_cards"]) == (0, 0, [])
    step = 0
    for number in range(1, (len(played) + 3) // 4 + 1):
        trick = played[4 * (number - 1) : 4 * number]
        for position in range(1, len(trick) + 1):
            step += 1
            frame = frames[step]
            assert (frame["trick"], frame["card"]) == (number, position), step
            assert [(p["player"], p["card"]) for p in frame["trick_cards"]] == trick[:position], step
            assert trick[position - 1][1] in frame["caption"]
    assert step == len(frames) - 1


@pytest.mark.parametrize("name", CARD_FILES)
def test_trick_winner_only_once_the_trick_is_complete_and_as_recorded(samples: Samples, name: str) -> None:
    frames = samples.view(name)["frames"]
    tricks = recorded(name).tricks
    assert frames[0]["trick_winner"] is None
    for frame in frames[1:]:
        if frame["card"] == 4:
            _, winner, _ = tricks[frame["trick"] - 1]
            assert frame["trick_winner"] == winner, frame["step"]
        else:
            assert frame["trick_winner"] is None, frame["step"]
    # the trick's first card is led by the recorded leader
    for frame in frames[1:]:
        if frame["card"] == 1:
            assert frame["trick_cards"][0]["player"] == tricks[frame["trick"] - 1][0]


def test_an_unfinished_trick_has_no_winner_yet(samples: Samples) -> None:
    frames = samples.view(PARTIAL_ID)["frames"]
    assert [f["trick_winner"] is not None for f in frames] == [False] + [(s % 4) == 0 for s in range(1, 15)]
    assert frames[-1]["trick"] == 4 and frames[-1]["card"] == 2
    assert len(frames[-1]["trick_cards"]) == 2


@pytest.mark.parametrize("name", [*HANDS_FILES, PARTIAL_ID])
def test_the_player_who_played_loses_that_card_from_the_hand(samples: Samples, name: str) -> None:
    view = samples.view(name)
    frames = view["frames"]
    played = plays(samples.events(name), view["players"])
    for step in range(1, len(frames)):
        who, card = played[step - 1]
        before, after = frames[step - 1]["hands"], frames[step]["hands"]
        for player in view["players"]:
            expected = Counter(before[player])
            if player == who:
                assert expected[card] > 0, (step, player, card)
                expected[card] -= 1
            assert Counter(after[player]) == +expected, (step, player)
            assert len(after[player]) == len(before[player]) - (player == who)


@pytest.mark.parametrize("name", HANDS_FILES)
def test_frame_0_holds_what_each_player_plays_and_the_last_frame_nothing(samples: Samples, name: str) -> None:
    view = samples.view(name)
    frames = view["frames"]
    played = plays(samples.events(name), view["players"])
    for player in view["players"]:
        assert Counter(frames[0]["hands"][player]) == Counter(c for p, c in played if p == player), player
        assert frames[-1]["hands"][player] == []
    if "poverty" not in _data(name):  # the dealt hands, as the file writes them
        dealt = _data(name)["hands"]
        assert {p: Counter(h) for p, h in frames[0]["hands"].items()} == {p: Counter(h) for p, h in dealt.items()}


@pytest.mark.parametrize("name", CARD_FILES)
def test_tricks_and_card_points_at_the_end(samples: Samples, name: str) -> None:
    view = samples.view(name)
    state = samples.ledger.book_of(DOPPELKOPF).state(samples.gid(name))
    last = view["frames"][-1]
    players = view["players"]
    assert last["tricks_won"] == dict(zip(players, state.tricks_won(), strict=True))
    assert last["card_points"] == dict(zip(players, state.points_won(), strict=True))
    # and as the file's comments add them up
    tricks = recorded(name).tricks
    assert last["tricks_won"] == {p: sum(w == p for _, w, _ in tricks) for p in players}
    assert last["card_points"] == {p: sum(n or 0 for _, w, n in tricks if w == p) for p in players}
    assert sum(last["card_points"].values()) == 240
    assert sum(last["tricks_won"].values()) == len(tricks)


@pytest.mark.parametrize("name", CARD_FILES)
def test_running_tricks_and_points_change_only_when_a_trick_completes(samples: Samples, name: str) -> None:
    frames = samples.view(name)["frames"]
    tricks = recorded(name).tricks
    for before, frame in itertools.pairwise(frames):
        if frame["card"] != 4:
            assert frame["tricks_won"] == before["tricks_won"]
            assert frame["card_points"] == before["card_points"]
            continue
        _, winner, points = tricks[frame["trick"] - 1]
        assert winner is not None and points is not None
        assert frame["tricks_won"] == before["tricks_won"] | {winner: before["tricks_won"][winner] + 1}
        assert frame["card_points"] == before["card_points"] | {winner: before["card_points"][winner] + points}


# -- announcements --------------------------------------------------------------------------

CALL_FILES = [
    n for n in CARD_FILES if any(isinstance(e, AnnouncementMade) for e in game_file.read_file(SAMPLES_DIR / n).events)
]


def test_the_samples_have_calls() -> None:
    assert len(CALL_FILES) >= 4


@pytest.mark.parametrize("name", CALL_FILES)
@pytest.mark.parametrize("who", ["all", "first player"])
def test_a_call_shows_from_the_frame_of_the_card_before_it(samples: Samples, name: str, who: str) -> None:
    events = samples.events(name)
    players = samples.ledger.book_of(DOPPELKOPF).state(samples.gid(name)).players
    view = samples.view(name, "all" if who == "all" else players[0])
    calls: list[tuple[int, tuple[str, str]]] = []
    cards = 0
    for event in events:
        if isinstance(event, CardPlayed):
            cards += 1
        elif isinstance(event, AnnouncementMade):
            calls.append((cards, (players[event.seat], event.announcement.value)))
    assert calls
    for frame in view["frames"]:
        expected = {call for after, call in calls if after <= frame["step"]}
        shown = {(a["player"], a["announcement"]) for a in frame["announcements"] if not a["implied"]}
        assert shown == expected, frame["step"]


# -- perspectives -------------------------------------------------------------------------


def _cases(files: Sequence[str]) -> list[tuple[str, int]]:
    return [(name, seat) for name in files for seat in range(4)]


@pytest.mark.parametrize(("name", "seat"), _cases([*CARD_FILES, PARTIAL_ID]))
def test_a_player_sees_only_the_own_hand_and_public_parties(samples: Samples, name: str, seat: int) -> None:
    events = samples.events(name)
    states = frame_states(events)
    players = states[-1].players
    me = players[seat]
    view = samples.view(name, me)
    assert view["perspective"] == me
    frames = view["frames"]
    assert len(frames) == len(states)
    hands_recorded = name == PARTIAL_ID or name in HANDS_FILES
    for frame, state in zip(frames, states, strict=True):
        step = frame["step"]
        assert frame["true_parties"] is None, step
        for player in players:
            hand = frame["hands"][player]
            if player == me and hands_recorded:
                assert hand is not None and state.hands is not None, step
                assert Counter(hand) == Counter(str(c) for c in state.hands[seat]), step
            else:
                assert hand is None, (step, player)
        public = named(players, public_parties(state))
        truth = named(players, true_parties(state))
        for player in players:
            if player == me:
                assert frame["parties"][me] == (public[me] or truth[me]), step
            else:
                assert frame["parties"][player] == public[player], (step, player)


@pytest.mark.parametrize(("name", "seat"), _cases(NORMAL_WITH_HANDS + [PARTIAL_ID]))
def test_in_a_normal_game_a_player_knows_the_own_party_from_the_start(samples: Samples, name: str, seat: int) -> None:
    state = samples.ledger.book_of(DOPPELKOPF).state(samples.gid(name))
    me = state.players[seat]
    assert state.dealt is not None
    party = "re" if any(str(c) == "CQ" for c in state.dealt[seat]) else "kontra"
    frames = samples.view(name, me)["frames"]
    assert {f["parties"][me] for f in frames} == {party}


@pytest.mark.parametrize("name", NO_HANDS_FILES)
def test_without_recorded_hands_a_player_sees_no_hand(samples: Samples, name: str) -> None:
    players = samples.ledger.book_of(DOPPELKOPF).state(samples.gid(name)).players
    for frame in samples.view(name, players[1])["frames"]:
        assert set(frame["hands"].values()) == {None}


@pytest.mark.parametrize("name", [*CARD_FILES, PARTIAL_ID])
def test_the_tournament_view_hides_points_parties_and_calls_until_the_end(samples: Samples, name: str) -> None:
    tournament = samples.view(name, "tournament")
    everything = samples.view(name)
    assert tournament["perspective"] == "tournament"
    frames = tournament["frames"]
    for frame in frames[:-1]:
        assert frame["card_points"] is None, frame["step"]
        assert frame["parties"] is None, frame["step"]
        assert frame["announcements"] is None, frame["step"]
        assert frame["true_parties"] is None, frame["step"]
    last, last_all = frames[-1], everything["frames"][-1]
    if name != PARTIAL_ID:  # the game is over: everything is shown
        assert last["card_points"] == last_all["card_points"]
        assert last["parties"] == last_all["parties"]
        assert last["announcements"] == last_all["announcements"]
    # hands, cards on the table and tricks are shown throughout; a trick's card points only at the end
    for frame, shown in zip(frames, everything["frames"], strict=True):
        for key in ("hands", "trick_cards", "trick_winner", "tricks_won"):
            assert frame[key] == shown[key], (frame["step"], key)
        over = frame is frames[-1] and name != PARTIAL_ID
        trick_points = re.compile(r" wins the trick \(\d+\)$")
        assert frame["caption"] == (shown["caption"] if over else trick_points.sub(" wins the trick", shown["caption"]))
        if not over:
            assert not re.search(r"\(\d+\)", frame["caption"]), frame["caption"]
    assert any(trick_points.search(f["caption"]) for f in everything["frames"])


def test_the_tournament_view_of_an_unfinished_game_hides_them_on_every_frame(samples: Samples) -> None:
    """docs/commands.md: `--tournament` hides card points, calls and parties until the game is over; a
    game still being played is not over at its newest card."""
    frames = samples.view(PARTIAL_ID, "tournament")["frames"]
    assert samples.view(PARTIAL_ID)["frames"][-1]["card_points"] != dict.fromkeys(["Anna", "Ben", "Clara", "Dirk"], 0)
    assert [f["card_points"] for f in frames] == [None] * len(frames)
    assert [f["parties"] for f in frames] == [None] * len(frames)
    assert [f["announcements"] for f in frames] == [None] * len(frames)


@pytest.mark.parametrize("name", [*CARD_FILES, PARTIAL_ID])
def test_the_all_view_shows_the_true_parties_on_every_frame(samples: Samples, name: str) -> None:
    final = samples.ledger.book_of(DOPPELKOPF).state(samples.gid(name))
    truth = named(final.players, true_parties(final))
    assert all(p is not None for p in truth.values())
    for frame in samples.view(name)["frames"]:
        assert frame["true_parties"] == truth, frame["step"]


@pytest.mark.parametrize("name", NORMAL_WITH_HANDS)
def test_the_true_parties_of_a_normal_game_are_who_holds_the_club_queens(samples: Samples, name: str) -> None:
    dealt = _data(name)["hands"]
    expected = {p: "re" if "CQ" in hand else "kontra" for p, hand in dealt.items()}
    assert samples.view(name)["frames"][0]["true_parties"] == expected


def test_a_silent_solo_is_not_named_to_a_player_who_cannot_know_it(samples: Samples) -> None:
    """Greta's view of Karl's silent solo: nobody knows it is a solo until Karl's second CQ."""
    name = "17-silent-solo.yaml"
    view = samples.view(name, "Greta")
    frames = view["frames"]
    assert frames[0]["parties"]["Karl"] is None  # the parties do hide it...
    # ...so the header must not say it either
    assert view["declarer"] is None, "Greta's view names the silent soloist from frame 0"
    assert view["game_type"] != "silent_solo", "Greta's view calls the game a silent solo from frame 0"


@pytest.mark.parametrize("name", SUMMARY_FILES)
def test_a_summary_only_game_is_one_frame_with_a_caption(samples: Samples, name: str) -> None:
    view = samples.view(name)
    [frame] = view["frames"]
    assert (frame["step"], frame["trick"], frame["card"]) == (0, 0, 0)
    assert frame["caption"].strip()
    assert frame["trick_cards"] == []
    assert set(frame["hands"].values()) == {None}
    assert sum(view["result"]["deltas"].values()) == 0
    re_players = set(_data(name)["summary"]["re"])
    assert {p for p, v in frame["parties"].items() if v == "re"} == re_players


@pytest.mark.parametrize("name", SUMMARY_FILES)
@pytest.mark.parametrize("perspective", ["all", "tournament", "first player"])
def test_a_summary_frame_shows_its_calls_and_the_parties_card_points(
    samples: Samples, name: str, perspective: str
) -> None:
    """What the score sheet says, as the file says it: not "none" and zeros."""
    summary = _data(name)["summary"]
    players = _data(name)["players"]
    view = samples.view(name, players[0] if perspective == "first player" else perspective)
    [frame] = view["frames"]
    said = [(player, call) for entry in summary.get("announcements", []) for player, call in entry.items()]
    assert [(a["player"], a["announcement"]) for a in frame["announcements"]] == said
    for call in frame["announcements"]:
        assert call["party"] == ("re" if call["player"] in summary["re"] else "kontra")
    assert frame["party_points"] == {"re": summary["re_points"], "kontra": 240 - summary["re_points"]}
    tricks = summary.get("tricks")
    assert frame["party_tricks"] == (None if tricks is None else {"re": tricks["re"], "kontra": tricks["kontra"]})
    assert frame["card_points"] is None and frame["tricks_won"] is None  # per player the sheet does not say
    assert ", ".join(summary["re"]) in frame["caption"]


def test_the_terminal_shows_a_summary_frame_with_its_points_and_calls(cli: Cli, ledger_path: Path) -> None:
    ok(cli("import", SAMPLES_DIR / "31-summary-specials.yaml"))
    text = " ".join(ok(cli("replay", "#1", "--as", "Greta")).stdout.split())
    assert "card points: Re 164 · Kontra 76" in text
    assert "calls: Hannes: re, Ilse: kontra" in text
    with Ledger.open(ledger_path) as ledger:
        view = ledger.book_of(DOPPELKOPF).frames(ledger.resolve("#1"), "Greta")
    console = Console(width=120, record=True, color_system=None)
    console.print(render_frames.frame(view, 0))  # the stepper's one frame
    stepped = " ".join(console.export_text().split())
    assert "card points: Re 164 · Kontra 76" in stepped and "calls: Hannes: re, Ilse: kontra" in stepped
    assert "frame 0 of 0" in stepped


@pytest.mark.parametrize("name", [*CARD_FILES, *SUMMARY_FILES, *THROWN_IN_FILES])
def test_a_finished_game_has_its_result_on_the_view(samples: Samples, name: str) -> None:
    view = samples.view(name)
    score = samples.ledger.book_of(DOPPELKOPF).score(samples.gid(name))
    result = view["result"]
    assert result is not None
    assert result["deltas"] == score.by_player
    assert sum(result["deltas"].values()) == 0
    assert set(result["deltas"]) == set(view["players"])
    if name in THROWN_IN_FILES:
        assert set(result["deltas"].values()) == {0}
        [frame] = view["frames"]
        assert frame["caption"].startswith("deal thrown in")


def test_an_unfinished_game_has_no_result(samples: Samples) -> None:
    assert samples.view(PARTIAL_ID)["result"] is None
    assert samples.view(PARTIAL_ID, "tournament")["result"] is None


@pytest.mark.parametrize("perspective", ["Nobody", "anna", "", "ALL"])
def test_a_perspective_that_is_no_player_is_refused(samples: Samples, perspective: str) -> None:
    name = "01-normal.yaml"
    with pytest.raises(DokoError) as info:
        samples.view(name, perspective)
    message = str(info.value)
    for player in ("Anna", "Ben", "Clara", "Dirk"):
        assert player in message
    assert repr(perspective) in message


# -- the CLI ------------------------------------------------------------------------------


def table_header(text: str) -> list[str]:
    [header] = [[c.strip() for c in line.split("┃")[1:-1]] for line in text.splitlines() if line.startswith("┃")]
    return header


@pytest.fixture
def partial_file(tmp_path: Path, make_game: MakeGame) -> Path:
    whole = make_game(11, game_id=PARTIAL_ID, game_type=GameType.NORMAL, tricks=4)
    cut = [i for i, e in enumerate(whole.events) if isinstance(e, CardPlayed)][PARTIAL_CARDS]
    path = tmp_path / "partial.yaml"
    path.write_text(game_file.dumps(from_events(whole.events[:cut])), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("name", "me"),
    [("01-normal.yaml", "Anna"), ("22-kontra-reply.yaml", "Clara"), (PARTIAL_ID, "Anna"), (PARTIAL_ID, "Dirk")],
)
def test_replay_as_a_player_prints_that_hand_and_only_the_cards_played(
    cli: Cli, partial_file: Path, name: str, me: str
) -> None:
    path = partial_file if name == PARTIAL_ID else SAMPLES_DIR / name
    ok(cli("import", path))
    record = game_file.read_file(path)
    state = record.state
    assert state.dealt is not None
    mine = Counter(symbol(str(c)) for c in state.dealt[state.players.index(me)])
    text = ok(cli("replay", record.record.id, "--as", me)).stdout
    [line] = [line for line in text.splitlines() if "'s hand" in line]
    assert line.startswith(f"{me}'s hand: ")
    assert Counter(CARD.findall(line)) == mine
    for other in state.players:
        if other != me:
            assert f"{other}'s hand" not in text
    # every card drawn is the player's own or was played: nothing else that another player held
    played = Counter(symbol(str(c)) for c in state.cards_played)
    assert Counter(CARD.findall(text)) == mine + played
    assert f"as {me}" in text


def test_replay_as_a_player_without_hands_recorded_prints_no_hand(cli: Cli) -> None:
    path = SAMPLES_DIR / "24-kontra-no90-not-dealt.yaml"
    ok(cli("import", path))
    text = ok(cli("replay", game_file.read_file(path).record.id, "--as", "Clara")).stdout
    assert "'s hand" not in text
    assert len(CARD.findall(text)) == 48


def test_replay_as_a_player_and_tournament_together_is_refused(cli: Cli) -> None:
    ok(cli("import", SAMPLES_DIR / "01-normal.yaml"))
    for args in (["--as", "Anna", "--tournament"], ["--tournament", "--as", "Anna", "--json"]):
        refused(cli("replay", "#1", *args), "--as", "--tournament")


def test_replay_as_nobody_is_refused_naming_the_players(cli: Cli) -> None:
    ok(cli("import", SAMPLES_DIR / "01-normal.yaml"))
    for args in ([], ["--json"], ["--trick", "3"]):
        refused(cli("replay", "#1", "--as", "Nobody", *args), "'Nobody'", "Anna", "Ben", "Clara", "Dirk")


@pytest.mark.parametrize("perspective", [["--as", "Anna"], ["--as", "Dirk"], ["--tournament"]])
def test_replay_json_of_a_perspective_is_its_frames_view(cli: Cli, ledger_path: Path, perspective: list[str]) -> None:
    ok(cli("import", SAMPLES_DIR / "22-kontra-reply.yaml"))
    ok(cli("annotate", "#1", "a note on the second trick", "--trick", "2", "--by", "Ben"))
    data = json.loads(ok(cli("replay", "#1", "--json", *perspective)).stdout)
    seen_as = perspective[1] if len(perspective) == 2 else "tournament"
    with Ledger.open(ledger_path) as ledger:
        gid = ledger.resolve("#1")
        assert data == json.loads(json.dumps(ledger.book_of(DOPPELKOPF).frames(gid, seen_as)))
    assert data["perspective"] == seen_as
    assert len(data["frames"]) == 49
    assert [n["text"] for f in data["frames"] for n in f["notes"]] == ["a note on the second trick"]


def test_replay_tournament_before_trick_4_shows_no_card_points(cli: Cli) -> None:
    path = SAMPLES_DIR / "01-normal.yaml"
    ok(cli("import", path))
    text = ok(cli("replay", "#1", "--tournament", "--trick", "4")).stdout
    header = table_header(text)
    rows = {row[0].rstrip(" ▸"): row for row in table_rows(text) if row and row[0]}
    assert set(rows) == {"Anna", "Ben", "Clara", "Dirk"}
    points, party, hand = header.index("points"), header.index("party"), header.index("hand")
    assert {row[points] for row in rows.values()} == {"·"}
    assert {row[party] for row in rows.values()} == {"·"}
    # the hands as they stood before trick 4: dealt minus the first three tricks
    loaded = game_file.read_file(path)
    first_three = plays(loaded.events, loaded.state.players)[:12]
    for player, row in rows.items():
        left = Counter(_data("01-normal.yaml")["hands"][player]) - Counter(c for p, c in first_three if p == player)
        assert Counter(CARD.findall(row[hand])) == Counter({symbol(card): n for card, n in left.items()})
    assert "frame 12 of 48" in text
    # the same position in the default view does show the points
    everything = ok(cli("replay", "#1", "--trick", "4")).stdout
    assert [r[-1].isdigit() for r in table_rows(everything) if r] == [True] * 4


def test_replay_tournament_static_hides_running_points_until_the_last_trick(cli: Cli) -> None:
    ok(cli("import", SAMPLES_DIR / "01-normal.yaml"))
    text = ok(cli("replay", "#1", "--tournament")).stdout
    header = table_header(text)
    rows = [r for r in table_rows(text) if r and r[0].isdigit()]
    assert [r[0] for r in rows] == [str(n) for n in range(1, 13)]
    column = header.index("points (running)")
    assert [r[column] for r in rows[:-1]] == ["·"] * 11
    assert rows[-1][column] == "42 36 25 137"
    assert "tournament view" in text


@pytest.mark.parametrize(("name", "trick"), [("01-normal.yaml", "13"), (PARTIAL_ID, "5")])
def test_a_trick_not_played_is_refused_from_every_perspective(
    cli: Cli, partial_file: Path, name: str, trick: str
) -> None:
    """`--trick N` for a trick that was not played is refused in the default view; a
    perspective must not show some other position instead."""
    path = partial_file if name == PARTIAL_ID else SAMPLES_DIR / name
    ok(cli("import", path))
    refused(cli("replay", "#1", "--trick", trick))
    refused(cli("replay", "#1", "--tournament", "--trick", trick))
    refused(cli("replay", "#1", "--as", "Anna", "--trick", trick))
