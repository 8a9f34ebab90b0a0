"""A line reader for the pipe tables of plain Markdown: markdown-it's tables, found fast (#19).

A long history (20,000 rows) spent most of its parsing in markdown-it's block parser.
`read_pipe_tables` reads the text line by line instead, but only when every line is one
whose block markdown-it decides on its first character: blank, an ATX heading, a one-line
HTML comment, a pipe-table line (`|` in column 0), a paragraph line that can start no
other block and holds no `|`, or a list item of one such paragraph (the house report's
bullets and numbered entries). Anything else (quotes, code, indentation, nested lists...)
returns None and the caller asks markdown-it. Cells are split, trimmed and padded as
markdown-it's table rule does (tested equal on the fixtures and sample reports).

A list item ends a table (markdown-it's list rule interrupts one); a `|` line right after
a list item's paragraph is that paragraph's lazy continuation in markdown-it, not a
table, so there the reader gives up too. A heading holding a `|` heads no table unless a
delimiter row follows it (then markdown-it decides).
"""

from __future__ import annotations

import re

from markdown_it.common.utils import mdTrim
from markdown_it.rules_block.table import MAX_AUTOCOMPLETED_CELLS, escapedSplit

__all__ = ["read_pipe_tables"]

_OTHER_BREAKS = re.compile(r"[\r\0\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")
"""Characters markdown-it reads differently from a plain `\\n` split (or rewrites)."""
_HEADING = re.compile(r"#{1,6}(?:[ \t]|$)")
_PARAGRAPH_START = re.compile(r"[^\s#>\-+*_=<`~\[|:0-9]")
"""A first character that starts no block but a paragraph."""
_SEPARATOR = re.compile(r"[-:|][-:|\t ]*")
_ALIGN = re.compile(r":?-+:?")
_LIST_ITEM = re.compile(r"(?:[-+*]|[0-9]{1,9}[.)]) {1,4}(?:[^\s#>\-+*_=<`~\[|:0-9]|\*\*[^\s*])")
"""A bullet or numbered item whose text starts a paragraph (`**` opens bold, not a list)."""


def read_pipe_tables(text: str) -> list[tuple[int, list[list[str]]]] | None:
    """The pipe tables of plain Markdown as (0-based line of the header, rows of cells; the
    header first), or None when the text is not plain enough to be read line by line."""
    if _OTHER_BREAKS.search(text):
        return None
    lines = text.split("\n")
    if not all(map(_plain, lines)):
        return None
    tables: list[tuple[int, list[list[str]]]] = []
    index = 0
    in_item = False
    """Inside a list item's paragraph, which a `|` line would continue."""
    while index < len(lines):
        line = lines[index]
        if not line.startswith("|"):
            if _LIST_ITEM.match(line):
                in_item = True
            elif not line.strip(" \t") or _HEADING.match(line) or _comment(line):
                in_item = False
                if "|" in line and index + 1 < len(lines) and _aligns(lines[index + 1]) is not None:
                    return None  # a heading a delimiter row follows: it could head a table
            index += 1
            continue
        table = None if in_item else _table(lines, index)
        if table is None:
            return None  # a `|` line that starts no table: markdown-it decides
        tables.append((index, table[0]))
        index, in_item = table[1], False
    return tables


def _plain(line: str) -> bool:
    if line.startswith("|") or not line.strip(" \t"):
        return True
    if _HEADING.match(line):
        return True  # one holding a `|` is checked against the next line
    if "|" in line:
        return False  # it could head a table
    return bool(_comment(line) or _PARAGRAPH_START.match(line) or _LIST_ITEM.match(line))


def _comment(line: str) -> bool:
    """A whole HTML comment block on one line (markdown-it's HTML block 2 ends on `-->`)."""
    return line.startswith("<!--") and "-->" in line


def _split(line: str) -> list[str]:
    cells = line.split("|") if "\\" not in line else escapedSplit(line)
    if cells and cells[0] == "":
        cells.pop(0)
    if cells and cells[-1] == "":
        cells.pop()
    return cells


def _aligns(line: str) -> int | None:
    """How many columns a separator line sets, as markdown-it's table rule checks it."""
    if len(line) < 2 or not _SEPARATOR.fullmatch(line) or line[:2] in ("- ", "-\t"):
        return None
    parts = line.split("|")
    count = 0
    for at, part in enumerate(parts):
        trimmed = mdTrim(part)
        if not trimmed:
            if at in (0, len(parts) - 1):
                continue
            return None
        if not _ALIGN.fullmatch(trimmed):
            return None
        count += 1
    return count


def _table(lines: list[str], start: int) -> tuple[list[list[str]], int] | None:
    """The rows of the table headed at `start`, and the line after it; None if none is."""
    if start + 1 >= len(lines):
        return None
    header = _split(mdTrim(lines[start]))
    width = len(header)
    if not width or _aligns(lines[start + 1]) != width:
        return None
    rows = [[mdTrim(cell) for cell in header]]
    autocompleted = 0
    index = start + 2
    while index < len(lines):
        line = mdTrim(lines[index])
        if not line or _HEADING.match(lines[index]) or _comment(lines[index]):
            break
        if _LIST_ITEM.match(lines[index]):
            break  # a list interrupts a table
        cells = _split(line)
        autocompleted += width - len(cells)
        if autocompleted > MAX_AUTOCOMPLETED_CELLS:
            break
        cells = [mdTrim(cell) for cell in cells[:width]]
        rows.append(cells + [""] * (width - len(cells)))
        index += 1
    return rows, index
