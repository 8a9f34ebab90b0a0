"""Tables of settings: a two-column table that lists how the numbers were run, one key and
its value a row (`| 并发数 | 16 |`, `| Output length | 256 |`), read as set-up lines; a
three-column one that names each setting, describes it and gives its value (`| Variable |
Description | Default |` over `| BENCH_INPUT_LEN | Input token length | 512 |`) too.

Pure. A building block of `research_radar.extract.loadscopes`; callers outside this
package use `research_radar.extract.claims` instead. A table is one of settings when it
has two columns and at least one of its rows is a setting by the caller's test; then
every row is a `key: value` line, and none of them is a measurement (issue #14).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from research_radar.extract.cells import header_unit
from research_radar.extract.markdown import Segment, clean_text, split_cells

__all__ = ["setting_rows"]


def setting_rows(segments: list[Segment], is_setting: Callable[[str], bool]) -> dict[int, str]:
    """Line -> `key: value` for the rows (and the header) of each table of settings.

    Args:
        is_setting: whether a `key: value` line sets a load (`Concurrency: 16`).
    """
    found: dict[int, str] = {}
    head: tuple[str, ...] = ()
    table: dict[int, str] = {}
    """The rows of the table being read, as `key: value` (empty for a wider table)."""
    wide = False
    for segment in [*segments, None]:
        if segment is not None and (segment.block == "table" or segment.header):
            if segment.block != "table" and table:  # the header of the next table
                found.update(_settings(table, wide, is_setting))
                table, wide = {}, False
            if segment.block != "table":
                head = segment.header
            pair = _pair(segment, head)
            wide = wide or not pair
            table[segment.line] = pair
            continue
        found.update(_settings(table, wide, is_setting))
        table, wide = {}, False
    return found


def _settings(
    table: dict[int, str], wide: bool, is_setting: Callable[[str], bool]
) -> dict[int, str]:
    """A table's rows when it is one of settings, else none: two columns, a header with
    no unit over the values (`| 参数 | 值 |`, not `| Run | Latency (ms) |`), and a row
    that is a setting by its key alone (`Batch size: 8`, not `Batch size 8: 80 ms`)."""
    if wide or not table:
        return {}
    head = table[min(table)]
    if header_unit(head.partition(": ")[2]):
        return {}
    keyed = (line for line in table.values() if not _DIGIT.search(line.partition(": ")[0]))
    return table if any(is_setting(line) for line in keyed) else {}


_DIGIT = re.compile(r"\d")


_VALUE = re.compile(
    r"(?:default|value|setting)s?(?:\s(?:value|setting))?|默认值?|值|取值|设置", re.I
)
"""The header of a settings table's column of values (`Default`, `Value`, `默认值`)."""
_DESCRIBED = re.compile(r"description|meaning|说明|含义|描述", re.I)
"""The header of a settings table's column that says in words what each setting is."""


def _pair(segment: Segment, head: tuple[str, ...]) -> str:
    """`| 并发数 | 16 |` -> `并发数: 16`; under `| Variable | Description | Default |`,
    `| BENCH_INPUT_LEN | Input token length | 512 |` -> `Input token length: 512`; '' for a
    row of any other width or a blank cell."""
    if segment.block == "table":
        cells = [clean_text(cell) for cell in split_cells(segment.text)]
    else:
        cells = list(segment.header)
    if len(cells) == 2 and all(cells):
        return f"{cells[0]}: {cells[1]}"
    if len(cells) != 3 or len(head) != 3 or not _VALUE.fullmatch(head[2]):
        return ""
    key = cells[1] if _DESCRIBED.fullmatch(head[1]) else cells[0]
    return f"{key}: {cells[2]}" if key and cells[2] else ""
