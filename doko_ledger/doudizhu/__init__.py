"""Dou Dizhu (斗地主, "fight the landlord"): the second game the ledger records (docs/rules.md §D).

The rules core (`cards`, `combinations`, `candidates`, `bidding`, `payment`) is pure; the game
layer is `decide(state, command) -> events` and `evolve(state, event) -> state` over a
`DealState`.
"""
