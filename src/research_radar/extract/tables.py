"""A table -> claims: cells with their units, and the conditions their column and row give.

Pure. A building block of `research_radar.extract.claims`, which callers outside this
package use instead. A table is read whole, so that what one row or column says holds
for the others:

- header rows: the header, and any row before the first number that holds no number of
  its own (`| 框架+精度 | vllm 0.7.3, BF16 | ... |`), name the columns;
- a column names the conditions of its cells (`FP16 latency (ms)`, `vllm 0.7.3, BF16`,
  `bs=1`), overriding the row's; a header of load values (`| Seq Len | 256 | 512 |`)
  gives each cell its load;
- a row whose first cell is empty continues the row above (same model);
- the reference: when the columns (or, failing that, the rows) name different systems or
  precisions, one of them is the compared system: a `baseline` column, the 1.0x row, the
  first named system, or the widest precision (FP32 > TF32 > BF16 > FP16). Its numbers
  are named `<metric> (baseline)`; the others, and the speedups, are compared with it.

Cells with the same conditions in one row make one claim, so a row comparing FP16 with
INT4 gives two claims with the same text.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass

from research_radar.extract.catalogue import Catalog
from research_radar.extract.columnplan import column_plan, ratio_of
from research_radar.extract.comparable import Compared
from research_radar.extract.compared import BASELINE_SUFFIX, is_baseline_metric
from research_radar.extract.conditions import find_conditions, format_repeats
from research_radar.extract.markdown import Segment, clean_text, split_cells
from research_radar.extract.references import (
    Plan,
    Row,
    compared_stems,
    compared_with,
)
from research_radar.extract.rowlabels import device_labels, group_model, model_labels, table_wide
from research_radar.extract.rowplan import row_plan
from research_radar.extract.rowratios import with_row_ratio_baseline
from research_radar.extract.tablepairs import compared_pairs
from research_radar.extract.tablerows import LOAD_CELL, header_load, load_role, read_row
from research_radar.extract.units import PERF_UNITS, RATIO_UNITS
from research_radar.models import Conditions, Metric

__all__ = ["TableClaim", "read_table"]


@dataclass(frozen=True)
class TableClaim:
    """Numbers of one row that share their conditions."""

    line: int
    text: str
    metrics: list[Metric]
    conditions: Conditions
    reference: bool = False
    """The numbers are the compared system's own: they are nobody's improvement."""
    label_model: str = ""
    """The model its `Model` column writes, uncatalogued: the claim's model when nothing
    else in scope names one (`extract.rowlabels`)."""


_MARKS = re.compile(r"[↑↓⬆⬇]|[¹²³⁴⁵⁶⁷⁸⁹⁰]+$|\^[a-z*†‡]{1,2}$|\s?\[\^[\w-]{1,20}\]$")
"""`100 ↑`: a cell's better-is-higher mark; a footnote mark (`12.3¹`, `20.1^a`, `33.3[^1]`)."""
_HEAD_MARK = re.compile(r"(?<=\S)\s?(?:\(\d\)|\[\d{1,2}\]|[¹²³⁴⁵⁶⁷⁸⁹⁰*†‡§]+)$")
"""`| TP (1) |` over a note `(1) TP stands for Tensor Parallelism.`, `| seq_len¹ |`, `| QPS* |`:
a header's footnote mark, no part of its name."""
_MATH = re.compile(r"\$([-+−]?[\d.,]+)\$")
"""`$12.3$`: a number in LaTeX math, not dollars."""
_VARIANT = re.compile(r"^[-–+]\s+")
"""A row label that starts with a dash names a variant of the row above it."""
_NAMED_FIELDS = ("hardware", "model", "precision")
_MEASURED_CELL = re.compile(r"[-+]?\d[\d,]*\.\d{2,}(?:[eE][-+−]?\d{1,3})?")
"""`| 4875.75 |`: a number written to two decimals is a reading, never a header's setting
(`| | 256 | 512 |`): its row is a data row even when no rule reads it (no unit anywhere)."""


