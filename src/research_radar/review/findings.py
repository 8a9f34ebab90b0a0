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
    "ReviewGroup",
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
    report: str = ""
    """The dated report (comment) the finding is in: `2026-10-28` or `undated`."""
    report_line: int = 1
    """The line its report starts at (several reports may share a date)."""
    line: int = 0
    """Line in the reviewed text (1-based)."""
    column: str | None = None
    """The table column the finding is about, as the report heads it."""
    detail: dict[str, str] = Field(default_factory=dict)
    """Language-neutral facts the grouped wording is built from (cell, numbers, codes)."""


class ReviewGroup(BaseModel):
    """One finding as a reviewer writes it: a rule across all the entries it concerns."""

    id: str
    """F1, F2, … in the order shown (severity, then entries touched)."""
    rule: str
    severity: Severity
    report: str
    title: str
    entries: list[str] = Field(default_factory=list)
    where: str
    problem: str
    items: list[str] = Field(default_factory=list)
    """One line per entry (or place) with the exact cell or sentence."""
    conditions: str
    impact: str
    fix: str
    members: list[int] = Field(default_factory=list)
    """Indexes into `Review.findings` (one record per rule and entry)."""


class Review(BaseModel):
    """The review of one report file."""

    verified: list[str] = Field(default_factory=list)
    findings: list[ReviewFinding] = Field(default_factory=list)
    reviewed: str = ""
    """Reports reviewed: date / title and content hash."""
    coverage: list[str] = Field(default_factory=list)
    host_sha: str | None = None
    reviewed_at: datetime | None = None
    language: str = "zh"
    groups: list[ReviewGroup] = Field(default_factory=list)
    checked: str = ""
    """What the review read and checked, in the review's language."""

    @property
    def blocking(self) -> bool:
        return any(item.severity is Severity.BLOCKING for item in self.findings)

    def to_json(self) -> dict[str, Any]:
        """`radar review --json`: one record per (rule, entry) for tools, plus the grouping.

        `{"language", "verified", "findings": [...], "groups": [{"id", "members", ...}]}`.
        """
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
            "report",
            "line",
            "column",
            "detail",
        )
        return {
            "language": self.language,
            "verified": list(self.verified),
            "findings": [item.model_dump(mode="json", include=set(keys)) for item in self.findings],
            "groups": [group.model_dump(mode="json") for group in self.groups],
            "coverage": list(self.coverage),
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
        self,
        rule: str,
        severity: Severity,
        line: int,
        problem: str,
        *,
        entry: str | None = None,
        column: str | None = None,
        dimension: str | None = None,
        conditions: str = "",
        impact: str = "",
        fix: str = "",
        detail: dict[str, str] | None = None,
    ) -> None:
        """Add one finding at `line` of the report (1-based within the report)."""
        self.findings.append(
            ReviewFinding(
                rule=rule,
                severity=severity,
                where=self.where(line, entry, column),
                problem=problem,
                entry=entry,
                dimension=dimension,
                conditions=conditions,
                impact=impact,
                fix=fix,
                report=self.report.date.isoformat() if self.report.date else "undated",
                report_line=self.report.line,
                line=self.report.line + line - 1,
                column=column,
                detail=detail or {},
            )
        )
