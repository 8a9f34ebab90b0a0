"""Every page of the site, rendered with the shared Jinja environment (pure).

`render_pages` yields one `Page` at a time (`research_radar.site.page`), in search-bundle
order: the projects (`research_radar.site.projects`), then the reports, oldest first,
then the family and dimension pages and the overview pages
(`research_radar.site.overview`). Each finding becomes one `Card` (computed once) that
the report, project, family and dimension pages share. Family and dimension pages list
compact rows, paginated; rows carry their facet values as `data-facets`;
`assets/site.js` filters them, and without JavaScript every row shows.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from datetime import date

from research_radar.classify.model import Taxonomy
from research_radar.models import Finding, Project
from research_radar.site.cards import (
    Card,
    Labels,
    dimension_path,
    family_path,
    finding_values,
    numbered_path,
    report_path,
)
from research_radar.site.data import SiteData
from research_radar.site.overview import Tally, overview_pages
from research_radar.site.page import Body, Page, make_page
from research_radar.site.projects import project_page

__all__ = ["LIST_LIMIT", "PAGE_SIZE", "render_pages"]

LIST_LIMIT = 1000
"""At most this many rows across a family's or dimension value's pages (the newest);
search finds all."""

PAGE_SIZE = 200
"""Rows on one page of a family or dimension value."""

Progress = Callable[[str, int], None]


def render_pages(
    data: SiteData,
    taxonomy: Taxonomy,
    *,
    progress: Progress | None = None,
    page_size: int = PAGE_SIZE,
) -> Iterator[Page]:
    """Every page of the site, one at a time.

    Args:
        data: the public-only site data (`load_site_data`).
        taxonomy: labels for the dimensions and their values.
        progress: called with a step name and how many pages it rendered.
        page_size: rows on one page of a family or dimension value.
    """
    site = Labels(data, taxonomy, page_size=page_size)
    findings = data.findings
    cards = [site.card(finding) for finding in findings]
    tally = Tally(days=sorted(data.reports))

    def note(step: str, count: int) -> None:
        if progress is not None:
            progress(step, count)

    for finding in findings:
        tally.by_day[finding.date] += 1
    # the projects first: their search bundle, the largest, is indexed while the rest
    # renders (`research_radar.site.search.EarlyIndex`)
    yield from _project_pages(site, findings, cards, tally, note)
    yield from _report_pages(data, findings, cards, tally.days)
    note("reports", len(tally.days))
    yield from _family_pages(site, findings, cards, tally)
    note("families", len(tally.families))
    yield from _dimension_pages(site, findings, cards, tally)
    note("dimensions", sum(len(group["values"]) for group in tally.dimensions))
    yield from overview_pages(site, findings, tally)
    note("indexes", 8)


def _report_pages(
    data: SiteData, findings: Sequence[Finding], cards: Sequence[Card], days: list[date]
) -> Iterator[Page]:
    for number, day in enumerate(days):
        yield make_page(
            report_path(day),
            "report.html.j2",
            f"{day.isoformat()} · Research Radar",
            indexed=True,
            day=day.isoformat(),
            body=Body(data.reports[day], data.bodies.get(day)),
            previous=report_path(days[number - 1]).split("/")[1] if number else "",
            following=report_path(days[number + 1]).split("/")[1] if number + 1 < len(days) else "",
            projects=[cards[i] for i in _day_indexes(findings, day)],
        )


def _project_pages(
    site: Labels,
    findings: Sequence[Finding],
    cards: Sequence[Card],
    tally: Tally,
    note: Progress,
) -> Iterator[Page]:
    """Each project's page, in key order; a row for each in `tally.projects`."""
    data = site.data
    by_project: dict[str, list[int]] = defaultdict(list)
    for index, finding in enumerate(findings):
        by_project[finding.project_key].append(index)
    forks: dict[str, list[str]] = defaultdict(list)
    for project in data.projects.values():
        if project.fork_of:
            forks[project.fork_of].append(project.key)
    for count, (key, indexes) in enumerate(sorted(by_project.items()), start=1):
        project = data.projects.get(key) or Project(key=key, name=findings[indexes[-1]].name)
        yield project_page(
            site, project, [findings[i] for i in indexes], [cards[i] for i in indexes], forks
        )
        latest = cards[indexes[-1]]
        tally.projects.append(
            {
                "name": latest.name,
                "href": latest.href,
                "key": key,
                "count": len(indexes),
                "last": latest.day,
                "recommendation": latest.recommendation,
            }
        )
        if count % 1000 == 0:
            note("projects", count)
    note("projects", len(by_project))


