"""Table cells that hold several numbers on lines of their own (`<br>`): each line read as a
cell (issue #14).

Pure. A building block of `research_radar.extract.tables`; callers outside this package
use `research_radar.extract.claims` instead.

`| 123.4<br>245.6 (+99.0%) |` under `Throughput (tok/s)` is two throughputs and a gain;
`| Total TPS: 3143.94<br>Mean TPOT(ms): 27.61 |` is two metrics, each named and given
its unit by its own label. Read whole, the cell would be one string of numbers without
units.
"""

from __future__ import annotations

import re

from research_radar.extract.catalogue import Catalog
from research_radar.extract.cells import bare_cell, head_name, header_unit, is_score_head
from research_radar.extract.markdown import clean_text, split_cells
from research_radar.extract.metrics import find_metrics
from research_radar.extract.units import DEFAULT_METRIC_NAMES, NUMBER_PATTERN, parse_number
from research_radar.models import Conditions, Metric

__all__ = ["broken_cells", "read_lines"]


_BREAK = re.compile(r"<br\s*/?>", re.I)
_LABELLED = re.compile(
    rf"(?P<label>[^\d:：=][^:：=]{{0,60}}?)\s*[:：=]\s*(?P<num>{NUMBER_PATTERN})"
)
"""`Total TPS: 3143.94`, `Mean TPOT(ms): 27.61`: a number its own label names."""
_LEADING = re.compile(rf"[~≈]?(?P<num>{NUMBER_PATTERN})(?![\d.])\s*(?:[(（]|$)")
"""`245.6 (+99.0%)`, `123.4`: a number first in its line, perhaps a note after it."""
_DIGIT = re.compile(r"\d")


def broken_cells(row: str) -> dict[int, list[str]]:
    """The lines of each cell of a Markdown table row that holds two or more, by column."""
    if "<br" not in row.lower():
        return {}
    broken: dict[int, list[str]] = {}
    for column, cell in enumerate(split_cells(row)):
        lines = [clean_text(part) for part in _BREAK.split(cell)]
        lines = [line for line in lines if line]
        if len(lines) > 1:
            broken[column] = lines
    return broken


def read_lines(
    lines: list[str],
    head: str,
    previous: list[Metric],
    cat: Catalog,
    own: Conditions,
    fallback: str,
) -> list[Metric]:
    """The numbers of a cell's lines, each line read as a cell of the column `head`."""
    found: list[Metric] = []
    score = ""
    """A line that names a score and no number (`RTF` over `0.817`): the next number's."""
    for line in lines:
        if score and (bare := _LEADING.fullmatch(line)):
            # `| RTF <br>0.817 |` under `RK3588 (FPS)`: the cell names its own measure
            found.append(Metric(name=score, value=parse_number(bare.group("num")), unit=""))
            score = ""
            continue
        score = line if not _DIGIT.search(line) and is_score_head(line) else ""
        labelled = _LABELLED.match(line)
        unit = header_unit(labelled.group("label")) if labelled else ""
        if labelled and unit:
            value = parse_number(labelled.group("num"))
            name = head_name(labelled.group("label")) or DEFAULT_METRIC_NAMES.get(unit, "value")
            found.append(Metric(name=name, value=value, unit=unit))
            found.extend(find_metrics(line[labelled.end() :], cat, own, head))
            continue
        leading = _LEADING.match(line)
        first = (
            bare_cell(head, leading.group("num"), [*previous, *found], cat, fallback)
            if leading
            else []
        )
        rest = line[leading.end("num") :] if leading and first else line
        found.extend([*first, *find_metrics(rest, cat, own, head)])
    return found
