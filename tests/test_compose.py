from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from research_radar.errors import RenderError
from research_radar.models import Claim, ClaimKind, Conditions, Finding, Metric, Recommendation
from research_radar.report.compose import (
    build_report,
    compare_claims,
    section_of,
    split_sections,
    sum_percentages,
)

NOW = datetime(2026, 11, 30, 0, 30, tzinfo=UTC)


def _claim(
    value: float, hardware: str = "RTX 4090", where: str = "a/b@1:README.md", unit: str = "tok/s"
) -> Claim:
    return Claim(
        kind=ClaimKind.PERFORMANCE,
        text=f"{value} {unit}",
        metrics=[Metric(name="throughput", value=value, unit=unit)],
        conditions=Conditions(
            hardware=[hardware], model=["Qwen3-8B"], precision=["Q4_K_M"], baseline=["llama.cpp"]
        ),
        where=where,
    )


def _finding(
    name: str, recommendation: Recommendation, priority: str = "P2", flags: list[str] | None = None
) -> Finding:
    return Finding(
        project_key=f"gh:x/{name.lower()}",
        name=name,
        date=date(2026, 11, 30),
        recommendation=recommendation,
        priority=priority,
        flags=flags or [],
    )


def test_same_conditions_compare() -> None:
    assert compare_claims(_claim(120), _claim(100), "throughput") == 1


def test_refuses_to_rank_across_conditions() -> None:
    with pytest.raises(RenderError, match="different conditions"):
        compare_claims(_claim(120), _claim(100, hardware="H100"), "throughput")


def test_refuses_to_rank_incomplete_claims() -> None:
    bare = Claim(
        kind=ClaimKind.PERFORMANCE, text="2x", metrics=[Metric(name="throughput", value=2)]
    )
    with pytest.raises(RenderError, match="incomplete"):
        compare_claims(bare, _claim(1), "throughput")


def test_refuses_to_stack_percentages_from_different_sources() -> None:
    first, second = _claim(5.68, unit="%"), _claim(2.29, unit="%", where="c/d@2:paper.md")
    with pytest.raises(RenderError, match="percentages"):
        sum_percentages([first, second])
    assert sum_percentages(
        [first, _claim(1.0, unit="%", where="a/b@1:README.md#L9")]
    ) == pytest.approx(6.68)


def test_report_orders_sections_and_numbers_evidence() -> None:
    findings = [
        _finding("Watchme", Recommendation.WATCH),
        _finding("Risky", Recommendation.VALIDATE, flags=["counterexample"]),
        _finding("Later", Recommendation.VALIDATE, priority="P2"),
        _finding("First", Recommendation.VALIDATE, priority="P0"),
    ]
    report = build_report(findings, now=NOW)
    assert [f.name for f in report.findings] == ["First", "Later", "Watchme", "Risky"]
    assert [f.evidence_id for f in report.findings] == ["S1", "S2", "S3", "S4"]
    assert section_of(report.findings[-1]) == "risk"
    sections = split_sections(report)
    assert [f.name for f in sections.top][:1] == ["First"] and len(sections.top) == 3


def test_cutoff_needs_timezone() -> None:
    with pytest.raises(RenderError, match="timezone"):
        build_report([], now=datetime(2026, 11, 30, 8, 30))
