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
works out once which of them its text holds (`Probe.present`, one pass of an Aho-Corasick
automaton), so a needle test is a few set operations, whatever the length of the text.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property, lru_cache

from ahocorasick_rs import AhoCorasick, MatchKind

__all__ = [
    "RECENT_TEXTS",
    "NeedleIndex",
    "Needles",
    "Probe",
    "fold",
    "folded_spellings",
    "probe_of",
]

# Under re.IGNORECASE these match an ASCII letter but do not lower-case to it (found by
# trying every code point; tests/test_catalogue_matcher.py checks the table is complete).
_FOLD = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"})
_FOLDED = re.compile("[\u0130\u0131\u017f\u212a]")
_DIGIT = re.compile(r"\d")


def fold(text: str) -> str:
    """The text as needles are looked up in: every character that matches an ASCII
    letter under re.IGNORECASE is that letter in lower case."""
    if text.isascii() or not _FOLDED.search(text):
        return text.lower()  # (translating a long non-ASCII text costs more than lower())
    return text.translate(_FOLD).lower()


def folded_spellings(char: str) -> frozenset[str] | None:
    """What `fold` makes of every character a cased non-ASCII `char` matches under
    re.IGNORECASE (`π` also matches `Π` and `ϖ`: {"π", "ϖ"}), so that it can be looked up
    in a folded text (`ı` also matches `i` and folds to it: {"i"}); None for an ASCII one
    (read as itself), one whose lower case is longer, or where this Python's table of the
    extra cases is missing (it is private)."""
    low = char.lower()
    if len(low) != 1 or low.isascii() or _EXTRA_CASES is None:
        return None
    return frozenset(fold(one) for one in (low, *map(chr, _EXTRA_CASES.get(ord(low), ()))))


def _extra_cases() -> dict[int, tuple[int, ...]] | None:
    """`re`'s own table of the characters a lower-case one matches besides its upper case
    (`re._casefix`, Python 3.11+), or None."""
    try:
        table = importlib.import_module("re._casefix")._EXTRA_CASES
    except (ImportError, AttributeError):
        return None
    return table if isinstance(table, dict) else None


_EXTRA_CASES = _extra_cases()


