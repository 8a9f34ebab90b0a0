"""Headings that state a result: `## 2.15x faster than the baseline`, `### 🚀 1.8x speed-up
on A100`, `**Up to 3,000 tokens/s on one GPU**`, `## 吞吐提升 40%`.

Pure. A building block of `research_radar.extract.claims`; callers outside this package
use `research_radar.extract.claims` instead.

A heading is read as the title of its section; a number in it is a claim only when it is
a ratio said with a comparison (`faster`, `speed-up`, `加速`) or a rate (tokens, requests,
images or frames per second). Not a duration (`## Quick start (5 minutes)`), a size
(`### 7B`, `### A100 80GB`), a count (`## 8x A100`), a version or a date.
"""

from __future__ import annotations

import re

from research_radar.extract.units import RATE_UNITS, RATIO_UNITS
from research_radar.models import Claim, Metric

__all__ = ["headline_claims", "headline_metrics"]


_RATE_UNITS = RATE_UNITS | {"Mtok/s", "万tok/s", "ms/token"}
"""Units a heading states a result in: rates, and the time a token takes."""
_COMPARED = re.compile(
    r"faster|slower|speed-?ups?|accelerat|lower|higher|less|more|fewer|reduc|sav(?:e|es|ing)|"
    r"boost|improv|gain|throughput|latency|memory|cheaper|smaller|better|"
    r"加速|提升|提高|降低|减少|节省|更快|快|吞吐|延迟|显存",
    re.I,
)


def headline_metrics(text: str, metrics: list[Metric]) -> list[Metric]:
    """The metrics of a heading that state a result (see the module's note)."""
    if not metrics:
        return []
    compared = _COMPARED.search(text) is not None
    return [
        m
        for m in metrics
        if m.unit in _RATE_UNITS or (m.unit in RATIO_UNITS and compared and m.value > 0)
    ]


def headline_claims(said: list[Claim]) -> list[Claim]:
    """The claims of a heading (`## 2.15x faster`), with only the metrics that state a
    result."""
    kept = [(c, headline_metrics(c.text, c.metrics)) for c in said]
    return [c.model_copy(update={"metrics": metrics}) for c, metrics in kept if metrics]
