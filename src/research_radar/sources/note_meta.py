"""A note's metadata: its YAML front matter and when it was written (front matter
`date:`/`time:`, else a stamp in the file name). Pure; bad YAML is a `Problem` (refs #9)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date, datetime, time
from typing import Any

import frontmatter
import yaml  # type: ignore[import-untyped]  # types-PyYAML is not installed

from research_radar.sources.notes import SHANGHAI, Problem

__all__ = ["parse_front_matter", "parse_meta_timestamp", "parse_timestamp"]


_NAME_STAMP = re.compile(
    r"(?<!\d)(20\d\d)-?(\d\d)-?(\d\d)(?:[T_\- ]?([0-2]\d)[:\-]?([0-5]\d)(?!\d))?(?!\d)"
)


def _as_time(value: Any) -> time | None:
    if isinstance(value, time):
        return value
    if isinstance(value, int) and 0 <= value < 24 * 60:  # YAML 1.1 reads 14:40 as 880
        return time(value // 60, value % 60)
    match = re.fullmatch(r"\s*([0-2]?\d)[:：.]?([0-5]\d)\s*", str(value))
    if match and int(match.group(1)) < 24:
        return time(int(match.group(1)), int(match.group(2)))
    return None


def parse_meta_timestamp(meta: Mapping[str, Any]) -> tuple[datetime | None, bool]:
    """The time in front matter (`date:`/`created:`/`added:`, plus `time:`) and whether
    only a date was given; naive times are read as Asia/Shanghai."""
    value = meta.get("date", meta.get("created", meta.get("added")))
    if value is None:
        return None, False
    clock = _as_time(meta["time"]) if "time" in meta else None
    if isinstance(value, datetime):
        stamp, date_only = value, False
    elif isinstance(value, date):
        stamp, date_only = datetime.combine(value, clock or time()), clock is None
    else:
        try:
            stamp = datetime.fromisoformat(str(value).strip())
        except ValueError:
            return None, False
        date_only = len(str(value).strip()) <= 10 and clock is None
        if clock is not None and len(str(value).strip()) <= 10:
            stamp = datetime.combine(stamp.date(), clock)
    return (stamp if stamp.tzinfo else stamp.replace(tzinfo=SHANGHAI)), date_only


def parse_timestamp(name: str, meta: Mapping[str, Any]) -> tuple[datetime | None, bool]:
    """When a note was written: front matter `date:` (+ `time:`) first, else the file name.

    Returns the timezone-aware time and whether only a date was known (then 00:00 Shanghai).
    """
    stamp, date_only = parse_meta_timestamp(meta)
    if stamp is not None:
        return stamp, date_only
    match = _NAME_STAMP.search(name)
    if not match:
        return None, False
    year, month, day, hour, minute = match.groups()
    try:
        found = datetime(int(year), int(month), int(day), int(hour or 0), int(minute or 0))
    except ValueError:
        return None, False
    return found.replace(tzinfo=SHANGHAI), hour is None


def _first_line(exc: Exception) -> str:
    return (str(exc).splitlines() or [type(exc).__name__])[0]


def parse_front_matter(text: str, path: str) -> tuple[dict[str, Any], str, list[Problem]]:
    """Front matter (keys lower-cased), the body, and a problem when the YAML is broken
    (then the whole text is the body)."""
    try:
        post = frontmatter.loads(text)
    except (yaml.YAMLError, ValueError) as exc:
        problem = Problem(
            path=path,
            kind="bad-front-matter",
            message=f"front matter is not valid YAML ({_first_line(exc)}); read as plain text",
        )
        return {}, text, [problem]
    meta = post.metadata if isinstance(post.metadata, dict) else {}
    return {str(k).lower(): v for k, v in meta.items()}, post.content, []
