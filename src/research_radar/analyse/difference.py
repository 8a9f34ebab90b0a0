"""What a finding adds over its nearest prior art and its family, from structure.

Compares facts, not prose: mechanism / system-level / workload tag values, the hardware,
models and precisions its claims name, and the kind of evidence it carries (code, numbers,
numbers with complete conditions, an independent run). Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from research_radar.extract.cataloguefiles import default_catalog
from research_radar.models import ClaimKind, Difference, Finding, PriorWork
from research_radar.resolve.keys import github_repo

__all__ = ["difference", "evidence_kinds", "targets"]


def targets(finding: Finding) -> tuple[list[str], list[str], list[str]]:
    """Hardware, models and precisions the finding's claims name, then those its mechanism
    sentence names (catalogue names), in order of appearance."""
    hardware: dict[str, None] = {}
    models: dict[str, None] = {}
    precisions: dict[str, None] = {}
    for claim in finding.claims:
        hardware.update(dict.fromkeys(claim.conditions.hardware))
        models.update(dict.fromkeys(claim.conditions.model))
        precisions.update(dict.fromkeys(claim.conditions.precision))
    catalog = default_catalog()
    for field, found in (("hardware", hardware), ("model", models), ("precision", precisions)):
        found.update(dict.fromkeys(m.name for m in catalog.find(field, finding.mechanism)))
    return _one_per_part(list(hardware)), _one_per_model(list(models)), list(precisions)


_MEMORY = re.compile(r" \d+(?:\.\d+)? ?GB")


def _one_per_part(hardware: list[str]) -> list[str]:
    """`Arc Pro B70` is left out beside `Arc Pro B70 32 GB`: one part, named once, with
    the memory a claim gave it."""
    variants = {m.string[: m.start()] for name in hardware if (m := _MEMORY.search(name))}
    return [name for name in hardware if name not in variants]


_FAMILY_SIZE = re.compile(r"([A-Za-z]+)[- ](\d+(?:\.\d+)?[BM])", re.IGNORECASE)


def _one_per_model(models: list[str]) -> list[str]:
    """`Qwen-27B` (a family and a size, no version) is left out beside `Qwen3.6-27B`: the
    same model named once, as its most specific name."""

    def vaguer(name: str) -> bool:
        match = _FAMILY_SIZE.fullmatch(name)
        if match is None:
            return False
        family, size = match.group(1).lower(), match.group(2).lower()
        return any(
            other != name
            and other.lower().startswith(family)
            and other.lower().endswith("-" + size)
            for other in models
        )

    return [name for name in models if not vaguer(name)]


def evidence_kinds(finding: Finding) -> list[str]:
    """code, numbers, complete-conditions, independent: the evidence the finding carries."""
    kinds = []
    key = finding.project_key.lower()
    if github_repo(key) or "github.com" in finding.url:
        kinds.append("code")
    measured = [c for c in finding.claims if c.kind is ClaimKind.PERFORMANCE and c.metrics]
    if measured:
        kinds.append("numbers")
    if any(c.complete for c in measured):
        kinds.append("complete-conditions")
    if any(c.validated and c.reporter != "author" for c in finding.claims):
        kinds.append("independent")
    return kinds


def _new(mine: Iterable[str], theirs: set[str]) -> list[str]:
    """Values the earlier works lack; nothing when they carry no value of the kind at all
    (unknown is not different)."""
    if not theirs:
        return []
    return [value for value in mine if value.lower() not in theirs]


def _lower(values: Iterable[str]) -> set[str]:
    return {value.lower() for value in values}


def difference(
    finding: Finding, earlier: Sequence[Finding], works: Sequence[PriorWork]
) -> Difference:
    """The finding's facts that none of the earlier findings (family and nearest prior art
    that are findings) has. `works` are the compared works, nearest first, as named."""
    hardware, models, precisions = targets(finding)
    seen: dict[str, set[str]] = {
        "mechanism": set(),
        "system_level": set(),
        "workload": set(),
        "hardware": set(),
        "model": set(),
        "precision": set(),
        "evidence": set(),
    }
    for other in earlier:
        for dimension in ("mechanism", "system_level", "workload"):
            seen[dimension] |= _lower(other.values(dimension))
        their_hw, their_models, their_precisions = targets(other)
        seen["hardware"] |= _lower(their_hw)
        seen["model"] |= _lower(their_models)
        seen["precision"] |= _lower(their_precisions)
        if other.claims:  # evidence is compared only with findings whose claims were read
            seen["evidence"] |= set(evidence_kinds(other)) | {"compared"}
    compared = bool(earlier)
    return Difference(
        against=list(works),
        mechanisms=_new(finding.values("mechanism"), seen["mechanism"]) if compared else [],
        levels=_new(finding.values("system_level"), seen["system_level"]) if compared else [],
        workloads=_new(finding.values("workload"), seen["workload"]) if compared else [],
        hardware=_new(hardware, seen["hardware"]) if compared else [],
        models=_new(models, seen["model"]) if compared else [],
        precisions=_new(precisions, seen["precision"]) if compared else [],
        evidence=[k for k in evidence_kinds(finding) if k not in seen["evidence"]]  # type: ignore[misc]
        if seen["evidence"]
        else [],
    )
