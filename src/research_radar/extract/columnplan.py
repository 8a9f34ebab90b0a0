"""Which column of a table is the compared system: a `baseline` label, a column of 1.0x
ratios, the systems beside the project's own, the one system measured before columns of
others' ratios, or a model's original column beside its quantised ones (`rowplan` reads
rows the same way).

Pure. A building block of `research_radar.extract.tables`; callers outside this package
use `research_radar.extract.claims` instead.
"""

from __future__ import annotations

import re

from research_radar.extract.references import (
    OURS,
    WIDE_PRECISIONS,
    Key,
    Plan,
    Row,
    add_others,
    choose,
    named_positions,
    new_systems,
    own_key,
    owner_unless_named,
    system_key,
)
from research_radar.extract.units import UNIT_PATTERN
from research_radar.models import Conditions

__all__ = ["column_plan", "ratio_of"]


_RATIO_OF = re.compile(
    r"(?:speed-?up|ratio|加速比?|倍数)\W{0,3}([A-Za-z][\w.+-]{0,30})\s?/\s?([A-Za-z][\w.+-]{0,30})\)?$"
    r"|^\W*([^\s/|()（）]{1,30})\s?/\s?([A-Za-z][\w.+-]{0,30})"
    r"(?:\s(?:gap|diff(?:erence)?|delta|ratio|change|speed-?up))?"
    r"\s?(?:[(（]\s?(?:%|x|×|倍)\s?[)）]|%)$",
    re.I,
)
"""`Speedup (vLLM/HF)`, `加速比 (Ours/PyTorch)`, `Ours/cuBLAS (%)`, `vLLM/SGL Gap %`: the
ratio of the first system to the second."""


def ratio_of(head: str) -> tuple[str, str] | None:
    """The two systems a ratio column's header divides (`Speedup (vLLM/HF)`: vLLM, HF),
    or None; the second is the compared one."""
    found = _RATIO_OF.search(head)
    if found is None:
        return None
    first, second = (part for part in found.groups() if part is not None)
    return (first, second) if _named_system(second) and _named_or_own(first) else None


def _named_system(text: str) -> bool:
    """`HF`, `vLLM`: a system's name, not a unit (`ms/token`, `TFLOPS/W`)."""
    return bool(re.search(r"[A-Z]", text)) and not re.fullmatch(UNIT_PATTERN, text, re.I)


def _named_or_own(text: str) -> bool:
    """The first side of a ratio: a name, or words for the project's own (`自定义核函数`)."""
    return _named_system(text) or bool(re.search(r"[\u4e00-\u9fff]", text))


def _unit_columns(rows: list[Row], metric_columns: list[int]) -> list[int]:
    """The columns whose every number is a ratio of 1 (`1.00x`)."""
    found = []
    for c in metric_columns:
        values = [m for row in rows if c < len(row.metrics) for m in row.metrics[c]]
        if values and all(m.unit == "x" and abs(m.value - 1.0) < 1e-9 for m in values):
            found.append(c)
    return found


def _speedup_columns(rows: list[Row], metric_columns: list[int]) -> set[int]:
    """The columns of ratios (`1.8x`), not all of 1: `| Speedup (vLLM/HF) |` names the
    systems it compares, yet holds neither system's own numbers."""
    found = set()
    for c in metric_columns:
        values = [m for row in rows if c < len(row.metrics) for m in row.metrics[c]]
        ratios = values and all(m.unit == "x" for m in values)
        if ratios and not all(abs(m.value - 1.0) < 1e-9 for m in values):
            found.add(c)
    return found


