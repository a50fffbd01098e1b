"""`Sheet` draws what Rich's `Table` draws for the same cells when they fit (each character, in
its style), and narrows its columns in its own order when they do not."""

from __future__ import annotations

import io
from collections.abc import Sequence

import pytest
from rich import box
from rich.cells import cell_len
from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

from doko_ledger.cli.sheet import Cell, Column, Sheet


def _console(width: int) -> Console:
    return Console(
        file=io.StringIO(), width=width, force_terminal=True, color_system="truecolor", highlight=False, markup=False
    )


def drawn(renderable: RenderableType, width: int) -> list[list[tuple[str, str]]]:
    """Each line as printed: its characters, each with its style (a blank's style unseen)."""
    console = _console(width)
    console.print(renderable)
    assert isinstance(console.file, io.StringIO)
    lines = []
    for printed in console.file.getvalue().splitlines():
        text = Text.from_ansi(printed)
        shown = [(ch, "" if ch == " " else str(s.style or "none")) for s in text.render(console) for ch in s.text]
        lines.append(shown)
    return lines


def plain(lines: list[list[tuple[str, str]]]) -> list[str]:
    return ["".join(ch for ch, _ in line).rstrip() for line in lines]


def as_rich(columns: Sequence[Column], rows: Sequence[Sequence[Cell]], **options: object) -> Table:
    """The same table made with Rich's `Table`."""
    title, caption = options.get("title"), options.get("caption")
    table = Table(
        title=title if isinstance(title, str) else None,
        caption=caption if isinstance(caption, str) else None,
        title_justify="left",
        caption_justify="left",
        box=box.HEAVY_HEAD if options.get("ruled", True) else None,
        show_header=bool(options.get("header", True)),
    )
    for column in columns:
        table.add_column(column.header, justify="right" if column.right else "left", no_wrap=not column.wraps)
    for row in rows:
        table.add_row(*row)
    return table


def as_sheet(columns: Sequence[Column], rows: Sequence[Sequence[Cell]], **options: object) -> Sheet:
    title, caption = options.get("title"), options.get("caption")
    sheet = Sheet(
        columns,
        title=title if isinstance(title, str) else None,
        caption=caption if isinstance(caption, str) else None,
        ruled=bool(options.get("ruled", True)),
        header=bool(options.get("header", True)),
    )
    for row in rows:
        sheet.add_row(*row)
    return sheet


def points(value: int, total: int) -> Text:
    """A sheet's cell as the standings write it: the deal's points in colour, the total dim."""
    cell = Text(f"{value:+d}", style="green" if value > 0 else "red" if value < 0 else "")
    cell.append(f" Σ{total:+d}", style="dim")
    return cell


PLAYERS = ["Anna", "Ben", "Clara", "王小明"]
NIGHT_COLUMNS = [
    Column("#", right=True),
    Column("match", right=True),
    Column("game", wraps=True),
    Column("dealer"),
    Column("×", right=True),
    *(Column(p, right=True) for p in PLAYERS),
]
NIGHT_ROWS: list[list[Cell]] = [
    ["1", "1", "normal", "Anna", Text(""), points(-4, -4), points(4, 4), points(-4, -4), points(4, 4)],
    ["2▸", "1", "heart_solo (Clara)", "Ben", Text("2", style="magenta"), *(points(v, v) for v in (-8, -8, 24, -8))],
    ["3", "1", "thrown in", "王小明", Text(""), Text("·", style="dim"), Text(""), points(0, 24), points(0, -4)],
]

CASES: dict[str, tuple[list[Column], list[list[Cell]], dict[str, object]]] = {
    "a night's sheet": (NIGHT_COLUMNS, NIGHT_ROWS, {"title": "card night n of 2026-11-28", "caption": "each player"}),
    "a title and caption wider than the table": (
        [Column("a"), Column("b", right=True)],
        [["x", "1"], ["yy", Text("-22", style="red")]],
        {"title": "a title much wider than the table it heads", "caption": "and a caption wider than the table too"},
    ),
    "no rules, no header": (
        [Column("player"), Column("chart"), Column("total", right=True)],
        [["Anna", Text("▁▂▃█", style="cyan"), points(3, 3)], ["", Text("from -4 to +8", style="dim"), ""]],
        {"title": "running totals", "ruled": False, "header": False},
    ),
    "no rules, a header, an empty column": (
        [Column("player"), Column("total", right=True), Column(""), Column("money", right=True)],
        [
            ["Dirk", points(24, 24), Text("owes a solo", style="yellow"), "+€0.48"],
            ["Ben", points(0, 0), Text(""), "€0.00"],
        ],
        {"ruled": False},
    ),
    "no rows": ([Column("#", right=True), Column("game")], [], {"title": "empty"}),
}


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("width", [100, 200])
def test_a_sheet_that_fits_is_drawn_as_richs_table_draws_it(case: str, width: int) -> None:
    columns, rows, options = CASES[case]
    assert drawn(as_sheet(columns, rows, **options), width) == drawn(as_rich(columns, rows, **options), width)


def test_a_cell_whose_styles_overlap_is_drawn_as_rich_draws_it() -> None:
    cell = Text("+12 Σ+30", style="bold")
    cell.stylize("green", 0, 6)
    cell.stylize("underline", 2, 8)
    columns, rows = [Column("x", right=True), Column("y")], [[cell, Text("z")]]
    assert drawn(as_sheet(columns, rows), 80) == drawn(as_rich(columns, rows), 80)


def test_narrower_the_game_wraps_and_the_numbers_stay_whole() -> None:
    wide = plain(drawn(as_sheet(NIGHT_COLUMNS, NIGHT_ROWS), 200))
    narrow = plain(drawn(as_sheet(NIGHT_COLUMNS, NIGHT_ROWS), 76))
    assert max(map(cell_len, wide)) > 76 >= max(map(cell_len, narrow))  # it had to narrow, and did

    def cells(lines: list[str]) -> list[list[str]]:
        return [[c.strip() for c in line.split("│")[1:-1]] for line in lines if line.startswith("│")]

    def numbers(lines: list[str]) -> list[list[str]]:
        return [row[:2] + row[4:] for row in cells(lines) if row[0]]

    assert numbers(narrow) == numbers(wide)  # the deal, the match, the bock and every player's points
    assert [row[2] for row in cells(narrow)] == ["normal", "heart_solo", "(Clara)", "thrown in"]  # words whole
    [header] = [line for line in narrow if line.startswith("┃")]  # on one line
    assert "match" not in header and "ma…" in header  # a header wider than its numbers is cut first


def test_too_narrow_for_every_number_the_widest_cells_are_cut() -> None:
    lines = plain(drawn(as_sheet(NIGHT_COLUMNS, NIGHT_ROWS), 60))
    assert max(map(cell_len, lines)) <= 60
    assert "│ -4 Σ… │ +4 Σ… │" in "\n".join(lines)


def test_a_row_of_the_wrong_length_is_refused() -> None:
    sheet = Sheet([Column("a"), Column("b")])
    with pytest.raises(ValueError, match="1 cells for 2 columns"):
        sheet.add_row("x")
