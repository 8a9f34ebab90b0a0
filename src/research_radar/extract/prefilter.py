"""Cheap tests that tell when a regular expression cannot match a text (issue #19).

Pure. A building block of the extract modules. `Probe` holds a statement as the tests
read it (folded, the needles it holds, whether it has a digit); `Needles` are what every
match of a pattern must contain (literal strings, one of each clause, and perhaps a
digit) and tell whether a probe's text could hold a match; `NeedleIndex` asks that of
many patterns at once. The needles of a pattern are read from its source by
`regexneedles.needles_of`; `screened` runs a regex only where its needles are. What the
reader does not understand it leaves out, so needles only ever narrow what is run, never
what is found (tests/test_prefilter.py compares both).

Every needle string of every `Needles` joins one vocabulary when first used; a probe
works out once which of them its text holds (`Probe.present`), so a needle test is a few
set operations, whatever the length of the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property, lru_cache

__all__ = [
    "NeedleIndex",
    "Needles",
    "Probe",
    "fold",
    "probe_of",
]

# Under re.IGNORECASE these match an ASCII letter but do not lower-case to it (found by
# trying every code point; tests/test_catalogue_matcher.py checks the table is complete).
_FOLD = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"})
_DIGIT = re.compile(r"\d")
_WORD = re.compile(r"[a-z0-9]+")


def fold(text: str) -> str:
    """The text as needles are looked up in: every character that matches an ASCII
    letter under re.IGNORECASE is that letter in lower case."""
    if text.isascii():
        return text.lower()
    return text.translate(_FOLD).lower()


class Probe:
    """A statement as the needle tests read it: folded (`fold`), its words and digits.

    Each is worked out on first use (plain slots: probes are read very often)."""

    __slots__ = ("_digit", "_folded", "_present", "_version", "_words", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._folded: str | None = None
        self._words: frozenset[str] | None = None
        self._digit: bool | None = None
        self._present: frozenset[str] = frozenset()
        self._version = -1

    @property
    def folded(self) -> str:
        if self._folded is None:
            self._folded = fold(self.text)
        return self._folded

    @property
    def words(self) -> frozenset[str]:
        """The runs of ASCII letters and digits of the folded text."""
        if self._words is None:
            self._words = frozenset(_WORD.findall(self.folded))
        return self._words

    @property
    def present(self) -> frozenset[str]:
        """The needle strings of every `Needles` used so far that occur in the folded
        text."""
        if self._version != _VOCABULARY.version:
            self._present = _VOCABULARY.present(self)
            self._version = _VOCABULARY.version
        return self._present

    @property
    def has_digit(self) -> bool:
        if self._digit is None:
            self._digit = _DIGIT.search(self.text) is not None
        return self._digit


@lru_cache(maxsize=16384)
def probe_of(text: str) -> Probe:
    """The probe of a text, shared by the rules that read the same statement."""
    return Probe(text)


@dataclass(frozen=True)
class Needles:
    """What every match of a pattern contains."""

    clauses: tuple[frozenset[str], ...] = ()
    """Each clause: one of its strings (folded, never empty) is in the text."""
    digit: bool = False
    """Every match holds a digit (`\\d`, `[0-9]`)."""

    def could_match(self, probe: Probe) -> bool:
        """False when no match can exist in the probe's text."""
        if self.digit and not probe.has_digit:
            return False
        clauses = self._known  # first: it adds the strings to the vocabulary
        if not clauses:
            return True
        present = probe.present
        return all(not clause.isdisjoint(present) for clause in clauses)

    @cached_property
    def _known(self) -> tuple[frozenset[str], ...]:
        """The clauses, once their strings are in the vocabulary `Probe.present` reads."""
        _VOCABULARY.add(s for clause in self.clauses for s in clause)
        return self.clauses


