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
    "state_words",
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
    state: str = ""
    """For a status: what the source says (`accepted`, `accepted?` when hedged, `denied`)."""


class Contradiction(_Model):
    entity: str
    kind: Literal["number", "status"]
    about: str
    """The metric (`speedup ×`) or the kind of status (`venue`, `merge`, `release`)."""
    statements: list[Statement]
    entry_key: str = ""
    """The digest entry the contradiction is about (to compare with the previous digest)."""
    verify: str = ""
    """What to check to settle it."""


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


_HEDGE = re.compile(
    r"据称|据说|传闻|听说|疑似|或将|可能已|待核实|待确认|未证实|未经证实|未见原文|二手转述|转述称"
    r"|reportedly|rumou?r|allegedly|unconfirmed|to be (?:verified|confirmed)",
    re.IGNORECASE,
)
"""A statement made as hearsay: reported, not established (refs #17)."""


def _venue_name(match: re.Match[str]) -> str:
    year = match.group(2) or ""
    return f"{match.group(1)} {('20' + year) if len(year) == 2 else year}".strip()


def _venues(text: str) -> tuple[str, str]:
    """(venue stated as fact, venue only claimed with a hedge) over the lines of `text`."""
    firm = hedged = ""
    for line in text.splitlines():
        for match in _VENUE.finditer(line):
            if _HEDGE.search(line):
                hedged = hedged or _venue_name(match)
            else:
                firm = firm or _venue_name(match)
    return firm, hedged


def _venue(text: str) -> str:
    """The peer-reviewed venue: stated as fact, never hedged, not merely submitted."""
    firm, hedged = _venues(text)
    if not firm or hedged or _SUBMITTED.search(text):
        return ""
    return firm


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
    firm, hedged = _venues(text)
    if venue:
        signals.append((2, f"同行评审：{venue}"))
    elif hedged and firm:
        signals.append((0, f"会议录用说法不一（{hedged}），待核实，不计同行评审"))
    elif hedged:
        signals.append((0, f"会议录用仅为传闻（据称 {hedged}），待核实，不计同行评审"))
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
    return "\n".join(_tidy(line) for line in text.split("\n"))


_SEP = r"[，,;；、:：]"
_OPEN_SEP = re.compile(rf"([（(])\s*{_SEP}\s*")
_SEP_CLOSE = re.compile(rf"\s*{_SEP}\s*([）)])")
_EMPTY = re.compile(r"[（(]\s*[）)]")


def _tidy(text: str) -> str:
    """No empty slot left where a URL was taken out: `（NeurIPS 2024，）` -> `（NeurIPS 2024）`."""
    previous = None
    while previous != text:
        previous = text
        text = _EMPTY.sub("", _OPEN_SEP.sub(r"\1", _SEP_CLOSE.sub(r"\1", text)))
    return re.sub(r"[ \t]{2,}", " ", text).rstrip(" ：:，,")


_BASELINE = re.compile(
    r"(?:\bvs\.?|\bversus|相对于?|相比于?|对比|比(?=\s+[A-Za-z]))\s*"
    r"(?P<b>[A-Za-z][A-Za-z0-9_.\-/+]*(?:\s[A-Za-z][A-Za-z0-9_.\-/+]*)*"
    r"|[\u4e00-\u9fff][\u4e00-\u9fffA-Za-z0-9_\-/+.]*?)"
    r"(?=\s*(?:最高|最多|约|高达|快|慢|提升|降低|下降|减少|加速|高|低|[，,。；;、：:（()]|\s\d|\d|$))"
)
"""`相对 X 最高 4.5×` -> X, ending where the comparison words start (never mid-word)."""
_COMPARISON = re.compile(r"^(?:vs\.?|versus|对比|相比|相对)", re.IGNORECASE)
_CONTEXT_SIZE = re.compile(r"^\d+(?:\.\d+)?\s*[KkM]$")
_CONTEXT_WORDS = re.compile(r"上下文|context|tokens?|输入", re.IGNORECASE)


def _baselines(text: str) -> list[str]:
    return [m.group("b").strip() for m in _BASELINE.finditer(text) if m.group("b").strip()]


def _tidy_conditions(text: str, conditions: list[str], names: Iterable[str]) -> list[str]:
    """Conditions stated in the point itself: no item's name, no baseline cut mid-word."""
    taken = {name.lower() for name in names if name}
    kept = []
    for condition in conditions:
        core = condition.split("=", 1)[1] if "=" in condition else condition
        if condition.startswith("vs ") or _COMPARISON.match(condition):
            continue  # rebuilt from the text below, whole
        if core.lower() in taken or not _stated(core, text):
            continue
        kept.append(condition)
    baselines = [b for b in _baselines(text) if b.lower() not in taken]
    kept = [c for c in kept if c not in baselines]
    return list(dict.fromkeys([*kept, *(f"vs {b}" for b in baselines)]))


