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
from dataclasses import dataclass
from functools import lru_cache

from research_radar.extract.brcells import broken_cells, read_lines
from research_radar.extract.catalogue import Catalog
from research_radar.extract.cells import (
    bare_cell,
    head_name,
    header_named,
    header_unit,
    names_metric,
    row_unit,
)
from research_radar.extract.comparable import Compared
from research_radar.extract.compared import BASELINE_SUFFIX, is_baseline_metric
from research_radar.extract.conditions import find_conditions, format_repeats
from research_radar.extract.markdown import Segment, clean_text, split_cells
from research_radar.extract.metrics import find_metrics, metric_words
from research_radar.extract.references import (
    Plan,
    Row,
    column_plan,
    compared_stems,
    compared_with,
    row_plan,
)
from research_radar.extract.rowlabels import group_model, model_labels, table_wide
from research_radar.extract.units import NUMBER_PATTERN, parse_number
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


_HEADER_LOAD = (
    ("context", re.compile(r"context|ctx|上下文|^T$", re.I)),
    (
        "output",
        re.compile(
            r"completion tokens|output tokens|OSL|output[ _]?(?:seq(?:uence)?[ _]?)?len|"
            r"(?:decode|generation)[ _]len|输出(?:长度|token|词元)",
            re.I,
        ),
    ),
    (
        "prompt",
        re.compile(
            r"prompt|ISL|input[ _]?(?:seq(?:uence)?[ _]?)?len|input tokens|prefill[ _]len|T_pp|"
            r"seq(?:uence)?[ _]?len|输入(?:长度|token|词元)",
            re.I,
        ),
    ),
    (
        "batch",
        re.compile(
            r"^batch|\bbatch[ _-]?size|^bs$|^micro[ _]?b(?:atch[ _]?)?s(?:ize|z)$|批大小|批次", re.I
        ),
    ),
    ("concurrency", re.compile(r"concurrency|^conc|并发", re.I)),
    (
        "gpus",
        re.compile(
            r"^(?:#\s?|num(?:ber of)?[_ ]?)(?:GPUs?|cards?)$|^(?:GPUs?|cards?)[_ ]?(?:num(?:ber)?s?|count|#)$|"
            r"显卡数量?|卡数|GPU\s?数",
            re.I,
        ),
    ),
    ("tp", re.compile(r"^TP(?:\s?size)?$|tensor[_ ]parallel", re.I)),
    ("ep", re.compile(r"#\s?EP\b|^EP(?:\s?size)?$|expert[_ ]parallel", re.I)),
    ("rate", re.compile(r"^(?:QPS|RPS|request[_ ]rate)$", re.I)),
    ("runs", re.compile(r"^(?:samples|runs|repeats|n)$", re.I)),
)
_LOAD_CELL = re.compile(
    r"(?:[A-Za-z]{1,3}\s?[=:]?\s?)?[~≈]?((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?[Kk]?)(?:\s?±.*)?"
    r"(?:\s?(?:tokens?|toks?|t))?[\s†*]*",
    re.I,
)
"""A load cell: `1024`, `2K`, `2,048 t`, and `c4`, `bs8` under a load column's header."""
_BARE = re.compile(rf"[~≈]?({NUMBER_PATTERN}[Kk]?)(?:\s?±.*)?[\s†*\\]*(?:\([^()]*\))?")
"""A number alone in its cell, perhaps with a spread or a note: `25.12 (2 on GPU)`."""
_PAIR_CELL = re.compile(rf"({NUMBER_PATTERN})\s?/\s?({NUMBER_PATTERN})")
_LEAD_NUMBER = re.compile(rf"[~≈]?({NUMBER_PATTERN})(?=\s?[(（])")
_SIZE_CELL = re.compile(r"(?<![\w.-])([A-Za-z][\w.-]*) \| (\d+(?:\.\d+)?[BbMm])(?= \||$)")
_BITS_HEAD = re.compile(r"w?bits?|bit[- ]?width|#\s?bits|位宽|量化位数", re.I)
"""A column of bit widths: each row's precision."""
_MARKS = re.compile(r"[↑↓⬆⬇]|[¹²³⁴⁵⁶⁷⁸⁹⁰]+$|\^[a-z*†‡]{1,2}$")
"""`100 ↑`: a cell's better-is-higher mark; a footnote mark (`12.3¹`, `20.1^a`)."""
_MATH = re.compile(r"\$([-+−]?[\d.,]+)\$")
"""`$12.3$`: a number in LaTeX math, not dollars."""
_VARIANT = re.compile(r"^[-–+]\s+")
"""A row label that starts with a dash names a variant of the row above it."""
_NAMED_FIELDS = ("hardware", "model", "precision")


