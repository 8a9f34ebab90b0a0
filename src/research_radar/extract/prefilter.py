"""Cheap tests that tell when a regular expression cannot match a text (issue #19).

Pure. A building block of the extract modules. `needles_of` reads a pattern's source
and finds what every match must contain: literal strings (one of each clause) and
perhaps a digit. `Probe` holds a statement as those tests read it. A rule whose needles
are not in a text is not run on it: the same matches as running it, in a fraction of
the time. What the reader does not understand it leaves out, so needles only ever
narrow what is run, never what is found (tests/test_prefilter.py compares both).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache

__all__ = [
    "NeedleIndex",
    "Needles",
    "Probe",
    "Rule",
    "class_end",
    "finditer",
    "fold",
    "group_end",
    "needles_of",
    "probe_of",
    "search",
]

# Under re.IGNORECASE these match an ASCII letter but do not lower-case to it (found by
# trying every code point; tests/test_catalogue_matcher.py checks the table is complete).
_FOLD = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"})
_DIGIT = re.compile(r"\d")
_WORD = re.compile(r"[a-z0-9]+")
_QUANTIFIER = re.compile(r"\{(\d*)(?:,(\d*))?\}")
_CLASS_ESCAPES = "dDsSwWbBAZ"
_MAX_CLAUSES = 3


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


def finditer(regex: re.Pattern[str], probe: Probe) -> Iterator[re.Match[str]]:
    """`regex.finditer(probe.text)`, skipped when the regex's needles are not in the text."""
    if _needles(regex).could_match(probe):
        yield from regex.finditer(probe.text)


@cache
def _needles(regex: re.Pattern[str]) -> Needles:
    return needles_of(regex.pattern, regex.flags)


# --------------------------------------------------------------------------- the reader


@dataclass
class _Info:
    clauses: list[frozenset[str]]
    digit: bool


class _Unknown(Exception):
    """The pattern uses syntax the reader does not follow: no needles."""


def needles_of(pattern: str, flags: int = 0) -> Needles:
    """The needles of a pattern (none when it uses syntax the reader does not follow)."""
    if flags & re.VERBOSE:
        return Needles()
    try:
        info = _alternation(pattern)
    except _Unknown:
        return Needles()
    ranked = sorted(info.clauses, key=_score, reverse=True)
    chosen = [clause for clause in ranked if _score(clause) >= 1][:_MAX_CLAUSES]
    return Needles(tuple(chosen), info.digit)


def _score(clause: frozenset[str]) -> float:
    """How rare a clause is in text: its weakest string's letters (a CJK one counts 2)."""

    def weight(text: str) -> float:
        return sum(
            1.0 if c.isascii() and c.isalnum() else 0.3 if c.isascii() else 2.0 for c in text
        )

    return min(weight(s) for s in clause)


def _alternation(pattern: str) -> _Info:
    branches = _split_branches(pattern)
    infos = [_sequence(branch) for branch in branches]
    if len(infos) == 1:
        return infos[0]
    digit = all(info.digit for info in infos)
    best = [max(info.clauses, key=_score, default=None) for info in infos]
    if any(clause is None for clause in best):
        return _Info([], digit)
    return _Info([frozenset(s for clause in best if clause for s in clause)], digit)


def _split_branches(pattern: str) -> list[str]:
    branches, start, i = [], 0, 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            i += 2
            continue
        if char == "[":
            i = class_end(pattern, i)
        elif char == "(":
            i = group_end(pattern, i)
        elif char == "|":
            branches.append(pattern[start:i])
            start = i + 1
        if i < 0:
            raise _Unknown
        i += 1
    branches.append(pattern[start:])
    return branches


def _sequence(branch: str) -> _Info:
    """Needles of one branch (no top-level `|`).

    A run is the set of strings the literal items read so far can spell (`M[1-9]` spells
    m1 ... m9); an item that is not read, optional or repeated ends it.
    """
    clauses: list[frozenset[str]] = []
    digit = False
    run: frozenset[str] = frozenset({""})
    i = 0

    def end_run() -> frozenset[str]:
        if "" not in run:
            clauses.append(run)
        return frozenset({""})

    while i < len(branch):
        end, times = _item(branch, i)
        chars = _chars(branch[i:end])
        spelled = _spellings(branch[i + 1 : end - 1]) if branch[i] == "(" else None
        if spelled is not None and times != _OPTIONAL:
            # a group of literal alternatives (`(?P<g>[1-9])`, `(?:Pro|Max)`): spelled on
            if len(run) * len(spelled) > _MAX_SPELLINGS:
                run = end_run()
            run = frozenset(r + c for r in run for c in spelled)
            if times == _REPEATED:
                run = end_run()
        elif branch[i] == "(":
            run = end_run()
            inner = _group_body(branch[i + 1 : end - 1])
            if inner is not None and times != _OPTIONAL:
                info = _alternation(inner)
                clauses.extend(info.clauses)
                digit = digit or info.digit
        elif chars is None or times == _OPTIONAL:
            run = end_run()
            # `\\d` also matches other scripts' digits: a digit, but no string to spell
            digit = digit or (times != _OPTIONAL and branch[i:end] == "\\d")
        else:
            digit = digit or chars <= _DIGITS
            if len(run) * len(chars) > _MAX_SPELLINGS:
                run = end_run()
            run = frozenset(r + c for r in run for c in chars)
            if times == _REPEATED:
                run = end_run()
        i = _after_quantifier(branch, end)
    end_run()
    return _Info(clauses, digit)


