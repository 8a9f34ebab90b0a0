"""What every match of a regular expression contains, read from its source (issue #19).

Pure. `needles_of` reads a pattern and finds the literal strings every match holds (one
of each clause) and whether it holds a digit: the `prefilter.Needles` that let a rule
skip a text that cannot match. A conservative reader: syntax it does not follow gives
fewer needles (or none), never wrong ones. `group_end` and `class_end` find where a
group or a character class of a pattern closes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from research_radar.extract.prefilter import Needles, folded_spellings
from research_radar.regexcache import remembered

__all__ = ["branches_of", "class_end", "group_end", "needles_of"]

_QUANTIFIER = re.compile(r"\{(\d*)(?:,(\d*))?\}")
_CLASS_ESCAPES = "dDsSwWbBAZ"
_MAX_CLAUSES = 3


@dataclass(frozen=True)
class _Info:
    clauses: tuple[frozenset[str], ...]
    digit: bool


class _Unknown(Exception):
    """The pattern uses syntax the reader does not follow: no needles."""


def needles_of(pattern: str, flags: int = 0) -> Needles:
    """The needles of a pattern (none when it uses syntax the reader does not follow).

    Read once per pattern and kept by the `radar` command between runs (`remembered`):
    the reading was a tenth of the CPU of `radar daily --sample` (#19)."""
    if flags & re.VERBOSE:
        return Needles()
    clauses, digit = remembered(__name__, "needles_of", pattern, lambda: _needles(pattern))
    return Needles(clauses, digit)


def _needles(pattern: str) -> tuple[tuple[frozenset[str], ...], bool]:
    """`needles_of` a pattern without re.VERBOSE: its clauses and whether it has a digit."""
    try:
        info = _alternation(pattern)
    except _Unknown:
        return (), False
    ranked = sorted(info.clauses, key=_score, reverse=True)
    chosen = [clause for clause in ranked if _score(clause) > 0][:_MAX_CLAUSES]
    return tuple(chosen), info.digit


def branches_of(pattern: str) -> list[str]:
    """The top-level alternatives of a pattern (`a|b(c|d)` -> `a`, `b(c|d)`); the pattern
    whole when it has none or uses syntax the reader does not follow."""
    try:
        return _split_branches(pattern)
    except _Unknown:
        return [pattern]


def _score(clause: frozenset[str]) -> float:
    """How rare a clause is in text: its weakest string's letters (a CJK one counts 2)."""

    def weight(text: str) -> float:
        return sum(
            1.0 if c.isascii() and c.isalnum() else 0.3 if c.isascii() else 2.0 for c in text
        )

    return min(weight(s) for s in clause)


@lru_cache(maxsize=4096)
def _alternation(pattern: str) -> _Info:
    """The needles of a pattern or group body (read once: every catalogue pattern stands
    in the same name boundaries, `aliassearch.name_source`, half of its reading, #19)."""
    branches = _split_branches(pattern)
    infos = [_sequence(branch) for branch in branches]
    if len(infos) == 1:
        return infos[0]
    digit = all(info.digit for info in infos)
    best = [max(info.clauses, key=_score, default=None) for info in infos]
    if any(clause is None for clause in best):
        return _Info((), digit)
    return _Info((frozenset(s for clause in best if clause for s in clause),), digit)


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
            elif inner is None and times != _OPTIONAL:
                info = _asserted(branch[i + 1 : end - 1])
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
    return _Info(tuple(clauses), digit)


@lru_cache(maxsize=4096)
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
    """A literal character as the probe folds it: a cased non-ASCII one as every
    character it matches folds (`π` also matches `Π` and `ϖ`: `prefilter.folded_spellings`),
    else None."""
    if char.isascii():
        return frozenset({char.lower()})
    if char.lower() == char == char.upper():
        return frozenset({char})  # no case: it matches only itself (CJK, `×`, `±`)
    return folded_spellings(char)


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


def _asserted(inner: str) -> _Info:
    """The needles of what a look-ahead or look-behind group asserts is there
    (`(?=\\s?=)`, `(?<=v)`): a match stands where it holds, so they are in the text too
    (`in` before an `=`, the `context` a look-ahead asks after `1M`; issue #19). None of
    a negative one, a comment or a back-reference, nor of syntax the reader does not
    follow inside it (the rest of the pattern is still read)."""
    for opening in ("?=", "?<="):
        if inner.startswith(opening):
            try:
                return _alternation(inner[len(opening) :])
            except _Unknown:
                break
    return _Info((), False)


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
