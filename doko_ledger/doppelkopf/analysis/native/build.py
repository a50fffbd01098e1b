"""Compiles the solver's searches (`solver.c`, `specials.c`) into the shared library `native/__init__.py` loads,
with the system's C compiler (`$CC`, else cc, gcc or clang), when there is one.

Standard library only: the package build (hatch_build.py) loads this file by its path, and
`make` runs it as `python -m doko_ledger.doppelkopf.analysis.native.build`. Without a compiler,
or when the compiler fails, it says so in one line and builds nothing: the solver then runs in
pure Python, with the same answers.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "solver.c"
"""The card points' search."""
SPECIALS = HERE / "specials.c"
"""The special points' search, in the same library."""
LIBRARY = HERE / ("solver.dll" if sys.platform == "win32" else "libsolver.so")
FLAGS = ("-O2", "-std=c99", "-shared", "-fPIC")


def compiler() -> list[str] | None:
    """The C compiler's command: `$CC` when set, else the first of cc, gcc, clang on the PATH."""
    named = os.environ.get("CC", "").strip()
    if named:
        command = shlex.split(named)
        return command if shutil.which(command[0]) else None
    for name in ("cc", "gcc", "clang"):
        found = shutil.which(name)
        if found:
            return [found]
    return None


def build(library: Path = LIBRARY) -> Path | None:
    """Compiles `solver.c` and `specials.c` into `library` (written whole or not at all); the library, or None
    with a note on stderr when no compiler is found or it fails."""
    command = compiler()
    if command is None:
        print("doko: no C compiler found: the double-dummy solver runs in pure Python", file=sys.stderr)
        return None
    partial = library.with_name(library.name + ".part")
    try:
        subprocess.run(
            [*command, *FLAGS, "-o", str(partial), str(SOURCE), str(SPECIALS)], check=True, capture_output=True
        )
    except OSError as error:
        reason = error.strerror or str(error)
    except subprocess.CalledProcessError as error:
        said = (error.stderr or b"").decode(errors="replace").strip().splitlines()
        reason = said[0] if said else f"exit status {error.returncode}"
    else:
        partial.replace(library)
        return library
    print(f"doko: the C compiler failed ({reason}): the double-dummy solver runs in pure Python", file=sys.stderr)
    partial.unlink(missing_ok=True)
    return None


if __name__ == "__main__":
    build()
