"""The words the HTML replay's script writes, in one language: the page carries them as JSON
(`#page-words`, as the web pages do for `doko.js`) and the script fills in their `{name}`
placeholders. A text said of a count comes in its language's two forms (`one`, `other`); the
script picks the form the page's language gives the count. The game's own words (the game
types, the parties, the calls, the cards' suits and ranks) come as tables by their code."""

from __future__ import annotations

from typing import Any

from doko_ledger.doppelkopf.cards import Card, Rank, Suit
from doko_ledger.doppelkopf.rules.announcements import Announcement, Party
from doko_ledger.doppelkopf.rules.game_types import GameType
from doko_ledger.i18n import Message, msg, plural, render
from doko_ledger.i18n.catalogs import catalog

__all__ = ["script_words"]


def _said() -> dict[str, Message]:
    """The texts, each by the key the script says it with."""
    return {
        "game": msg("Doppelkopf game"),
        "played": msg("played {day}"),
        "declarer_is": msg("declarer {player}"),
        "dealer_is": msg("dealer {player}"),
        "all_open": msg("all hands open"),
        "tournament": msg("tournament view: points and parties shown at the end"),
        "as_seen": msg("as {player} saw it"),
        "before_play": msg("before play"),
        "at_card": msg("trick {trick}, card {card}"),
        "at_trick": msg("trick {trick}"),
        "dealer": msg("dealer"),
        "declarer": msg("declarer"),
        "secret": msg("{party}, not yet public"),
        "quoted": msg("“{call}”"),
        "wins_trick": msg("wins the trick"),
        "to_play": msg("to play"),
        "no_cards_left": msg("no cards left"),
        "no_cards": msg("no cards"),
        "not_recorded": msg("hand not recorded"),
        "hidden_hand": msg("hidden hand"),
        "hand_hidden": msg("hand hidden"),
        "wins": msg("{player} wins"),
        "plays_next": msg("{player} to play"),
        "leads": msg("{player} leads"),
        "player": msg("player"),
        "party": msg("party"),
        "tricks": msg("tricks"),
        "points": msg("card points"),
        "score": msg("score"),
        "party_points": msg("{party} {points}"),
        "hidden_until_end": msg("hidden until the end"),
        "none": msg("none"),
        "none_yet": msg("none yet"),
        "said_by": msg("{player}: "),
        "notes": msg("Notes"),
        "no_note": msg("No note on this step."),
        "party_wins": msg("{party} wins"),
        "no_party_wins": msg("No party wins"),
        "show_better": msg("{line} (show the better card)"),
        "better": msg("better: "),
        "close": msg("close"),
        "since": msg(" from trick {trick} on"),
        "costly_one": msg("{count} card{since} cost its party something:"),
        "costly_many": msg("{count} cards{since} cost their party something:"),
        "costly_none": msg("No card{since} cost its party anything."),
        "mark": msg("trick {trick} · {player}"),
        "looking": msg("Looking for the cards that cost something…"),
        "failed": msg("The analysis could not be made ({status})."),
        "result": msg("The result"),
        "frame": msg("frame {step} of {last}"),
        "card_name": msg("{rank} of {suit}"),
    }


def _counted() -> dict[str, Message]:
    """The texts said of a count (`{count}`), each by its key."""
    return {
        "tricks_won": plural("{count} trick", "{count} tricks", 1),
        "points_won": plural("{count} pt", "{count} pts", 1),
        "party_tricks": plural("{party} {points} in {count} trick", "{party} {points} in {count} tricks", 1),
        "notes_here": plural("{count} note on this step", "{count} notes on this step", 1),
        "game_points": plural("{count} point", "{count} points", 1),
    }


_SUITS = {
    Suit.CLUBS: msg("clubs"),
    Suit.SPADES: msg("spades"),
    Suit.HEARTS: msg("hearts"),
    Suit.DIAMONDS: msg("diamonds"),
}
_RANKS = {
    Rank.ACE: msg("ace"),
    Rank.TEN: msg("ten"),
    Rank.KING: msg("king"),
    Rank.QUEEN: msg("queen"),
    Rank.JACK: msg("jack"),
    Rank.NINE: msg("nine"),
}


def script_words(language: str) -> dict[str, Any]:
    """Every word the replay's script writes, in `language`: each text by its key, a count's
    text as its forms `one` and `other`, and the tables `games`, `parties`, `calls`, `suits`,
    `ranks` (the rank's name) and `letters` (the rank's letter on a card)."""
    words: dict[str, Any] = {key: render(text, language) for key, text in _said().items()}
    translations = catalog(language)
    for key, text in _counted().items():
        assert text.plural_id is not None
        forms = {form: translations.ngettext(text.id, text.plural_id, n) for form, n in (("one", 1), ("other", 2))}
        words[key] = forms
    words["games"] = {game.value: render(game.word, language) for game in GameType}
    words["parties"] = {party.value: render(party.word, language) for party in Party}
    words["calls"] = {call.value: render(call.word, language) for call in Announcement}
    words["suits"] = {suit.value: render(name, language) for suit, name in _SUITS.items()}
    words["ranks"] = {rank.value: render(name, language) for rank, name in _RANKS.items()}
    words["letters"] = {rank.value: Card(Suit.CLUBS, rank).localized(language)[1:] for rank in Rank}
    return words
