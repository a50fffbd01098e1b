"""Game types (contracts) and which card order each one plays with (docs/rules.md §2, §4)."""

from __future__ import annotations

import re
from enum import Enum

from doko_ledger.doppelkopf.cards import Suit
from doko_ledger.doppelkopf.rules.ruleset import PICTURE_SOLOS, RuleSet
from doko_ledger.errors import DokoError
from doko_ledger.i18n import Message, msg, render


class GameTypeError(DokoError, ValueError):
    """A text that names no game type."""

    exit_code = 2


class GameType(Enum):
    """What is being played. Marriage, poverty and silent solo use the normal card order."""

    NORMAL = "normal"
    MARRIAGE = "marriage"
    POVERTY = "poverty"
    SILENT_SOLO = "silent_solo"
    DIAMOND_SOLO = "diamond_solo"
    HEART_SOLO = "heart_solo"
    SPADE_SOLO = "spade_solo"
    CLUB_SOLO = "club_solo"
    QUEEN_SOLO = "queen_solo"
    JACK_SOLO = "jack_solo"
    ACE_SOLO = "ace_solo"
    PURE_CLUB_SOLO = "pure_club_solo"
    PURE_SPADE_SOLO = "pure_spade_solo"
    PURE_HEART_SOLO = "pure_heart_solo"
    PURE_DIAMOND_SOLO = "pure_diamond_solo"
    KING_SOLO = "king_solo"
    QUEEN_JACK_SOLO = "queen_jack_solo"
    KING_JACK_SOLO = "king_jack_solo"
    KING_QUEEN_SOLO = "king_queen_solo"
    KOEHLER_SOLO = "koehler_solo"

    @property
    def is_solo(self) -> bool:
        """Played by one against three by declaration (silent solo included)."""
        return self not in (GameType.NORMAL, GameType.MARRIAGE, GameType.POVERTY)

    @property
    def is_declared_solo(self) -> bool:
        """A solo announced as a reservation (not the silent solo)."""
        return self.is_solo and self is not GameType.SILENT_SOLO

    @property
    def is_pure_suit_solo(self) -> bool:
        return self.value.startswith("pure_")

    @property
    def is_further_picture_solo(self) -> bool:
        """One of the picture solos a table plays only by option `picture_solos` (king solo,
        the two-picture solos, Köhler)."""
        return self in FURTHER_PICTURE_SOLOS

    @property
    def trump_suit(self) -> Suit | None:
        """The suit whose plain cards are trump: diamonds in normal-order games."""
        return _TRUMP_SUIT.get(self)

    @property
    def word(self) -> Message:
        """The game's name in the reader's language (queen solo, Damensolo, solo de dames)."""
        return _WORDS[self]

    def localized(self, language: str) -> str:
        return render(self.word, language)

    @property
    def normal_order(self) -> bool:
        """True where queens and jacks are trump above the trump suit (normal and suit solos)."""
        return self in _TRUMP_SUIT and not self.is_pure_suit_solo


_WORDS: dict[GameType, Message] = {
    GameType.NORMAL: msg("normal game"),
    GameType.MARRIAGE: msg("marriage"),
    GameType.POVERTY: msg("poverty"),
    GameType.SILENT_SOLO: msg("silent solo"),
    GameType.DIAMOND_SOLO: msg("diamond solo"),
    GameType.HEART_SOLO: msg("heart solo"),
    GameType.SPADE_SOLO: msg("spade solo"),
    GameType.CLUB_SOLO: msg("club solo"),
    GameType.QUEEN_SOLO: msg("queen solo"),
    GameType.JACK_SOLO: msg("jack solo"),
    GameType.ACE_SOLO: msg("ace solo"),
    GameType.PURE_CLUB_SOLO: msg("pure club solo"),
    GameType.PURE_SPADE_SOLO: msg("pure spade solo"),
    GameType.PURE_HEART_SOLO: msg("pure heart solo"),
    GameType.PURE_DIAMOND_SOLO: msg("pure diamond solo"),
    GameType.KING_SOLO: msg("king solo"),
    GameType.QUEEN_JACK_SOLO: msg("queen jack solo"),
    GameType.KING_JACK_SOLO: msg("king jack solo"),
    GameType.KING_QUEEN_SOLO: msg("king queen solo"),
    GameType.KOEHLER_SOLO: msg("koehler solo"),
}

FURTHER_PICTURE_SOLOS: tuple[GameType, ...] = tuple(GameType(name) for name in PICTURE_SOLOS)
"""The picture solos beyond the queen and jack solo: each only where `picture_solos` names it
(docs/rules.md §2, §4)."""

