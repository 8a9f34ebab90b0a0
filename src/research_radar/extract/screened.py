"""Regular expressions run only where their needles are in the text (issue #19).

Pure. `Rule` pairs a compiled pattern with its needles; `search` and `finditer` do the
same for any compiled pattern (its needles read once), and `match` for one anchored at the
start. Each gives exactly what the plain `re` call gives, skipping texts the needles rule
out.

`finditer` also screens each top-level alternative of a pattern on its own (`vs|faster
... than|相比`): the alternatives whose needles are in the text find where the next match
starts, and the pattern itself is matched there, so a long alternative that cannot match
is never tried at every position of the text (the comparison cues of a statement cost
half as much).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property

from research_radar.extract.prefilter import NeedleIndex, Needles, Probe
from research_radar.extract.regexneedles import branches_of, group_end, needles_of
from research_radar.extract.regexstarts import anchored_matches, first_anchored, start_strings

__all__ = ["Family", "Rule", "alive_finditer", "finditer", "match", "search"]


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
        return self.regex.finditer(probe.text) if self.needles.could_match(probe) else _NOTHING


def search(regex: re.Pattern[str], probe: Probe) -> re.Match[str] | None:
    """`regex.search(probe.text)`, skipped when the regex's needles are not in the text,
    and tried only where a match can start when the pattern says where (`_Plan.starts`)."""
    plan = _plan(regex)
    if not plan.needles.could_match(probe):
        return None
    starts = plan.starts_in(probe)
    if starts is not None:
        return first_anchored(regex, probe.text, probe.folded, starts)
    return regex.search(probe.text)


def match(regex: re.Pattern[str], probe: Probe) -> re.Match[str] | None:
    """`regex.match(probe.text)`, skipped when the regex's needles are not in the text (a
    match at the start is a match: it holds them too)."""
    return regex.match(probe.text) if _plan(regex).needles.could_match(probe) else None


def finditer(regex: re.Pattern[str], probe: Probe) -> Iterator[re.Match[str]]:
    """`regex.finditer(probe.text)`, skipped when the regex's needles are not in the text.

    Not a generator: most calls are screened out, and setting up a generator's frame for
    them cost as much as the test itself (issue #19)."""
    plan = _plan(regex)
    if not plan.needles.could_match(probe):
        return _NOTHING
    return _planned_finditer(regex, plan, probe)


def alive_finditer(regex: re.Pattern[str], probe: Probe) -> Iterator[re.Match[str]]:
    """`finditer` of a pattern the caller already found alive in the text (its needles are
    there: `NeedleIndex.known`), without testing them again (issue #19)."""
    return _planned_finditer(regex, _plan(regex), probe)


def _planned_finditer(regex: re.Pattern[str], plan: _Plan, probe: Probe) -> Iterator[re.Match[str]]:
    """`regex.finditer(probe.text)` as the plan runs it: where its matches can start, or
    by the alternatives whose needles are in the text."""
    starts = plan.starts_in(probe)
    if starts is not None:
        return iter(anchored_matches(regex, probe.text, probe.folded, starts))
    alive = plan.branch_index.known(probe)
    if len(alive) == len(plan.branches):
        return regex.finditer(probe.text)  # (no alternative to leave out)
    return _branch_finditer(regex, [plan.branches[n][0] for n in alive], probe.text)


class Family:
    """The patterns one rule family runs on a statement: which of them could match it,
    in ONE look-up (`NeedleIndex.known`) instead of a needle test per pattern, so that a
    statement runs only the families that can fire there (issue #19).

    `alive(probe)` holds pattern `n` exactly when `search(patterns[n], probe)` would run
    the pattern (its needles are in the text): a family none of whose patterns is alive
    finds nothing, and a caller that skips it gives what running it gives."""

    def __init__(self, patterns: Sequence[re.Pattern[str]]) -> None:
        self.patterns = tuple(patterns)

    @cached_property
    def _index(self) -> NeedleIndex:
        """Built on first use: the needles of a family nobody runs are never read (the
        needles `search` and `finditer` read too; not their plans, which are made only
        for the patterns that run)."""
        return NeedleIndex(needles_of(regex.pattern, regex.flags) for regex in self.patterns)

    def alive(self, probe: Probe) -> tuple[int, ...]:
        """The numbers, in order, of the patterns whose needles are in the probe's text."""
        return self._index.known(probe)


_NOTHING: Iterator[re.Match[str]] = iter(())
"""An iterator that is always exhausted."""


def _branch_finditer(
    regex: re.Pattern[str], alive: list[re.Pattern[str]], text: str
) -> Iterator[re.Match[str]]:
    """`regex.finditer(text)` where only the `alive` alternatives can match: the next match
    starts where the first of theirs does (the pattern tries its alternatives in order
    there, as `re` would)."""
    nexts = [(m.start(), rx) for rx in alive if (m := rx.search(text))]
    position, count = 0, 0
    while nexts:
        start = min(at for at, _ in nexts)
        found = regex.match(text, start)
        if found is None or found.end() == found.start():
            # never expected (an alternative matched there); an empty match: `re`'s own
            # rules for what follows it apply, so read on from `re` itself
            yield from [m for n, m in enumerate(regex.finditer(text)) if n >= count]
            return
        yield found
        count += 1
        position = found.end()
        # an alternative's next start at or after `position` is the one found before,
        # unless that one lies before it: search again from there
        moved = []
        for at, rx in nexts:
            if at < position:
                again = rx.search(text, position)
                if again is None:
                    continue
                at = again.start()
            moved.append((at, rx))
        nexts = moved


@dataclass(frozen=True)
class _Plan:
    needles: Needles
    branches: tuple[tuple[re.Pattern[str], Needles], ...] = ()
    """The top-level alternatives compiled alone, with their needles; empty when the
    pattern has one, or ones that cannot be read alone (a back-reference)."""
    starts: frozenset[str] | None = None
    """For a pattern not split into alternatives: the strings one of which every match
    starts with (`regexstarts.start_strings`), or None; the pattern is then tried only
    where the folded text holds one of them, not at every place of the text (a load rule
    that opens with look-behinds, `(?<![Mm]ax)...(?<![A-Za-z])bs`, was tried at each of
    them; issue #19)."""

    def starts_in(self, probe: Probe) -> frozenset[str] | None:
        """`starts`, where they tell the places of `probe`'s text: None without them, or
        when folding changed the text's length (a place in the folded text is then not
        the text's)."""
        if self.starts is None or len(probe.folded) != len(probe.text):
            return None
        return self.starts

    @cached_property
    def branch_index(self) -> NeedleIndex:
        """Which alternatives could match a statement, in one look-up: a cue of 19
        alternatives was tested one by one in every statement (issue #19)."""
        return NeedleIndex(needles for _rx, needles in self.branches)


def _plan(regex: re.Pattern[str]) -> _Plan:
    """The plan of a pattern, made on its first use. Kept by the pattern's id: hashing a
    compiled pattern hashes its whole program, every time (issue #19)."""
    known = _PLANS.get(id(regex))
    if known is None or known[0] is not regex:
        known = _PLANS[id(regex)] = (regex, _made_plan(regex))
    return known[1]


_PLANS: dict[int, tuple[re.Pattern[str], _Plan]] = {}
"""The plans made, by the id of their pattern (kept alive here, so the id stays its)."""


def _made_plan(regex: re.Pattern[str]) -> _Plan:
    """The pattern's alternatives are screened one by one where it has them (their needles
    tell more than the strings they start with); a pattern without them is tried where
    its matches can start."""
    needles = needles_of(regex.pattern, regex.flags)
    branches = _branches(regex)
    if branches:
        return _Plan(needles, branches)
    return _Plan(needles, starts=start_strings(regex.pattern, regex.flags))


def _branches(regex: re.Pattern[str]) -> tuple[tuple[re.Pattern[str], Needles], ...]:
    """The top-level alternatives compiled alone with their needles, else those of the
    leading group (`_spread_branches`); none when the pattern cannot be split so."""
    if regex.flags & re.VERBOSE or _REFERS.search(regex.pattern):
        return ()
    parts = branches_of(regex.pattern)
    if len(parts) < 2:
        return _spread_branches(regex)
    try:
        branches = [re.compile(part, regex.flags) for part in parts]
    except re.error:
        return ()
    if sum(rx.groups for rx in branches) != regex.groups:
        return ()  # not split where the pattern splits: run it whole
    return tuple((rx, needles_of(rx.pattern, rx.flags)) for rx in branches)


def _spread_branches(regex: re.Pattern[str]) -> tuple[tuple[re.Pattern[str], Needles], ...]:
    """`(?:a|b)rest` read as `(?:a)rest|(?:b)rest`: each alternative of a leading group with
    what follows it, when the group holds no capturing group and takes no quantifier; none
    otherwise. A match of the pattern at a place is a match of one of them there, and each
    has its own needles (`input len|prompt len|...` then `= 2048`: the alternatives whose
    words are in the text find where a match can start; issue #19)."""
    pattern = regex.pattern
    if not pattern.startswith("(?:"):
        return ()
    end = group_end(pattern, 0)
    rest = pattern[end + 1 :]
    if end < 0 or rest[:1] in ("?", "*", "+", "{"):
        return ()
    parts = branches_of(pattern[3:end])
    if len(parts) < 2:
        return ()
    try:
        branches = [re.compile(f"(?:{part}){rest}", regex.flags) for part in parts]
    except re.error:
        return ()
    if any(rx.groups != regex.groups for rx in branches):
        return ()  # a group in an alternative: its numbers are the whole pattern's
    return tuple((rx, needles_of(rx.pattern, rx.flags)) for rx in branches)


_REFERS = re.compile(r"(?<!\\)(?:\\\\)*(?:\\[1-9]|\(\?P=|\(\?\()")
"""A back-reference or a conditional: its group numbers are the whole pattern's. Not an
escaped parenthesis before an optional group (`\\(?(?:...)`, a cue's `(` written or not):
read as a conditional, it kept a long alternation from being screened by alternative."""
