"""The live collection window and the day's share of the profile's queries. Pure."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import date, datetime, timedelta

from research_radar.classify.model import Taxonomy
from research_radar.config import Settings

__all__ = [
    "ARXIV_QUERIES_PER_DAY",
    "GITHUB_QUERIES_PER_DAY",
    "MAX_CATCH_UP",
    "OVERLAP",
    "live_settings",
    "live_window_start",
    "rotate_queries",
]

GITHUB_QUERIES_PER_DAY = 12
ARXIV_QUERIES_PER_DAY = 6
OVERLAP = timedelta(hours=24)
"""A live window starts this long before the last one ended (house style: 向前重叠 24h)."""
MAX_CATCH_UP = timedelta(days=14)
"""After a gap (a weekend, an outage) the window reaches back at most this far."""


def rotate_queries(queries: Sequence[str], day: date, per_day: int) -> list[str]:
    """A day's share of the profile's queries: all of them are covered in turn."""
    if len(queries) <= per_day:
        return list(queries)
    start = (day.toordinal() * per_day) % len(queries)
    return [queries[(start + i) % len(queries)] for i in range(per_day)]


def live_window_start(last_end: datetime | str | None, cutoff: datetime) -> datetime:
    """Where today's live collection starts: the last window's end minus the overlap, so a
    missed day is caught up; never later than 48 hours before the cut-off, never earlier
    than MAX_CATCH_UP before it."""
    start = cutoff - timedelta(hours=48)
    if last_end:
        end = datetime.fromisoformat(last_end) if isinstance(last_end, str) else last_end
        start = min(start, end - OVERLAP)
    return max(start, cutoff - MAX_CATCH_UP)


def live_settings(settings: Settings, taxonomy: Taxonomy, day: date) -> Settings:
    """Fill the collectors' queries from the profile unless radar.toml names its own."""
    github = settings.github
    if github.queries is None:
        queries = rotate_queries(taxonomy.queries.github(), day, GITHUB_QUERIES_PER_DAY)
        github = replace(github, queries=tuple(queries))
    arxiv = settings.arxiv
    if arxiv.queries is None:
        terms = [
            f'abs:"{term}" AND cat:{cat}'
            for term in taxonomy.queries.arxiv_terms
            for cat in taxonomy.queries.arxiv_categories
        ]
        arxiv = replace(arxiv, queries=tuple(rotate_queries(terms, day, ARXIV_QUERIES_PER_DAY)))
    return replace(settings, github=github, arxiv=arxiv)
