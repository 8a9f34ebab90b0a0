"""One table cell -> its numbers: the unit and the metric name its column header or row
label gives a bare number (`| TTFT (ms) |`, `FTL(min)(s)`, `| MMLU |`, `| Speedup |`).

Pure. A building block of `research_radar.extract.tables`; callers outside this package
use `research_radar.extract.claims` instead.
"""

from __future__ import annotations

import re
from functools import lru_cache

from research_radar.extract.catalogue import Catalog
from research_radar.extract.compared import BASELINE_SUFFIX
from research_radar.extract.metrics import metric_words
from research_radar.extract.units import (
    DEFAULT_METRIC_NAMES,
    UNIT_PATTERN,
    canonical_unit,
    parse_number,
)
from research_radar.models import Metric

__all__ = [
    "bare_cell",
    "head_name",
    "header_named",
    "header_unit",
    "is_score_head",
    "names_metric",
    "row_unit",
]


def header_named(metric: Metric, head: str) -> Metric:
    """A cell's number with only a default name (`change`) takes its column's metric word."""
    if metric.name not in DEFAULT_METRIC_NAMES.values() or not metric_words(head):
        return metric
    name = head_name(head)
    return metric.model_copy(update={"name": name}) if name else metric


@lru_cache(maxsize=4096)
def head_name(head: str) -> str:
    """A column header without its units: `prefill tok/s` -> `prefill`.

    This and the other readings of a header are worked out once per header, not once
    per cell under it (issue #19). A unit written alone after the last comma closes the
    header: what stands before that comma is the name whole (`RPi Zero W (BCM2835), ms`
    -> `RPi Zero W (BCM2835)`, its `W` no unit)."""
    last = _UNIT_AFTER_COMMA.search(head)
    if last:
        return " ".join(re.sub(r"[↑↓]", " ", head[: last.start()]).split())
    name = re.sub(rf"[(（]?(?<![A-Za-z])(?:{UNIT_PATTERN})(?![A-Za-z])[)）]?|[↑↓]", " ", head)
    return re.sub(r"^of\s", "", " ".join(name.split()))


@lru_cache(maxsize=4096)
def header_unit(head: str) -> str:
    if _STATISTIC.fullmatch(head):
        return ""  # `| avg | min | max |` over a tool's statistics: `min` is no minute
    if "(per sec" in head:
        per_second = _PER_SECOND.search(head)  # `Output token throughput (per sec)`
        return (per_second.group(1).lower()[:3] + "/s") if per_second else ""
    last = _UNIT_AFTER_COMMA.search(head)
    if last:
        # `RPi Zero W (BCM2835), ms`: a unit written alone after the last comma is the
        # column's unit; a letter in the name before it (`W`, `A`) is none
        return canonical_unit(last.group(1) or last.group(2))
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


_STATISTIC = re.compile(r"\s*(?:min|max)\s*", re.I)
_PER_SECOND = re.compile(r"\b(token|request)s?\b.*\(per sec(?:ond)?\)", re.I)
"""`Output token throughput (per sec)`, `Request throughput (per sec)` (genai-perf)."""


_HEAD_UNIT = re.compile(rf"(?<![A-Za-z])(?<![A-Za-z]\d)({UNIT_PATTERN})(?![A-Za-z])")
"""A unit standing alone in a header, not the tail of a name (`YOLOv5s`, `Qwen2-7Bs`)."""


_HEAD_UNIT_ANY_CASE = re.compile(rf"\(\s*({UNIT_PATTERN})\s*\)", re.I)


_UNIT_AFTER_COMMA = re.compile(
    rf"[,，](?!\d)\s*(?:({UNIT_PATTERN})|[(（\[]\s*((?i:{UNIT_PATTERN}))\s*[)）\]])\s*$"
)
"""A header's unit written alone after its last comma: `RPi 3+ (BCM2837B0), ms`,
`Power, (W)`. Not `1,024`: a comma between digits is a thousands group."""


