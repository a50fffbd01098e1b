"""A deal being played card by card, against a real `doko serve`: no page and no API shows a
hand, a card still to come or a party before it is public, to anyone, except a player's own
view to the phone that joined as that player; the whole replay opens when the deal is over.
And a correction form made before its deal was corrected or taken back is refused by the
deal's number, and writes nothing."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from backends import ledger_path_on_both  # noqa: F401  (every test on both databases)
from cli_helpers import snapshot
from web_helpers import (
    CODE,
    app_for,
    csrf_of,
    deal,
    join,
    phone_at,
    play_cards,
    post_deal,
    serving,
    standings,
    start_night,
    version_of,
)

from doko_ledger.doppelkopf.book import card_nights
from doko_ledger.doppelkopf.game.parties import public_parties, true_parties
from doko_ledger.doppelkopf.game.state import GameState
from doko_ledger.ledger import Ledger
from doko_ledger.sight import DealBeingPlayed

SEED = "a"
"""Anna deals and sits out; Ben, Clara, Dirk and Emil play. Clara and Emil hold the CQs (Re),
and after the first 20 cards the rules allow, neither has shown one: no party is public."""
PLAYED = 20
BEING_PLAYED = "deal 1 of night (night-01) is being played"

SHOWN = [  # what anyone may open while the deal is played: no hand and no party in any of them
    "/",
    "/games",
    "/games/night-01",
    "/nights/night",
    "/nights/night/fragment",
    "/nights/night/record",
    "/api/games",
    "/api/games/night-01/notes",
    "/api/nights",
    "/api/nights/night/standings",
    "/api/nights/night/settle",
    "/api/stats",
]
REFUSED = [  # what only an ended deal shows: the whole replay, every perspective, score and audit
    "/games/night-01/replay",
    "/games/night-01/replay?perspective=all",
    "/games/night-01/replay?perspective=tournament",
    "/games/night-01/replay?perspective=Clara",
    "/games/night-01/replay?perspective=Ben",
    "/games/night-01/audit",
    "/games/night-01/audit?claim_0=%2B1",
    "/api/games/night-01/score",
    "/api/games/night-01/audit",
    "/api/games/night-01/audit?claimed=Ben=%2B1,Clara=-1,Dirk=%2B1,Emil=-1",
]


@pytest.fixture
def db(ledger_path: Path) -> Path:
    """A night whose first deal was dealt from a seed and is half played (5 of 12 tricks)."""
    start_night(ledger_path)
    with Ledger.open(ledger_path) as ledger:
        card_nights(ledger).deal("night", SEED, by="Anna", at="2026-12-01T19:00:00+00:00")
    play_cards(ledger_path, PLAYED)
    game = live_game(ledger_path)
    assert len(game.tricks) == 5 and public_parties(game) == (None,) * 4  # the secrets the tests look for
    return ledger_path


@pytest.fixture
def base(db: Path) -> Iterator[str]:
    with serving(app_for(db)) as url:
        yield url


def live_game(db: Path) -> GameState:
    with Ledger.open(db) as ledger:
        game = card_nights(ledger).being_played("night")
    assert game is not None
    return game


def secrets(game: GameState, but: str | None = None) -> list[str]:
    """Each hand (`but` that player's) as dealt and as held now, in the forms a page or JSON
    would show it, and the seed the hands were dealt from."""
    assert game.dealt is not None and game.hands is not None
    held = [h for hands in (game.dealt, game.hands) for p, h in zip(game.players, hands, strict=True) if p != but]
    hands = [[str(c) for c in game.order.sorted(h)] for h in held]
    shown = [form for h in hands for form in (" ".join(h), json.dumps(h), json.dumps(h, separators=(",", ":")))]
    return [*shown, f"from seed {SEED!r}", f"from seed &#39;{SEED}&#39;"]


def phones(base: str) -> dict[str, Any]:
    """A phone that did not join; one that joined as Anna (she sits this deal out); one as Ben
    (Kontra); one as Clara (Re)."""
    return {"nobody": phone_at(base)} | {name: join(phone_at(base), name) for name in ("Anna", "Ben", "Clara")}


def take_back(phone: Any) -> Any:
    """The night page's "Undo deal N", as the phone got the page."""
    night = phone.get("/nights/night").text
    return phone.post("/nights/night/undo", data={"csrf": csrf_of(night), "version": version_of(night)})


def replay_data(page: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.S)
    assert found, "no replay data in the page"
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def refused_as_being_played(answer: Any) -> str:
    """The refusal's one line: a 403, JSON under /api/, else a page; with no replay in it."""
    assert answer.status_code == 403, (answer.url, answer.status_code)
    if answer.url.path.startswith("/api/"):
        message: str = answer.json()["error"]
    else:
        assert 'id="replay-data"' not in answer.text
        message = html.unescape(answer.text)
    assert BEING_PLAYED in message
    return message


def test_the_library_decides_who_may_see_what(db: Path) -> None:
    with Ledger.open(db) as ledger:
        anyone, anna, clara = (ledger.sight("night-01", who) for who in (None, "Anna", "Clara"))
        assert anyone.being_played and anyone.playing is not None and anyone.playing.number == 1
        assert anyone.perspectives() == () and anna.perspectives() == () and anna.viewer is None
        assert clara.perspectives() == ("Clara",) and clara.perspective() == "Clara"
        for sight, asked in ((anyone, None), (anyone, "all"), (anna, "Clara"), (clara, "Emil"), (clara, "all")):
            with pytest.raises(DealBeingPlayed, match=re.escape(BEING_PLAYED)):
                sight.perspective(asked)
        with pytest.raises(DealBeingPlayed, match=re.escape(BEING_PLAYED)):
            anyone.require_over()
    play_cards(db, 48 - PLAYED)
    with Ledger.open(db) as ledger:
        ended = ledger.sight("night-01")
        assert not ended.being_played and ended.perspective() == "all" and ended.perspective("Emil") == "Emil"
        assert ended.perspectives() == ("all", "tournament", "Ben", "Clara", "Dirk", "Emil")
        ended.require_over()


def test_while_the_deal_is_played_no_route_shows_a_hand_or_a_party(db: Path, base: str) -> None:
    game = live_game(db)
    hidden = secrets(game)
    for who, phone in phones(base).items():
        for path in SHOWN:
            answer = phone.get(path)
            assert answer.status_code == 200, (who, path, answer.status_code)
            leaked = [s for s in hidden if s in answer.text]
            assert not leaked, (who, path, leaked)
        for path in ("/nights/night/deals/night-01/correct", "/nights/night/live"):  # whatever they answer
            assert not [s for s in hidden if s in phone.get(path).text], (who, path)
        for path in REFUSED if who in ("nobody", "Anna") else []:
            refused_as_being_played(phone.get(path))


def test_the_api_lists_the_deal_as_being_played_without_its_parties(db: Path, base: str) -> None:
    (row,) = phone_at(base).get("/api/games").json()
    assert row["being_played"] is True and row["tricks_played"] == 5
    assert row["re_players"] is None and row["lone"] is None and row["re_points"] is None
    assert row["game_type"] == "normal" and row["declarer"] is None
    (deal_row,) = phone_at(base).get("/api/nights/night/standings").json()["deals"]
    assert deal_row["game_id"] == "night-01" and deal_row["game_type"] == "normal"


def test_the_game_list_does_not_link_the_replay_and_says_it_is_being_played(db: Path, base: str) -> None:
    for who, phone in phones(base).items():
        listed = phone.get("/games").text
        assert "/games/night-01/replay" not in listed, who
        tag = '<span class="tag mark being-played">being played</span>'
        assert f'href="/games/night-01">night-01</a> {tag}' in listed
        page = phone.get("/games/night-01").text
        assert BEING_PLAYED in html.unescape(page) and 'id="audit"' not in page
        if who == "Clara" or who == "Ben":  # a player of the deal: a link to their own view only
            assert f'href="/games/night-01/replay" id="replay-link">See it as {who}</a>' in page
        else:
            assert "/games/night-01/replay" not in page


def test_a_player_sees_only_their_own_hand_and_party(db: Path, base: str) -> None:
    game = live_game(db)
    clara = join(phone_at(base), "Clara")
    own = [str(c) for c in game.order.sorted(game.hands[1])]  # Clara's seat in this deal
    assert game.players[1] == "Clara" and true_parties(game)[1] is not None
    for path in ("/games/night-01/replay", "/games/night-01/replay?perspective=Clara"):
        answer = clara.get(path)
        assert answer.status_code == 200, path
        view = replay_data(answer.text)
        assert view["perspective"] == "Clara" and view["seen_as"] == "player" and view["result"] is None
        for frame in view["frames"]:
            assert [p for p, hand in frame["hands"].items() if hand is not None] == ["Clara"]
            assert frame["true_parties"] is None
            assert [p for p, party in (frame["parties"] or {}).items() if party is not None] == ["Clara"]
        assert view["frames"][-1]["hands"]["Clara"] == own
        assert len(view["frames"]) == PLAYED + 1  # no card still to come
        assert not [s for s in secrets(game, but="Clara") if s in answer.text]
    # her partner's view, every hand, the tournament view: refused, however asked
    for asked in ("Emil", "Ben", "all", "tournament", "clara"):
        message = refused_as_being_played(clara.get(f"/games/night-01/replay?perspective={asked}"))
        assert "Clara sees it only as Clara saw it" in message
    # Ben plays too, but may not look through Clara's eyes
    ben = join(phone_at(base), "Ben")
    refused_as_being_played(ben.get("/games/night-01/replay?perspective=Clara"))
    assert replay_data(ben.get("/games/night-01/replay").text)["perspective"] == "Ben"


def test_the_join_code_alone_does_not_make_a_player(db: Path, base: str) -> None:
    """A script with the join code in its header, or a phone that joined as a watcher, is no
    player: it sees no hand; a phone cannot join without a name."""
    script = phone_at(base)
    refused_as_being_played(script.get("/games/night-01/replay", headers={"x-join-code": CODE}))
    nameless = phone_at(base)
    token = csrf_of(nameless.get("/join").text)
    assert nameless.post("/join", data={"csrf": token, "code": CODE}).status_code == 422
    assert "doko_join" not in nameless.cookies
    watcher = join(phone_at(base), "Zoe", watcher=True)
    refused_as_being_played(watcher.get("/games/night-01/replay"))
    # a name cookie without the join code is no player either
    pretender = phone_at(base)
    pretender.cookies.set("doko_name", "Clara")
    refused_as_being_played(pretender.get("/games/night-01/replay"))


def test_the_whole_replay_opens_when_the_deal_ends(db: Path, base: str) -> None:
    play_cards(db, 48 - PLAYED)
    nobody = phone_at(base)
    view = replay_data(nobody.get("/games/night-01/replay").text)
    assert view["perspective"] == "all" and view["result"] is not None
    assert all(hand is not None for hand in view["frames"][0]["hands"].values())
    assert view["frames"][0]["true_parties"] == {"Ben": "kontra", "Clara": "re", "Dirk": "kontra", "Emil": "re"}
    for asked in ("all", "tournament", "Emil"):
        assert nobody.get(f"/games/night-01/replay?perspective={asked}").status_code == 200
    assert nobody.get("/api/games/night-01/score").status_code == 200
    assert nobody.get("/api/games/night-01/audit").json()["ok"] is True
    assert "Everything checks out" in nobody.get("/games/night-01/audit").text
    (row,) = nobody.get("/api/games").json()
    assert "being_played" not in row and row["re_players"] == ["Clara", "Emil"]
    assert "being played" not in nobody.get("/games").text
    game_page = nobody.get("/games/night-01").text
    assert 'href="/games/night-01/replay" id="replay-link">Replay card by card</a>' in game_page
    back = '<a href="/games/night-01">← night-01</a> <a href="/nights/night">← night</a>'
    assert back in nobody.get("/games/night-01/replay").text  # to the game and to its night


def test_a_night_with_a_deal_played_card_by_card_is_no_session_file_to_download(db: Path, base: str) -> None:
    play_cards(db, 48 - PLAYED)
    answer = phone_at(base).get("/nights/night/night.yaml")
    assert answer.status_code == 422 and "content-disposition" not in answer.headers
    assert "played card by card" in answer.text and "export that game as a game file" in answer.text


def test_a_deal_taken_back_while_played_opens_its_replay(db: Path, base: str) -> None:
    assert take_back(join(phone_at(base), "Ben")).status_code == 303
    nobody = phone_at(base)
    view = replay_data(nobody.get("/games/night-01/replay").text)
    assert view["perspective"] == "all" and all(h is not None for h in view["frames"][0]["hands"].values())
    assert "being_played" not in nobody.get("/api/games").json()[0]


def test_a_silent_solo_looks_like_a_normal_game_until_it_ends(ledger_path: Path) -> None:
    """Clara holds both CQs and says healthy: a silent solo, which no list may give away."""
    start_night(ledger_path)
    with Ledger.open(ledger_path) as ledger:
        card_nights(ledger).deal("night", "e", by="Anna", at="2026-12-01T19:00:00+00:00")
    play_cards(ledger_path, 8)
    assert live_game(ledger_path).game_type is not None and live_game(ledger_path).game_type.value == "silent_solo"
    with serving(app_for(ledger_path)) as base:
        nobody = phone_at(base)
        for path in ("/", "/games", "/games/night-01", "/nights/night", "/nights/night/fragment"):
            assert "silent" not in nobody.get(path).text, path
        for path in ("/api/games", "/api/nights/night/standings"):
            assert "silent" not in nobody.get(path).text and "normal" in nobody.get(path).text, path
        clara = join(phone_at(base), "Clara")  # the soloist knows
        assert replay_data(clara.get("/games/night-01/replay").text)["game_type"] == "silent_solo"
        play_cards(ledger_path, 40)
        assert nobody.get("/api/nights/night/standings").json()["deals"][0]["game_type"] == "silent_solo"
        assert nobody.get("/api/games").json()[0]["game_type"] == "silent_solo"


# -- a stale correction form -------------------------------------------------------------------


def correction(phone: Any, game_id: str) -> dict[str, Any]:
    """The correction form of `game_id` as the phone got it: its CSRF token and version."""
    form = phone.get(f"/nights/night/deals/{game_id}/correct").text
    return {"csrf": csrf_of(form), "version": version_of(form)}


def alert(page: str) -> str:
    found = re.search(r'<p class="error" role="alert" id="form-error">([^<]*)</p>', page)
    assert found, "no refusal in the form"
    return html.unescape(found.group(1))


@pytest.fixture
def recorded(ledger_path: Path) -> Path:
    start_night(ledger_path)
    return ledger_path


def test_a_correction_form_of_a_deal_corrected_meanwhile_is_refused_by_its_number(recorded: Path) -> None:
    with serving(app_for(recorded)) as base:
        ben, clara = join(phone_at(base), "Ben"), join(phone_at(base), "Clara")
        assert post_deal(ben, "night", deal(["Ben", "Clara"], 151)).status_code == 303
        stale = correction(ben, "night-01")
        fixed = {**correction(clara, "night-01"), **deal(["Ben", "Clara"], 100), "action": "record"}
        assert clara.post("/nights/night/deals/night-01/correct", data=fixed).status_code == 303
        before = snapshot(recorded)
        told = "deal 1 was corrected meanwhile (by Clara; it is now night-01-c1): nothing was written"
        answer = ben.post(
            "/nights/night/deals/night-01/correct", data={**stale, **deal(["Ben", "Clara"], 90), "action": "record"}
        )
        assert answer.status_code == 409 and told in alert(answer.text)
        # the refusal's own form, made at the night's new version, is refused the same way
        again = {"csrf": csrf_of(answer.text), "version": version_of(answer.text), **deal(["Ben", "Clara"], 90)}
        for action in ("record", "preview"):
            retry = ben.post("/nights/night/deals/night-01/correct", data={**again, "action": action})
            assert retry.status_code == 409 and told in alert(retry.text)
        # a script through the API, from the old version or the new one
        body = {"deal": {"re": ["Ben", "Clara"], "re_points": 90}}
        for version in (int(stale["version"]), int(again["version"])):
            api = ben.post(
                "/api/nights/night/deals/night-01/correct",
                json={**body, "version": version},
                headers={"x-join-code": CODE},
            )
            assert api.status_code == 409 and told in api.json()["error"]
        assert snapshot(recorded) == before
    assert [d["game_id"] for d in standings(recorded)["deals"]] == ["night-01-c1"]
    assert standings(recorded)["deals"][0]["points"]["Ben"] == -2  # Clara's correction stands


def test_a_correction_form_of_a_deal_taken_back_meanwhile_is_refused_by_its_number(recorded: Path) -> None:
    with serving(app_for(recorded)) as base:
        ben, clara = join(phone_at(base), "Ben"), join(phone_at(base), "Clara")
        assert post_deal(ben, "night", deal(["Ben", "Clara"], 151)).status_code == 303
        assert post_deal(ben, "night", deal(["Clara", "Dirk"], 151)).status_code == 303
        stale = correction(ben, "night-02")
        assert take_back(clara).status_code == 303
        assert post_deal(clara, "night", deal(["Clara", "Emil"], 151)).status_code == 303  # deal 2 again: night-02b
        before = snapshot(recorded)
        answer = ben.post(
            "/nights/night/deals/night-02/correct", data={**stale, **deal(["Clara", "Dirk"], 100), "action": "record"}
        )
        assert answer.status_code == 409
        assert "deal 2 was taken back meanwhile (by Clara): nothing was written" in alert(answer.text)
        assert snapshot(recorded) == before
    assert [d["game_id"] for d in standings(recorded)["deals"]] == ["night-01", "night-02b"]
