"""The XLSX export, written directly: one worksheet of typed cells in a zip of XML parts.

A findings export needs a few styles (a bold header, dates, times, hyperlinks), a frozen
header row, an auto-filter and column widths; openpyxl and lxml, which wrote it before,
cost more to import than the daily run spends writing every other file (issue #19). The
workbook is the small SpreadsheetML package Excel, LibreOffice and openpyxl read: inline
strings, one fixed style sheet, no theme (colours are given as RGB).
"""

from __future__ import annotations

import math
import re
import unicodedata
import zipfile
from collections.abc import Sequence
from datetime import UTC, date, datetime
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

__all__ = ["save_xlsx"]

_DATE_COLUMNS = {"date"}
_TIME_COLUMNS = {"version_date"}
_URL_COLUMNS = {"url"}
_TEXT_COLUMNS = {"project", "canonical_key", "url", "pinned_version", "evidence_id"}
"""Never numbers, even when every value looks like one (a SHA of digits, a name "2048")."""

_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PACKAGE_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
_HYPERLINK = f"{_REL}/hyperlink"
_EPOCH = datetime(1899, 12, 30)
"""Day 0 of Excel's 1900 date system (serial 61 is 1900-03-01: its 29 February is fictional)."""

# cellXfs of the style sheet, by index
_HEADER, _DATE, _LINK, _TIME = 1, 2, 3, 4
_STYLES = (
    f'<styleSheet xmlns="{_MAIN}">'
    '<numFmts count="2"><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/>'
    '<numFmt numFmtId="165" formatCode="yyyy-mm-dd hh:mm"/></numFmts>'
    '<fonts count="3">'
    '<font><sz val="11"/><color rgb="FF000000"/><name val="Calibri"/><family val="2"/></font>'
    '<font><u/><sz val="11"/><color rgb="FF0563C1"/><name val="Calibri"/><family val="2"/></font>'
    '<font><b/><sz val="11"/><color rgb="FF000000"/><name val="Calibri"/><family val="2"/></font>'
    "</fonts>"
    '<fills count="2"><fill><patternFill patternType="none"/></fill>'
    '<fill><patternFill patternType="gray125"/></fill></fills>'
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
    '<cellStyleXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/>'
    '<xf numFmtId="0" fontId="1" fillId="0" borderId="0"/></cellStyleXfs>'
    '<cellXfs count="5"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
    '<xf numFmtId="0" fontId="2" fillId="0" borderId="0" xfId="0" applyFont="1" '
    'applyAlignment="1"><alignment vertical="top"/></xf>'
    '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
    '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="1" applyFont="1"/>'
    '<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
    "</cellXfs>"
    '<cellStyles count="2"><cellStyle name="Normal" xfId="0" builtinId="0"/>'
    '<cellStyle name="Hyperlink" xfId="1" builtinId="8"/></cellStyles>'
    "</styleSheet>"
)
_CONTENT_TYPES = (
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" '
    'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    '<Override PartName="/xl/styles.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>'
    '<Override PartName="/docProps/core.xml" '
    'ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>'
    '<Override PartName="/docProps/app.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>'
    "</Types>"
)
_ROOT_RELS = (
    f'<Relationships xmlns="{_PACKAGE_REL}">'
    f'<Relationship Id="rId1" Type="{_REL}/officeDocument" Target="xl/workbook.xml"/>'
    '<Relationship Id="rId2" '
    f'Type="{_PACKAGE_REL}/metadata/core-properties" Target="docProps/core.xml"/>'
    f'<Relationship Id="rId3" Type="{_REL}/extended-properties" Target="docProps/app.xml"/>'
    "</Relationships>"
)
_WORKBOOK_RELS = (
    f'<Relationships xmlns="{_PACKAGE_REL}">'
    f'<Relationship Id="rId1" Type="{_REL}/worksheet" Target="worksheets/sheet1.xml"/>'
    f'<Relationship Id="rId2" Type="{_REL}/styles" Target="styles.xml"/>'
    "</Relationships>"
)
_APP = (
    '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties">'
    "<Application>Research Radar</Application></Properties>"
)
_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
"""Characters XML 1.0 cannot hold, even escaped: left out of cells."""
_CR = {"\r": "&#13;"}
"""A carriage return kept as one (a reader turns a bare one into a line feed)."""


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


def _letter(index: int) -> str:
    """The column letters of a 0-based column index (0 -> A, 26 -> AA)."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def _serial(value: date | datetime) -> str:
    """Excel's serial day number of a date or a naive time."""
    moment = value if isinstance(value, datetime) else datetime.combine(value, datetime.min.time())
    delta = moment - _EPOCH
    days = delta.days - (1 if 0 < delta.days <= 60 else 0)
    return f"{days + (delta.seconds + delta.microseconds / 1e6) / 86400:.16g}"


def _cell(ref: str, value: Value, style: int) -> str:
    styled = f' s="{style}"' if style else ""
    if isinstance(value, str):
        space = ' xml:space="preserve"' if value != value.strip() else ""
        return f'<c r="{ref}"{styled} t="inlineStr"><is><t{space}>{escape(value, _CR)}</t></is></c>'
    if isinstance(value, date):
        return f'<c r="{ref}"{styled}><v>{_serial(value)}</v></c>'
    return f'<c r="{ref}"{styled}><v>{value:.16g}</v></c>'


