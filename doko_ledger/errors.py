"""The root of every error doko_ledger raises on purpose.

The CLI turns a `DokoError` into a one-line message and a non-zero exit code;
anything else is a bug.
"""

from __future__ import annotations


class DokoError(Exception):
    """An input, a command or a ledger that doko_ledger refuses, with the reason."""

    exit_code = 1
