"""Device roles: the part a set-up names for `CPU` or `GPU` (`CPU为Intel Xeon Gold 6271C`,
`GPU: Tesla T4`), taken by the table rows that say only which of them they ran on
(`| YOLOv5s | ONNX Runtime | CPU | 176.41 |`).

Pure. A building block of `research_radar.extract.claims`, which callers outside this
package use instead. Deployment pages benchmark one model on the CPU and on the GPU of
one machine and name the two parts once; a row's bare `CPU` is that part, not the GPU the
page's set-up names too (issue #14).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Mapping, Sequence

from research_radar.extract.catalogue import Catalog
from research_radar.extract.markdown import Segment
from research_radar.extract.prefilter import probe_of
from research_radar.extract.screened import finditer
from research_radar.models import Claim, ClaimKind, Metric

__all__ = ["find_roles", "with_device_classes", "with_roles"]


_ROLE = re.compile(
    r"(?<![A-Za-z])(CPU|GPU|NPU)(?:\s?(?:为|是|[:：=]|is\b|was\b)|\s[-–—]{1,2}(?=\s)|"
    r"\s(?:benchmarks?|tests?|results?|numbers)\s(?:are|were|was|is)\s(?:\S+\s){0,4}?"
    r"(?:on|using)\s(?:an?\s|the\s)?)\s?",
    re.I,
)
"""`CPU为...`, `GPU: ...`, a list of a machine's parts written with dashes (`CPU - AMD
Ryzen 5 5600X`, `GPU - Nvidia GeForce RTX 3060 Ti`), and a note on where a class's numbers
ran (`GPU Benchmarks are Executed with CUDA 12.4 on a NVIDIA RTX 3070 Ti`)."""
_ROLE_CELL = re.compile(r"(?:^|;\s)(?:[^;:]{0,30}:\s)?(CPU|GPU|NPU)(?=;|$)", re.I)
"""A row cell that holds only a device role (`部署硬件: CPU`)."""
_NEAR = 24
"""The part must be named this close after the role's word (`CPU为Intel(R) Xeon(R) ...`)."""


def find_roles(segments: list[Segment], cat: Catalog) -> dict[str, str]:
    """Role (`CPU`, `GPU`, `NPU`) -> the part a statement of the document names for it."""
    roles: dict[str, str] = {}
    for segment in segments:
        if segment.block not in ("prose", "list"):
            continue
        for match in finditer(_ROLE, probe_of(segment.text)):  # where CPU, GPU or NPU is
            mentions = cat.find("hardware", segment.text[match.end() : match.end() + 80])
            if mentions and mentions[0].start <= _NEAR:
                roles.setdefault(match.group(1).upper(), mentions[0].name)
    return roles


def with_roles(claim: Claim, roles: dict[str, str]) -> Claim:
    """The claim with the part of the device role its row names, if the document names
    one for that role."""
    cell = _ROLE_CELL.search(claim.text)
    part = roles.get(cell.group(1).upper()) if cell else None
    if not part or claim.conditions.hardware == [part]:
        return claim
    conditions = claim.conditions.model_copy(update={"hardware": [part]})
    return claim.model_copy(update={"conditions": conditions})


_CLASS_WORD = re.compile(r"(?<![A-Za-z])(CPU|GPU|NPU)(?![A-Za-z])", re.I)
_NOT_WHERE = re.compile(r"mem|usage|util|显存|内存|占用|利用率|count|数量|cores?\b|核", re.I)
"""`Peak GPU memory`, `GPU util`, `CPU cores`: what a device holds or uses, not where the
number ran."""
_LEADING = re.compile(r"^\W{0,4}(CPU|GPU|NPU)\s(?:\w+\s?)?[:：]", re.I)
"""`- CPU INT8: 85.0ms per passage`: a statement keyed by the device it ran on."""


def with_device_classes(
    claims: list[Claim],
    title: str = "",
    roles: Mapping[str, str] | None = None,
    headings: Sequence[Segment] = (),
) -> list[Claim]:
    """The claims, those with no part given the class of device (`CPU`, `GPU`, `NPU`) they
    ran on where the page names it instead of a part: a row's columns headed by two
    classes or more (`| Online CPU Infer | Online GPU Infer |`: each column's), a row that
    names only its device role (`| Device | ... |` / `| CPU |`, with no part named for
    it) or a statement keyed by it (`- CPU INT8: 85.0ms`), the nearest heading above it
    that names one class (`### Small model on CPU`), or the page's title naming one class (`... vs whisper.cpp — CPU benchmark`):
    the part the page names for the class (`roles`, `find_roles`), or the class itself.
    Issue #14: a page that names no part still says where its numbers ran."""
    whole = _one_class(title)
    lines, sections = _section_classes(headings)
    out: list[Claim] = []
    for claim in claims:
        if claim.conditions.hardware or not claim.metrics or claim.kind != ClaimKind.PERFORMANCE:
            out.append(claim)
            continue
        above = bisect_left(lines, claim.line or 0) - 1  # the last heading above the claim
        section = sections[above] if above >= 0 else ""
        out.extend(_by_class(claim, section or whole, roles or {}))
    return out


def _section_classes(headings: Sequence[Segment]) -> tuple[list[int], list[str]]:
    """Each heading's line, and the class the innermost heading that names one names,
    among that heading and those it is under: read in one pass over the headings (a stack
    of the open sections), not again for each claim."""
    lines: list[int] = []
    classes: list[str] = []
    open_sections: list[tuple[int, str]] = []  # (level, class), outermost first
    for heading in headings:
        while open_sections and open_sections[-1][0] >= heading.level:
            open_sections.pop()
        outer = open_sections[-1][1] if open_sections else ""
        found = _one_class(heading.text) or outer
        open_sections.append((heading.level, found))
        lines.append(heading.line)
        classes.append(found)
    return lines, classes


def _one_class(text: str) -> str:
    """The one device class a title or heading names for where its numbers ran, else ''."""
    found = _classes(text)
    return found[0] if len(found) == 1 and not _NOT_WHERE.search(text) else ""


def _classes(text: str) -> list[str]:
    return list(dict.fromkeys(m.upper() for m in _CLASS_WORD.findall(text)))


def _by_class(claim: Claim, whole: str, roles: Mapping[str, str]) -> list[Claim]:
    """One claim per device class its numbers' columns name, or the claim with the class
    its row or the page names (the claim itself when none)."""
    named: dict[str, list[Metric]] = {}
    for metric in claim.metrics:
        found = [] if _NOT_WHERE.search(metric.name) else _classes(metric.name)
        named.setdefault(found[0] if len(found) == 1 else "", []).append(metric)
    if len([key for key in named if key]) >= 2:
        return [_on(claim, roles.get(key, key), metrics) for key, metrics in named.items()]
    cell = _ROLE_CELL.search(claim.text) or _LEADING.match(claim.text)
    role = cell.group(1).upper() if cell else whole
    return [_on(claim, roles.get(role, role), claim.metrics)]


def _on(claim: Claim, role: str, metrics: list[Metric]) -> Claim:
    hardware = [role] if role else []
    conditions = claim.conditions.model_copy(update={"hardware": hardware})
    return claim.model_copy(update={"conditions": conditions, "metrics": metrics})
