"""Which row of a table is the compared system: the 1.0x row (one per group when each
names the same system), a plain row (`vanilla`, `nativetorch`), the systems beside the
project's own, the widest precision, or a model's original row beside its quantised ones.

Pure. A building block of `research_radar.extract.tables`; callers outside this package
use `research_radar.extract.claims` instead.
"""

from __future__ import annotations

import re

from research_radar.extract.catalogue import Catalog
from research_radar.extract.conditions import find_conditions
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
    systems_not_precisions,
)
from research_radar.models import Conditions

__all__ = ["row_plan"]


_PLAIN_WORD = re.compile(r"^\W*(?:native|vanilla|naive|eager|原生)", re.I)
"""A row label naming the plain system others improve on (`nativetorch`, `vanilla`)."""


def row_plan(
    rows: list[Row],
    metric_columns: list[int],
    cat: Catalog,
    stems: list[str],
    project: str = "",
    aliases: tuple[str, ...] = (),
) -> Plan:
    plan = Plan()
    labels: dict[int, str] = {}
    project = owner_unless_named([" ".join(row.cells[:2]) for row in rows], project, aliases)
    names = [_label(row, metric_columns) for row in rows]
    measured = [name for name, row in zip(names, rows, strict=True) if name and row.has_metrics]
    if len(measured) > 1 and all(own_key(name, project, aliases=aliases) for name in measured):
        # `Baichuan2-13B-Chat` above `Baichuan2-13B-Chat-4bits` in baichuan-inc/Baichuan2:
        # every row is the project's own, so that says nothing of which is compared
        project, aliases = "", ()
    unit_rows = _dash_in_ratio_column(rows)
    system_columns: set[int] = set()
    """The later label column that names the project's own rows (`engine`), if any."""
    for index, row in enumerate(rows):
        label = names[index]
        if not label:
            continue
        if row.has_metrics:
            labels[index] = label
        conditions = find_conditions(label, cat)
        if not (conditions.precision or conditions.software):
            conditions = _later_label(row, metric_columns, cat) or conditions
        if not conditions.precision and row.bits:
            conditions = conditions.model_copy(update={"precision": row.bits})
        key = own_key(label, project, conditions, aliases) or system_key(conditions, label, cat)
        if key is None and (later := _later_own(row, metric_columns, project, aliases)) >= 0:
            key = Key("software", OURS)
            system_columns.add(later)
        ratios = [m.value for found in row.metrics for m in found if m.unit == "x"]
        ratio = ratios[0] if ratios and all(r == ratios[0] for r in ratios) else None
        if ratio is None and index in unit_rows:
            ratio = 1.0
        if key is None and ratio is not None and abs(ratio - 1.0) < 1e-9:
            key = Key("label", label)
        elif key is None and _PLAIN_WORD.match(label):
            key = Key("label", label, reference_word=True)
        if key is not None:
            key.ratio = ratio
            plan.keys[index] = key
    # a system is named by the row's first cell (`国内模型 A (API)`, not with its `✘`)
    first_cells = {i: rows[i].cells[0] if rows[i].cells else label for i, label in labels.items()}
    if len(system_columns) == 1:
        # the other rows' systems are named in the column that names the project's own
        column = system_columns.pop()
        first_cells = {i: _cell(rows[i], column) or cell for i, cell in first_cells.items()}
    new_systems(plan, first_cells, [row.own for row in rows])
    systems_not_precisions(plan, first_cells, cat)
    add_others(plan, first_cells)
    if not _precisions_compared(rows, cat):
        plan.keys = {i: k for i, k in plan.keys.items() if k.kind != "precision"}
    if _grouped_references(plan, rows, metric_columns):
        return plan
    named = named_positions(labels, stems)
    plan = choose(plan, sum(1 for row in rows if row.has_metrics), named, last_own=False)
    if not plan.references:
        _paired_precisions(plan, rows, cat)
    if not plan.references:
        _originals(plan, rows, labels)
    return plan


_DASH = re.compile(r"\W*(?:[—–-]+|n/?a|baseline|reference|基线|基准|/)\W*", re.I)


def _dash_in_ratio_column(rows: list[Row]) -> set[int]:
    """`| Single node | 6,874 ms | — |` over `| Replicated | 7,304 ms | 0.94x |`: in a column
    of ratios, the one row with a dash (or `baseline`) there is the one they are ratios to,
    as a 1.0x row would be."""
    found: set[int] = set()
    width = max((len(row.cells) for row in rows), default=0)
    for column in range(1, width):
        ratios = [
            i
            for i, row in enumerate(rows)
            if column < len(row.metrics) and any(m.unit == "x" for m in row.metrics[column])
        ]
        dashes = [
            i
            for i, row in enumerate(rows)
            if column < len(row.cells) and _DASH.fullmatch(row.cells[column]) and row.has_metrics
        ]
        if len(ratios) >= 2 and len(dashes) == 1:
            found.update(dashes)
    return found


