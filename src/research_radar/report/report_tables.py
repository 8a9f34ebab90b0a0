"""The tables of a house-style report as written: GitHub pipe tables (read line by line,
or by markdown-it when a line is not plain) and the plain-text export's tab-separated
tables, each with its header, its rows as column -> cell text and the section above it."""

from __future__ import annotations

from dataclasses import dataclass

from markdown_it import MarkdownIt

from research_radar.report.pipe_tables import read_pipe_tables

__all__ = ["ParsedTable", "markdown_it_tables", "read_tables"]

_MD = MarkdownIt("commonmark").enable("table").disable("inline")


@dataclass
class ParsedTable:
    """One table: its header cells and rows as column -> cell text."""

    columns: list[str]
    rows: list[dict[str, str]]
    line: int
    """1-based line of the header within the report text."""
    section: str = ""
    markdown: bool = False
    """True for a GitHub pipe table (a separator line follows the header)."""


def read_tables(text: str, lines: list[str]) -> list[ParsedTable]:
    """Every table of a report's text (`lines` is the text split into lines): pipe tables
    first, then tab-separated ones."""
    return _markdown_tables(text, lines) + _tab_tables(lines)


def _section_at(lines: list[str], index: int) -> str:
    for line in reversed(lines[:index]):
        stripped = line.strip()
        if stripped.startswith("#"):
            return stripped.lstrip("#").strip()
        if stripped and "\t" not in stripped and "|" not in stripped and len(stripped) <= 60:
            return stripped
    return ""


def _clean_cell(cell: str) -> str:
    return cell.replace("<br>", "\n").replace("<br/>", "\n").replace("\\|", "|").strip()


def _markdown_tables(text: str, lines: list[str]) -> list[ParsedTable]:
    tables: list[ParsedTable] = []
    found = read_pipe_tables(text)  # plain Markdown, read line by line (#19)
    if found is None:
        found = markdown_it_tables(text)
    for start, (columns, *body) in found:
        columns = _unique([_clean_cell(cell) for cell in columns])
        rows = [
            dict(
                zip(columns, _pad([_clean_cell(cell) for cell in cells], len(columns)), strict=True)
            )
            for cells in body
        ]
        tables.append(
            ParsedTable(columns, rows, start + 1, _section_at(lines, start), markdown=True)
        )
    return tables


def markdown_it_tables(text: str) -> list[tuple[int, list[list[str]]]]:
    """markdown-it's pipe tables: (0-based line of the header, rows of cells, header first)."""
    tables: list[tuple[int, list[list[str]]]] = []
    try:
        tokens = _MD.parse(text)
    except Exception:  # noqa: BLE001 - a parser bug must not crash a review
        return tables
    current: list[list[str]] | None = None
    row: list[str] = []
    start = 0
    for token in tokens:
        if token.type == "table_open":
            current, start = [], (token.map[0] if token.map else 0)
        elif token.type == "tr_open":
            row = []
        elif token.type == "inline" and current is not None:
            row.append(token.content)
        elif token.type == "tr_close" and current is not None:
            current.append(row)
        elif token.type == "table_close" and current:
            tables.append((start, current))
            current = None
    return tables


def _tab_tables(lines: list[str]) -> list[ParsedTable]:
    tables: list[ParsedTable] = []
    index = 0
    while index < len(lines):
        if lines[index].count("\t") >= 1 and not lines[index].lstrip().startswith("|"):
            columns = _unique([cell.strip() for cell in lines[index].split("\t")])
            rows, cursor = [], index + 1
            while cursor < len(lines) and lines[cursor].count("\t") >= 1:
                cells = [_clean_cell(cell) for cell in lines[cursor].split("\t")]
                rows.append(dict(zip(columns, _pad(cells, len(columns)), strict=True)))
                cursor += 1
            tables.append(ParsedTable(columns, rows, index + 1, _section_at(lines, index)))
            index = cursor
        else:
            index += 1
    return tables


def _unique(columns: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    result = []
    for column in columns:
        name = column or "col"
        if name in seen:
            seen[name] += 1
            name = f"{name} ({seen[name]})"
        else:
            seen[name] = 1
        result.append(name)
    return result


def _pad(cells: list[str], width: int) -> list[str]:
    if len(cells) > width:
        return cells[: width - 1] + ["\t".join(cells[width - 1 :])]
    return cells + [""] * (width - len(cells))
