from __future__ import annotations

import csv
import importlib.util
import re
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from openpyxl import load_workbook
from typer.testing import CliRunner

from research_radar.cli import app
from research_radar.errors import ConfigError
from research_radar.models import (
    Claim,
    ClaimKind,
    Conditions,
    Finding,
    Gate,
    GateName,
    GateReason,
    Metric,
    Novelty,
    PendingDifference,
    Recommendation,
    Snapshot,
    Tag,
    TouchPoint,
    Verdict,
)
from research_radar.publish.export import build_columns, export_findings, sync_google_sheet
from research_radar.store.store import Store, open_store

SHA = "5ea3242a206cdb0c4c1beaeb9d8a3048e6248423"


def _tags(**values: list[str]) -> dict[str, list[Tag]]:
    return {dim: [Tag(dimension=dim, value=v) for v in vs] for dim, vs in values.items()}


def _findings() -> list[Finding]:
    ninfer = Finding(
        project_key="gh:neroued/ninfer",
        name="NInfer",
        date=date(2026, 11, 30),
        url="https://github.com/Neroued/ninfer",
        snapshot=Snapshot(
            source_key="gh:neroued/ninfer",
            version=SHA,
            version_date=datetime(2026, 10, 29, 12, 0, tzinfo=UTC),
        ),
        novelty=Novelty.NEW_PROGRESS,
        tags=_tags(
            workload=["llm-agentic"],
            mechanism=["cache", "quant-sparsity-speculation"],
            system_level=["model-execution"],
            rsi_stage=["verification"],
        ),
        rsi_target="engine",
        claims=[
            Claim(
                kind=ClaimKind.PERFORMANCE,
                text="decode 922.4 tok/s",
                metrics=[Metric(name="throughput", value=922.4, unit="tok/s")],
                conditions=Conditions(
                    hardware=["RTX 5090"],
                    model=["Qwen3-27B"],
                    precision=["NVFP4"],
                    baseline=["llama.cpp"],
                    load={"concurrency": "8"},
                ),
            )
        ],
        gates=[
            Gate(
                name=GateName.CORRECTNESS,
                verdict=Verdict.PASS,
                reasons=["source read", "identity ok"],
            ),
            Gate(name=GateName.SOLIDITY, verdict=Verdict.PARTIAL, reasons=["single run"]),
            Gate(
                name=GateName.VALUE,
                verdict=Verdict.PASS,
                reasons=[GateReason(id="touches", facts={"refs": ["docs/a.md", "#112"]})],
            ),
        ],
        maturity="code-available",
        flags=["unverified"],
        recommendation=Recommendation.VALIDATE,
        priority="P1",
        horizon="Next",
        touch_points=[
            TouchPoint(kind="doc", ref="docs/kv-cache-offload.md"),
            TouchPoint(kind="pr", ref="#112"),
        ],
        relation="extensible-gap",
        family="kv-rollback",
        related=["gh:example/strata"],
        differs_pending=PendingDifference(names=["Strata"]),
        evidence_id="S1",
    )
    tricky = Finding(
        project_key="url:https://example.org/post",
        name='=HYPERLINK("http://evil")',
        date=date(2026, 11, 30),
        recommendation=Recommendation.WATCH,
        tags=_tags(workload=["diffusion"], custom_axis=["alpha"]),
    )
    return [ninfer, tricky]


def test_export_writes_csv_with_bom_and_xlsx(tmp_path: Path) -> None:
    findings = _findings()
    paths = export_findings(findings, tmp_path / "out")
    assert [p.name for p in paths] == ["findings.csv", "findings.xlsx"]
    raw = paths[0].read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    with paths[0].open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 2
    row = rows[0]
    assert row["canonical_key"] == "gh:neroued/ninfer"
    assert row["pinned_version"] == SHA
    assert row["version_date"].startswith("2026-10-29")
    assert row["novelty"] == "new-progress"
    assert row["mechanism"] == "cache; quant-sparsity-speculation"
    assert "缓存" in row["mechanism_zh"]
    assert row["maturity"] == "code-available" and row["maturity_zh"] == "代码可用"
    assert row["gate_correctness"] == "pass"
    assert row["gate_correctness_reasons"] == "source read; identity ok"
    assert row["gate_value"] == "pass" and row["gate_value_reasons"] == "touches docs/a.md, #112"
    assert row["gate_timeliness"] == "unknown"
    assert row["differs"] == "待补：相对 Strata 的新增工作，需人工核对"
    assert row["touch_points"] == "doc:docs/kv-cache-offload.md; pr:#112"
    assert row["headline_numbers"] == (
        "throughput 922.4 tok/s (RTX 5090 · Qwen3-27B · NVFP4 · concurrency=8 · vs llama.cpp; author)"
    )
    assert row["recommendation"] == "值得验证" and row["evidence_id"] == "S1"
    assert rows[1]["project"] == '\'=HYPERLINK("http://evil")'
    assert rows[1]["custom_axis"] == "alpha"