def _stated(condition: str, text: str) -> bool:
    """Every word of the condition occurs in the text (`RTX 4090 24 GB` in `RTX 4090（24GB）`)."""
    flat = re.sub(r"\s+", "", text).lower()
    return all(word.lower() in flat for word in condition.split())


def _split_numbers(text: str, numbers: list[str]) -> tuple[list[str], list[str]]:
    """(headline numbers, context conditions): a context length (1M, 128K) is a condition."""
    headline, context = [], []
    for number in numbers:
        if _CONTEXT_SIZE.match(number.strip()):
            if _CONTEXT_WORDS.search(text):
                context.append(f"上下文 {number.strip()}")
        else:
            headline.append(number)
    return headline, context


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


def extract_key_points(mentions: Iterable[Mention], names: Iterable[str] = ()) -> list[KeyPoint]:
    """Key points with numbers and their conditions, one per distinct statement.

    Args:
        names: the names of the digest's items; none of them is a condition (a claim about
            DistServe is not conditioned on "Mooncake", nor Mooncake's on itself).
    """
    names = list(names)
    points: dict[str, KeyPoint] = {}
    for mention in mentions:
        for point in _claim_points(mention) or _line_points(mention):
            numbers, context = _split_numbers(point.text, point.numbers)
            if not numbers:
                continue
            point.numbers = numbers
            conditions = _tidy_conditions(point.text, point.conditions, names)
            point.conditions = [c for c in conditions if not c.startswith("context=")] + context
            point.conditions = list(dict.fromkeys(point.conditions))
            if len(point.text) > 240:
                point.text = _cut(point.text, 240)
            points.setdefault(normalise_title(point.text), point)
    return list(points.values())


def _cut(text: str, limit: int) -> str:
    """Shorten at a clause or word boundary, with an ellipsis (never mid-word)."""
    head = text[: limit - 1]
    boundary = max(head.rfind(mark) for mark in "，。；,; ")
    return (head[:boundary] if boundary > limit // 2 else head).rstrip(" ，。；,;") + "…"


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


def _shown_words(ranked: list[str], text: str, section: str) -> list[str]:
    """Shared words as a reader sees them: Latin words, and the longest Chinese runs that
    both texts contain, built from the shared character pairs (no `机解`, no `上下、下文`)."""
    pairs = {w for w in ranked if _is_cjk(w)}
    runs: list[str] = []
    for run in re.findall(r"[\u4e00-\u9fff]{2,}", text):
        covered = [False] * len(run)
        for i in range(len(run) - 1):
            if run[i : i + 2] in pairs:
                covered[i] = covered[i + 1] = True
        start = None
        for i, flag in enumerate([*covered, False]):
            if flag and start is None:
                start = i
            elif not flag and start is not None:
                runs += _common_runs(run[start:i], section)
                start = None
    latin = [w for w in ranked if not _is_cjk(w)]
    longest = sorted(set(runs), key=lambda r: (-len(r), runs.index(r)))
    whole = [r for i, r in enumerate(longest) if not any(r in other for other in longest[:i])]
    return [*latin, *whole]


def _is_cjk(word: str) -> bool:
    return bool(re.fullmatch(r"[\u4e00-\u9fff]+", word))


def _common_runs(segment: str, section: str) -> list[str]:
    """The longest substrings (2+ characters) of `segment` that `section` contains."""
    if len(segment) < 2:
        return []
    if segment in section:
        return [segment]
    for size in range(len(segment) - 1, 1, -1):
        for start in range(len(segment) - size + 1):
            if segment[start : start + size] in section:
                rest = _common_runs(segment[:start], section)
                return [*rest, segment[start : start + size]] + _common_runs(
                    segment[start + size :], section
                )
    return []


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
            shown = _shown_words(ranked, text, section.heading + "\n" + section.text)
            scored.append(
                (score, SectionRef(id=section.id, heading=section.heading, shared=shown[:6]))
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
    """Status family -> state said on the line; a hedged statement's state ends in `?`."""
    found: dict[str, str] = {}
    hedged = "?" if _HEDGE.search(line) else ""
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
        for raw in _without_urls(mention.item.text).splitlines():
            line = _line_text(_tidy(raw))
            said = [(("number", about), f"{value:g}") for about, value in _metric_values(line)]
            said += [(("status", family), state) for family, state in _states(line).items()]
            for key, value in said:
                values, first = facts.setdefault(key, {}).get(mention.source, (set(), line))
                longest = line if len(line) > len(first) else first  # not a bare heading
                facts[key][mention.source] = (values | {value}, longest)
    return facts


def find_contradictions(
    entity: str, mentions: list[Mention], entry_key: str = ""
) -> list[Contradiction]:
    """Conflicting numbers or statuses across sources, each with what to verify.

    A status conflicts when two sources give opposite states (accepted vs under review,
    announced vs denied, merged vs open) or when one reports as hearsay (据称, 待核实) what
    another states as fact.
    """
    found = []
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
