"""Quality gate: a candidate's outputs must pass before its speed counts."""

from __future__ import annotations

from enum import Enum


class Verdict(Enum):
    PASS = "pass"
    FAIL = "fail"
    INCONCLUSIVE = "inconclusive"


def judge(expected: list[str], actual: list[str | None], threshold: float = 1.0) -> Verdict:
    """Exact-match share against a frozen holdout; missing or truncated output is INCONCLUSIVE."""
    if len(actual) != len(expected) or any(item is None for item in actual):
        return Verdict.INCONCLUSIVE
    hits = sum(1 for want, got in zip(expected, actual, strict=True) if want == got)
    return Verdict.PASS if hits / max(len(expected), 1) >= threshold else Verdict.FAIL
