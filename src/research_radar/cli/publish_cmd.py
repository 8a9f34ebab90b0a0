"""`radar publish` (a report as new comments on the index issue) and `radar export`."""

from __future__ import annotations

import re
from datetime import date, datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from research_radar.cli.common import (
    ConfigOption,
    DbOption,
    JsonOption,
    console,
    err_console,
    open_store_for,
    parse_day,
    print_json,
    settings_for,
)
from research_radar.config import Settings
from research_radar.errors import ConfigError, PublishError, RadarError
from research_radar.github import open_github_client
from research_radar.history.imports import load_report_dates
from research_radar.models import BEIJING
from research_radar.publish.export import export_findings, sync_google_sheet
from research_radar.publish.gate import allowed_hosts, check_public, load_private_repos
from research_radar.publish.index_issue import PublishResult, parse_target, publish_report
from research_radar.report.html import render_html
from research_radar.store.store import Store

_DATE_IN_REPORT = re.compile(r"(?:research-radar:report |^#{1,6}\s*)(20\d\d-\d\d-\d\d)", re.M)

DateOption = Annotated[
    str | None,
    typer.Option("--date", help="Report date YYYY-MM-DD. (default: today in Beijing)"),
]


def _report_from_file(path: Path, day: date | None) -> tuple[str, date]:
    try:
        markdown = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise typer.BadParameter(f"cannot read {path}: {exc}", param_hint="FILE") from exc
    if day is None:
        match = _DATE_IN_REPORT.search(markdown)
        if match is None:
            raise typer.BadParameter(
                f"no report date found in {path}; give --date YYYY-MM-DD", param_hint="--date"
            )
        day = parse_day(match.group(1), "FILE")
    return markdown, day


def _report_from_store(store: Store, day: date | None, language: str) -> tuple[str, date]:
    day = day or datetime.now(BEIJING).date()
    markdown = store.load_report(day, language)
    if markdown is None:
        raise RadarError(
            f"no {language} report for {day} in the store; run `radar daily --date {day}` "
            "first, or pass the report FILE"
        )
    return markdown, day


def _print_result(result: PublishResult) -> None:
    mode = "dry run" if result.dry_run else "published"
    table = Table(title=f"{result.report_date} → {result.target} ({mode})")
    for column in ("part", "characters", "status", "marker", "url"):
        table.add_column(column)
    for part in result.parts:
        table.add_row(
            f"{part.part}/{part.total}", str(part.size), part.status, part.marker, part.url or ""
        )
    console.print(table)
    for note in result.notes:
        console.print(f"[yellow]note:[/yellow] {note}")
    if result.dry_run:
        console.print("Dry run: nothing was posted. Run again with --yes to post.")


def _check_gate(markdown: str, private: set[str], settings: Settings) -> None:
    problems = check_public(
        markdown, private_repos=private, allowed_hosts=allowed_hosts(settings.publish.allowed_hosts)
    )
    if problems:
        for problem in problems:
            err_console.print(f"[red]refused:[/red] {escape(problem)}")
        raise PublishError(
            f"refusing to publish: {len(problems)} problem(s) for the public-only gate "
            "(private repository links, links to hosts not allowed, local paths or "
            "token-like strings); remove them"
        )


def publish(
    file: Annotated[
        Path | None,
        typer.Argument(help="A report Markdown file. (default: the stored report of --date)"),
    ] = None,
    issue: Annotated[
        str | None,
        typer.Option(
            "--issue", help="OWNER/REPO#N of the index issue. (default: index_issue in radar.toml)"
        ),
    ] = None,
    day: DateOption = None,
    yes: Annotated[bool, typer.Option("--yes", help="Really post (dry run otherwise).")] = False,
    new_version: Annotated[
        bool,
        typer.Option(
            "--new-version",
            help="Post even if a different report for that day is already on the issue.",
        ),
    ] = False,
    db: DbOption = None,
    config: ConfigOption = None,
    json: JsonOption = False,
) -> None:
    """Post a report as NEW comments on the research-index issue (dry run unless --yes).

    Never edits an earlier comment. Each part carries a hidden marker, so running again
    posts nothing twice; a report longer than GitHub's limit is split into numbered parts.
    Refuses links to private repositories, links to hosts other than public code/paper
    hosts and \\[publish] allowed_hosts, local paths and token-like strings.
    The API base comes from GITHUB_API_URL, the token from GITHUB_TOKEN.

    Example: radar publish --date 2026-11-30 --issue example-org/research#177
    """
    settings = settings_for(config, db, token=yes).with_overrides(index_issue=issue)
    target = settings.index_issue
    if not target:
        raise typer.BadParameter("no index issue: pass --issue OWNER/REPO#N", param_hint="--issue")
    parse_target(target)
    store = open_store_for(settings)
    when = parse_day(day, "--date") if day is not None else None
    markdown, when = (
        _report_from_file(file, when)
        if file
        else _report_from_store(store, when, settings.language)
    )
    private = load_private_repos(store, settings.publish.private_repos)
    _check_gate(markdown, private, settings)
    if yes and not settings.github_token:
        raise PublishError("no GitHub token: set GITHUB_TOKEN (or run `gh auth login`)")
    with open_github_client(settings.github_api_url, settings.github_token) as github:
        result = publish_report(
            github,
            target=target,
            markdown=markdown,
            report_date=when,
            store=store,
            dry_run=not yes,
            private_repos=private,
            allowed_hosts=allowed_hosts(settings.publish.allowed_hosts),
            allow_new_version=new_version,
        )
    if json:
        print_json(result.to_dict())
    else:
        _print_result(result)


