"""Which numbers of one statement are the compared system's own: `B` in `A vs B`, `A`
when it is introduced as the baseline (`plain 26.2 vs MTP 40.0`), `A` in `A → B`.

Pure. A building block of `research_radar.extract.metrics`; callers outside this package
use `research_radar.extract.claims` instead.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from itertools import takewhile

from research_radar.extract.baselines import BASELINE_WORDS
from research_radar.extract.catalogue import Catalog
from research_radar.extract.prefilter import probe_of
from research_radar.extract.screened import finditer
from research_radar.extract.units import NUMBER_PATTERN, RATIO_UNITS, UNIT_PATTERN
from research_radar.models import Claim, Metric

__all__ = [
    "ARROW",
    "BASELINE_SUFFIX",
    "FROM_TO",
    "baseline_values",
    "is_baseline_metric",
    "without_self_comparison",
]


BASELINE_SUFFIX = " (baseline)"
"""Ends the name of a metric that is the compared system's value, not the claim's own
(a table column names the system: `prefill (llama.cpp baseline)`)."""


def is_baseline_metric(metric: Metric) -> bool:
    """Whether the metric is the compared system's value (`prefill (baseline)`)."""
    return metric.name.endswith("baseline)") or metric.name.lower() in ("baseline", "基线")


def without_self_comparison(claims: list[Claim]) -> list[Claim]:
    """`claims`, those whose numbers are all the compared system's own (`FP16 took 22.6 GB`
    under `## FP16 Baseline`, the row named `baseline`) compared with nothing: the
    reference of a comparison is not itself compared, whatever its scope names (issue #14)."""
    return [
        claim.model_copy(
            update={"conditions": claim.conditions.model_copy(update={"baseline": []})}
        )
        if claim.conditions.baseline
        and claim.metrics
        and all(is_baseline_metric(m) for m in claim.metrics)
        else claim
        for claim in claims
    ]


ARROW = re.compile(rf"(?P<a>{NUMBER_PATTERN})\s?(?P<ua>{UNIT_PATTERN})?\s?(?:→|->|=>|⇒|⟶)\s?(?=\d)")
FROM_TO = re.compile(
    rf"\bfrom\s(?P<a>{NUMBER_PATTERN})\s?(?P<ua>{UNIT_PATTERN})?\sto\s(?=\d)", re.I
)
_PAIR_CUE = re.compile(
    r"(?<![A-Za-z])(?:vs\.?|versus)(?![A-Za-z])|(?P<compared>compared (?:with|to))|对比|"
    r"(?<![相反应针面绝])对(?=\s?(?:约\s?)?[A-Za-z\d~])",
    re.I,
)
"""`A vs B`: what follows the cue, up to the end of the clause, is the compared system's."""
_CLAUSE_END = re.compile(r"[;；。，:：(（=→]|[,.]\s|\s(?:but|while|and|whereas)\s|但|而")


def baseline_values(
    text: str, items: list[tuple[int, Metric]], cat: Catalog | None = None
) -> list[Metric]:
    """Name the compared system's numbers in `A vs B` as `<name> (baseline)`.

    B is the baseline's value, unless A is introduced as the baseline (`plain 26.2 vs
    MTP 40.0`, `OFF 2.48 ms vs ON 2.50 ms`). Only numbers paired with one of the claim's
    own, in the same unit, are renamed: `2.1x vs llama.cpp` has no baseline value.
    """
    if len(items) < 2:
        # every rule below pairs a number with another one of the statement: a lone
        # number (most table cells) is never the compared system's (issue #19)
        return [m for _at, m in items]
    baseline: set[int] = set()
    # each cue looks up the numbers and baseline words around it, not all of them: a
    # statement of a thousand `a vs b` was quadratic (issue #19)
    within = _Within(items)
    words: _Words | None = None
    clause_end = _NextMatch(_CLAUSE_END, text)
    for cue in finditer(_PAIR_CUE, probe_of(text)):  # run where a cue could be (#19)
        end = clause_end.search(cue.end())
        stop = end.start() if end else len(text)
        later_units = within.units(cue.end(), stop)
        if cue.group("compared"):
            later_units -= RATIO_UNITS
        words = words or _Words(text)
        left = _baseline_first(text, cue, stop, words)
        if left is not None:
            for unit in later_units:
                baseline.update(within.places(unit, left, cue.start()))
            continue
        for unit in later_units & within.units_before(cue.start(), baseline):
            baseline.update(within.places(unit, cue.end(), stop))
    baseline.update(_before_values(text, items))
    if cat is not None:
        baseline.update(_contrasted(text, items, cat))
    return [
        m.model_copy(update={"name": m.name + BASELINE_SUFFIX}) if at in baseline else m
        for at, m in items
    ]


_RANGE = re.compile(
    r"\b(?:rang(?:e|es|ed|ing)|var(?:y|ies|ied|ying)|spans?|between)\b\W*(?:\w+\W+)?$", re.I
)


_FROM_TO_ZH = re.compile(
    rf"[从由]\s?(?P<a>{NUMBER_PATTERN})\s?(?P<ua>{UNIT_PATTERN})?\s?[\u4e00-\u9fff]{{0,4}}?(?:到|至)\s?(?=\d)"
)
"""`从 45 tok/s 提升到 120 tok/s`."""
_ANNOUNCED = re.compile(
    r"(?:(?<![A-Za-z])(?:baseline|up from|down from)|[(（]\s?(?:was|previously|formerly)|基线|"
    r"原来|原先|优化前|(?:相比于?|相较于?|相对于?|较之?|比起)\s?[^\s，。；,;]{1,24}?\s?的)"
    r"\s?[:：]?\s?(?=\d)",
    re.I,
)
"""`(baseline: 45 tok/s)`, `up from 120 tok/s`, `相比 vLLM 的 45 tok/s` (`相较于`, `较`):
the number that follows is the compared system's."""


