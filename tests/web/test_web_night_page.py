"""Each rule of a card night in one place, asked by every front end: the game types the next
deal may take (the deal form offers exactly those, as the CLI's checks do), whether special
points count, the bock causes, a deal's place; and the night page from one library call."""

from __future__ import annotations

import re
from pathlib import Path

from web_helpers import app_for, client, joined, start_night

from doko_ledger.doppelkopf.book import card_nights
from doko_ledger.doppelkopf.game.record import SummaryRecord
from doko_ledger.doppelkopf.nights.page import DealInPlay
from doko_ledger.doppelkopf.nights.place import CORRECTED, VOIDED
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.ledger import Ledger

AT = "2026-12-01T20:00:00+00:00"
FOUR = ("Anna", "Ben", "Clara", "Dirk")
OPTION = re.compile(r'<option value="(\w+)" (selected)?>')


def add(ledger: Ledger, summary: SummaryRecord | None) -> str:
    prepared = card_nights(ledger).prepare("night", summary, misdeal=summary is None)
    card_nights(ledger).commit(prepared, by="t", at=AT)
    return prepared.game_id


def game_options(html: str) -> tuple[list[str], list[str]]:
    """The deal form's game types, and the one selected."""
    select = html.split('<select name="game" id="game">')[1].split("</select>")[0]
    found = OPTION.findall(select)
    return [value for value, _ in found], [value for value, chosen in found if chosen]


def test_the_deal_form_offers_what_the_night_allows(ledger_path: Path) -> None:
    """A tournament without pure suit solos: never a pure suit solo; once the forced solos are
    due, only the solos, and the form starts with one (the CLI's checks offer the same)."""
    start_night(ledger_path, players=FOUR, preset="tournament", tournament_deals=4, pure_suit_solos=False)
    phone = joined(app_for(ledger_path))
    options, chosen = game_options(phone.get("/nights/night/record").text)
    assert "normal" in options and chosen == ["normal"]
    assert not [g for g in options if GameType(g).is_pure_suit_solo]
    with Ledger.open(ledger_path) as ledger:
        assert options == [g.value for g in card_nights(ledger).page("night").game_types]
        add(ledger, SummaryRecord("club_solo", ("Anna",), 150))
        add(ledger, SummaryRecord("club_solo", ("Ben",), 100))
        for _ in range(4):
            add(ledger, SummaryRecord("normal", card_nights(ledger).standings("night").next.playing[:2], 130))
        page = card_nights(ledger).page("night")
        checks = card_nights(ledger).checks("night")
    assert page.standings.next.forced_solo_by == ("Clara", "Dirk")
    options, chosen = game_options(phone.get("/nights/night/record").text)
    assert options == [g.value for g in page.game_types] == [g.value for g in checks.game_types]
    assert all(GameType(g).is_declared_solo for g in options) and "normal" not in options
    assert chosen == [page.default_game_type.value] == [checks.default_game_type.value] == [options[0]]
    correcting = game_options(phone.get("/nights/night/deals/night-03/correct").text)[0]
    assert "normal" in correcting and correcting == [g.value for g in page.correction_game_types]


def test_special_points_count_by_the_scoring_rule(ledger_path: Path) -> None:
    """The CLI's prompt asks for special points where the scoring rule counts them: not in a
    solo, not in a lone marriage, not in a poverty unless the rules say so."""
    start_night(ledger_path, players=FOUR, special_points_in_poverty=False)
    with Ledger.open(ledger_path) as ledger:
        checks = card_nights(ledger).checks("night")
    assert checks.special_points_count(GameType.NORMAL, ("Anna", "Ben"))
    assert checks.special_points_count(GameType.MARRIAGE, ("Anna", "Ben"))
    assert not checks.special_points_count(GameType.MARRIAGE, ("Anna",))  # a lone marriage
    assert not checks.special_points_count(GameType.CLUB_SOLO, ("Anna",))
    assert not checks.special_points_count(GameType.POVERTY, ("Anna", "Ben"))