def read_table(
    header: tuple[str, ...],
    rows: list[Segment],
    cat: Catalog,
    compared: tuple[str, ...] = (),
    project: str = "",
) -> list[TableClaim]:
    """The claims of one table: its header cells and its rows, in order.

    `compared` names the systems the document's prose compares with (`2.9x faster than
    Hugging Face FP16`): a row or column of one of them holds the compared system's numbers,
    even when the project's own system comes first. `project` names the repository the
    table is in: a row or column named after it holds the project's own numbers."""
    head = [clean_text(h) for h in header]
    parsed: list[Row] = []
    previous_label, group = "", Conditions()
    for segment in rows:
        raw = split_cells(segment.text)
        cells = [_MARKS.sub("", _MATH.sub(r"\1", clean_text(c))).strip() for c in raw]
        variant = bool(raw) and _VARIANT.match(raw[0]) is not None
        if len(cells) > 1 and cells[0] and not any(cells[1:]) and parsed:
            # `| **OPUS-MT model** | | | |`: names the rows below it, up to the next one
            group = group_model(find_conditions(cells[0], cat), cells[0], cat)
            previous_label = ""
            continue
        if cells and not cells[0] and previous_label and len(cells) > 1:
            cells = [previous_label, *cells[1:]]  # a continuation row: same model as above
        elif variant and previous_label:
            # `| - int8 | 323.3 |` below `| OpenNMT-py 3.0.4 | 275.8 |`: that system, int8
            cells = [f"{previous_label} {cells[0]}", *cells[1:]]
        row = _read_row(segment, head, cells, cat)
        row.own = _under_labels(row.own, [group.model_copy(update={"software": []})])
        if not row.has_metrics and not any(r.has_metrics for r in parsed) and len(parsed) < 2:
            head = _merged_header(head, cells)
            continue
        if cells and cells[0] and not variant:
            previous_label = cells[0]
        parsed.append(row)
    if not parsed:
        return []
    width = max(len(head), *(len(r.cells) for r in parsed))
    head += [""] * (width - len(head))
    columns = [_column_conditions(h, cat) for h in head]
    column_load = _header_load(head)
    metric_columns = sorted({c for r in parsed for c, found in enumerate(r.metrics) if found})
    stems = compared_stems(compared, cat)
    by_column = column_plan(head, columns, metric_columns, stems, parsed, project)
    by_row = (
        Plan() if by_column.references else row_plan(parsed, metric_columns, cat, stems, project)
    )
    labels = [columns[c] for c in range(width) if c not in metric_columns and c not in column_load]
    labels.append(table_wide(columns))
    claims: list[TableClaim] = []
    for row in parsed:
        row.own = _under_labels(row.own, labels)
    fallback = model_labels(head, metric_columns, parsed, cat)
    reference_rows = [parsed[i] for i in by_row.references]
    for index, row in enumerate(parsed):
        against = Compared(row, by_column.references, reference_rows)
        made = _row_claims(row, index, columns, column_load, by_column, by_row, head, against)
        if fallback[index]:
            made = [dataclasses.replace(c, label_model=fallback[index]) for c in made]
        claims.extend(made)
    return claims


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


def _column_conditions(head: str, cat: Catalog) -> Conditions:
    if not head:
        return Conditions()
    return find_conditions(head, cat)


_GPU_COUNT_HEAD = re.compile(r"(\d{1,4})\s?[x×]?\s?(?:GPUs?|cards?|卡|张卡)", re.I)


def _header_load(head: list[str]) -> dict[int, dict[str, str]]:
    """`| Seq Len | 256 | 512 |`: each column's load value, when the header holds them."""
    counted = {c: _GPU_COUNT_HEAD.fullmatch(h) for c, h in enumerate(head) if c}
    gpus = {c: {"gpus": m.group(1)} for c, m in counted.items() if m}
    if len(gpus) >= 2:
        return gpus  # `| | 1 GPU | 2 GPU | 4 GPU |`, `| 单卡 | 8卡 |`
    role = _load_role(head[0]) if head else None
    if role is None:
        return {}
    values = {c: _LOAD_CELL.fullmatch(h) for c, h in enumerate(head) if c}
    found = {c: m.group(1).replace(",", "") for c, m in values.items() if m}
    if len(found) < 2:
        return {}
    return {c: {role: value} for c, value in found.items()}


@lru_cache(maxsize=4096)
def _load_role(head: str) -> str | None:
    """The load a column header names (`Seq Len`: prompt), read once per header (#19)."""
    return next((key for key, rx in _HEADER_LOAD if rx.search(head)), None)


