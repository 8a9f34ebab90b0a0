"""Compound durations: `25'34''`, `2m23s`, `1h05m`, `1分23秒`, `1小时5分钟` -> seconds.

Pure. A building block of `research_radar.extract.metrics`; callers outside this package
use `research_radar.extract.claims` instead.

A duration written in two or three parts is one number: its value is the seconds it
spans (`2m23s` is 143 s). This is the one exception to "every metric value is a number
written in the statement": the value is then the seconds of a compound duration written
there (`duration_seconds` lists them, for checking that rule). A single part (`23s`,
`5 分钟`) is an ordinary number with its unit and is left to the metric reader.
"""

from __future__ import annotations

import re

__all__ = ["duration_seconds", "duration_spans", "in_seconds"]


_PART = r"\d{1,4}(?:\.\d+)?"
_COMPOUND = re.compile(
    # `1h05m30s`, `1h 5m`, `2m23s`, `2m 23.5s`
    rf"(?<![\w.])(?:(?P<h>{_PART})\s?h\s?(?=\d)(?:(?P<hm>\d{{1,2}})\s?m(?:in)?(?:\s?(?P<hms>\d{{1,2}}(?:\.\d+)?)\s?s)?)"
    rf"|(?P<m>{_PART})\s?m(?:in)?\s?(?P<ms>\d{{1,2}}(?:\.\d+)?)\s?s)(?![A-Za-z\d])"
    # `25'34''`, `25'34"`, `1′05″`
    rf"|(?<![\w.'’′])(?P<q>\d{{1,4}})\s?['’′]\s?(?P<qs>\d{{1,2}}(?:\.\d+)?)\s?(?:''|\"|″|’’|′′)"
    # `1小时5分钟`, `1分23秒`, `2时3分`, `1小时5分30秒`
    rf"|(?<![\d.])(?:(?P<zh>{_PART})\s?(?:小时|时)\s?(?P<zhm>\d{{1,2}})\s?分(?:钟)?"
    rf"(?:\s?(?P<zhms>\d{{1,2}}(?:\.\d+)?)\s?秒)?|(?P<zm>{_PART})\s?分(?:钟)?\s?(?P<zs>\d{{1,2}}(?:\.\d+)?)\s?秒)",
)
_HINT = re.compile(r"\d\s?(?:[hm]|min|['’′]|分|小?时)\s?\d")
"""What every compound duration holds: a digit, a first unit, a digit (a cheap test)."""


def duration_seconds(text: str) -> list[float]:
    """The seconds of each compound duration written in `text`, in order."""
    if _HINT.search(text) is None:
        return []
    return [_seconds(match) for match in _COMPOUND.finditer(text)]


def duration_spans(text: str) -> list[tuple[int, int]]:
    """Where each compound duration stands in `text` (start, end): its parts (`23` of
    `2m23s`) are no numbers of their own."""
    if _HINT.search(text) is None:
        return []
    return [match.span() for match in _COMPOUND.finditer(text)]


def in_seconds(text: str) -> str:
    """`text` with each compound duration written as its seconds (`2m23s` -> `143 s`,
    `1分23秒` -> `83秒`), for the metric reader; other text unchanged."""
    if _HINT.search(text) is None:
        return text
    return _COMPOUND.sub(_written, text)


def _written(match: re.Match[str]) -> str:
    seconds = f"{_seconds(match):g}"
    return f"{seconds}秒" if match.group("zh") or match.group("zm") else f"{seconds} s"


def _seconds(match: re.Match[str]) -> float:
    hours, minutes, seconds = (
        _first(match, "h", "zh"),
        _first(match, "hm", "m", "q", "zhm", "zm"),
        _first(match, "hms", "ms", "qs", "zhms", "zs"),
    )
    total = hours * 3600 + minutes * 60 + seconds
    return round(total, 6)


def _first(match: re.Match[str], *groups: str) -> float:
    for group in groups:
        value = match.group(group)
        if value:
            return float(value)
    return 0.0
