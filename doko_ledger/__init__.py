"""doko_ledger: an event-sourced recorder and replayer for Doppelkopf."""

__version__ = "0.1.0"
