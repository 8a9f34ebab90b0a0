"""The report's files: a large report's export built ahead in a forked process is the
export written without it, and the files are written when the review fails. The stored
HTML body rendered beside the review is `stored_body` of the report's Markdown, and the
store holds it with the report once it is asked for (not before)."""

from __future__ import annotations

import zipfile
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from research_radar.classify.profile import load_taxonomy
from research_radar.cores import FORK_MIN
from research_radar.models import Coverage, Finding, Recommendation, Report, Tag
from research_radar.pipeline.outputs import ReportFiles
from research_radar.pipeline.report_stages import compose_stage
from research_radar.pipeline.stages import StageRecorder
from research_radar.publish.export import export_findings
from research_radar.report.html import stored_body
from research_radar.settings_file import Language
from research_radar.store.store import open_store


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
        body = files.body(markdown)
        written, result = files.beside_review(
            folder / "2026-08-29.md", report, markdown, body, review
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


def _composed(
    folder: Path, report: Report
) -> tuple[dict[str, object], dict[str, object], list[str], dict[str, str]]:
    """The report data the store holds after the compose stage and at the end (the body
    asked for), with the body rendered beside the review (`ReportFiles.body`), and the
    report's own findings and Markdown."""
    folder.mkdir()
    store = open_store(str(folder / "radar.db"))
    run = StageRecorder(store, store.start_run("test"), None)
    taxonomy = load_taxonomy()
    with ReportFiles(taxonomy) as files:
        composed, markdown, body = compose_stage(
            run,
            store,
            report.findings,
            [],
            cutoff=report.cutoff,
            host=None,
            taxonomy=taxonomy,
            language=Language.ZH,
            coverage=Coverage(),
            on_report=files.started,
            body_of=files.body,
        )
        after_compose = store.load_report_data(report.date)
        html = body()
    assert html == stored_body(markdown) and body() == html
    assert store.load_report(report.date) == markdown
    store.engine.dispose()
    at_end = open_store(str(folder / "radar.db")).load_report_data(report.date)
    keys = [finding.project_key for finding in composed.findings]
    return after_compose or {}, at_end or {}, keys, html


@pytest.mark.parametrize(
    "count", [pytest.param(3, id="small"), pytest.param(FORK_MIN, id="large-forked")]
)
def test_the_body_rendered_beside_the_review_is_stored_with_the_report(
    tmp_path: Path, count: int
) -> None:
    untagged = [finding.model_copy(update={"tags": {}}) for finding in _report(count).findings]
    report = _report(0).model_copy(update={"findings": untagged})
    after_compose, at_end, keys, html = _composed(tmp_path / "run", report)
    data: dict[str, object] = {"cutoff": report.cutoff.isoformat(), "findings": keys}
    assert after_compose == data  # the body is saved once asked for
    assert at_end == {**data, "body": html}
    assert list(at_end) == ["cutoff", "findings", "body"]
    assert len(keys) == count
