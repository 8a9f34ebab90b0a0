"""Cheap tests that tell when a regular expression cannot match a text (issue #19).

Pure. A building block of the extract modules. `Probe` holds a statement as the tests
read it (folded, its words, whether it has a digit); `Needles` are what every match of a
pattern must contain (literal strings, one of each clause, and perhaps a digit) and tell
whether a probe's text could hold a match; `NeedleIndex` asks that of many patterns at
once. The needles of a pattern are read from its source by `regexneedles.needles_of`;
`screened` runs a regex only where its needles are. What the reader does not understand
it leaves out, so needles only ever narrow what is run, never what is found
(tests/test_prefilter.py compares both).
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
        """The needles of every `NeedleIndex` that are runs of ASCII letters and digits
        and occur in the text."""
        if self._version != _VOCABULARY.version:
            held = _VOCABULARY.held
            self._present = frozenset().union(*[held(word) for word in self.words])
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
    """Each clause: one of its strings (folded) is in the text."""
    digit: bool = False
    """Every match holds a digit (`\\d`, `[0-9]`)."""

    def could_match(self, probe: Probe) -> bool:
        """False when no match can exist in the probe's text."""
        if self.digit and not probe.has_digit:
            return False
        if not self.clauses:
            return True
        parts = self._parts  # first: it adds the words to the vocabulary
        present = probe.present
        for words, others in parts:
            if not words.isdisjoint(present):
                continue
            folded = probe.folded
            for needle in others:
                if needle in folded:
                    break
            else:
                return False
        return True

    @cached_property
    def _parts(self) -> tuple[tuple[frozenset[str], tuple[str, ...]], ...]:
        """Each clause's words (looked up in `Probe.present`) and its other strings."""
        parts = tuple(
            (
                frozenset(s for s in clause if _WORD.fullmatch(s)),
                tuple(s for s in clause if not _WORD.fullmatch(s)),
            )
            for clause in self.clauses
        )
        _VOCABULARY.add(word for words, _ in parts for word in words)
        return parts

    @cached_property
    def word_clause(self) -> frozenset[str] | None:
        """Words (runs of ASCII letters and digits) one of which is in every text the
        needles could match: the longest word of each string of the best clause whose
        strings all hold one (`phi-` holds `phi`), or None."""
        for clause in self.clauses:  # best first
            words = [max(_WORD.findall(s), key=len, default="") for s in clause]
            if all(words):
                return frozenset(words)
        return None

    @cached_property
    def only_words(self) -> bool:
        """Whether `word_clause` alone decides: one clause of words, no digit needed."""
        return (
            len(self.clauses) == 1
            and not self.digit
            and all(_WORD.fullmatch(s) for s in self.clauses[0])
        )


class _Vocabulary:
    """The needles of every `NeedleIndex` that are runs of ASCII letters and digits.

    Such a needle is in a folded text exactly when one of the text's words (runs of
    them) holds it. Words repeat across a document, so what each holds is worked out
    once, for all the indexes together.
    """

    def __init__(self) -> None:
        self.needles: set[str] = set()
        self.longest = 0
        self.version = 0
        self._held: dict[str, frozenset[str]] = {}

    def add(self, needles: Iterable[str]) -> None:
        new = set(needles) - self.needles
        if new:
            self.needles = self.needles | new  # a new set: a reader may be iterating the old
            self.longest = max(self.longest, *map(len, new))
            self.version += 1
            self._held.clear()

    def held(self, word: str) -> frozenset[str]:
        """The needles a word holds."""
        found = self._held.get(word)
        if found is None:
            if len(word) > 24:  # a long run (a checksum): look each needle up instead
                found = frozenset(n for n in self.needles if n in word)
            else:
                found = frozenset(
                    word[i:j]
                    for i in range(len(word))
                    for j in range(i + 1, min(len(word), i + self.longest) + 1)
                ).intersection(self.needles)
            if len(self._held) > 65536:
                self._held.clear()
            self._held[word] = found
        return found


_VOCABULARY = _Vocabulary()


class NeedleIndex:
    """Many patterns' needles, indexed by word: which of them could match a text.

    A text costs a few set operations (`Probe.present`), not a test per pattern.
    """

    def __init__(self, needles: Iterable[Needles]) -> None:
        self.needles = tuple(needles)
        by_word: dict[str, list[int]] = {}
        always: list[int] = []
        for n, needle in enumerate(self.needles):
            clause = needle.word_clause
            if clause is None:
                always.append(n)
            for word in clause or ():
                by_word.setdefault(word, []).append(n)
        self._by_word = {word: tuple(found) for word, found in by_word.items()}
        self._words = frozenset(by_word)
        self._always = tuple(always)
        # needles that are one word clause alone: found by the index, nothing to test
        self._settled = frozenset(n for n, needle in enumerate(self.needles) if needle.only_words)
        _VOCABULARY.add(self._words)

    def candidates(self, probe: Probe) -> list[int]:
        """Indices, in order, of the patterns whose needles are all in the text."""
        words = probe.present & self._words
        if not words and not self._always:
            return []
        found = set(self._always)
        for word in words:
            found.update(self._by_word[word])
        settled, needles = self._settled, self.needles
        return sorted([n for n in found if n in settled or needles[n].could_match(probe)])
