"""A table drawn in one pass: each column as wide as its widest cell, Rich's heavy-headed box
(or none), each line written as segments. It draws what Rich's `Table` draws for the same
cells, without its general layout (every cell measured and rendered through padding,
wrapping and cropping), which made laying out a night's sheet cost more than the night's own
work. When the table is wider than the terminal, the columns narrow in this order: a column
that wraps (the game) down to its longest word, a header wider than its column's cells
(`mat…`), a column that wraps further, then the widest columns, cut with `…`."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise

from rich import box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

Cell = str | Text


@dataclass(frozen=True, slots=True)
class Column:
    """A column: its header, its cells to the right (numbers), whether they may wrap."""

    header: str
    right: bool = False
    wraps: bool = False


class Sheet:
    """A table of `columns` and the rows added, with an optional title above and caption below
    (as Rich writes a table's: italic, dim italic), ruled (a heavy-headed box) or not."""

    def __init__(
        self,
        columns: Sequence[Column],
        *,
        title: str | None = None,
        caption: str | None = None,
        ruled: bool = True,
        header: bool = True,
    ) -> None:
        self.columns = tuple(columns)
        self.title, self.caption, self.ruled, self.header = title, caption, ruled, header
        self.rows: list[tuple[Cell, ...]] = []

    def add_row(self, *cells: Cell) -> None:
        if len(cells) != len(self.columns):
            raise ValueError(f"{len(cells)} cells for {len(self.columns)} columns")
        self.rows.append(cells)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        header_style = console.get_style("table.header")
        heads = [Text(c.header, style=header_style) for c in self.columns] if self.header else None
        body = [[_width(cell) for cell in row] for row in self.rows]
        borders = len(self.columns) + 1 if self.ruled else 0
        widths = _fit(self.columns, heads, self.rows, body, options.max_width - borders - 2 * len(self.columns))
        padded = [w + 2 for w in widths]
        around = options.update(width=sum(padded) + borders, height=None)
        if self.title:
            title = Text(self.title, style=console.get_style("table.title"), justify="left")
            yield from console.render(title, around)
        rules = box.HEAVY_HEAD.substitute(options, safe=console.safe_box) if self.ruled else None
        if rules is not None:
            yield Segment(rules.get_top(padded))
            yield Segment.line()
        if heads is not None:
            divider = rules.head_vertical if rules else None
            yield from self._row(console, heads, widths, divider, header_style, bottom=True)
            if rules is not None:
                yield Segment(rules.get_row(padded, "head"))
                yield Segment.line()
        for index, row in enumerate(self.rows):
            last = index == len(self.rows) - 1
            divider = None if rules is None else rules.foot_vertical if last else rules.mid_vertical
            yield from self._row(console, row, widths, divider, None, bottom=False)
        if rules is not None:
            yield Segment(rules.get_bottom(padded))
            yield Segment.line()
        if self.caption:
            caption = Text(self.caption, style=console.get_style("table.caption"), justify="left")
            yield from console.render(caption, around)

    def _row(
        self,
        console: Console,
        cells: Sequence[Cell],
        widths: Sequence[int],
        divider: str | None,
        style: Style | None,
        *,
        bottom: bool,
    ) -> Iterator[Segment]:
        """The lines of a row: each cell padded by a space each side, a header's lines at the
        bottom of the row and a body's at the top, the columns between `divider`s."""
        laid = [
            _lines(console, cell, width, column.wraps and not bottom)  # a header is cut, not wrapped
            for cell, width, column in zip(cells, widths, self.columns, strict=True)
        ]
        height = max(len(lines) for lines in laid)
        edge = [Segment(divider)] if divider is not None else []
        for number in range(height):
            line = list(edge)
            for column, (lines, width) in enumerate(zip(laid, widths, strict=True)):
                if column:
                    line += edge
                at = number - (height - len(lines) if bottom else 0)
                cell = lines[at] if 0 <= at < len(lines) else ""
                fill = " " * (width - _width(cell))
                right = self.columns[column].right
                line.append(Segment(" " + fill if right else " ", style))
                line += _segments(console, cell, style)
                line.append(Segment(" " if right else fill + " ", style))
            yield from Segment.simplify(line + edge)
            yield Segment.line()


def _segments(console: Console, cell: Cell, style: Style | None) -> Iterable[Segment]:
    """A cell's text as segments: its spans (that do not overlap) each in its style added to the
    text's (what Rich's rendering of the text gives, without its general case)."""
    if not isinstance(cell, Text):
        return (Segment(cell, style),)
    plain, base = cell.plain, console.get_style(cell.style) if cell.style else style
    if not cell.spans:
        return (Segment(plain, base),)
    spans = sorted(cell.spans)
    if any(a.end > b.start for a, b in pairwise(spans)):
        return cell.render(console)  # spans that overlap: Rich's own rendering
    segments, at = [], 0
    for span in spans:
        style = console.get_style(span.style)
        segments += [Segment(plain[at : span.start], base), Segment(plain[span.start : span.end], _add(base, style))]
        at = span.end
    segments.append(Segment(plain[at:], base))
    return [s for s in segments if s.text]


def _add(base: Style | None, style: Style) -> Style:
    return base + style if base is not None else style


def _width(cell: Cell) -> int:
    return cell.cell_len if isinstance(cell, Text) else cell_len(cell)


def _lines(console: Console, cell: Cell, width: int, wraps: bool) -> list[Cell]:
    """A cell's lines at `width`: as it is when it fits, else wrapped (`wraps`) or cut with `…`."""
    if _width(cell) <= width:
        return [cell]
    text = cell if isinstance(cell, Text) else Text(cell)
    if wraps:
        return list(text.wrap(console, width, overflow="fold"))
    cut = text.copy()
    cut.truncate(width, overflow="ellipsis")
    return [cut]


def _fit(
    columns: Sequence[Column],
    heads: Sequence[Text] | None,
    rows: Sequence[Sequence[Cell]],
    body: Sequence[Sequence[int]],
    room: int,
) -> list[int]:
    """Each column's width: its widest cell's (the header's too), narrowed as the module says
    while the columns are wider together than `room`."""
    cells = [max((row[i] for row in body), default=0) for i in range(len(columns))]
    widths = [max(cells[i], heads[i].cell_len if heads else 0) for i in range(len(columns))]
    if sum(widths) <= room:
        return widths
    words = [
        max((cell_len(word) for row in rows for word in str(row[i]).split()), default=1) if c.wraps else widths[i]
        for i, c in enumerate(columns)
    ]
    for floors in (
        words,
        [max(cells[i], 2) if not c.wraps else words[i] for i, c in enumerate(columns)],
        [min(3, words[i]) if c.wraps else max(cells[i], 2) for i, c in enumerate(columns)],
        [1] * len(columns),
    ):
        excess = sum(widths) - room
        while excess > 0:
            wider = [i for i, w in enumerate(widths) if w > floors[i]]
            if not wider:
                break
            widest = max(wider, key=lambda i: (widths[i], i))
            widths[widest] -= 1
            excess -= 1
        if excess <= 0:
            break
    return widths
