"""The compiled search of the solver, for the tests that run it."""

from __future__ import annotations

import pytest

from doko_ledger.doppelkopf.analysis import native
from doko_ledger.doppelkopf.analysis.native import build


@pytest.fixture
def native_library(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled search switched on; it must be built wherever a C compiler is (`make native`)."""
    if native.library() is None:
        if build.compiler() is None:
            pytest.skip("no C compiler here: the solver's compiled search cannot be built")
        pytest.fail("the solver's compiled search is not built (or stale): run `make native`")
    monkeypatch.setenv("DOKO_PURE_PYTHON", "0")