def _sheet_options(settings: Settings) -> tuple[str, str, Path | None]:
    sheets = settings.sheets
    if not sheets.spreadsheet:
        raise ConfigError(
            'no spreadsheet configured: add [sheets] spreadsheet = "<key or URL>" to radar.toml'
        )
    return sheets.spreadsheet, sheets.worksheet, sheets.credentials


def _html_day(store: Store, day: date | None, language: str) -> date:
    """The report day for --html: --date, else the newest stored report (said on stderr)."""
    if day is not None:
        return day
    days = load_report_dates(store, language)
    if not days:
        raise RadarError(
            f"no {language} report in the store to write as HTML; run `radar daily` first, "
            "or leave out --html"
        )
    err_console.print(f"--html without --date: using the newest stored report, {days[-1]}")
    return days[-1]


def export(
    out: Annotated[
        Path, typer.Option("--out", help="Folder for findings.csv and findings.xlsx.")
    ] = Path("exports"),
    day: Annotated[
        str | None,
        typer.Option(
            "--date", help="Only the findings of this day (YYYY-MM-DD). (default: all days)"
        ),
    ] = None,
    html: Annotated[
        bool,
        typer.Option(
            "--html",
            help="Also write the stored report of --date as HTML. (default: the newest report)",
        ),
    ] = False,
    sheet: Annotated[
        bool, typer.Option("--sheet", help="Also replace the Google Sheet set in \\[sheets].")
    ] = False,
    db: DbOption = None,
    config: ConfigOption = None,
    json: JsonOption = False,
) -> None:
    """Write every finding in the store as CSV (UTF-8 with BOM) and XLSX, one row each.

    Columns: date, project, canonical key, pinned version, novelty, each dimension (ids and
    labels in the configured language), maturity, recommendation, the five gates with
    reasons, relation, touch points, related findings, headline numbers with conditions,
    evidence id.

    Example: radar export --out exports --date 2026-11-30 --html
    """
    settings = settings_for(config, db)
    store = open_store_for(settings, create=False)
    when = parse_day(day, "--date") if day is not None else None
    report = None
    if html:  # before writing anything, so a missing report leaves no half-done export
        report = _report_from_store(
            store, _html_day(store, when, settings.language), settings.language
        )
    findings = store.load_findings(on=when)
    stem = f"findings-{when.isoformat()}" if when else "findings"
    written = export_findings(findings, out, stem=stem, language=settings.language)
    if report is not None:
        markdown, page_day = report
        page = out / f"report-{page_day.isoformat()}.html"
        page.write_text(render_html(markdown, title=f"{page_day} Research Radar"), encoding="utf-8")
        written.append(page)
    rows = None
    if sheet:
        spreadsheet, worksheet, credentials = _sheet_options(settings)
        rows = sync_google_sheet(
            findings,
            spreadsheet=spreadsheet,
            worksheet=worksheet,
            credentials=credentials,
            language=settings.language,
        )
    if json:
        files = [str(path) for path in written]
        print_json({"findings": len(findings), "files": files, "sheet_rows": rows})
        return
    for path in written:
        console.print(f"wrote [bold]{escape(str(path))}[/bold]")
    sent = f"; {rows} row(s) sent to Google Sheets" if rows is not None else ""
    console.print(f"{len(findings)} finding(s){sent}")


def register(app: typer.Typer) -> None:
    """Add `publish` and `export` to the app."""
    app.command("publish")(publish)
    app.command("export")(export)
