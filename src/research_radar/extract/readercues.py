"""The numbers the rules left in tables, as candidates for the number reader: each with the
cues a linear model weighs (what its column header, row label and neighbours say, what it
looks like) and the unit and metric name it would carry if read as a measurement; and the
cues a table cell and a sentence share (`extract.prosecues` reads sentences).

Pure. A building block of `research_radar.extract.reader`; callers outside this package
use `research_radar.extract.claims` instead. Cues are plain strings (`h:latency`,
`u:ms`, `year`); the reader hashes them into its weight vector, so a cue never seen in
training weighs nothing (issue #14).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from research_radar.extract.cells import head_name, header_unit, row_unit
from research_radar.extract.durations import duration_spans
from research_radar.extract.markdown import Segment, clean_text, split_cells
from research_radar.extract.metrics import metric_words
from research_radar.extract.units import (
    DEFAULT_METRIC_NAMES,
    NUMBER_PATTERN,
    UNIT_PATTERN,
    canonical_unit,
    number_start,
    parse_number,
    part_number,
)

__all__ = [
    "LOAD_WORDS",
    "Candidate",
    "not_a_reading",
    "shape_cues",
    "table_candidates",
    "unit_after",
    "word_cues",
]


@dataclass(frozen=True)
class Candidate:
    """One written number the reader may take as a measurement."""

    line: int
    raw: str
    """The number as written (`1,234.5`): its value is always a number of the input."""
    unit: str
    """The unit it would be read with: its own, its column's, its row's, the table's."""
    name: str
    """The metric name it would be read with: its column header or the words near it."""
    cues: tuple[str, ...]
    taken: bool = False
    """The rules read this number already (only listed when training)."""
    row: int = -1
    """Its row in the table's data rows (-1 in prose)."""
    column: int = -1

    @property
    def value(self) -> float:
        return parse_number(self.raw)


_NUMBER = re.compile(NUMBER_PATTERN)
_UNIT_AFTER = re.compile(rf"\s?({UNIT_PATTERN})(?![A-Za-z])")
_BARE = re.compile(rf"[~≈<>]?\s?{NUMBER_PATTERN}\s?[*†\\]*")
_WORD = re.compile(r"[a-z][a-z0-9@]*(?:[-/][a-z0-9]+)*|[\u4e00-\u9fff]{1,2}")
_SIZE_AFTER = re.compile(r"\s?[BbMmKk](?![A-Za-z])|\s?(?:GB|GiB|MB|TB)\b")
LOAD_WORDS = re.compile(
    r"batch|bs\b|seq|len|input|output|prompt|context|concurren|gpus?\b|cards?|tp\b|"
    r"steps?|epoch|size|params?|layers?|heads?|dim|rank|bits?|并发|长度|批|卡数|步数|参数",
    re.I,
)
# `2x B70`, `8 × H100`, `4 GPUs`, `8卡`: how many devices, a condition, never a measurement
_COUNT_OF = re.compile(
    r"\s?[x×X]?\s?(?:[A-Z]{1,4}\d|GPUs?\b|cards?\b|nodes?\b|卡|张|台|节点)|\s?[x×X]\s[A-Z]"
)
_CLOCK = re.compile(r"\s?[GMk]Hz\b")
"""`@2.84GHz`: a clock rate is part of the hardware's name, a condition."""
_SPEEDUP = re.compile(r"speed-?up|加速比|倍数", re.I)


def word_cues(text: str, prefix: str, limit: int = 8, *, last: bool = False) -> list[str]:
    """The first (or `last`) words of a text, lower case, each prefixed."""
    words = _WORD.findall(text.lower())
    chosen = words[-limit:] if last else words[:limit]
    return [f"{prefix}{w}" for w in chosen]


