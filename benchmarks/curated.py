"""Labelled titles built from the curated lists (../shared/curated-lists) and a mapping file.

Each list's Markdown is read line by line: headings give a path (h1 > h2 > ...), and every
line that names a paper or project gives a title; the lines that continue an item (its
nested venue and notes, its author line) give it their arXiv id and no item of their own,
and the own papers of the repositories reserved for independent evaluation are left out
(by arXiv id or title hash: RESERVED_PAPERS, RESERVED_TITLES).
`benchmarks/curated_audit.py` counts, per list and heading, what the parser reads. `curated_mapping.toml` maps headings to
taxonomy value ids (workload, mechanisms, on-topic or not); the deepest heading of an
item's path that the mapping names decides its labels, and items under an unmapped
heading are left out. Items are deduplicated across lists by arXiv id or normalised
title, keeping every list/heading they came from. Nothing here is committed data: the
lists stay in ../shared and the items are rebuilt on every run.
"""

from __future__ import annotations

import hashlib
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "Item",
    "ListSpec",
    "Mapping",
    "build_items",
    "build_split",
    "curated_root",
    "item_label_key",
    "load_labels",
    "load_mapping",
    "written_items",
]

ROOT = Path(__file__).resolve().parent.parent
MAPPING = Path(__file__).resolve().parent / "curated_mapping.toml"
LABELS = Path(__file__).resolve().parent / "curated_labels.tsv"
WRITTEN = Path(__file__).resolve().parent / "written_titles.tsv"

RESERVED_PAPERS = frozenset(
    f"arxiv:{n}"
    for n in (
        *("2205.14135", "2307.08691", "2407.08608", "2410.02367", "2411.10958", "2505.11594"),
        *("2501.01005", "2411.01738", "2312.12456", "2406.06282", "2411.05007", "2405.14430"),
        *("2510.17111", "2505.21136", "2601.00227", "2603.05451"),
    )
)
"""The own papers of the repositories reserved for independent evaluation (issues #14
and #15), by arXiv id: they never train or tune the classifier, whichever list holds them."""
RESERVED_TITLES = frozenset(
    (
        *("sha1:32cab66b48f0", "sha1:74bbfa9efe5a", "sha1:757c280df226", "sha1:80c1d9710ad1"),
        *("sha1:a5cbd25f35a4", "sha1:d3e574707a40", "sha1:ed97c3bab156"),
    )
)
"""The same papers by `title_key`, for the lists that give one without its arXiv id or link
only its code. Hashes, so that no reserved name is written here; the lists are pinned, so
the keys stay valid."""


def is_reserved(
    title: str,
    arxiv: str | None,
    papers: frozenset[str] = RESERVED_PAPERS,
    titles: frozenset[str] = RESERVED_TITLES,
) -> bool:
    """Whether an item is the own paper of a repository reserved for independent evaluation."""
    return (arxiv is not None and f"arxiv:{arxiv}" in papers) or title_key(title) in titles


_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
_LINK = re.compile(r"(?<!!)\[([^\[\]]{3,}?)\]\((?:[^()]|\([^()]*\))*\)")
_BOLD = re.compile(r"\*\*([^*]{6,}?)\*\*")
_QUOTED = re.compile(r"[\"“]([^\"“”]{12,})[\"”]")
_ARXIV = re.compile(r"arxiv\.org/(?:abs|pdf|html)/(\d{4}\.\d{4,5})")
_TAG = re.compile(r"<[^>]+>|!\[[^\]]*\]\([^)]*\)|\[!\[[^\]]*\]\([^)]*\)\]\([^)]*\)")
_NOISE = re.compile(
    r"^(?:pdf|paper|code|project|website|blog|homepage|github|link|arxiv|official\b.*\bcode\d*$)\b",
    re.I,
)
_WORDS = re.compile(r"[^\W\d_]{3,}")
"""Words of a title: a table cell such as "2023/04 | Arxiv2304" or "⭐ ⭐" has fewer than two."""
_NESTED = re.compile(r"^(?:\s{2,}|\t)[-*+]\s")
"""A nested bullet: under an item, its details (venue, links, notes)."""
_ITEM_START = re.compile(r"^\s*(?:[-*+]|\d+\.)\s|^\s*\|")
"""A line that starts an item of its own (a bullet, a numbered line, a table row)."""
_EMOJI = re.compile(r"[\U0001F000-\U0001FFFF\u2600-\u27BF\uFE0F]")