def read_table(
    header: tuple[str, ...],
    rows: list[Segment],
    cat: Catalog,
    compared: tuple[str, ...] = (),
    project: str = "",
    extra: Mapping[tuple[int, int], list[Metric]] | None = None,
    ruled: bool = False,
    aliases: tuple[str, ...] = (),
) -> list[TableClaim]:
    """The claims of one table: its header cells and its rows, in order.

    `compared` names the systems the document's prose compares with (`2.9x faster than
    Hugging Face FP16`): a row or column of one of them holds the compared system's numbers,
    even when the project's own system comes first. `project` names the repository the
    table is in: a row or column named after it, or after one of its `aliases`
    (`extract.projectnames`), holds the project's own numbers.
    `extra` holds the numbers the number reader took, by row (its index in `rows`) and
    column: they are read with the rules' own, so that they get the same conditions,
    reference and baseline (issue #14). When the rules read numbers of the table
    (`ruled`), the rows they read as header rows stay header rows, so that the rules read
    the same numbers again; the reader's numbers there keep their row's and column's
    conditions only."""
    by_cell: dict[int, dict[int, list[Metric]]] = {}
    for (at, column), metrics in (extra or {}).items():
        by_cell.setdefault(at, {})[column] = metrics
    head = [_HEAD_MARK.sub("", clean_text(h)) for h in header]
    header_rows = [head]
    """Each header row apart (`| Input | 128 | | 2048 | |` over `| Output | 128 | 2048 | ...`)."""
    parsed: list[Row] = []
    unplaced: list[Row] = []
    previous_label, group = "", Conditions()
    above: list[str] = []
    """The cells of the last row read, blank set-up cells filled (a continuation's source)."""
    for at, segment in enumerate(rows):
        raw = split_cells(segment.text)
        cells = [_MARKS.sub("", _MATH.sub(r"\1", clean_text(c))).strip() for c in raw]
        variant = bool(raw) and _VARIANT.match(raw[0]) is not None
        if len(cells) > 1 and cells[0] and not any(cells[1:]) and parsed:
            # `| **OPUS-MT model** | | | |`: names the rows below it, up to the next one
            group = group_model(find_conditions(cells[0], cat), cells[0], cat)
            previous_label = ""
            continue
        if cells and not cells[0] and previous_label and len(cells) > 1:
            # a continuation row: same model as above, and its blank set-up cells too
            cells = [previous_label, *_merged_cells(head, cells[1:], above[1:], cat)]
        elif variant and previous_label:
            # `| - int8 | 323.3 |` below `| OpenNMT-py 3.0.4 | 275.8 |`: that system, int8
            cells = [f"{previous_label} {cells[0]}", *cells[1:]]
        elif parsed and above:
            cells = _merged_loads(head, cells, above)
        row = read_row(segment, head, cells, cat, by_cell.get(at))
        row.own = _under_labels(row.own, [group.model_copy(update={"software": []})])
        if (
            not parsed
            and not _has_numbers(row, by_cell.get(at, {}) if ruled else {})
            and not any(_MEASURED_CELL.fullmatch(c) for c in cells[1:])
        ):
            head = _merged_header(head, cells)
            header_rows.append(cells)
            if row.has_metrics:
                unplaced.append(row)  # the reader's numbers in a row the rules read as a header
            continue
        if cells and cells[0] and not variant:
            previous_label = cells[0]
        above = cells
        parsed.append(row)
    if not parsed:
        return []
    _column_units(parsed)
    width = max(len(head), *(len(r.cells) for r in parsed))
    head += [""] * (width - len(head))
    columns = [_column_conditions(h, cat) for h in head]
    column_load = header_load(head)
    if len(header_rows) > 1:
        for c, load in _rows_load(header_rows).items():
            column_load[c] = {**load, **column_load.get(c, {})}
    # the reader's numbers in the first column (`| 8bits |`) leave it the rows' labels
    read = {id(m) for found in (extra or {}).values() for m in found}
    metric_columns = sorted(
        {
            c
            for r in parsed
            for c, found in enumerate(r.metrics)
            if any(c or id(m) not in read for m in found)
        }
    )
    stems = compared_stems(compared, cat)
    # `| HF | vLLM | Speedup (vLLM/HF) |`: the system a speedup column is to is compared
    stems += [
        b
        for h, c in zip(head, columns, strict=True)
        if _SPEEDUP_HEAD.search(h)
        for b in c.baseline
        if len(b) >= 2 and b.lower() not in {s.lower() for s in stems}
    ]
    needs = _NEEDS.search(" ".join(head)) is not None
    by_column = (
        Plan()
        if needs
        else column_plan(head, columns, metric_columns, stems, parsed, project, aliases)
    )
    by_row = (
        Plan()
        if needs or by_column.references or _METRIC_ROWS.match(head[0] if head else "")
        else row_plan(parsed, metric_columns, cat, stems, project, aliases)
    )
    labels = [columns[c] for c in range(width) if c not in metric_columns and c not in column_load]
    labels.append(table_wide(columns))
    claims: list[TableClaim] = []
    device_labels(head, metric_columns, parsed, cat)
    for row in parsed:
        row.own = _under_labels(row.own, labels)
        row.versus = compared_pairs(row, head)
    fallback = model_labels(head, metric_columns, parsed, cat)
    for row in unplaced:
        for column, found in enumerate(row.metrics):
            if found:
                conditions = _cell_conditions(row.own, columns[column], column_load.get(column, {}))
                claims.append(TableClaim(row.segment.line, _row_text(row, head), found, conditions))
    reference_rows = [parsed[i] for i in by_row.references]
    for index, row in enumerate(parsed):
        against = Compared(row, by_column.references, reference_rows)
        made = _row_claims(row, index, columns, column_load, by_column, by_row, head, against)
        if fallback[index]:
            made = [dataclasses.replace(c, label_model=fallback[index]) for c in made]
        claims.extend(made)
    return claims