def _family_pages(
    site: Labels, findings: Sequence[Finding], cards: Sequence[Card], tally: Tally
) -> Iterator[Page]:
    by_family: dict[str, list[int]] = defaultdict(list)
    for index, finding in enumerate(findings):
        if finding.family:
            by_family[finding.family].append(index)
    for family, indexes in sorted(by_family.items()):
        label = site.family_label(family)
        yield from _listings(
            site, family_path(family), label, family, [cards[i] for i in indexes], kind="family"
        )
        tally.families.append(
            {"name": label, "href": family_path(family), "key": family, "count": len(indexes)}
        )


def _dimension_pages(
    site: Labels, findings: Sequence[Finding], cards: Sequence[Card], tally: Tally
) -> Iterator[Page]:
    by_value: dict[tuple[str, str], list[int]] = defaultdict(list)
    for index, finding in enumerate(findings):
        for dimension in site.dimensions:
            for value in finding_values(finding, dimension.id):
                by_value[(dimension.id, value)].append(index)
    for dimension in site.dimensions:
        values = []
        known = set(dimension.value_ids)
        others = sorted({v for d, v in by_value if d == dimension.id} - known)
        for value in [*dimension.value_ids, *others]:
            indexes = by_value.get((dimension.id, value), [])
            if not indexes:
                continue
            title = f"{dimension.label(site.lang)}：{site.label(dimension.id, value)}"
            yield from _listings(
                site,
                dimension_path(dimension.id, value),
                title,
                f"{dimension.id}={value}",
                [cards[i] for i in indexes],
                kind="dimension",
            )
            values.append(
                {
                    "name": site.label(dimension.id, value),
                    "href": dimension_path(dimension.id, value),
                    "count": len(indexes),
                }
            )
        tally.dimensions.append({"label": dimension.label(site.lang), "values": values})


def _day_indexes(findings: Sequence[Finding], day: date) -> list[int]:
    """Indexes of the findings of one day (binary search over the date-sorted list)."""
    low, high = 0, len(findings)
    while low < high:
        middle = (low + high) // 2
        if findings[middle].date < day:
            low = middle + 1
        else:
            high = middle
    result = []
    while low < len(findings) and findings[low].date == day:
        result.append(low)
        low += 1
    return result


def _listings(
    site: Labels, path: str, title: str, key: str, cards: list[Card], *, kind: str
) -> Iterator[Page]:
    """The pages of one family or dimension value: compact rows, newest first."""
    newest = list(reversed(cards))[:LIST_LIMIT]
    size = site.page_size
    count = max(1, (len(newest) + size - 1) // size)
    for number in range(1, count + 1):
        shown = newest[(number - 1) * size : number * size]
        here = numbered_path(path, number)
        yield make_page(
            here,
            "listing.html.j2",
            f"{title} · Research Radar" + (f" ({number}/{count})" if count > 1 else ""),
            scripts=True,
            heading=title,
            key=key,
            kind=kind,
            cards=shown,
            total=len(cards),
            listed=len(newest),
            first=(number - 1) * size + 1,
            number=number,
            pages=[
                {"number": n, "href": numbered_path(path, n).rsplit("/", 1)[1]}
                for n in range(1, count + 1)
            ]
            if count > 1
            else [],
            facet_groups=site.facet_options(shown),
        )
