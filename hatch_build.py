"""The package build compiles the message catalogs (`doko_ledger/locale/*/LC_MESSAGES/doko.po`
into `doko.mo`), so that a wheel, and an editable install, carry them: the `.po` files are
what the repository keeps. Where a C compiler is found it also compiles the double-dummy
solver's search (`doko_ledger/doppelkopf/analysis/native/solver.c`, by `native/build.py`),
and a wheel (not an editable install, which runs the repository's sources as they are edited)
gets the game core compiled with mypyc (`tools/compiled_core.py`) beside its sources; without
a compiler the build says so and goes on, and both run in pure Python."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from hatchling.builders.hooks.plugin.interface import BuildHookInterface

NATIVE = "doko_ledger/doppelkopf/analysis/native/build.py"
CORE = "tools/compiled_core.py"


class MessageCatalogs(BuildHookInterface):  # type: ignore[misc]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        root = Path(self.root)
        for source in sorted(root.glob("doko_ledger/locale/*/LC_MESSAGES/*.po")):
            with source.open("rb") as file:
                catalog = read_po(file, locale=source.parent.parent.name)
            target = source.with_suffix(".mo")
            with target.open("wb") as file:
                write_mo(file, catalog)
            build_data["artifacts"].append(target.relative_to(root).as_posix())
        library = _loaded(root / NATIVE).build()
        if library is not None:
            build_data["artifacts"].append(library.relative_to(root).as_posix())
        core: list[Path] = []
        if self.target_name == "wheel" and version == "standard":
            compiled = root / "build" / "wheel-core"
            core = _loaded(root / CORE).build(compiled) or []
            for path in core:
                build_data["force_include"][str(compiled / path)] = path.as_posix()
        if library is not None or core:
            build_data["pure_python"] = False  # the wheel carries code compiled for this platform
            build_data["infer_tag"] = True


def _loaded(path: Path) -> ModuleType:
    """A build script loaded by its path: the package itself is not importable while it builds."""
    spec = importlib.util.spec_from_file_location(f"doko_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
