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

import re
from dataclasses import dataclass, field

from research_radar.extract.catalogue import Catalog
from research_radar.extract.conditions import find_conditions, format_repeats
from research_radar.extract.markdown import Segment, clean_text, split_cells
from research_radar.extract.metrics import (
    BASELINE_SUFFIX,
    DEFAULT_METRIC_NAMES,
    NUMBER_PATTERN,
    UNIT_PATTERN,
    canonical_unit,
    find_metrics,
    is_baseline_metric,
    metric_words,
    parse_number,
)
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
    ("batch", re.compile(r"^batch|\bbatch[ _-]?size|^bs$|批大小|批次", re.I)),
    ("concurrency", re.compile(r"concurrency|^conc|并发", re.I)),
    (
        "gpus",
        re.compile(
            r"^(?:#\s?|num(?:ber of)?[_ ]?)(?:GPUs?|cards?)$|^(?:GPUs?|cards?)[_ ]?(?:num|count|#)$|"
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
    rf"[~≈]?({NUMBER_PATTERN}[Kk]?)(?:\s?±.*)?(?:\s?(?:tokens?|toks?))?[\s†*]*", re.I
)
_BARE = re.compile(rf"[~≈]?({NUMBER_PATTERN}[Kk]?)(?:\s?±.*)?[\s†*]*(?:\([^()]*\))?")
"""A number alone in its cell, perhaps with a spread or a note: `25.12 (2 on GPU)`."""
_PAIR_CELL = re.compile(rf"({NUMBER_PATTERN})\s?/\s?({NUMBER_PATTERN})")
_LEAD_NUMBER = re.compile(rf"[~≈]?({NUMBER_PATTERN})(?=\s?[(（])")
_SIZE_CELL = re.compile(r"(?<![\w.-])([A-Za-z][\w.-]*) \| (\d+(?:\.\d+)?[BbMm])(?= \||$)")
_BITS_HEAD = re.compile(r"w?bits?|bit[- ]?width|#\s?bits|位宽|量化位数", re.I)
"""A column of bit widths: each row's precision."""
_VARIANT = re.compile(r"^[-–+]\s+")
"""A row label that starts with a dash names a variant of the row above it."""
_REFERENCE_WORD = re.compile(r"baseline|基线|基准|reference|\bref\b", re.I)
_PLAIN_WORD = re.compile(r"^\W*(?:native|vanilla|naive|eager|原生)", re.I)
"""A row label naming the plain system others improve on (`nativetorch`, `vanilla`)."""
_WIDE_PRECISIONS = ("FP32", "TF32", "BF16", "FP16")
"""The precisions a lower one is compared with, widest first."""
_NAMED_FIELDS = ("hardware", "model", "precision")


@dataclass
class _Row:
    segment: Segment
    cells: list[str]
    metrics: list[list[Metric]]
    """Per column."""
    load: dict[str, str]
    own: Conditions
    bits: list[str] = field(default_factory=list)
    """The precision a `bits` column gives the row (`8` -> `8-bit`)."""

    @property
    def has_metrics(self) -> bool:
        return any(self.metrics)


@dataclass
class _Key:
    """What makes one column or row a different system: its software or precision."""

    kind: str
    value: str
    reference_word: bool = False
    ratio: float | None = None


@dataclass
class _Plan:
    keys: dict[int, _Key] = field(default_factory=dict)
    references: list[int] = field(default_factory=list)

    @property
    def baselines(self) -> list[str]:
        return list(dict.fromkeys(self.keys[i].value for i in self.references))


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
    parsed: list[_Row] = []
    previous_label, group = "", Conditions()
    for segment in rows:
        raw = split_cells(segment.text)
        cells = [clean_text(c) for c in raw]
        variant = bool(raw) and _VARIANT.match(raw[0]) is not None
        if len(cells) > 1 and cells[0] and not any(cells[1:]) and parsed:
            # `| **OPUS-MT model** | | | |`: names the rows below it, up to the next one
            group, previous_label = find_conditions(cells[0], cat), ""
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
    stems = _compared_stems(compared, cat)
    by_column = _column_plan(head, columns, metric_columns, stems, parsed, project)
    by_row = (
        _Plan() if by_column.references else _row_plan(parsed, metric_columns, cat, stems, project)
    )
    labels = [columns[c] for c in range(width) if c not in metric_columns and c not in column_load]
    claims: list[TableClaim] = []
    for index, row in enumerate(parsed):
        row.own = _under_labels(row.own, labels)
        claims.extend(_row_claims(row, index, columns, column_load, by_column, by_row, head))
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


def _header_load(head: list[str]) -> dict[int, dict[str, str]]:
    """`| Seq Len | 256 | 512 |`: each column's load value, when the header holds them."""
    role = next((key for key, rx in _HEADER_LOAD if head and rx.search(head[0])), None)
    if role is None:
        return {}
    values = {c: _LOAD_CELL.fullmatch(h) for c, h in enumerate(head) if c}
    found = {c: m.group(1).replace(",", "") for c, m in values.items() if m}
    if len(found) < 2:
        return {}
    return {c: {role: value} for c, value in found.items()}


def _read_row(segment: Segment, head: list[str], cells: list[str], cat: Catalog) -> _Row:
    """One row's numbers per column; cells under a load column become load."""
    header = head + [""] * max(0, len(cells) - len(head))
    # `| Mistral | 7B |`: a model and its size in two cells name `Mistral-7B`
    own = find_conditions(_SIZE_CELL.sub(r"\1-\2", " | ".join(cells)), cat)
    load = dict(own.load)
    per_column: list[list[Metric]] = []
    flat: list[Metric] = []
    bits: list[str] = []
    for column, (name, cell) in enumerate(zip(header, cells, strict=False)):
        if column in segment.copies:
            per_column.append([])  # a `colspan` cell's numbers were read in its first column
            continue
        if _BITS_HEAD.fullmatch(name) and re.fullmatch(r"\d{1,2}", cell):
            # `| bits | ... |` over `| 16 |`, `| 8 |`: the row's precision (`8-bit`)
            bits.extend(cat.names("precision", f"{cell}-bit"))
            per_column.append([])
            continue
        role = next((key for key, rx in _HEADER_LOAD if rx.search(name)), None)
        as_load = _LOAD_CELL.fullmatch(cell)
        if role and as_load and not _header_unit(name):
            load[role] = as_load.group(1).replace(",", "")
            per_column.append([])
            continue
        bare = _BARE.fullmatch(cell)
        context = f"{name} {cells[0]}" if column else name  # `| 单GPU显存消耗 | 76GB |`
        found = [_header_named(m, name) for m in find_metrics(cell, cat, own, context)]
        fallback = (_row_unit(cells[0]) if column else "") or segment.unit
        if not found and bare:
            found = _bare_cell(name, bare.group(1).rstrip("Kk"), flat, cat, fallback)
            if not found and segment.score and column and not _header_load(head[:1] + [name]):
                # `| ChatGLM3-6B | 6.215 |` below `Measure the perplexity ...:`
                found = [Metric(name=segment.score, value=parse_number(bare.group(1)), unit="")]
            if column and found and metric_words(cells[0]) and not metric_words(name):
                # `| TTFT (ms) | 120 | 80 |` under `| Metric | A100 | H100 |`: the row names it
                row_name = _head_name(cells[0])
                found = [m.model_copy(update={"name": row_name}) for m in found]
        elif not found and (pair := _PAIR_CELL.fullmatch(cell)):
            # `| 1200 / 80 |` under `Prefill / Decode (tok/s)`: one number for each name
            names = [*_head_name(name).split("/"), "", ""]
            found = [
                metric.model_copy(update={"name": label.strip() or metric.name})
                for raw, label in zip(pair.groups(), names, strict=False)
                for metric in _bare_cell(name, raw, flat, cat, fallback)
            ]
        elif (
            found
            and (lead := _LEAD_NUMBER.match(cell))
            and _header_unit(name)
            and all(abs(m.value - parse_number(lead.group(1))) > 1e-12 for m in found)
        ):
            # `| 25.3 (1.8x) |` under `Latency (ms)`: the cell's own number, then a ratio
            found = [*_bare_cell(name, lead.group(1), flat, cat), *found]
        per_column.append(found)
        flat.extend(found)
    update: dict[str, object] = {"load": load, "repeats": format_repeats(load)}
    if bits and not own.precision:
        update["precision"] = bits
    conditions = own.model_copy(update=update)
    return _Row(segment, cells, per_column, load, conditions, bits)


# --------------------------------------------------------------------------- reference


def _key(conditions: Conditions, text: str, cat: Catalog | None = None) -> _Key | None:
    word = bool(_REFERENCE_WORD.search(text))
    if len(set(conditions.software)) == 1:
        return _Key("software", conditions.software[0], word)
    named = cat.find("software", text) if cat is not None and conditions.software else []
    if named:
        # `OpenNMT-py 3.0.4 (with PyTorch 1.13.1)`: the system is named first
        return _Key("software", min(named, key=lambda m: m.start).name, word)
    if len(set(conditions.precision)) == 1:
        return _Key("precision", conditions.precision[0], word)
    if word:
        return _Key("word", _head_name(text) or text, word)  # `Baseline (tok/s)` -> `Baseline`
    return None


def _compared_stems(compared: tuple[str, ...], cat: Catalog) -> list[str]:
    """The systems prose compares with, without their precision: `Hugging Face FP16` ->
    `Hugging Face`."""
    stems: list[str] = []
    for name in compared:
        cut = min((m.start for m in cat.find("precision", name)), default=len(name))
        stem = name[:cut].strip(" -_/(")
        if (
            len(stem) >= 3
            and re.search(r"[A-Z.]", stem)  # a name (`Hugging Face`, `llama.cpp`), not `kv size`
            and not cat.find("model", stem)  # a model's rows are compared by other rules
            and not cat.find("hardware", stem)
            and stem.lower() not in stems
        ):
            stems.append(stem.lower())
    return stems


def _named(labels: dict[int, str], stems: list[str]) -> dict[int, str]:
    """The positions whose label names a system the prose compares with, when some do not."""
    named = {i: stem for i, text in labels.items() for stem in stems if stem in text.lower()}
    return named if 0 < len(named) < len(labels) else {}


def _choose(plan: _Plan, positions: int, named: dict[int, str] | None = None) -> _Plan:
    """Pick the compared systems among the columns or rows with numbers, when they differ."""
    keys = plan.keys
    if positions < 2 or not (keys or named):
        return plan
    marked = [i for i, k in keys.items() if k.reference_word]
    if len(marked) == 1:
        plan.references = marked
        return plan
    unit = [i for i, k in keys.items() if k.ratio is not None and abs(k.ratio - 1.0) < 1e-9]
    if len(unit) == 1:
        plan.references = unit
        return plan
    if named:
        # `| vLLM FP16 | ... |` above `| Hugging Face FP16 | ... |`, the prose saying
        # "faster than Hugging Face": the project's own system may come first
        for i, stem in named.items():
            plan.keys[i] = _Key("named", stem, ratio=keys[i].ratio if i in keys else None)
        plan.references = sorted(named)
        return plan
    software = {i: k for i, k in keys.items() if k.kind == "software"}
    ours = [i for i, k in software.items() if k.value == _OURS_KEY]
    others = [i for i, k in keys.items() if k.kind == "other"]
    if ours and others:
        # `| HF | Ours |`: what stands beside the project's own system is compared with it
        plan.references = sorted(others)
        return plan
    distinct = len({k.value for k in software.values()}) >= 2
    if distinct and (ours or max(software) == max(keys)):
        # the project's own system comes last: `| vLLM | ... | Chitu |`, or is called ours
        # wherever it stands; its variants (`FlexLLMGen with Compression`, `Chitu-FP4`)
        # are its own too, never a reference
        own = _stem(software[ours[0] if ours else max(software)].value)
        plan.references = [i for i, k in sorted(software.items()) if _stem(k.value) != own]
        return plan
    precisions = {i: k.value for i, k in keys.items() if k.kind == "precision"}
    wide = [p for p in _WIDE_PRECISIONS if p in precisions.values()]
    if wide and sum(1 for v in precisions.values() if v != wide[0]) + positions - len(keys) > 0:
        # FP16 beside INT4 (or beside our unnamed row): the wide precision is the reference
        plan.references = [i for i, v in precisions.items() if v == wide[0]]
    return plan


def _stem(name: str) -> str:
    """A system's name without its variant: `TRT-LLM-FP16` -> `trt`, `vLLM 0.6` -> `vllm`."""
    return re.split(r"[\s_-]", name.strip().lower(), maxsplit=1)[0]


_OURS = re.compile(
    r"^\W*(?:ours|our\s(?:method|system|engine|implementation)|proposed|本文|我们的?)\b", re.I
)
"""A column or row of the project's own numbers, named as such."""
_OURS_KEY = "ours"


def _own_key(label: str, project: str = "") -> _Key | None:
    """`Ours`, or the repository's own name (`ZhiLight` in zhihu/ZhiLight)."""
    if _OURS.match(label):
        return _Key("software", _OURS_KEY)
    if len(project) >= 4 and re.match(rf"\W*{re.escape(project)}(?![A-Za-z])", label, re.I):
        return _Key("software", _OURS_KEY)
    return None


def _others(plan: _Plan, labels: dict[int, str]) -> None:
    """Beside a column or row of the project's own numbers (`Ours`), the others named by
    a label the catalogue does not know (`HF`) are systems compared with it."""
    if not any(k.kind == "software" and k.value == _OURS_KEY for k in plan.keys.values()):
        return
    for i, label in labels.items():
        if (
            i not in plan.keys
            and 0 < len(label.split()) <= 3
            and not re.fullmatch(r"[\d.,\sKkMm]+", label)
            and not metric_words(label)
            and not _SUMMARY_ROW.search(label)
        ):
            plan.keys[i] = _Key("other", label.strip())


_SUMMARY_ROW = re.compile(r"increase|improvement|gain|ratio|average|mean|total|提升|平均", re.I)


def _unit_columns(rows: list[_Row], metric_columns: list[int]) -> list[int]:
    """The columns whose every number is a ratio of 1 (`1.00x`)."""
    found = []
    for c in metric_columns:
        values = [m for row in rows if c < len(row.metrics) for m in row.metrics[c]]
        if values and all(m.unit == "x" and abs(m.value - 1.0) < 1e-9 for m in values):
            found.append(c)
    return found


def _column_plan(
    head: list[str],
    columns: list[Conditions],
    metric_columns: list[int],
    stems: list[str],
    rows: list[_Row],
    project: str = "",
) -> _Plan:
    plan = _Plan()
    for c in metric_columns:
        key = _own_key(head[c], project) or _key(columns[c], head[c])
        if key is not None:
            plan.keys[c] = key
    _others(plan, {c: head[c] for c in metric_columns})
    for c in _unit_columns(rows, metric_columns):
        # `| ROCM_AITER_FA | ... |` over `| **1.00x** |` in every row: the reference
        plan.keys.setdefault(c, _Key("label", head[c]))
        plan.keys[c].ratio = 1.0
    named = _named({c: head[c] for c in metric_columns}, stems)
    return _choose(plan, len(metric_columns), named)


def _row_plan(
    rows: list[_Row], metric_columns: list[int], cat: Catalog, stems: list[str], project: str = ""
) -> _Plan:
    plan = _Plan()
    labels: dict[int, str] = {}
    for index, row in enumerate(rows):
        label = " ".join(
            c for i, c in enumerate(row.cells) if i not in metric_columns and c and i < 2
        )
        if not label:
            continue
        if row.has_metrics:
            labels[index] = label
        conditions = find_conditions(label, cat)
        if not conditions.precision and row.bits:
            conditions = conditions.model_copy(update={"precision": row.bits})
        key = _own_key(label, project) or _key(conditions, label, cat)
        ratios = [m.value for found in row.metrics for m in found if m.unit == "x"]
        ratio = ratios[0] if ratios and all(r == ratios[0] for r in ratios) else None
        if key is None and ratio is not None and abs(ratio - 1.0) < 1e-9:
            key = _Key("label", label)
        elif key is None and _PLAIN_WORD.match(label):
            key = _Key("label", label, reference_word=True)
        if key is not None:
            key.ratio = ratio
            plan.keys[index] = key
    _others(plan, labels)
    if not _precisions_compared(rows):
        plan.keys = {i: k for i, k in plan.keys.items() if k.kind != "precision"}
    named = _named(labels, stems)
    return _choose(plan, sum(1 for row in rows if row.has_metrics), named)


def _precisions_compared(rows: list[_Row]) -> bool:
    """Whether some model is measured at two precisions: `GLM-4.5 (BF16)` above
    `DeepSeek-V3.1 (FP8)` are two models, neither the other's reference."""
    by_model: dict[tuple[str, ...], set[tuple[str, ...]]] = {}
    for row in rows:
        if row.has_metrics:
            by_model.setdefault(tuple(row.own.model), set()).add(tuple(row.own.precision))
    return len(by_model) < 2 or any(len(found) > 1 for found in by_model.values())


# --------------------------------------------------------------------------- claims


def _row_claims(
    row: _Row,
    index: int,
    columns: list[Conditions],
    column_load: dict[int, dict[str, str]],
    by_column: _Plan,
    by_row: _Plan,
    head: list[str],
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
            elif not any(is_baseline_metric(m) for m in found):
                conditions = _compared(conditions, plan.keys.get(position), plan)
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


def _row_text(row: _Row, head: list[str]) -> str:
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


def _compared(conditions: Conditions, own: _Key | None, plan: _Plan) -> Conditions:
    """A number compared with the reference: its baseline, and for a speedup the precision."""
    update: dict[str, object] = {"baseline": plan.baselines}
    kinds = {plan.keys[i].kind for i in plan.references}
    if own is None and kinds == {"precision"} and not conditions.precision[1:]:
        others = {
            k.value
            for i, k in plan.keys.items()
            if i not in plan.references and k.kind == "precision"
        }
        if len(others) == 1:
            update["precision"] = sorted(others)
    if own is not None and own.kind == "precision":
        update["precision"] = [own.value]
    return conditions.model_copy(update=update)


def _as_reference(metric: Metric) -> Metric:
    if is_baseline_metric(metric):
        return metric
    return metric.model_copy(update={"name": f"{metric.name}{BASELINE_SUFFIX}"})


# --------------------------------------------------------------------------- cells


def _header_named(metric: Metric, head: str) -> Metric:
    """A cell's number with only a default name (`change`) takes its column's metric word."""
    if metric.name not in DEFAULT_METRIC_NAMES.values() or not metric_words(head):
        return metric
    name = _head_name(head)
    return metric.model_copy(update={"name": name}) if name else metric


def _head_name(head: str) -> str:
    """A column header without its units: `prefill tok/s` -> `prefill`."""
    name = re.sub(rf"\(?(?<![A-Za-z])(?:{UNIT_PATTERN})(?![A-Za-z])\)?|[↑↓]", " ", head)
    return re.sub(r"^of\s", "", " ".join(name.split()))


def _header_unit(head: str) -> str:
    bracketed: list[str] = _HEAD_UNIT_ANY_CASE.findall(head)
    if len(bracketed) > 1 or (bracketed and re.search(r"%\s*\(", head)):
        # `FTL(min)(s)`, `50%(s)`: the last unit in parentheses is the unit, what comes
        # before names the statistic (minimum, median)
        return canonical_unit(bracketed[-1])
    for match in _HEAD_UNIT.finditer(head):
        if match.group(1) in "xX×" and re.match(r"\d", head[match.end() : match.end() + 1]):
            continue  # `Mixtral-8x7B`, `16x9`: a count, not a ratio
        return canonical_unit(match.group(1))
    written = _HEAD_UNIT_ANY_CASE.search(head)  # `PyTorch (Sec)`, `Latency (MS)`
    return canonical_unit(written.group(1)) if written else ""


_HEAD_UNIT = re.compile(rf"(?<![A-Za-z])({UNIT_PATTERN})(?![A-Za-z])")
_HEAD_UNIT_ANY_CASE = re.compile(rf"\(\s*({UNIT_PATTERN})\s*\)", re.I)
_SCORE_HEAD = re.compile(
    r"^(?:PPL|perplexity|BLEU|WER|CER|accuracy|acc|score|F1|EM|ROUGE(?:-\w+)?|pass@\d+|"
    r"C-?MMLU|MMLU(?:-Pro)?|C-?Eval|GSM8K|HumanEval|MBPP|ARC(?:-[ce])?|HellaSwag|"
    r"Wino[Gg]rande|TruthfulQA|BBH|MATH|AGIEval|GAOKAO|CEval|LAMBADA|PIQA|BoolQ|"
    r"准确率|困惑度|得分|#?\s?(?:mean\s)?accept(?:ed|ance)\s(?:tokens|length|len|rate))$",
    re.I,
)
"""A column of scores: its bare numbers are measurements without a unit (`| PPL |`)."""


_TIMING_HEAD = re.compile(
    r"(?:mean|median|avg|average|p\d{2}|平均)?\s?(?:TTFT|TPOT|ITL|E2EL|E2E latency|latency|"
    r"首字延迟|首token延迟|延迟|时延|throughput|吞吐量?)"
    r"(?:\s?(?:mean|median|avg|average|p\d{2}(?:\.\d)?|平均))?$",
    re.I,
)
"""A column of timings or throughputs named without a unit (`TTFT Mean`, `P99 ITL`, `吞吐`)."""


def _is_score_head(head: str) -> bool:
    """`| MMLU |`, `| Accuracy (C-Eval dev) |`: a column of scores."""
    head = head.strip()
    if _SCORE_HEAD.fullmatch(head):
        return True
    parts = re.fullmatch(r"(.+?)\s*[(（]\s*(\S+)[^)）]*[)）]", head)
    return parts is not None and any(_SCORE_HEAD.fullmatch(p) for p in parts.groups())


def _row_unit(label: str) -> str:
    """A row label's unit: `bs=1, output token/s`, `Speedup`, `加速比`."""
    if re.fullmatch(r"\s*(?:speed-?up|加速比|加速)\s*", label, re.I):
        return "x"
    return _header_unit(label)


def _bare_cell(
    head: str, raw: str, previous: list[Metric], cat: Catalog, fallback: str = ""
) -> list[Metric]:
    ratio = re.search(r"speed-?up|加速比", head, re.I) is not None  # `FT <br/> Speedup`
    tokens = re.search(r"\(\s?tokens?\s?\)", head, re.I) is not None  # `Break-even (tokens)`
    unit = _header_unit(head) or ("x" if ratio else "tokens" if tokens else "")
    if not unit and not _is_score_head(head):
        unit = fallback  # a score column (`| MMLU |`) keeps no unit the section states
    name = _head_name(head)
    if not name or re.fullmatch(r"[\d.,]+[KkMm]?", name):
        # a column named by a load value (`| Seq Len | 256 | 512 |`): the unit names it
        name = DEFAULT_METRIC_NAMES.get(unit, "value")
    if unit:
        return [Metric(name=name, value=parse_number(raw), unit=unit)]
    if _is_score_head(head):
        return [Metric(name=head.strip(), value=parse_number(raw), unit="")]
    if _TIMING_HEAD.match(head):
        # `| TTFT Mean | TPOT P95 |` without a unit: a measurement all the same (issue #14)
        return [Metric(name=head.strip(), value=parse_number(raw), unit="")]
    names_system = bool(cat.names("software", head)) or re.search(r"baseline|基线|ref", head, re.I)
    if names_system and previous and previous[-1].unit:
        # a column named after another system holds the compared system's numbers
        system = "" if re.fullmatch(r"baseline|基线|ref(?:erence)?", head, re.I) else f"{head} "
        name = f"{previous[-1].name.removesuffix(BASELINE_SUFFIX)} ({system}baseline)"
        return [Metric(name=name, value=parse_number(raw), unit=previous[-1].unit)]
    return []
