"""History import, the edge: read earlier report files into the store, list what it holds.

`import_reports` reads the files, builds a plan with `history_import.build_import` and saves
it in one transaction; `load_projects` reads projects back for `radar history list`.
Re-exported from `history`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, select

from research_radar.history.plan import HistoryPlan, build_import
from research_radar.models import Correction, Project
from research_radar.report.parse import ParsedReport, split_reports
from research_radar.store.schema import corrections as corrections_table
from research_radar.store.schema import project_sources
from research_radar.store.schema import reports as reports_table
from research_radar.store.store import Store
from research_radar.textinput import read_text_input

__all__ = ["ImportSummary", "import_reports", "load_projects", "load_report_dates"]


@dataclass(frozen=True)
class ImportSummary:
    """What an import read, and how much of it was new to the store.

    `projects`, `aliases`, `findings` and `corrections` count what the files hold; the
    `new_*` fields count what this import added (all 0 when the same files come again).
    """

    reports: int
    entries: int
    projects: int
    aliases: int
    findings: int
    corrections: int
    skipped: list[str]
    new_projects: int = 0
    new_aliases: int = 0
    new_findings: int = 0
    new_corrections: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "reports": self.reports,
            "entries": self.entries,
            "projects": self.projects,
            "aliases": self.aliases,
            "findings": self.findings,
            "corrections": self.corrections,
            "skipped": list(self.skipped),
            "new_projects": self.new_projects,
            "new_aliases": self.new_aliases,
            "new_findings": self.new_findings,
            "new_corrections": self.new_corrections,
        }


def import_reports(
    store: Store, paths: list[Path], *, aliases: Mapping[str, str] | None = None
) -> ImportSummary:
    """Import earlier house-style reports (Markdown or the tab-separated export) into the store.

    Findings are kept with origin `import:<file name>`; importing the same file again
    changes nothing (and the summary then counts nothing as new).
    """
    reports: list[tuple[str, ParsedReport]] = []
    own_skipped: list[str] = []
    for path in paths:
        text = read_text_input(path).text  # InputError: missing, empty, binary, undecodable
        own = _own_report_days(store, text)
        for report in split_reports(text):
            if report.date is not None and report.date in own:
                own_skipped.append(
                    f"{path.name}: the {report.date.isoformat()} report is this store's own "
                    "(its findings are already here)"
                )
                continue
            reports.append((f"import:{path.name}", report))
    origins = {origin for origin, _ in reports}
    rows = store.load_finding_rows()
    prior = [
        f
        for f, row in zip(store.load_findings(), rows, strict=True)
        if row["origin"] not in origins
    ]
    stored_aliases = store.load_aliases()
    keys = [source.key for source in store.load_sources()]
    plan = build_import(
        reports, aliases={**stored_aliases, **(aliases or {})}, known_keys=keys, prior=prior
    )
    read = len(plan.findings)
    plan = _without_reported(plan, rows)
    stored_findings = {(row["project_key"], row["date"], row["origin"]) for row in rows}
    new_findings = {
        (finding.project_key, finding.date, origin)
        for finding, origin in zip(plan.findings, plan.origins, strict=True)
    } - stored_findings
    stored_projects = {project.key for project in store.load_projects()}
    with store.transaction() as conn:
        new_corrections = _save_plan(store, conn, plan)
    return ImportSummary(
        reports=plan.reports,
        entries=plan.entries,
        projects=len(plan.projects),
        aliases=len(plan.aliases),
        findings=read,
        corrections=len(plan.corrections),
        skipped=[*own_skipped, *plan.skipped],
        new_projects=len(set(plan.projects) - stored_projects),
        new_aliases=sum(
            stored_aliases.get(alias) != key for alias, (key, _, _) in plan.aliases.items()
        ),
        new_findings=len(new_findings),
        new_corrections=new_corrections,
    )


_OWN_MARKER = re.compile(r"<!-- research-radar:report (\d{4}-\d{2}-\d{2}) (\w+) -->")


def _own_report_days(store: Store, text: str) -> set[date]:
    """Days of the reports in `text` that this store itself wrote (the radar's marker
    names the day and language, and the store kept a report for them)."""
    days = set()
    for day_text, language in _OWN_MARKER.findall(text):
        day = date.fromisoformat(day_text)
        if store.load_report(day, language) is not None:
            days.add(day)
    return days


def _without_reported(plan: HistoryPlan, rows: list[dict[str, Any]]) -> HistoryPlan:
    """Leave out imported findings the radar itself already reported on the same day."""
    reported = {(row["project_key"], row["date"]) for row in rows if row["origin"] == "radar"}
    keep = [
        (finding, origin)
        for finding, origin in zip(plan.findings, plan.origins, strict=True)
        if (finding.project_key, finding.date) not in reported
    ]
    if len(keep) == len(plan.findings):
        return plan
    return replace(plan, findings=[f for f, _ in keep], origins=[o for _, o in keep])


def _save_plan(store: Store, conn: Connection, plan: HistoryPlan) -> int:
    """Save the plan; return how many corrections were new."""
    existing = {project.key: project for project in store.load_projects()}
    for source in plan.sources.values():
        if store.load_source(source.key) is None:
            store.save_source(conn, source)
    for (project_key, source_key), (relation, evidence) in plan.links.items():
        _save_link(conn, project_key, source_key, relation, evidence)
    for project in plan.projects.values():
        store.save_project(conn, _merged(existing.get(project.key), project))
    for alias, (key, kind, evidence) in plan.aliases.items():
        store.save_alias(conn, alias, key, kind, evidence)
    for finding, origin in zip(plan.findings, plan.origins, strict=True):
        store.save_finding(conn, finding, origin=origin)
    return sum(_save_correction(conn, day, correction) for day, correction in plan.corrections)


def _merged(old: Project | None, new: Project) -> Project:
    """An imported project merged into the one the store already has (nothing is lost)."""
    if old is None:
        return new
    return old.model_copy(
        update={
            "aliases": sorted(set(old.aliases) | set(new.aliases)),
            "sources": sorted(set(old.sources) | set(new.sources)),
            "family": old.family or new.family,
            "fork_of": old.fork_of or new.fork_of,
        }
    )


# Project links keep their evidence and corrections have no Store method yet: these two
# writers stand in until Store.save_project_source / save_correction exist.


def _save_link(
    conn: Connection, project_key: str, source_key: str, relation: str, evidence: str
) -> None:
    where = (
        project_sources.c.project_key == project_key,
        project_sources.c.source_key == source_key,
    )
    if conn.execute(select(project_sources.c.relation).where(*where)).first() is None:
        conn.execute(
            project_sources.insert().values(
                project_key=project_key, source_key=source_key, relation=relation, evidence=evidence
            )
        )


def _save_correction(conn: Connection, day: date, correction: Correction) -> bool:
    """Save a correction unless it is already stored; True when it was new."""
    table = corrections_table
    where = (
        table.c.project_key == correction.project_key,
        table.c.date == day,
        table.c.text == correction.text,
    )
    if conn.execute(select(table.c.id).where(*where)).first() is None:
        conn.execute(
            table.insert().values(
                project_key=correction.project_key,
                date=day,
                text=correction.text,
                data=correction.model_dump(mode="json"),
            )
        )
        return True
    return False


def load_projects(store: Store) -> list[dict[str, Any]]:
    """Every project with its key, name, aliases, linked sources, fork parent, family and the
    dates it was reported on (for `radar history list`)."""
    aliases: dict[str, list[str]] = {}
    for alias, key in store.load_aliases().items():
        aliases.setdefault(key, []).append(alias)
    dates: dict[str, set[str]] = {}
    names: dict[str, str] = {}
    for finding_row in store.load_finding_rows():
        dates.setdefault(finding_row["project_key"], set()).add(str(finding_row["date"]))
        names.setdefault(finding_row["project_key"], finding_row["name"])
    rows = {project.key: project for project in store.load_projects()}
    with store.engine.connect() as conn:
        links: dict[str, list[dict[str, str]]] = {}
        for link in conn.execute(select(project_sources).order_by(project_sources.c.source_key)):
            links.setdefault(link.project_key, []).append(
                {
                    "key": link.source_key,
                    "kind": _kind_of(link.source_key),
                    "relation": link.relation,
                }
            )
        fixes: dict[str, list[dict[str, str]]] = {}
        for fix in conn.execute(select(corrections_table).order_by(corrections_table.c.date)):
            fixes.setdefault(fix.project_key, []).append({"date": str(fix.date), "text": fix.text})
    result = []
    for key in sorted(set(rows) | set(dates)):
        row = rows.get(key)
        result.append(
            {
                "key": key,
                "name": row.name if row is not None else names.get(key, key),
                "aliases": sorted(aliases.get(key, [])),
                "sources": links.get(key, []),
                "fork_of": row.fork_of if row is not None else None,
                "derivative": bool(row.derivative) if row is not None else False,
                "family": row.family if row is not None else None,
                "reported_on": sorted(dates.get(key, set())),
                "corrections": fixes.get(key, []),
            }
        )
    return result


def _kind_of(key: str) -> str:
    scheme = key.split(":", 1)[0]
    return {"gh": "repo", "arxiv": "paper", "doi": "paper", "url": "blog"}.get(scheme, "name")


def load_report_dates(store: Store, language: str = "zh") -> list[date]:
    """The days with a stored report in `language`, oldest first."""
    table = reports_table
    query = select(table.c.date).where(table.c.language == language).order_by(table.c.date)
    with store.engine.connect() as conn:
        return [row[0] for row in conn.execute(query)]
