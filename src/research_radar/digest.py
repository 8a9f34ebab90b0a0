"""The E1 digest: what the inbox says about one topic in one window (refs #9).

Pure: `build_digest` reads an `Inbox` already loaded by `sources.inbox.load_inbox` and
returns a `Digest`; it never touches files or the clock (pass the window in).

How the digest decides (CONVENTIONS.md §11):

- An *item* is a heading section or a bullet of a note (or a paper card) that matches the
  topic's terms. Items are joined into one *entry* when they share their primary arXiv id,
  else their primary URL, else their leading name or a near-identical title (rapidfuzz);
  two entries with different arXiv ids are never joined.
- An entry with an arXiv id is a *main increment*; one without is an *adjacent* item.
- *NET-new* means not anchored in the living document (neither its arXiv id nor its name
  occurs there); it is not the same as newly published.
- *Credibility* scores signals found in the entry's text: peer-reviewed venue +2, known
  institution +1, public code +1, production data +1; single author -2, no code -1,
  missing metrics -1. A score of 4 or more is 极高, 1 to 3 高, below 1 中-低.
- *Value stars* (1-5): 1, +2 for 极高 or +1 for 高, +1 when two or more sources report it,
  +1 when it carries numbers, +1 when it is NET-new.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from rapidfuzz import fuzz

from .errors import ConfigError
from .extract import extract_claims
from .sources.inbox import (
    SHANGHAI,
    TOPIC_TERMS,
    Card,
    Inbox,
    KnowledgeDoc,
    NoteItem,
    Problem,
    normalise_url,
    parse_arxiv_ids,
    parse_numbers,
    parse_urls,
)

__all__ = [
    "Citation",
    "Contradiction",
    "Digest",
    "Entry",
    "KeyPoint",
    "LivingDoc",
    "SectionRef",
    "SourceCount",
    "Statement",
    "Window",
    "build_digest",
]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Window(_Model):
    start: datetime
    end: datetime
    """Both in Asia/Shanghai; a note belongs to the window when start < time <= end."""


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


class Entry(_Model):
    """One main increment or adjacent item, deduplicated across notes and cards."""

    key: str
    title: str
    name: str = ""
    arxiv_ids: list[str] = Field(default_factory=list)
    urls: list[str] = Field(default_factory=list)
    status: Literal["net-new", "anchored"]
    anchored_by: str = ""
    cards: list[int] = Field(default_factory=list)
    venue: str = ""
    credibility: Literal["极高", "高", "中-低"]
    reasons: list[str] = Field(default_factory=list)
    sources: list[str] = Field(default_factory=list)
    first_seen: datetime
    key_points: list[KeyPoint] = Field(default_factory=list)
    relation: list[SectionRef] = Field(default_factory=list)
    suggested_section: str = ""
    stars: int = 1


class Statement(_Model):
    source: str
    text: str


class Contradiction(_Model):
    entity: str
    kind: Literal["number", "status"]
    about: str
    """The metric (`speedup ×`) or the kind of status (`merge`, `release`)."""
    statements: list[Statement]


class SourceCount(_Model):
    path: str
    analyst: str
    kind: Literal["note", "card", "queue"]
    items: int
    """Items on the topic (before dedup); zero counts are kept."""
    timestamp: datetime | None = None
    date_only: bool = False
    detail: str = ""
    """For a card: its number, arXiv ids and primary category."""
    titles: list[str] = Field(default_factory=list)


class LivingDoc(_Model):
    path: str
    title: str
    sections: int
    arxiv_ids: int


class Citation(_Model):
    arxiv_id: str
    title: str
    facts: list[str] = Field(default_factory=list)


class Digest(_Model):
    topic: str
    window: Window
    living_doc: LivingDoc | None = None
    sources: list[SourceCount] = Field(default_factory=list)
    increments: list[Entry] = Field(default_factory=list)
    adjacent: list[Entry] = Field(default_factory=list)
    contradictions: list[Contradiction] = Field(default_factory=list)
    net_new_arxiv: list[Citation] = Field(default_factory=list)
    outside_window: int = 0
    """Notes and cards with a timestamp outside the window (not checked)."""
    problems: list[Problem] = Field(default_factory=list)

    @property
    def carried(self) -> list[Entry]:
        """Entries already anchored in the living document (沿用件)."""
        return [e for e in [*self.increments, *self.adjacent] if e.status == "anchored"]

    @property
    def not_included(self) -> list[SourceCount]:
        return [source for source in self.sources if not source.items]


class _Mention(_Model):
    source: str
    when: datetime
    item: NoteItem


# --- gathering -----------------------------------------------------------------------------


def _in_window(when: datetime | None, window: Window) -> bool:
    return when is not None and window.start < when <= window.end


def _gather(inbox: Inbox, window: Window) -> tuple[list[_Mention], list[SourceCount], int]:
    """Every item of the notes and cards in the window, and one (uncounted) row per source."""
    mentions: list[_Mention] = []
    rows: list[SourceCount] = []
    outside = 0
    for note in sorted(inbox.notes, key=lambda n: (n.analyst, n.timestamp or window.end, n.path)):
        if note.timestamp is None:
            continue  # listed as a no-timestamp problem by the loader
        if not _in_window(note.timestamp, window):
            outside += 1
            continue
        mentions += [_Mention(source=note.path, when=note.timestamp, item=i) for i in note.items]
        rows.append(
            SourceCount(
                path=note.path,
                analyst=note.analyst,
                kind="note",
                items=0,
                timestamp=note.timestamp,
                date_only=note.date_only,
            )
        )
    for card in sorted(inbox.cards, key=lambda c: (c.number or 0, c.path)):
        if card.item is None or card.timestamp is None:
            continue
        if not _in_window(card.timestamp, window):
            outside += 1
            continue
        mentions.append(_Mention(source=card.path, when=card.timestamp, item=card.item))
        rows.append(
            SourceCount(
                path=card.path,
                analyst="paper_cards",
                kind="card",
                items=0,
                timestamp=card.timestamp,
                detail=_card_detail(card),
            )
        )
    return mentions, rows, outside


def _card_detail(card: Card) -> str:
    number = f"{card.number:04d}" if card.number is not None else "无编号"
    return " · ".join([number, *(f"arXiv:{i}" for i in card.arxiv_ids), card.category or "无分类"])


def _count(rows: list[SourceCount], groups: list[list[_Mention]], inbox: Inbox, topic: str) -> None:
    """Fill each row with the titles of its items that belong to an on-topic entry."""
    for group in groups:
        for mention in group:
            row = next(r for r in rows if r.path == mention.source)
            row.items += 1
            row.titles.append(mention.item.title)
    if inbox.queue is not None:
        titles = [item.title for item in inbox.queue.items if topic in item.topics]
        queue = SourceCount(
            path=inbox.queue.path,
            analyst="work-queue",
            kind="queue",
            items=len(titles),
            titles=titles,
        )
        rows.insert(0, queue)


# --- dedup -------------------------------------------------------------------------------


def _norm_title(title: str) -> str:
    return re.sub(r"[\W_]+", " ", title.lower()).strip()


def _primary_url(item: NoteItem) -> str:
    for url in item.urls:
        key = normalise_url(url)
        if not key.startswith(("arxiv.org", "huggingface.co/papers", "hf.co")) and "/" in key:
            return key
    return ""


def _group(mentions: list[_Mention]) -> list[list[_Mention]]:
    """Union-find over mentions; groups with different arXiv ids are never joined."""
    parent = list(range(len(mentions)))
    ids = [set(m.item.arxiv_ids[:1]) for m in mentions]

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def union(i: int, j: int) -> None:
        a, b = find(i), find(j)
        if a != b and (not ids[a] or not ids[b] or ids[a] & ids[b]):
            parent[b] = a
            ids[a] |= ids[b]

    keyers: list[Callable[[_Mention], str]] = [
        lambda m: m.item.arxiv_ids[0] if m.item.arxiv_ids else "",
        lambda m: _primary_url(m.item),
        lambda m: m.item.name.lower() if len(m.item.name) >= 3 else "",
    ]
    for keyer in keyers:
        first: dict[str, int] = {}
        for index, mention in enumerate(mentions):
            key = keyer(mention)
            if key:
                union(first.setdefault(key, index), index)
    titles = [_norm_title(m.item.title) for m in mentions]
    for i, j in itertools.combinations(range(len(titles)), 2):
        if (
            min(len(titles[i]), len(titles[j])) >= 8
            and fuzz.token_sort_ratio(titles[i], titles[j]) >= 90
        ):
            union(i, j)
    groups: dict[int, list[_Mention]] = {}
    for index, mention in enumerate(mentions):
        groups.setdefault(find(index), []).append(mention)
    return list(groups.values())


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


def _credibility(
    text: str, urls: list[str]
) -> tuple[Literal["极高", "高", "中-低"], list[str], str]:
    """Rating, reasons and venue from the signals in an entry's text (see the module doc)."""
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