def _announced(text: str, items: list[tuple[int, Metric]]) -> set[int]:
    """The numbers announced as the compared system's, beside one of the claim's own in
    the same unit (`reaches 120 tok/s (baseline: 45 tok/s)`)."""
    units = dict(items)
    found: set[int] = set()
    for match in finditer(_ANNOUNCED, probe_of(text)):
        metric = units.get(match.end())
        if metric is None or metric.unit in RATIO_UNITS:
            continue
        if any(at != match.end() and m.unit == metric.unit for at, m in items):
            found.add(match.end())
    return found


def _before_values(text: str, items: list[tuple[int, Metric]]) -> set[int]:
    """`4109 → 4517 tok/s`, `from 9.1 s to 3.8 s`, `从 45 提升到 120`: the number before
    the change is the compared (earlier) system's, when the one after it has the same unit."""
    units = dict(items)
    found: set[int] = _announced(text, items)
    probe = probe_of(text)
    for pattern in (ARROW, FROM_TO, _FROM_TO_ZH):
        for match in finditer(pattern, probe):
            if _RANGE.search(text, max(0, match.start() - 30), match.start()):
                continue  # `speedups range from 2.37x to 6.17x`: a span, not a change
            before, after = units.get(match.start("a")), units.get(match.end())
            if before is not None and after is not None and before.unit == after.unit:
                found.add(match.start("a"))
    return found


_CONTRAST = re.compile(r"(?:[,，]\s?|\s)(?:while|whereas)\s(?:the\s)?|[,，]?\s?而\s?", re.I)
"""`Quokka gets 310 tok/s, while Ollama gets 120 tok/s`, `..., 而 vLLM 仅为 2100`."""


def _contrasted(text: str, items: list[tuple[int, Metric]], cat: Catalog) -> set[int]:
    """The numbers of the system a contrast names (`while Ollama gets 120 tok/s`), in a
    unit one of the statement's numbers before it has: the compared system's."""
    found: set[int] = set()
    for cue in finditer(_CONTRAST, probe_of(text)):
        named = cat.find("software", text[cue.end() : cue.end() + 40])
        if not named or named[0].start != 0:
            continue
        units = {m.unit for at, m in items if at < cue.start() and m.unit not in RATIO_UNITS}
        end = _SENTENCE_END.search(text, cue.end())
        stop = end.start() if end else len(text)
        found.update(at for at, m in items if cue.end() <= at < stop and m.unit in units)
    return found


_SENTENCE_END = re.compile(r"[;；。]|[,，]\s?(?:while|whereas|and|but|而|但)|\.\s")


def _baseline_first(text: str, cue: re.Match[str], stop: int, words: _Words) -> int | None:
    """Where the left side starts when it is the one named as the baseline, else None."""
    start = words.last_start(cue.start())
    if start is None or BASELINE_WORDS.search(text, cue.end(), stop):
        return None
    return None if _CLAUSE_END.search(text, start, cue.start()) else start


class _Words:
    """The `BASELINE_WORDS` of a text, found once."""

    def __init__(self, text: str) -> None:
        words = [word.span() for word in BASELINE_WORDS.finditer(text)]
        self._starts = [start for start, _ in words]
        self._ends = [end for _, end in words]

    def last_start(self, place: int) -> int | None:
        """The start of the last word before `place`, as `BASELINE_WORDS.finditer(text, 0,
        place)` finds it: a word ends on a character it takes and looks nowhere after
        it, so the words of the text that end by `place` are those of its first `place`
        characters (tests/test_extract_baselines.py compares both)."""
        count = bisect_right(self._ends, place)
        return self._starts[count - 1] if count else None


class _NextMatch:
    """`regex.search(text, place)` for places in increasing order: the match found from
    an earlier place is the first at or after every place up to its start (whether a
    match starts at a place does not depend on where the search began), so it is not
    looked for again."""

    def __init__(self, regex: re.Pattern[str], text: str) -> None:
        self._regex, self._text = regex, text
        self._place = -1
        self._found: re.Match[str] | None = None

    def search(self, place: int) -> re.Match[str] | None:
        known = self._place >= 0 and self._place <= place
        if known and (self._found is None or self._found.start() >= place):
            return self._found
        self._place, self._found = place, self._regex.search(self._text, place)
        return self._found


class _Within:
    """The places of one statement's numbers, by unit, in order."""

    def __init__(self, items: list[tuple[int, Metric]]) -> None:
        self._by_unit: dict[str, list[int]] = {}
        for at, metric in sorted(items, key=lambda item: item[0]):
            self._by_unit.setdefault(metric.unit, []).append(at)

    def places(self, unit: str, start: int, stop: int) -> list[int]:
        """The places of the numbers in `unit` at `start <= place < stop`."""
        places = self._by_unit.get(unit, [])
        return places[bisect_left(places, start) : bisect_left(places, stop)]

    def units(self, start: int, stop: int) -> set[str]:
        """The units of the numbers at `start <= place < stop`."""
        return {
            unit
            for unit, places in self._by_unit.items()
            if bisect_left(places, start) < bisect_left(places, stop)
        }

    def units_before(self, place: int, taken: set[int]) -> set[str]:
        """The units of the numbers before `place` that are not `taken` (each unit's
        first such number is enough)."""
        return {
            unit
            for unit, places in self._by_unit.items()
            if any(at not in taken for at in takewhile(lambda at: at < place, places))
        }