def test_english_export_has_english_labels_and_words(tmp_path: Path) -> None:
    findings = _findings()
    csv_path, _ = export_findings(findings, tmp_path, language="en")
    with csv_path.open(encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        rows = list(reader)
    assert reader.fieldnames == build_columns(findings, "en")
    assert not [name for name in reader.fieldnames or [] if name.endswith("_zh")]
    row = rows[0]
    assert row["mechanism_en"] == "Cache; Quantization / Sparsity / Speculation"
    assert (row["maturity_en"], row["relation_en"]) == ("Code available", "Extensible gap")
    assert row["recommendation"] == "worth validating"
    assert row["differs"] == "to fill in by hand: what is new relative to Strata"
    assert rows[1]["recommendation"] == "watch"
    assert not re.search(r"[\u3400-\u9fff]", csv_path.read_text(encoding="utf-8-sig"))


def test_xlsx_has_bold_frozen_filtered_header(tmp_path: Path) -> None:
    findings = _findings()
    _, xlsx = export_findings(findings, tmp_path, stem="day")
    book = load_workbook(xlsx)
    sheet = book.active
    header = [cell.value for cell in sheet[1]]
    assert header == build_columns(findings)
    assert all(cell.font.bold for cell in sheet[1])
    assert sheet.freeze_panes == "A2"
    assert sheet.auto_filter.ref == sheet.dimensions
    assert sheet.max_row == 3
    assert sheet.column_dimensions["A"].width >= 10
    values = {header[i]: cell.value for i, cell in enumerate(sheet[3])}
    assert values["project"] == '=HYPERLINK("http://evil")', "text, with no visible apostrophe"
    assert sheet.cell(row=3, column=header.index("project") + 1).data_type == "s"
    first = {header[i]: cell for i, cell in enumerate(sheet[2])}
    assert first["date"].value.date() == findings[0].date and first["date"].is_date
    assert first["url"].hyperlink is not None
    assert first["url"].hyperlink.target == first["url"].value == findings[0].url
    assert {header[i]: c.value for i, c in enumerate(sheet[2])}["pinned_version"] == SHA


def test_empty_export_has_only_the_header(tmp_path: Path) -> None:
    csv_path, xlsx = export_findings([], tmp_path)
    assert csv_path.read_text(encoding="utf-8-sig").splitlines() == [",".join(build_columns([]))]
    assert load_workbook(xlsx).active.max_row == 1


@pytest.mark.skipif(importlib.util.find_spec("gspread") is not None, reason="gspread is installed")
def test_sheet_sync_without_gspread_says_how_to_install() -> None:
    with pytest.raises(ConfigError, match=r"research-radar\[sheets\]"):
        sync_google_sheet(_findings(), spreadsheet="abc")


def test_cli_export_writes_the_store(tmp_path: Path, store: Store, db_path: Path) -> None:
    with store.transaction() as conn:
        for finding in _findings():
            store.save_finding(conn, finding)
    out = tmp_path / "exports"
    result = CliRunner().invoke(
        app, ["export", "--out", str(out), "--db", str(db_path), "--date", "2026-11-30"]
    )
    assert result.exit_code == 0, result.output
    with (out / "findings-2026-11-30.csv").open(encoding="utf-8-sig", newline="") as handle:
        assert len(list(csv.DictReader(handle))) == 2
    assert (out / "findings-2026-11-30.xlsx").is_file()


def test_cli_export_html_needs_a_stored_report(tmp_path: Path, db_path: Path) -> None:
    open_store(str(db_path))
    result = CliRunner().invoke(
        app,
        ["export", "--out", str(tmp_path), "--db", str(db_path), "--date", "2026-11-30", "--html"],
    )
    assert result.exit_code == 1
    assert "radar daily --date 2026-11-30" in result.output


def test_cli_export_html_without_date_uses_the_newest_report(
    tmp_path: Path, store: Store, db_path: Path
) -> None:
    with store.transaction() as conn:
        for finding in _findings():
            store.save_finding(conn, finding)
        for day in ("2026-11-29", "2026-11-30"):
            store.save_report(conn, date.fromisoformat(day), "zh", f"## {day} 日报\n", {})
    out = tmp_path / "exports"
    open_store(str(db_path))
    result = CliRunner().invoke(app, ["export", "--out", str(out), "--db", str(db_path), "--html"])
    assert result.exit_code == 0, result.output
    assert "newest stored report, 2026-11-30" in result.output
    assert "2026-11-30 日报" in (out / "report-2026-11-30.html").read_text(encoding="utf-8")
    assert (out / "findings.csv").is_file() and not (out / "report-2026-11-29.html").exists()


def test_cli_export_html_without_any_report_writes_nothing(tmp_path: Path, db_path: Path) -> None:
    out = tmp_path / "exports"
    open_store(str(db_path))
    result = CliRunner().invoke(app, ["export", "--out", str(out), "--db", str(db_path), "--html"])
    assert result.exit_code == 1
    assert "no zh report in the store" in result.output
    assert not out.exists()


def test_cli_export_help_shows_the_sheets_section() -> None:
    result = CliRunner().invoke(app, ["export", "--help"], terminal_width=200)
    assert result.exit_code == 0 and "[sheets]" in result.output
