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

from research_radar.extract.catalogue import Catalog
from research_radar.extract.markdown import Segment
from research_radar.extract.prefilter import probe_of
from research_radar.extract.screened import finditer
from research_radar.models import Claim

__all__ = ["find_roles", "with_roles"]


_ROLE = re.compile(
    r"(?<![A-Za-z])(CPU|GPU|NPU)(?:\s?(?:为|是|[:：=]|is\b|was\b)|\s[-–—]{1,2}(?=\s))\s?", re.I
)
"""`CPU为...`, `GPU: ...`, and a list of a machine's parts written with dashes (`CPU - AMD
Ryzen 5 5600X`, `GPU - Nvidia GeForce RTX 3060 Ti`)."""
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
