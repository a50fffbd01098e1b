"""The moves open to the player whose turn it is, where the hands are known."""

from __future__ import annotations

from doko_ledger.doudizhu.bidding import BIDS
from doko_ledger.doudizhu.candidates import candidate_plays
from doko_ledger.doudizhu.commands import Bid, PassBid, PassTurn, Play
from doko_ledger.doudizhu.state import DealState, Phase


def legal_calls(state: DealState) -> tuple[Bid | PassBid, ...]:
    """The bids and the pass open to the player to bid; empty outside the bidding."""
    seat = state.to_bid
    if seat is None:
        return ()
    return (PassBid(seat), *(Bid(seat, b) for b in BIDS if b > state.bid))


def legal_moves(state: DealState) -> tuple[Play | PassTurn, ...]:
    """Every play (with its combination declared) and, unless the player leads, the pass open to
    the player to play. Empty outside play, and where the hands were not recorded."""
    seat = state.to_play
    if seat is None or state.phase is not Phase.PLAY or state.hands is None:
        return ()
    on_table = state.to_beat
    to_beat = on_table.combination if on_table is not None else None
    plays = tuple(Play(seat, cards, c) for cards, c in candidate_plays(state.hands[seat], to_beat, len(state.players)))
    return plays + ((PassTurn(seat),) if on_table is not None else ())
