"""What an entry's text signals: credibility, key points, contradictions, living-doc sections.

The pure rules behind `digest.build_digest` (the `digest` module doc states them, after
CONVENTIONS.md §11). Each function reads the text of an entry's mentions, or the living
document, and returns values; nothing here touches files or the clock (refs #9).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from research_radar.extract.claims import extract_claims
from research_radar.sources.inbox import KnowledgeDoc
from research_radar.sources.notes import NoteItem, normalise_url, parse_numbers, parse_urls

__all__ = [
    "Contradiction",
    "KeyPoint",
    "Mention",
    "SectionRef",
    "Statement",
    "extract_key_points",
    "find_anchor",
    "find_contradictions",
    "match_sections",
    "normalise_title",
    "rate_credibility",
]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Mention(_Model):
    """One item of a note or card, with the source and time that gave it."""

    source: str
    when: datetime
    item: NoteItem


class KeyPoint(_Model):
    text: str
    numbers: list[str]
    conditions: list[str] = Field(default_factory=list)
    """Hardware, model, precision, baseline and context found on the same line."""
    source: str


class SectionRef(_Model):
    id: str
    heading: str
    shared: list[str] = Field(default_factory=list)
    """Words the entry shares with the section (or `arXiv:ID` when anchored there)."""


class Statement(_Model):
    source: str
    text: str


class Contradiction(_Model):
    entity: str
    kind: Literal["number", "status"]
    about: str
    """The metric (`speedup ×`) or the kind of status (`merge`, `release`)."""
    statements: list[Statement]


def normalise_title(title: str) -> str:
    """A comparison key: lower-case words separated by single spaces."""
    return re.sub(r"[\W_]+", " ", title.lower()).strip()


# --- credibility -------------------------------------------------------------------------

_VENUE = re.compile(
    r"(?<![A-Za-z])(OSDI|SOSP|MLSys|NeurIPS|ICML|ICLR|ACL|EMNLP|NAACL|ISCA|ASPLOS|EuroSys|NSDI"
    r"|VLDB|SIGMOD|MICRO|HPCA|PPoPP|USENIX ATC|SIGCOMM|KDD|CVPR|ICCV|ECCV|AAAI|FAST(?=\s*'?\d))"
    r"(?:\s*['’]?\s*((?:20)?\d{2})(?!\d))?"
)
_SUBMITTED = re.compile(r"under review|submitted to|submission|投稿|在审|审稿中", re.IGNORECASE)
_INSTITUTION = re.compile(
    r"(?<![A-Za-z])(Microsoft|Google|DeepMind|Meta|NVIDIA|Alibaba|ByteDance|Tencent|Huawei|Baidu"
    r"|Moonshot|Anthropic|OpenAI|Red Hat|AMD|Intel|Apple|Amazon|AWS|IBM|Databricks"
    r"|Tsinghua|Peking University|USTC|SJTU|MIT|Stanford|Berkeley|UC Berkeley|CMU|Princeton"
    r"|University of Washington|Yandex)(?![A-Za-z])|(微软|谷歌|阿里|字节|腾讯|华为|百度|月之暗面"
    r"|清华|北大|中科大|上海交大|交大|浙大)"
)
_AFFILIATION = re.compile(
    r"机构|作者|团队|author|affiliat|Research|DeepMind|大学|University|研究院|实验室|\bLabs?\b|\bAI\b"
)
"""An institution counts only on a line that names authors or affiliations."""
_CODE = re.compile(r"代码已公开|代码已开源|\bcode (?:is )?(?:available|released|public)", re.I)
_NO_CODE = re.compile(
    r"无代码|未开源|代码未公开|没有代码|无 ?GitHub|no (?:public )?(?:code|repo)", re.I
)
_PRODUCTION = re.compile(
    r"production|生产|线上|deployed|真实负载|real[- ]world workload|\d\s*[万亿]\s*(?:月活)?用户",
    re.I,
)
_SINGLE = re.compile(r"single[- ]author|sole author|单作者|单作", re.IGNORECASE)
_MISSING = re.compile(
    r"未报告|未单独报告|not reported|missing (?:metric|baseline|ablation)|指标缺失|无消融"
    r"|no ablation",
    re.IGNORECASE,
)


def _venue(text: str) -> str:
    match = _VENUE.search(text)
    if not match or _SUBMITTED.search(text):
        return ""
    year = match.group(2) or ""
    return f"{match.group(1)} {('20' + year) if len(year) == 2 else year}".strip()


def rate_credibility(
    text: str, urls: list[str]
) -> tuple[Literal["极高", "高", "中-低"], list[str], str]:
    """Rating, reasons and venue from the signals in an entry's text (rules: the `digest` doc)."""
    venue = _venue(text)
    code = next(
        (
            normalise_url(u)
            for u in urls
            if normalise_url(u).count("/") >= 2 and normalise_url(u).startswith("github.com/")
        ),
        "",
    )
    institutions = list(
        dict.fromkeys(
            match.group(0)
            for line in text.splitlines()
            if _AFFILIATION.search(line)
            for match in _INSTITUTION.finditer(line)
        )
    )
    signals: list[tuple[int, str]] = []
    if venue:
        signals.append((2, f"同行评审：{venue}"))
    elif _SUBMITTED.search(text):
        signals.append((0, "投稿中，未经同行评审"))
    else:
        signals.append((0, "预印本或非论文来源，未见同行评审"))
    if institutions:
        signals.append((1, "机构：" + " / ".join(institutions[:3])))
    if code or _CODE.search(text):
        signals.append((1, f"代码公开：{code}" if code else "代码公开"))
    elif _NO_CODE.search(text):
        signals.append((-1, "无公开代码"))
    if _PRODUCTION.search(text):
        signals.append((1, "生产数据或生产负载"))
    if _SINGLE.search(text):
        signals.append((-2, "单作者"))
    if _MISSING.search(text):
        signals.append((-1, "关键指标缺失"))
    score = sum(weight for weight, _ in signals)
    rating: Literal["极高", "高", "中-低"] = (
        "极高" if score >= 4 else "高" if score >= 1 else "中-低"
    )
    return rating, [reason for _, reason in signals], venue


