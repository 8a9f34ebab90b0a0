"""The numbers the rules left in a sentence or list item, as candidates for the number
reader: each with the cues a linear model weighs (the words around it, what it looks like,
whether the rules read the sentence) and the unit and metric name it would carry if read
as a measurement; a list item's unit may be the one said above its list.

Pure. A building block of `research_radar.extract.reader`; callers outside this package
use `research_radar.extract.claims` instead. The cues of table cells, and the ones both
share, are in `extract.readercues` (issue #14).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from functools import cached_property

from research_radar.extract.cells import head_name
from research_radar.extract.durations import duration_spans
from research_radar.extract.intended import intended_spans
from research_radar.extract.markdown import Segment
from research_radar.extract.metrics import metric_words
from research_radar.extract.prefilter import probe_of
from research_radar.extract.readercues import (
    LOAD_WORDS,
    Candidate,
    not_a_reading,
    shape_cues,
    unit_after,
    word_cues,
)
from research_radar.extract.screened import search
from research_radar.extract.units import (
    DEFAULT_METRIC_NAMES,
    NUMBER_PATTERN,
    number_start,
    parse_number,
)

__all__ = ["prose_candidates"]


_NUMBER = re.compile(NUMBER_PATTERN)
_NORMALISED_TO = re.compile(
    r"(?:normali[sz]ed|relative)\s+to\b[^.;]*?[=:]\s*$|归一[^。；]*?[=为]\s*$", re.I
)
"""`normalised to Python = 1.00`: the reference the other numbers are read against."""

_SCORE_WORDS = frozenset({"score", "scores", "scored", "得分"})

_SCORED_ON = re.compile(r"\s*(?:on|in)\s+([A-Z][\w.+-]*(?:[ -](?:v?\d[\w.]*|[A-Z][\w.+-]*)){0,2})")
"""`… on MMLU-Pro`, `… on Terminal-Bench 2.0`: the benchmark a score was measured on."""

_COLON = re.compile(r"[:：=]\s*$")

_METRIC_HINT = re.compile(
    r"prefill|decode|TTFT|TPOT|latency|throughput|speed|bandwidth|memory|accuracy|score|"
    r"tok/s|加速|吞吐|延迟|显存|速度|准确率|得分",
    re.I,
)
"""A word that says the sentence measures something (a cheap look, not a metric name)."""

_LABELLED_ID = re.compile(r"#$|[A-Za-z][:/]$|(?:arXiv|abs|doi|sha|commit|issue|PR)\s?$", re.I)

_LABELLED_ID_SPAN = 8
"""The most characters a match of `_LABELLED_ID` spans (`commit ` and a final newline): it
ends the text, so it is searched for in that many last characters only (issue #19)."""

_NAMED_SIZE = re.compile(r"[BMK]\b|-[A-Za-z]")

_LONGEST = 1500
"""A longer sentence is no statement of a measurement (a hash, a dump of numbers): the
rules read it alone."""

_MEMORY = frozenset({"GB", "GiB", "MB", "MiB", "TB"})


def _listed_unit(segment: Segment, before: str, after: str) -> str:
    """The unit said above a list for an item that is a label and one number (`A100:
    120.5` under `### Decode throughput (tokens/s)`), or ''. Not a setting's (`Batch size:
    16`): a label that names a setting and holds no value of it is no measurement's. Under
    a list of ratios (`normalised to Python = 1.00:`) each value that stands alone is one
    (`- A: latency 0.48, VRAM 0.68.`), a setting's again excepted (`batch 4`)."""
    if not segment.unit or segment.block != "list":
        return ""
    if segment.unit == "x" and _RATIO_VALUE.match(after) and not _SETTING_BEFORE.search(before):
        return "x"
    if after.strip(" .;,*)）"):
        return ""
    label = _ITEM_LABEL.fullmatch(before)
    if label is None or LOAD_WORDS.search(label.group(1)) and not _DIGIT.search(label.group(1)):
        return ""
    return segment.unit


_RATIO_VALUE = re.compile(r"\s?(?:[,;，；]|[.。]?\s*$)")
"""What follows a value standing alone in a list item: a separator or the item's end."""
_SETTING_BEFORE = re.compile(rf"(?:{LOAD_WORDS.pattern})\W{{0,3}}$", re.I)
"""`batch 4`, `bs=8`: the number right after a setting's name is the setting's."""


_ITEM_LABEL = re.compile(r"\W*([^:：=]{1,60}?(?:=\s?\d[\w.]*)?)\**\s*[:：=]\s*[~≈]?\s*")
"""`A100: `, `**bs=1**: `: an item's label, then the colon before its number."""
_DIGIT = re.compile(r"\d")


def prose_candidates(
    segment: Segment, taken: Sequence[float], *, everything: bool = False
) -> list[Candidate]:
    """The numbers of one sentence or list item, with their cues (see `table_candidates`)."""
    text = segment.text
    if len(text) > _LONGEST or not probe_of(text).has_digit:
        return []  # (every number holds a digit: most sentences are passed over at once)
    matches = list(_NUMBER.finditer(text))
    if not matches:
        return []
    written = [_written(text, match) for match in matches]
    marks = _Marks(text)
    used = _used(segment, written, taken, marks)
    sentence: list[str] | None = None
    # what the whole sentence says is read at its first number the rules left (#19)
    candidates: list[Candidate] = []
    for index, (start, end, value) in enumerate(written):
        hit = index in used
        if hit and not everything:
            continue
        raw = text[start:end]
        before, after = text[max(0, start - 40) : start], text[end : end + 40]
        unit = _unit_at(segment, start, end)
        if _no_reading(text, (start, end, value), unit, marks):
            continue
        if sentence is None:
            sentence = ["p", f"block:{segment.block}", f"nnum{min(len(matches), 5)}"]
            if search(_METRIC_HINT, probe_of(text)):
                sentence.append("smetric")
        cues = [
            *sentence,
            "sread" if len(taken) - hit > 0 else "snone",
            *shape_cues(raw, after, before),
            *word_cues(after[:24], "n:", 2),
            *word_cues(before, "b:", 3, last=True),
            f"u:{unit}" if unit else "nounit",
            "start" if start < 3 else "",
            "colon" if _COLON.search(before) else "",
        ]
        words = metric_words(before) if _METRIC_HINT.search(before) else []
        name = head_name(words[-1].group(0)) if words else ""
        named = _SCORED_ON.match(after) if name.lower() in _SCORE_WORDS else None
        if named:
            name = named.group(1)  # `scores 59.3 on Terminal-Bench 2.0`: the benchmark
        candidates.append(
            Candidate(
                segment.line,
                raw,
                unit,
                name or DEFAULT_METRIC_NAMES.get(unit, "value"),
                tuple(c for c in cues if c),
                hit,
            )
        )
    return candidates


_Written = tuple[int, int, float]
"""Where a number stands in its sentence (start, end) and its value."""


def _written(text: str, match: re.Match[str]) -> _Written:
    start, end = number_start(text, match.start()), match.end()  # `5%-30%`: 30, not -30
    return start, end, parse_number(text[start:end])


class _Marks:
    """The spans of a sentence that hold no reading of their own (the parts of a compound
    duration, an intended setting), looked for once and only when first asked for: one
    cue search passes most sentences over."""

    def __init__(self, text: str) -> None:
        self.text = text

    @cached_property
    def durations(self) -> list[tuple[int, int]]:
        return duration_spans(self.text)

    @cached_property
    def intended(self) -> list[tuple[int, int]]:
        return intended_spans(self.text)


def _no_reading(text: str, written: _Written, unit: str, marks: _Marks) -> bool:
    """`M5 Pro 48 GB`: a memory size in prose is a spec (the rules read the memory a run
    uses, `peak 21 GB`); `arXiv:2409.10516` is an id; `0.6B`, `4000-token generations`,
    `8-bit`: a size or a setting; `8 GPUs`: a device count (`not_a_reading`)."""
    start, end, value = written
    before, after = text[max(0, start - 40) : start], text[end : end + 40]
    return (
        not_a_reading(after, start, marks.durations, before, text[start:end])
        or (start, end) in marks.intended
        or unit in _MEMORY
        or (value == 1 and _NORMALISED_TO.search(before) is not None)
        or _LABELLED_ID.search(before, len(before) - _LABELLED_ID_SPAN) is not None
        or _NAMED_SIZE.match(after) is not None
    )


def _used(
    segment: Segment, written: Sequence[_Written], taken: Sequence[float], marks: _Marks
) -> set[int]:
    """Which of the sentence's numbers (by index in `written`) the rules read: the first
    ones of each value they took. Where a value is written more often than they took it
    (`3 tok/s on 4 GPUs, 4 tok/s`), the numbers that are no reading (the count `4`) use
    none of it up while a reading of that value is left to take it (issue #14)."""
    if not taken:
        return set()
    wanted = Counter(taken)
    left = Counter(wanted)
    count = Counter(value for _, _, value in written)
    used: set[int] = set()
    held: list[int] = []
    for index, (start, end, value) in enumerate(written):
        if left[value] <= 0:
            continue
        if count[value] > wanted[value] and _no_reading(
            segment.text, (start, end, value), _unit_at(segment, start, end), marks
        ):
            held.append(index)  # (given a taken value only if no reading is left to take it)
            continue
        left[value] -= 1
        used.add(index)
    for index in held:
        value = written[index][2]
        if left[value] > 0:
            left[value] -= 1
            used.add(index)
    return used


def _unit_at(segment: Segment, start: int, end: int) -> str:
    text = segment.text
    after = text[end : end + 40]
    return unit_after(after) or _listed_unit(segment, text[:start], after)
