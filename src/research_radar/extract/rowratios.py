"""A row's ratio names the baseline of the row's other numbers: `| Llama-3-8B | 1500 tok/s |
1.3x |` under `| ... | Throughput | Speedup vs vLLM |` measures its 1500 tok/s against vLLM
too (issue #14's baseline convention: "a Speedup or `vs FP16` column names its baseline
on the row's others").

Pure. A building block of `research_radar.extract.tables`; callers outside this package
use `research_radar.extract.claims` instead.
"""

from __future__ import annotations

from research_radar.extract.compared import is_baseline_metric
from research_radar.extract.units import RATIO_UNITS
from research_radar.models import Conditions, Metric

__all__ = ["Group", "with_row_ratio_baseline"]

Group = tuple[Conditions, bool, list[Metric]]
"""A row's numbers that share their conditions: the conditions, whether they are the
compared system's own, and the numbers."""


def with_row_ratio_baseline(groups: list[Group]) -> list[Group]:
    """The row's groups, each one of its own numbers that names no compared system given
    the one the row's ratios name, when they name one only. A group that is the compared
    system's own (a column named after it: `| vLLM | SGL | vLLM/SGL Gap % |`) is left
    alone: nothing is compared with itself."""
    named = {
        tuple(conditions.baseline)
        for conditions, reference, metrics in groups
        if conditions.baseline
        and not reference
        and any(m.unit in RATIO_UNITS and not is_baseline_metric(m) for m in metrics)
    }
    if len(named) != 1:
        return groups
    [baseline] = named
    found: list[Group] = []
    for conditions, reference, metrics in groups:
        if (
            not conditions.baseline
            and not reference
            and not any(is_baseline_metric(m) for m in metrics)
            and not _names_any(conditions, metrics, baseline)
        ):
            conditions = conditions.model_copy(update={"baseline": list(baseline)})
        found.append((conditions, reference, metrics))
    return found


def _names_any(conditions: Conditions, metrics: list[Metric], names: tuple[str, ...]) -> bool:
    """Whether the group's system or its column's name is one of the compared ones."""
    lowered = [name.lower() for name in names]
    own = [s.lower() for s in (*conditions.software, *conditions.precision)]
    heads = [m.name.lower() for m in metrics]
    return any(n == s or s.startswith(n) for n in lowered for s in own) or any(
        n in head for n in lowered for head in heads
    )
