"""Where a match of a regular expression can start, read from its parsed form (issue #19).

Pure. `start_strings` gives the strings (folded as `prefilter.fold` folds a text) one of
which every match of a pattern begins with, or None when the reader cannot tell. A
pattern is then tried only where the folded text holds one of them (`anchored_matches`):
the matches `finditer` gives, without trying the pattern at every place of the text. The
reader is conservative: syntax it does not follow gives None, never a wrong string.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable
from typing import Any

from research_radar.extract.prefilter import folded_spellings
from research_radar.regexcache import remembered

__all__ = ["anchored_matches", "first_anchored", "start_strings"]


_NEEDED: tuple[str, ...] = ("ASSERT", "ASSERT_NOT", "AT", "BRANCH", "IN", "LITERAL")
_NEEDED += ("MAX_REPEAT", "MIN_REPEAT", "RANGE", "SUBPATTERN")
"""The names of `re._constants` the reader reads."""


def _private_modules() -> tuple[Any, Any] | None:
    """`re._parser` and `re._constants` (Python 3.11+), or None on a Python that lacks
    them or names their parts otherwise: they are private, so there no pattern's starts
    are read and every pattern runs whole (slower, the same matches)."""
    try:
        parser = importlib.import_module("re._parser")
        ops = importlib.import_module("re._constants")
    except ImportError:
        return None
    if not callable(getattr(parser, "parse", None)) or not all(hasattr(ops, n) for n in _NEEDED):
        return None
    return parser, ops


_MODULES = _private_modules()
_PARSER: Any = _MODULES[0] if _MODULES else None
_OPS: Any = _MODULES[1] if _MODULES else None
_ZERO_WIDTH = frozenset(
    getattr(_OPS, n) for n in ("ASSERT", "ASSERT_NOT", "AT") if hasattr(_OPS, n)
)
_REPEATS = frozenset(
    # (possessive repeats are new in 3.11)
    getattr(_OPS, n)
    for n in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT")
    if hasattr(_OPS, n)
)
_MAX_STARTS = 16
"""More starts than this: the pattern is run whole (each start costs a look-up)..."""
_MAX_LONG_STARTS = 64
"""... unless each start is `_LONG` characters or more: a look-up of a long string in a
statement costs far less than a pattern with a look-behind tried at every place of it,
and a long string stands in few places (`Speech models`, 30 names; issue #19)."""
_LONG = 3


class _Unknown(Exception):
    """The pattern uses syntax the reader does not follow."""


def start_strings(pattern: str, flags: int = 0) -> frozenset[str] | None:
    """Strings one of which every match of the pattern starts with (ASCII, lower case),
    or None when the reader cannot tell (or this Python has no parser it can read).

    Read once per pattern and kept by the `radar` command between runs (`remembered`)."""
    if _PARSER is None:
        return None
    return remembered(
        __name__, "start_strings", (pattern, int(flags)), lambda: _start_strings(pattern, flags)
    )


def _start_strings(pattern: str, flags: int) -> frozenset[str] | None:
    try:
        parsed = _PARSER.parse(pattern, flags)
        starts = _starts(list(parsed.data))
    except (_Unknown, re.error, RecursionError, AttributeError, TypeError, ValueError):
        # (the last three: a parsed form shaped otherwise than 3.11's)
        return None
    if len(starts) <= _MAX_STARTS:
        return frozenset(starts)
    if len(starts) <= _MAX_LONG_STARTS and min(map(len, starts)) >= _LONG:
        return frozenset(starts)
    return None


def _starts(items: list[Any]) -> set[str]:
    """The starts of a sequence of parsed items (followed by nothing)."""
    if not items:
        raise _Unknown  # the sequence may match empty: any place could start a match
    op, av = items[0]
    rest = items[1:]
    if op in _ZERO_WIDTH:
        return _starts(rest)  # an assertion consumes nothing: the match starts after it
    if op is _OPS.LITERAL and not _folds_to_itself(chr(av).lower()):
        # `π`: every character it matches, as the folded text holds it (`Π`, `ϖ`)
        spellings = folded_spellings(chr(av))
        if spellings is None:
            raise _Unknown
        return _longer(set(spellings), rest)
    if op is _OPS.LITERAL:
        run = _literal_run(items)
        return _longer({run}, items[len(run) :])
    if op is _OPS.IN:
        return _longer(_class_chars(av), rest)
    if op is _OPS.SUBPATTERN:
        return _starts([*av[3].data, *rest])
    if op is _OPS.BRANCH:
        found: set[str] = set()
        for branch in av[1]:
            found |= _starts([*branch.data, *rest])
        return found
    if op in _REPEATS:
        low, high, sub = av
        if high == 0:
            return _starts(rest)
        # a repeat that may match twice is followed by itself or by the rest (`[ab]+x`
        # matches `bax`): only its own starts are sure, not those of what follows once
        once = _starts([*sub.data, *rest]) if high == 1 else _starts(list(sub.data))
        return once if low > 0 else once | _starts(rest)
    raise _Unknown


def _longer(starts: set[str], rest: list[Any]) -> set[str]:
    """The starts, each followed by the starts of what follows them when the reader can
    tell (`S(?:table|VD)`, as `re` factors `Stable|SVD`, starts with `stable` or `svd`)."""
    if not rest:
        return starts
    try:
        after = _starts(rest)
    except _Unknown:
        return starts
    if len(starts) * len(after) > _MAX_STARTS:
        return starts
    return {start + more for start in starts for more in after}


def _literal_run(items: list[Any]) -> str:
    """The literal characters the items start with, as the folded text holds them."""
    run = ""
    for op, av in items:
        if op is not _OPS.LITERAL or not _folds_to_itself(chr(av).lower()):
            break
        run += chr(av).lower()
    if not run:
        raise _Unknown
    return run


def _class_chars(items: Iterable[tuple[Any, Any]]) -> set[str]:
    """The characters a small class of ASCII characters matches, in lower case."""
    chars: set[str] = set()
    for op, av in items:
        if op is _OPS.LITERAL:
            chars.add(chr(av).lower())
        elif op is _OPS.RANGE and av[1] - av[0] < _MAX_STARTS:
            chars.update(chr(code).lower() for code in range(av[0], av[1] + 1))
        else:
            raise _Unknown  # a negated class, a category (`\d`), a wide range
    if not all(_folds_to_itself(char) for char in chars):
        raise _Unknown
    return chars


def _folds_to_itself(char: str) -> bool:
    """An ASCII character: under re.IGNORECASE it matches exactly the characters that
    `prefilter.fold` turns into it (tests/test_catalogue_matcher.py checks the table)."""
    return char.isascii() and char == char.lower()


def anchored_matches(
    regex: re.Pattern[str], text: str, folded: str, starts: frozenset[str]
) -> list[re.Match[str]]:
    """`regex.finditer(text)`, trying the regex only where the folded text holds one of
    its `starts` (`folded` has the text's length: its places are the text's)."""
    found: list[re.Match[str]] = []
    end = 0
    for at in sorted(_places(folded, starts)):
        if at < end:
            continue
        match = regex.match(text, at)
        if match is None:
            continue
        if match.end() == at:
            return list(regex.finditer(text))  # never expected: an empty match
        found.append(match)
        end = match.end()
    return found


def first_anchored(
    regex: re.Pattern[str], text: str, folded: str, starts: frozenset[str]
) -> re.Match[str] | None:
    """`regex.search(text)`, trying the regex only where the folded text holds one of its
    `starts` (`folded` has the text's length)."""
    for at in sorted(_places(folded, starts)):
        match = regex.match(text, at)
        if match is not None:
            return match
    return None


def _places(folded: str, starts: frozenset[str]) -> set[int]:
    """Where the folded text holds a start (a loop, not a generator per start: a pattern
    is tried in most statements that hold its needles; issue #19)."""
    places: set[int] = set()
    for start in starts:
        at = folded.find(start)
        while at >= 0:
            places.add(at)
            at = folded.find(start, at + 1)
    return places
