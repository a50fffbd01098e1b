"""A deal entered by its value (docs/rules.md §7): the table worked the value out itself and
writes down only who won and the deal's simple value, before bock.

Pure: the winners' seats and the value in, the score out. Two against two, each winner gets
the value and each loser loses it; a lone player (the only winner or the only loser) wins or
loses three times the value. The lone player is called Re here, as a soloist is; two against
two, the winners are.
"""

from __future__ import annotations

from collections.abc import Sequence

from doko_ledger.doppelkopf.rules.announcements import Party
from doko_ledger.doppelkopf.rules.play import SEATS
from doko_ledger.doppelkopf.rules.scoring import Score, ScoreLine
from doko_ledger.frozen import frozen
from doko_ledger.i18n import Message, msg

VALUE_ONLY = "value only"
"""The derivation's one line for a deal entered by its value."""

MOST_VALUE = 99
"""The highest simple value a deal can be entered with: more is a slip of the finger."""


@frozen
class ValueDeal:
    """A deal entered by its value: the winners' seats, the value before bock, and the solo
    mark (the lone player, the only winner or the only loser, played a solo)."""

    winners: tuple[int, ...]
    value: int
    solo: bool = False

    @property
    def losers(self) -> tuple[int, ...]:
        return tuple(s for s in range(SEATS) if s not in self.winners)

    @property
    def lone(self) -> int | None:
        """The seat of the player alone against three (the only winner or the only loser), or None."""
        if len(self.winners) == 1:
            return self.winners[0]
        if len(self.winners) == SEATS - 1:
            return self.losers[0]
        return None

    @property
    def re_seats(self) -> tuple[int, ...]:
        """The side the score calls Re: the lone player, else the winners."""
        lone = self.lone
        return self.winners if lone is None else (lone,)

    def sides(self) -> tuple[Party, ...]:
        """Each seat's side as the score names it: Re (the lone player, or the winners) or Kontra."""
        return tuple(Party.RE if s in self.re_seats else Party.KONTRA for s in range(SEATS))

    @property
    def winner(self) -> Party:
        """Re won, unless the lone player lost."""
        return Party.KONTRA if self.lone is not None and self.lone not in self.winners else Party.RE

    @property
    def solo_lost(self) -> bool:
        """The solo mark says the soloist lost (the bock trigger `lost_solo`, docs/rules.md §9)."""
        return self.solo and self.winner is Party.KONTRA

    @property
    def triggers(self) -> tuple[str, ...]:
        """The bock triggers such a deal can set off (docs/rules.md §9): a solo the mark says was
        lost; no other (the card points and the calls are not known)."""
        return ("lost_solo",) if self.solo_lost else ()

    def words(self, players: Sequence[str]) -> str:
        """Who won and the value: "Anna, Ben won; value 3", "Dora lost a solo; value 2",
        "Dora won alone; value 1"."""
        lone = self.lone
        if lone is None:
            return f"{', '.join(players[s] for s in self.winners)} won; value {self.value}"
        won = "won" if lone in self.winners else "lost"
        alone = "a solo" if self.solo else "alone"
        return f"{players[lone]} {won} {alone}; value {self.value}"

    def said(self, players: Sequence[str]) -> Message:
        """`words` in the reader's language."""
        lone, value = self.lone, self.value
        if lone is None:
            return msg("{names} won; value {value}", names=", ".join(players[s] for s in self.winners), value=value)
        who = players[lone]
        if lone in self.winners:
            if self.solo:
                return msg("{who} won a solo; value {value}", who=who, value=value)
            return msg("{who} won alone; value {value}", who=who, value=value)
        if self.solo:
            return msg("{who} lost a solo; value {value}", who=who, value=value)
        return msg("{who} lost alone; value {value}", who=who, value=value)

    def score(self, players: Sequence[str]) -> Score:
        """The score: one line, "value only", with the value and who won (docs/rules.md §7)."""
        winner = self.winner
        cause = self.words(players) + ("" if self.lone is None else ", three times for the lone player")
        because = self.said(players)
        if self.lone is not None:
            because = msg("{words}, three times for the lone player", words=because)
        line = ScoreLine(VALUE_ONLY, None, self.value, cause=cause, words=msg("value only"), because=because)
        re_value = self.value if winner is Party.RE else -self.value
        return Score(winner, (line,), re_value, self.lone is not None)
