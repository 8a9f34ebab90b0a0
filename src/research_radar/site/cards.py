"""A finding as the site shows it (a `Card`), the site's paths, and the labels every page
shares (pure).

Each finding becomes one `Card`, made once, that the report, project, family and
dimension pages share; its `digest` stands for it in the fingerprints of those pages.
Cards carry their facet values (`facets`), which list pages write as `data-facets`.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from datetime import date
from typing import Any

from research_radar.classify.model import Dimension, Taxonomy
from research_radar.models import Claim, Finding, Novelty, Recommendation
from research_radar.report.wording import novelty_label, recommendation_label
from research_radar.site.data import SiteData

__all__ = [
    "Card",
    "Chip",
    "Labels",
    "claim_line",
    "dimension_path",
    "family_path",
    "finding_values",
    "numbered_path",
    "project_path",
    "report_path",
    "slug",
]

_UNSAFE = re.compile(r"[^a-z0-9._-]+")


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
        plain = [
            [(c.dimension, c.label, c.href) for c in self.chips]
            if name == "chips"
            else getattr(self, name)
            for name in _CARD_FIELDS
        ]
        return hashlib.sha1(repr(plain).encode("utf-8")).hexdigest()

    @property
    def facet_tokens(self) -> str:
        return " ".join(
            f"{name}:{value}" for name, values in self.facets.items() for value in values
        )


_CARD_FIELDS = tuple(f.name for f in fields(Card))


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


def finding_values(finding: Finding, dimension: str) -> list[str]:
    """The value ids of one dimension of a finding (maturity and relation included)."""
    if dimension == "maturity":
        return [finding.maturity] if finding.maturity else []
    if dimension == "relation":
        return [finding.relation] if finding.relation else []
    return [tag.value for tag in finding.tags.get(dimension, ())]


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


def claim_line(claim: Claim) -> str:
    """A claim in one line: who reports it, its numbers (or text), its conditions."""
    numbers = "，".join(f"{m.name} {m.value:g} {m.unit}".strip() for m in claim.metrics)
    conditions = _conditions(claim)
    text = numbers or claim.text
    return f"{claim.reporter}：{text}" + (f"（{conditions}）" if conditions else "")


def _recommendation(value: str, language: str) -> str:
    """The label of a stored recommendation id (the value itself if it is no known id)."""
    try:
        return recommendation_label(Recommendation(value), language)
    except ValueError:
        return value


class Labels:
    """Labels and links shared by all pages, each looked up once."""

    def __init__(self, data: SiteData, taxonomy: Taxonomy, *, page_size: int = 200):
        self.data = data
        self.page_size = page_size
        """Rows on one page of a family or dimension value."""
        self.taxonomy = taxonomy
        self.lang = data.language
        self.dimensions = list(taxonomy.main)
        self._labels: dict[tuple[str, str], str] = {}
        self._chips: dict[tuple[str, str], Chip] = {}
        self._recommendations: dict[Recommendation, str] = {}
        self._novelties: dict[Novelty, str] = {}

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

    def recommendation(self, value: Recommendation) -> str:
        known = self._recommendations.get(value)
        if known is None:
            known = self._recommendations[value] = recommendation_label(value, self.lang)
        return known

    def novelty(self, value: Novelty) -> str:
        known = self._novelties.get(value)
        if known is None:
            known = self._novelties[value] = novelty_label(value, self.lang)
        return known

    def family_label(self, family: str) -> str:
        key = family.removeprefix("fam:")
        project = self.data.projects.get(key)
        return project.name if project else key

    def card(self, finding: Finding) -> Card:
        chips: list[Chip] = []
        facets: dict[str, list[str]] = {}
        for dimension in self.dimensions:
            values = finding_values(finding, dimension.id)
            facets[dimension.id] = values
            if dimension.id != "maturity":
                chips += [self.chip(dimension, value) for value in values]
        day = finding.date.isoformat()
        facets["recommendation"] = [finding.recommendation.value]
        facets["month"] = [day[:7]]
        snapshot = finding.snapshot
        version = ""
        if snapshot is not None:
            version = snapshot.version[:8] if len(snapshot.version) >= 40 else snapshot.version
        flags = [self.label("maturity_flags", flag) for flag in finding.flags]
        return Card(
            key=finding.project_key,
            name=finding.name,
            href=project_path(finding.project_key),
            day=day,
            report_href=report_path(finding.date) if finding.date in self.data.reports else "",
            recommendation=self.recommendation(finding.recommendation),
            maturity=self.label("maturity", finding.maturity)
            + ("；" + "、".join(flags) if flags else ""),
            novelty=self.novelty(finding.novelty),
            priority=f"{finding.priority} · {finding.horizon}",
            mechanism=finding.mechanism,
            url=finding.url,
            version=version,
            version_url=snapshot.url if snapshot is not None else "",
            chips=chips,
            claims=[claim_line(c) for c in finding.claims if c.metrics],
            limits=[c.text for c in finding.claims if c.kind.value in ("limitation", "negative")],
            family=self.family_label(finding.family) if finding.family else "",
            family_href=family_path(finding.family) if finding.family else "",
            facets=facets,
        )

    def facet_options(self, cards: Sequence[Card]) -> list[dict[str, Any]]:
        """The facet selects of a card list: only values present, with their counts."""
        counts: dict[str, Counter[str]] = defaultdict(Counter)
        for card in cards:
            for name, values in card.facets.items():
                counts[name].update(values)
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
