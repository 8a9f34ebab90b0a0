"""Findings as a table: CSV (UTF-8 with BOM, for Excel), XLSX and an optional Google Sheet.

One row per finding. Every dimension appears twice: value ids (stable, for filters and
scripts) and labels in the report's language (for people; columns `<dimension>_zh` or
`_en`), values joined with "; ". The recommendation, gate reasons and the difference from
earlier findings are worded in that language too. Each of the five gates has a verdict
column and a reasons column. In the CSV, cells that a spreadsheet would run as a formula
(=, +, -, @ at the start) are prefixed with an apostrophe; the XLSX needs no such guard
(its text cells are typed as text), and holds dates as dates, URLs as hyperlinks and
numbers as numbers.
"""

from __future__ import annotations

import csv
import importlib
import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from research_radar.classify.model import Taxonomy
from research_radar.classify.profile import load_taxonomy
from research_radar.errors import ConfigError, PublishError, StorageError
from research_radar.models import ClaimKind, Finding, GateName
from research_radar.publish.xlsx import build_xlsx
from research_radar.report.wording import (
    differs_text,
    gate_reason_text,
    recommendation_label,
    strings,
)

__all__ = [
    "Export",
    "build_columns",
    "build_export",
    "build_rows",
    "export_findings",
    "save_export",
    "sync_google_sheet",
]

_TAG_DIMENSIONS = ("workload", "mechanism", "system_level", "rsi_stage")
_HEAD = ["date", "project", "canonical_key", "url", "pinned_version", "version_date", "novelty"]


def _tail(language: str) -> list[str]:
    return [
        "rsi_target",
        "maturity",
        f"maturity_{language}",
        "flags",
        "recommendation",
        "priority",
        "horizon",
        *(f"gate_{gate.value}{suffix}" for gate in GateName for suffix in ("", "_reasons")),
        "relation",
        f"relation_{language}",
        "touch_points",
        "family",
        "related",
        "differs",
        "headline_numbers",
        "evidence_id",
    ]


def _extra_dimensions(findings: Sequence[Finding]) -> list[str]:
    """Dimensions a user profile adds, beyond the default ones, in first-seen order."""
    known = {*_TAG_DIMENSIONS, "maturity", "relation", "rsi_target", "maturity_flags"}
    seen: dict[str, None] = {}
    for finding in findings:
        for dimension in finding.tags:
            if dimension not in known:
                seen.setdefault(dimension, None)
    return list(seen)


def build_columns(findings: Sequence[Finding], language: str = "zh") -> list[str]:
    """Column names of the export for these findings."""
    dims = [*_TAG_DIMENSIONS, *_extra_dimensions(findings)]
    labels = (name for dim in dims for name in (dim, f"{dim}_{language}"))
    return [*_HEAD, *labels, *_tail(language)]


def _label(taxonomy: Taxonomy, dimension: str, value: str, language: str) -> str:
    try:
        return taxonomy.label(dimension, value, language)
    except KeyError:
        return value


def _numbers(finding: Finding, language: str) -> str:
    """Headline numbers, each with its conditions, marked with who reports them."""
    items = []
    for claim in finding.claims:
        if claim.kind is not ClaimKind.PERFORMANCE or not claim.metrics:
            continue
        cond = claim.conditions
        where = [*cond.hardware, *cond.model, *cond.precision]
        where += [f"{key}={value}" for key, value in cond.load.items()]
        where += [f"vs {base}" for base in cond.baseline]
        metrics = ", ".join(f"{m.name} {m.value:g} {m.unit}".strip() for m in claim.metrics)
        missing = strings(language)["conditions_missing"]
        items.append(f"{metrics} ({' · '.join(where) or missing}; {claim.reporter})")
    return "; ".join(items)


def _finding_row(
    finding: Finding, taxonomy: Taxonomy, dims: list[str], language: str
) -> dict[str, str]:
    snap = finding.snapshot
    row = {
        "date": finding.date.isoformat(),
        "project": finding.name,
        "canonical_key": finding.project_key,
        "url": finding.url or (snap.url if snap else ""),
        "pinned_version": snap.version if snap else "",
        "version_date": snap.version_date.isoformat() if snap and snap.version_date else "",
        "novelty": finding.novelty.value,
    }
    for dim in dims:
        values = finding.values(dim)
        row[dim] = "; ".join(values)
        labels = (_label(taxonomy, dim, value, language) for value in values)
        row[f"{dim}_{language}"] = "; ".join(labels)
    gates = {gate.name: gate for gate in finding.gates}
    for name in GateName:
        gate = gates.get(name)
        row[f"gate_{name.value}"] = gate.verdict.value if gate else "unknown"
        reasons = [gate_reason_text(reason, language) for reason in gate.reasons] if gate else []
        row[f"gate_{name.value}_reasons"] = "; ".join(reasons)
    row.update(
        rsi_target=finding.rsi_target or "",
        maturity=finding.maturity,
        flags="; ".join(finding.flags),
        recommendation=recommendation_label(finding.recommendation, language),
        priority=finding.priority,
        horizon=finding.horizon,
        relation=finding.relation,
        touch_points="; ".join(f"{tp.kind}:{tp.ref}" for tp in finding.touch_points),
        family=finding.family or "",
        related="; ".join(finding.related),
        differs=differs_text(finding, language),
        headline_numbers=_numbers(finding, language),
        evidence_id=finding.evidence_id,
    )
    row[f"maturity_{language}"] = _label(taxonomy, "maturity", finding.maturity, language)
    row[f"relation_{language}"] = _label(taxonomy, "relation", finding.relation, language)
    return row


