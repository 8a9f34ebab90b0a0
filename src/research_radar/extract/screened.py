"""Regular expressions run only where their needles are in the text (issue #19).

Pure. `Rule` pairs a compiled pattern with its needles; `search` and `finditer` do the
same for any compiled pattern (its needles read once), and `match` for one anchored at the
start. Each gives exactly what the
plain `re` call gives, skipping texts the needles rule out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from research_radar.extract.prefilter import Needles, Probe
from research_radar.extract.regexneedles import needles_of

__all__ = ["Rule", "finditer", "match", "search"]


@dataclass(frozen=True)
class Rule:
    """A compiled pattern with its needles: runs only where it could match."""

    regex: re.Pattern[str]
    needles: Needles

    @classmethod
    def of(cls, regex: re.Pattern[str]) -> Rule:
        return cls(regex, needles_of(regex.pattern, regex.flags))

    def search(self, probe: Probe) -> re.Match[str] | None:
        return self.regex.search(probe.text) if self.needles.could_match(probe) else None

    def finditer(self, probe: Probe) -> Iterator[re.Match[str]]:
        if self.needles.could_match(probe):
            yield from self.regex.finditer(probe.text)


def search(regex: re.Pattern[str], probe: Probe) -> re.Match[str] | None:
    """`regex.search(probe.text)`, skipped when the regex's needles are not in the text."""
    return regex.search(probe.text) if _needles(regex).could_match(probe) else None


def match(regex: re.Pattern[str], probe: Probe) -> re.Match[str] | None:
    """`regex.match(probe.text)`, skipped when the regex's needles are not in the text (a
    match at the start is a match: it holds them too)."""
    return regex.match(probe.text) if _needles(regex).could_match(probe) else None


def finditer(regex: re.Pattern[str], probe: Probe) -> Iterator[re.Match[str]]:
    """`regex.finditer(probe.text)`, skipped when the regex's needles are not in the text."""
    if _needles(regex).could_match(probe):
        yield from regex.finditer(probe.text)


@cache
def _needles(regex: re.Pattern[str]) -> Needles:
    return needles_of(regex.pattern, regex.flags)
