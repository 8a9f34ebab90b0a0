"""One sentence, several set-ups: `11x on Falcon 40B and 3x on Llama 2 70B`.

Pure. A building block of `research_radar.extract.claims`, which callers outside this
package use instead. A sentence that names two models (or two hardware parts) and gives
numbers for each is split at its clauses, so that each number keeps the model of its own
clause instead of both (issue #14).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from research_radar.extract.catalogue import Catalog
from research_radar.extract.compared import is_baseline_metric
from research_radar.extract.conditions import find_conditions
from research_radar.extract.loads import several_values
from research_radar.extract.metrics import find_metrics
from research_radar.extract.units import NUMBER_PATTERN, parse_number
from research_radar.models import Conditions, Metric

__all__ = ["split_by_clause"]

_CLAUSE = re.compile(
    r"\s*(?:[;；，、]|,(?!\d{3}\b)|\band\b|\bwhile\b|\bwhereas\b|而|以及|(?<=[)）])\s?和|"
    r"(?<!\bup)\s\bto\b(?=\s[~≈]?\d))\s*"
)
"""Where a clause ends; `from 50 tok/s at batch 1 to 1200 tok/s at batch 32` has two
(not `up to 2x`)."""
_SPLIT_FIELDS = ("model", "hardware", "precision")
"""The fields whose several values in one sentence may belong to different numbers."""
_SPLIT_LOADS = {"gpus", "batch", "concurrency", "prompt", "output", "context", "rate"}
"""The load keys whose several values in one sentence may set up different numbers
(`在 8 卡上提升 1.2 倍，在 32 卡上提升 2 倍`, `30 ms for 1k input and 120 ms for 8k input`)."""
_SHARED_FIELDS = ("hardware", "model", "precision", "software", "baseline")


def split_by_clause(
    text: str, cat: Catalog, own: Conditions, metrics: list[Metric]
) -> list[tuple[Conditions, list[Metric]]]:
    """Each clause's conditions and numbers, when the sentence's numbers belong to
    clauses naming different models or hardware; else [] (one claim for the sentence).

    A clause without a number (`On A100,`) sets up the next one. Every number of the
    sentence must be found again, in order, and each clause with numbers must name one
    model (or part) of its own, or the sentence is not split. A sentence that names
    several GPU counts, batches or concurrencies is split the same way by them; one that
    compares with several systems gives each number the system of its clause
    (`1.8x faster than vLLM and 2.4x faster than TGI`, `vLLM (1.8x) and TGI (2.4x)`)."""
    if len(metrics) < 2:
        return []
    fields = [name for name in _SPLIT_FIELDS if len(getattr(own, name)) > 1]
    loads = set() if fields else several_values(text) & _SPLIT_LOADS
    compared = len(own.baseline) > 1
    if not fields and not loads and not compared:
        return []
    clauses = [part for part in _CLAUSE.split(text) if part.strip()]
    read = [_clause_conditions(part, cat, own.baseline if compared else None) for part in clauses]
    parts = _parts(read, lambda index, conditions: find_metrics(clauses[index], cat, conditions))
    if not _all_found(parts, metrics):
        # `4147 vs 927 at 2K (4.47x)`: a speed whose unit an earlier clause gave, which the
        # clause alone does not read; each number in the clause that writes it
        located = _located(clauses, metrics)
        parts = _parts(read, lambda index, _: located[index]) if located else []
    if not _all_found(parts, metrics):
        return []
    if compared and _separates(parts, "baseline"):
        fields.append("baseline")
    elif compared:
        # `和 A、B 对比 … 在 8 卡 …，在 32 卡 …`: one comparison for all the clauses
        if not fields and not loads:
            return []
        parts = [(c.model_copy(update={"baseline": list(own.baseline)}), f) for c, f in parts]
    if not all(_separates(parts, name) for name in fields):
        return []
    for key in loads:
        values = [c.load.get(key) for c, _ in parts]
        if None in values or len(set(values)) < 2:
            return []
    # `120 tok/s, compared with 45 tok/s for the FP16 model`: the sentence named 45 the
    # compared system's; its clause alone cannot tell
    named = iter(metrics)
    parts = [(c, [_as_named(m, next(named)) for m in found]) for c, found in parts]
    return [(_filled(conditions, own, fields), found) for conditions, found in parts]


def _clause_conditions(part: str, cat: Catalog, compared: list[str] | None) -> Conditions:
    conditions = find_conditions(part, cat)
    return conditions if compared is None else _compared_in(conditions, part, cat, compared)


def _parts(
    read: list[Conditions], numbers_of: Callable[[int, Conditions], list[Metric]]
) -> list[tuple[Conditions, list[Metric]]]:
    """The clauses with numbers, each with its conditions; a clause without a number
    (`On A100,`) sets up the next one."""
    parts: list[tuple[Conditions, list[Metric]]] = []
    pending: Conditions | None = None
    for index, conditions in enumerate(read):
        if pending is not None:
            conditions = _filled(conditions, pending, ())
        numbers = numbers_of(index, conditions)
        if numbers:
            parts.append((conditions, numbers))
            pending = None
        else:
            pending = conditions
    return parts


def _all_found(parts: list[tuple[Conditions, list[Metric]]], metrics: list[Metric]) -> bool:
    """Whether the clauses hold every number of the sentence, in order, in two or more."""
    values = [m.value for _, found in parts for m in found]
    return len(parts) >= 2 and values == [m.value for m in metrics]


_WRITTEN = re.compile(NUMBER_PATTERN)
"""A written number, as the metric rules read one (`extract.units`)."""


def _located(clauses: list[str], metrics: list[Metric]) -> list[list[Metric]] | None:
    """The sentence's numbers, in order, each in the clause that writes it: `4147 vs 927
    at 2K (4.47x)` holds a speed whose unit an earlier clause gave, which the clause alone
    does not read. None when a number is not written as its value (a scaled or converted
    one): then each clause is read alone."""
    out: list[list[Metric]] = []
    index = 0
    for clause in clauses:
        mine: list[Metric] = []
        for written in _WRITTEN.findall(clause):
            if index < len(metrics) and parse_number(written) == metrics[index].value:
                mine.append(metrics[index])
                index += 1
        out.append(mine)
    return out if index == len(metrics) else None


def _as_named(clause: Metric, sentence: Metric) -> Metric:
    if is_baseline_metric(sentence) and not is_baseline_metric(clause):
        return clause.model_copy(update={"name": sentence.name})
    return clause


def _filled(
    conditions: Conditions, sentence: Conditions, split: tuple[str, ...] | list[str]
) -> Conditions:
    """A clause's conditions, completed by the sentence's for the fields not split."""
    data = conditions.model_dump()
    # `compared to the leading solution, TensorRT-LLM, for A, and ... for B`: the
    # sentence names its comparison once for all its clauses
    if "baseline" not in split:
        data["baseline"] = list(sentence.baseline) or data["baseline"]
    for name in _SHARED_FIELDS:
        if not data[name] and name not in split:
            data[name] = list(getattr(sentence, name))
    data["load"] = {**sentence.load, **data["load"]}
    return Conditions(**data)


def _compared_in(
    conditions: Conditions, part: str, cat: Catalog, compared: list[str]
) -> Conditions:
    """A clause's baseline: the one it compares with, else the sentence's compared systems
    it names (`TGI (2.4x)`); those are none of the clause's own names."""
    if conditions.baseline:
        return conditions
    named = {
        name
        for field in ("software", "model", "hardware", "precision")
        for name in cat.names(field, part)
    }
    baseline = [name for name in compared if name in named]
    if not baseline:
        return conditions
    update: dict[str, list[str]] = {"baseline": baseline}
    for field in ("hardware", "model", "precision"):
        update[field] = [name for name in getattr(conditions, field) if name not in baseline]
    return conditions.model_copy(update=update)


def _separates(parts: list[tuple[Conditions, list[Metric]]], name: str) -> bool:
    """Whether each clause names one value of the field, and not all the same one."""
    named = [tuple(getattr(c, name)) for c, _ in parts]
    return all(len(n) == 1 for n in named) and len(set(named)) > 1