# --- key points --------------------------------------------------------------------------

_CONDITIONS = re.compile(
    r"(?<![\w])(?:[HABL]\d{2,3}S?|GB\d{3}|B200|MI\d{3}X?|RTX\s?\d{4}|TPU\s?v\d\w?"
    r"|M\d (?:Max|Pro|Ultra))(?![\w])"
    r"|(?<![\w])(?:FP(?:4|6|8|16|32)|BF16|INT[348]|NVFP4|MXFP4|AWQ|GPTQ)(?![\w])"
    r"|(?<![\w])(?:Llama|LLaMA|Qwen|DeepSeek|Mistral|Mixtral|Gemma|Kimi|GPT|Phi|GLM)[-\w.]*"
    r"|(?:vs\.?|versus|对比|相比|相对)\s*[\w.\-/]+(?:\s[A-Za-z][\w\-]*)?"
    r"|\d+\s?[KkM]\s?(?:context|上下文|tokens?)",
)


def _line_text(line: str) -> str:
    line = re.sub(r"^\s*(?:[-*+•]|\d{1,3}[.)、]|#+)\s*", "", line)
    line = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", line)
    return re.sub(r"\s+", " ", re.sub(r"\*\*|__|`", "", line)).strip(" ：:，,;；")


def _without_urls(text: str) -> str:
    for url in parse_urls(text):
        text = text.replace(url, "")
    return text


def _claim_points(mention: Mention) -> list[KeyPoint]:
    """Key points from `extract.extract_claims`: a claim with numbers and its conditions."""
    points = []
    for claim in extract_claims(_without_urls(mention.item.text), mention.source, "community"):
        numbers = parse_numbers(claim.text)
        if not numbers:
            continue
        c = claim.conditions
        conditions = [*c.hardware, *c.model, *c.precision, *(f"vs {b}" for b in c.baseline)]
        conditions += [*c.software, *(f"{k}={v}" for k, v in c.load.items())]
        text = _line_text(claim.text)
        points.append(
            KeyPoint(
                text=text,
                numbers=numbers,
                conditions=list(dict.fromkeys(conditions)),
                source=mention.source,
            )
        )
    return points


def _line_points(mention: Mention) -> list[KeyPoint]:
    """Fallback when no claim was extracted: every line that carries a number with a unit."""
    points = []
    for raw in _without_urls(mention.item.text).splitlines():
        text = _line_text(raw)
        numbers = parse_numbers(text)
        if numbers:
            conditions = [m.group(0).strip() for m in _CONDITIONS.finditer(text)]
            points.append(
                KeyPoint(
                    text=text,
                    numbers=numbers,
                    source=mention.source,
                    conditions=list(dict.fromkeys(conditions)),
                )
            )
    return points


def extract_key_points(mentions: Iterable[Mention]) -> list[KeyPoint]:
    """Key points with numbers and their conditions, one per distinct statement."""
    points: dict[str, KeyPoint] = {}
    for mention in mentions:
        for point in _claim_points(mention) or _line_points(mention):
            if len(point.text) > 240:
                point.text = point.text[:238] + "…"
            points.setdefault(normalise_title(point.text), point)
    return list(points.values())


# --- living document ---------------------------------------------------------------------

_STOP = {"作者", "者报", "报告", "最高", "提升", "相对", "支持", "约为", "可以", "一个", "要点",
         "the", "and", "for", "with", "from", "that", "this", "are", "via", "its", "new",
         "arxiv", "http", "https", "com", "org", "abs", "pdf", "html", "github"}  # fmt: skip


