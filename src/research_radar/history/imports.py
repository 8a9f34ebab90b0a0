"""History import, the edge: read earlier report files into the store, list what it holds.

`import_reports` reads the files, builds a plan with `history_import.build_import` and saves
it in one transaction; `load_projects` reads projects back for `radar history list`.
Re-exported from `history`.
"""

from __future__ import annotations

import gc
import json
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, select

from research_radar.history.plan import HistoryPlan, build_import
from research_radar.history.reading import EntryFacts, read_reports
from research_radar.models import Project
from research_radar.report.parse import ParsedReport
from research_radar.store.rows import content_hash
from research_radar.store.schema import corrections as corrections_table
from research_radar.store.schema import project_sources
from research_radar.store.schema import reports as reports_table
from research_radar.store.store import Store
from research_radar.textinput import read_text_input

__all__ = ["ImportSummary", "import_reports", "import_texts", "load_projects", "load_report_dates"]


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
    changes nothing (and the summary then counts nothing as new). The store remembers
    each import (its files' content and the aliases given), so importing the same again
    reads nothing of the history (issue #19).
    """
    texts = [(path.name, read_text_input(path).text) for path in paths]  # InputError
    return import_texts(store, texts, aliases=aliases)


def import_texts(
    store: Store, texts: list[tuple[str, str]], *, aliases: Mapping[str, str] | None = None
) -> ImportSummary:
    """`import_reports` of files already read: (file name, decoded text) each."""
    digest = content_hash(json.dumps([texts, sorted((aliases or {}).items())]))
    done = store.load_cursor(_IMPORTED, digest)
    if done is not None:
        return ImportSummary(**json.loads(done))
    with _without_cycle_collection():
        summary = _import(store, texts, aliases)
    with store.transaction() as conn:
        counts = {k: v for k, v in summary.as_dict().items() if not k.startswith("new_")}
        store.save_cursor(conn, _IMPORTED, digest, json.dumps(counts))
    return summary


_IMPORTED = "history-import"
"""The cursor source under which the store remembers each import it made."""


@contextmanager
def _without_cycle_collection() -> Iterator[None]:
    """Python's cycle collector off for a while. An import builds hundreds of thousands of
    objects that all live until it ends; each full collection walked them all again, a
    fifth of a large import's time (#19). What it leaves, the next collection after it finds."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _read_files(
    store: Store, texts: list[tuple[str, str]]
) -> tuple[list[tuple[str, ParsedReport]], list[list[EntryFacts]], list[str]]:
    """The files' reports as (origin, report), their entries' facts, and what was skipped:
    the reports this store itself wrote."""
    reports: list[tuple[str, ParsedReport]] = []
    facts: list[list[EntryFacts]] = []
    own_skipped: list[str] = []
    for name, text in texts:
        own = _own_report_days(store, text)
        for report, entries in read_reports(text):
            if report.date is not None and report.date in own:
                own_skipped.append(
                    f"{name}: the {report.date.isoformat()} report is this store's own "
                    "(its findings are already here)"
                )
                continue
            reports.append((f"import:{name}", report))
            facts.append(entries)
    return reports, facts, own_skipped


def _import(
    store: Store, texts: list[tuple[str, str]], aliases: Mapping[str, str] | None
) -> ImportSummary:
    reports, facts, own_skipped = _read_files(store, texts)
    origins = {origin for origin, _ in reports}
    prior = store.load_findings(except_origins=origins)
    stored_aliases = store.load_aliases()
    keys = [source.key for source in store.load_sources()]
    rows = store.load_finding_rows()
    existing: dict[str, Project] = {}
    with store.transaction() as conn:

        def save_identities(plan: HistoryPlan) -> None:
            # Read before this transaction writes: a second connection reading while the
            # writer held its lock waited out the busy timeout (issue #19).
            existing.update(store.load_projects_of(plan.projects))
            _save_identities(store, conn, plan)

        plan = build_import(
            reports,
            aliases={**stored_aliases, **(aliases or {})},
            known_keys=keys,
            prior=prior,
            facts=facts,
            meanwhile=save_identities,  # while the families are matched (#19)
        )
        read = len(plan.findings)
        plan = _without_reported(plan, rows)
        new_corrections = _save_findings(store, conn, plan, existing)
    stored_findings = {(row["project_key"], row["date"], row["origin"]) for row in rows}
    new_findings = {
        (finding.project_key, finding.date, origin)
        for finding, origin in zip(plan.findings, plan.origins, strict=True)
    } - stored_findings
    stored_projects = set(existing)
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


def _save_identities(store: Store, conn: Connection, plan: HistoryPlan) -> None:
    """Save what the plan says of identities: sources, their links to projects, aliases."""
    store.save_sources(conn, plan.sources.values(), only_new=True)
    store.save_project_sources(conn, plan.links)
    store.save_aliases(conn, plan.aliases)


def _save_findings(
    store: Store, conn: Connection, plan: HistoryPlan, existing: Mapping[str, Project]
) -> int:
    """Save the plan's projects (after `_save_identities`), findings and corrections, table
    by table in batches; return how many corrections were new.

    `existing`: the stored projects the plan names, read before the transaction wrote."""
    store.save_projects(
        conn,
        [_merged(existing.get(key), project) for key, project in plan.projects.items()],
        linked=plan.links,  # written by `_save_identities`: not again (#19)
    )
    store.save_findings(conn, plan.findings, plan.origins)
    return store.save_corrections(conn, plan.corrections)


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
