"""The compared system of a speedup table that does not name it: the one the table of
speedups above it names, in the same section (`#### 5.1.1` names `Baseline` in its
`vs Baseline` column; `#### 5.1.2` below it gives `1.54x` alone), issue #14.

Pure. A building block of `research_radar.extract.claims`; callers outside this package
use `research_radar.extract.claims` instead.
"""

from __future__ import annotations

from research_radar.extract.compared import is_baseline_metric
from research_radar.extract.markdown import Segment
from research_radar.models import Claim, Metric

__all__ = ["with_section_ratio_baseline"]

_SECTION_LEVEL = 3
"""Headings up to `###` bound a section; deeper ones (`#### 5.1.2`) divide it."""


def with_section_ratio_baseline(claims: list[Claim], segments: list[Segment]) -> list[Claim]:
    """`claims`, a table claim whose speedups name no compared system given the one the
    last table speedups above them name, in the same section: its absolute numbers beside
    them (`193.2 t/s`) too, as a row's ratio names the baseline of the row's others."""
    tables = {s.line for s in segments if s.block == "table"}
    bounds = sorted(
        s.line for s in segments if s.block == "heading" and 0 < s.level <= _SECTION_LEVEL
    )
    named: dict[int, list[str]] = {
        (claim.line or 0): list(claim.conditions.baseline)
        for claim in claims
        if claim.line in tables and claim.conditions.baseline and _speedups(claim)
    }
    found: list[Claim] = []
    for claim in claims:
        speedups = _speedups(claim)
        line = claim.line or 0
        above = [at for at in named if at < line]
        if line not in tables or claim.conditions.baseline or not speedups or not above:
            found.append(claim)
            continue
        last = max(above)
        if any(last < bound < line for bound in bounds):
            found.append(claim)
            continue
        conditions = claim.conditions.model_copy(update={"baseline": named[last]})
        found.append(claim.model_copy(update={"conditions": conditions}))
    return found


def _speedups(claim: Claim) -> list[Metric]:
    """The claim's speedups (`1.54x`), none of them the compared system's own (`1.00x`)."""
    if any(is_baseline_metric(m) for m in claim.metrics):
        return []
    return [m for m in claim.metrics if m.unit == "x"]
