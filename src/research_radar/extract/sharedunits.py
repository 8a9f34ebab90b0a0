"""Numbers written before one unit that holds for them all: `45.4 / 74.8 ms`, `1200/80
tok/s`, `3.1 / 2.7 / 2.2 s` (the unit is written once, after the last of them).

Pure. A building block of `research_radar.extract.metrics`; callers outside this package
use `research_radar.extract.claims` instead.
"""

from __future__ import annotations

import re

from research_radar.extract.units import NUMBER_PATTERN, RATIO_UNITS
from research_radar.models import Metric

__all__ = ["slashed_before"]


_SLASHED = re.compile(rf"(?<![\d.])({NUMBER_PATTERN})\s?/\s?$")
"""A number and a slash right before a measured number (`45.4 / ` in `45.4 / 74.8 ms`)."""
_BACK = 24
"""How far back a number of the chain may start."""


def slashed_before(text: str, start: int, metric: Metric) -> list[tuple[tuple[int, int], Metric]]:
    """The numbers slashed onto the measured number at `start` (`45.4 / ` before `74.8
    ms`), each with its unit: nearest first.

    Not a ratio's (`1.9x/2.4x` writes each unit) nor a score's; not a fraction (`1/2
    s`), nor a number glued to a word (`v1.2/3.4 ms`, `7-8/9 s`).
    """
    if not metric.unit or metric.unit in RATIO_UNITS:
        return []
    found: list[tuple[tuple[int, int], Metric]] = []
    position = start
    while True:
        window = text[max(0, position - _BACK) : position]
        match = _SLASHED.search(window)
        if match is None:
            break
        offset = position - len(window)
        span = (offset + match.start(1), offset + match.end(1))
        found.append((span, metric.model_copy(update={"value": _number(text, span)})))
        position = span[0]
    if not found:
        return []
    chain = text[found[-1][0][0] : start]
    if re.fullmatch(r"1/", chain):
        return []  # `1/2 s`, `1/4 GB`: a fraction, not two numbers side by side
    before = text[: found[-1][0][0]]
    if re.search(r"[\w.-]$|/\s*$", before):
        # `v1.2/3.4 ms`, `1-2/3 s`: part of a longer token; `260GB / 70 / 8 / 75ms`: a
        # sum worked out, not numbers side by side
        return []
    return found


def _number(text: str, span: tuple[int, int]) -> float:
    return float(text[span[0] : span[1]].replace(",", "").replace("−", "-"))
