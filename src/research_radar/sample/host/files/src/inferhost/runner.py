"""The benchmark runner: interleaved ABBA pairs of a baseline and a candidate."""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass

Measure = Callable[[str], float]
"""Runs one trace with the named engine config and returns seconds of wall time."""


@dataclass(frozen=True)
class PairResult:
    baseline: list[float]
    candidate: list[float]

    def speedup(self) -> float:
        """Median baseline time over median candidate time."""
        return statistics.median(self.baseline) / statistics.median(self.candidate)


def run_abba(measure: Measure, baseline: str, candidate: str, pairs: int = 5) -> PairResult:
    """Run A-B-B-A interleaved pairs after one discarded warm-up of each side."""
    measure(baseline)
    measure(candidate)
    base: list[float] = []
    cand: list[float] = []
    for index in range(pairs):
        order = (baseline, candidate) if index % 2 == 0 else (candidate, baseline)
        for config in order:
            (base if config == baseline else cand).append(measure(config))
    return PairResult(base, cand)
