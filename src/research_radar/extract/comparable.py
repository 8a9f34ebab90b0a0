"""Whether a table cell has a reference to be compared with: a ratio always has; a
measurement only where the reference column, or a reference row on the same hardware,
holds a result of its own.

Pure. A building block of `research_radar.extract.tables`; callers outside this package
use `research_radar.extract.claims` instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from research_radar.extract.references import Row
from research_radar.extract.units import RATIO_UNITS
from research_radar.models import Metric

__all__ = ["Compared"]


@dataclass
class Compared:
    """Whether a cell of `row` has a reference to compare with: a ratio always does; a
    measurement only where the reference column (or a reference row on the same hardware)
    holds a number of its own (a column's in the same unit). `| PyTorch | V100 | - | 3 |` is
    the reference of the V100 row's decode speed, not of its encode speed, nor of any GTX
    1060 row (issue #14)."""

    row: Row
    columns: list[int]
    rows: list[Row]

    def has(self, by_row: bool, column: int, found: list[Metric]) -> bool:
        if any(m.unit in RATIO_UNITS for m in found):
            return True
        if not by_row:
            return any(_holds(self.row, c) and _alike(self.row, c, found) for c in self.columns)
        numbered = [r for r in self.rows if _holds(r, column)]
        hardware = set(self.row.own.hardware)
        if hardware and numbered and all(r.own.hardware for r in numbered):
            return any(hardware & set(r.own.hardware) for r in numbered)
        return bool(numbered)


def _alike(row: Row, column: int, found: list[Metric]) -> bool:
    """Whether the reference column's numbers in the row measure what `found` does, by
    their units: beside `| Base mAP | ... | TRT-INT8 |`, a latency in ms has no mAP to be
    compared with. A reference cell without a number (`OOM`) says nothing against it,
    nor does a column of ratios written bare (`| 优化后/前耗时比 |` over `0.742`)."""
    theirs = {m.unit for m in row.metrics[column]} if column < len(row.metrics) else set()
    return not theirs or any(
        m.unit in theirs or not m.unit and _RATIO_NAME.search(m.name) for m in found
    )


_RATIO_NAME = re.compile(r"ratio|speed-?up|relative|比|倍|相对", re.I)
"""A metric name that says its bare numbers are ratios (`Speedup`, `耗时比`, `相对速度`)."""


def _holds(row: Row, column: int) -> bool:
    """Whether the row's cell holds a result: a number, or `OOM` (not `-`, `None`, `N/A`)."""
    cell = row.cells[column] if column < len(row.cells) else ""
    return bool(row.metrics[column] if column < len(row.metrics) else False) or not (
        _NO_RESULT.fullmatch(cell)
    )


_NO_RESULT = re.compile(r"\s*(?:[-–—/*]*|None|N/?A|null|nan|TBD|待测|无)\s*", re.I)
