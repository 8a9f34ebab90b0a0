"""Markdown notes as data: items, identifiers, numbers, topics and links (a note's
timestamp and front matter are read by `sources.note_meta`).

The pure text layer under `sources.inbox`: every function here takes a string and returns
values, never touching the disk. `parse_items` splits a note's Markdown into `NoteItem`s
(one per heading section, or one per bullet with its own identifiers) and tags each with
the arXiv ids, URLs, numbers and topic terms found in it. Bad input found in the text (front
matter that is not YAML, malformed URLs) is returned as a `Problem` (refs #9).
"""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from pydantic import BaseModel, ConfigDict, Field

from research_radar.extract.prefilter import fold

__all__ = [
    "SHANGHAI",
    "TOPIC_TERMS",
    "NoteItem",
    "Problem",
    "match_topics",
    "normalise_url",
    "parse_arxiv_ids",
    "parse_item",
    "parse_items",
    "parse_links",
    "parse_numbers",
    "parse_sections",
    "parse_urls",
    "strip_markup",
]

SHANGHAI = ZoneInfo("Asia/Shanghai")

TOPIC_TERMS: dict[str, tuple[str, ...]] = {
    "inference": (
        "inference", "serving", "推理", "kv cache", "kv-cache", "kvcache", "kv 缓存", "prefill",
        "decode", "decoding", "解码", "speculative", "投机", "attention", "注意力", "vllm",
        "sglang", "tensorrt-llm", "trt-llm", "llama.cpp", "quantization", "quantisation", "量化",
        "kernel", "算子", "batching", "批处理", "throughput", "吞吐", "latency", "延迟", "ttft",
        "tpot", "long-context", "long context", "长上下文", "稀疏", "disaggregat", "p/d 分离",
        "pd 分离", "offload", "卸载", "flashattention", "moe", "slo", "goodput", "lmcache", "显存",
    ),
    "rsi": (
        "self-improving", "self-improvement", "self-improve", "recursive self", "rsi", "自我改进",
        "自改进", "自我进化", "self-evolving", "autotuning", "auto-tuning", "自动调优",
        "evolutionary search", "进化搜索", "alphaevolve", "darwin gödel", "program search",
        "harness", "verifier", "验证器", "kernelbench", "kernel generation", "自动优化",
        "reward hacking", "skill library", "经验复用", "code evolution", "open-ended",
    ),
}  # fmt: skip
"""Topic -> bilingual terms (lower-case). An item is on a topic when one term occurs."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Problem(_Model):
    """One piece of bad input: where, what kind, and what to do about it."""

    path: str
    kind: str
    """no-timestamp, duplicate-card-number, duplicate-card-arxiv, broken-link, malformed-url,
    unreadable, not-utf8, bad-front-matter, skipped-file, missing-path, card-without-number,
    card-without-arxiv, no-analyst, no-living-doc."""
    message: str


class NoteItem(_Model):
    """One entry of a note: a heading section or a bullet with its own identifiers."""

    title: str
    name: str = ""
    """A proper name leading the title (RetroInfer, vLLM), used to match and anchor."""
    text: str
    section: str = ""
    line: int = 0
    arxiv_ids: list[str] = Field(default_factory=list)
    urls: list[str] = Field(default_factory=list)
    numbers: list[str] = Field(default_factory=list)
    topics: dict[str, list[str]] = Field(default_factory=dict)
    """Topic -> the terms that matched."""


# --- identifiers -------------------------------------------------------------------------

_ARXIV = re.compile(
    r"(?:arxiv(?:\.org/(?:abs|pdf|html)/|[\s:：]*)|(?:huggingface\.co|hf\.co)/papers/)"
    r"(\d{2}(?:0[1-9]|1[0-2])\.\d{4,5})(?:v\d+)?(?!\d)",
    re.IGNORECASE,
)
_URL = re.compile(r"https?://[^\s<>()\[\]{}\"'`，。；、）》|]+", re.IGNORECASE)
_LINK = re.compile(r"\[([^\]\n]*)\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
_TRAILING = ".,;:!?*_~'\""


def parse_arxiv_ids(text: str) -> list[str]:
    """arXiv ids in any form (arXiv:ID, /abs/, /pdf/, /html/, hf papers), version stripped."""
    return list(dict.fromkeys(match.group(1) for match in _ARXIV.finditer(text)))


def parse_urls(text: str) -> list[str]:
    """http(s) URLs in order of appearance, trailing punctuation removed, unique."""
    return list(dict.fromkeys(match.group(0).rstrip(_TRAILING) for match in _URL.finditer(text)))


def normalise_url(url: str) -> str:
    """A comparison key: lower-case host without www., no fragment, query or trailing slash."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:  # malformed (bad IPv6 or NFKC netloc); reported by parse_links
        return url.strip().lower()
    host = parts.netloc.lower().removeprefix("www.")
    path = re.sub(r"/+$", "", parts.path)
    if host == "github.com":
        path = path.lower().removesuffix(".git")
    return f"{host}{path}"