def _sheet(columns: list[str], typed: list[list[Value]], links: list[tuple[str, str]]) -> str:
    """The worksheet XML; `links` gets each hyperlink cell's (reference, URL)."""
    last = f"{_letter(len(columns) - 1)}{len(typed)}"
    widths = [
        min(max(max(_display_width(str(row[i] or "")) for row in typed) + 2, 8), 60)
        for i in range(len(columns))
    ]
    out = [
        f'<worksheet xmlns="{_MAIN}" xmlns:r="{_REL}"><dimension ref="A1:{last}"/>'
        '<sheetViews><sheetView workbookViewId="0">'
        '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>'
        '<selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews>'
        '<sheetFormatPr defaultRowHeight="15"/><cols>',
        *(
            f'<col min="{i}" max="{i}" width="{width}" customWidth="1"/>'
            for i, width in enumerate(widths, start=1)
        ),
        "</cols><sheetData>",
    ]
    letters = [_letter(i) for i in range(len(columns))]
    for number, row in enumerate(typed, start=1):
        out.append(f'<row r="{number}">')
        for letter, column, value in zip(letters, columns, row, strict=True):
            if value is None:
                continue
            ref = f"{letter}{number}"
            style = _HEADER if number == 1 else 0
            if number > 1 and column in _DATE_COLUMNS:
                style = _DATE
            elif number > 1 and column in _TIME_COLUMNS:
                style = _TIME
            elif (
                number > 1
                and column in _URL_COLUMNS
                and str(value).startswith(("https://", "http://"))
            ):
                style = _LINK
                links.append((ref, str(value)))
            out.append(_cell(ref, value, style))
        out.append("</row>")
    out.append(f'</sheetData><autoFilter ref="A1:{last}"/>')
    if links:
        out.append("<hyperlinks>")
        out += [f'<hyperlink ref="{ref}" r:id="rId{n}"/>' for n, (ref, _) in enumerate(links, 1)]
        out.append("</hyperlinks>")
    out.append(
        '<pageMargins left="0.75" right="0.75" top="1" bottom="1" header="0.5" footer="0.5"/>'
    )
    out.append("</worksheet>")
    return "".join(out)


def _workbook(name: str, last_column: str, last_row: int) -> str:
    area = f"{_quote_sheet(name)}!$A$1:${last_column}${last_row}"
    return (
        f'<workbook xmlns="{_MAIN}" xmlns:r="{_REL}"><bookViews><workbookView/></bookViews>'
        f'<sheets><sheet name={quoteattr(name)} sheetId="1" r:id="rId1"/></sheets>'
        '<definedNames><definedName name="_xlnm._FilterDatabase" localSheetId="0" hidden="1">'
        f"{escape(area)}</definedName></definedNames>"
        '<calcPr calcId="124519" fullCalcOnLoad="1"/></workbook>'
    )


def _quote_sheet(name: str) -> str:
    return "'" + name.replace("'", "''") + "'"


def _core(now: datetime) -> str:
    stamp = now.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return (
        '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/'
        'core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" '
        'xmlns:dcterms="http://purl.org/dc/terms/" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">'
        "<dc:creator>Research Radar</dc:creator>"
        f'<dcterms:created xsi:type="dcterms:W3CDTF">{stamp}</dcterms:created>'
        f'<dcterms:modified xsi:type="dcterms:W3CDTF">{stamp}</dcterms:modified>'
        "</cp:coreProperties>"
    )


def save_xlsx(
    path: Path, columns: list[str], rows: Sequence[Sequence[str]], *, sheet: str = "findings"
) -> None:
    """Write the workbook: typed cells, URLs as hyperlinks, text always text (a cell that
    starts with "=" is a string, so no formula runs and no apostrophe shows), a bold
    frozen header with an auto-filter, and each column as wide as its widest value."""
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
    links: list[tuple[str, str]] = []
    worksheet = _sheet(columns, typed, links)
    parts = {
        "[Content_Types].xml": _CONTENT_TYPES,
        "_rels/.rels": _ROOT_RELS,
        "docProps/app.xml": _APP,
        "docProps/core.xml": _core(datetime.now(UTC)),
        "xl/workbook.xml": _workbook(sheet, _letter(len(columns) - 1), len(typed)),
        "xl/_rels/workbook.xml.rels": _WORKBOOK_RELS,
        "xl/styles.xml": _STYLES,
        "xl/worksheets/sheet1.xml": worksheet,
    }
    if links:
        parts["xl/worksheets/_rels/sheet1.xml.rels"] = (
            f'<Relationships xmlns="{_PACKAGE_REL}">'
            + "".join(
                f'<Relationship Id="rId{n}" Type="{_HYPERLINK}" Target={quoteattr(url)} '
                'TargetMode="External"/>'
                for n, (_, url) in enumerate(links, 1)
            )
            + "</Relationships>"
        )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in parts.items():
            archive.writestr(
                name, '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' + text
            )