_SCORE_HEAD = re.compile(
    r"^(?:PPL|perplexity|BLEU|WER|CER|RTF|real[- ]time factor|accuracy|acc|score|F1|EM|ROUGE(?:-\w+)?|pass@\d+|"
    r"C-?MMLU|MMLU(?:-Pro)?|C-?Eval|GSM8K|HumanEval|MBPP|ARC(?:-[ce])?|HellaSwag|mAP|AP(?:50)?|"
    r"m?IoU|Top-?[15](?:\s?(?:acc(?:uracy)?|Acc))?|"
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


@lru_cache(maxsize=4096)
def is_score_head(head: str) -> bool:
    """`| MMLU |`, `| Accuracy (C-Eval dev) |`, `| INT8 mAP |`: a column of scores."""
    head = _PRECISION_PREFIX.sub("", head.strip())
    if _SCORE_HEAD.fullmatch(head):
        return True
    parts = re.fullmatch(r"(.+?)\s*[(（]\s*(\S+)[^)）]*[)）]", head)
    return parts is not None and any(_SCORE_HEAD.fullmatch(p) for p in parts.groups())


_PRECISION_PREFIX = re.compile(r"^(?:(?:FP|BF|INT|TF|W\d?A|FP8[-_]?)\d{1,2}\s?[+]?\s?)+", re.I)
"""`FP32 mAP`, `INT8 Top1`: the precision a score column was measured at, before its name."""


def names_metric(head: str) -> bool:
    """Whether a header cell names what its numbers measure: `Perplexity`, `Throughput`,
    `TTFT Mean`, `Latency (ms)`."""
    head = head.strip()
    return bool(head) and (
        is_score_head(head) or _TIMING_HEAD.match(head) is not None or bool(header_unit(head))
    )


@lru_cache(maxsize=4096)
def row_unit(label: str) -> str:
    """A row label's unit: `bs=1, output token/s`, `TTFT (ms)`, `Speedup`, `加速比`; not
    the tail of a name (`YOLOv5s`, `DetNet-s`)."""
    if re.fullmatch(r"\s*(?:speed-?up|加速比|加速)\s*", label, re.I):
        return "x"
    unit = header_unit(label)
    return unit if unit and _ROW_UNIT.search(label) else ""


_ROW_UNIT = re.compile(rf"(?:^|[\s,=(（/])(?:{UNIT_PATTERN})(?=$|[\s,;)）])", re.I)
"""A unit standing as a word of a row label."""


def bare_cell(
    head: str, raw: str, previous: list[Metric], cat: Catalog, fallback: str = ""
) -> list[Metric]:
    ratio = re.search(r"speed-?up|加速比", head, re.I) is not None  # `FT <br/> Speedup`
    tokens = re.search(r"\(\s?tokens?\s?\)", head, re.I) is not None  # `Break-even (tokens)`
    unit = header_unit(head) or ("x" if ratio else "tokens" if tokens else "")
    if not unit and not is_score_head(head):
        unit = fallback  # a score column (`| MMLU |`) keeps no unit the section states
    name = head_name(head)
    if not name or re.fullmatch(r"[\d.,]+[KkMm]?", name):
        # a column named by a load value (`| Seq Len | 256 | 512 |`): the unit names it
        name = DEFAULT_METRIC_NAMES.get(unit, "value")
    if unit:
        return [Metric(name=name, value=parse_number(raw), unit=unit)]
    if is_score_head(head):
        return [Metric(name=head.strip(), value=parse_number(raw), unit="")]
    if _TIMING_HEAD.match(head):
        # `| TTFT Mean | TPOT P95 |` without a unit: a measurement all the same (issue #14)
        return [Metric(name=head.strip(), value=parse_number(raw), unit="")]
    names_system = bool(cat.names("software", head)) or re.search(r"baseline|基线|ref", head, re.I)
    if names_system and previous and previous[-1].unit and _names_no_measure(head, cat):
        # a column named after another system holds the compared system's numbers
        system = "" if re.fullmatch(r"baseline|基线|ref(?:erence)?", head, re.I) else f"{head} "
        name = f"{previous[-1].name.removesuffix(BASELINE_SUFFIX)} ({system}baseline)"
        return [Metric(name=name, value=parse_number(raw), unit=previous[-1].unit)]
    return []


def _names_no_measure(head: str, cat: Catalog) -> bool:
    """Whether a header names a system and at most one word besides (`llama.cpp`, `vLLM
    (v0.6)`, `TRT-LLM baseline`), not a measurement of a system (`CUDA Graphs RTF` beside
    `Baseline RTF`: that column's numbers are its own, of a measure named by its words)."""
    rest = head
    for mention in reversed(cat.find("software", head)):
        rest = f"{rest[: mention.start]} {rest[mention.end :]}"
    rest = _NOT_A_MEASURE.sub(" ", rest)
    return len(re.findall(r"[^\W\d_]{2,}", rest)) <= 1


_NOT_A_MEASURE = re.compile(r"[(（\[].*?[)）\]]|\bv?\d[\w.]*|baseline|基线|ref(?:erence)?", re.I)
"""A header's version, bracketed note or reference word."""