def test_the_night_page_is_one_library_call(ledger_path: Path) -> None:
    """`CardNights.page`: standings, bock causes, where each game stands, what was taken back
    and corrected, the deal being played; the web page shows it."""
    start_night(ledger_path, bock_triggers=["tie"])  # Anna, Ben, Clara, Dirk, Emil
    with Ledger.open(ledger_path) as ledger:
        tie = add(ledger, SummaryRecord("normal", ("Ben", "Clara"), 120))
        wrong = add(ledger, SummaryRecord("normal", ("Clara", "Dirk"), 151))
        fixed = card_nights(ledger).correct(
            "night", wrong, SummaryRecord("normal", ("Clara", "Dirk"), 100), by="t", at=AT
        )
        gone = add(ledger, None)
        card_nights(ledger).undo("night", by="t", at=AT)
        card_nights(ledger).deal("night", "a seed", by="t", at=AT)
        page = card_nights(ledger).page("night")
        assert page.version == card_nights(ledger).version("night")
        assert page.position == ledger.store.last_position()
    new = fixed.game.game_id
    assert [r.game_id for r in page.standings.rows] == [tie, new, page.standings.rows[-1].game_id]
    assert page.replaced == {wrong: new} and page.voided == (gone,)
    assert page.places[wrong].status == CORRECTED and page.places[wrong].corrected_by == new
    assert page.places[gone].status == VOIDED and page.places[gone].tag == "taken back"
    place = page.places[new]
    assert place.number == 2 and place.bock is not None and place.bock.multiplier == 2
    (cause,) = page.standings.bock_causes
    assert (cause.deal, cause.triggers, cause.deals_left) == (1, ("tie",), 4)  # five at the table: deal 2 used one of 5
    assert isinstance(page.in_play, DealInPlay) and page.in_play.number == 3
    assert page.in_play.game_id == page.standings.rows[-1].game_id and page.in_play.to_play is None
    assert page.sitting_out == tuple(p for p in page.standings.players if p not in page.standings.next.playing)
    night = client(app_for(ledger_path)).get("/nights/night").text
    assert "Deal 3 is being played" in night
    assert f'Taken back: <a href="/games/{gone}" title="{gone}">deal 3</a>.' in night
    assert f'Corrected: <a href="/games/{wrong}" title="{wrong}">deal 2</a>.' in night
    assert "Bock ×2</strong> in force" in night


def test_the_games_pages_mark_a_deal_by_its_place(ledger_path: Path) -> None:
    """The list and a game's page read a deal's place from the library (the read models keep
    it): taken back, corrected, or its deal number and bock round."""
    start_night(ledger_path, bock_triggers=["tie"])
    with Ledger.open(ledger_path) as ledger:
        add(ledger, SummaryRecord("normal", ("Ben", "Clara"), 120))
        wrong = add(ledger, SummaryRecord("normal", ("Clara", "Dirk"), 151))
        new = card_nights(ledger).correct(
            "night", wrong, SummaryRecord("normal", ("Clara", "Dirk"), 100), by="t", at=AT
        )
        gone = add(ledger, None)
        card_nights(ledger).undo("night", by="t", at=AT)
        ledger.refresh()
    phone = client(app_for(ledger_path))
    listed = phone.get("/games").text
    assert re.search(rf'{wrong}</a> <span class="tag mark">corrected</span>', listed)
    assert re.search(rf'{gone}</a> <span class="tag mark">taken back</span>', listed)
    new_id = new.game.game_id
    assert re.search(rf"{new_id}</a></td>", listed)
    page = phone.get(f"/games/{new_id}").text
    assert "Deal 2 of" in page and "bock ×2</strong>: in the standings Clara -4, Dirk -4, Emil +4, Anna +4" in page
    assert f'was corrected: <a href="/games/{new_id}">' in phone.get(f"/games/{wrong}").text
    assert "was taken back: it does not count" in phone.get(f"/games/{gone}").text
