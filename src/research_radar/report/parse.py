"""Parse any house-style report into plain structure: header facts, tables, entries, evidence.

Reads both forms the team uses: GitHub Markdown (pipe tables, `#` headings) and the
plain-text export where tables are tab-separated and headings are bare lines. A file may
hold many daily reports (a research-index issue with its comments): `split_reports`
cuts it at the dated heading lines (`2026-10-31｜...`). The parser never raises on
malformed input; what it cannot read is simply absent from the result.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime

from research_radar.models import BEIJING
from research_radar.report.report_tables import ParsedTable, read_tables

__all__ = [
    "ParsedEntry",
    "ParsedEvidence",
    "ParsedReport",
    "entry_name",
    "find_repo",
    "find_urls",
    "parse_report",
    "report_chunks",
    "split_reports",
]

_DATE_HEADING = re.compile(
    r"^(?:#{1,6}\s*)?(?P<date>20\d\d-\d\d-\d\d)\s*(?:[｜|]\s*|\s+)(?P<title>.*)$"
)
_URL = re.compile(r"https?://[^\s，。；、）)\]>\"'`|]+")
_EVIDENCE_START = re.compile(r"^\s*(?:[-*]\s*)?(?:\*\*)?\[?(?P<id>[SE]\d{1,6})\]?(?:\*\*)?[\s:：]")
_EVIDENCE_REF = re.compile(r"(?<![A-Za-z0-9_\-.])\[?([SE]\d{1,6})\]?(?![0-9A-Za-z_\-])")
_CUTOFF = re.compile(
    r"(?:证据截止|研究截止|核验截止|截至|截止|[Cc]ut-?off|[Aa]s of)[^0-9]{0,24}"
    r"(?P<when>(?:20\d\d-\d\d-\d\d[ T])?\d{1,2}:\d{2}(?::\d{2})?)"
)
_HOST_SHA = re.compile(
    r"(?:main|默认分支|default[- ]branch|host|宿主)[^0-9a-f\n]{0,24}"
    r"(?P<sha>[0-9a-f]{7,40})(?![0-9a-f])",
    re.IGNORECASE,
)
"""Only the tables' blocks and their cells' raw text are read: inline parsing (a cell's
emphasis, links...) is off (#19)."""
_GH_REPO = re.compile(
    r"(?<![\w./-])(?P<repo>[A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*?)(?=@[0-9a-f]{7,40}|#\d)"
)
_GH_URL_REPO = re.compile(r"https?://github\.com/(?P<repo>[A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*)")
_MODEL_NAME = re.compile(
    r"(DeepSeek|Qwen|GLM|Llama|MiniMax|Kimi|Mistral|Gemma|Phi|gpt-oss|Nemotron)[\w.-]*$", re.I
)
"""Beijing time (UTC+8): house-style cut-offs are written in it."""


@dataclass
class ParsedEntry:
    """One table row read as a finding."""

    name: str
    cells: dict[str, str]
    line: int
    section: str = ""
    urls: list[str] = field(default_factory=list)
    evidence_ids: list[str] = field(default_factory=list)
    repo: str | None = None
    """owner/name of the entry's GitHub repository when a row link names one."""
    kind: str = "row"
    """row (a table row) or prose (a titled supplement without a table)."""

    @property
    def text(self) -> str:
        return "\t".join(self.cells.values())


@dataclass
class ParsedEvidence:
    id: str
    text: str
    urls: list[str]
    line: int


@dataclass
class ParsedReport:
    """The plain structure of one report."""

    title: str
    date: date | None
    text: str
    line: int = 1
    """Line of the report's first line within the file it came from."""
    headings: list[str] = field(default_factory=list)
    tables: list[ParsedTable] = field(default_factory=list)
    entries: list[ParsedEntry] = field(default_factory=list)
    evidence: dict[str, ParsedEvidence] = field(default_factory=dict)
    cutoff: str | None = None
    """The cut-off as written (e.g. "08:30:57"), None when the header has none."""
    cutoff_beijing: bool = False
    cutoff_at: datetime | None = None
    """The cut-off as an aware datetime (Beijing time unless another zone is written)."""
    host_sha: str | None = None


def find_urls(text: str) -> list[str]:
    """Every http(s) URL in text, in order, without duplicates."""
    seen: dict[str, None] = {}
    for match in _URL.finditer(text):
        seen.setdefault(match.group(0).rstrip(".,;:"), None)
    return list(seen)


def find_repo(text: str) -> str | None:
    """The first GitHub `owner/name` a text links to (a github.com URL, `o/r@sha` or `o/r#N`)."""
    url = _GH_URL_REPO.search(text)
    if url:
        return url.group("repo").removesuffix(".git")
    bare = _GH_REPO.search(text)
    return bare.group("repo") if bare else None


def split_reports(text: str) -> list[ParsedReport]:
    """Cut a file into reports at dated heading lines and parse each.

    Text before the first dated heading (an issue body) becomes a report with no date.
    """
    return [parse_report(chunk, line) for line, chunk in report_chunks(text)]


def report_chunks(text: str) -> list[tuple[int, str]]:
    """The reports of a file as `split_reports` cuts them, unparsed: (the 1-based line of
    each one's first line in the file, its text), for `parse_report(text, line)`."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if _DATE_HEADING.match(line.strip())]
    if not starts:
        return [(1, text)]
    chunks: list[tuple[int, int]] = []
    preamble = re.sub(r"<!--.*?-->", "", "\n".join(lines[: starts[0]]), flags=re.S)
    if starts[0] > 0 and preamble.strip():
        chunks.append((0, starts[0]))
    chunks += list(zip(starts, starts[1:] + [len(lines)], strict=True))
    return [(begin + 1, "\n".join(lines[begin:end])) for begin, end in chunks]


def parse_report(text: str, line: int = 1) -> ParsedReport:
    """Parse one report (Markdown or the tab-separated export); `line`: its first line's
    within the file it came from."""
    lines = text.splitlines()
    first = next((line.strip() for line in lines if line.strip()), "")
    heading = _DATE_HEADING.match(first)
    title = first.lstrip("#").strip()
    day = _parse_date(heading.group("date")) if heading else None
    report = ParsedReport(title=title, date=day, text=text, line=line)
    report.headings = _headings(lines)
    report.tables = read_tables(text, lines)
    report.tables.sort(key=lambda table: table.line)
    report.entries = [entry for table in report.tables for entry in _entries(table)]
    report.evidence = _evidence(lines)
    _header_facts(report, lines)
    if not report.entries and day is not None:
        report.entries = _prose_entry(report, lines)
    return report


def _prose_entry(report: ParsedReport, lines: list[str]) -> list[ParsedEntry]:
    """A dated supplement without a table ("2026-10-27 补录｜JustGoal：...") is one entry."""
    parts = re.split(r"[｜|]", report.title, maxsplit=1)
    if len(parts) < 2:
        return []
    name = re.split(r"[：:（(，,]", parts[1], maxsplit=1)[0].strip()
    if not re.match(r"[A-Za-z0-9][\w.+\- ]*$", name, re.ASCII) or len(name) > 40:
        return []
    label = next((line.strip() for line in lines if re.match(r"\s*分类\s*[：:]", line)), "")
    body = "\n".join(line for line in lines[1:] if line.strip() and line.strip() != label)
    cells = {"分类": label, "正文": body} if label else {"正文": body}
    return [
        ParsedEntry(name, cells, 1, report.title, find_urls(body), [], find_repo(body), "prose")
    ]


def _parse_date(value: str) -> date | None:
    try:
        return date.fromisoformat(value)
    except ValueError:
        return None


def _headings(lines: list[str]) -> list[str]:
    result = []
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("#"):
            result.append(stripped.lstrip("#").strip())
        elif (
            stripped
            and "\t" not in stripped
            and len(stripped) <= 60
            and _looks_like_heading(stripped)
        ):
            result.append(stripped)
    return result


def _looks_like_heading(line: str) -> bool:
    if _DATE_HEADING.match(line):
        return True
    return bool(re.match(r"^([一二三四五六七八九十]+、|\d+\.\s|\*\*[^*]+\*\*$)", line)) or line in {
        "观察",
        "证据索引",
        "结论 / Now / Next / Watch",
    }


def _entries(table: ParsedTable) -> list[ParsedEntry]:
    entries = []
    project_first = bool(table.columns) and re.match(r"\s*(项目|project)", table.columns[0], re.I)
    for offset, cells in enumerate(table.rows, start=1):
        first = next(iter(cells.values()), "")
        if project_first and " / " in first and not re.search(r"[｜|·]", first):
            first = first.split(" / ")[0]
        name = entry_name(first)
        if not name:
            continue
        joined = "\n".join(cells.values())
        refs = list(dict.fromkeys(match.group(1) for match in _EVIDENCE_REF.finditer(joined)))
        repo = find_repo(joined)
        if repo is None and re.fullmatch(r"[A-Za-z0-9][\w.-]*/[\w.-]+", name):
            repo = name
        entries.append(
            ParsedEntry(
                name=_name_or_repo(name, first, repo),
                cells=cells,
                line=table.line + offset + (1 if table.markdown else 0),
                section=table.section,
                urls=find_urls(joined),
                evidence_ids=[ref for ref in refs if re.fullmatch(r"[SE]\d{1,6}", ref)],
                repo=repo,
            )
        )
    return entries


def _slug(text: str) -> str:
    return re.sub(r"[^0-9a-z]+", "", text.lower())


def _name_or_repo(name: str, cell: str, repo: str | None) -> str:
    """Keep the written name unless it is only the target model and the row links a repo.

    "model-specific / DeepSeek-V4-Flash；..." linking ronak-create/deepseek-v4-in-c names no
    project in its first cell: the repository is the project.
    """
    if repo is None or not _MODEL_NAME.match(name):
        return name
    short, written = _slug(repo.split("/")[1]), _slug(name)
    return name if written in short or short in written else repo


def entry_name(cell: str) -> str:
    """The project name in a table's first cell.

    House style writes "分类 / 项目与目标模型": e.g.
    "model-specific / hybrid LLM｜NInfer（Qwen/GLM）", "Model-specific · Maya / DeepSeek、MiniMax",
    "**NInfer**" or a bare "kindlingai/gr8".
    """
    text = re.sub(r"\*\*|`", "", cell.split("\n")[0]).strip()
    bold = re.search(r"\*\*([^*]+)\*\*", cell)
    if bold:
        return bold.group(1).strip()
    categorised = False
    for splitter in ("｜", "|", " · "):
        if splitter in text:
            text, categorised = text.split(splitter, 1)[1].strip(), True
    text = re.split(r"[（(]", text, maxsplit=1)[0].strip()
    if re.fullmatch(r"[\w.-]+/[\w.-]+", text):
        return text
    if " / " in text:
        text = text.split(" / ")[0] if categorised else text.rsplit(" / ", 1)[1]
    parts = [part.strip() for part in re.split(r"[：:]", text) if part.strip()]
    named = [
        part for part in parts if re.match(r"[A-Za-z0-9][\w.+\-]*(?:$|[\s，,；;])", part, re.ASCII)
    ]
    text = (named or parts or [""])[0]
    return re.split(r"[，,；;]", text, maxsplit=1)[0].strip()


def _evidence(lines: list[str]) -> dict[str, ParsedEvidence]:
    found: dict[str, ParsedEvidence] = {}
    current: ParsedEvidence | None = None
    for number, line in enumerate(lines, start=1):
        match = _EVIDENCE_START.match(line)
        if match and "\t" not in line:
            current = ParsedEvidence(match.group("id"), line.strip(), find_urls(line), number)
            found.setdefault(current.id, current)
            continue
        if current is None:
            continue
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("#") or "\t" in stripped or _ends_block(stripped):
            current = None
            continue
        current.text += "\n" + stripped
        current.urls.extend(url for url in find_urls(stripped) if url not in current.urls)
    return found


def _ends_block(line: str) -> bool:
    """A short heading-like line ("架构与覆盖", "Now / Next / Watch") ends an evidence block."""
    if len(line) > 30 or re.search(r"[。；;，,]", line):
        return False
    return not re.match(r"(来源|版本|限制|条件|\{|\[|https?://|[\w.-]+/[\w.-]+[#@])", line)


def _header_facts(report: ParsedReport, lines: list[str]) -> None:
    head = "\n".join(lines[:25])
    cutoff = _CUTOFF.search(head)
    if cutoff:
        report.cutoff = cutoff.group("when")
        window = head[max(0, cutoff.start() - 20) : cutoff.end() + 20]
        report.cutoff_beijing = bool(re.search(r"北京|Beijing|UTC\+8|\+08:00|CST", window))
        report.cutoff_at = _cutoff_at(report.cutoff, report.date, window)
    sha = _HOST_SHA.search(head)
    if sha:
        report.host_sha = sha.group("sha")


def _cutoff_at(when: str, day: date | None, window: str) -> datetime | None:
    """The written cut-off as an aware datetime; the date defaults to the report's date."""
    match = re.match(
        r"(?:(?P<day>20\d\d-\d\d-\d\d)[ T])?(?P<h>\d{1,2}):(?P<m>\d{2})(?::(?P<s>\d{2}))?", when
    )
    if match is None:
        return None
    written = _parse_date(match.group("day")) if match.group("day") else None
    base = written or day
    zone = UTC if re.search(r"UTC(?!\+)|\dZ\b", window) and "北京" not in window else BEIJING
    if base is None:
        return None
    try:
        return datetime(
            base.year,
            base.month,
            base.day,
            int(match.group("h")),
            int(match.group("m")),
            int(match.group("s") or 0),
            tzinfo=zone,
        )
    except ValueError:
        return None
