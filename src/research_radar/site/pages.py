"""Every page of the site, rendered with the shared Jinja environment (pure).

`render_pages` yields one `Page` at a time, so a store of 100,000 findings never holds
the whole site in memory. A `Page` is not rendered yet: it holds its template, its
context and a fingerprint of both (plus the version of the templates and of this code),
so a rebuild renders only pages whose inputs changed (`research_radar.site.build`), and
rendering can run in other processes (`render_batch`). Each finding becomes one `Card`
(computed once) that the report, project, family and dimension pages share. Family and
dimension pages list compact rows, paginated; rows carry their facet values as
`data-facets`; `assets/site.js` filters them, and without JavaScript every row shows.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup
from pydantic import BaseModel

from research_radar.classify.model import Dimension, Taxonomy
from research_radar.errors import RenderError
from research_radar.models import Claim, Finding, Project, Recommendation
from research_radar.publish.gate import check_public
from research_radar.report.html import render_body
from research_radar.report.templates import environment
from research_radar.report.wording import novelty_label, recommendation_label
from research_radar.site.charts import Bar, bar_chart, health_grid, stacked_bars
from research_radar.site.data import SiteData
from research_radar.site.search import report_bundle

__all__ = [
    "CODE_VERSION",
    "LIST_LIMIT",
    "PAGE_SIZE",
    "Body",
    "Card",
    "Page",
    "dimension_path",
    "family_path",
    "numbered_path",
    "project_path",
    "render_batch",
    "render_pages",
    "report_path",
    "slug",
]

LIST_LIMIT = 1000
"""At most this many rows across a family's or dimension value's pages (the newest);
search finds all."""

PAGE_SIZE = 200
"""Rows on one page of a family or dimension value."""

_UNSAFE = re.compile(r"[^a-z0-9._-]+")
_CSS = "assets/site.css"
_TABLE = '<div class="table-wrap">'


@dataclass(frozen=True)
class Body:
    """A report's Markdown, rendered to HTML only when its page is rendered, unless its
    HTML was stored with it."""

    markdown: str
    html: str | None = None
    """The body as stored with the report (`reuse_body`); None: render the Markdown."""


@dataclass(frozen=True)
class Page:
    """One file of the site, not rendered yet.

    `fingerprint` changes whenever anything the page shows changes (its context, its
    template, the templates' and this code's version); `render()` makes the HTML.
    """

    path: str
    template: str
    context: dict[str, Any]
    indexed: bool
    fingerprint: str

    def render(self) -> str:
        context = {
            key: _body(value.markdown, value.html) if isinstance(value, Body) else value
            for key, value in self.context.items()
        }
        return _render(self.template, **context)


def render_batch(pages: Sequence[Page]) -> list[str]:
    """The HTML of each page (runs in a worker process, too: pages pickle)."""
    return [page.render() for page in pages]


@functools.lru_cache(maxsize=4)
def _body(markdown: str, stored: str | None = None) -> Markup:
    """A report body, rendered once for the report page and the home page.

    Its tables stay out of the search index: each row is a finding that its project's
    page indexes, so every entity is indexed once, and a report's tables are most of what
    Pagefind would read (issue #18).
    """
    html = str(render_body(markdown)) if stored is None else stored
    return Markup(html.replace(_TABLE, _TABLE.removesuffix(">") + " data-pagefind-ignore>"))


@dataclass(frozen=True)
class Chip:
    """A dimension value on a card, linked to its page."""

    dimension: str
    label: str
    href: str


@dataclass
class Card:
    """One finding as the site shows it (hrefs relative to the site root)."""

    key: str
    name: str
    href: str
    day: str
    report_href: str
    recommendation: str
    maturity: str
    novelty: str
    priority: str
    mechanism: str
    url: str
    version: str
    version_url: str
    chips: list[Chip]
    claims: list[str]
    limits: list[str]
    family: str
    family_href: str
    facets: dict[str, list[str]] = field(default_factory=dict)

    @functools.cached_property
    def digest(self) -> str:
        """A hash of everything the card shows (for page fingerprints)."""
        values = [getattr(self, f.name) for f in dataclasses.fields(self)]
        plain = [
            [(c.dimension, c.label, c.href) for c in value] if name == "chips" else value
            for name, value in zip([f.name for f in dataclasses.fields(self)], values, strict=True)
        ]
        return hashlib.sha1(repr(plain).encode("utf-8")).hexdigest()

    @property
    def facet_tokens(self) -> str:
        return " ".join(
            f"{name}:{value}" for name, values in self.facets.items() for value in values
        )


@functools.lru_cache(maxsize=65536)
def slug(key: str) -> str:
    """A file name for a key: readable, lower-case, collision-proof (a short hash)."""
    readable = _UNSAFE.sub("-", key.lower()).strip("-.")[:72] or "x"
    return f"{readable}-{hashlib.sha1(key.encode('utf-8')).hexdigest()[:6]}"


def project_path(key: str) -> str:
    return f"projects/{slug(key)}.html"


def family_path(family: str) -> str:
    return f"families/{slug(family)}.html"


def dimension_path(dimension: str, value: str) -> str:
    return f"dimensions/{slug(dimension + '-' + value)}.html"


def numbered_path(path: str, number: int) -> str:
    """Page `number` (from 1) of a paginated list whose first page is `path`.

    A slug ends in six hex digits, so `-p2` never collides with another slug.
    """
    return path if number <= 1 else f"{path.removesuffix('.html')}-p{number}.html"


def report_path(day: date) -> str:
    return f"reports/{day.isoformat()}.html"


def _values(finding: Finding, dimension: str) -> list[str]:
    if dimension == "maturity":
        return [finding.maturity] if finding.maturity else []
    if dimension == "relation":
        return [finding.relation] if finding.relation else []
    return finding.values(dimension)


def _conditions(claim: Claim) -> str:
    c = claim.conditions
    parts = [*c.hardware, *c.model, *c.precision]
    parts += [f"{key} {value}" for key, value in sorted(c.load.items())]
    parts += c.software
    if c.baseline:
        parts.append("vs " + " / ".join(c.baseline))
    if c.repeats:
        parts.append(c.repeats)
    return " · ".join(parts)


def _claim_line(claim: Claim) -> str:
    numbers = "，".join(f"{m.name} {m.value:g} {m.unit}".strip() for m in claim.metrics)
    conditions = _conditions(claim)
    text = numbers or claim.text
    return f"{claim.reporter}：{text}" + (f"（{conditions}）" if conditions else "")


class _Site:
    """Labels and links shared by all pages."""

    def __init__(self, data: SiteData, taxonomy: Taxonomy):
        self.data = data
        self.taxonomy = taxonomy
        self.lang = data.language
        self.dimensions = [d for d in taxonomy.main]
        self._labels: dict[tuple[str, str], str] = {}
        self._chips: dict[tuple[str, str], Chip] = {}

    def label(self, dimension: str, value: str) -> str:
        known = self._labels.get((dimension, value))
        if known is None:
            try:
                known = self.taxonomy.label(dimension, value, self.lang)
            except KeyError:
                known = value
            self._labels[(dimension, value)] = known
        return known

    def chip(self, dimension: Dimension, value: str) -> Chip:
        """The chip of a dimension value (made once, shared by every card)."""
        known = self._chips.get((dimension.id, value))
        if known is None:
            known = Chip(
                dimension.label(self.lang),
                self.label(dimension.id, value),
                dimension_path(dimension.id, value),
            )
            self._chips[(dimension.id, value)] = known
        return known

    def dimension_label(self, dimension: str) -> str:
        return self.taxonomy.dimension(dimension).label(self.lang)

    def family_label(self, family: str) -> str:
        key = family.removeprefix("fam:")
        project = self.data.projects.get(key)
        return project.name if project else key

    def card(self, finding: Finding) -> Card:
        chips: list[Chip] = []
        facets: dict[str, list[str]] = {}
        for dimension in self.dimensions:
            values = _values(finding, dimension.id)
            facets[dimension.id] = values
            if dimension.id != "maturity":
                chips += [self.chip(dimension, value) for value in values]
        facets["recommendation"] = [finding.recommendation.value]
        facets["month"] = [finding.date.strftime("%Y-%m")]
        snapshot = finding.snapshot
        version = ""
        if snapshot is not None:
            version = snapshot.version[:8] if len(snapshot.version) >= 40 else snapshot.version
        flags = [self.label("maturity_flags", flag) for flag in finding.flags]
        limits = [c.text for c in finding.claims if c.kind.value in ("limitation", "negative")]
        return Card(
            key=finding.project_key,
            name=finding.name,
            href=project_path(finding.project_key),
            day=finding.date.isoformat(),
            report_href=report_path(finding.date) if finding.date in self.data.reports else "",
            recommendation=recommendation_label(finding.recommendation, self.lang),
            maturity=self.label("maturity", finding.maturity)
            + ("；" + "、".join(flags) if flags else ""),
            novelty=novelty_label(finding.novelty, self.lang),
            priority=f"{finding.priority} · {finding.horizon}",
            mechanism=finding.mechanism,
            url=finding.url,
            version=version,
            version_url=snapshot.url if snapshot is not None else "",
            chips=chips,
            claims=[_claim_line(c) for c in finding.claims if c.metrics],
            limits=limits,
            family=self.family_label(finding.family) if finding.family else "",
            family_href=family_path(finding.family) if finding.family else "",
            facets=facets,
        )

    def facet_options(self, cards: Sequence[Card]) -> list[dict[str, Any]]:
        """The facet selects of a card list: only values present, with their counts."""
        pairs = Counter(
            (name, value)
            for card in cards
            for name, values in card.facets.items()
            for value in values
        )
        counts: dict[str, Counter[str]] = defaultdict(Counter)
        for (name, value), count in pairs.items():
            counts[name][value] = count
        groups: list[dict[str, Any]] = []
        for dimension in self.dimensions:
            found = counts.get(dimension.id)
            if found:
                options = [
                    (f"{dimension.id}:{v}", f"{self.label(dimension.id, v)} ({found[v]})")
                    for v in dimension.value_ids
                    if v in found
                ]
                options += [
                    (f"{dimension.id}:{v}", f"{v} ({n})")
                    for v, n in sorted(found.items())
                    if v not in dimension.value_ids
                ]
                groups.append(
                    {"name": dimension.id, "label": dimension.label(self.lang), "options": options}
                )
        found = counts.get("recommendation", Counter())
        groups.append(
            {
                "name": "recommendation",
                "label": "推荐级别" if self.lang == "zh" else "Recommendation",
                "options": [
                    (f"recommendation:{v}", f"{_recommendation(v, self.lang)} ({n})")
                    for v, n in sorted(found.items())
                ],
            }
        )
        months = sorted(counts.get("month", Counter()))
        groups.append(
            {"name": "month", "label": "月份" if self.lang == "zh" else "Month", "months": months}
        )
        return groups


def _render(name: str, **context: Any) -> str:
    try:
        return str(environment().get_template(f"site/{name}").render(**context))
    except jinja2.TemplateError as exc:
        raise RenderError(f"cannot render the site page {name}: {exc}") from exc


def _code_version() -> str:
    """A hash of the templates and of the code that shapes the pages."""
    here = Path(__file__).parent
    report = here.parent / "report"
    files = sorted(
        [
            *here.glob("*.py"),
            *(here / "assets").glob("*"),
            *(report / "templates").rglob("*.j2"),
            report / "html.py",
            report / "wording.py",
        ]
    )
    digest = hashlib.sha256()
    for file in files:
        digest.update(file.name.encode("utf-8"))
        try:
            digest.update(file.read_bytes())
        except OSError:
            continue
    return digest.hexdigest()


_VERSION = _code_version()
CODE_VERSION = _VERSION
"""A hash of the templates and of the code that shapes the pages."""


def _plain(value: Any) -> Any:
    """A JSON-able stand-in for a context value (for fingerprints)."""
    if isinstance(value, Card):
        return value.digest
    if isinstance(value, Body):
        return value.markdown
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, date):
        return value.isoformat()
    if dataclasses.is_dataclass(value):
        return repr(value)
    if isinstance(value, (set, frozenset, tuple)):
        return sorted(value) if isinstance(value, (set, frozenset)) else list(value)
    raise TypeError(f"cannot fingerprint {type(value).__name__}")


def _fingerprint(template: str, context: dict[str, Any]) -> str:
    text = json.dumps(
        context, default=_plain, sort_keys=True, ensure_ascii=False, separators=(",", ":")
    )
    return hashlib.sha256(f"{_VERSION}\n{template}\n{text}".encode()).hexdigest()


def _page(path: str, template: str, title: str, **context: Any) -> Page:
    depth = path.count("/")
    context.setdefault("indexed", False)
    context.setdefault("scripts", False)
    context.update(title=title, root="../" * depth, path=path, css=_CSS)
    return Page(
        path,
        template,
        context,
        bool(context["indexed"]),
        _fingerprint(template, context),
    )


def _weeks(findings: Iterable[Finding]) -> list[str]:
    return sorted({f"{f.date.isocalendar()[0]}-W{f.date.isocalendar()[1]:02d}" for f in findings})


def _weekly_chart(site: _Site, findings: Sequence[Finding], dimension: str, title: str) -> Markup:
    weeks = _weeks(findings)
    index = {week: i for i, week in enumerate(weeks)}
    counts: dict[str, list[int]] = {}
    for finding in findings:
        week = f"{finding.date.isocalendar()[0]}-W{finding.date.isocalendar()[1]:02d}"
        for value in _values(finding, dimension) or ["—"]:
            counts.setdefault(value, [0] * len(weeks))[index[week]] += 1
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
            for metric in claim.metrics:
                if metric.name in ("speedup",) or not metric.unit or metric.unit == "x":
                    continue
                key = (
                    metric.name,
                    metric.unit,
                    " / ".join(c.model),
                    " / ".join(c.precision),
                    " / ".join(c.baseline),
                )
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


def _health(site: _Site) -> tuple[list[dict[str, Any]], Markup | None]:
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


def render_pages(
    data: SiteData, taxonomy: Taxonomy, *, progress: Callable[[str, int], None] | None = None
) -> Iterator[Page]:
    """Every page of the site, one at a time.

    Args:
        data: the public-only site data (`load_site_data`).
        taxonomy: labels for the dimensions and their values.
        progress: called with a step name and how many pages it rendered.
    """
    site = _Site(data, taxonomy)
    findings = data.findings
    cards = [site.card(finding) for finding in findings]
    by_project: dict[str, list[int]] = defaultdict(list)
    by_family: dict[str, list[int]] = defaultdict(list)
    by_value: dict[tuple[str, str], list[int]] = defaultdict(list)
    by_day: Counter[date] = Counter()
    for index, finding in enumerate(findings):
        by_project[finding.project_key].append(index)
        if finding.family:
            by_family[finding.family].append(index)
        for dimension in site.dimensions:
            for value in _values(finding, dimension.id):
                by_value[(dimension.id, value)].append(index)
        by_day[finding.date] += 1

    def note(step: str, count: int) -> None:
        if progress is not None:
            progress(step, count)

    # reports -------------------------------------------------------------------------
    days = sorted(data.reports)
    for number, day in enumerate(days):
        yield _page(
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
    note("reports", len(days))

    # projects ------------------------------------------------------------------------
    forks: dict[str, list[str]] = defaultdict(list)
    for project in data.projects.values():
        if project.fork_of:
            forks[project.fork_of].append(project.key)
    project_rows = []
    for count, (key, indexes) in enumerate(sorted(by_project.items()), start=1):
        project = data.projects.get(key) or Project(key=key, name=findings[indexes[-1]].name)
        yield _project_page(
            site, project, [findings[i] for i in indexes], [cards[i] for i in indexes], forks
        )
        latest = cards[indexes[-1]]
        project_rows.append(
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

    # families and dimension values -----------------------------------------------------
    family_rows = []
    for family, indexes in sorted(by_family.items()):
        label = site.family_label(family)
        yield from _listings(
            site, family_path(family), label, family, [cards[i] for i in indexes], kind="family"
        )
        family_rows.append(
            {"name": label, "href": family_path(family), "key": family, "count": len(indexes)}
        )
    note("families", len(by_family))
    dimension_groups = []
    for dimension in site.dimensions:
        values = []
        for value in [
            *dimension.value_ids,
            *sorted({v for d, v in by_value if d == dimension.id} - set(dimension.value_ids)),
        ]:
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
        dimension_groups.append({"label": dimension.label(site.lang), "values": values})
    note("dimensions", sum(len(group["values"]) for group in dimension_groups))

    # indexes, charts, search, home ----------------------------------------------------------
    project_rows.sort(key=lambda row: (row["last"], row["name"]), reverse=True)
    yield _page(
        "projects/index.html", "projects.html.j2", "Projects · Research Radar", rows=project_rows
    )
    family_rows.sort(key=lambda row: (-len(by_family[str(row["key"])]), str(row["name"])))
    yield _page(
        "families/index.html",
        "families.html.j2",
        "Mechanism families · Research Radar",
        rows=family_rows,
    )
    yield _page(
        "dimensions/index.html",
        "dimensions.html.j2",
        "Dimensions · Research Radar",
        groups=dimension_groups,
    )
    report_rows = [
        {"day": d.isoformat(), "href": report_path(d), "count": by_day.get(d, 0)}
        for d in reversed(days)
    ]
    yield _page(
        "reports/index.html", "reports.html.j2", "Reports · Research Radar", rows=report_rows
    )
    health_rows, health_chart = _health(site)
    en = site.lang == "en"
    yield _page(
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
    yield _page(
        "search.html",
        "search.html.j2",
        "Search · Research Radar",
        scripts=True,
        search=True,
        bundles=[report_bundle(year) + "/" for year in sorted({day.year for day in days})],
    )
    per_day = sorted(by_day.items())[-60:]
    day_chart = (
        bar_chart(
            [
                Bar(d.isoformat(), n, href=report_path(d) if d in data.reports else "")
                for d, n in reversed(per_day)
            ],
            title="Findings per day" if en else "每日发现数",
        )
        if per_day
        else None
    )
    newest = days[-1] if days else None
    yield _page(
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
            "projects": len(by_project),
            "reports": len(days),
            "families": len(by_family),
        },
        withheld=data.withheld_findings + len(data.withheld_reports),
    )
    note("indexes", 8)


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


def _project_page(
    site: _Site,
    project: Project,
    findings: list[Finding],
    cards: list[Card],
    forks: dict[str, list[str]],
) -> Page:
    data = site.data
    former = sorted({name for f in findings for name in f.former_names})
    aliases = sorted({*project.aliases, *data.aliases.get(project.key, [])} - {project.name})
    papers = [s for s in project.sources if s.startswith(("arxiv:", "doi:"))]
    paper_links = [
        {
            "key": s,
            "url": f"https://arxiv.org/abs/{s[6:]}"
            if s.startswith("arxiv:")
            else f"https://doi.org/{s[4:]}",
        }
        for s in papers
    ]

    def link(key: str) -> dict[str, str]:
        other = data.projects.get(key)
        return {
            "name": other.name if other else key,
            "href": project_path(key) if other and key in data.projects else "",
        }

    claims: dict[str, dict[str, Any]] = {}
    for f in reversed(findings):
        for c in f.claims:
            # one entry per distinct claim; the versions and days it was seen at
            key = c.model_dump_json()
            seen = claims.get(key)
            if seen is None:
                seen = claims[key] = {
                    "kind": c.kind.value,
                    "text": c.text,
                    "metrics": "，".join(
                        f"{m.name} {m.value:g} {m.unit}".strip() for m in c.metrics
                    ),
                    "conditions": c.conditions,
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
    family = project.family or next((f.family for f in reversed(findings) if f.family), None)
    return _page(
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
        papers=paper_links,
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
        claims=list(claims.values()),
        cards=list(reversed(cards))[:1],
        older=len(cards) - 1,
    )


def _listings(
    site: _Site, path: str, title: str, key: str, cards: list[Card], *, kind: str
) -> Iterator[Page]:
    """The pages of one family or dimension value: compact rows, newest first."""
    newest = list(reversed(cards))[:LIST_LIMIT]
    count = max(1, (len(newest) + PAGE_SIZE - 1) // PAGE_SIZE)
    for number in range(1, count + 1):
        shown = newest[(number - 1) * PAGE_SIZE : number * PAGE_SIZE]
        here = numbered_path(path, number)
        yield _page(
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
            first=(number - 1) * PAGE_SIZE + 1,
            number=number,
            pages=[
                {"number": n, "href": numbered_path(path, n).rsplit("/", 1)[1]}
                for n in range(1, count + 1)
            ]
            if count > 1
            else [],
            facet_groups=site.facet_options(shown),
        )


def _recommendation(value: str, language: str) -> str:
    """The label of a stored recommendation id (the value itself if it is no known id)."""
    try:
        return recommendation_label(Recommendation(value), language)
    except ValueError:
        return value
