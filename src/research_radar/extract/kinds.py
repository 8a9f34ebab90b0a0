"""What a statement says: a performance or quality number, a regression, a correctness
result, a limitation or a status change; and whether it relays hearsay.

Pure. A building block of `research_radar.extract.claims`, which callers outside this
package use instead.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from research_radar.extract.prefilter import probe_of
from research_radar.extract.screened import Family
from research_radar.extract.units import PERF_UNITS
from research_radar.models import ClaimKind, Metric

__all__ = ["is_hedged", "kind_of"]


_NEGATIVE = re.compile(
    r"regress|revert|withdr[ae]wn?|retract|(?<!zero )(?<!no )fail|crash|broken|known issue|"
    r"unsupported|not supported|does(?: not|n't) support|slower|worse|degrad|mismatch|incorrect|"
    r"wrong output|\bNaN\b|不支持|回退|撤回|撤销|失败|质量下降|变慢|倒退|退化|反例|负例|负结果|"
    r"错误|漂移|崩溃|更慢|无收益|未合并|落后|(?:成功率|准确率|质量|精度|性能|吞吐|速度)(?:明显)?下降",
    re.I,
)


_ONLY = (
    # "only" limits when it restricts what works, not in "CPU-only is supported" or
    # "retrieving only the keys that matter"
    r"^(?:[^:：]{0,20}[:：]\s*)?only\b|"
    r"(?<![-\w])only\b[^.;,]{0,60}?\b(?:is|are)\s+(?:supported|covered|tested|available|"
    r"accepted|implemented|validated|verified|compatible)\b|"
    r"(?<![-\w])only\s+(?:supports?|supported|works?|runs?|available|tested|targets?|on|for)\b|"
    r"\b(?:supports?|supported|works?|runs?|available|accepted|tested|valid)\s+only\b|"
    r"\bthe only supported\b"
)


_LIMITATION = re.compile(
    _ONLY + r"|limited to|limitation|does(?: not|n't) include|not (?:a |an )?(?:serving|end-to-end|"
    r"E2E|lossless)|experimental(?!\s(?:settings?|set-?ups?|results?|environments?|configurations?))|not yet|caveat|仅|只(?:在|支持|能|适用)|不含|不包含|非(?:无损|serving|E2E|通用|"
    r"端到端|完整)|不能|不等于|限于|局限|限制|边界|不外推|不可比|未(?:独立)?(?:复现|验证|核实|运行)",
    re.I,
)


_CORRECTNESS = re.compile(
    r"bit[- ]?exact|bitwise|identical|token[- ]equivalen|numerically|max_abs|max_rel|tests? pass|"
    r"lossless|argmax|等价|一致|无损|数值|正确性",
    re.I,
)


_QUALITY = re.compile(
    r"accuracy|\bWER\b|\bCER\b|\bPPL\b|perplexity|\bKL\b|\bNLL\b|success rate|BLEU|\bFID\b|CLIP|"
    r"VBench|score|pass@|准确率|成功率|质量|均分|得分|MMLU|GSM8K|AIME|HumanEval|任务分数",
    re.I,
)


_HEDGE = re.compile(
    r"据称|据说|据传|传闻|听说|\breportedly\b|\ballegedly\b|\bsupposedly\b|\bpurportedly\b|"
    r"\brumou?red\b|\bclaimed to\b|\b(?:is|are|was|were) said to\b",
    re.I,
)
"""Hearsay: the statement relays someone else's claim, so it is not a firm fact."""


_STATUS = re.compile(r"\bmerged\b|\breleased?\b|\bshipped\b|已合入|已合并|合并|发布", re.I)


_PERF_WORDS = re.compile(
    r"faster|speed|throughput|latency|prefill|decode|tok/s|加速|吞吐|延迟|提升|更快", re.I
)


def kind_of(text: str, metrics: list[Metric]) -> ClaimKind | None:
    said = _said(text)
    if said.negative:
        return ClaimKind.NEGATIVE
    if metrics:
        units = {m.unit for m in metrics}
        named_quality = any(_QUALITY.search(m.name) for m in metrics)
        if (units & PERF_UNITS) or (said.perf_words and not named_quality):
            return ClaimKind.PERFORMANCE
        return ClaimKind.QUALITY if (said.quality or named_quality) else ClaimKind.PERFORMANCE
    if said.correctness:
        return ClaimKind.CORRECTNESS
    if said.limitation:
        return ClaimKind.LIMITATION
    if said.status:
        return ClaimKind.STATUS
    return None


class _Said(NamedTuple):
    """Which of the kind patterns a statement matches (by name, not by pattern: hashing
    a compiled pattern hashes its whole program, issue #19)."""

    negative: bool
    perf_words: bool
    quality: bool
    correctness: bool
    limitation: bool
    status: bool
    hedge: bool


@lru_cache(maxsize=16384)
def _said(text: str) -> _Said:
    """Which of the kind patterns a statement matches, read once per statement; each
    pattern runs only where its needles are, all seven told by one look-up (issue #19)."""
    alive = _KINDS.alive(probe_of(text))
    if not alive:
        return _NOTHING_SAID
    said = [False] * len(_KINDS.patterns)
    for n in alive:
        said[n] = _KINDS.patterns[n].search(text) is not None
    return _Said(*said)


_KINDS = Family((_NEGATIVE, _PERF_WORDS, _QUALITY, _CORRECTNESS, _LIMITATION, _STATUS, _HEDGE))
"""The kind patterns, in `_Said`'s order: one look-up tells which could match (#19)."""
_NOTHING_SAID = _Said(*([False] * len(_KINDS.patterns)))


def is_hedged(text: str) -> bool:
    """`reportedly`, `据称`: the statement relays someone else's claim."""
    return _said(text).hedge
