"""The compared alternative a ratio leaves unnamed: `KV-cache in BF16 and FP8 formats.
FP8 shows 14.9% higher output throughput`. The statement names one of exactly two
precisions (or parts) its paragraph names; the ratio is to the other one (issue #14).

Pure. A building block of `research_radar.extract.claims`; callers outside this package
use `research_radar.extract.claims` instead.
"""

from __future__ import annotations

from research_radar.extract.context import Context
from research_radar.models import Conditions, Metric

__all__ = ["the_other"]


_PAIRED_FIELDS = ("precision", "hardware")
"""What a statement compares between two alternatives its paragraph names."""


def the_other(stated: Conditions, found: list[Metric], scopes: tuple[Context, ...]) -> list[str]:
    """The alternative the statement's ratio is to: where the statement gives a ratio
    (`x`, `%`) and names one precision (or hardware), and the nearest scope that names
    any (the line, then the paragraph) names exactly two, that one and another: the other.
    Empty otherwise: three named, or the statement names both, leave the reference open."""
    if not any(m.unit in ("x", "%") for m in found):
        return []
    for name in _PAIRED_FIELDS:
        mine = set(getattr(stated, name))
        if len(mine) != 1:
            continue
        for scope in scopes:
            named = set(scope.names.get(name, []))
            if not named:
                continue
            if len(named) == 2 and mine < named:
                return sorted(named - mine)
            break
    return []
