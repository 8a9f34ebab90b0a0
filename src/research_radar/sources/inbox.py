"""The team inbox: analysts' notes, paper cards, living knowledge documents, a work queue.

Layout under one root (every part can be given its own path):

    inbox/<analyst>/*.md      notes; timestamp in the file name or in front matter
    paper_cards/NNNN-*.md     numbered cards naming arXiv ids and a primary category
    knowledge/<topic>.md      the living document of a topic (`## §N ...` sections)
    work-queue.md             the queue of pending work

`load_inbox` is the only function here that touches the disk; every `parse_*` is pure.
Bad input (no timestamp, duplicate card numbers, broken links, unreadable files) is
recorded as a `Problem`, never dropped silently (refs #9, #3).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date, datetime, time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

import frontmatter
import yaml  # type: ignore[import-untyped]  # types-PyYAML is not installed
from pydantic import BaseModel, ConfigDict, Field

from ..errors import SourceError

__all__ = [
    "SHANGHAI",
    "TOPIC_TERMS",
    "Card",
    "Inbox",
    "KnowledgeDoc",
    "KnowledgeSection",
    "Note",
    "NoteItem",
    "Problem",
    "WorkQueue",
    "load_inbox",
    "match_topics",
    "normalise_url",
    "parse_arxiv_ids",
    "parse_card",
    "parse_items",
    "parse_knowledge",
    "parse_note",
    "parse_numbers",
    "parse_queue",
    "parse_timestamp",
    "parse_urls",
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


class Note(_Model):
    path: str
    """Relative to the root when under it (POSIX separators)."""
    analyst: str
    title: str = ""
    timestamp: datetime | None = None
    """Timezone-aware; naive times are read as Asia/Shanghai."""
    date_only: bool = False
    """Only a date was given: the timestamp is that day's 00:00 in Shanghai."""
    items: list[NoteItem] = Field(default_factory=list)
    links: list[str] = Field(default_factory=list)
    """Relative link targets, checked for existence by load_inbox."""


class Card(_Model):
    path: str
    number: int | None = None
    title: str = ""
    arxiv_ids: list[str] = Field(default_factory=list)
    category: str = ""
    timestamp: datetime | None = None
    text: str = ""
    item: NoteItem | None = None
    """The card read as one item (title, ids, numbers, topic terms), to dedup with notes."""


class KnowledgeSection(_Model):
    id: str
    """`§1.(3)` when the heading carries one, else the heading text."""
    heading: str
    level: int
    text: str
    arxiv_ids: list[str] = Field(default_factory=list)


class KnowledgeDoc(_Model):
    path: str
    topic: str
    title: str = ""
    sections: list[KnowledgeSection] = Field(default_factory=list)
    arxiv_ids: list[str] = Field(default_factory=list)
    text: str = ""


class WorkQueue(_Model):
    path: str
    items: list[NoteItem] = Field(default_factory=list)
    lines: int = 0


class Inbox(_Model):
    """Everything read from one inbox root."""

    root: str
    notes: list[Note] = Field(default_factory=list)
    cards: list[Card] = Field(default_factory=list)
    knowledge: dict[str, KnowledgeDoc] = Field(default_factory=dict)
    queue: WorkQueue | None = None
    problems: list[Problem] = Field(default_factory=list)


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
    except ValueError:  # malformed (bad IPv6 or NFKC netloc); reported by _check_links
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


