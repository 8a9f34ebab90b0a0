"""The site's overview pages: the lists of projects, families, dimensions and reports,
the charts, the search page and the home page (pure)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from markupsafe import Markup

from research_radar.models import Finding
from research_radar.publish.gate import check_public
from research_radar.site.cards import Labels, finding_values, report_path
from research_radar.site.charts import Bar, bar_chart, health_grid, stacked_bars
from research_radar.site.page import Body, Page, make_page
from research_radar.site.search import report_bundle

__all__ = ["Tally", "overview_pages"]


@dataclass
class Tally:
    """What the other pages counted, for the overview pages."""

    days: list[date]
    """The days with a report, oldest first."""
    by_day: Counter[date] = field(default_factory=Counter)
    """Findings per day."""
    projects: list[dict[str, Any]] = field(default_factory=list)
    """A row per project page."""
    families: list[dict[str, Any]] = field(default_factory=list)
    """A row per family (with its finding `count`)."""
    dimensions: list[dict[str, Any]] = field(default_factory=list)
    """A group of value rows per dimension."""


def _week(day: date) -> str:
    year, week, _ = day.isocalendar()
    return f"{year}-W{week:02d}"


def _weekly_chart(site: Labels, findings: Sequence[Finding], dimension: str, title: str) -> Markup:
    weeks_of = {day: _week(day) for day in {f.date for f in findings}}
    weeks = sorted(set(weeks_of.values()))
    index = {week: i for i, week in enumerate(weeks)}
    counts: dict[str, list[int]] = {}
    for finding in findings:
        at = index[weeks_of[finding.date]]
        for value in finding_values(finding, dimension) or ["—"]:
            row = counts.get(value)
            if row is None:
                row = counts[value] = [0] * len(weeks)
            row[at] += 1
    dim = site.taxonomy.dimension(dimension)
    order = [v for v in dim.value_ids if v in counts] + sorted(
        v for v in counts if v not in dim.value_ids
    )
    series = [(site.label(dimension, v) if v != "—" else "—", counts[v]) for v in order]
    return stacked_bars(weeks, series, title=title)


def _metric_groups(findings: Sequence[Finding], limit: int = 12) -> list[dict[str, Any]]:
    """Claims of one metric across hardware, only comparable conditions together.

    A group is one metric (name and unit) on one model, precision and baseline; a group is
    charted when it holds numbers on at least two kinds of hardware. The newest claim of a
    project on a given hardware wins.
    """
    groups: dict[tuple[str, str, str, str, str], dict[tuple[str, str], tuple[float, str]]] = {}
    for finding in findings:
        for claim in finding.claims:
            c = claim.conditions
            if len(c.hardware) != 1 or not c.model or not c.precision:
                continue
            setting = (" / ".join(c.model), " / ".join(c.precision), " / ".join(c.baseline))
            for metric in claim.metrics:
                if metric.name in ("speedup",) or not metric.unit or metric.unit == "x":
                    continue
                key = (metric.name, metric.unit, *setting)
                groups.setdefault(key, {})[(c.hardware[0], finding.project_key)] = (
                    metric.value,
                    finding.name,
                )
    charted = []
    for (name, unit, model, precision, baseline), points in groups.items():
        if len({hardware for hardware, _ in points}) < 2:
            continue
        bars = [
            Bar(f"{hardware} · {project_name}", value, href="")
            for (hardware, _), (value, project_name) in sorted(
                points.items(), key=lambda item: -item[1][0]
            )
        ][:20]
        title = f"{name} ({unit}) · {model} · {precision}" + (
            f" · vs {baseline}" if baseline else ""
        )
        charted.append(
            {"title": title, "svg": bar_chart(bars, title=title, unit=unit), "bars": bars}
        )
    charted.sort(key=lambda group: (-len(group["bars"]), str(group["title"])))
    return charted[:limit]


def _health(site: Labels) -> tuple[list[dict[str, Any]], Markup | None]:
    rows = []
    for source, row in sorted(site.data.health.items()):
        error = str(row.get("last_error") or "")
        if error and check_public(error):
            error = "(withheld: not public-safe)"
        rows.append(
            {
                "source": source,
                "status": row.get("status", ""),
                "last_ok": str(row.get("last_ok_at") or "")[:16],
                "error": error[:200],
            }
        )
    points = site.data.history
    if not points:
        return rows, None
    moments = sorted({point.when.strftime("%Y-%m-%d %H:%M") for point in points})
    sources = sorted({point.source for point in points})
    states = {(p.source, p.when.strftime("%Y-%m-%d %H:%M")): p.state for p in points}
    title = "Sources' health per run" if site.lang == "en" else "来源健康度（每次运行）"
    return rows, health_grid(sources, moments, states, title=title)


def _lists(tally: Tally) -> Iterator[Page]:
    """The lists of projects, families, dimensions and reports."""
    projects = sorted(tally.projects, key=lambda row: (row["last"], row["name"]), reverse=True)
    yield make_page(
        "projects/index.html", "projects.html.j2", "Projects · Research Radar", rows=projects
    )
    families = sorted(tally.families, key=lambda row: (-int(row["count"]), str(row["name"])))
    yield make_page(
        "families/index.html",
        "families.html.j2",
        "Mechanism families · Research Radar",
        rows=families,
    )
    yield make_page(
        "dimensions/index.html",
        "dimensions.html.j2",
        "Dimensions · Research Radar",
        groups=tally.dimensions,
    )
    reports = [
        {"day": d.isoformat(), "href": report_path(d), "count": tally.by_day.get(d, 0)}
        for d in reversed(tally.days)
    ]
    yield make_page(
        "reports/index.html", "reports.html.j2", "Reports · Research Radar", rows=reports
    )


def _charts(site: Labels, findings: Sequence[Finding], health_chart: Markup | None) -> Page:
    en = site.lang == "en"
    return make_page(
        "charts.html",
        "charts.html.j2",
        "Charts · Research Radar",
        by_mechanism=_weekly_chart(
            site,
            findings,
            "mechanism",
            "Findings per week by mechanism" if en else "每周发现数（按机制）",
        )
        if findings
        else None,
        by_workload=_weekly_chart(
            site,
            findings,
            "workload",
            "Findings per week by workload" if en else "每周发现数（按负载）",
        )
        if findings
        else None,
        metrics=_metric_groups(findings),
        health_chart=health_chart,
    )


def overview_pages(site: Labels, findings: Sequence[Finding], tally: Tally) -> Iterator[Page]:
    """The lists, the charts, the search page and the home page."""
    data = site.data
    yield from _lists(tally)
    health_rows, health_chart = _health(site)
    yield _charts(site, findings, health_chart)
    days = tally.days
    yield make_page(
        "search.html",
        "search.html.j2",
        "Search · Research Radar",
        scripts=True,
        search=True,
        bundles=[report_bundle(year) + "/" for year in sorted({day.year for day in days})],
    )
    per_day = sorted(tally.by_day.items())[-60:]
    day_chart = (
        bar_chart(
            [
                Bar(d.isoformat(), n, href=report_path(d) if d in data.reports else "")
                for d, n in reversed(per_day)
            ],
            title="Findings per day" if site.lang == "en" else "每日发现数",
        )
        if per_day
        else None
    )
    newest = days[-1] if days else None
    yield make_page(
        "index.html",
        "home.html.j2",
        "Research Radar",
        latest=newest.isoformat() if newest else "",
        latest_href=report_path(newest) if newest else "",
        latest_body=Body(data.reports[newest], data.bodies.get(newest)) if newest else None,
        health=health_rows,
        day_chart=day_chart,
        totals={
            "findings": len(findings),
            "projects": len(tally.projects),
            "reports": len(days),
            "families": len(tally.families),
        },
        withheld=data.withheld_findings + len(data.withheld_reports),
    )
