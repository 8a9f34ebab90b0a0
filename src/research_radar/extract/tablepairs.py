"""Pair cells: `| 45.40 / 74.76 ms |` under `| FFPA / SDPA |` beside `| 1.65x |`, the
number of the compared system and the project's own in one cell.

Pure. A building block of `research_radar.extract.tables`; callers outside this package
use `research_radar.extract.claims` instead. The row's speedup says which is which: the
pair whose ratio it is holds the compared system's number, the slower one (the longer
time, the lower rate); the header names it (issue #14).
"""

from __future__ import annotations

import re

from research_radar.extract.cells import head_name
from research_radar.extract.compared import BASELINE_SUFFIX, is_baseline_metric
from research_radar.extract.references import Row
from research_radar.extract.units import NUMBER_PATTERN, parse_number

__all__ = ["compared_pairs"]


_PAIR = re.compile(
    rf"\s*[~≈]?({NUMBER_PATTERN})\s?[A-Za-zµ/]*\s?/\s?[~≈]?({NUMBER_PATTERN})\s?[A-Za-zµ/]*\s*"
)
_TIMES = frozenset({"ms", "s", "us", "µs", "ns", "min", "h"})
"""Units where less is better: the compared system's number is the larger."""
_SLACK = 0.03
"""How far a pair's ratio may stand from the row's speedup (rounding of both)."""


def compared_pairs(row: Row, head: list[str]) -> list[str]:
    """Name the compared system's number of each pair cell the row's speedup explains
    `<name> (baseline)`, and return the compared system's name from the header."""
    speedups = [m.value for found in row.metrics for m in found if m.unit == "x" and m.value > 0]
    if not speedups:
        return []
    names: list[str] = []
    found_any = False
    for column, found in enumerate(row.metrics):
        cell = row.cells[column] if column < len(row.cells) else ""
        pair = _PAIR.fullmatch(cell)
        if pair is None or len(found) != 2 or any(is_baseline_metric(m) for m in found):
            continue
        a, b = (parse_number(raw) for raw in pair.groups())
        if {a, b} != {m.value for m in found} or a == b or min(a, b) <= 0:
            continue
        ratio = max(a, b) / min(a, b)
        if not any(abs(ratio - s) <= _SLACK * s for s in speedups):
            continue
        slower = max(a, b) if found[0].unit in _TIMES else min(a, b)
        row.metrics[column] = [
            m.model_copy(update={"name": m.name + BASELINE_SUFFIX}) if m.value == slower else m
            for m in found
        ]
        found_any = True
        parts = [head_name(p).strip() for p in _header(head, column).split("/")]
        if len(parts) == 2 and all(parts):
            names.append(parts[0 if slower == a else 1])
    return list(dict.fromkeys(names)) if found_any else []


def _header(head: list[str], column: int) -> str:
    return head[column] if column < len(head) else ""