class Probe:
    """A statement as the needle tests read it: folded (`fold`), its needles and digits.

    Its needles and folded text are worked out on first use; whether it has a digit at
    once, as nearly every probe is asked (plain slots: probes are read very often)."""

    __slots__ = ("_folded", "_present", "_version", "has_digit", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._folded: str | None = None
        self.has_digit = _DIGIT.search(text) is not None
        self._present: frozenset[str] = frozenset()
        self._version = -1

    @property
    def folded(self) -> str:
        if self._folded is None:
            self._folded = fold(self.text)
        return self._folded

    @property
    def present(self) -> frozenset[str]:
        """The needle strings of every `Needles` used so far that occur in the folded
        text."""
        version = _VOCABULARY.version  # (read first: strings added meanwhile are looked up again)
        if self._version != version:
            self._present = _VOCABULARY.present(self, self._present, self._version)
            self._version = version
        return self._present


RECENT_TEXTS = 65_536
"""How many texts a per-text cache of extraction keeps before it starts afresh: every
statement of a 4 MB README, so that the passes after the statement loop (scopes, loads,
set-ups) find what the loop worked out instead of working it out again (#19)."""


@lru_cache(maxsize=RECENT_TEXTS)
def probe_of(text: str) -> Probe:
    """The probe of a text, shared by the rules that read the same statement.

    Sized for a large README: the passes after the statement loop (scopes, loads, the
    document's set-up) read every statement again, and a 4 MB one holds some 37,000
    statements and pieces of them; a cache of 16,384 had forgotten each before it was
    read again, so every probe was folded and scanned four times (issue #19)."""
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
        # `probe.present` without a call when the probe is up to date (called very often)
        present = probe._present if probe._version == _VOCABULARY.version else probe.present
        if len(clauses) == 1:
            return not present.isdisjoint(clauses[0])
        return not any(map(present.isdisjoint, clauses))  # no generator: called very often

    @cached_property
    def _known(self) -> tuple[frozenset[str], ...]:
        """The clauses, once their strings are in the vocabulary `Probe.present` reads."""
        _VOCABULARY.add(s for clause in self.clauses for s in clause)
        return self.clauses


class _Vocabulary:
    """The needle strings of every `Needles` used so far.

    Which of them a folded text holds is found in one pass: an Aho-Corasick automaton
    reports every occurrence of the strings of two or more characters, and the
    one-character ones are the text's own characters. Strings added since the automaton
    was built are looked up one by one until there are enough of them to build it again;
    a probe read before a few strings were added looks up only those (issue #19). Once
    the one-by-one look-ups have cost about what a build costs, it is built again: a large
    README's statements are each scanned once, and most came after the last strings.
    """

    def __init__(self) -> None:
        self.needles: set[str] = set()
        self.version = 0
        self._singles: frozenset[str] = frozenset()
        self._built: tuple[str, ...] = ()
        """The strings the automaton finds."""
        self._automaton: AhoCorasick | None = None
        self._pending: tuple[str, ...] = ()
        """Strings of two or more characters the automaton does not hold yet."""
        self._looked = 0
        """Pending strings looked up one by one since the automaton was built."""
        self._order: list[str] = []
        """Every string, in the order added."""
        self._sizes: list[int] = [0]
        """Per version, how many strings `_order` held."""

    def add(self, needles: Iterable[str]) -> None:
        new = set(needles) - self.needles
        if not new:
            return
        # new sets, not updates: a reader may be iterating the old ones
        self.needles = self.needles | new
        singles = {s for s in new if len(s) == 1}
        if singles:
            self._singles = self._singles | singles
        self._pending = (*self._pending, *sorted(new - singles))
        if len(self._pending) > _PENDING:
            self._build()
        self._order.extend(sorted(new))
        self._sizes.append(len(self._order))
        self.version += 1

    def present(self, probe: Probe, known: frozenset[str], version: int) -> frozenset[str]:
        """The needle strings in the probe's folded text, given those it held among the
        strings of an earlier `version` (-1: none known)."""
        folded = probe.folded
        if version >= 0:
            added = self._order[self._sizes[version] :]
            if len(added) <= _PENDING:
                held = [s for s in added if s in folded]
                return known.union(held) if held else known
        found = self._singles.intersection(folded)
        if self._automaton is not None:
            hits = self._automaton.find_matches_as_strings(folded, overlapping=True)
            if hits:
                found = found.union(hits)
        if self._pending:
            others = [s for s in self._pending if s in folded]
            if others:
                found = found.union(others)
            self._looked += len(self._pending)
            if self._looked > _LOOKUPS_PER_BUILT * len(self._built):
                self._build()  # (for the next probes: this one's strings are found)
        return found

    def _build(self) -> None:
        """The automaton, holding the pending strings too."""
        built = (*self._built, *self._pending)
        self._automaton = AhoCorasick(built, matchkind=MatchKind.Standard, store_patterns=True)
        self._built, self._pending, self._looked = built, (), 0


_PENDING = 48
"""How many strings may wait outside the automaton: building it costs about as much as
looking this many strings up in a few hundred statements."""
_LOOKUPS_PER_BUILT = 16
"""One-by-one look-ups of pending strings that cost about what building the automaton
costs, per string it holds (measured: 2,200 strings build in about the time of 35,000
look-ups in a statement)."""


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
        self._undigited = frozenset(
            s for needle in self.needles if not needle.digit for c in needle.clauses for s in c
        )
        """The strings of the needles that need no digit: all a text without one is asked
        about (nearly every needle of the load and metric rules needs a digit, so most
        prose shares one key, read once; issue #19)."""
        self._known: dict[tuple[frozenset[str], bool], tuple[int, ...]] = {}
        _VOCABULARY.add(self._strings)  # now: a probe's needles are then known for good

    def candidates(self, probe: Probe) -> list[int]:
        """Indices, in order, of the patterns whose needles are all in the text."""
        return list(self.known(probe))

    def known(self, probe: Probe) -> tuple[int, ...]:
        """`candidates`, as the index keeps them (the same tuple for texts that hold the
        same needles: callers may key their own work on it)."""
        digit = probe.has_digit
        key = (probe.present & (self._strings if digit else self._undigited), digit)
        found = self._known.get(key)
        if found is None:
            found = self._candidates(probe, key[0])
            if len(self._known) > RECENT_TEXTS:
                self._known.clear()
            self._known[key] = found
        return found

    def _candidates(self, probe: Probe, present: frozenset[str]) -> tuple[int, ...]:
        # one union and one intersection, not a test per pattern: nearly every statement
        # holds its own set of needle strings, so this runs once per statement (issue #19)
        by_string = self._by_string
        alive = set(self._always).union(*[by_string[s] for s in present if s in by_string])
        needles = self.needles
        tested = [n for n in alive - self._settled if needles[n].could_match(probe)]
        return tuple(sorted([*(alive & self._settled), *tested]))
