"""Sibling sections named after systems: `#### llama.cpp` beside `#### DashInfer` in the
DashInfer repository. The project's own section is compared with its siblings; their
numbers are the compared systems' own (issue #14).

Pure. A building block of `research_radar.extract.documentscope`; callers outside this
package use `research_radar.extract.claims` instead.

A page that benchmarks its own system against others often gives each system a section
of its own, under one parent (`### Meta-Llama-3-8B-Instruct`), each heading naming only
the system. Only where exactly one sibling is the project's own, and another names a
system the catalogue knows, is the direction said: with no own sibling (`#### vLLM`
beside `#### SGLang`) nothing is compared.
"""

from __future__ import annotations

import re

from research_radar.extract.catalogue import Catalog
from research_radar.extract.compared import BASELINE_SUFFIX, is_baseline_metric
from research_radar.extract.markdown import Segment
from research_radar.models import Claim

__all__ = ["with_baseline_sections", "with_sibling_systems"]


_MARKUP = re.compile(r"[*_`\[\]]")


def _key(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def with_sibling_systems(
    claims: list[Claim], segments: list[Segment], cat: Catalog, project: str
) -> list[Claim]:
    """The claims with the compared systems of sibling sections: those under the
    project's own section are compared with the systems its siblings name; the numbers
    under those siblings are the compared systems' own (`<metric> (baseline)`)."""
    name = _key(project.rpartition("/")[2])
    if len(name) < 4:
        return claims
    headings = [s for s in segments if s.block == "heading"]
    parents = _parent_lines(headings)
    groups: dict[tuple[int, int], list[tuple[Segment, int, str]]] = {}
    for i, heading in enumerate(headings):
        text = _MARKUP.sub("", heading.text).strip()
        own = _key(text) == name
        mentions = [] if own else cat.find("software", text)
        if not own and not (
            len(mentions) == 1 and (mentions[0].start, mentions[0].end) == (0, len(text))
        ):
            continue  # a heading that names more than one system
        end = next((h.line - 1 for h in headings[i + 1 :] if h.level <= heading.level), 1 << 30)
        label = "" if own else mentions[0].name
        groups.setdefault((parents[i], heading.level), []).append((heading, end, label))
    spans: list[tuple[int, int, list[str] | None]] = []
    for siblings in groups.values():
        others = list(dict.fromkeys(label for _, _, label in siblings if label))
        if sum(1 for _, _, label in siblings if not label) != 1 or not others:
            continue
        for heading, end, label in siblings:
            spans.append((heading.line, end, None if label else others))
    if not spans:
        return claims
    return [_placed(claim, spans) for claim in claims]


def _parent_lines(headings: list[Segment]) -> list[int]:
    """The line of each heading's parent: the nearest heading above it of a lower level (0
    for none). One pass: a page of thousands of sections looked back over all of them for
    each (issue #19)."""
    parents: list[int] = []
    above: list[Segment] = []
    """The headings above that may still be a parent: their levels rise."""
    for heading in headings:
        while above and above[-1].level >= heading.level:
            above.pop()
        parents.append(above[-1].line if above else 0)
        above.append(heading)
    return parents


def _placed(claim: Claim, spans: list[tuple[int, int, list[str] | None]]) -> Claim:
    line = claim.line or 0
    for start, end, others in spans:
        if not start < line <= end:
            continue
        if others is None:
            metrics = [
                m
                if is_baseline_metric(m)
                else m.model_copy(update={"name": m.name + BASELINE_SUFFIX})
                for m in claim.metrics
            ]
            return claim.model_copy(update={"metrics": metrics})
        if not claim.conditions.baseline:
            conditions = claim.conditions.model_copy(update={"baseline": others})
            return claim.model_copy(update={"conditions": conditions})
    return claim


_BASELINE_HEADING = re.compile(r"(?<![A-Za-z])baselines?(?![A-Za-z])|基线", re.I)
"""`## BF16 Baseline`, `### Baseline`, `## 基线`: a section of the compared system's numbers."""


def with_baseline_sections(claims: list[Claim], segments: list[Segment]) -> list[Claim]:
    """The claims with the section named as the baseline among its siblings: its numbers
    are the compared system's own (`<metric> (baseline)`), and those under its sibling
    sections (`## W8A8 SQ→PTQ` beside `## BF16 Baseline`) are compared with it."""
    headings = [s for s in segments if s.block == "heading"]
    parents = _parent_lines(headings)
    groups: dict[tuple[int, int], list[tuple[int, int, str]]] = {}
    for i, heading in enumerate(headings):
        end = next((h.line - 1 for h in headings[i + 1 :] if h.level <= heading.level), 1 << 30)
        groups.setdefault((parents[i], heading.level), []).append(
            (heading.line, end, _MARKUP.sub("", heading.text).strip())
        )
    spans: list[tuple[int, int, list[str] | None]] = []
    for siblings in groups.values():
        named = [text for _, _, text in siblings if _BASELINE_HEADING.search(text)]
        if len(named) != 1 or len(siblings) < 2:
            continue
        for start, end, text in siblings:
            spans.append((start, end, None if text == named[0] else named))
    if not spans:
        return claims
    return [_placed(claim, spans) for claim in claims]