_TERM_PATTERNS = {
    topic: [(term, _term_pattern(term)) for term in terms] for topic, terms in TOPIC_TERMS.items()
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
    found: dict[str, list[str]] = {}
    for topic, patterns in _TERM_PATTERNS.items():
        hits = [term for term, pattern in patterns if pattern.search(text)]
        if hits:
            found[topic] = hits
    return found


# --- timestamps --------------------------------------------------------------------------

_NAME_STAMP = re.compile(
    r"(?<!\d)(20\d\d)-?(\d\d)-?(\d\d)(?:[T_\- ]?([0-2]\d)[:\-]?([0-5]\d)(?!\d))?(?!\d)"
)


def _as_time(value: Any) -> time | None:
    if isinstance(value, time):
        return value
    if isinstance(value, int) and 0 <= value < 24 * 60:  # YAML 1.1 reads 14:40 as 880
        return time(value // 60, value % 60)
    match = re.fullmatch(r"\s*([0-2]?\d)[:：.]?([0-5]\d)\s*", str(value))
    if match and int(match.group(1)) < 24:
        return time(int(match.group(1)), int(match.group(2)))
    return None


def _from_meta(meta: Mapping[str, Any]) -> tuple[datetime | None, bool]:
    value = meta.get("date", meta.get("created", meta.get("added")))
    if value is None:
        return None, False
    clock = _as_time(meta["time"]) if "time" in meta else None
    if isinstance(value, datetime):
        stamp, date_only = value, False
    elif isinstance(value, date):
        stamp, date_only = datetime.combine(value, clock or time()), clock is None
    else:
        try:
            stamp = datetime.fromisoformat(str(value).strip())
        except ValueError:
            return None, False
        date_only = len(str(value).strip()) <= 10 and clock is None
        if clock is not None and len(str(value).strip()) <= 10:
            stamp = datetime.combine(stamp.date(), clock)
    return (stamp if stamp.tzinfo else stamp.replace(tzinfo=SHANGHAI)), date_only


def parse_timestamp(name: str, meta: Mapping[str, Any]) -> tuple[datetime | None, bool]:
    """When a note was written: front matter `date:` (+ `time:`) first, else the file name.

    Returns the timezone-aware time and whether only a date was known (then 00:00 Shanghai).
    """
    stamp, date_only = _from_meta(meta)
    if stamp is not None:
        return stamp, date_only
    match = _NAME_STAMP.search(name)
    if not match:
        return None, False
    year, month, day, hour, minute = match.groups()
    try:
        found = datetime(int(year), int(month), int(day), int(hour or 0), int(minute or 0))
    except ValueError:
        return None, False
    return found.replace(tzinfo=SHANGHAI), hour is None


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


def _plain(text: str) -> str:
    """Markdown inline markup removed: links keep their text, emphasis and code marks go."""
    text = _LINK.sub(lambda m: m.group(1) or m.group(2), text)
    text = re.sub(r"(\*\*|__|`)", "", text)
    return re.sub(r"\s+", " ", text).strip()


def _title_of(text: str) -> str:
    plain = _plain(_BULLET.sub(r"\1", text.splitlines()[0] if text else ""))
    plain = _ARXIV.sub("", _URL.sub("", plain))
    plain = re.sub(r"[(（][^()（）]*[)）]", "", plain)
    plain = re.sub(r"^[#\s]*(?:§?[\dA-Za-z]{1,3}[.)、]\s+)?", "", plain)
    plain = re.sub(r"\s+([：:，,])", r"\1", re.sub(r"[(（]\s*[)）]", "", plain)).strip(" :：-—")
    clause = re.split(r"[。；;，,]|\.\s", plain, maxsplit=1)[0].strip(" :：-—")
    return clause if len(clause) <= 90 else clause[:88].rstrip() + "…"


def _name_of(text: str, title: str) -> str:
    bold = _BOLD_LEAD.match(_BULLET.sub(r"\1", text.splitlines()[0] if text else ""))
    if bold and len(bold.group(1)) <= 40 and not _LABEL.match(bold.group(0) + ":"):
        return _plain(bold.group(1))
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
    rest = re.sub(r"\W+", "", _ARXIV.sub("", _URL.sub("", _plain(first))))
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


def _sections(body: str) -> list[tuple[str, int, int, list[str]]]:
    """(heading, level, first line, lines) per heading; a preamble section has level 0."""
    sections: list[tuple[str, int, int, list[str]]] = [("", 0, 0, [])]
    fenced = False
    for number, line in enumerate(body.splitlines()):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        heading = None if fenced else _HEADING.match(line)
        if heading:
            sections.append((_plain(heading.group(2)), len(heading.group(1)), number, []))
        else:
            sections[-1][3].append(line)
    return [s for s in sections if s[1] or any(line.strip() for line in s[3])]


def _make_item(title: str, text: str, section: str, line: int) -> NoteItem:
    title = title or _title_of(text)
    return NoteItem(
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


def _section_items(heading: str, line: int, lines: list[str]) -> list[NoteItem]:
    blocks = _blocks(lines)
    head_text = "\n".join(filter(None, [heading, blocks[0][1]]))
    entries = [index for index, (_, text) in enumerate(blocks) if index and _is_entry(text)]
    head_named = bool(_identifiers(head_text)) or bool(_name_of(heading, _title_of(heading)))
    if not (len(entries) >= 2 or (len(entries) == 1 and not head_named)):
        if not any(body for _, body in blocks):
            return []  # a bare heading says nothing
        text = "\n".join(filter(None, [heading] + [body for _, body in blocks]))
        return [_make_item(_title_of(heading) if heading else "", text, heading, line + 1)]
    starts = [0, *entries]
    items = []
    for position, start in enumerate(starts):
        stop = starts[position + 1] if position + 1 < len(starts) else len(blocks)
        chunk = [body for _, body in blocks[start:stop]]
        if start == 0 and (parse_arxiv_ids(head_text) or parse_urls(head_text)):
            items.append(
                _make_item(
                    _title_of(heading), "\n".join([head_text, *chunk[1:]]), heading, line + 1
                )
            )
        elif start:
            items.append(_make_item("", "\n".join(chunk), heading, line + 2 + blocks[start][0]))
    return items


def _keep(item: NoteItem) -> bool:
    return bool(item.arxiv_ids or item.urls or item.numbers or item.topics)


def parse_items(body: str, *, title: str = "", first_line: int = 1) -> list[NoteItem]:
    """Split Markdown into items: one per heading section, or one per bullet that has its
    own identifiers (arXiv id, URL or bold name). Items with no identifier, number or
    topic term are prose and left out."""
    items: list[NoteItem] = []
    for heading, level, line, lines in _sections(body):
        head = heading if level else title
        for item in _section_items(head, line + first_line - 1, lines):
            if _keep(item):
                items.append(item)
    return items


def _first_line(exc: Exception) -> str:
    return (str(exc).splitlines() or [type(exc).__name__])[0]


def _split_front_matter(text: str, path: str) -> tuple[dict[str, Any], str, list[Problem]]:
    try:
        post = frontmatter.loads(text)
    except (yaml.YAMLError, ValueError) as exc:
        problem = Problem(
            path=path,
            kind="bad-front-matter",
            message=f"front matter is not valid YAML ({_first_line(exc)}); read as plain text",
        )
        return {}, text, [problem]
    meta = post.metadata if isinstance(post.metadata, dict) else {}
    return {str(k).lower(): v for k, v in meta.items()}, post.content, []


def _check_links(body: str, path: str) -> tuple[list[str], list[Problem]]:
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


def _first_h1(body: str) -> str:
    match = re.search(r"^#\s+(.+?)\s*#*\s*$", body, re.MULTILINE)
    return _plain(match.group(1)) if match else ""


def _body_line(text: str, body: str) -> int:
    index = text.find(body[:80]) if body else 0
    return text[: max(index, 0)].count("\n") + 1


def parse_note(text: str, *, path: str, analyst: str) -> tuple[Note, list[Problem]]:
    """A note's timestamp, title, items and links, plus the problems found in it."""
    meta, body, problems = _split_front_matter(text, path)
    stamp, date_only = parse_timestamp(path.rsplit("/", 1)[-1], meta)
    if stamp is None:
        problems.append(
            Problem(
                path=path,
                kind="no-timestamp",
                message="no timestamp in the file name or front matter; not placed in any window"
                " (rename to YYYY-MM-DD_HHMM_*.md or add `date:` front matter)",
            )
        )
    title = str(meta.get("title") or _first_h1(body))
    links, link_problems = _check_links(body, path)
    items = parse_items(body, title=title, first_line=_body_line(text, body))
    note = Note(
        path=path,
        analyst=analyst,
        title=title,
        timestamp=stamp,
        date_only=date_only,
        items=items,
        links=links,
    )
    return note, problems + link_problems


_FIELD = re.compile(
    r"^\s*(?:[-*]\s*)?(?:\*\*)?([A-Za-z][\w .\-]*?|[一-鿿]{1,6})(?:\*\*)?\s*[:：]\s*(.+)$"
)
_CARD_NUMBER = re.compile(r"^(\d{1,6})(?:[-_ .]|$)")
_CARD_ARXIV = re.compile(r"^\d{1,6}-(\d{2}(?:0[1-9]|1[0-2]))[-.](\d{4,5})(?!\d)")


def _fields(body: str, meta: Mapping[str, Any]) -> dict[str, Any]:
    """Front matter plus `key: value` lines of the body (front matter wins)."""
    found: dict[str, Any] = {}
    for line in body.splitlines():
        match = _FIELD.match(line)
        if match:
            found.setdefault(match.group(1).strip().lower(), match.group(2).strip())
    return {**found, **meta}


def _first_of(fields: Mapping[str, Any], *keys: str) -> str:
    for key in keys:
        value = fields.get(key)
        if value is not None and str(value).strip():
            return str(value[0] if isinstance(value, list) and value else value).strip()
    return ""


def parse_card(text: str, *, path: str) -> tuple[Card, list[Problem]]:
    """A paper card: number (from the file name), arXiv ids, primary category, date."""
    meta, body, problems = _split_front_matter(text, path)
    name = path.rsplit("/", 1)[-1]
    fields = _fields(body, meta)
    number = _CARD_NUMBER.match(name)
    from_name = _CARD_ARXIV.match(name)
    declared = " ".join(str(v) for k, v in fields.items() if k in {"arxiv", "arxiv_id", "arxiv id"})
    ids = parse_arxiv_ids(f"arXiv:{declared} " if declared else "") + parse_arxiv_ids(body)
    ids += re.findall(r"(?<![\d.])\d{4}\.\d{4,5}(?!\d)", declared)
    if from_name:
        ids.append(f"{from_name.group(1)}.{from_name.group(2)}")
    stamp, _ = _from_meta({k: v for k, v in fields.items() if k in {"date", "time", "added"}})
    card = Card(
        path=path,
        number=int(number.group(1)) if number else None,
        title=_plain(_first_of(fields, "title", "标题") or _first_h1(body)),
        arxiv_ids=list(dict.fromkeys(ids)),
        category=_first_of(fields, "category", "primary_category", "primary category", "主分类"),
        timestamp=stamp,
        text=body,
    )
    item = _make_item(card.title, "\n".join(filter(None, [card.title, body])), "", 1)
    card.item = item.model_copy(update={"arxiv_ids": card.arxiv_ids})
    if card.number is None:
        message = "card file name does not start with its number (NNNN-*.md); rename it"
        problems.append(Problem(path=path, kind="card-without-number", message=message))
    if not card.arxiv_ids:
        message = "card names no arXiv id; add a line `arXiv: YYMM.NNNNN`"
        problems.append(Problem(path=path, kind="card-without-arxiv", message=message))
    return card, problems


_SECTION_ID = re.compile(r"§\s*[\w.()（）\-]*[\w)）]")


def parse_knowledge(text: str, *, path: str, topic: str) -> KnowledgeDoc:
    """The living document: its `##`/`###` sections and the arXiv ids anchored in each."""
    meta, body, _ = _split_front_matter(text, path)
    sections = []
    for heading, level, _line, lines in _sections(body):
        if level < 2:
            continue
        section_id = _SECTION_ID.search(heading)
        content = "\n".join(lines)
        sections.append(
            KnowledgeSection(
                id=section_id.group(0).replace(" ", "") if section_id else heading,
                heading=_SECTION_ID.sub("", heading).strip(" ·-—:：") or heading,
                level=level,
                text=content,
                arxiv_ids=parse_arxiv_ids(heading + "\n" + content),
            )
        )
    return KnowledgeDoc(
        path=path,
        topic=topic,
        title=str(meta.get("title") or _first_h1(body)),
        sections=sections,
        arxiv_ids=parse_arxiv_ids(body),
        text=body,
    )


def parse_queue(text: str, *, path: str) -> WorkQueue:
    """The work queue's items (same splitting as notes)."""
    _meta, body, _ = _split_front_matter(text, path)
    return WorkQueue(path=path, items=parse_items(body), lines=len(body.splitlines()))


# --- loading from disk -------------------------------------------------------------------


def _display(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def _read(path: Path, shown: str) -> tuple[str | None, Problem | None]:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return None, Problem(path=shown, kind="unreadable", message=f"cannot read ({exc.strerror})")
    try:
        return raw.decode("utf-8-sig"), None
    except UnicodeDecodeError as exc:
        message = f"not UTF-8 (bad byte at offset {exc.start}); re-save the file as UTF-8"
        return None, Problem(path=shown, kind="not-utf8", message=message)


def _markdown_files(folder: Path, root: Path, problems: list[Problem]) -> list[Path]:
    files = []
    for path in sorted(folder.rglob("*")):
        if path.is_dir() or any(part.startswith(".") for part in path.relative_to(folder).parts):
            continue
        if path.suffix.lower() in {".md", ".markdown"}:
            files.append(path)
        else:
            message = "not a Markdown file; skipped"
            problems.append(
                Problem(path=_display(path, root), kind="skipped-file", message=message)
            )
    return files


def _broken_links(note_path: Path, links: list[str], root: Path, shown: str) -> list[Problem]:
    problems = []
    for target in links:
        base = root if target.startswith("/") else note_path.parent
        if not (base / target.lstrip("/")).exists():
            message = f"link to {target!r} points at no file; fix or remove the link"
            problems.append(Problem(path=shown, kind="broken-link", message=message))
    return problems


def _load_notes(folder: Path, root: Path, problems: list[Problem]) -> list[Note]:
    notes = []
    for path in _markdown_files(folder, root, problems):
        shown = _display(path, root)
        text, problem = _read(path, shown)
        if text is None:
            problems.append(problem)  # type: ignore[arg-type]
            continue
        parts = path.relative_to(folder).parts
        analyst = parts[0] if len(parts) > 1 else ""
        if not analyst:
            message = "note is not in an analyst folder; move it to inbox/<analyst>/"
            problems.append(Problem(path=shown, kind="no-analyst", message=message))
        note, found = parse_note(text, path=shown, analyst=analyst)
        notes.append(note)
        problems.extend(found + _broken_links(path, note.links, root, shown))
    return notes


def _load_cards(folder: Path, root: Path, problems: list[Problem]) -> list[Card]:
    cards: list[Card] = []
    for path in _markdown_files(folder, root, problems):
        shown = _display(path, root)
        text, problem = _read(path, shown)
        if text is None:
            problems.append(problem)  # type: ignore[arg-type]
            continue
        card, found = parse_card(text, path=shown)
        cards.append(card)
        problems.extend(found)
    problems.extend(_card_duplicates(cards))
    return cards


def _card_duplicates(cards: list[Card]) -> list[Problem]:
    by_number: dict[int, list[Card]] = {}
    by_arxiv: dict[str, list[Card]] = {}
    for card in cards:
        if card.number is not None:
            by_number.setdefault(card.number, []).append(card)
        for arxiv_id in card.arxiv_ids:
            by_arxiv.setdefault(arxiv_id, []).append(card)
    problems = []
    for number, same in sorted(by_number.items()):
        if len(same) > 1:
            paths = ", ".join(card.path for card in same)
            message = (
                f"card number {number:04d} is used by {len(same)} files ({paths}); renumber one"
            )
            problems.append(
                Problem(path=same[1].path, kind="duplicate-card-number", message=message)
            )
    for arxiv_id, same in sorted(by_arxiv.items()):
        if len(same) > 1:
            paths = ", ".join(card.path for card in same)
            message = f"arXiv:{arxiv_id} has {len(same)} cards ({paths}); merge them"
            problems.append(
                Problem(path=same[1].path, kind="duplicate-card-arxiv", message=message)
            )
    return problems


def _load_knowledge(target: Path, root: Path, problems: list[Problem]) -> dict[str, KnowledgeDoc]:
    files = [target] if target.is_file() else _markdown_files(target, root, problems)
    docs = {}
    for path in files:
        shown = _display(path, root)
        text, problem = _read(path, shown)
        if text is None:
            problems.append(problem)  # type: ignore[arg-type]
            continue
        docs[path.stem] = parse_knowledge(text, path=shown, topic=path.stem)
    return docs


def load_inbox(
    root: Path,
    *,
    inbox: Path | None = None,
    cards: Path | None = None,
    knowledge: Path | None = None,
    queue: Path | None = None,
) -> Inbox:
    """Read every part of an inbox root; a missing part is a problem, a missing root an error.

    Args:
        root: the folder holding inbox/, paper_cards/, knowledge/ and work-queue.md.
        inbox, cards, knowledge, queue: other places for each part (knowledge may be one
            file, named after its topic, or a folder of `<topic>.md`).
    """
    if not root.is_dir():
        raise SourceError(
            f"inbox root {str(root)!r} is not a folder; pass --root DIR (a folder with inbox/, "
            "paper_cards/, knowledge/, work-queue.md) or use --sample",
            source="inbox",
        )
    parts = {
        "inbox": inbox or root / "inbox",
        "cards": cards or root / "paper_cards",
        "knowledge": knowledge or root / "knowledge",
        "queue": queue or root / "work-queue.md",
    }
    present = {name: path.exists() for name, path in parts.items()}
    if not any(present.values()):
        raise SourceError(
            f"{str(root)!r} holds none of inbox/, paper_cards/, knowledge/, work-queue.md; "
            "point --root at an inbox root or use --sample",
            source="inbox",
        )
    problems = [
        Problem(path=_display(path, root), kind="missing-path", message=f"no {name} at this path")
        for name, path in parts.items()
        if not present[name]
    ]
    result = Inbox(root=root.as_posix())
    if present["inbox"]:
        result.notes = _load_notes(parts["inbox"], root, problems)
    if present["cards"]:
        result.cards = _load_cards(parts["cards"], root, problems)
    if present["knowledge"]:
        result.knowledge = _load_knowledge(parts["knowledge"], root, problems)
    if present["queue"]:
        shown = _display(parts["queue"], root)
        text, problem = _read(parts["queue"], shown)
        result.queue = parse_queue(text, path=shown) if text is not None else None
        problems.extend([problem] if problem else [])
    result.problems = problems
    return result
