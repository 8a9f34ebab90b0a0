"""The XLSX writer, read back with openpyxl: typed cells, styles, links and layout."""

from __future__ import annotations

import zipfile
from datetime import date, datetime
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from openpyxl import load_workbook

from research_radar.publish.xlsx import save_xlsx

COLUMNS = ["date", "project", "url", "version_date", "priority", "score", "note", "wide"]
ROWS = [
    [
        "2026-01-05",
        '=HYPERLINK("http://evil")',
        "https://example.org/a?q=1&r=<2>",
        "2026-07-03T08:58:15.250000+08:00",
        "3",
        "0.5",
        "  lead & <tail> ",
        "中文宽字符很宽",
    ],
    ["1900-02-28", "2048", "ftp://not.a.link", "", "12", "2", "a\r\nb\tc 中文", "a"],
    ["1900-03-01", "plain", "", "2026-07-03T08:58:15", "", "-1.25", "bell\x07 and \x1b gone", ""],
]


@pytest.fixture
def sheet(tmp_path: Path) -> Any:
    path = tmp_path / "t.xlsx"
    save_xlsx(path, COLUMNS, ROWS)
    return load_workbook(path).active


def _row(sheet: Any, number: int) -> dict[str, Any]:
    return {COLUMNS[i]: cell for i, cell in enumerate(sheet[number])}


def test_header_is_bold_frozen_and_filtered(sheet: Any) -> None:
    assert sheet.title == "findings"
    assert [cell.value for cell in sheet[1]] == COLUMNS
    assert all(cell.font.b and cell.alignment.vertical == "top" for cell in sheet[1])
    assert sheet.freeze_panes == "A2"
    assert sheet.auto_filter.ref == sheet.dimensions == "A1:H4"
    assert not any(cell.font.b for cell in sheet[2])


def test_cells_are_typed(sheet: Any) -> None:
    first, second, third = (_row(sheet, n) for n in (2, 3, 4))
    assert first["date"].is_date and first["date"].value == datetime(2026, 1, 5)
    # Excel's fictional 1900-02-29 lies between these two
    assert second["date"].value == datetime(1900, 2, 28)
    assert third["date"].value == datetime(1900, 3, 1)
    assert first["version_date"].is_date
    assert first["version_date"].value == datetime(2026, 7, 3, 0, 58, 15, 250000), "in UTC"
    assert third["version_date"].value == datetime(2026, 7, 3, 8, 58, 15), "naive: as given"
    assert second["version_date"].value is None
    assert [row["priority"].value for row in (first, second, third)] == [3, 12, None]
    assert [row["score"].value for row in (first, second, third)] == [0.5, 2, -1.25]
    assert second["project"].value == "2048" and second["project"].data_type == "s"


def test_text_is_kept_as_text(sheet: Any) -> None:
    first, second, third = (_row(sheet, n) for n in (2, 3, 4))
    assert first["project"].value == '=HYPERLINK("http://evil")'
    assert first["project"].data_type == "s", "a string, no formula"
    assert first["note"].value == "  lead & <tail> "
    # a carriage return is stored as OOXML's escape, which Excel and LibreOffice read back
    assert second["note"].value.replace("_x000D_", "\r") == "a\r\nb\tc 中文"
    assert third["note"].value == "bell and  gone", "characters XML cannot hold"


def test_web_urls_are_hyperlinks(sheet: Any) -> None:
    first, second, _ = (_row(sheet, n) for n in (2, 3, 4))
    assert first["url"].value == ROWS[0][2]
    assert unquote(first["url"].hyperlink.target) == ROWS[0][2], "the same URL, %-encoded"
    assert first["url"].font.u == "single"
    assert second["url"].hyperlink is None and second["url"].value == "ftp://not.a.link"


def test_columns_are_as_wide_as_their_widest_value(sheet: Any) -> None:
    # a stored width carries Excel's cell padding (12 characters are stored as 12.71...)
    widths = {
        COLUMNS[i]: int(sheet.column_dimensions[chr(65 + i)].width) for i in range(len(COLUMNS))
    }
    assert widths["date"] == len("2026-01-05") + 2
    assert widths["version_date"] == len("2026-07-03 00:58:15.250000") + 2
    assert widths["score"] == 8, "at least 8"
    assert widths["url"] == len(ROWS[0][2]) + 2
    assert widths["note"] == len("  lead & <tail> ") + 2
    assert widths["wide"] == 7 * 2 + 2, "wide characters count twice"


def test_header_only(tmp_path: Path) -> None:
    path = tmp_path / "empty.xlsx"
    save_xlsx(path, COLUMNS, [])
    sheet = load_workbook(path).active
    assert sheet.max_row == 1 and [cell.value for cell in sheet[1]] == COLUMNS
    names = zipfile.ZipFile(path).namelist()
    assert "xl/worksheets/_rels/sheet1.xml.rels" not in names, "no links, no relationships"


def test_dates_before_the_excel_leap_bug_and_after(tmp_path: Path) -> None:
    days = [date(1900, 1, 1), date(1900, 2, 28), date(1900, 3, 1), date(2026, 1, 5)]
    path = tmp_path / "days.xlsx"
    save_xlsx(path, ["date"], [[day.isoformat()] for day in days])
    values = [row[0].value for row in load_workbook(path).active.iter_rows(min_row=2)]
    assert [value.date() for value in values] == days
