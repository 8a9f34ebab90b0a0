"""How the rule classifier reads a text (pure): its lower-case form, where the needles
of a profile's rules start in it, and whether a negation ends before a match.

An item's title and body are read by every dimension of a profile, so their forms are
kept for the last few texts, and the dimensions built together share one needle
automaton, so its pass over a text is made once too (#19).
"""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass
from typing import NamedTuple

from research_radar.classify.model import Dimension
from research_radar.classify.needles import Needles

__all__ = ["Reading", "TextForm", "negated", "text_form"]

_NEGATION_EN = re.compile(r"(?:\bnot|\bno|\bwithout|\bnever|\bnon)[\s-]+(?:[a-z]+\s+)?$")
_NEGATION_ZH = (
    "未",
    "不",
    "无",
    "没",
    "非",
    "未做",
    "未用",
    "未使用",
    "不用",
    "不做",
    "无需",
    "没有",
)
_NEGATION_ZH_CHARS = "未不无没非"
"""Every Chinese negation holds one of these."""
_NEGATION_HINTS = re.compile("no|never|without")
"""Every English negation (`_NEGATION_EN`) holds one of these."""


@dataclass(frozen=True)
class TextForm:
    """What every dimension reads of a text: its lower-case form and where a negation
    may end."""

    raw: str
    lower: str
    aligned: bool
    """Offsets in `lower` are offsets in `raw` (lower() kept every length)."""
    hints: tuple[list[int], list[int]]
    """Starts and ends of the `_NEGATION_HINTS` in `lower` (they never overlap)."""
    chinese_negation: bool
    """The text has a character that every Chinese negation holds."""


@functools.lru_cache(maxsize=16)
def text_form(text: str) -> TextForm:
    """One item's title and body are read by every dimension: read them once."""
    lower = text.lower()
    spans = [hit.span() for hit in _NEGATION_HINTS.finditer(lower)]
    return TextForm(
        raw=text,
        lower=lower,
        aligned=len(lower) == len(text),
        hints=([start for start, _ in spans], [end for _, end in spans]),
        chinese_negation=any(char in text for char in _NEGATION_ZH_CHARS),
    )


class Reading(NamedTuple):
    """A text as read by a dimension: its forms and the needles of the dimension's rules
    found in it (a rule whose needle is not found cannot match). A tuple: made for every
    dimension of every item."""

    raw: str
    form: TextForm
    found: dict[str, list[int]]
    """Each needle found in the lower-case form -> where it starts there."""
    needles: frozenset[str]
    """The needles found."""

    @classmethod
    def of(cls, text: str, dimension: Dimension) -> Reading:
        form = text_form(text)
        return Reading(text, form, *_found(form.lower, dimension.needles))


@functools.lru_cache(maxsize=16)
def _found(lower: str, needles: Needles) -> tuple[dict[str, list[int]], frozenset[str]]:
    """The dimensions of a profile share their needles: find them once per text."""
    found = needles.found(lower)
    return found, frozenset(found)


def negated(form: TextForm, start: int) -> bool:
    """A negation ends right before `start` (within 24 characters).

    Most matches have no negation word before them: where no `_NEGATION_HINTS` lies in
    those characters, the regex is not run.
    """
    low = max(0, start - 24)
    if form.chinese_negation and form.raw[low:start].rstrip().endswith(_NEGATION_ZH):
        return True
    if form.aligned:
        # in an aligned text the lower-case form of a slice is the slice of the lower-case
        # form; the first hint from `low` on is the only one that can end before `start`
        starts, ends = form.hints
        first = bisect.bisect_left(starts, low)
        if first == len(starts) or ends[first] > start:
            return False
        lowered = form.lower[low:start]
    else:
        lowered = form.raw[low:start].lower()
    return _NEGATION_EN.search(lowered) is not None
