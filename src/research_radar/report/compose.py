"""Compose the day's report from assessed findings (pure).

`build_report` orders findings, numbers their evidence (S1...Sn) and collects the
summary parts (Now / Next / Watch, top three to read, validation proposals, deferred
items). Composition never ranks numbers across different conditions and never adds up
percentages from different sources: `compare_claims` and `sum_percentages` refuse to.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from research_radar.errors import RenderError
from research_radar.models import (
    Claim,
    Correction,
    Coverage,
    Finding,
    Novelty,
    Recommendation,
    Report,
)

__all__ = [
    "RISK_FLAGS",
    "ReportSections",
    "build_report",
    "compare_claims",
    "section_of",
    "split_sections",
    "sum_percentages",
]

RISK_FLAGS = frozenset({"counterexample", "failure"})
_PRIORITY = {"P0": 0, "P1": 1, "P2": 2}
_HORIZON = {"Now": 0, "Next": 1, "Watch": 2}


def section_of(finding: Finding) -> str:
    """validate, watch, risk or defer: the report section a finding belongs to."""
    if finding.recommendation is Recommendation.COUNTEREXAMPLE or RISK_FLAGS & set(finding.flags):
        return "risk"
    if finding.recommendation is Recommendation.VALIDATE:
        return "validate"
    if finding.recommendation is Recommendation.DEFER:
        return "defer"
    return "watch"


def _order(finding: Finding) -> tuple[int, int, str]:
    return (
        _PRIORITY.get(finding.priority, 3),
        _HORIZON.get(finding.horizon, 3),
        finding.name.lower(),
    )


def build_report(
    findings: Sequence[Finding],
    *,
    now: datetime,
    host_name: str | None = None,
    host_sha: str | None = None,
    host_rechecked: bool = False,
    host_remote_sha: str | None = None,
    coverage: Coverage | None = None,
    corrections: Sequence[Correction] = (),
    language: str = "zh",
) -> Report:
    """The report of one day. `now` is the evidence cut-off (timezone-aware)."""
    if now.tzinfo is None:
        raise RenderError("the evidence cut-off needs a timezone; pass an aware datetime")
    ordered = sorted(findings, key=lambda f: (_SECTION_ORDER[section_of(f)], *_order(f)))
    numbered = [
        finding.model_copy(update={"evidence_id": f"S{index}"})
        for index, finding in enumerate(ordered, start=1)
    ]
    return Report(
        date=now.date(),
        cutoff=now,
        host_name=host_name,
        host_sha=host_sha,
        host_rechecked=host_rechecked,
        host_remote_sha=host_remote_sha,
        findings=numbered,
        corrections=list(corrections),
        coverage=coverage or Coverage(),
        language=language,
    )


_SECTION_ORDER = {"validate": 0, "watch": 1, "risk": 2, "defer": 3}
_READING = {"validate": 0, "risk": 1, "watch": 2, "defer": 3}
_FRESH = {
    Novelty.NEW_RELEASE: 0,
    Novelty.NEW_PROGRESS: 1,
    Novelty.HISTORICAL: 2,
    Novelty.BASELINE: 3,
}


def _reading_order(finding: Finding) -> tuple[int, int, int, int, str]:
    """Top three to read: worth validating and risks first, then what is new today."""
    return (_READING[section_of(finding)], _FRESH[finding.novelty], *_order(finding))


@dataclass
class ReportSections:
    """The findings of a report, grouped for rendering."""

    validate: list[Finding] = field(default_factory=list)
    watch: list[Finding] = field(default_factory=list)
    risk: list[Finding] = field(default_factory=list)
    defer: list[Finding] = field(default_factory=list)
    now: list[Finding] = field(default_factory=list)
    next: list[Finding] = field(default_factory=list)
    later: list[Finding] = field(default_factory=list)
    top: list[Finding] = field(default_factory=list)
    proposals: list[Finding] = field(default_factory=list)


def split_sections(report: Report) -> ReportSections:
    """Group findings by section and horizon; pick the top three and up to three proposals."""
    sections = ReportSections()
    for finding in report.findings:
        getattr(sections, section_of(finding)).append(finding)
        horizon = {"Now": "now", "Next": "next"}.get(finding.horizon, "later")
        getattr(sections, horizon).append(finding)
    readable = [f for f in report.findings if section_of(f) != "defer"]
    sections.top = sorted(readable, key=_reading_order)[:3]
    sections.proposals = [f for f in sections.validate if f.proposal is not None][:3]
    return sections


def _condition_key(claim: Claim) -> tuple[tuple[str, ...], ...]:
    c = claim.conditions
    load = tuple(f"{k}={v}" for k, v in sorted(c.load.items()))
    return (
        tuple(sorted(c.hardware)),
        tuple(sorted(c.model)),
        tuple(sorted(c.precision)),
        tuple(sorted(c.baseline)),
        load,
    )


def compare_claims(first: Claim, second: Claim, metric: str) -> int:
    """Compare two claims on one metric: -1, 0 or 1.

    Raises:
        RenderError: when the two claims do not hold under the same conditions (house
            rule: never rank across conditions) or either lacks the metric.
    """
    if not first.complete or not second.complete:
        raise RenderError("refusing to rank a claim whose conditions are incomplete")
    if _condition_key(first) != _condition_key(second):
        raise RenderError("refusing to rank claims made under different conditions")
    values = []
    for claim in (first, second):
        found = [m.value for m in claim.metrics if m.name == metric]
        if not found:
            raise RenderError(f"a claim has no metric {metric!r}")
        values.append(found[0])
    return (values[0] > values[1]) - (values[0] < values[1])


def sum_percentages(claims: Sequence[Claim]) -> float:
    """Add percentage gains only when they come from one source and one condition set.

    Raises:
        RenderError: when the percentages come from different sources or conditions
            (house rule: never stack percentages).
    """
    wheres = {claim.where.split("#")[0] for claim in claims}
    keys = {_condition_key(claim) for claim in claims}
    if len(wheres) > 1 or len(keys) > 1:
        raise RenderError("refusing to add percentages from different sources or conditions")
    return sum(m.value for claim in claims for m in claim.metrics if m.unit == "%")
