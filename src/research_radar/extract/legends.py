"""Legend tables: the devices behind the labels a results table's columns or rows use.

Pure. A building block of `research_radar.extract.claims`; callers outside this package
use `research_radar.extract.claims` instead.

Edge runtimes name their results' columns after a platform and say which device that was
in a second table (issue #14)::

    | model          | android(f16/32) | macos (f32)   |
    | qwen-1.8b-int4 | 100.21 / 22.22  | 84.85 / 19.93 |

    | os      | device           | CPU                        |
    | android | XiaoMi12         | Snapdragon 8gen1           |
    | macos   | MacBook Pro 2019 | Intel(R) Core(TM) i7-9750H |

A legend is a table whose first column holds distinct labels (words, not the values of a
setting) and whose other cells name a part on at least two rows; or two statements or more
that each say where the numbers of one label ran (`x64 tests were run on a PC with an AMD
Ryzen 7 9800X3D`, `RTX tests were run on a PC with NVIDIA GeForce RTX 5070 Ti GPU`), read
by columns headed by the label and the metric (`| x64 RTFx | RTX RTFx |`). Another table of the page with at least two column headers
(row labels) that are those labels, before any parenthesised note, takes the parts: the
header (label) is written with them, so its cells are read on them.
"""

from __future__ import annotations

import dataclasses
import re

from research_radar.extract.catalogue import Catalog
from research_radar.extract.markdown import Segment, clean_text, split_cells, table_indices

__all__ = ["with_legends"]

_NOTE = re.compile(r"\s*[(（\[].*$")
"""`android(f16/32)`, `macos (f32)`: the label before its note."""
_WORD = re.compile(r"[A-Za-z\u4e00-\u9fff]")


def with_legends(segments: list[Segment], cat: Catalog) -> list[Segment]:
    """The segments, with each label a legend explains written with its parts."""
    tables = [(rows[0], rows) for rows in table_indices(segments)]
    legends = [(at, parts) for at, rows in tables if (parts := _legend(segments, rows, cat))]
    if stated := _stated_legend(segments, cat):
        legends.append((-1, stated))
    if not legends:
        return segments
    out = list(segments)
    for at, rows in tables:
        for where, parts in legends:
            if where != at:
                _label(out, rows, parts)
    return out


def _key(label: str) -> str:
    return _NOTE.sub("", clean_text(label)).strip().lower()


def _legend(segments: list[Segment], rows: list[int], cat: Catalog) -> dict[str, list[str]]:
    """A legend's label -> the parts its row names ({} when the table is no legend)."""
    table = [split_cells(segments[i].text) for i in rows if segments[i].block == "table"]
    if any(len(cells) < 2 or not cells[0] for cells in table):
        return {}
    labels = [_key(cells[0]) for cells in table]
    if len(set(labels)) != len(labels) or not all(map(_WORD.search, labels)):
        return {}  # `| 16 | 1 x RTX 4090 |`: a setting's values, not labels
    listed = " ".join(labels)
    if cat.names("hardware", listed) or cat.names("model", listed):
        return {}  # the labels are parts or models themselves: a results table
    # the rows' parts last: one look-up of the labels rules out most tables, where a
    # look-up per row cost a results table as many reads of its rows (issue #19)
    parts: dict[str, list[str]] = {}
    for label, cells in zip(labels, table, strict=True):
        if names := cat.names("hardware", " | ".join(clean_text(c) for c in cells[1:])):
            parts[label] = names
    return parts if len(parts) >= 2 else {}


_RAN = re.compile(
    r"^(?P<label>[A-Za-z][\w.+-]{0,11})\s(?:tests?|results?|numbers|benchmarks?|runs?|"
    r"measurements?)\s(?:(?:were|was|are|is)\s)?(?:run|measured|made|done|performed|executed|"
    r"obtained|taken)\s(?:on|in|with|using)\s",
    re.I,
)
"""`x64 tests were run on ...`, `T4 results were obtained in Google Colab on ...`."""


def _stated_legend(segments: list[Segment], cat: Catalog) -> dict[str, list[str]]:
    """A label -> the parts the statement saying where its numbers ran names, when two
    labels at least are stated so ({} otherwise)."""
    parts: dict[str, list[str]] = {}
    for segment in segments:
        if segment.block not in ("list", "prose") or " " not in segment.text:
            continue
        ran = _RAN.match(segment.text.lstrip())
        if ran and (names := cat.names("hardware", segment.text.lstrip()[ran.end() :])):
            parts.setdefault(ran["label"].lower(), names)
    return parts if len(parts) >= 2 else {}


def _header_label(header: str, parts: dict[str, list[str]]) -> str:
    """The legend's label a header is, or begins a metric's name with (`x64 RTFx
    (int8)`), '' for none."""
    key = _key(header)
    if key in parts:
        return key
    first = key.split(maxsplit=1)
    return first[0] if len(first) == 2 and first[0] in parts else ""


def _label(segments: list[Segment], rows: list[int], parts: dict[str, list[str]]) -> None:
    """Write the parts into the table's headers, or else its row labels, that are labels
    of the legend (two at least)."""
    header = segments[rows[0]].header
    labels = [_header_label(h, parts) for h in header]
    named = [label for label in labels[1:] if label]
    if len(named) >= 2:
        new = tuple(
            f"{h} ({', '.join(parts[label])})" if label else h
            for h, label in zip(header, labels, strict=True)
        )
        for index in rows:
            segments[index] = dataclasses.replace(segments[index], header=new)
        return
    labelled = [i for i in rows if segments[i].block == "table" and _row_key(segments[i]) in parts]
    if len(labelled) < 2:
        return
    for index in labelled:
        segment = segments[index]
        cells = split_cells(segment.text)
        cells[0] = f"{cells[0]} ({', '.join(parts[_key(cells[0])])})"
        segments[index] = dataclasses.replace(segment, text="| " + " | ".join(cells) + " |")


def _row_key(segment: Segment) -> str:
    cells = split_cells(segment.text)
    return _key(cells[0]) if cells else ""
