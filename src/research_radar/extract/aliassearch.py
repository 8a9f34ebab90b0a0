"""The literal aliases of one catalogue field, and how a text is searched for them.

Pure. A building block of `catalogue.Catalog`. A name stands between boundaries
(`name_source`); an alias's regex lets spaces and hyphens match a space, a hyphen or
nothing (`alias_regex`). `FieldIndex` holds one field's aliases and pattern entries with
their needles; one scan of a text (`namescan`) tells where its aliases could start and
which of its patterns could match, and only those are tried, each alone, merged as their
alternation would give them (`first_of` where the places of the text are not the folded
text's).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property, partial
from typing import Generic, Protocol, TypeVar

from research_radar.extract.namescan import FieldKeys, Scanned
from research_radar.extract.prefilter import Needles, Probe
from research_radar.extract.regexstarts import anchored_matches, start_strings

__all__ = [
    "FieldIndex",
    "alias_anchor",
    "alias_regex",
    "first_of",
    "literal_regex",
    "name_source",
    "norm_alias",
]

_LEFT = r"(?:(?<![A-Za-z0-9_])|(?<=\d[xX×]))"
_RIGHT = (
    r"(?:(?![A-Za-z0-9_])|(?<!(?-i:\dm))(?=(?-i:s)(?![A-Za-z0-9_]))|(?=[xX]\d{1,3}\s?GB)|"
    r"(?=[x×]\d{1,2}(?![\w.])))"
)
"""A name ends at a word boundary, before a plural `s` (`8 H100s`) unless a digit and a
lower-case `m` end it (`890ms` is a duration, not Radeon 890Ms), before a memory size glued
with x (`A100x80GB`), or before a count glued with x (`L20x1`, `H100x8`)."""


class _Pattern(Protocol):
    """What the index reads of a pattern entry (`catalogue.Entry`)."""

    @property
    def regex(self) -> re.Pattern[str]: ...


_PatternT = TypeVar("_PatternT", bound=_Pattern)


@dataclass(frozen=True)
class FieldIndex(Generic[_PatternT]):
    """All literal aliases of one field, plus its pattern entries, with their needles.

    Every alias carries needles: the runs of ASCII letters and digits (lower case), else a
    run of characters without case (`赤兔`), that each of its matches contains (perhaps
    none), and most an anchor (`alias_anchor`). Every pattern carries its
    `prefilter.Needles`. A match of an alias starts where its anchor is, and a text
    without one of its needles (or a pattern's) cannot match it, so `Catalog.find` tries
    only those the scan of the (folded) text leaves: the same matches as running them
    all, found in a small fraction of the time (issue #19).
    """

    lookup: dict[str, tuple[int, str]]
    patterns: tuple[tuple[int, _PatternT], ...]
    aliases: tuple[str, ...] = ()
    """The alternatives of `literal`, in its order."""
    alias_needles: tuple[tuple[str, ...], ...] = ()
    """Per alias, its needles, the longest first (`nameneedles.alias_needles`)."""
    pattern_needles: tuple[Needles, ...] = ()
    anchors: tuple[str | None, ...] = ()
    """Per alias, what the folded text holds where a match of it starts (`alias_anchor`)."""
    alone: dict[int, re.Pattern[str]] = dataclasses.field(
        default_factory=dict, compare=False, repr=False
    )
    bodies: dict[int, re.Pattern[str]] = dataclasses.field(
        default_factory=dict, compare=False, repr=False
    )
    starts: dict[int, frozenset[str] | None] = dataclasses.field(
        default_factory=dict, compare=False, repr=False
    )

    @cached_property
    def literal(self) -> re.Pattern[str] | None:
        """Every alias in one regex (compiled on first use: a text rarely needs them all)."""
        return literal_regex(list(self.aliases)) if self.aliases else None

    @property
    def keys(self) -> FieldKeys:
        """What a scan of a text looks for of this field (`namescan`)."""
        return FieldKeys(self.anchors, self.alias_needles, self.pattern_needles)

    def matches(
        self, probe: Probe, scanned: Scanned
    ) -> tuple[list[re.Match[str]], list[tuple[int, re.Match[str]]]]:
        """`literal.finditer` over the probe's text, and each pattern's `finditer` (with
        its number), from what a scan of the text found of the field (`namescan`): an
        alias is tried only where its anchor is, a pattern and an alias without an anchor
        only where their needles are (issue #19)."""
        text, folded = probe.text, probe.folded
        if not scanned.places and not scanned.aliases:
            literals = []  # (only patterns could match: most fields of most statements)
        elif len(folded) == len(text):
            literals = self._scanned_literals(scanned, text)
        else:  # places in the folded text are not the text's: each alias searched whole
            anchored = {n for found in scanned.places.values() for n in found}
            alive = sorted({*anchored, *scanned.aliases})
            literals = list(first_of([partial(self._alias(n).search, text) for n in alive]))
        patterns = [(n, m) for n in scanned.patterns for m in self.pattern_matches(n, probe)]
        return literals, patterns

    def _scanned_literals(self, scanned: Scanned, text: str) -> list[re.Match[str]]:
        """The matches of the aliases' alternation: at each place, from the left, the
        first alias (in their order) that matches there; the next match starts after
        it. An anchored alias is tried where its anchor is; one without an anchor at
        every place it matches (its regex searched from one place on)."""
        places = {at: list(found) for at, found in scanned.places.items()}
        for n in scanned.aliases:
            regex, at = self._alias(n), 0
            while found := regex.search(text, at):
                places.setdefault(found.start(), []).append(n)
                at = found.start() + 1
        literals: list[re.Match[str]] = []
        end = 0
        for at in sorted(places):
            if at < end or not _LEFT_AT.match(text, at):
                continue  # (a name starts at a boundary: most anchors stand inside words)
            for n in sorted(set(places[at])):
                if found := self._alias_at(n, text, at):
                    literals.append(found)
                    end = found.end()
                    break
        return literals

    def _alias_at(self, n: int, text: str, at: int) -> re.Match[str] | None:
        """Alias `n`'s match at a place where a name may start, as `literal` reads it
        there. An anchored alias's body is matched alone between the name boundaries: it
        has at most one match at a place (its optional separators stand between parts
        that neither start nor end with one), so this is the whole regex's match there,
        and its regex compiles in a tenth of the time (issue #19)."""
        if self.anchors[n] is None:
            return self._alias(n).match(text, at)
        body = self.bodies.get(n)
        if body is None:
            body = self.bodies[n] = re.compile(alias_regex(self.aliases[n]), re.I)
        found = body.match(text, at)
        return found if found and _RIGHT_AT.match(text, found.end()) else None

    def pattern_matches(self, n: int, probe: Probe) -> Iterable[re.Match[str]]:
        """`finditer` of pattern `n` over the probe's text, tried only where a match of it
        can start (`regexstarts`): a pattern's regex opens with a look-behind, so `re`
        would try it at every place of the text (issue #19)."""
        regex = self.patterns[n][1].regex
        if n not in self.starts:
            self.starts[n] = start_strings(regex.pattern, regex.flags)
        starts, text, folded = self.starts[n], probe.text, probe.folded
        if starts is None or len(folded) != len(text):
            return regex.finditer(text)
        return anchored_matches(regex, text, folded, starts)

    def _alias(self, n: int) -> re.Pattern[str]:
        """Alias `n` alone, as `literal` reads it."""
        regex = self.alone.get(n)
        if regex is None:
            regex = self.alone[n] = literal_regex([self.aliases[n]])
        return regex


_LEFT_AT = re.compile(_LEFT, re.I)
_RIGHT_AT = re.compile(_RIGHT, re.I)


def alias_anchor(alias: str) -> str | None:
    """What the folded text holds where a match of the alias starts: its first part in
    lower case (a name starts after a zero-width boundary, and an ASCII character matches
    under re.IGNORECASE only what folds to it); None for a part that is not ASCII."""
    first = re.split(r"[\s\-]+", alias.strip())[0]
    return first.lower() if first and first.isascii() else None


def first_of(
    searches: list[Callable[[int], re.Match[str] | None]],
) -> Iterator[re.Match[str]]:
    """The matches of the alternation of some regexes (`a|b|c`, in that order), given
    their searches from a position: each next match starts where the first of theirs
    does, and is the first regex's that matches there, as `re` tries an alternation's
    branches. None of them matches empty."""
    nexts: dict[int, re.Match[str]] = {}
    for n, search in enumerate(searches):
        if found := search(0):
            nexts[n] = found
    while nexts:
        start = min(found.start() for found in nexts.values())
        first = min(n for n, found in nexts.items() if found.start() == start)
        match = nexts[first]
        yield match
        end = match.end()
        for n, found in list(nexts.items()):
            if found.start() < end:  # overlapped: its next match starts from `end`
                if again := searches[n](end):
                    nexts[n] = again
                else:
                    del nexts[n]


def norm_alias(alias: str) -> str:
    """An alias as the look-up table keys it: no spaces or hyphens, lower case."""
    return _SEPARATORS.sub("", alias).lower()


_SEPARATORS = re.compile(r"[\s\-]+")


def name_source(body: str) -> str:
    """The regex source of a name: `body` between the boundaries a name stands in."""
    return f"{_LEFT}(?:{body}){_RIGHT}"


def literal_regex(aliases: list[str]) -> re.Pattern[str]:
    """The aliases' alternation between the name boundaries, case-insensitive."""
    body = "|".join(alias_regex(a) for a in aliases)
    return re.compile(name_source(body), re.I)


def alias_regex(alias: str) -> str:
    """A literal alias where spaces and hyphens match a space, hyphen or nothing."""
    parts = re.split(r"[\s\-]+", alias.strip())
    return r"[\s\-]?".join(re.escape(part) for part in parts)