def column_plan(
    head: list[str],
    columns: list[Conditions],
    metric_columns: list[int],
    stems: list[str],
    rows: list[Row],
    project: str = "",
    aliases: tuple[str, ...] = (),
) -> Plan:
    plan = Plan()
    # `| Ours/cuBLAS (%) |` is a ratio however its numbers are written, not a system
    speedups = _speedup_columns(rows, metric_columns) | {
        c for c in metric_columns if ratio_of(head[c])
    }
    project = owner_unless_named([head[c] for c in metric_columns], project, aliases)
    measured = [c for c in metric_columns if c not in speedups]
    if len(measured) > 1 and all(own_key(head[c], project, aliases=aliases) for c in measured):
        # `| Quokka FP16 | Quokka INT4 |`: every column is the project's own, so that says
        # nothing of which is compared (its precisions do), as `rowplan` reads rows
        project, aliases = "", ()
    for c in metric_columns:
        key = own_key(head[c], project, columns[c], aliases) or system_key(columns[c], head[c])
        if key is not None and c not in speedups:
            plan.keys[c] = key
    # a column of ratios (`| Quokka / vLLM |`) is no system beside the others
    systems = {c: head[c] for c in metric_columns if c not in speedups}
    new_systems(plan, systems, columns)
    add_others(plan, systems)
    for c in _unit_columns(rows, metric_columns):
        # `| ROCM_AITER_FA | ... |` over `| **1.00x** |` in every row: the reference
        plan.keys.setdefault(c, Key("label", head[c]))
        plan.keys[c].ratio = 1.0
    if _ratio_sides(plan, head, metric_columns, speedups):
        return plan
    named = named_positions({c: head[c] for c in metric_columns if c not in speedups}, stems)
    narrower = sum(
        1 for c in metric_columns if any(p not in WIDE_PRECISIONS for p in columns[c].precision)
    )
    plan = choose(plan, len(metric_columns), named, narrower)
    if not plan.references:
        _measured_before_ratios(plan, columns, metric_columns, speedups)
    if not plan.references:
        _original_columns(plan, columns, metric_columns)
    return plan


def _ratio_sides(
    plan: Plan, head: list[str], metric_columns: list[int], speedups: set[int]
) -> bool:
    """`| vLLM | SGL | vLLM/SGL Gap % | TRT | vLLM/TRT Gap % |`: the ratio columns divide
    one system by each of the others; the columns named after the others are the compared
    systems, the one named after the first is the project's (issue #14). Whether it applied."""
    sides = [ratio_of(head[c]) for c in sorted(speedups)]
    firsts = {side[0].lower() for side in sides if side}
    if len(firsts) != 1 or not all(sides):
        return False
    seconds = {side[1].lower() for side in sides if side}
    measured = {c: head[c].strip().lower() for c in metric_columns if c not in speedups}
    found = [c for c, name in measured.items() if name in seconds]
    if not found or not any(name in firsts for name in measured.values()):
        return False
    for c in found:
        plan.keys[c] = Key("label", head[c].strip())
    plan.references = found
    return True


def _measured_before_ratios(
    plan: Plan, columns: list[Conditions], metric_columns: list[int], speedups: set[int]
) -> None:
    """`| Model | PyTorch (ms) | ONNX Runtime | TensorRT |` over `| 10.2 | 1.5x | 3.1x |`: the
    one system measured in absolute numbers, before columns of other systems' ratios, is
    what those ratios are to."""
    measured = [c for c in metric_columns if c not in speedups]
    if len(measured) != 1 or not speedups or min(speedups) < measured[0]:
        return
    key = plan.keys.get(measured[0])
    if key is None or key.kind not in ("software", "precision") or key.value == OURS:
        return
    # `| FT Latency (ms) | FT Speedup |`: a ratio of the same system is to something else
    named = [
        c
        for c in speedups
        if any(
            names and key.value not in names
            for names in (columns[c].software, columns[c].precision)
        )
    ]
    if named and not any(columns[c].baseline for c in speedups):
        plan.references = measured


def _original_columns(plan: Plan, columns: list[Conditions], metric_columns: list[int]) -> None:
    """`| Qwen2-7B | Qwen2-7B-FP8 |`: beside a model's columns at a low precision, its
    column that names none is the original model, their reference (as rows are read)."""
    quantized = {
        tuple(columns[c].model)
        for c in metric_columns
        if columns[c].model and any(p not in WIDE_PRECISIONS for p in columns[c].precision)
    }
    found = [
        c
        for c in metric_columns
        if not columns[c].precision and columns[c].model and tuple(columns[c].model) in quantized
    ]
    if found and len(found) < len(metric_columns):
        for c in found:
            plan.keys[c] = Key("label", columns[c].model[0])
        plan.references = found
