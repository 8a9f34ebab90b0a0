"""A set of spans of one text that answers whether a span overlaps any of them (issue #19).

Pure. A building block of the extract modules: a rule that takes the numbers of a
statement one by one asks, for each, whether an earlier number or a name holds its place.
Asking every span held was quadratic in a statement of thousands of numbers; `SpanSet`
looks only at the spans that start close enough before the asked one to reach it.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

__all__ = ["SpanSet"]


class SpanSet:
    """Spans `(start, end)`, kept sorted by start."""

    __slots__ = ("_longest", "_spans", "_starts")

    def __init__(self, spans: list[tuple[int, int]] | None = None) -> None:
        self._starts: list[int] = []
        self._spans: list[tuple[int, int]] = []
        self._longest = 0
        """The greatest `end - start` held: no span starting further before a place
        reaches it."""
        for span in spans or ():
            self.add(span)

    def add(self, span: tuple[int, int]) -> None:
        at = bisect_right(self._starts, span[0])
        self._starts.insert(at, span[0])
        self._spans.insert(at, span)
        self._longest = max(self._longest, span[1] - span[0])

    def overlaps(self, span: tuple[int, int]) -> bool:
        """True when a span held overlaps `span` (`start < end'` and `end > start'`): the
        spans that could start after `start - longest` and before `end`, each asked."""
        start, end = span
        first = bisect_right(self._starts, start - self._longest)
        last = bisect_left(self._starts, end)
        return any(start < b and end > a for a, b in self._spans[first:last])
