"""Scores a sentence names before their number (`a perplexity of 5.68`, `The F1 score is
88.5`, `Pass@1 on HumanEval: 62.2`, `average acceptance length is 3.2`): measurements
without a unit (issue #14).

Pure. A building block of `research_radar.extract.reader`; callers outside this package
use `research_radar.extract.claims` instead. Only the words that join a score's name to
its number may stand between them (`is`, `of`, `reaches`, `:`), so a number that belongs
to something else named in between (`the PPL of LLaMA-7B is 5.68`) is left alone; a
number with a unit, a ratio or a change (`by 2.3`) is no score.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from research_radar.extract.prefilter import probe_of
from research_radar.extract.units import NUMBER_PATTERN, parse_number
from research_radar.models import Metric

__all__ = ["named_scores"]


_SCORE = (
    r"perplexity|PPL|BLEU|ROUGE(?:-\w+)?|F1(?:[ -]score)?|WER|CER|RTF|real[- ]time factor|"
    r"accuracy|pass@\d+|MMLU(?:-Pro)?|GSM8K|HumanEval\+?|MBPP|C-?Eval|CMMLU|mAP|"
    r"(?:mean |average |avg\.? )?(?:accept(?:ance|ed) (?:length|len|rate)|accepted tokens"
    r"(?: per (?:step|token|draft))?|tokens per step)"
)
_JOIN = (
    r"(?:\s?\([^()]{1,24}\))?(?:\s?(?:on|in) (?:[A-Z][\w.+-]*(?:[ -][\w.+-]+)?))?"
    r"(?:\s?(?:[:：=]|is|was|are|were|of|reaches|reached|achieves|achieved|stays at|"
    r"drops to|rises to|goes to|improves to|falls to|becomes|about|around|approximately|"
    r"roughly|only|just|~|≈)){1,3}\s?"
)
_NAMED_SCORE = re.compile(
    rf"(?<![\w@-])(?P<name>{_SCORE})(?:\s?scores?)?{_JOIN}(?P<num>{NUMBER_PATTERN})"
    r"(?![\d.]*(?:\s?(?:[%×倍]|x(?![a-z]))|[A-Za-z]|-|/|"
    r"\s(?:tokens?|ms|s|sec|GB|MB|B|bits?|shots?|steps?|layers?)\b))",
    re.I,
)
_CUE = re.compile(
    r"perplex|ppl|bleu|rouge|f1|wer|cer|rtf|real|accura|pass@|mmlu|gsm|humaneval|"
    r"mbpp|eval|map|accept|per step",
    re.I,
)
"""A cheap look first: most sentences name no score."""


def named_scores(text: str, taken: Sequence[float]) -> list[Metric]:
    """The scores `text` names before their numbers, except the numbers in `taken` (read
    already)."""
    if not probe_of(text).has_digit or not _CUE.search(text):
        return []
    left = Counter(taken)
    found: list[Metric] = []
    for match in _NAMED_SCORE.finditer(text):
        value = parse_number(match.group("num"))
        if left[value] > 0:
            left[value] -= 1
            continue
        name = re.sub(r"[ -]score$", "", match.group("name"), flags=re.I)
        found.append(Metric(name=name, value=value, unit=""))
    return found
