"""The rebuild of every read model, counted in instructions beside its floor (plain `sqlite3`
select of every payload + `json.loads`): what a loaded machine does not move.

    python bench/rebuild_count.py LEDGER

LEDGER is one kept by `python bench/bench_ledger.py --games N --keep LEDGER`; it is copied first,
and each run works on a fresh copy. Three runs under cachegrind (`cold_start_count.py`'s
`instructions`): the ledger opened only, opened and rebuilt, and the floor; the rebuild and
the floor are each given less the run that only opens the ledger (the interpreter, the imports,
the schema check). The first rebuild of a process decodes every payload, as `doko rebuild` does.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from cold_start_count import instructions, ledger_and_package

RUN = """
import json, sqlite3, sys
import doko_ledger.doppelkopf.projection, doko_ledger.doudizhu.projection
from doko_ledger.ledger import Ledger
what, path = sys.argv[1], sys.argv[2]
if what == "floor":
    conn = sqlite3.connect(path)
    for (payload,) in conn.execute("SELECT payload FROM events ORDER BY stream, version"):
        json.loads(payload)
    conn.close()
else:
    with Ledger.open(path) as ledger:
        if what == "rebuild":
            ledger.rebuild()
"""


def main() -> None:
    ledger, package = ledger_and_package(__doc__.splitlines()[0])
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "ledger.sqlite"

        def counted(what: str) -> int:
            shutil.copyfile(ledger, copy)
            return instructions([sys.executable, "-c", RUN, what, str(copy)])

        opened = counted("open")
        rebuild = counted("rebuild") - opened
        floor = counted("floor") - opened
    print(f"{package}\nopening the ledger only {opened / 1e6:,.0f} M")
    print(f"rebuild {rebuild / 1e6:,.0f} M, floor {floor / 1e6:,.0f} M: {rebuild / floor:.2f}x")


if __name__ == "__main__":
    main()