def _url_is_valid(url: str) -> bool:
    try:
        parts = urlsplit(url)
        _ = parts.port
    except ValueError:
        return False
    host = parts.hostname or ""
    return parts.scheme in {"http", "https"} and ("." in host or host == "localhost")


# --- numbers and topics ------------------------------------------------------------------

_NUMBER = re.compile(
    r"(?<![\w.$])[-+~≈<>≤≥]?\$?\d+(?:\.\d+)?(?:\s?[-–~]\s?\d+(?:\.\d+)?)?"
    r"\s?(?:×|倍|%|pp\b|ms\b|μs\b|us\b|s\b|秒|毫秒|GB/s|TB/s|GB\b|TB\b|MB\b|TFLOPS|TFLOPs"
    r"|PFLOPS|PFLOPs|tok/s|tokens?/s|req/s|QPS\b|[xX](?![a-zA-Z0-9])|[KMBT](?![a-zA-Z0-9])"
    r"|万|亿|并发|张卡|卡)",
)


def parse_numbers(text: str) -> list[str]:
    """Numbers that carry a unit (3.2×, -24.1%, 4.7-6.3×, 128K, 800 GB/s), in order."""
    return [match.group(0).strip() for match in _NUMBER.finditer(text)]


def _term_pattern(term: str) -> re.Pattern[str]:
    escaped = re.escape(term)
    if not term.isascii():
        return re.compile(escaped, re.IGNORECASE)
    tail = r"(?![a-z0-9])" if len(term) <= 4 else ""
    return re.compile(rf"(?<![a-z0-9]){escaped}{tail}", re.IGNORECASE)


def _term_needle(term: str) -> str | None:
    """What a text must hold (folded, `prefilter.fold`) for a term's pattern to match it:
    the term in lower case when it is ASCII, the term itself when it has no case; else
    None (always search)."""
    if term.isascii():
        return term.lower()
    return term if term.lower() == term.upper() == term else None


_TERM_PATTERNS = {
    topic: [(term, _term_needle(term), _term_pattern(term)) for term in terms]
    for topic, terms in TOPIC_TERMS.items()
}


_NEGATED = re.compile(
    r"(?:与|和|跟)[^，。；,;\n]{1,30}?无关|非\s*[A-Za-z][\w\-]*(?:\s*主轴)?|非[一-鿿]{1,8}主轴"
    r"|(?:not|un)related to [\w\- ]{1,30}",
    re.IGNORECASE,
)


def match_topics(text: str) -> dict[str, list[str]]:
    """Topic -> matched terms, only for topics with at least one match.

    Terms inside a negation ("与 inference 无关", "非 inference 主轴") do not count.
    """
    text = _NEGATED.sub(" ", text)
    folded = fold(text)  # a needle not in it: the pattern cannot match (#19)
    found: dict[str, list[str]] = {}
    for topic, patterns in _TERM_PATTERNS.items():
        hits = [
            term
            for term, needle, pattern in patterns
            if (needle is None or needle in folded) and pattern.search(text)
        ]
        if hits:
            found[topic] = hits
    return found


