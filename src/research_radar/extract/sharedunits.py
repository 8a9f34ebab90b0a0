"""Numbers whose unit is written apart from them: before one unit that holds for them all
(`45.4 / 74.8 ms`, `1200/80 tok/s`, `3.1 / 2.7 / 2.2 s`, `45 and 26 tokens/s`, `1.2, 2.3 and
4.5 ms`: the unit is written once, after the last of them), or in the label before them (`tok/s: 45.2`, `平均每秒回复token数量: 78.11`).

Pure. A building block of `research_radar.extract.metrics`; callers outside this package
use `research_radar.extract.claims` instead.
"""

from __future__ import annotations

import re

from research_radar.extract.prefilter import Probe
from research_radar.extract.screened import finditer
from research_radar.extract.units import (
    DEFAULT_METRIC_NAMES,
    NUMBER_PATTERN,
    RATE_UNITS,
    RATIO_UNITS,
    UNIT_PATTERN,
    canonical_unit,
    parse_number,
)
from research_radar.models import Metric

__all__ = ["labelled_rates", "per_second_before", "slashed_before"]


_SLASHED = re.compile(rf"(?<![\d.])({NUMBER_PATTERN})\s?/\s?$")
"""A number and a slash right before a measured number (`45.4 / ` in `45.4 / 74.8 ms`)."""
_BACK = 24
"""How far back a number of the chain may start."""


def slashed_before(text: str, start: int, metric: Metric) -> list[tuple[tuple[int, int], Metric]]:
    """The numbers slashed onto the measured number at `start` (`45.4 / ` before `74.8
    ms`), each with its unit: nearest first.

    Not a ratio's (`1.9x/2.4x` writes each unit) nor a score's; not a fraction (`1/2
    s`), nor a number glued to a word (`v1.2/3.4 ms`, `7-8/9 s`).
    """
    if not metric.unit or metric.unit in RATIO_UNITS:
        return []
    listed = _listed_before(text, start, metric)
    if listed:
        return listed
    found: list[tuple[tuple[int, int], Metric]] = []
    position = start
    while True:
        window = text[max(0, position - _BACK) : position]
        match = _SLASHED.search(window)
        if match is None:
            break
        offset = position - len(window)
        span = (offset + match.start(1), offset + match.end(1))
        found.append((span, metric.model_copy(update={"value": _number(text, span)})))
        position = span[0]
    if not found:
        return []
    chain = text[found[-1][0][0] : start]
    if re.fullmatch(r"1/", chain):
        return []  # `1/2 s`, `1/4 GB`: a fraction, not two numbers side by side
    before = text[: found[-1][0][0]]
    if re.search(r"[\w.-]$|/\s*$", before):
        # `v1.2/3.4 ms`, `1-2/3 s`: part of a longer token; `260GB / 70 / 8 / 75ms`: a
        # sum worked out, not numbers side by side
        return []
    return found


def _listed_before(text: str, start: int, metric: Metric) -> list[tuple[tuple[int, int], Metric]]:
    """`45 and 26 tokens/s`, `1.2, 2.3 and 4.5 ms`, `between 20 and 30 ms`: numbers listed
    with `,` and `and`/`or` before one unit share it, nearest first; not the values of a
    setting (`batch 8 and 16 GB`)."""
    if "and" not in text[max(0, start - 6) : start] and "or" not in text[max(0, start - 5) : start]:
        return []  # (looked for only where the measured number follows `and`/`or`)
    window = text[max(0, start - _LISTED_BACK) : start]
    match = _LISTED.search(window)
    if match is None:
        return []
    offset = start - len(window)
    if _SETTING_BEFORE.search(window[: match.start()]):
        return []
    numbers = list(_NUMBER.finditer(match.group(0)))
    return [
        (
            (offset + match.start() + n.start(), offset + match.start() + n.end()),
            metric.model_copy(update={"value": parse_number(n.group(0))}),
        )
        for n in reversed(numbers)
    ]


_LISTED_BACK = 60
_LISTED = re.compile(
    rf"(?<![\w.,/-])(?:{NUMBER_PATTERN}\s?,\s?){{0,4}}{NUMBER_PATTERN},?\s(?:and|or)\s$"
)
_NUMBER = re.compile(NUMBER_PATTERN)
_SETTING_BEFORE = re.compile(
    r"(?:batch(?:[\s_-]?size)?|bs|sizes?|length|len|seq|gpus?|cards?|tp|steps?|threads?|"
    r"users?|concurrency|rates?|of|for|with|[=:@])\s*$",
    re.I,
)
"""What names a setting whose values the list is (`for batch 8 and 16`, `bs=1 and 4`)."""


def _number(text: str, span: tuple[int, int]) -> float:
    return parse_number(text[span[0] : span[1]])


def labelled_rates(text: str) -> list[tuple[tuple[int, int], Metric]]:
    """Numbers after a label that is a rate (`tok/s: 45.2`, `Requests per second = 3.1`,
    `平均每秒回复token数量: 78.11`, `每秒处理图片数：12`), each with the rate's unit.

    Only rates: a label that is a time or a size (`ms: 3`, `GB: 16`) is more often a
    setting or a heading than the unit of the number after it.
    """
    if ":" not in text and "：" not in text and "=" not in text:
        return []
    found: list[tuple[tuple[int, int], Metric]] = []
    for match in _RATE_LABEL.finditer(text):
        unit = canonical_unit(match.group("unit")) if match.group("unit") else ""
        unit = unit if unit in RATE_UNITS else _ZH_RATES.get(match.group("what") or "", "")
        if unit:
            value = parse_number(match.group("num"))
            name = DEFAULT_METRIC_NAMES.get(unit, "value")
            found.append((match.span("num"), Metric(name=name, value=value, unit=unit)))
    return found


_ZH_RATES = {
    "token": "tok/s",
    "tokens": "tok/s",
    "词元": "tok/s",
    "字": "char/s",
    "字符": "char/s",
    "请求": "req/s",
    "图片": "img/s",
    "张": "img/s",
    "帧": "FPS",
}
_RATE_LABEL = re.compile(
    rf"(?:(?<![\w/])(?P<unit>{UNIT_PATTERN})|每秒[^\d:：=，,。]{{0,8}}?(?P<what>tokens?|词元|字符?|请求|图片|张|帧)"
    r"(?:的)?(?:数量|个数|数)?)\s*[:：=]\s*"
    rf"(?P<num>{NUMBER_PATTERN})(?!\s?(?:{UNIT_PATTERN})|[\d.%])",
    re.I,
)
"""A rate as the label of the number after it."""


def per_second_before(probe: Probe) -> list[tuple[tuple[int, int], str, tuple[int, int]]]:
    """Chinese `每秒7个token`, `每秒可处理 12 张`: a rate written before its number. Each
    number's span, its unit and the span of the whole rate (for its metric's name)."""
    found = []
    for match in finditer(_PER_SECOND, probe):
        unit = {"字符": "char/s", "张": "img/s", "请求": "req/s"}.get(match.group("what"), "tok/s")
        found.append((match.span("num"), unit, match.span()))
    return found


_PER_SECOND = re.compile(
    rf"每秒\s?(?:可达|约|(?:可以?|能够?)?\s?(?:达到|生成|处理|输出|推理|解码|产出))?\s?"
    rf"(?:约|大约)?\s?(?P<num>{NUMBER_PATTERN})\s?\+?\s?[个条]?\s?"
    r"(?P<what>tokens?|词元|令牌|字符|张|请求)",
    re.I,
)
