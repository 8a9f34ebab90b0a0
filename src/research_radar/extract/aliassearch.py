"""The literal aliases of one catalogue field, and how a text is searched for them.

Pure. A building block of `catalogue.Catalog`. A name stands between boundaries
(`name_source`); an alias's regex lets spaces and hyphens match a space, a hyphen or
nothing (`alias_regex`). `FieldIndex` holds one field's aliases and pattern entries with
their needles; it searches only the aliases that could match a text, each alone
(`first_of` merges their matches as their alternation would give them).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property, partial
from typing import Generic, Protocol, TypeVar

from research_radar.extract.prefilter import NeedleIndex, Needles, Probe
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
    none). Every pattern carries its `prefilter.Needles`. A text without one of an alias's
    needles cannot match that alias, so `Catalog.find` runs only the aliases and patterns whose needles occur
    in the (folded) text: the same matches as running them all, found in a small
    fraction of the time (issue #19).
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

    @cached_property
    def alias_index(self) -> NeedleIndex:
        return NeedleIndex(
            Needles(tuple(frozenset({n}) for n in needles)) for needles in self.alias_needles
        )

    @cached_property
    def pattern_index(self) -> NeedleIndex:
        return NeedleIndex(self.pattern_needles)

    def literal_matches(self, probe: Probe, alive: list[int]) -> Iterator[re.Match[str]]:
        """`literal.finditer` over the probe's text, run with only the aliases that
        could match there (`alive`, from `alias_index`), each searched alone
        (`first_of`): no regex of a set of them is compiled (issue #19)."""
        if not alive:
            return iter(())
        return first_of([self.search(n, probe.text, probe.folded) for n in alive])

    def search(self, n: int, text: str, folded: str) -> Callable[[int], re.Match[str] | None]:
        """`regex.search(text, pos)` of alias `n` alone, as `literal` reads it.

        Where the alias has an anchor, the search tries only where the folded text holds
        it, and there matches the alias's body between the name boundaries: the body has
        at most one match at a place (its optional separators stand between parts that
        neither start nor end with one), so this is the whole regex's match there, and
        its regex compiles in a tenth of the time (issue #19)."""
        anchor = self.anchors[n] if len(folded) == len(text) else None
        if anchor is None:
            return partial(self._alias(n).search, text)
        body = self.bodies.get(n)
        if body is None:
            body = self.bodies[n] = re.compile(alias_regex(self.aliases[n]), re.I)

        def search(pos: int) -> re.Match[str] | None:
            at = folded.find(anchor, pos)
            while at >= 0:
                if (
                    _LEFT_AT.match(text, at)
                    and (found := body.match(text, at))
                    and _RIGHT_AT.match(text, found.end())
                ):
                    return found
                at = folded.find(anchor, at + 1)
            return None

        return search

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