def _paired_precisions(plan: Plan, rows: list[Row], cat: Catalog) -> None:
    """`| FP32 MobileNet v1 |` and `| INT8 MobileNet v1 |` among FP32 rows of models with no
    INT8 row: a model's row at its widest precision is the reference of its rows at a lower
    one, though most rows of the table are at the wide precision."""
    by_model: dict[tuple[str, ...], dict[int, str]] = {}
    for i, key in plan.keys.items():
        if key.kind == "precision" and rows[i].has_metrics:
            model = tuple(rows[i].own.model) or _unknown_model(rows[i], cat)
            by_model.setdefault(model, {})[i] = key.value
    found: list[int] = []
    for precisions in by_model.values():
        wide = [p for p in WIDE_PRECISIONS if p in precisions.values()]
        if wide and any(p not in WIDE_PRECISIONS for p in precisions.values()):
            found.extend(i for i, p in precisions.items() if p == wide[0])
    if found and len(by_model) > 1:
        plan.references = sorted(found)


def _label(row: Row, metric_columns: list[int]) -> str:
    """What names a row: its first two cells that hold no measurement (or open with a
    name, a number read in them: `Tree V2 (t=0.03)`), without a first cell of no words
    (a rank: `| 8 | Baseline (AR) |`, `| 🥇 | Tree V2 |`)."""
    cells = [
        c if i not in metric_columns or re.match(r"\W*[^\W\d_]", c) else ""
        for i, c in enumerate(row.cells[:2])
    ]
    if len(cells) == 2 and cells[1] and _NO_WORDS.fullmatch(cells[0]):
        cells[0] = ""
    return " ".join(c for c in cells if c)


_NO_WORDS = re.compile(r"[\W\d_]+")


def _later_label(row: Row, metric_columns: list[int], cat: Catalog) -> Conditions | None:
    """`| Qwen3-0.6B | 6144 | FP8 | 73.96 |`: when the first two cells name a model and a
    setting, the precision or system a later label cell names is what tells the row apart."""
    for i, cell in enumerate(row.cells):
        if i < 2 or i in metric_columns or not cell:
            continue
        found = find_conditions(cell, cat)
        if found.precision or found.software:
            return found
    return None


def _cell(row: Row, column: int) -> str:
    return row.cells[column].strip() if column < len(row.cells) else ""


def _later_own(row: Row, metric_columns: list[int], project: str, aliases: tuple[str, ...]) -> int:
    """`| Qwen2.5-0.5B | A10 | 8 | fast_serve | 3.49 |` above `| ... | transformers | 18.65 |`:
    the project's own name in a later label cell (an `engine` column) makes the row its own,
    when its first cells name only the set-up (issue #14). The column, or -1."""
    if not project:
        return -1
    for i, cell in enumerate(row.cells):
        if i >= 2 and i not in metric_columns and cell and own_key(cell, project, None, aliases):
            return i
    return -1


def _grouped_references(plan: Plan, rows: list[Row], metric_columns: list[int]) -> bool:
    """`| c4 | AR | 287.9 | 1.00x |` above `| | MTP-3 | 495.5 | 1.72x |`, and again for
    c8, c16: a 1.0x row per group, each naming the same system, is the reference of all."""
    unit = [i for i, k in plan.keys.items() if k.ratio is not None and abs(k.ratio - 1.0) < 1e-9]
    measured = [i for i, row in enumerate(rows) if row.has_metrics]
    if len(unit) < 2 or len(unit) == len(measured):
        return False
    width = min(len(rows[i].cells) for i in unit)
    for column in reversed(range(width)):
        names = {rows[i].cells[column] for i in unit}
        name = names.pop() if len(names) == 1 else ""
        others = {rows[i].cells[column] for i in measured if i not in unit}
        if name and column not in metric_columns and name not in others and name.strip("-–—"):
            for i in unit:
                plan.keys[i] = Key("label", name, ratio=1.0)
            plan.references = unit
            return True
    return False


def _originals(plan: Plan, rows: list[Row], labels: dict[int, str]) -> None:
    """`Baichuan2-13B-Chat` above `Baichuan2-13B-Chat-4bits`: beside a model's rows at a
    low precision, its row that names none is the original model, their reference."""
    quantized = {
        tuple(rows[i].own.model)
        for i, k in plan.keys.items()
        if k.kind == "precision" and k.value not in WIDE_PRECISIONS and rows[i].own.model
    }
    found = [
        i
        for i in labels
        if i not in plan.keys
        and rows[i].has_metrics
        and not rows[i].own.precision
        and tuple(rows[i].own.model) in quantized
    ]
    for i in found:
        plan.keys[i] = Key("label", labels[i])
    plan.references = found


def _precisions_compared(rows: list[Row], cat: Catalog) -> bool:
    """Whether some model is measured at two precisions: `GLM-4.5 (BF16)` above
    `DeepSeek-V3.1 (FP8)` are two models, neither the other's reference. A model the
    catalogue does not know is the row's first cell (`| LPRNet | FP16 |` above
    `| YOLOv5 | INT8 |`), unless that cell is the precision itself; a row that names no
    precision (`| Quokka |` below `| FP16 |`) is compared with the wide one."""
    by_model: dict[tuple[str, ...], set[tuple[str, ...]]] = {}
    for row in rows:
        if row.has_metrics:
            model = tuple(row.own.model) or _unknown_model(row, cat)
            by_model.setdefault(model, set()).add(tuple(row.own.precision))
    return len(by_model) < 2 or any(len(found) > 1 for found in by_model.values())


def _unknown_model(row: Row, cat: Catalog) -> tuple[str, ...]:
    first = row.cells[0] if row.cells else ""
    if (
        not (re.search(r"[^\W\d_]", first) and row.own.precision)
        or find_conditions(first, cat).precision
    ):
        return ()
    return (first.lower(),)
