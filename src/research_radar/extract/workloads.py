"""Named workloads: a term a page defines by its load once (`- Short prompt: 128 input
tokens, 4 output tokens`) and then names its numbers by (`| **Short Prompt** | 5834.79 |`).

Pure. A building block of `research_radar.extract.claims`, which callers outside this
package use instead. A definition is a list item or a line `<term>: <load>` whose load
gives a request's shape (prompt, output, context, batch, concurrency, rate); a claim
whose statement names the term, and no load of that key of its own, takes the defined
load (issue #14). The longest term a statement names wins (`Very long prompt` over
`Long prompt`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from research_radar.extract.catalogue import Catalog
from research_radar.extract.conditions import with_load
from research_radar.extract.loads import read_load
from research_radar.extract.markdown import Segment, clean_text
from research_radar.models import Claim

__all__ = ["Workload", "find_workloads", "with_workloads"]


@dataclass(frozen=True)
class Workload:
    """A defined term and the load it stands for."""

    term: str
    load: dict[str, str]
    pattern: re.Pattern[str]


_DEFINITION = re.compile(
    r"^\W{0,4}(?P<term>[A-Za-z\u4e00-\u9fff][^:：|]{1,38}?)\W{0,3}[:：]\s*(?P<rest>\S.*)$"
)
_SHAPE_KEYS = ("prompt", "output", "context", "batch", "concurrency", "rate")
_LOAD_WORDS = re.compile(
    r"\b(?:input|output|prompt|batch|concurrency|context|length|lengths|sequence|seq|len|"
    r"tokens?|isl|osl|qps|rate|request|requests|size|max|min|mean|avg|average|total|num|"
    r"number|of|the|default|hardware|gpus?|models?|settings?|config)\b|"
    r"输入|输出|长度|并发|批|大小|数量|最大|[\s_-]+",
    re.I,
)
"""A term made of load words only names a setting, not a workload (`Input length: 1024`,
`Max batch size: 8`); `Short prompt` names a workload."""


def find_workloads(segments: list[Segment], cat: Catalog) -> list[Workload]:
    """The workloads a document defines, longest term first."""
    found: dict[str, Workload] = {}
    for segment in segments:
        if segment.block not in ("list", "prose"):
            continue
        if ":" not in segment.text and "：" not in segment.text:
            continue  # (a definition has its colon; cleaning the text adds none)
        match = _DEFINITION.match(clean_text(segment.text))
        if not match:
            continue
        term = " ".join(match.group("term").split())
        if not _LOAD_WORDS.sub("", term) or term.lower() in found:
            continue
        load = read_load(match.group("rest"), cat, counts=False)  # (a GPU count is no shape)
        shape = {k: v for k, v in load.items() if k in _SHAPE_KEYS}
        if shape:
            words = r"\s+".join(re.escape(w) for w in term.split())
            pattern = re.compile(rf"(?<![\w-]){words}(?![\w-])", re.I)
            found[term.lower()] = Workload(term, shape, pattern)
    return sorted(found.values(), key=lambda w: -len(w.term))


def with_workloads(claim: Claim, workloads: list[Workload]) -> Claim:
    """The claim with the load of the longest workload its statement names, for the keys
    it has none of."""
    for workload in workloads:
        if not workload.pattern.search(claim.text):
            continue
        missing = {k: v for k, v in workload.load.items() if k not in claim.conditions.load}
        if not missing:
            return claim
        conditions = with_load(claim.conditions, {**claim.conditions.load, **missing})
        return claim.model_copy(update={"conditions": conditions})
    return claim