def _read_row(segment: Segment, head: list[str], cells: list[str], cat: Catalog) -> Row:
    """One row's numbers per column; cells under a load column become load."""
    header = head + [""] * max(0, len(cells) - len(head))
    # `| Mistral | 7B |`: a model and its size in two cells name `Mistral-7B`
    own = find_conditions(_SIZE_CELL.sub(r"\1-\2", " | ".join(cells)), cat)
    load = dict(own.load)
    per_column: list[list[Metric]] = []
    flat: list[Metric] = []
    bits: list[str] = []
    broken = broken_cells(segment.text)
    for column, (name, cell) in enumerate(zip(header, cells, strict=False)):
        if column in segment.copies:
            per_column.append([])  # a `colspan` cell's numbers were read in its first column
            continue
        if _BITS_HEAD.fullmatch(name) and re.fullmatch(r"\d{1,2}", cell):
            # `| bits | ... |` over `| 16 |`, `| 8 |`: the row's precision (`8-bit`)
            bits.extend(cat.names("precision", f"{cell}-bit"))
            per_column.append([])
            continue
        role = _load_role(name)
        as_load = _LOAD_CELL.fullmatch(cell)
        if role and as_load and not header_unit(name):
            load[role] = as_load.group(1).replace(",", "")
            per_column.append([])
            continue
        bare = _BARE.fullmatch(cell)
        context = f"{name} {cells[0]}" if column else name  # `| 单GPU显存消耗 | 76GB |`
        found = [header_named(m, name) for m in find_metrics(cell, cat, own, context)]
        fallback = (row_unit(cells[0]) if column else "") or segment.unit
        if column in broken and (
            read := read_lines(broken[column], name, flat, cat, own, fallback)
        ):
            found = read  # `| 123.4<br>245.6 (+99.0%) |`: each line a cell (extract.brcells)
        elif not found and bare:
            found = bare_cell(name, bare.group(1).rstrip("Kk"), flat, cat, fallback) or (
                _corner_cell(header[0], cells[0], bare.group(1), flat, cat, fallback)
                if column
                else []
            )
            if not found and segment.score and column and not _header_load(head[:1] + [name]):
                # `| ChatGLM3-6B | 6.215 |` below `Measure the perplexity ...:`
                found = [Metric(name=segment.score, value=parse_number(bare.group(1)), unit="")]
            if not found and column and (label := _scored_label(name, cells[:column], cat)):
                # `| MMLU(0-shot) | 76.6 |` under `| | InternLM3-8B-Instruct |`: a model's score
                found = [Metric(name=label, value=parse_number(bare.group(1)), unit="")]
            if column and found and metric_words(cells[0]) and not metric_words(name):
                # `| TTFT (ms) | 120 | 80 |` under `| Metric | A100 | H100 |`: the row names it
                row_name = head_name(cells[0])
                found = [m.model_copy(update={"name": row_name}) for m in found]
        elif not found and (pair := _PAIR_CELL.fullmatch(cell)):
            # `| 1200 / 80 |` under `Prefill / Decode (tok/s)`: one number for each name
            names = [*head_name(name).split("/"), "", ""]
            found = [
                metric.model_copy(update={"name": label.strip() or metric.name})
                for raw, label in zip(pair.groups(), names, strict=False)
                for metric in bare_cell(name, raw, flat, cat, fallback)
            ]
        elif (
            found
            and (lead := _LEAD_NUMBER.match(cell))
            and header_unit(name)
            and all(abs(m.value - parse_number(lead.group(1))) > 1e-12 for m in found)
        ):
            # `| 25.3 (1.8x) |` under `Latency (ms)`: the cell's own number, then a ratio
            found = [*bare_cell(name, lead.group(1), flat, cat), *found]
        per_column.append(found)
        flat.extend(found)
    update: dict[str, object] = {"load": load, "repeats": format_repeats(load)}
    if bits and not own.precision:
        update["precision"] = bits
    conditions = own.model_copy(update=update)
    return Row(segment, cells, per_column, load, conditions, bits)


def _scored_label(head: str, before: list[str], cat: Catalog) -> str:
    """The row label that names what a model's column scores, or ''.

    A bare number with no unit anywhere, under a column named after a model, is that
    model's score on what the row is labelled with (the label nearest to its left)."""
    if not cat.names("model", head):
        return ""
    labels = [c for c in before if c and not _BARE.fullmatch(c)]
    if not labels or cat.names("model", labels[-1]):
        return ""
    return labels[-1]


def _corner_cell(
    corner: str, label: str, raw: str, flat: list[Metric], cat: Catalog, fallback: str
) -> list[Metric]:
    """`| Perplexity | sym_int4 | fp16 |`, `| Throughput | Before | After |`: the corner
    cell names the numbers of every column (unless the row label names its own)."""
    if not names_metric(corner) or metric_words(label):
        return []
    return bare_cell(corner, raw.rstrip("Kk"), flat, cat, fallback)


# --------------------------------------------------------------------------- reference


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
            elif not any(is_baseline_metric(m) for m in found) and against.has(
                plan is by_row, column, found
            ):
                conditions = compared_with(conditions, plan.keys.get(position), plan)
        for group in groups:
            if group[0] == conditions and group[1] == reference:
                group[2].extend(found)
                break
        else:
            groups.append((conditions, reference, list(found)))
    return [
        TableClaim(row.segment.line, text, metrics, conditions, reference)
        for conditions, reference, metrics in groups
    ]


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
    data["load"] = merged
    data["repeats"] = format_repeats(merged)
    return Conditions(**data)


def _as_reference(metric: Metric) -> Metric:
    if is_baseline_metric(metric):
        return metric
    return metric.model_copy(update={"name": f"{metric.name}{BASELINE_SUFFIX}"})


# --------------------------------------------------------------------------- cells