@dataclass
class Item:
    """One labelled title and where the curators put it."""

    title: str
    key: str
    sources: list[tuple[str, str]] = field(default_factory=list)
    """(list, heading path) pairs."""
    workload: str | None = None
    mechanism: set[str] = field(default_factory=set)
    on_topic: bool | None = None
    arxiv: set[str] = field(default_factory=set)
    """Every arXiv id its lists give it (a conference and a preprint version may differ)."""
    reviewed: bool = False
    """Labelled by hand (curated_labels.tsv, written_titles.tsv): an empty mechanism set
    is a negative of every mechanism, not a missing label."""

    @property
    def lists(self) -> set[str]:
        return {name for name, _ in self.sources}


@dataclass(frozen=True)
class Rule:
    heading: str
    workload: str | None
    mechanism: tuple[str, ...]
    topic: bool | None
    skip: bool


@dataclass(frozen=True)
class ListSpec:
    name: str
    folder: str
    split: str
    workload: str | None
    topic: bool | None
    rules: tuple[Rule, ...]


@dataclass(frozen=True)
class Mapping:
    lists: tuple[ListSpec, ...]


def curated_root() -> Path:
    shared = Path(os.environ.get("RADAR_SHARED", ROOT.parent / "shared"))
    return shared / "curated-lists"


def load_mapping(path: Path = MAPPING) -> Mapping:
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    specs = []
    for name, raw in doc["lists"].items():
        rules = tuple(
            Rule(
                heading=rule["heading"].casefold(),
                workload=rule.get("workload"),
                mechanism=tuple(rule.get("mechanism", [])),
                topic=rule.get("topic"),
                skip=bool(rule.get("skip", False)),
            )
            for rule in raw.get("headings", [])
        )
        specs.append(
            ListSpec(
                name=name,
                folder=name.replace("/", "__"),
                split=raw["split"],
                workload=raw.get("workload"),
                topic=raw.get("topic"),
                rules=rules,
            )
        )
    return Mapping(tuple(specs))


def clean_heading(text: str) -> str:
    text = _TAG.sub("", text)
    text = _LINK.sub(lambda m: m.group(1), text)
    text = re.sub(r"\(\[?©️back.*$", "", text)
    text = _EMOJI.sub("", text).replace("*", "").replace(":star:", "")
    return re.sub(r"\s+", " ", text).strip(" :")


def clean_title(text: str) -> str:
    text = _TAG.sub(" ", text)
    text = _EMOJI.sub(" ", text)
    text = re.sub(r"\(@[^)]*\)", " ", text)
    text = text.replace(":star:", " ").replace("**", "").replace("*", "")
    text = re.sub(r"^\s*star:\s*", "", text)
    text = re.sub(r"^\[[^\]]*\]\s*:?\s*", "", text.strip())
    text = re.sub(r"\s+", " ", text).strip(' -:;,.|"')
    return text


def title_of(line: str) -> str | None:
    """The paper or project title a list line names, or None."""
    raw = _TAG.sub(" ", line)
    quoted = _QUOTED.search(raw)
    if quoted:
        return clean_title(quoted.group(1))
    if raw.lstrip().startswith("|"):
        return _table_title(line)
    bold = _BOLD.search(raw)
    if bold and re.match(r"^\s*(?:[-*]\s+)?\*\*", raw):
        text = bold.group(1)
        text = re.sub(r",\s*[^,]*\(\d{4}\)\s*$", "", text)  # "Title, Org (2024)"
        return clean_title(text) if len(text.split()) >= 2 else None
    links = [m for m in _LINK.finditer(raw) if not _NOISE.match(m.group(1).strip("[] "))]
    if links:
        first = links[0]
        name = first.group(1).strip()
        rest = raw[first.end() :]
        tail = re.match(r"\s*:\s*([^|\[]{8,})", rest)
        if tail and len(name.split()) <= 3:
            return clean_title(f"{name}: {tail.group(1)}")
        if len(name.split()) >= 3:
            return clean_title(name)
        return None
    bullet = re.match(r"^\s*[*-]\s+([^\[]{12,}?)\s*\[\[", raw)
    if bullet:
        return clean_title(bullet.group(1))
    return None


