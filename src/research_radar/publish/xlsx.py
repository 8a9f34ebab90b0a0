"""The XLSX export: one worksheet of typed cells, written with XlsxWriter.

A findings export needs a few styles (a bold header, dates, times, hyperlinks), a frozen
header row, an auto-filter and column widths. XlsxWriter writes exactly that and imports in
a few milliseconds; openpyxl and lxml, which wrote it before, cost more to import than the
daily run spends writing every other file (issue #19). openpyxl stays a test dependency:
the tests read the workbook back with it.
"""

from __future__ import annotations

import io
import math
import re
import unicodedata
from collections.abc import Sequence
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import xlsxwriter

__all__ = ["build_xlsx", "save_xlsx"]

_DATE_COLUMNS = {"date"}
_TIME_COLUMNS = {"version_date"}
_URL_COLUMNS = {"url"}
_TEXT_COLUMNS = {"project", "canonical_key", "url", "pinned_version", "evidence_id"}
"""Never numbers, even when every value looks like one (a SHA of digits, a name "2048")."""

_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
"""Characters XML 1.0 cannot hold, even escaped: left out of cells."""
_URL_LIMIT = 2079
"""The longest hyperlink Excel keeps; a longer URL is written as plain text."""


def _display_width(text: str) -> int:
    if text.isascii():  # no ASCII character is wide: the common case, in one call (#19)
        return len(text)
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def _number(text: str) -> int | float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    if not math.isfinite(value):
        return None
    return (
        int(value) if value.is_integer() and "." not in text and "e" not in text.lower() else value
    )


Value = str | int | float | date | datetime | None


def _value(column: str, text: str, numeric: bool) -> Value:
    """A typed cell value: dates as dates, times as (UTC) times, numbers as numbers."""
    if not text:
        return None
    if column in _DATE_COLUMNS:
        return date.fromisoformat(text)
    if column in _TIME_COLUMNS:
        moment = datetime.fromisoformat(text)
        return moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment
    if numeric:
        return _number(text)
    return _ILLEGAL.sub("", text)


_NARROWEST, _WIDEST = 8, 60
"""The bounds of a column's width, in characters."""


def _width(typed: list[list[Value]], index: int) -> int:
    """A column's width in characters: its widest value plus 2, between 8 and 60.

    A text is at least as wide as it is long: a column with a text of 58 characters or
    more is as wide as it can be, and no width need be measured. Else each distinct
    text is measured once (a column repeats its labels, #19)."""
    texts = {str(row[index] or "") for row in typed}
    if max(map(len, texts)) >= _WIDEST - 2:
        return _WIDEST
    widest = max(map(_display_width, texts))
    return min(max(widest + 2, _NARROWEST), _WIDEST)


def _write(
    sheet: Any, formats: dict[str, Any], row: int, col: int, column: str, value: Value
) -> None:
    """One body cell, by type; a string is always written as a string (no formula)."""
    if isinstance(value, datetime | date):
        style = formats["time"] if column in _TIME_COLUMNS else formats["date"]
        sheet.write_datetime(row, col, value, style)
    elif isinstance(value, int | float):
        sheet.write_number(row, col, value)
    elif value is None:
        return
    elif (
        column in _URL_COLUMNS
        and value.startswith(("https://", "http://"))
        and len(value) <= _URL_LIMIT
    ):
        sheet.write_url(row, col, value, formats["link"], value)
    else:
        sheet.write_string(row, col, value)


def save_xlsx(
    path: Path, columns: list[str], rows: Sequence[Sequence[str]], *, sheet: str = "findings"
) -> None:
    """Write the workbook (`build_xlsx`) to `path`."""
    path.write_bytes(build_xlsx(columns, rows, sheet=sheet))


def build_xlsx(
    columns: list[str], rows: Sequence[Sequence[str]], *, sheet: str = "findings"
) -> bytes:
    """The workbook's bytes: typed cells, URLs as hyperlinks, text always text (a cell
    that starts with "=" is a string, so no formula runs and no apostrophe shows), a bold
    frozen header with an auto-filter, and each column as wide as its widest value.

    Returned rather than written, so that a forked process can build it while the run
    goes on, and the run write it once the report is saved (#19)."""
    numeric = {
        index
        for index, column in enumerate(columns)
        if column not in _DATE_COLUMNS | _TIME_COLUMNS | _TEXT_COLUMNS
        and any(row[index] for row in rows)
        and all(_number(row[index]) is not None for row in rows if row[index])
    }
    typed: list[list[Value]] = [list(columns)]
    for row in rows:
        cells = zip(columns, row, strict=True)
        typed.append([_value(col, text, i in numeric) for i, (col, text) in enumerate(cells)])
    output = io.BytesIO()
    workbook = xlsxwriter.Workbook(output, {"strings_to_urls": False})
    workbook.set_properties({"author": "Research Radar", "created": datetime.now(UTC)})
    formats = {
        "header": workbook.add_format({"bold": True, "valign": "top"}),
        "date": workbook.add_format({"num_format": "yyyy-mm-dd"}),
        "time": workbook.add_format({"num_format": "yyyy-mm-dd hh:mm"}),
        "link": workbook.get_default_url_format(),
    }
    worksheet = workbook.add_worksheet(sheet)
    for col, column in enumerate(columns):
        worksheet.write_string(0, col, column, formats["header"])
        worksheet.set_column(col, col, _width(typed, col))
    for number, row_values in enumerate(typed[1:], start=1):
        for col, (column, value) in enumerate(zip(columns, row_values, strict=True)):
            _write(worksheet, formats, number, col, column, value)
    worksheet.freeze_panes(1, 0)
    worksheet.autofilter(0, 0, len(typed) - 1, len(columns) - 1)
    workbook.close()
    return output.getvalue()
