"""What every match of a catalogue name contains, and the folded text it is looked in.

Pure. The catalogue matcher (`catalogue.Catalog`) runs an alias only where its needles
(`alias_needles`) occur in the folded text (`prefilter.fold`), and a pattern only where
its needles (`pattern_needles`) do. `pattern_needle` reads a pattern's source for the
longest literal run each of its matches holds.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from research_radar.extract.prefilter import Needles
from research_radar.extract.regexneedles import class_end, group_end, needles_of
from research_radar.extract.regexstarts import start_strings

__all__ = ["alias_needles", "pattern_needle", "pattern_needles"]

_ALNUM_RUN = re.compile(r"[a-z0-9]+")


_UNCASED_RUN = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff01-\uff20]+")
"""CJK characters and punctuation: without case, each matches only itself."""


def _longest(runs: Iterable[str]) -> str | None:
    return max(runs, key=len, default=None)


def alias_needles(alias: str) -> tuple[str, ...]:
    """Every run of ASCII letters and digits in an alias (its parts are literal, so each
    match holds them all) and every run of characters without case, the longest first.

    All of them, not only the longest: `Pi 5` is then not searched for in a statement that
    says `pipeline` and no `5`, nor `int-8` where `int4` is written, nor `骁龙 8 至尊版` in
    every statement with an `8` (issue #19)."""
    parts = re.split(r"[\s\-]+", alias.strip())
    runs = [
        run for part in parts for run in _ALNUM_RUN.findall(part.lower() if part.isascii() else "")
    ]
    if not alias.isascii():
        runs += [run for part in parts for run in _UNCASED_RUN.findall(part)]
    return tuple(dict.fromkeys(sorted(runs, key=len, reverse=True)))


def pattern_needles(source: str) -> Needles:
    """What every match of a catalogue pattern (case-insensitive) holds: its needles
    (`regexneedles.needles_of`) and one of the strings it starts with
    (`regexstarts.start_strings`). The last clause keeps from the texts it is run on
    those that hold its needles but none of its starts: `diffusion` without `svd` or
    `stable` for SVD-XT, `speech` without a speech model's name (issue #19)."""
    needles = needles_of(source, re.I)
    starts = start_strings(source, re.I | re.U)
    if not starts or starts in needles.clauses:
        return needles
    return Needles((*needles.clauses, starts), needles.digit)


def pattern_needle(pattern: str) -> str | None:
    """The longest run of ASCII letters and digits every match of a pattern contains.

    A conservative reading of the regex source: literal characters at the top level, or
    inside groups that are neither optional, repeated nor lookarounds, and hold no
    alternation. Anything it does not understand gives None (always run the pattern).
    """
    runs = _required_runs(pattern)
    return _longest(runs) if runs is not None else None


_QUANTIFIERS = "?*+{"


def _required_runs(pattern: str) -> list[str] | None:
    """Runs of ASCII letters and digits each match contains; None if not understood."""
    runs: list[str] = []
    current = ""
    i = 0
    while i < len(pattern):
        char = pattern[i]
        after = pattern[i + 1] if i + 1 < len(pattern) else ""
        if char == "|":
            return None
        if char == "\\":
            if not after or after.isalnum() and after not in "dDsSwWbB":
                return None  # \x41, \N{...}, back-references: not read here
            runs.append(current)
            current = ""
            i += 2
            continue
        if char == "[" or char == "(":
            end = class_end(pattern, i) if char == "[" else group_end(pattern, i)
            if end < 0:
                return None
            runs.append(current)
            current = ""
            quantified = end + 1 < len(pattern) and pattern[end + 1] in _QUANTIFIERS
            if char == "(" and not quantified:
                inner = pattern[i + 1 : end]
                if inner.startswith("?"):
                    if inner.startswith(("?:", "?P<")) and not inner.startswith("?P<="):
                        inner = inner[2:] if inner.startswith("?:") else inner.split(">", 1)[1]
                    elif re.match(r"\?[-aiLmsux]", inner):
                        return None  # inline flags (verbose mode...): not read here
                    else:
                        inner = ""  # lookarounds, back-references, comments: nothing
                found = _required_runs(inner)
                if found is not None:
                    runs.extend(found)
            i = end + 1
            continue
        if char in _QUANTIFIERS:
            # the character before is optional or repeated: it ends the run, unread
            current = current[:-1] if char in "?*{" else current
            runs.append(current)
            current = ""
            if char == "{":
                close = pattern.find("}", i)
                i = close + 1 if close > 0 else i + 1
            else:
                i += 1
            continue
        if char.isascii() and char.isalnum():
            if after and after in "?*{":
                runs.append(current)
                current = ""
            else:
                current += char.lower()
        else:
            runs.append(current)
            current = ""
        i += 1
    runs.append(current)
    return [run for run in runs if run]
