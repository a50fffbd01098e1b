"""The package build compiles the message catalogs (`doko_ledger/locale/*/LC_MESSAGES/doko.po`
into `doko.mo`), so that a wheel, and an editable install, carry them: the `.po` files are
what the repository keeps."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from hatchling.builders.hooks.plugin.interface import BuildHookInterface


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
