"""Game types (contracts) and which card order each one plays with (docs/rules.md §2, §4)."""

from __future__ import annotations

from enum import Enum

from doko_ledger.cards import Suit


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
    def trump_suit(self) -> Suit | None:
        """The suit whose plain cards are trump: diamonds in normal-order games."""
        return _TRUMP_SUIT.get(self)

    @property
    def normal_order(self) -> bool:
        """True where queens and jacks are trump above the trump suit (normal and suit solos)."""
        return self in _TRUMP_SUIT and not self.is_pure_suit_solo


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