def _column_units(rows: list[Row]) -> None:
    """`| 1,200 tok/s |` over `| 700.5 |`: a column whose cells write one unit, once or
    more, gives it to its bare numbers read without one (in place). Not a ratio's, nor
    where its cells write two units or none."""
    width = max(len(r.metrics) for r in rows)
    for column in range(1, width):
        cells = [r for r in rows if column < min(len(r.metrics), len(r.cells))]
        bare = [r for r in cells if _BARE_CELL.fullmatch(r.cells[column])]
        bare_ids = {id(r) for r in bare}
        # the units the cells write themselves (not a row label's: `| latency (ms) | 21.5 |`)
        units = {
            m.unit for r in cells if id(r) not in bare_ids for m in r.metrics[column] if m.unit
        }
        if len(units) != 1 or not any(not m.unit for r in bare for m in r.metrics[column]):
            continue
        unit = units.pop()
        if unit not in PERF_UNITS or unit in RATIO_UNITS:
            continue
        for row in bare:
            row.metrics[column] = [
                m if m.unit else m.model_copy(update={"unit": unit}) for m in row.metrics[column]
            ]


_BARE_CELL = re.compile(r"[~≈]?\s?[-+]?[\d,]+(?:\.\d+)?(?:[eE][-+−]?\d{1,3})?\s?[*†]*")


def _merged_cells(head: list[str], cells: list[str], above: list[str], cat: Catalog) -> list[str]:
    """A continuation row's cells, its blank set-up cells taken from the row above.

    Markdown has no row spans, so a table writes a merged cell once and leaves it blank
    below: `| 48*1 | BF16 | 1 | 128 | 0.21 |` over `| | | 2 | | 0.35 |` ran at BF16 with
    prompt 128 too. A blank cell is filled only where the cell above names a precision,
    model, hardware or system, or is a bare load value (`128`, `2K`) under a load column
    (`Batch size`, `Input length`): a blank measurement stays blank, never a copy of the
    number above it. A row with nothing of its own (a row of images) is no continuation."""
    if not any(cells):
        return cells
    merged = list(cells)
    for column, cell in enumerate(cells):
        source = above[column] if column < len(above) else ""
        if cell or not source:
            continue
        name = head[column + 1] if column + 1 < len(head) else ""
        said = find_conditions(source, cat)
        named = said.precision or said.model or said.hardware or said.software
        loaded = load_role(name) is not None and LOAD_CELL.fullmatch(source) is not None
        if named or loaded:
            merged[column] = source
    return merged


