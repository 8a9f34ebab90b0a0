"""Split a report into GitHub comments, each led by a hidden marker (pure).

Every part carries `<!-- research-radar:<kind> YYYY-MM-DD part i/n sha256:<16 hex> -->`;
`MARKER` finds those markers again in comments already on an issue.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import date

from research_radar.errors import PublishError
from research_radar.report.wording import strings

__all__ = ["GITHUB_COMMENT_LIMIT", "MARKER", "CommentPart", "build_parts"]

GITHUB_COMMENT_LIMIT = 65_536
"""GitHub refuses an issue comment body longer than this many characters."""

MARKER = re.compile(
    r"<!-- research-radar:(report|review) (\d{4}-\d{2}-\d{2}) part (\d+)/(\d+) sha256:([0-9a-f]{16}) -->"
)
"""A part's hidden marker; groups: kind, day, part, total, content hash."""
_REPORT_LANGUAGE = re.compile(r"^<!-- research-radar:report \d{4}-\d{2}-\d{2} (\w+) -->")


@dataclass(frozen=True)
class CommentPart:
    """One comment to post: part `part` of `total`, with its hidden marker first."""

    part: int
    total: int
    marker: str
    body: str


def _is_row(line: str) -> bool:
    return line.lstrip().startswith("|")


def _is_delimiter(line: str) -> bool:
    return _is_row(line) and re.fullmatch(r"[\s|:\-]+", line) is not None and "-" in line


def _contexts(lines: list[str]) -> list[tuple[str, list[str]]]:
    """For each line: the heading above it and the table header it continues (if a row)."""
    result: list[tuple[str, list[str]]] = []
    heading, body_from = "", 0
    header: list[str] = []
    for index, line in enumerate(lines):
        if line.startswith("#"):
            heading, header = line, []
        elif _is_delimiter(line) and index and _is_row(lines[index - 1]):
            header, body_from = [lines[index - 1], line], index + 1
        elif not _is_row(line):
            header = []
        in_body = bool(header) and index >= body_from
        result.append((heading, header if in_body else []))
    return result


def _carry(
    lines: list[str], contexts: list[tuple[str, list[str]]], start: int, continued: str
) -> list[str]:
    """What a part starting at `start` repeats: section heading (continued) and table header."""
    if lines[start].startswith("#"):
        return []
    heading, header = contexts[start]
    carried = [f"{heading}{continued}", ""] if heading else []
    return carried + header


def _cut_point(lines: list[str], start: int, end: int, budget: int) -> int:
    """Where to cut [start, end): prefer a section start, never split a table's head."""
    size = 0
    best = end
    for index in range(start, end):
        if index > start and lines[index].startswith("#") and size >= budget * 0.6:
            best = index
        size += len(lines[index]) + 1
    if end < len(lines) and lines[end].startswith("#"):
        best = end
    while best - start > 1 and (
        _is_delimiter(lines[best])
        or _is_delimiter(lines[best - 1])
        or lines[best - 1].startswith("#")
        or not lines[best - 1].strip()
    ):
        best -= 1
    return best


def _split(markdown: str, limit: int, continued: str) -> list[str]:
    lines = markdown.strip("\n").split("\n")
    contexts = _contexts(lines)
    chunks: list[str] = []
    start = 0
    while start < len(lines):
        carry = _carry(lines, contexts, start, continued) if chunks else []
        budget = limit - sum(len(line) + 1 for line in carry)
        end, size = start, 0
        while end < len(lines) and size + len(lines[end]) + 1 <= budget:
            size += len(lines[end]) + 1
            end += 1
        if end == start:
            raise PublishError(
                f"line {start + 1} alone is longer than a GitHub comment ({len(lines[start])} "
                "characters); shorten that entry"
            )
        cut = end if end == len(lines) else _cut_point(lines, start, end, budget)
        chunks.append("\n".join(carry + lines[start:cut]).strip("\n"))
        start = cut
        while start < len(lines) and not lines[start].strip():
            start += 1
    return chunks


def _marker(report_date: date, part: int, total: int, digest: str, kind: str = "report") -> str:
    day = report_date.isoformat()
    return f"<!-- research-radar:{kind} {day} part {part}/{total} sha256:{digest} -->"


def build_parts(
    markdown: str, report_date: date, *, limit: int = GITHUB_COMMENT_LIMIT, kind: str = "report"
) -> list[CommentPart]:
    """Split a report into comments of at most `limit` characters, markers included.

    Cuts fall between lines (a table row is one line, so rows stay whole), preferably at a
    section heading; a part that starts inside a section repeats its heading with （续）
    and, inside a table, the table's header. Parts of a multi-part report carry （i/n）.
    An English report (its first-line marker says `en`) says (continued) and (i/n).
    """
    found = _REPORT_LANGUAGE.match(markdown)
    t = strings(found.group(1) if found else "zh")
    digest = hashlib.sha256(markdown.encode("utf-8")).hexdigest()[:16]
    title = next((line for line in markdown.splitlines() if line.startswith("## ")), "")
    reserve = len(_marker(report_date, 999, 999, digest, kind)) + len(title) + 16
    chunks = _split(markdown, limit - reserve, t["continued"])
    total = len(chunks)
    parts = []
    for index, chunk in enumerate(chunks, start=1):
        marker = _marker(report_date, index, total, digest, kind)
        counter = t["part_counter"].format(part=index, total=total)
        if total > 1 and index == 1 and title and title in chunk:
            chunk = chunk.replace(title, title + counter, 1)
        elif total > 1:
            chunk = f"{title + counter if title else counter}\n\n{chunk}"
        parts.append(CommentPart(index, total, marker, f"{marker}\n{chunk}\n"))
    return parts