def _spellings(inner: str) -> frozenset[str] | None:
    """Every string a group body matches, when it is made of literal items only (each
    once, a few alternatives): `[1-9]`, `Pro|Max|Ultra`, `?:b|B`; else None."""
    body = _group_body(inner)
    if body is None or not body:
        return None
    found: set[str] = set()
    for branch in _split_branches(body):
        spelled: frozenset[str] = frozenset({""})
        i = 0
        while i < len(branch):
            end, times = _item(branch, i)
            item = branch[i:end]
            chars = _spellings(item[1:-1]) if item[0] == "(" else _chars(item)
            if chars is None or times != _ONCE:
                return None
            spelled = frozenset(r + c for r in spelled for c in chars)
            if len(spelled) > _MAX_SPELLINGS:
                return None
            i = end
        found |= spelled
    if "" in found or len(found) > _MAX_SPELLINGS:
        return None
    return frozenset(found)


_ONCE, _REPEATED, _OPTIONAL = "once", "repeated", "optional"
_MAX_SPELLINGS = 32
_DIGITS = frozenset("0123456789")


def _item(branch: str, i: int) -> tuple[int, str]:
    """Where the item at `i` ends, and how often it occurs: once, repeated or optional."""
    char = branch[i]
    if char == "\\":
        end = i + 2
    elif char == "[":
        end = class_end(branch, i) + 1
    elif char == "(":
        end = group_end(branch, i) + 1
    else:
        end = i + 1
    if end <= 0:
        raise _Unknown
    if end >= len(branch) or branch[end] not in "?*+{":
        return end, _ONCE
    low, high = _quantifier(branch, end)
    if low == 0:
        return end, _OPTIONAL
    return end, _ONCE if (low, high) == (1, 1) else _REPEATED


def _after_quantifier(branch: str, end: int) -> int:
    if end < len(branch) and branch[end] in "?*+{":
        return _quantifier_end(branch, end)
    return end


def _chars(item: str) -> frozenset[str] | None:
    """The folded characters one item matches, when it is a literal or a small class."""
    if item[0] == "\\":
        after = item[1:2]
        if not after:
            raise _Unknown
        if after.isalnum():
            if after not in _CLASS_ESCAPES:
                raise _Unknown  # \x41, \N{...}, back-references: not read here
            return None
        return _folded_char(after)
    if item[0] == "[":
        return _class_chars(item[1:-1])
    if item in (".", "^", "$", ")", "|", "(", "?", "*", "+"):
        return None
    return _folded_char(item)


def _folded_char(char: str) -> frozenset[str] | None:
    """A literal character as the probe folds it; None for a cased non-ASCII one (`π`
    also matches `Π` and `ϖ`)."""
    if char.isascii():
        return frozenset({char.lower()})
    if char.lower() == char == char.upper():
        return frozenset({char})  # no case: it matches only itself (CJK, `×`, `±`)
    return None


def _class_chars(body: str) -> frozenset[str] | None:
    """The characters of a small class (`[xX×]`, `[1-9]`, `[\\d]`), folded; else None."""
    if not body or body[0] == "^":
        return None
    found: set[str] = set()
    i = 0
    while i < len(body):
        if body[i] == "\\":
            after = body[i + 1 : i + 2]
            if not after or after.isalnum():
                return None
            else:
                found.add(after)
            i += 2
        elif i + 2 < len(body) and body[i + 1] == "-":
            low, high = ord(body[i]), ord(body[i + 2])
            if high - low > 10 or high < low:
                return None
            found.update(chr(c) for c in range(low, high + 1))
            i += 3
        else:
            found.add(body[i])
            i += 1
    folded: set[str] = set()
    for char in found:
        one = _folded_char(char)
        if one is None:
            return None
        folded |= one
    return frozenset(folded) if len(folded) <= 10 else None


def _group_body(inner: str) -> str | None:
    """What a group matches, or None for lookarounds, comments and conditionals."""
    if not inner.startswith("?"):
        return inner
    if inner.startswith("?:"):
        return inner[2:]
    if inner.startswith("?P<") and not inner.startswith("?P<="):
        return inner.split(">", 1)[1]
    if re.match(r"\?[-aiLmsux]+\)", inner + ")") and ":" not in inner:
        raise _Unknown  # global inline flags: the whole pattern reads otherwise
    return None  # lookarounds, back-references, comments, scoped flags: nothing


def _quantifier(branch: str, i: int) -> tuple[int, int | None]:
    """The least and most counts of the quantifier at `i` (None: no bound)."""
    char = branch[i]
    if char == "{":
        match = _QUANTIFIER.match(branch, i)
        if not match:
            raise _Unknown  # a literal `{`: not read here
        low = int(match.group(1) or 0)
        if match.group(2) is None and "," not in match.group(0):
            return low, low
        return low, int(match.group(2)) if match.group(2) else None
    return (0 if char in "?*" else 1), (1 if char == "?" else None)


def _quantifier_end(branch: str, i: int) -> int:
    match = _QUANTIFIER.match(branch, i) if branch[i] == "{" else None
    end = match.end() if match else i + 1
    if end < len(branch) and branch[end] in "?+":
        end += 1  # lazy or possessive
    return end


def group_end(pattern: str, start: int) -> int:
    """Index of the `)` closing the group opened at `start`, or -1."""
    depth, i = 0, start
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            i += 2
            continue
        if char == "[":
            i = class_end(pattern, i)
            if i < 0:
                return -1
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def class_end(pattern: str, start: int) -> int:
    """Index of the `]` closing the class opened at `start`, or -1."""
    i = start + 1
    if i < len(pattern) and pattern[i] == "^":
        i += 1
    if i < len(pattern) and pattern[i] == "]":
        i += 1
    while i < len(pattern):
        if pattern[i] == "\\":
            i += 2
            continue
        if pattern[i] == "]":
            return i
        i += 1
    return -1