def _merged_loads(head: list[str], cells: list[str], above: list[str]) -> list[str]:
    """A row's blank load cells, taken from the row above: `| SGLang | | 110 |` below
    `| vLLM | 1 | 100 |` under `| Framework | Batch size | tok/s |` ran at batch 1 too (a
    merged cell, written once). Only a bare load value under a load column is carried; a
    row of blanks is no row of results."""
    if not any(cells[1:]):
        return cells
    merged = list(cells)
    for column, cell in enumerate(cells):
        if cell or not column or column >= len(above) or column >= len(head):
            continue
        if load_role(head[column]) and LOAD_CELL.fullmatch(above[column]):
            merged[column] = above[column]
    return merged


def _has_numbers(row: Row, extra: Mapping[int, list[Metric]]) -> bool:
    """Whether the row holds numbers other than the `extra` ones."""
    others = {id(m) for found in extra.values() for m in found}
    return any(id(m) not in others for found in row.metrics for m in found)


def _merged_header(head: list[str], cells: list[str]) -> list[str]:
    width = max(len(head), len(cells))
    head = head + [""] * (width - len(head))
    # `| | Prefill | | Decode | |` over `| Model | TP1 | TP2 | TP1 | TP2 |`: a group name
    # spans the empty cells to its right
    for column in range(2, width):
        if not head[column] and head[column - 1] and cells[column : column + 1] != [""]:
            head[column] = head[column - 1]
    cells = cells + [""] * (width - len(cells))
    return [f"{h} {c}".strip() if c != h else h for h, c in zip(head, cells, strict=True)]


def _rows_load(rows: list[list[str]]) -> dict[int, dict[str, str]]:
    """The load each header row gives its columns, one row at a time: `| Input | 128 | |
    2048 | |` over `| Output | 128 | 2048 | 128 | 2048 |` ran each column at one prompt and
    one output length. A value spans the empty cells to its right over a cell of the row
    below (a merged cell), as in `_merged_header`."""
    width = max(len(r) for r in rows)
    padded = [r + [""] * (width - len(r)) for r in rows]
    found: dict[int, dict[str, str]] = {}
    for at, row in enumerate(padded):
        spread = list(row)
        below = padded[at + 1] if at + 1 < len(padded) else [""] * width
        for column in range(2, width):
            if not spread[column] and spread[column - 1] and below[column]:
                spread[column] = spread[column - 1]
        for column, load in header_load(spread).items():
            found[column] = {**found.get(column, {}), **load}
    return found


def _column_conditions(head: str, cat: Catalog) -> Conditions:
    if not head:
        return Conditions()
    found = find_conditions(head, cat)
    ratio = ratio_of(head)
    if ratio and not found.baseline:
        # `Speedup (vLLM/HF)`: a ratio to the system below the bar
        own, theirs = (cat.names("software", part) or [part.strip()] for part in ratio)
        if own[0] != theirs[0]:
            return found.model_copy(update={"baseline": theirs[:1]})
    return found


_METRIC_ROWS = re.compile(r"\W*(?:metrics?|measures?|指标)\W*$", re.I)
"""`| Metric | Value |`: a table whose rows are measurements, none a system; a row whose
value is a word (`| Model Quality | Baseline |`) names no compared system (issue #14)."""


_NEEDS = re.compile(r"\b(?:recommend(?:ed|ation)?s?|requirements?|required)\b|推荐|要求|需要", re.I)
"""`| 模型 | 最低显存 | 推荐 GPU |`: a table of what a user needs to run each row, none of
its rows or columns measured against another (issue #14)."""


_SPEEDUP_HEAD = re.compile(r"speed-?up|ratio|加速|倍数", re.I)


# --------------------------------------------------------------------------- claims


