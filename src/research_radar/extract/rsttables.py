"""reStructuredText tables -> their rows, each cell with its span, and each row with its line.

Pure. A building block of `research_radar.extract.rstview`; callers outside this package
use `research_radar.extract.claims` instead. The four table forms of reStructuredText
(issue #14):

- grid tables (`+----+----+`) and simple tables (`=====  =====`), parsed by docutils' own
  table parsers, which give each cell its span and its first line in the block;
- `.. list-table::` (a two-level bullet list) and `.. csv-table::` (rows of CSV, with a
  `:header:` option), read here.

A table is given as `RstTable`: header rows first (`head` of them), then the body rows.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from dataclasses import dataclass

__all__ = [
    "Cell",
    "RstTable",
    "csv_table",
    "grid_table_end",
    "list_table",
    "read_grid_or_simple",
    "simple_table_end",
]


@dataclass(frozen=True)
class Cell:
    """One cell of a table, as written (its lines joined with spaces)."""

    text: str
    rowspan: int = 1
    colspan: int = 1


@dataclass(frozen=True)
class RstTable:
    """The rows of one table, each `(index of its first line in the document, cells)`."""

    rows: list[tuple[int, list[Cell]]]
    head: int
    """How many rows, from the first, are header rows."""


GRID_BORDER = re.compile(r"\s*\+(?:[-=]+\+)+\s*")
"""`+------+-----+`: a grid table's top border (or a row's, or `+====+` under the header)."""
SIMPLE_BORDER = re.compile(r"\s*=+(?: +=+)+\s*")
"""`=====  =====`: a simple table's border, two columns or more."""


def grid_table_end(lines: list[str], start: int) -> int:
    """The index of the last line of the grid table whose top border is `lines[start]`
    (`start` when the line below is not a row of one)."""
    indent = _indent(lines[start])
    end = start
    for index in range(start + 1, len(lines)):
        body = lines[index][indent:]
        if lines[index][:indent].strip() or not body.startswith(("|", "+")):
            break
        end = index
    return end if end > start and GRID_BORDER.fullmatch(lines[end]) else start


def simple_table_end(lines: list[str], start: int) -> int:
    """The index of the border that closes the simple table opened at `lines[start]`: the
    first border, after the one under the header, followed by a blank line or the end
    (`start` when there is none)."""
    borders = 0
    for index in range(start + 1, min(len(lines), start + 2000)):
        if SIMPLE_BORDER.fullmatch(lines[index]):
            borders += 1
            below = lines[index + 1] if index + 1 < len(lines) else ""
            if not below.strip():
                return index
        elif not lines[index].strip() and borders == 0 and index == start + 1:
            return start
    return start


def read_grid_or_simple(lines: list[str], start: int, end: int) -> RstTable | None:
    """The rows of the grid or simple table on `lines[start : end + 1]` (None when docutils
    finds it malformed)."""
    # imported here: docutils takes a tenth of a second to import, which a run that reads
    # no reStructuredText table should not pay (issue #19)
    from docutils import DataError
    from docutils.parsers.rst.tableparser import GridTableParser, SimpleTableParser
    from docutils.statemachine import StringList

    indent = _indent(lines[start])
    block = StringList([line[indent:].rstrip() for line in lines[start : end + 1]])
    grid = lines[start].lstrip().startswith("+")
    parser = GridTableParser() if grid else SimpleTableParser()
    try:
        _, head_rows, body_rows = parser.parse(block)
    except (DataError, AssertionError, IndexError, ValueError):
        return None  # (a grid whose cells do not meet fails one of docutils' assertions)
    rows = [_row(start, row) for row in [*head_rows, *body_rows]]
    kept = [row for row in rows if row is not None]
    if not kept:
        return None
    return RstTable(kept, sum(1 for row in rows[: len(head_rows)] if row is not None))


def _row(
    start: int, row: list[tuple[int, int, int, list[str]] | None]
) -> tuple[int, list[Cell]] | None:
    """A docutils table row (`(morerows, morecols, offset, lines)` per cell, None where a
    cell above or to the left spans it) -> its first line and its cells."""
    cells: list[Cell] = []
    offsets: list[int] = []
    for cell in row:
        if cell is None:
            continue  # spanned: the cell that spans it carries its text
        more_rows, more_cols, offset, text = cell
        offsets.append(int(offset))
        joined = " ".join(line.strip() for line in text if line.strip())
        joined = "" if joined == "\\" else joined  # `\`: an empty first cell, escaped
        cells.append(Cell(joined, int(more_rows) + 1, int(more_cols) + 1))
    if not cells:
        return None
    return start + min(offsets), cells


_BULLET = re.compile(r"([-*+•])(?:\s+|$)")


def list_table(lines: list[str], start: int, end: int, head: int) -> RstTable | None:
    """The rows of a `.. list-table::`'s content on `lines[start : end + 1]`: a bullet per
    row, a nested bullet per cell."""
    rows: list[tuple[int, list[Cell]]] = []
    row_indent = -1
    cell_indent = -1
    parts: list[str] = []
    open_cell = False

    def close_cell() -> None:
        nonlocal open_cell
        if rows and open_cell:
            rows[-1][1].append(Cell(" ".join(parts)))
        parts.clear()
        open_cell = False

    for index in range(start, end + 1):
        line = lines[index]
        if not line.strip():
            continue
        indent = _indent(line)
        text = line[indent:]
        if row_indent < 0:
            row_indent = indent
        if indent == row_indent and _BULLET.match(text):
            close_cell()
            rows.append((index, []))
            text = text[1:].lstrip()
            indent = len(line) - len(text)
            if not text:
                continue
        if not rows:
            return None  # content that does not start with a row's bullet
        bullet = _BULLET.match(text)
        if bullet and (cell_indent < 0 or indent <= cell_indent):
            close_cell()
            cell_indent, open_cell = indent, True
            text = text[bullet.end() :]
        if text.strip():
            parts.append(text.strip())
    close_cell()
    if not rows:
        return None
    return RstTable(rows, min(head, len(rows)))


def csv_table(
    lines: list[str],
    start: int,
    end: int,
    head: int,
    header: tuple[int, str] | None,
    delimiter: str = ",",
) -> RstTable | None:
    """The rows of a `.. csv-table::`'s content on `lines[start : end + 1]`, after the
    header row its `:header:` option writes (`header`: that option's line and value)."""
    rows: list[tuple[int, list[Cell]]] = []
    if header is not None:
        for _, written in _csv_records([header[1]], delimiter):
            rows.append((header[0], [Cell(c) for c in written]))
    for at, cells in _csv_records(lines[start : end + 1], delimiter):
        if any(cells):
            rows.append((start + at, [Cell(c) for c in cells]))
    if not rows:
        return None
    return RstTable(rows, min(len(rows), head + (1 if header is not None else 0)))


def _csv_records(lines: list[str], delimiter: str) -> Iterator[tuple[int, list[str]]]:
    """Records of CSV lines, each with the index of the line it starts on."""
    stripped = (line.strip() for line in lines)
    reader = csv.reader(stripped, delimiter=delimiter, skipinitialspace=True)
    read = 0
    try:
        for record in reader:
            yield read, [cell.strip() for cell in record]
            read = reader.line_num
    except csv.Error:
        return  # an unclosed quote: the records before it stand


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())
