"""Which rule needles occur in a text, and where, found in one pass over it (#19).

Every match of a term contains its needle (a lower-case literal), so a rule whose needle
does not occur in the lower-cased text cannot match and is never tried. An Aho-Corasick
automaton of all the needles of a dimension finds those that occur at once, where a
check per needle (or a regex per value) read the text hundreds of times.
"""

from __future__ import annotations

from collections.abc import Iterable

from ahocorasick_rs import AhoCorasick

__all__ = ["Needles"]


class Needles:
    """A fixed set of literals and an automaton that finds them all in a text."""

    def __init__(self, needles: Iterable[str]) -> None:
        self.needles = tuple(sorted({needle for needle in needles if needle}))
        """The literals, sorted, without duplicates and without the empty one."""
        self._automaton = AhoCorasick(self.needles) if self.needles else None

    def found(self, text: str) -> dict[str, list[int]]:
        """Each literal that occurs in `text` -> where it starts, in order (overlapping
        occurrences included)."""
        starts: dict[str, list[int]] = {}
        if self._automaton is None or not text:
            return starts
        needles = self.needles
        for index, start, _ in self._automaton.find_matches_as_indexes(text, overlapping=True):
            needle = needles[index]
            if needle in starts:
                starts[needle].append(start)
            else:
                starts[needle] = [start]
        return starts