class _Vocabulary:
    """The needle strings of every `Needles` used so far.

    A string that is a run of ASCII letters and digits is in a folded text exactly when
    one of the text's words (runs of them) holds it. Words repeat across a document, so
    what each holds is worked out once. Any other string is looked up in the text when
    the text holds its first character.
    """

    def __init__(self) -> None:
        self.needles: set[str] = set()
        self.words: set[str] = set()
        self.longest = 0
        self.version = 0
        self._by_first: dict[str, tuple[str, ...]] = {}
        self._firsts: frozenset[str] = frozenset()
        self._held: dict[str, frozenset[str]] = {}

    def add(self, needles: Iterable[str]) -> None:
        new = set(needles) - self.needles
        if not new:
            return
        # new sets, not updates: a reader may be iterating the old ones
        self.needles = self.needles | new
        words = {s for s in new if _WORD.fullmatch(s)}
        if words:
            self.words = self.words | words
            self.longest = max(self.longest, *map(len, words))
        by_first = dict(self._by_first)
        for s in sorted(new - words):
            by_first[s[0]] = (*by_first.get(s[0], ()), s)
        self._by_first = by_first
        self._firsts = frozenset(by_first)
        self.version += 1
        self._held.clear()

    def present(self, probe: Probe) -> frozenset[str]:
        """The needle strings in the probe's folded text."""
        held = self.held
        found = frozenset().union(*[held(word) for word in probe.words])
        folded = probe.folded
        firsts = self._firsts.intersection(folded)
        if firsts:
            by_first = self._by_first
            others = [s for c in firsts for s in by_first[c] if s in folded]
            if others:
                found = found.union(others)
        return found

    def held(self, word: str) -> frozenset[str]:
        """The word needles a word holds."""
        found = self._held.get(word)
        if found is None:
            if len(word) > 24:  # a long run (a checksum): look each needle up instead
                found = frozenset(n for n in self.words if n in word)
            else:
                found = frozenset(
                    word[i:j]
                    for i in range(len(word))
                    for j in range(i + 1, min(len(word), i + self.longest) + 1)
                ).intersection(self.words)
            if len(self._held) > 65536:
                self._held.clear()
            self._held[word] = found
        return found


_VOCABULARY = _Vocabulary()


class NeedleIndex:
    """Many patterns' needles, indexed by the strings of their first clause: which of
    them could match a text.

    The answer depends only on the needle strings a text holds and on whether it has a
    digit, so it is worked out once per such pair (issue #19).
    """

    def __init__(self, needles: Iterable[Needles]) -> None:
        self.needles = tuple(needles)
        by_string: dict[str, list[int]] = {}
        always: list[int] = []
        for n, needle in enumerate(self.needles):
            if not needle.clauses:
                always.append(n)
            for string in needle.clauses[0] if needle.clauses else ():
                by_string.setdefault(string, []).append(n)
        self._by_string = {string: tuple(found) for string, found in by_string.items()}
        self._always = tuple(always)
        # one clause and no digit: found by the index, nothing left to test
        self._settled = frozenset(
            n
            for n, needle in enumerate(self.needles)
            if len(needle.clauses) == 1 and not needle.digit
        )
        self._strings = frozenset(s for needle in self.needles for c in needle.clauses for s in c)
        self._known: dict[tuple[frozenset[str], bool], tuple[int, ...]] = {}
        _VOCABULARY.add(self._strings)  # now: a probe's needles are then known for good

    def candidates(self, probe: Probe) -> list[int]:
        """Indices, in order, of the patterns whose needles are all in the text."""
        key = (probe.present & self._strings, probe.has_digit)
        found = self._known.get(key)
        if found is None:
            found = self._candidates(probe, key[0])
            if len(self._known) > 16384:
                self._known.clear()
            self._known[key] = found
        return list(found)

    def _candidates(self, probe: Probe, present: frozenset[str]) -> tuple[int, ...]:
        alive = set(self._always)
        by_string = self._by_string
        for string in present:
            alive.update(by_string.get(string, ()))
        settled, needles = self._settled, self.needles
        return tuple(sorted(n for n in alive if n in settled or needles[n].could_match(probe)))
