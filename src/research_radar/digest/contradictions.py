"""Contradictions between notes: numbers for one metric, and status (rumour vs fact,
announced vs denied, accepted vs under review). Pure."""

from __future__ import annotations

import re
from functools import lru_cache

from research_radar.digest.credibility import HEDGE
from research_radar.digest.keypoints import line_text, without_urls
from research_radar.digest.signals import Contradiction, Mention, Statement
from research_radar.sources.notes import parse_numbers

__all__ = ["find_contradictions", "state_words"]

_METRICS = {
    "goodput": ("goodput", "好吞吐"),
    "throughput": ("throughput", "吞吐"),
    "ttft": ("ttft",),
    "tpot": ("tpot",),
    "latency": ("latency", "延迟", "时延"),
    "speedup": ("speedup", "speed-up", "加速", "faster", "更快"),
    "memory": ("memory", "显存", "内存"),
    "accuracy": ("accuracy", "准确率", "精度"),
    "acceptance": ("acceptance", "接受率"),
    "cost": ("cost", "成本"),
}
_METRIC = re.compile(
    "|".join(re.escape(term) for terms in _METRICS.values() for term in terms), re.IGNORECASE
)
_METRIC_OF = {term: metric for metric, terms in _METRICS.items() for term in terms}
_STATUS_WORDS = {
    "merge": [
        ("open", r"not (?:yet )?merged|尚?未合并|待合并|仍\s*open|\b(?:still|remains|is) open\b"),
        ("merged", r"\bmerged\b|已合并|已合入|合入主线"),
    ],
    "release": [
        ("unreleased", r"not (?:yet )?released|尚?未发布|尚?未开源"),
        ("released", r"\breleased\b|已发布|已开源"),
    ],
    "deal": [
        ("unsigned", r"not (?:yet )?signed|尚?未签约"),
        ("signed", r"\bsigned\b|已签约"),
    ],
    "venue": [
        ("under-review", r"under review|submitted to|投稿中|在审|审稿中|尚?未(?:被)?录用"),
        ("accepted", r"\baccepted\b|录用|to appear"),
    ],
    "announcement": [
        ("denied", r"\bdenied\b|\bdenies\b|否认|辟谣|不实"),
        ("announced", r"\bannounced\b|宣布|官宣"),
    ],
}
"""Status family -> states, the negative first (its words are removed before the next)."""
_STATUS_NEEDLES = re.compile(
    "merged|合并|合入|open|released|发布|开源|signed|签约|review|submitted|投稿|在审|审稿|录用"
    "|accepted|appear|denied|denies|否认|辟谣|不实|announced|宣布|官宣"
)
"""One of these is in every match of a state's words (in `_folded` text)."""
_METRIC_NEEDLES = re.compile(
    "|".join(re.escape(term.lower()) for terms in _METRICS.values() for term in terms)
)
_ASCII_FOLDS = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"})
"""The letters outside ASCII that `re.IGNORECASE` matches with an ASCII letter."""


_FOLDED_LETTERS = re.compile("[\u0130\u0131\u017f\u212a]")


def _folded(line: str) -> str:
    """The line in lower case, in which a case-sensitive search for lower-case needles
    finds every place a case-insensitive pattern could match (one search, not many: #19).
    Translated only when it holds one of the letters (a scan, not a lookup per letter)."""
    return (line.translate(_ASCII_FOLDS) if _FOLDED_LETTERS.search(line) else line).lower()


_STATUS = {
    family: [(state, re.compile(words, re.IGNORECASE)) for state, words in states]
    for family, states in _STATUS_WORDS.items()
}


def _unit(number: str) -> str:
    unit = re.sub(r"^[-+~≈<>≤≥$]*[\d.\s\-–~]+", "", number).strip()
    return "×" if unit in {"x", "X", "倍"} else unit


def _value(number: str) -> float:
    match = re.search(r"\d+(?:\.\d+)?", number)
    return float(match.group(0)) if match else 0.0


def _metric_values(line: str, folded: str) -> list[tuple[str, float]]:
    """(metric + unit, value) pairs: each number takes the nearest metric word on its line
    (`folded` is `_folded(line)`)."""
    if not _METRIC_NEEDLES.search(folded):
        return []  # no metric named: no number is paired
    # `folded` has the line's length and matches where `_METRIC` matches the line (#19)
    words = [(m.start(), _METRIC_OF[m.group(0)]) for m in _METRIC_NEEDLES.finditer(folded)]
    pairs = []
    position = 0
    for number in parse_numbers(line):
        position = max(line.find(number, position), position)
        if words and _unit(number) in {"×", "%"}:
            metric = min(words, key=lambda w: abs(w[0] - position))[1]
            pairs.append((f"{metric} {_unit(number)}", _value(number)))
    return pairs