# --- Markdown structure ------------------------------------------------------------------

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^ {0,1}(?:[-*+•]|\d{1,3}[.)、])\s+(.*)$")
_BOLD_LEAD = re.compile(r"^\s*(?:\*\*|__)(.+?)(?:\*\*|__)")
_LABEL = re.compile(
    r"^\s*(?:\*\*|__)?(来源|链接|来源链接|要点|作者|会议|状态|可信度|代码|论文|数字|结论|备注|日期|摘要"
    r"|source|sources|link|links|url|authors?|venue|status|code|paper|arxiv|notes?|date|summary"
    r"|tl;dr|why|numbers|limits?|限制|条件|category|分类)(?:\*\*|__)?\s*[:：]",
    re.IGNORECASE,
)
_GENERIC = {"the", "a", "new", "kv", "gpu", "llm", "llms", "paper", "blog", "today", "note",
            "update", "benchmark", "inference", "serving", "attention", "cache", "release",
            "arxiv", "github", "http", "https", "todo", "done"}  # fmt: skip


def strip_markup(text: str) -> str:
    """Markdown inline markup removed: links keep their text, emphasis and code marks go."""
    text = _LINK.sub(lambda m: m.group(1) or m.group(2), text)
    text = re.sub(r"(\*\*|__|`)", "", text)
    return re.sub(r"\s+", " ", text).strip()


@lru_cache(maxsize=4096)
def _title_of(text: str) -> str:
    plain = strip_markup(_BULLET.sub(r"\1", text.splitlines()[0] if text else ""))
    plain = _ARXIV.sub("", _URL.sub("", plain))
    plain = re.sub(r"[(（][^()（）]*[)）]", "", plain)
    plain = re.sub(r"^[#\s]*(?:§?[\dA-Za-z]{1,3}[.)、]\s+)?", "", plain)
    plain = re.sub(r"\s+([：:，,])", r"\1", re.sub(r"[(（]\s*[)）]", "", plain)).strip(" :：-—")
    clause = re.split(r"[。；;，,]|\.\s", plain, maxsplit=1)[0].strip(" :：-—")
    return clause if len(clause) <= 90 else clause[:88].rstrip() + "…"


@lru_cache(maxsize=4096)
def _name_of(text: str, title: str) -> str:
    bold = _BOLD_LEAD.match(_BULLET.sub(r"\1", text.splitlines()[0] if text else ""))
    if bold and len(bold.group(1)) <= 40 and not _LABEL.match(bold.group(0) + ":"):
        return strip_markup(bold.group(1))
    lead = re.split(r"\s*[:：—–(（,，/]\s*|\s+-\s+", title, maxsplit=1)[0].strip()
    words = lead.split()
    capitalised = all(any(c.isupper() or c.isdigit() for c in word) for word in words)
    if 1 < len(words) <= 3 and len(lead) <= 40 and words[0][0].isalpha() and capitalised:
        return lead  # a multi-word proper name: Darwin Gödel Machine, vLLM V1
    first = words[0] if words else ""
    proper = re.fullmatch(r"[A-Za-z][\w.+\-]{2,}", first) and any(c.isupper() for c in first)
    return first if proper and first.lower() not in _GENERIC else ""


def _identifiers(text: str) -> set[str]:
    ids = {f"arxiv:{x}" for x in parse_arxiv_ids(text)} | {
        normalise_url(u) for u in parse_urls(text)
    }
    name = _name_of(text, _title_of(text))
    if name and _BOLD_LEAD.match(_BULLET.sub(r"\1", text.splitlines()[0])):
        ids.add(f"name:{name.lower()}")
    return ids


def _is_entry(bullet: str) -> bool:
    """A bullet that introduces its own thing (not a `label: value` field or a bare link)."""
    first = _BULLET.sub(r"\1", bullet.splitlines()[0])
    if _LABEL.match(first):
        return False
    rest = re.sub(r"\W+", "", _ARXIV.sub("", _URL.sub("", strip_markup(first))))
    return len(rest) > 8 and bool(_identifiers(bullet))


def _blocks(lines: list[str]) -> list[tuple[int, str]]:
    """Split section lines into (line offset, text) blocks: a head then one per bullet."""
    blocks: list[tuple[int, list[str]]] = [(0, [])]
    for offset, line in enumerate(lines):
        if _BULLET.match(line):
            blocks.append((offset, [line]))
        else:
            blocks[-1][1].append(line)
    return [(offset, "\n".join(body).strip()) for offset, body in blocks]


