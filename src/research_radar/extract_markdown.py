"""Markdown structure: a document -> segments, and a table row -> its text, metrics and load.

Pure. Internal to `research_radar.extract` (hence the empty `__all__`). A segment is a
heading or one statement: a sentence of prose or of a list item (tab-separated cells
split too), or a table row, which carries the header cells of its table. Fenced code
and table separator rows are skipped.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from .catalog import Catalog
from .extract_conditions import _conditions, _repeats
from .extract_metrics import _NUM, _UNIT_RE, _canonical_unit, _metrics, _value
from .models import Conditions, Metric

__all__: list[str] = []


@dataclass(frozen=True)
class _Segment:
    text: str
    line: int
    block: str
    """prose, list or table."""
    new_line: bool
    header: tuple[str, ...] = ()
    level: int = 0
    """Heading level: 1-6 for `#`, 7 for a bold-only line."""


def _segments(text: str) -> Iterator[_Segment]:
    """Statements of a document, with their line numbers and block kind."""
    header: tuple[str, ...] = ()
    in_fence = False
    lines = text.splitlines()
    for index, raw in enumerate(lines):
        number = index + 1
        stripped = raw.strip()
        if stripped.startswith(("```", "~~~")):
            in_fence = not in_fence
            continue
        if in_fence or not stripped:
            continue
        hashes = re.match(r"(#{1,6})\s", stripped)
        if hashes or re.fullmatch(r"\*\*[^*]{2,80}\*\*[:：]?", stripped):
            level = len(hashes.group(1)) if hashes else 7
            yield _Segment(_clean(stripped.lstrip("#")), number, "heading", True, level=level)
            continue
        if stripped.startswith("|"):
            cells = _cells(stripped)
            if all(re.fullmatch(r":?-{2,}:?", c) for c in cells if c):
                continue
            following = lines[index + 1].strip() if index + 1 < len(lines) else ""
            if re.fullmatch(r"\|?\s*:?-{2,}.*", following):
                header = tuple(_clean(c) for c in cells)
                yield _Segment(" ".join(header), number, "prose", True, header=header)
                continue
            yield _Segment(stripped, number, "table", True, header=header)
            continue
        header = ()
        block = "list" if re.match(r"(?:[-*+]|\d{1,2}[.)])\s", stripped) else "prose"
        first = True
        for cell in raw.split("\t"):
            for sentence in _sentences(_clean(cell)):
                yield _Segment(sentence, number, block, first)
                first = False


def _cells(row: str) -> list[str]:
    return [cell.strip() for cell in row.strip().strip("|").split("|")]


def _clean(text: str) -> str:
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = text.replace("**", "").replace("`", "")
    text = re.sub(r"^\s*(?:[-*+]|\d{1,2}[.)])\s+", "", text)
    return re.sub(r"\s+", " ", text).strip()


def _sentences(text: str) -> list[str]:
    parts = re.split(r"(?<=[。；！？;!?])\s*|(?<=[a-z0-9)\]*%])\.\s+(?=[A-Z(*\[])", text)
    return [part.strip() for part in parts if part and part.strip()]


_HEADER_LOAD = (
    ("context", re.compile(r"context|ctx|上下文|^T$", re.I)),
    ("prompt", re.compile(r"prompt|ISL|input len|T_pp", re.I)),
    ("output", re.compile(r"completion tokens|output tokens|OSL|output len", re.I)),
    ("batch", re.compile(r"^batch|^bs$", re.I)),
    ("concurrency", re.compile(r"concurrency|^conc", re.I)),
    ("runs", re.compile(r"^(?:samples|runs|repeats|n)$", re.I)),
)


def _table_row(segment: _Segment, cat: Catalog) -> tuple[str, list[Metric], Conditions]:
    cells = [_clean(c) for c in _cells(segment.text)]
    header = list(segment.header) + [""] * max(0, len(cells) - len(segment.header))
    text = "; ".join(f"{h}: {c}" if h else c for h, c in zip(header, cells, strict=False) if c)
    own = _conditions(" | ".join(cells), cat)
    load = dict(own.load)
    metrics: list[Metric] = []
    for head, cell in zip(header, cells, strict=False):
        role = next((key for key, rx in _HEADER_LOAD if rx.search(head)), None)
        bare = re.fullmatch(rf"[~≈]?({_NUM}[Kk]?)(?:\s?±.*)?[\s†*]*", cell)
        if role and bare and not _header_unit(head):
            load[role] = bare.group(1).replace(",", "")
            continue
        found = _metrics(cell, cat, own)
        if not found and bare:
            found = _bare_cell(head, bare.group(1).rstrip("Kk"), metrics, cat)
        metrics.extend(found)
    conditions = own.model_copy(update={"load": load, "repeats": _repeats(load)})
    return text, metrics, conditions


def _header_unit(head: str) -> str:
    match = re.search(rf"(?<![A-Za-z])({_UNIT_RE})(?![A-Za-z])", head)
    return _canonical_unit(match.group(1)) if match else ""


def _bare_cell(head: str, raw: str, previous: list[Metric], cat: Catalog) -> list[Metric]:
    unit = _header_unit(head)
    name = re.sub(rf"\(?(?:{_UNIT_RE})\)?", "", head).strip() or "value"
    if unit:
        return [Metric(name=name, value=_value(raw), unit=unit)]
    names_system = bool(cat.names("software", head)) or re.search(r"baseline|基线|ref", head, re.I)
    if names_system and previous and previous[-1].unit:
        return [
            Metric(name=f"{previous[-1].name} ({head})", value=_value(raw), unit=previous[-1].unit)
        ]
    return []
