"""The report's files: a large report's export built ahead in a forked process is the
export written without it, and the files are written when the review fails."""

from __future__ import annotations

import zipfile
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from research_radar.classify.profile import load_taxonomy
from research_radar.cores import FORK_MIN
from research_radar.models import Finding, Recommendation, Report, Tag
from research_radar.pipeline.outputs import ReportFiles
from research_radar.publish.export import export_findings
from research_radar.report.html import stored_body


def _report(count: int) -> Report:
    findings = [
        Finding(
            project_key=f"gh:owner{n}/engine-{n}",
            name=f"engine-{n}",
            date=date(2026, 8, 29),
            url=f"https://github.com/owner{n}/engine-{n}",
            recommendation=Recommendation.WATCH,
            tags={
                "workload": [Tag(dimension="workload", value="llm")],
                "mechanism": [Tag(dimension="mechanism", value="cache")],
            },
            evidence_id=f"S{n + 1}",
        )
        for n in range(count)
    ]
    return Report(
        date=date(2026, 8, 29), cutoff=datetime(2026, 8, 29, 0, 30, tzinfo=UTC), findings=findings
    )


def _parts(workbook: Path) -> dict[str, bytes]:
    """The workbook's parts, less the one that holds the time it was made."""
    with zipfile.ZipFile(workbook) as archive:
        return {
            name: archive.read(name) for name in archive.namelist() if name != "docProps/core.xml"
        }


def _files(report: Report, folder: Path, *, review_fails: bool = False) -> list[Path]:
    markdown = "# Research Radar\n\nsome findings\n"
    taxonomy = load_taxonomy()
    reviewed: list[str] = []

    def review() -> str:
        reviewed.append("reviewed")
        if review_fails:
            raise RuntimeError("the review broke")
        return "ok"

    with ReportFiles(taxonomy) as files:
        files.started(report)
        written, result = files.beside_review(
            folder / "2026-08-29.md", report, markdown, stored_body(markdown), review
        )
    assert result == "ok" and reviewed == ["reviewed"]
    return written


@pytest.mark.parametrize(
    "count", [pytest.param(3, id="small"), pytest.param(FORK_MIN, id="large-ahead")]
)
def test_the_export_is_the_one_written_without_the_work_ahead(tmp_path: Path, count: int) -> None:
    report = _report(count)
    written = _files(report, tmp_path / "run")
    assert [path.name for path in written] == [
        "2026-08-29.md",
        "2026-08-29.html",
        "2026-08-29.csv",
        "2026-08-29.xlsx",
    ]
    alone = export_findings(
        report.findings, tmp_path / "alone", stem="2026-08-29", taxonomy=load_taxonomy()
    )
    assert written[2].read_bytes() == alone[0].read_bytes()
    assert _parts(written[3]) == _parts(alone[1])
    assert "some findings" in written[1].read_text(encoding="utf-8")


def test_the_files_are_written_when_the_review_fails(tmp_path: Path) -> None:
    report = _report(FORK_MIN)
    with pytest.raises(RuntimeError, match="the review broke"):
        _files(report, tmp_path, review_fails=True)
    assert sorted(path.suffix for path in tmp_path.iterdir()) == [".csv", ".html", ".md", ".xlsx"]