def parse_sections(body: str) -> list[tuple[str, int, int, list[str]]]:
    """(heading, level, first line, lines) per heading; a preamble section has level 0."""
    sections: list[tuple[str, int, int, list[str]]] = [("", 0, 0, [])]
    fenced = False
    for number, line in enumerate(body.splitlines()):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        heading = None if fenced else _HEADING.match(line)
        if heading:
            sections.append((strip_markup(heading.group(2)), len(heading.group(1)), number, []))
        else:
            sections[-1][3].append(line)
    return [s for s in sections if s[1] or any(line.strip() for line in s[3])]


def parse_item(title: str, text: str, section: str, line: int) -> NoteItem:
    """One item from its text, tagged with ids, URLs, numbers and topic terms.

    An empty `title` is derived from the text's first line.
    """
    title = title or _title_of(text)
    return NoteItem.model_construct(  # every field given, of its type: no validation (#19)
        title=title,
        name=_name_of(text, title),
        text=text,
        section=section,
        line=line,
        arxiv_ids=parse_arxiv_ids(text),
        urls=parse_urls(text),
        numbers=parse_numbers(text),
        topics=match_topics(text),
    )


def _head_named(heading: str, head_text: str) -> bool:
    """The section's head names its own thing; asked only when one bullet is an entry (#19)."""
    return bool(_identifiers(head_text)) or bool(_name_of(heading, _title_of(heading)))


def _section_items(heading: str, line: int, lines: list[str]) -> list[NoteItem]:
    blocks = _blocks(lines)
    head_text = "\n".join(filter(None, [heading, blocks[0][1]]))
    entries = [index for index, (_, text) in enumerate(blocks) if index and _is_entry(text)]
    if not (len(entries) >= 2 or (len(entries) == 1 and not _head_named(heading, head_text))):
        if not any(body for _, body in blocks):
            return []  # a bare heading says nothing
        text = "\n".join(filter(None, [heading] + [body for _, body in blocks]))
        return [parse_item(_title_of(heading) if heading else "", text, heading, line + 1)]
    starts = [0, *entries]
    items = []
    for position, start in enumerate(starts):
        stop = starts[position + 1] if position + 1 < len(starts) else len(blocks)
        chunk = [body for _, body in blocks[start:stop]]
        if start == 0 and (parse_arxiv_ids(head_text) or parse_urls(head_text)):
            items.append(
                parse_item(
                    _title_of(heading), "\n".join([head_text, *chunk[1:]]), heading, line + 1
                )
            )
        elif start:
            items.append(parse_item("", "\n".join(chunk), heading, line + 2 + blocks[start][0]))
    return items


def _keep(item: NoteItem) -> bool:
    return bool(item.arxiv_ids or item.urls or item.numbers or item.topics)


def parse_items(body: str, *, title: str = "", first_line: int = 1) -> list[NoteItem]:
    """Split Markdown into items: one per heading section, or one per bullet that has its
    own identifiers (arXiv id, URL or bold name). Items with no identifier, number or
    topic term are prose and left out."""
    items: list[NoteItem] = []
    for heading, level, line, lines in parse_sections(body):
        head = heading if level else title
        for item in _section_items(head, line + first_line - 1, lines):
            if _keep(item):
                items.append(item)
    return items


# --- links --------------------------------------------------------------


def parse_links(body: str, path: str) -> tuple[list[str], list[Problem]]:
    """Relative link targets to check on disk, and problems with malformed URLs."""
    relative: list[str] = []
    bad: list[str] = [url for url in parse_urls(body) if not _url_is_valid(url)]
    for match in _LINK.finditer(body):
        target = match.group(2).strip()
        if not target or target.startswith(("#", "mailto:")):
            continue
        scheme = re.match(r"^([a-z][a-z0-9+.\-]*):", target, re.IGNORECASE)
        if scheme and scheme.group(1).lower() in {"http", "https"}:
            if not _url_is_valid(target):
                bad.append(target)
        elif target.lower().startswith(("http", "www.")):
            bad.append(target)
        elif not scheme:
            relative.append(re.split(r"[#?]", target, maxsplit=1)[0])
    problems = [
        Problem(path=path, kind="malformed-url", message=f"malformed URL {url!r}; fix the link")
        for url in dict.fromkeys(bad)
    ]
    return [t for t in dict.fromkeys(relative) if t], problems
