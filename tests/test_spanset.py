"""Overlap queries on a set of spans: the answers of asking every span held."""

from __future__ import annotations

import random

import pytest

from research_radar.extract import spanset
from research_radar.extract.spanset import SpanSet


def test_exported_members() -> None:
    assert set(spanset.__all__) == {"SpanSet"}


def _overlaps_any(held: list[tuple[int, int]], span: tuple[int, int]) -> bool:
    return not all(span[1] <= a or span[0] >= b for a, b in held)


@pytest.mark.parametrize("seed", [pytest.param(n, id=f"seed-{n}") for n in range(5)])
def test_overlaps_is_asking_every_span(seed: int) -> None:
    """Spans of every length (empty ones and one long one among many short ones), added
    between questions, as a rule adds the numbers it takes."""
    rng = random.Random(seed)
    spans, held, answers = SpanSet(), [], []
    for _ in range(600):
        start = rng.randrange(300)
        length = rng.choice([0, 1, 2, 3, 5, 8, rng.randrange(120)])
        span = (start, start + length)
        expected = _overlaps_any(held, span)
        assert spans.overlaps(span) == expected, (span, held)
        answers.append(expected)
        if rng.random() < 0.3:
            spans.add(span)
            held.append(span)
    assert any(answers) and not all(answers)


def test_built_from_spans() -> None:
    spans = SpanSet([(10, 14), (0, 3)])
    assert spans.overlaps((2, 5))
    assert spans.overlaps((13, 40))
    assert not spans.overlaps((3, 10))
    assert not spans.overlaps((14, 14))
    assert spans.overlaps((11, 11))  # an empty span inside a held one: as `all(...)` reads it