_TRUMP_SUIT: dict[GameType, Suit] = {
    GameType.NORMAL: Suit.DIAMONDS,
    GameType.MARRIAGE: Suit.DIAMONDS,
    GameType.POVERTY: Suit.DIAMONDS,
    GameType.SILENT_SOLO: Suit.DIAMONDS,
    GameType.DIAMOND_SOLO: Suit.DIAMONDS,
    GameType.HEART_SOLO: Suit.HEARTS,
    GameType.SPADE_SOLO: Suit.SPADES,
    GameType.CLUB_SOLO: Suit.CLUBS,
    GameType.PURE_CLUB_SOLO: Suit.CLUBS,
    GameType.PURE_SPADE_SOLO: Suit.SPADES,
    GameType.PURE_HEART_SOLO: Suit.HEARTS,
    GameType.PURE_DIAMOND_SOLO: Suit.DIAMONDS,
}


_ALIASES: dict[GameType, tuple[str, ...]] = {
    GameType.NORMAL: ("normal", "normalspiel", "normales spiel"),
    GameType.MARRIAGE: ("marriage", "wedding", "hochzeit"),
    GameType.POVERTY: ("poverty", "armut"),
    GameType.SILENT_SOLO: ("silent", "stilles", "stille hochzeit"),
    GameType.DIAMOND_SOLO: ("diamond", "diamonds", "karo", "trumpf"),
    GameType.HEART_SOLO: ("heart", "hearts", "herz"),
    GameType.SPADE_SOLO: ("spade", "spades", "pik"),
    GameType.CLUB_SOLO: ("club", "clubs", "kreuz", "treff"),
    GameType.QUEEN_SOLO: ("queen", "queens", "dame", "damen"),
    GameType.JACK_SOLO: ("jack", "jacks", "bube", "buben"),
    GameType.ACE_SOLO: ("ace", "aces", "as", "ass", "fleischlos", "fleischloser", "fleischloses"),
    GameType.PURE_CLUB_SOLO: ("pure club", "pure clubs", "reines kreuz"),
    GameType.PURE_SPADE_SOLO: ("pure spade", "pure spades", "reines pik"),
    GameType.PURE_HEART_SOLO: ("pure heart", "pure hearts", "reines herz"),
    GameType.PURE_DIAMOND_SOLO: ("pure diamond", "pure diamonds", "reines karo"),
    GameType.KING_SOLO: ("king", "kings", "könig", "könige", "königs", "koenig", "koenige", "koenigs"),
    GameType.QUEEN_JACK_SOLO: ("queen jack", "queens jacks", "damen buben", "damen bube"),
    GameType.KING_JACK_SOLO: ("king jack", "kings jacks", "könige buben", "koenige buben", "könig bube"),
    GameType.KING_QUEEN_SOLO: ("king queen", "kings queens", "könige damen", "koenige damen", "könig dame"),
    GameType.KOEHLER_SOLO: ("koehler", "köhler"),
}
_SEPARATORS = re.compile(r"[\s_\-]+")


def name_key(text: str) -> str:
    """A name as looked up: without case, spaces, `_` or `-` (`Queen Solo` is `queensolo`)."""
    return _SEPARATORS.sub("", text.casefold())


_BY_KEY: dict[str, GameType] = {name_key(g.value): g for g in GameType} | {
    name_key(alias): game for game, aliases in _ALIASES.items() for alias in aliases
}


def parse_game_type(text: str) -> GameType:
    """The game type a text names, without regard to case: the canonical name (`queen_solo`),
    a short one (`queen`, `queen solo`) or a German one (`Damensolo`, `Fleischloser`,
    `Kreuzsolo`, `Bubensolo`, `Hochzeit`, `Armut`). Raises `GameTypeError` quoting the text."""
    key = name_key(text)
    game = _BY_KEY.get(key) or (_BY_KEY.get(key[: -len("solo")]) if key.endswith("solo") else None)
    if game is None:
        raise GameTypeError(
            msg(
                "unknown game type {text} ({known}; short or German names such as queen or Damensolo do too)",
                text=repr(text),
                known=", ".join(g.value for g in GameType),
            )
        )
    return game


def game_type_problem(game: GameType, rules: RuleSet) -> Message | None:
    """Why the rules do not allow `game`, or None (docs/rules.md §4, §8)."""
    if game.is_pure_suit_solo and not rules.pure_suit_solos:
        return msg("{game} is not allowed under these rules (option pure_suit_solos)", game=game.value)
    if game.is_further_picture_solo and game.value not in rules.picture_solos:
        return msg("{game} is not allowed under these rules (option picture_solos)", game=game.value)
    if game is GameType.POVERTY and not rules.poverty:
        return msg("these rules have no poverty (option poverty)")
    return None


def allowed_game_types(rules: RuleSet) -> tuple[GameType, ...]:
    """The game types the rules allow, in their usual order."""
    return tuple(g for g in GameType if game_type_problem(g, rules) is None)
