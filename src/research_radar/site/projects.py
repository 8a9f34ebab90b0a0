"""A project's page: what it is, where it was mentioned, every distinct claim it made
and its latest finding (pure)."""

from __future__ import annotations

from typing import Any

from research_radar.models import Finding, Project
from research_radar.site.cards import Card, Labels, family_path, project_path
from research_radar.site.page import Page, make_page

__all__ = ["project_page"]


def _papers(project: Project) -> list[dict[str, str]]:
    return [
        {
            "key": s,
            "url": f"https://arxiv.org/abs/{s[6:]}"
            if s.startswith("arxiv:")
            else f"https://doi.org/{s[4:]}",
        }
        for s in project.sources
        if s.startswith(("arxiv:", "doi:"))
    ]


_CONDITIONS = ("hardware", "model", "precision", "baseline", "software")


def _conditions(claims: list[dict[str, Any]]) -> list[str]:
    """Every condition value of the page's claims, once each (by field, as first seen).

    The search index reads these instead of each claim's condition rows: a project page
    repeats the same hardware, model and baseline in claim after claim, and those rows
    were a quarter of what Pagefind indexed (issue #18). Every value stays searchable
    on the project's page; the field names and how often a value recurs are not indexed.
    """
    values: dict[str, None] = {}
    for name in _CONDITIONS:
        for claim in claims:
            values.update(dict.fromkeys(claim["conditions"][name]))
    for claim in claims:
        conditions = claim["conditions"]
        values.update(dict.fromkeys(f"{k} {v}" for k, v in sorted(conditions["load"].items())))
        if conditions["repeats"]:
            values[conditions["repeats"]] = None
    return list(values)


def _claims(findings: list[Finding]) -> list[dict[str, Any]]:
    """One entry per distinct claim, newest first, with the days and versions it was seen
    at. Its conditions are plain data, so the page's fingerprint need not dump a model."""
    claims: dict[str, dict[str, Any]] = {}
    for f in reversed(findings):
        for c in f.claims:
            key = c.model_dump_json()
            seen = claims.get(key)
            if seen is None:
                seen = claims[key] = {
                    "kind": c.kind.value,
                    "text": c.text,
                    "metrics": "，".join(
                        f"{m.name} {m.value:g} {m.unit}".strip() for m in c.metrics
                    ),
                    "conditions": c.conditions.model_dump(mode="json"),
                    "where": c.where,
                    "reporter": c.reporter,
                    "seen": [],
                }
            seen["seen"].append(
                {
                    "day": f.date.isoformat(),
                    "version": f.snapshot.version if f.snapshot else "",
                    "version_url": f.snapshot.url if f.snapshot else "",
                }
            )
    return list(claims.values())


def project_page(
    site: Labels,
    project: Project,
    findings: list[Finding],
    cards: list[Card],
    forks: dict[str, list[str]],
) -> Page:
    """The page of one project from its findings (oldest first) and their cards."""
    data = site.data
    former = sorted({name for f in findings for name in f.former_names})
    aliases = sorted({*project.aliases, *data.aliases.get(project.key, [])} - {project.name})

    def link(key: str) -> dict[str, str]:
        other = data.projects.get(key)
        return {
            "name": other.name if other else key,
            "href": project_path(key) if other and key in data.projects else "",
        }

    claims = _claims(findings)
    family = project.family or next((f.family for f in reversed(findings) if f.family), None)
    return make_page(
        project_path(project.key),
        "project.html.j2",
        f"{project.name} · Research Radar",
        indexed=True,
        project=project,
        url=next((f.url for f in reversed(findings) if f.url), ""),
        aliases=aliases,
        former=former,
        fork_of=link(project.fork_of) if project.fork_of else None,
        forks=[link(key) for key in sorted(forks.get(project.key, []))],
        papers=_papers(project),
        family={
            "name": site.family_label(family),
            "href": family_path(family) if any(f.family == family for f in findings) else "",
        }
        if family
        else None,
        mentions=[
            {
                "day": c.day,
                "href": c.report_href,
                "recommendation": c.recommendation,
                "version": c.version,
            }
            for c in reversed(cards)
        ],
        claims=claims,
        conditions=_conditions(claims),
        cards=list(reversed(cards))[:1],
        older=len(cards) - 1,
    )