def _table_title(line: str) -> str | None:
    if re.match(r"^\s*\|[\s:|-]*\|?\s*$", line) or "Title & Authors" in line:
        return None
    for cell in line.split("|"):
        first = cell.split("<br>")[0]
        links = [m.group(1) for m in _LINK.finditer(_TAG.sub(" ", first))]
        for text in links:
            text = clean_title(text)
            if len(text.split()) >= 3 and not _NOISE.match(text):
                return text
    cells = [
        clean_title(_LINK.sub(lambda m: m.group(1), _TAG.sub(" ", c))) for c in line.split("|")
    ]
    cells = [c for c in cells if len(c.split()) >= 3 and not _NOISE.match(c)]
    return max(cells, key=len) if cells else None


def normalise(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", title.casefold()).strip()


@dataclass(frozen=True)
class Line:
    """What one line of a list is: an item (titled), a continuation of the item above (its
    venue, authors or links), or neither (prose, badges, a table of contents entry...)."""

    kind: str
    """"item", "continuation" or "other"."""
    headings: tuple[str, ...]
    title: str | None
    arxiv: str | None
    paper_link: bool
    """The line links a paper (arXiv, OpenReview, ACL Anthology, a PDF, a proceedings page)."""


_PAPER_LINK = re.compile(
    r"arxiv\.org|openreview\.net|aclanthology|doi\.org|proceedings|\.pdf\b|papers\.nips|"
    r"dl\.acm|ieeexplore|usenix\.org|openaccess|mlsys\.org|huggingface\.co/papers",
    re.I,
)


def scan_list(path: Path) -> list[Line]:
    """Every non-blank line outside code blocks and headings, classified (see `Line`)."""
    lines: list[Line] = []
    stack: list[tuple[int, str]] = []
    in_code = False
    open_item = False
    """The last titled line starts an item that the lines below it may continue."""
    for text in path.read_text(encoding="utf-8", errors="replace").splitlines():
        if text.startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            continue
        heading = _HEADING.match(text)
        if heading:
            level = len(heading.group(1))
            stack = [(lvl, name) for lvl, name in stack if lvl < level]
            stack.append((level, clean_heading(heading.group(2))))
            open_item = False
            continue
        if not text.strip():
            # items are separated by blank lines, their details are not ("- **Title**"
            # then "  *Authors* [[pdf](…)]"): a reference list below a table is no detail
            open_item = False
            continue
        match = _ARXIV.search(text)
        arxiv = match.group(1) if match else None
        headings = tuple(name for _, name in stack)
        paper_link = bool(_PAPER_LINK.search(text))
        kind, title = "other", None
        if text.startswith(">"):
            pass
        elif open_item and _NESTED.match(text) and not _named_link(text):
            # "    - 2023/05 | ICML23 | [[Paper](…)]", "    - **Key results**: …": the
            # venue, links and notes of the item above, never an item of their own (a
            # nested "[Name](…): what it is" is one: a group of projects under a label)
            kind = "continuation"
        else:
            title = title_of(text)
            if title and len(_WORDS.findall(title)) >= 2 and len(title) <= 300:
                kind = "item"
            else:
                title = None
                if open_item and not _ITEM_START.match(text):
                    kind = "continuation"  # "  *Authors* [[pdf](…)]" under "- **Title**"
        if kind != "continuation":
            open_item = kind == "item"
        lines.append(Line(kind, headings, title, arxiv, paper_link))
    return lines


def parse_list(path: Path) -> list[tuple[str, list[str], str | None]]:
    """(title, heading path, arXiv id) for every item of one Markdown file; an item's
    arXiv id may come from a line that continues it."""
    found: list[tuple[str, list[str], str | None]] = []
    for line in scan_list(path):
        if line.kind == "item" and line.title:
            found.append((line.title, list(line.headings), line.arxiv))
        elif line.kind == "continuation" and found and line.arxiv and found[-1][2] is None:
            title, headings, _ = found[-1]
            found[-1] = (title, headings, line.arxiv)
    return found


def _named_link(line: str) -> bool:
    """Whether a line links a name (not a "[pdf]", "[Paper]" or "[code]" link)."""
    raw = _TAG.sub(" ", line)
    return any(not _NOISE.match(m.group(1).strip("[] ")) for m in _LINK.finditer(raw))


def _rule_for(spec: ListSpec, path: list[str]) -> Rule | None:
    for heading in reversed(path):
        for rule in spec.rules:
            if rule.heading == heading.casefold():
                return rule
    return None


@dataclass(frozen=True)
class Label:
    """A hand label: mechanisms, `none` (on topic, no mechanism) or `off` (off topic)."""

    mechanism: frozenset[str]
    on_topic: bool
    reason: str


def _parse_label(text: str, reason: str) -> Label:
    if text == "off":
        return Label(frozenset(), False, reason)
    if text == "none":
        return Label(frozenset(), True, reason)
    return Label(frozenset(v.strip() for v in text.split(",")), True, reason)


def _rows(path: Path) -> list[list[str]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    rows = [line.split("\t") for line in lines if line.strip() and not line.startswith("#")]
    for row in rows:
        if len(row) != 3:
            raise ValueError(f"{path.name}: want 3 tab-separated columns: {row}")
    return rows


def load_labels(path: Path = LABELS) -> dict[str, Label]:
    """key (`item_label_key`) -> hand label of the training lists' mixed-section items."""
    return {key: _parse_label(labels, reason) for key, labels, reason in _rows(path)}


def item_label_key(item: Item) -> str:
    """The key of an item in curated_labels.tsv: its arXiv id, else a title hash."""
    if item.key.startswith("arxiv:"):
        return item.key
    return title_key(item.title)


def title_key(title: str) -> str:
    """`sha1:` + the first 12 hex digits of the SHA-1 of the normalised title."""
    digest = hashlib.sha1(normalise(title).encode("utf-8")).hexdigest()[:12]
    return f"sha1:{digest}"


def written_items(path: Path = WRITTEN) -> list[Item]:
    """The titles written for this project with their labels (written_titles.tsv)."""
    items = []
    for title, labels, reason in _rows(path):
        label = _parse_label(labels, reason)
        items.append(
            Item(
                title=title,
                key=f"written:{normalise(title)}",
                sources=[("written_titles.tsv", reason)],
                mechanism=set(label.mechanism),
                on_topic=label.on_topic,
                reviewed=True,
            )
        )
    return items


def _apply_labels(items: list[Item], labels: dict[str, Label]) -> None:
    for item in items:
        # an item labelled by its title hash keeps that label once its arXiv id is read
        # (from a line below its title)
        keys = [item_label_key(item), *(f"arxiv:{n}" for n in sorted(item.arxiv))]
        label = next((labels[k] for k in [*keys, title_key(item.title)] if k in labels), None)
        if label is None:
            continue
        item.mechanism = set(label.mechanism)
        item.on_topic = label.on_topic
        item.reviewed = True


def build_split(mapping: Mapping, split: str, root: Path | None = None) -> list[Item]:
    """The items of one split ("train" or "heldout"); a held-out item that is also in a
    training list is left out, so held-out figures are on titles the model never saw.

    Training items get the hand labels of curated_labels.tsv, and the titles of
    written_titles.tsv are added to them; held-out items never get either."""
    items = build_items(mapping, root, split=split)
    if split == "train":
        _apply_labels(items, load_labels())
        return items + written_items()
    seen = {key for item in build_items(mapping, root, split="train") for key in _keys(item)}
    return [item for item in items if not (_keys(item) & seen)]


def _keys(item: Item) -> set[str]:
    return {item.key, f"title:{normalise(item.title)}"}


def build_items(mapping: Mapping, root: Path | None = None, *, split: str = "") -> list[Item]:
    """Every mapped item of the lists (of one split), deduplicated; labels merged."""
    root = root or curated_root()
    by_key: dict[str, Item] = {}
    titles: dict[str, str] = {}
    for spec in mapping.lists:
        if split and spec.split != split:
            continue
        folder = root / spec.folder
        for path in sorted(folder.glob("*.md")):
            for title, headings, arxiv in parse_list(path):
                rule = _rule_for(spec, headings)
                if rule is None or rule.skip:
                    continue
                norm = normalise(title)
                reserved = is_reserved(title, arxiv)
                # one title is one item, whatever ids its lists give it (a curator's copied
                # title under three different papers stays one item)
                key = titles.get(norm) or (f"arxiv:{arxiv}" if arxiv else f"title:{norm}")
                if reserved or key in RESERVED_PAPERS:
                    continue
                titles.setdefault(norm, key)
                item = by_key.setdefault(key, Item(title=title, key=key))
                item.sources.append((spec.name, " > ".join(headings)))
                if arxiv:
                    item.arxiv.add(arxiv)
                workload = (rule.workload if rule.workload is not None else spec.workload) or None
                if item.workload is None:
                    item.workload = workload
                item.mechanism.update(rule.mechanism)
                topic = rule.topic if rule.topic is not None else spec.topic
                if topic is not None:
                    item.on_topic = topic if item.on_topic is None else item.on_topic or topic
    return list(by_key.values())