def _tokens(text: str) -> set[str]:
    text = re.sub(r"https?://\S+", " ", text.lower())
    words = {w for w in re.findall(r"[a-z][a-z0-9\-]+", text) if w not in _STOP}
    for run in re.findall(r"[\u4e00-\u9fff]{2,}", text):
        words |= {run[i : i + 2] for i in range(len(run) - 1)} - _STOP
    return words


def match_sections(text: str, doc: KnowledgeDoc) -> list[SectionRef]:
    """The two sections sharing the most (idf-weighted) words with the entry."""
    section_words = [_tokens(s.heading + "\n" + s.text) for s in doc.sections]
    total = len(section_words)
    words = _tokens(text)
    scored = []
    for section, vocabulary in zip(doc.sections, section_words, strict=True):
        shared = words & vocabulary
        df = {w: sum(w in other for other in section_words) for w in shared}
        score = sum(math.log(1 + total / df[w]) for w in shared)
        if len(shared) >= 2:
            ranked = sorted(shared, key=lambda w: (-math.log(1 + total / df[w]), w))
            scored.append(
                (score, SectionRef(id=section.id, heading=section.heading, shared=ranked[:6]))
            )
    scored.sort(key=lambda pair: -pair[0])
    return [ref for _, ref in scored[:2]]


def find_anchor(
    entry_ids: list[str], name: str, doc: KnowledgeDoc | None
) -> tuple[str, SectionRef | None]:
    """How the entry is anchored in the living document ('' when NET-new) and where."""
    if doc is None:
        return "", None
    for arxiv_id in entry_ids:
        for section in doc.sections:
            if arxiv_id in section.arxiv_ids:
                ref = SectionRef(
                    id=section.id, heading=section.heading, shared=[f"arXiv:{arxiv_id}"]
                )
                return f"arXiv:{arxiv_id}", ref
        if arxiv_id in doc.arxiv_ids:
            return f"arXiv:{arxiv_id}", None
    if len(name) >= 3:
        pattern = re.compile(rf"(?<![\w\-]){re.escape(name)}(?![\w])", re.IGNORECASE)
        for section in doc.sections:
            if pattern.search(section.heading + "\n" + section.text):
                return f"名称 {name}", SectionRef(
                    id=section.id, heading=section.heading, shared=[name]
                )
        if pattern.search(doc.text):
            return f"名称 {name}", None
    return "", None


# --- contradictions ----------------------------------------------------------------------

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
}
"""Status family -> states, the negative first (its words are removed before the next)."""
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


def _metric_values(line: str) -> list[tuple[str, float]]:
    """(metric + unit, value) pairs: each number takes the nearest metric word on its line."""
    words = [(m.start(), _METRIC_OF[m.group(0).lower()]) for m in _METRIC.finditer(line)]
    pairs = []
    position = 0
    for number in parse_numbers(line):
        position = max(line.find(number, position), position)
        if words and _unit(number) in {"×", "%"}:
            metric = min(words, key=lambda w: abs(w[0] - position))[1]
            pairs.append((f"{metric} {_unit(number)}", _value(number)))
    return pairs


def _states(line: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for family, states in _STATUS.items():
        for state, pattern in states:
            if pattern.search(line):
                found.setdefault(family, state)
                line = pattern.sub(" ", line)
    return found


def _facts(mentions: list[Mention]) -> dict[tuple[str, str], dict[str, tuple[set[str], str]]]:
    """(kind, about) -> source -> (values or states, first line saying so)."""
    facts: dict[tuple[str, str], dict[str, tuple[set[str], str]]] = {}
    for mention in mentions:
        for raw in _without_urls(mention.item.text).splitlines():
            line = _line_text(raw)
            said = [(("number", about), f"{value:g}") for about, value in _metric_values(line)]
            said += [(("status", family), state) for family, state in _states(line).items()]
            for key, value in said:
                values, first = facts.setdefault(key, {}).get(mention.source, (set(), line))
                facts[key][mention.source] = (values | {value}, first)
    return facts


def find_contradictions(entity: str, mentions: list[Mention]) -> list[Contradiction]:
    """Conflicting numbers (disjoint values for one metric) or statuses across sources."""
    found = []
    for (kind, about), by_source in sorted(_facts(mentions).items()):
        value_sets = [values for values, _ in by_source.values()]
        clash = any(not (a & b) for i, a in enumerate(value_sets) for b in value_sets[i + 1 :])
        if len(by_source) >= 2 and clash:
            statements = [Statement(source=s, text=line) for s, (_, line) in by_source.items()]
            found.append(
                Contradiction(
                    entity=entity,
                    kind="number" if kind == "number" else "status",
                    about=about,
                    statements=statements,
                )
            )
    return found
