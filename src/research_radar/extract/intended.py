"""Whether a written number is an intention, not a measurement: a target (`Target: 1.5-2x
speedup`, `targeting a 20% share`, `目标：100 ms`), an expectation (`Expected 2-3x`,
`预计提升30%`, `有望达到2倍`) or an estimate (`~32K tokens estimated`, `5x more work, author
estimate`). The report shows what authors measured; what they aim for is no evidence.

A comment on a measured result stays a measurement: `as expected, 2.1x`, `better than
expected`, `81% over target`, `符合预期`; and a target of something else is no intention
(`target model`, `target text`, `目标检测` object detection).

Pure. A building block of `research_radar.extract.metrics` and of the number reader's
candidates (`research_radar.extract.prosecues`).
"""

from __future__ import annotations

import re

from research_radar.extract.units import NUMBER_PATTERN, number_start

__all__ = ["intended_spans", "stated_as_intention"]


_LEAD = (
    r"\s?(?:[:：=]\s?)?(?:(?:an?|about|around|roughly|approximately|up to|at least|~|≈|约)\s?)*"
    r"(?:\d[\d.,]*\s?(?:[%x×倍]|ms|s)?\s?(?:-|–|~|to|至|到)\s?)?$"
)
"""What may stand between the intention's word and its number (the start of a range:
`Expected 2-3x` intends the 3 too)."""

_BEFORE = re.compile(
    r"(?:"
    r"(?<![A-Za-z])(?<!as\s)(?<!than\s)(?:target(?:s|ing|ed)?|aim(?:s|ing|ed)?\s(?:for|at)|"
    r"goal(?:\sis|\sof)?|expect(?:ed|s|ing)?(?:\sto\s(?:be|reach|see|give|get|deliver|achieve))?|"
    r"estimated(?:\sat|\sto\sbe)?|projected(?:\sat|\sto\sbe)?|predicted|should\s(?:reach|give|"
    r"yield|deliver|see)|hop(?:e|es|ing)\sto\s(?:reach|see|get|achieve))"
    r"(?:\s(?:rps|qps|latency|throughput|speed-?up|tok/s|ttft|tpot))?"
    r"|(?:预计|预期|有望|估计)[^，。；,;:：\d]{0,8}?(?:提升|提高|降低|减少|达到|加速|为|约|在)?|"
    r"目标(?:是|为|值)?[:：=]\s?[^，。；,;:：\d]{0,6}?|目标(?:是|为|值)?(?=[\s\d~约])"
    rf"){_LEAD}",
    re.I,
)
"""An intention's word right before its number (`Target: 1.5`, `targeting a 20`,
`Expected 2`, `预计提升30`, `目标：100`)."""

_AFTER = re.compile(
    r"^[^.;,()（）。；]{0,24}?(?<![A-Za-z])(?:estimated|\(?(?:author'?s?\s|rough\s)?estimate)"
    r"(?![A-Za-z])(?!\s(?:of|the|for))"
    r"|^[^.;()（）。；]{0,48}?,\s(?:author'?s?\s|rough\s)estimate\)?(?![A-Za-z])",
    re.I,
)
"""An estimate said after its number (`~32K tokens estimated`, `about 5x more work per
plan, author estimate`)."""

_NUMBER = re.compile(NUMBER_PATTERN)


def stated_as_intention(text: str, start: int, end: int) -> bool:
    """Whether the words around the number at `text[start:end]` make it a target, an
    expectation or an estimate (see the module)."""
    return (
        _BEFORE.search(text[max(0, start - 48) : start]) is not None
        or _AFTER.match(text[end : end + 72]) is not None
    )


def intended_spans(text: str) -> list[tuple[int, int]]:
    """The spans of the numbers of `text` that are intentions, not measurements."""
    if not _CUE.search(text):
        return []  # (most statements name no intention: one search passes them over)
    spans = []
    for match in _NUMBER.finditer(text):
        # `Target: 5%-30%`: the range's end is 30, read after its dash
        start, end = number_start(text, match.start()), match.end()
        if stated_as_intention(text, start, end):
            spans.append((start, end))
    return spans


_CUE = re.compile(
    r"target|aim|goal|expect|estimat|projected|predicted|should|hop(?:e|ing)|预计|预期|有望|估计|目标",
    re.I,
)
"""A word every intention holds."""