def _claim_points(mention: _Mention) -> list[KeyPoint]:
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


def _line_points(mention: _Mention) -> list[KeyPoint]:
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


def _key_points(mentions: Iterable[_Mention]) -> list[KeyPoint]:
    """Key points with numbers and their conditions, one per distinct statement."""
    points: dict[str, KeyPoint] = {}
    for mention in mentions:
        for point in _claim_points(mention) or _line_points(mention):
            if len(point.text) > 240:
                point.text = point.text[:238] + "…"
            points.setdefault(_norm_title(point.text), point)
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


def _relation(text: str, doc: KnowledgeDoc) -> list[SectionRef]:
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


def _anchor(
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


def _facts(mentions: list[_Mention]) -> dict[tuple[str, str], dict[str, tuple[set[str], str]]]:
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


def _contradictions(entity: str, mentions: list[_Mention]) -> list[Contradiction]:
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


# --- entries -----------------------------------------------------------------------------


def _stars(entry: Entry) -> int:
    bonus = {"极高": 2, "高": 1, "中-低": 0}[entry.credibility]
    extra = (len(entry.sources) >= 2) + bool(entry.key_points) + (entry.status == "net-new")
    return max(1, min(5, 1 + bonus + extra))


def _entry(group: list[_Mention], inbox: Inbox, doc: KnowledgeDoc | None) -> Entry:
    group = sorted(group, key=lambda m: (m.when, m.source, m.item.line))
    ids = sorted({m.item.arxiv_ids[0] for m in group if m.item.arxiv_ids})
    cards = [c for c in inbox.cards if c.number is not None and set(c.arxiv_ids) & set(ids)]
    card_titles = [c.title for c in sorted(cards, key=lambda c: c.number or 0) if c.title]
    urls = [f"https://arxiv.org/abs/{i}" for i in ids]
    for url in (u for m in group for u in m.item.urls):
        if set(parse_arxiv_ids(url)) & set(ids):
            continue  # the canonical abs URL stands for every version
        if normalise_url(url) not in {normalise_url(u) for u in urls}:
            urls.append(url)
    text = "\n".join([*(m.item.text for m in group), *(c.text for c in cards)])
    name = next((m.item.name for m in group if m.item.name), "")
    anchored_by, home = _anchor(ids, name, doc)
    rating, reasons, venue = _credibility(text, urls)
    relation = [home] if home else (_relation(text, doc) if doc else [])
    first = group[0]
    key = (
        f"arxiv:{ids[0]}"
        if ids
        else (
            f"url:{_primary_url(first.item)}"
            if _primary_url(first.item)
            else f"title:{_norm_title(first.item.title)}"
        )
    )
    entry = Entry(
        key=key,
        title=card_titles[0] if card_titles else first.item.title,
        name=name,
        arxiv_ids=ids,
        urls=urls,
        status="anchored" if anchored_by else "net-new",
        anchored_by=anchored_by,
        cards=sorted({c.number for c in cards if c.number is not None}),
        venue=venue,
        credibility=rating,
        reasons=reasons,
        sources=list(dict.fromkeys(m.source for m in group)),
        first_seen=first.when,
        key_points=_key_points(group),
        relation=relation,
        suggested_section=f"{relation[0].id} {relation[0].heading}".strip() if relation else "",
    )
    entry.stars = _stars(entry)
    return entry


def _citation(entry: Entry, arxiv_id: str) -> Citation:
    """Title plus venue, the number most sources agree on, and the date first seen."""
    facts = [entry.venue] if entry.venue else []
    heads = Counter(point.numbers[0] for point in entry.key_points)
    facts += [number for number, _ in heads.most_common(1)]
    facts.append(entry.first_seen.astimezone(SHANGHAI).strftime("%Y-%m-%d"))
    return Citation(arxiv_id=arxiv_id, title=entry.title, facts=facts)


def _living_doc(doc: KnowledgeDoc | None) -> LivingDoc | None:
    if doc is None:
        return None
    return LivingDoc(
        path=doc.path, title=doc.title, sections=len(doc.sections), arxiv_ids=len(doc.arxiv_ids)
    )


def build_digest(inbox: Inbox, *, topic: str, start: datetime, end: datetime) -> Digest:
    """The digest of `inbox` for `topic` over the window start < t <= end (aware datetimes).

    Raises:
        ConfigError: unknown topic, naive or empty window.
    """
    if topic not in TOPIC_TERMS:
        known = ", ".join(sorted(TOPIC_TERMS))
        raise ConfigError(f"unknown topic {topic!r}; known topics: {known}")
    if start.tzinfo is None or end.tzinfo is None or start >= end:
        raise ConfigError("the digest window needs timezone-aware start < end")
    window = Window(start=start.astimezone(SHANGHAI), end=end.astimezone(SHANGHAI))
    doc = inbox.knowledge.get(topic)
    problems = list(inbox.problems)
    if doc is None:
        message = (
            f"no living document for topic {topic!r} (knowledge/{topic}.md); all items NET-new"
        )
        problems.append(
            Problem(path=f"knowledge/{topic}.md", kind="no-living-doc", message=message)
        )
    mentions, sources, outside = _gather(inbox, window)
    groups = [g for g in _group(mentions) if any(topic in m.item.topics for m in g)]
    _count(sources, groups, inbox, topic)
    entries = [_entry(group, inbox, doc) for group in groups]
    entries.sort(key=lambda e: (-e.stars, e.first_seen, e.title))
    contradictions = [c for group in groups for c in _contradictions(_entity(group), group)]
    increments = [e for e in entries if e.arxiv_ids]
    return Digest(
        topic=topic,
        window=window,
        living_doc=_living_doc(doc),
        sources=sources,
        increments=increments,
        adjacent=[e for e in entries if not e.arxiv_ids],
        contradictions=contradictions,
        net_new_arxiv=[
            _citation(e, i) for e in increments if e.status == "net-new" for i in e.arxiv_ids
        ],
        outside_window=outside,
        problems=problems,
    )


def _entity(group: list[_Mention]) -> str:
    first = min(group, key=lambda m: (m.when, m.source, m.item.line))
    name = next((m.item.name for m in group if m.item.name), "")
    ids = sorted({m.item.arxiv_ids[0] for m in group if m.item.arxiv_ids})
    label = name or first.item.title
    return f"{label} (arXiv:{ids[0]})" if ids else label