def _states(line: str, folded: str) -> dict[str, str]:
    """Status family -> state said on the line; a hedged statement's state ends in `?`
    (`folded` is `_folded(line)`)."""
    found: dict[str, str] = {}
    if not _STATUS_NEEDLES.search(folded):
        return found  # no state's words
    hedged = "?" if HEDGE.search(line) else ""
    for family, states in _STATUS.items():
        for state, pattern in states:
            if pattern.search(line):
                found.setdefault(family, state + hedged)
                line = pattern.sub(" ", line)
    return found


_VERIFY = {
    "venue": "核对会议官网的录用论文列表，或论文 camera-ready 版本上的会议标注",
    "merge": "核对 PR 页面的当前状态（merged / open）及合并提交",
    "release": "核对官方仓库的 release / tag 页面或官方发布说明",
    "deal": "核对双方的官方公告",
    "announcement": "核对当事方的官方公告或声明原文",
}
_STATE_WORDS = {
    "accepted": "已录用",
    "under-review": "在审/投稿中",
    "merged": "已合并",
    "open": "未合并",
    "released": "已发布",
    "unreleased": "未发布",
    "signed": "已签约",
    "unsigned": "未签约",
    "announced": "已宣布",
    "denied": "已否认",
}


def state_words(state: str) -> str:
    """A status state in words: `accepted?` -> 据称已录用（待核实）, `accepted` -> 已录用（作为事实）."""
    if not state:
        return ""
    word = _STATE_WORDS.get(state.rstrip("?"), state.rstrip("?"))
    return f"据称{word}（待核实说法）" if state.endswith("?") else f"{word}（作为事实陈述）"


def _verify(kind: str, about: str, states: set[str]) -> str:
    if kind == "number":
        return "核对原文表格中的数值及其条件（硬件、基线、负载），以一手来源为准"
    plain = {state.rstrip("?") for state in states}
    lead = "一处为传闻、另一处作为事实：" if len(plain) == 1 else "说法相反："
    return lead + _VERIFY.get(about, "核对一手来源")


def _facts(mentions: list[Mention]) -> dict[tuple[str, str], dict[str, tuple[set[str], str]]]:
    """(kind, about) -> source -> (values or states, first line saying so)."""
    facts: dict[tuple[str, str], dict[str, tuple[set[str], str]]] = {}
    for mention in mentions:
        for line, said in _said(mention.item.text):
            for key, value in said:
                values, first = facts.setdefault(key, {}).get(mention.source, (set(), line))
                longest = line if len(line) > len(first) else first  # not a bare heading
                facts[key][mention.source] = (values | {value}, longest)
    return facts


@lru_cache(maxsize=4096)
def _said(text: str) -> tuple[tuple[str, tuple[tuple[tuple[str, str], str], ...]], ...]:
    """Each line of an item's text that says a number or a status: (line, ((kind, about),
    value) pairs). One paper's text is often in several notes: read once (#19)."""
    found = []
    for raw in without_urls(text).splitlines():
        line = line_text(raw)  # tidy already, and `tidy_text` of a tidy line is that line (#19)
        folded = _folded(line)
        said = [(("number", a), f"{value:g}") for a, value in _metric_values(line, folded)]
        said += [(("status", family), state) for family, state in _states(line, folded).items()]
        if said:
            found.append((line, tuple(said)))
    return tuple(found)


def find_contradictions(
    entity: str, mentions: list[Mention], entry_key: str = ""
) -> list[Contradiction]:
    """Conflicting numbers or statuses across sources, each with what to verify.

    A status conflicts when two sources give opposite states (accepted vs under review,
    announced vs denied, merged vs open) or when one reports as hearsay (据称, 待核实) what
    another states as fact.
    """
    found: list[Contradiction] = []
    if len({mention.source for mention in mentions}) < 2:
        return found  # a contradiction is between two sources: none read (#19)
    for (kind, about), by_source in sorted(_facts(mentions).items()):
        value_sets = [values for values, _ in by_source.values()]
        clash = any(not (a & b) for i, a in enumerate(value_sets) for b in value_sets[i + 1 :])
        if len(by_source) >= 2 and clash:
            statements = [
                Statement(
                    source=s,
                    text=line,
                    state=sorted(values)[0] if kind == "status" else "",
                )
                for s, (values, line) in by_source.items()
            ]
            found.append(
                Contradiction(
                    entity=entity,
                    kind="number" if kind == "number" else "status",
                    about=about,
                    statements=statements,
                    entry_key=entry_key,
                    verify=_verify(kind, about, set().union(*value_sets)),
                )
            )
    return found
