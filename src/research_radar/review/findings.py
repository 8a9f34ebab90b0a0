"""What a review produces: rule ids, severities, findings, and the per-report context.

`ReviewContext` is what every rule receives: one report, its kind, the history before
it, and the findings collected so far. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, Field

from research_radar.models import Finding
from research_radar.report.parse import ParsedReport

__all__ = [
    "RULES",
    "Review",
    "ReviewContext",
    "ReviewFinding",
    "Severity",
]


class Severity(StrEnum):
    BLOCKING = "blocking"
    WARNING = "warning"
    INFO = "info"


RULES = (
    "header-cutoff-missing",
    "header-sha-missing",
    "dimension-missing",
    "host-mapping-generic",
    "family-not-differentiated",
    "already-reported",
    "version-unpinned",
    "conditions-missing",
    "author-number-unmarked",
    "cross-condition-ranking",
    "stacked-percentages",
    "proposal-incomplete",
    "novelty-label-missing",
    "public-only",
    "bare-cross-repo-ref",
    "claim-unverified",
    "claim-false",
)
"""Stable rule ids (JSON output, exports, tests)."""


class ReviewFinding(BaseModel):
    """One problem found in a report."""

    rule: str
    entry: str | None = None
    """The project name as the report writes it; None for report-wide findings."""
    dimension: str | None = None
    """DESIGN.md dimension id for dimension-missing."""
    severity: Severity
    where: str
    problem: str
    conditions: str = ""
    """What the check looked at and under which policy."""
    impact: str = ""
    fix: str = ""


class Review(BaseModel):
    """The review of one report file."""

    verified: list[str] = Field(default_factory=list)
    findings: list[ReviewFinding] = Field(default_factory=list)
    reviewed: str = ""
    """Reports reviewed: date / title and content hash."""
    coverage: list[str] = Field(default_factory=list)
    host_sha: str | None = None
    reviewed_at: datetime | None = None

    @property
    def blocking(self) -> bool:
        return any(item.severity is Severity.BLOCKING for item in self.findings)

    def to_json(self) -> dict[str, Any]:
        """`{"verified": [...], "findings": [...]}`: the shape of `radar review --json`."""
        keys = (
            "rule",
            "entry",
            "dimension",
            "severity",
            "where",
            "problem",
            "conditions",
            "impact",
            "fix",
        )
        return {
            "verified": list(self.verified),
            "findings": [item.model_dump(mode="json", include=set(keys)) for item in self.findings],
        }


@dataclass
class ReviewContext:
    """One report under review and the findings its rules add."""

    report: ParsedReport
    kind: str
    history: list[Finding]
    aliases: Mapping[str, str]
    policy: str
    findings: list[ReviewFinding] = field(default_factory=list)

    @property
    def label(self) -> str:
        return self.report.date.isoformat() if self.report.date else "undated text"

    def where(self, line: int, entry: str | None = None, column: str | None = None) -> str:
        parts = [f"line {self.report.line + line - 1} ({self.label})"]
        if entry:
            parts.append(f"entry {entry}")
        if column:
            parts.append(f"column {column}")
        return ", ".join(parts)

    def add(
        self, rule: str, severity: Severity, where: str, problem: str, **more: str | None
    ) -> None:
        self.findings.append(
            ReviewFinding(rule=rule, severity=severity, where=where, problem=problem, **more)  # type: ignore[arg-type]
        )