def shape_cues(raw: str, after: str, before: str) -> list[str]:
    """What the number looks like: a year, a power of two, a size in a name, a version."""
    value = abs(parse_number(raw))
    if not math.isfinite(value) or value > 1e15:
        return ["huge"]  # `1e400` is no float; a digit string that long is no measurement
    plain = raw.replace(",", "").lstrip("-+−")
    decimals = len(plain.split(".")[1]) if "." in plain else 0
    cues = [
        f"dec{min(decimals, 3)}",
        f"mag{min(max(int(math.log10(value)) if value else -9, -3), 6)}",
    ]
    if not decimals and 1990 <= value <= 2035:
        cues.append("year")
    if not decimals and value >= 1 and value == 2 ** round(math.log2(value)):
        cues.append("pow2")
    if _SIZE_AFTER.match(after):
        cues.append("size")
    if before.endswith(("-", "_", "v", "V", "/", ":", "#", "@")):
        cues.append(f"glued{before[-1]}")
    if after.startswith(("-", "_", "/", ":")) and after[1:2].isalnum():
        cues.append(f"gluedafter{after[0]}")
    if after.startswith(("x", "×", "X")) and after[1:2].isdigit():
        cues.append("dims")  # `8x7B`, `16x9`
    if raw.startswith(("-", "−")):
        cues.append("neg")
    if before.rstrip().endswith(("(", "（")):
        cues.append("paren")
    return cues


def unit_after(after: str) -> str:
    match = _UNIT_AFTER.match(after)
    return canonical_unit(match.group(1)) if match else ""  # canonical_unit caches spellings


def _bucket(share: float) -> str:
    return "0" if share <= 0 else "1" if share >= 1 else str(min(int(share * 4), 3))


# --------------------------------------------------------------------------- tables


def _grid(header: Sequence[str], rows: Sequence[Segment]) -> tuple[list[str], list[list[str]]]:
    """The header (with header rows before the first number merged into it) and the
    cleaned cells of the data rows."""
    head = [clean_text(h) for h in header]
    cells = [[clean_text(c) for c in split_cells(r.text)] for r in rows]
    data: list[list[str]] = []
    for row in cells:
        if not data and not any(_NUMBER.search(c) for c in row[1:]) and len(row) > 1:
            width = max(len(head), len(row))
            head = [*head, *[""] * (width - len(head))]
            padded = [*row, *[""] * (width - len(row))]
            head = [f"{h} {c}".strip() if c != h else h for h, c in zip(head, padded, strict=True)]
            data.append([])  # a header row: keeps the row index of the segments
            continue
        data.append(row)
    return head, data


def table_candidates(
    header: Sequence[str],
    rows: Sequence[Segment],
    taken: dict[int, Counter[float]],
    *,
    everything: bool = False,
) -> list[Candidate]:
    """The numbers of a table's cells, with their cues.

    Args:
        header: the header cells.
        rows: the table's row segments.
        taken: per line, the values the rules read there (each taken once).
        everything: list the numbers the rules read too (marked `taken`), for training.
    """
    head, data = _grid(header, rows)
    width = max([len(head), *(len(r) for r in data)])
    head += [""] * (width - len(head))
    numeric = Counter[int]()
    read = Counter[int]()
    filled = Counter[int]()
    left = {line: Counter(values) for line, values in taken.items()}
    marks: list[list[list[tuple[str, int, bool]]]] = []
    for segment, row in zip(rows, data, strict=True):
        counts = left.get(segment.line, Counter())
        row_marks = []
        for column, cell in enumerate(row):
            found = []
            for match in _NUMBER.finditer(cell):
                start = number_start(cell, match.start())  # `5%-30%`: 30
                value = parse_number(cell[start : match.end()])
                hit = counts[value] > 0
                if hit:
                    counts[value] -= 1
                found.append((cell[start : match.end()], start, hit))
            if cell:
                filled[column] += 1
            if found and _BARE.fullmatch(cell):
                numeric[column] += 1
            if any(hit for _, _, hit in found):
                read[column] += 1
            row_marks.append(found)
        marks.append(row_marks)
    rows_count = max(1, sum(1 for r in data if r))
    column_cues = [_column_cues(h, column) for column, h in enumerate(head)]
    names: dict[tuple[int, str, str], str] = {}
    """The metric name per column, row label and unit: worked out once per table."""
    candidates: list[Candidate] = []
    for index, (segment, row, row_marks) in enumerate(zip(rows, data, marks, strict=True)):
        label = row[0] if row else ""
        label_cues = word_cues(label, "r:", 6) + (["r:empty"] if not label else [])
        labelled: list[str] | None = None  # what the label is, read at the row's first number
        row_read = sum(1 for m in row_marks if any(hit for _, _, hit in m))
        for column, (cell, found) in enumerate(zip(row, row_marks, strict=False)):
            if column in segment.copies:
                continue  # a `colspan` cell's numbers are its first column's
            own_read = int(any(hit for _, _, hit in found))  # the others' reading only
            column_read = (read[column] - own_read) / max(1, numeric[column] - own_read)
            others = sum(read.values()) - own_read > 0
            spans = duration_spans(cell)
            for raw, start, hit in found:
                after, before = cell[start + len(raw) :], cell[:start]
                if hit and not everything or not_a_reading(after, start, spans, before, raw):
                    continue
                own = unit_after(after)
                unit = own or _table_unit(head[column], label, segment.unit, column)
                if labelled is None:
                    labelled = _label_cues(label)
                cues = [
                    "t",
                    *column_cues[column],
                    *label_cues,
                    *shape_cues(raw, after, before),
                    f"ncol{_bucket(numeric[column] / rows_count)}",
                    f"rcol{_bucket(column_read)}",
                    f"rrow{_bucket((row_read - own_read) / max(1, len(row) - 1))}",
                    "rtable" if others else "rnone",
                    f"u:{unit}" if unit else "nounit",
                    f"own:{own}" if own else ("bare" if _BARE.fullmatch(cell) else "mixed"),
                    "sunit" if segment.unit else "",
                    "score" if segment.score else "",
                    "multi" if len(found) > 1 else "",
                    *labelled,
                ]
                name = names.get((column, label, unit))
                if name is None:
                    name = names[column, label, unit] = _table_name(
                        head[column], head[0], label, unit
                    )
                candidates.append(
                    Candidate(
                        segment.line,
                        raw,
                        unit,
                        name,
                        tuple(c for c in cues if c),
                        hit,
                        index,
                        column,
                    )
                )
    return candidates


