"""The registry of games: each game found by its first event and by its files, its book asked
through the ledger, its modules loaded only when one of its games is touched, and no module
outside a game's package choosing by a game's name."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from doko_ledger.doppelkopf.book import DoppelkopfBook
from doko_ledger.doudizhu.book import DouDizhuBook
from doko_ledger.games import DOPPELKOPF, DOUDIZHU, GAMES, event_modules, game_named, game_of_file, game_starting_with
from doko_ledger.ledger import GameNotFound, Ledger
from doko_ledger.streams import SESSION_PREFIX

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_games"
DOPPELKOPF_GAME = SAMPLES / "01-normal.yaml"
DOUDIZHU_GAME = SAMPLES / "doudizhu" / "01-landlord-rocket.yaml"
PACKAGE = ROOT / "doko_ledger"


@pytest.fixture
def ledger(tmp_path: Path) -> Ledger:
    opened = Ledger.open(tmp_path / "games.sqlite", create=True)
    report = opened.import_files([DOPPELKOPF_GAME, DOUDIZHU_GAME], by="t", at="2026-12-01T10:00:00+00:00")
    assert (report.games, report.errors) == (2, [])
    return opened


def test_each_game_is_found_by_the_event_that_starts_its_games() -> None:
    assert game_starting_with("GameStarted") is DOPPELKOPF
    assert game_starting_with("DouDizhuDealt") is DOUDIZHU
    assert game_starting_with("SessionStarted") is None
    assert game_starting_with(None) is None
    assert [game_named(game.name) for game in GAMES] == list(GAMES)


def test_the_codec_catalog_is_every_games_event_modules_and_the_generic_ones() -> None:
    modules = list(event_modules())
    for game in GAMES:
        assert set(game.event_modules) <= set(modules)
    assert {"doko_ledger.events.annotations", "doko_ledger.events.voiding", "doko_ledger.events.sessions"} <= set(
        modules
    )
    assert len(modules) == len(set(modules))


def test_a_file_is_its_games_by_its_format_line_and_doppelkopfs_without_one() -> None:
    assert game_of_file(DOUDIZHU_GAME.read_text(encoding="utf-8")) is DOUDIZHU
    assert game_of_file(DOPPELKOPF_GAME.read_text(encoding="utf-8")) is DOPPELKOPF
    session = next((SAMPLES / "doudizhu" / "sessions").glob("*.yaml")).read_text(encoding="utf-8")
    assert game_of_file(session) is DOUDIZHU
    assert DOUDIZHU.files().is_session(session)
    assert game_of_file("players: [A, B, C, D]\n") is DOPPELKOPF


def test_the_ledger_hands_each_game_to_its_games_book(ledger: Ledger) -> None:
    with ledger:
        doppelkopf_id, doudizhu_id = (row["game_id"] for row in ledger.games())
        assert ledger.game_of(doppelkopf_id) is DOPPELKOPF
        assert ledger.game_of(doudizhu_id) is DOUDIZHU
        assert isinstance(ledger.book(doppelkopf_id), DoppelkopfBook)
        assert isinstance(ledger.book(doudizhu_id), DouDizhuBook)
        assert ledger.book(doudizhu_id) is ledger.book_of(DOUDIZHU)  # one book per game and ledger
        assert ledger.sight(doudizhu_id).perspectives()[0] == "all"
        with pytest.raises(GameNotFound, match="no game 'nope'"):
            ledger.game_of("nope")


def test_a_doppelkopf_only_answer_names_the_other_game(ledger: Ledger) -> None:
    with ledger:
        doudizhu_id = [row["game_id"] for row in ledger.games()][1]
        with pytest.raises(Exception, match=f"for Doppelkopf games; {doudizhu_id} is a Dou Dizhu game"):
            ledger.book_of(DOPPELKOPF).state(doudizhu_id)


def test_a_note_on_a_trick_of_a_dou_dizhu_game_is_refused_and_one_on_the_game_is_kept(ledger: Ledger) -> None:
    with ledger:
        doudizhu_id = [row["game_id"] for row in ledger.games()][1]
        with pytest.raises(Exception, match="leave out --trick and --card"):
            ledger.annotate(doudizhu_id, 1, None, "nice", by="t", at="t")
        with pytest.raises(Exception, match="a note needs a text"):
            ledger.annotate(doudizhu_id, None, None, "  ", by="t", at="t")
        ledger.annotate(doudizhu_id, None, None, "nice", by="t", at="t")
        assert [n.text for n in ledger.notes(doudizhu_id)] == ["nice"]


def test_scoring_a_doppelkopf_game_loads_nothing_of_dou_dizhu(ledger: Ledger) -> None:
    path = ledger.store.where
    ledger.close()
    code = (
        "import sys\n"
        "from doko_ledger.games import DOPPELKOPF\n"
        "from doko_ledger.ledger import Ledger\n"
        f"with Ledger.open({str(path)!r}) as ledger:\n"
        "    ledger.book_of(DOPPELKOPF).score(ledger.resolve('#1'))\n"
        "    ledger.games()\n"
        "print(sorted(m for m in sys.modules if m.startswith('doko_ledger.doudizhu')))\n"
    )
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert shown.strip() == "['doko_ledger.doudizhu', 'doko_ledger.doudizhu.game_list']"


OWN_MODULES = {
    "doudizhu": ("doudizhu/", "cli/ddz.py", "cli/doudizhu.py", "cli/render_doudizhu.py", "web/doudizhu.py"),
}
"""Where a game's name may be compared: its package and its own command and page modules."""


def test_no_module_outside_a_games_own_chooses_by_the_games_name() -> None:
    choosing = re.compile(r"""(==|!=)\s*["']doudizhu["']|["']doudizhu["']\s*(==|!=)|\.kind\(|\bledger\.doudizhu\b""")
    found = [
        f"{path.relative_to(PACKAGE)}:{n}"
        for path in PACKAGE.rglob("*.py")
        if not str(path.relative_to(PACKAGE)).startswith(OWN_MODULES["doudizhu"])
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if choosing.search(line)
    ]
    assert found == []


def test_a_session_is_found_by_its_game_s_streams_without_the_game_s_code(tmp_path: Path) -> None:
    night, session = (
        SAMPLES / "sessions" / "01-kitchen-bock.yaml",
        SAMPLES / "doudizhu" / "sessions" / "2026-11-29-dorm.yaml",
    )
    with Ledger.open(tmp_path / "sessions.sqlite", create=True) as opened:
        assert opened.import_files([night, session], by="t", at="2026-12-01T10:00:00+00:00").errors == []
        store = opened.store
        assert DOPPELKOPF.session_prefix == SESSION_PREFIX
        assert DOPPELKOPF.session_named(store, "2026-11-28-kitchen") == "2026-11-28-kitchen"
        assert DOPPELKOPF.session_named(store, "2026-11-28") == "2026-11-28-kitchen"  # a unique prefix
        assert DOPPELKOPF.session_named(store, "2026-11-29-dorm") is None  # another game's session
        assert DOUDIZHU.session_named(store, "2026-11-29") == "2026-11-29-dorm"
        assert DOUDIZHU.session_named(store, "2026-11-28-kitchen") is None
        assert DOPPELKOPF.session_named(store, "2026") == "2026-11-28-kitchen"
        assert opened.book_of(DOUDIZHU).resolve_session("2026-11-29") == "2026-11-29-dorm"
