"""Which rule needles occur in a text, found in one pass over it (#19).

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

    def found(self, text: str) -> frozenset[str]:
        """The literals that occur in `text`, overlapping occurrences included."""
        if self._automaton is None or not text:
            return frozenset()
        return frozenset(self._automaton.find_matches_as_strings(text, overlapping=True))