def _label_cues(label: str) -> list[str]:
    """What a row label is: a number, a unit, a metric's name."""
    return [
        "label:num" if _BARE.fullmatch(label) else "",
        "label:unit" if row_unit(label) else "",
        "label:metric" if metric_words(label) else "",
    ]


def not_a_reading(
    after: str, start: int, durations: Sequence[tuple[int, int]], before: str = "", raw: str = ""
) -> bool:
    """A device count (`2x B70`, `8 GPUs`), a clock rate (`@2.84GHz`), a side of a
    dimension (`768x768`, `1360 * 768`, `8x7B`), a part of a compound duration (`23` of
    `2m23s`, which the rules read whole) or the model number `raw` of a part (`Ryzen 9
    5950X`): never a claim."""
    return (
        _COUNT_OF.match(after) is not None
        or part_number(before, raw, after)
        or _CLOCK.match(after) is not None
        or _DIMENSION_AFTER.match(after) is not None
        # (a match ends `before`, and spans 5 characters at most: looked for there)
        or _DIMENSION_BEFORE.search(before, len(before) - 5) is not None
        or any(low <= start < high for low, high in durations)
    )


_DIMENSION_AFTER = re.compile(r"\s?[x×*]\s?\d")
_DIMENSION_BEFORE = re.compile(r"\d\s?[x×*]\s?$")


def _column_cues(head: str, column: int) -> list[str]:
    cues = word_cues(head, "h:") or ["h:empty"]
    cues.append("first" if column == 0 else "later")
    if header_unit(head):
        cues.append("hunit")
    if LOAD_WORDS.search(head):
        cues.append("hload")
    if metric_words(head):
        cues.append("hmetric")
    if _NUMBER.fullmatch(head.strip().rstrip("Kk")):
        cues.append("hnum")
    return cues


def _table_unit(head: str, label: str, stated: str, column: int) -> str:
    if column and _SPEEDUP.search(head):
        return "x"
    return header_unit(head) or (row_unit(label) if column else "") or stated


def _table_name(head: str, corner: str, label: str, unit: str) -> str:
    name = head_name(head)
    if metric_words(label) and not metric_words(head):
        name = head_name(label)
    elif not name or _NUMBER.fullmatch(name.rstrip("Kk")):
        name = head_name(corner) if metric_words(corner) else ""
    return name or DEFAULT_METRIC_NAMES.get(unit, "value")