def _row_claims(
    row: Row,
    index: int,
    columns: list[Conditions],
    column_load: dict[int, dict[str, str]],
    by_column: Plan,
    by_row: Plan,
    head: list[str],
    against: Compared,
) -> list[TableClaim]:
    groups: list[tuple[Conditions, bool, list[Metric]]] = []
    text = _row_text(row, head)
    for column, found in enumerate(row.metrics):
        if not found:
            continue
        theirs = [m for m in found if is_baseline_metric(m)]
        if row.versus and theirs and len(theirs) < len(found):
            # `| 45.40 / 74.76 ms |`: the compared system's number is a claim of its own
            plain = _cell_conditions(row.own, columns[column], column_load.get(column, {}))
            plain = plain.model_copy(update={"software": row.versus})
            groups.append((plain, True, theirs))
            found = [m for m in found if not is_baseline_metric(m)]
        if all(is_baseline_metric(m) for m in found) and groups:
            # a compared system's column (`| prefill tok/s | llama.cpp |`): part of the row's claim
            groups[0][2].extend(found)
            continue
        conditions = _cell_conditions(row.own, columns[column], column_load.get(column, {}))
        if all(is_baseline_metric(m) for m in found):
            conditions = _cell_conditions(row.own, Conditions(), column_load.get(column, {}))
        reference = False
        for plan, position in ((by_column, column), (by_row, index)):
            if not plan.references:
                continue
            if position in plan.references:
                reference = True
                found = [_as_reference(m) for m in found]
            elif (
                not any(is_baseline_metric(m) for m in found)
                and not _as_a_reference(plan, position)
                and against.has(plan is by_row, column, found)
            ):
                conditions = compared_with(conditions, plan.keys.get(position), plan)
        if row.versus and not reference and not conditions.baseline:
            conditions = conditions.model_copy(update={"baseline": row.versus})
        for group in groups:
            if group[0] == conditions and group[1] == reference:
                group[2].extend(found)
                break
        else:
            groups.append((conditions, reference, list(found)))
    return [
        TableClaim(row.segment.line, text, metrics, conditions, reference)
        for conditions, reference, metrics in with_row_ratio_baseline(groups)
    ]


def _as_a_reference(plan: Plan, position: int) -> bool:
    """Whether the row or column is at the precision of a reference (`| FP32 MobileNet v3 |`
    beside the FP32 row of v1 that INT8 rows are compared with): it is not compared with
    itself. (The project's own older version is a reference its newer one is compared with.)"""
    key = plan.keys.get(position)
    return (
        key is not None
        and key.kind == "precision"
        and any(
            (plan.keys[i].kind, plan.keys[i].value) == (key.kind, key.value)
            for i in plan.references
        )
    )


def _row_text(row: Row, head: list[str]) -> str:
    """`header: cell; ...`, the statement a row makes."""
    return "; ".join(f"{h}: {c}" if h else c for h, c in zip(head, row.cells, strict=False) if c)


def _under_labels(row: Conditions, labels: list[Conditions]) -> Conditions:
    """A row's conditions, completed by what the headers of its label columns name."""
    data = row.model_dump()
    for label in labels:
        for name in (*_NAMED_FIELDS, "software"):
            if not data[name] and getattr(label, name):
                data[name] = list(getattr(label, name))
        data["load"] = {**label.load, **data["load"]}
    return Conditions(**data)


def _cell_conditions(row: Conditions, column: Conditions, load: dict[str, str]) -> Conditions:
    data = row.model_dump()
    for name in _NAMED_FIELDS:
        if getattr(column, name):
            data[name] = list(getattr(column, name))
    data["software"] = list(dict.fromkeys([*column.software, *row.software]))
    if column.baseline:
        data["baseline"] = list(column.baseline)
    merged = {**row.load, **column.load, **load}
    context = merged.get("context")
    if context and "context" not in load and context in (load.get("prompt"), load.get("output")):
        del merged["context"]  # `| Input length | 1K | 4K |`: `1K` read as a context too
    data["load"] = merged
    data["repeats"] = format_repeats(merged)
    return Conditions(**data)


def _as_reference(metric: Metric) -> Metric:
    if is_baseline_metric(metric):
        return metric
    return metric.model_copy(update={"name": f"{metric.name}{BASELINE_SUFFIX}"})
