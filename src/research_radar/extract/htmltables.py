"""HTML `<table>` blocks in Markdown: their rows, with rowspan and colspan filled in.

Pure. A building block of `research_radar.extract.markdown`; callers outside this package
use `research_radar.extract.claims` instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser

__all__ = ["HtmlTable", "parse_html_table", "table_end", "valued_header"]


def table_end(lines: list[str], start: int) -> int:
    """The index of the line that closes the `<table>` opened at `start`."""
    for index in range(start, min(len(lines), start + 2000)):
        if re.search(r"</table\s*>", lines[index], re.I):
            return index
    return start


class _TableParser(HTMLParser):
    """Rows of one HTML table: cells with their text, line, rowspan and colspan."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[list[tuple[str, int, int, int, bool]]] = []
        self.head_rows: set[int] = set()
        """The rows written inside `<thead>` (by index in `rows`)."""
        self._in_head = False
        self._cell: list[str] | None = None
        self._span = (1, 1, False)
        self._line = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "thead":
            self._in_head = True
        elif tag in ("tbody", "tfoot"):
            self._in_head = False
        elif tag == "tr":
            self.rows.append([])
            if self._in_head:
                self.head_rows.add(len(self.rows) - 1)
        elif tag in ("td", "th"):
            if not self.rows:
                self.rows.append([])
            found = dict(attrs)
            self._cell = []
            self._line = self.getpos()[0]
            self._span = (_span(found.get("rowspan")), _span(found.get("colspan")), tag == "th")
        elif tag == "br" and self._cell is not None:
            self._cell.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag == "thead":
            self._in_head = False
        if tag in ("td", "th") and self._cell is not None and self.rows:
            text = " ".join("".join(self._cell).split())
            self.rows[-1].append((text, self._line, *self._span))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def _span(raw: str | None) -> int:
    try:
        return max(1, min(int(raw or 1), 50))
    except ValueError:
        return 1


@dataclass(frozen=True)
class HtmlTable:
    """The rows of an HTML table, each `(line, cells, copies)`: rowspan and colspan cells
    filled in, `copies` the cells that repeat the cell before them (`colspan`)."""

    rows: list[tuple[int, list[str], frozenset[int]]]
    headed: bool
    """The first row is a header (`<th>` cells, or no number in it)."""
    head_rows: int = 1
    """How many rows, from the first, are written in the table's `<thead>` (1 without one)."""


def parse_html_table(block: list[str], first_line: int) -> HtmlTable | None:
    """The rows of one `<table>` block (None when it holds no cell or does not parse)."""
    parser = _TableParser()
    try:
        parser.feed("\n".join(block))
        parser.close()
    except (AssertionError, ValueError):
        return None
    grid: list[tuple[int, list[str], frozenset[int]]] = []
    pending: dict[int, tuple[str, int, bool]] = {}
    head_rows = 0
    for index, row in enumerate(parser.rows):
        cells: list[str] = []
        copies: set[int] = set()
        line = row[0][1] if row else 0
        queue = list(row)
        if queue and not any(th for *_, th in queue):
            # a header cell spans header rows only: `<th rowspan="2">` over a body row
            # (no second header row written) leaves the body row as it is
            pending = {c: cell for c, cell in pending.items() if not cell[2]}
        column = 0
        while queue or column in pending:
            if column in pending:
                text, left, head = pending[column]
                cells.append(text)
                if left > 1:
                    pending[column] = (text, left - 1, head)
                else:
                    del pending[column]
                column += 1
                continue
            text, _, rowspan, colspan, head = queue.pop(0)
            for span in range(colspan):
                cells.append(text)
                if span:
                    copies.add(column)
                if rowspan > 1:
                    pending[column] = (text, rowspan - 1, head)
                column += 1
        if any(cells):
            grid.append((first_line + line - 1, cells, frozenset(copies)))
            if index in parser.head_rows and head_rows == len(grid) - 1:
                head_rows += 1
    if not grid:
        return None
    first = parser.rows[0] if parser.rows else []
    headed = all(th for *_, th in first) or not any(_NUMERIC.search(c) for c in grid[0][1])
    return HtmlTable(grid, headed, max(1, head_rows))


_NUMERIC = re.compile(r"^\s*[~≈]?\d[\d,.]*\s*(?:[%x×]|[A-Za-z/]+)?\s*$")


_HEAD_VALUE = re.compile(r"\d{1,6}(?:\.\d+)?[Kk]?")
"""A header cell that is a bare value (`8`, `32K`), the value of the group header above."""


def valued_header(group: tuple[str, ...], cells: list[str]) -> tuple[str, ...]:
    """`<th colspan=3>Number of GPUs</th>` over `<th>1</th><th>2</th><th>4</th>` in a
    table's `<thead>`: the header `Number of GPUs: 1 | Number of GPUs: 2 | ...`, each
    column with its value of what the group header names; () when the row below is
    not such a row of values (then it stays a row of its own, as before). Both rows
    are given as cleaned text."""
    values = [c for c, (over, cell) in enumerate(zip(group, cells, strict=False)) if cell != over]
    if len(values) < 2 or not all(_HEAD_VALUE.fullmatch(cells[c]) for c in values):
        return ()
    return tuple(
        f"{over}: {cell}" if c in values else over
        for c, (over, cell) in enumerate(zip(group, cells, strict=False))
    )
