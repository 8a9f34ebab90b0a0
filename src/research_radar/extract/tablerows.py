"""A table row -> its numbers per column, and the load its cells or the header give.

Pure. A building block of `research_radar.extract.tables`; callers outside this package
use `research_radar.extract.claims` instead. A cell's number takes its unit from the cell,
its column header, its row label, the caption or the paragraph above the table; a cell
under a load column (`| Batch | ... |` over `| 8 |`) is the row's load, not a number.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
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
from research_radar.extract.conditions import find_conditions, format_repeats
from research_radar.extract.markdown import Segment
from research_radar.extract.metrics import find_metrics, metric_words
from research_radar.extract.prefilter import NeedleIndex, probe_of
from research_radar.extract.references import Row
from research_radar.extract.regexneedles import needles_of
from research_radar.extract.units import NUMBER_PATTERN, parse_number
from research_radar.models import Metric

__all__ = ["header_load", "read_row"]


_MEAN = r"(?:(?:avg\.?|average|mean)[ _]|平均)?"
"""`| Avg Input | Avg Output |`: a run's mean lengths, as serving benchmarks print them, are
its prompt and output lengths (issue #14)."""
_HEADER_LOAD = (
    (
        "context",
        # `seqlen_kv`, `seqlen_k`, `kv_seq_len`: the keys' length an attention kernel reads
        # (the rules' reading of `seqlen_kv=4096`, `extract.loadrules`), not its queries'
        re.compile(
            r"context|ctx|上下文|^T$|^kv[ _]?(?:cache[ _]?|seq(?:uence)?[ _]?)?len|"
            r"seq(?:uence)?[ _]?len(?:gth)?[ _](?:kv|k)\b",
            re.I,
        ),
    ),
    (
        "output",
        re.compile(
            r"completion tokens|output tokens|OSL|output[ _]?(?:seq(?:uence)?[ _]?)?len|"
            r"(?:decode|generation|gen)[ _]len|输出(?:长度|token|词元)|"
            r"^"
            + _MEAN
            + r"(?:output|out|gen|gen(?:erated)?[ _]tokens|generated|(?:max[ _])?new[ _]tokens|"
            r"max[ _]tokens|输出)(?:\s?\(tokens?\))?$",
            re.I,
        ),
    ),
    (
        "prompt",
        re.compile(
            # not `num_prompts`, `# prompts`: how many requests, no length
            r"(?<!num[ _])(?<!number of )(?<!#)(?<!# )prompt(?!s\b)|ISL|input[ _]?(?:seq(?:uence)?[ _]?)?len|"
            r"input tokens|prefill[ _]len|T_pp|seq(?:uence)?[ _]?len|输入(?:长度|token|词元)|"
            r"^" + _MEAN + r"(?:input|in|输入)(?:\s?\(tokens?\))?$",
            re.I,
        ),
    ),
    (
        "batch",
        re.compile(
            r"^batch|\bbatch[ _-]?size|^bsz?$|^micro[ _]?b(?:atch[ _]?)?s(?:ize|z)$|批(?:处理|量)?大小|批次",
            re.I,
        ),
    ),
    (
        "concurrency",
        re.compile(
            r"concurrency|^conc|并发|^#?\s?concurrent|^(?:users|clients|streams)$|"
            r"^(?:#\s?|num(?:ber of)?[ _])(?:users|clients)$|^parallel[ _]requests$",
            re.I,
        ),
    ),
    (
        "gpus",
        re.compile(
            r"^(?:#\s?(?:of\s)?|num(?:ber of)?[_ ]?)(?:GPUs?|cards?)$|^world[ _]size$|^(?:GPUs?|cards?)[_ ]?(?:num(?:ber)?s?|count|#)$|"
            r"^(?:GPUs|NPUs|cards)$|nproc[_-]per[_-]node|"
            r"显卡数量?|卡数|(?:GPU|NPU)\s?数",
            re.I,
        ),
    ),
    ("tp", re.compile(r"^TP(?:[\s_]?(?:size|degree))?$|tensor[_ ]parallel|张量并行", re.I)),
    ("ep", re.compile(r"#\s?EP\b|^EP(?:\s?size)?$|expert[_ ]parallel", re.I)),
    (
        "rate",
        re.compile(
            r"^(?:QPS|RPS|(?:request|arrival)[_ ]rate)(?:\s?\((?:req(?:uest)?s?/s|QPS|RPS)\))?$",
            re.I,
        ),
    ),
    ("runs", re.compile(r"^(?:samples|runs|repeats|n)$", re.I)),
)
_OWN_VALUE = re.compile(r"(?<![\w.])\d+(?:\.\d+)?[Kk]?(?![\w.])")
"""`| 4K context |`: a header that writes its own load value names no column of values."""
_RATE_HEAD = re.compile(r"(?:request|arrival)[_ ]rate\b", re.I)
"""`Request rate (req/s)`: the rate sent, whose unit is no measurement's."""
_HEADER_LOAD_INDEX = NeedleIndex(needles_of(rx.pattern, rx.flags) for _key, rx in _HEADER_LOAD)
LOAD_CELL = re.compile(
    r"(?:(?:bsz?|conc|c|n|tp|ep|pp|tg|isl|osl)\s?[=:]?\s?|[A-Za-z]{1,3}\s?[=:]\s?)?"
    r"[~≈]?((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?[Kk]?)(?:\s?±.*)?"
    r"(?:\s?(?:tokens?|toks?|t))?[\s†*]*",
    re.I,
)
"""A load cell: `1024`, `2K`, `2,048 t`, and `c4`, `bs8`, `b=8` under a load column's header
(not `H200`, `B200`: a part's name)."""
_LOAD_OVER = re.compile(r"(\d[\d,]*[Kk]?) (?![\d.])[A-Za-z\u4e00-\u9fff].*")
"""`| Batch size | 1 | | 8 | |` over `| | vLLM | SGLang | vLLM | SGLang |`: the merged header
`1 vLLM` is batch 1's column of vLLM."""


def _load_over(head: list[str], column: int) -> re.Match[str] | None:
    """`1 vLLM` when another column is `8 vLLM`: a value of the corner's load over the
    names below it (a group header merged with its subheader), not `6 节点, BF16` beside
    `3 节点, FP8`: labels that hold a count."""
    found = _LOAD_OVER.fullmatch(head[column])
    if found is None:
        return None
    value, rest = found.group(1), head[column][found.end(1) :]
    for other in (h for c, h in enumerate(head) if c and c != column):
        over = _LOAD_OVER.fullmatch(other)
        if over and over.group(1) != value and other[over.end(1) :] == rest:
            return found
    return None


_BARE = re.compile(rf"[~≈]?({NUMBER_PATTERN}[Kk]?)(?:\s?±.*)?[\s†*\\]*(?:\([^()]*\))?")
"""A number alone in its cell, perhaps with a spread or a note: `25.12 (2 on GPU)`."""
_PAIR_CELL = re.compile(rf"({NUMBER_PATTERN})\s?/\s?({NUMBER_PATTERN})")
_LEAD_NUMBER = re.compile(rf"[~≈]?({NUMBER_PATTERN})(?=\s?[(（])")
_SIZE_CELL = re.compile(r"(?<![\w.-])([A-Za-z][\w.-]*) \| (\d+(?:\.\d+)?[BbMm])(?= \||$)")
_BITS_HEAD = re.compile(r"w?bits?|bit[- ]?width|#\s?bits|位宽|量化位数", re.I)
"""A column of bit widths: each row's precision."""

_IO_HEAD = re.compile(
    r"ISL\s?/\s?OSL|input\s?/\s?output|(?<![A-Za-z])in\s?/\s?out(?![A-Za-z])|"
    r"prompt\s?/\s?(?:output|gen\w*|completion|decode)|(?:input|prompt) ?(?:len\w*)?\s?/\s?"
    r"(?:output|gen\w*) ?(?:len\w*)?|输入(?:长度)?\s?/\s?输出|"
    r"\(\s?(?:ISL|input|prompt|in)(?: ?(?:len\w*|tokens))?\s?[,，]\s?"
    r"(?:OSL|output|gen\w*|out|completion)(?: ?(?:len\w*|tokens))?\s?\)|"
    r"\(\s?输入(?:长度)?\s?[,，]\s?输出(?:长度)?\s?\)",
    re.I,
)
"""A column of a prompt and an output length in each cell (`| ISL/OSL |` over `| 1k/128 |`,
`| (input, output) |` over `| (128, 2048) |`)."""
_IO_CELL = re.compile(
    r"(\d[\d,]*[Kk]?)\s?/\s?(\d[\d,]*[Kk]?)|\(\s?(\d+[Kk]?)\s?[,，]\s?(\d+[Kk]?)\s?\)"
)


_ALL_AT_ONCE = re.compile(r"\s*(inf)\s*", re.I)
"""`| inf |` under a rate: every request sent at once (vLLM's and SGLang's `--request-rate
inf`), a rate as the tools write it."""


def _swept(role: str, column: int) -> bool:
    """`| RPS | TTFT |` over `| 4 | 65.7 |`: request rates in a table's first column label
    its rows, the rate each was run at (elsewhere a QPS column is a measurement)."""
    return role == "rate" and column == 0


def _lengths(match: re.Match[str]) -> bool:
    """`1024/128`, `2k/256` as a row's label: two token counts (each a `K` or a multiple of
    64), a prompt's and an output's, not a ratio (`1/8`) or a pair of measurements."""
    return all(
        g[-1] in "Kk" or (int(g) >= 64 and int(g) % 64 == 0)
        for g in (g.replace(",", "") for g in match.groups() if g)
    )


def _io_pair(match: re.Match[str]) -> dict[str, str]:
    """The prompt and output lengths of an `_IO_CELL` match (`1k/128`, `(128, 2048)`)."""
    prompt, output = (g.replace(",", "") for g in match.groups() if g)
    return {"prompt": prompt, "output": output}


_GPU_HEAD = re.compile(r"^(?:GPUs?|graphics card|card|hardware|device|显卡|硬件|设备|卡型)$", re.I)
_CARD = re.compile(r"[1-5]0[5-9]0(?:\s?Ti)?(?:\s?SUPER)?", re.I)
"""`| GPU | ... |` over `| 4060 |`: a GeForce written by its number under a GPU column."""

_GPU_COUNT_HEAD = re.compile(r"(\d{1,4})\s?[x×]?\s?(?:GPUs?|cards?|卡|张卡)", re.I)


def header_load(head: list[str]) -> dict[int, dict[str, str]]:
    """`| Seq Len | 256 | 512 |`: each column's load value, when the header holds them."""
    counted = {c: _GPU_COUNT_HEAD.fullmatch(h) for c, h in enumerate(head) if c}
    gpus = {c: {"gpus": m.group(1)} for c, m in counted.items() if m}
    if len(gpus) >= 2:
        return gpus  # `| | 1 GPU | 2 GPU | 4 GPU |`, `| 单卡 | 8卡 |`
    pairs = {c: _IO_CELL.fullmatch(h) for c, h in enumerate(head) if c}
    both = {c: _io_pair(m) for c, m in pairs.items() if m}
    if len(both) >= 2 and (
        _IO_HEAD.search(head[0]) or all(_lengths(m) for m in pairs.values() if m)
    ):
        # `| ISL/OSL | 128/128 | 2048/128 |`; `| Model | 128/2048 | 2048/128 |`: token
        # counts (`_lengths`) over each column, as a row label writes them
        return both
    role = load_role(head[0]) if head else None
    if role is None:
        return {}
    values = {c: LOAD_CELL.fullmatch(h) or _load_over(head, c) for c, h in enumerate(head) if c}
    found = {c: m.group(1).replace(",", "") for c, m in values.items() if m}
    if len(found) < 2:
        return {}
    return {c: {role: value} for c, value in found.items()}


@lru_cache(maxsize=4096)
def load_role(head: str) -> str | None:
    """The load a column header names (`Seq Len`: prompt), read once per header (#19)."""
    alive = _HEADER_LOAD_INDEX.candidates(probe_of(head))  # the rules that could match
    return next((_HEADER_LOAD[n][0] for n in alive if _HEADER_LOAD[n][1].search(head)), None)


def read_row(
    segment: Segment,
    head: list[str],
    cells: list[str],
    cat: Catalog,
    extra: Mapping[int, list[Metric]] | None = None,
) -> Row:
    """One row's numbers per column; cells under a load column become load.

    `extra` holds, per column, numbers read by something other than these rules (the
    number reader): they join the column's numbers, so the row's and the table's
    conditions and references hold for them as for the rules' own (issue #14)."""
    header = head + [""] * max(0, len(cells) - len(head))
    # `| Mistral | 7B |`: a model and its size in two cells name `Mistral-7B`
    named = [
        f"{c} GPU" if _CARD.fullmatch(c) and _GPU_HEAD.search(h) else c
        for h, c in zip(header, cells, strict=False)
    ]
    own = find_conditions(_SIZE_CELL.sub(r"\1-\2", " | ".join(named)), cat)
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
        if (pair := _IO_CELL.fullmatch(cell)) and (
            _IO_HEAD.search(name) or (not column and _lengths(pair) and not header_unit(name))
        ):
            load.update(_io_pair(pair))
            per_column.append([])
            continue
        role = load_role(name) if not _OWN_VALUE.search(name) else None
        as_load = LOAD_CELL.fullmatch(cell) or (
            _ALL_AT_ONCE.fullmatch(cell) if role == "rate" else None
        )
        if (
            role
            and as_load
            and (not header_unit(name) or _RATE_HEAD.match(name) or _swept(role, column))
        ):
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
            if not found and segment.score and column and not header_load(head[:1] + [name]):
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
    for column, metrics in (extra or {}).items():
        if column < len(per_column):
            have = {m.value for m in per_column[column]}
            per_column[column].extend(m for m in metrics if m.value not in have)
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