def _safe(value: str) -> str:
    """Keep spreadsheets from running a cell as a formula (CSV/formula injection)."""
    if value[:1] in ("=", "+", "@", "\t", "\r") or (
        value[:1] == "-" and not value[1:2].isdigit() and value != "-"
    ):
        return "'" + value
    return value


def _plain_rows(
    findings: Sequence[Finding], taxonomy: Taxonomy | None, language: str = "zh"
) -> tuple[list[str], list[list[str]]]:
    """Header and rows as plain text, without the CSV formula guard."""
    taxonomy = taxonomy or load_taxonomy()
    columns = build_columns(findings, language)
    dims = [*_TAG_DIMENSIONS, *_extra_dimensions(findings)]
    rows = []
    for finding in findings:
        row = _finding_row(finding, taxonomy, dims, language)
        rows.append([row.get(column, "") for column in columns])
    return columns, rows


def build_rows(
    findings: Sequence[Finding], taxonomy: Taxonomy | None = None, language: str = "zh"
) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the CSV export (pure; the bundled profile gives the labels),
    each cell guarded against running as a formula."""
    columns, rows = _plain_rows(findings, taxonomy, language)
    return columns, [[_safe(value) for value in row] for row in rows]


@dataclass(frozen=True)
class Export:
    """The findings' CSV and XLSX, built (`build_export`) and not yet written."""

    csv: str
    """The CSV text (written as UTF-8 with a BOM)."""
    xlsx: bytes


def build_export(
    findings: Sequence[Finding], *, taxonomy: Taxonomy | None = None, language: str = "zh"
) -> Export:
    """The CSV and XLSX of the findings, in memory: the daily run builds them in a forked
    process while it saves and reviews the report, and writes them after (#19)."""
    columns, plain = _plain_rows(findings, taxonomy, language)
    text = io.StringIO(newline="")
    writer = csv.writer(text)
    writer.writerow(columns)
    writer.writerows([_safe(value) for value in row] for row in plain)
    return Export(text.getvalue(), build_xlsx(columns, plain))


def save_export(export: Export, out_dir: Path, *, stem: str = "findings") -> list[Path]:
    """Write `<stem>.csv` (UTF-8 with BOM) and `<stem>.xlsx` into `out_dir`; return both."""
    csv_path, xlsx_path = out_dir / f"{stem}.csv", out_dir / f"{stem}.xlsx"
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        with csv_path.open("w", encoding="utf-8-sig", newline="") as handle:
            handle.write(export.csv)
        xlsx_path.write_bytes(export.xlsx)
    except OSError as exc:
        raise StorageError(f"cannot write the export to {out_dir}: {exc}") from exc
    return [csv_path, xlsx_path]


def export_findings(
    findings: list[Finding],
    out_dir: Path,
    *,
    stem: str = "findings",
    taxonomy: Taxonomy | None = None,
    language: str = "zh",
) -> list[Path]:
    """Write `<stem>.csv` (UTF-8 with BOM) and `<stem>.xlsx` into `out_dir`; return both."""
    export = build_export(findings, taxonomy=taxonomy, language=language)
    return save_export(export, out_dir, stem=stem)


def sync_google_sheet(
    findings: list[Finding],
    *,
    spreadsheet: str,
    worksheet: str = "findings",
    credentials: Path | None = None,
    taxonomy: Taxonomy | None = None,
    language: str = "zh",
) -> int:
    """Replace a Google Sheet's worksheet with the export; return the rows written.

    Needs the optional `gspread` package (`pip install 'research-radar[sheets]'`) and a
    service-account JSON key (`credentials`, else gspread's default location).

    Args:
        spreadsheet: the spreadsheet's key or its full URL; share it with the service
            account's e-mail address as an editor.
    """
    try:
        gspread: Any = importlib.import_module("gspread")
    except ImportError as exc:
        raise ConfigError(
            "Google Sheets sync needs gspread: pip install 'research-radar[sheets]'"
        ) from exc
    if credentials is not None and not credentials.is_file():
        raise ConfigError(
            "service-account key not found; set [sheets] credentials", str(credentials)
        )
    columns, rows = build_rows(findings, taxonomy, language)
    try:
        client = gspread.service_account(filename=str(credentials) if credentials else None)
        book = (
            client.open_by_url(spreadsheet)
            if spreadsheet.startswith("https://")
            else client.open_by_key(spreadsheet)
        )
        try:
            sheet = book.worksheet(worksheet)
        except gspread.exceptions.WorksheetNotFound:
            sheet = book.add_worksheet(worksheet, rows=len(rows) + 1, cols=len(columns))
        sheet.clear()
        sheet.update([columns, *rows], "A1")
        sheet.freeze(rows=1)
    except FileNotFoundError as exc:
        raise ConfigError(
            "no Google service-account key: set [sheets] credentials in radar.toml "
            "(see docs/google-sheets.md)"
        ) from exc
    except gspread.exceptions.GSpreadException as exc:
        raise PublishError(
            f"Google Sheets refused the sync ({exc}); check sharing and the key"
        ) from exc
    return len(rows)
