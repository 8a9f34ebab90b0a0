"""Markdown structure: a document -> segments, and a table row -> its text, metrics and load.

Pure. A building block of `research_radar.extract.claims`, which callers outside this
package use instead. A segment is a heading or one statement: a sentence of prose or
of a list item (tab-separated cells split too), or a table row, which carries the
header cells of its table. Fenced code and table separator rows are skipped, except a
fenced block that is a benchmark tool's printed result (`extract.toolblocks`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from research_radar.extract.htmltables import parse_html_table, table_end, valued_header
from research_radar.extract.stated import SectionUnits, intro_score
from research_radar.extract.toolblocks import unfence_tool_output

__all__ = ["Segment", "clean_text", "parse_segments", "split_cells", "table_indices"]


@dataclass(frozen=True)
class Segment:
    """A heading or one statement of a document."""

    text: str
    line: int
    block: str
    """prose, list or table."""
    new_line: bool
    """First sentence of a statement block: a line, or a list item or wrapped paragraph."""
    header: tuple[str, ...] = ()
    level: int = 0
    unit: str = ""
    """A table row's unit given above the table (`(Unit: Seconds)`, `单位：毫秒`), or a list
    item's given above the list (`### Decode throughput (tokens/s)` over `- A100: 120.5`)."""
    """Heading level: 1-6 for `#`, 7 for a bold-only line."""
    score: str = ""
    """A table row's score named in the line that introduces the table (`Measure the
    perplexity ...:`): its bare numbers are that score."""
    new_paragraph: bool = False
    """First statement after a blank line, a heading, a table or a list."""
    copies: frozenset[int] = frozenset()
    """An HTML table row's cells that repeat the cell before them (`colspan`): their
    numbers are that cell's, not new ones."""


_HEADING = re.compile(r"(#{1,6})\s")
_BOLD_HEADING = re.compile(r"\*\*[^*]{2,80}\*\*[:：]?")
_LIST_ITEM = re.compile(r"(?:[-*+]|\d{1,2}[.)])\s")
_WRAPPED = 60
"""A line at least this long that stops mid-sentence is taken as hard-wrapped prose."""


def _bold_level(lines: list[str], index: int, grouped: bool) -> tuple[int, bool]:
    """A bold-only line's heading level, and whether a group of bold lines is open after it.
    A bold line right above another (`**Short prompts (256×256 tokens)**` over `**Batch
    1**`, text, `**Batch 32**`, text) opens a group: the bold lines below it are its
    subsections (level 8), up to the next bold line that opens one (issue #14)."""
    following = next((line.strip() for line in lines[index:] if line.strip()), "")
    if _BOLD_HEADING.fullmatch(following) and not _HEADING.match(following):
        return 7, True
    return (8 if grouped else 7), grouped


def parse_segments(text: str) -> Iterator[Segment]:
    """Statements of a document, with their line numbers and block kind.

    Lines that continue a list item (indented) or a hard-wrapped sentence are joined to
    it, so a statement is not cut at a line break.
    """
    header: tuple[str, ...] = ()
    in_fence = False
    after_break = True
    lines = [_unquoted(line) for line in _without_comments(text).splitlines()]
    if "```" in text or "~~~" in text:
        lines = unfence_tool_output(lines)  # a benchmark tool's printed result is read
    lines = _piped(lines)
    if "  \n" in text:
        lines = _framed(lines)  # a pandas frame printed as text is a table
    before, rows_unit, table_score = "", "", ""
    list_unit: str | None = None
    """The unit said for the list being read (None: no list is being read)."""
    units = SectionUnits()
    grouped = False
    """A bold line that opens a group of bold lines was read since the last `#` heading."""
    index = 0
    title = _front_title(lines)
    if title:
        # a Jekyll or Hugo post's title is its top heading (`Serving LLMs on AMD MI300X`);
        # its front matter is read too: a title or summary may state a number
        yield Segment(clean_text(title[1]), title[0], "heading", True, level=1)
    while index < len(lines):
        raw, number = lines[index], index + 1
        stripped = raw.strip()
        index += 1
        if stripped.startswith(("```", "~~~")):
            in_fence, after_break = not in_fence, True
            continue
        if in_fence or not stripped:
            after_break = after_break or not stripped
            continue
        if stripped.startswith("<") and _TABLE_TAG.match(stripped):
            end = table_end(lines, index - 1)
            unit = units.table(before, lines, end + 1)
            yield from _html_table(lines[index - 1 : end + 1], number, unit)
            index, after_break, header = end + 1, True, ()
            continue
        if ("<" in stripped or "&" in stripped) and not _visible(stripped):
            continue  # (a line without either is its own visible text)
        hashes = _HEADING.match(stripped)
        if hashes:
            units.heading(len(hashes.group(1)))
        if _LIST_ITEM.match(stripped) and not hashes:
            if list_unit is None:
                list_unit = units.listed(before)  # what the lines above the list say
        else:
            list_unit = None
        if not stripped.startswith("|"):
            before = stripped
            units.recent.append(stripped)
        if hashes or _BOLD_HEADING.fullmatch(stripped):
            if hashes:
                level, grouped = len(hashes.group(1)), False
            else:
                level, grouped = _bold_level(lines, index, grouped)
            yield Segment(clean_text(stripped.lstrip("#")), number, "heading", True, level=level)
            after_break = True
            continue
        if stripped.startswith("|"):
            cells = split_cells(stripped)
            after_break = True
            if all(_DASHES.fullmatch(c) for c in cells if c):
                continue  # `| --- |`, and GitHub's shortest `|-|-|`
            following = lines[index].strip() if index < len(lines) else ""
            if _DASHED.fullmatch(following) or _SEPARATOR.fullmatch(following):
                header = units.defined(tuple(clean_text(c) for c in cells))
                rows_unit = units.table(before, lines, index) or units.sibling(header)
                table_score = intro_score(before)
                yield Segment(" ".join(header), number, "prose", True, header=header)
                continue
            yield Segment(
                stripped,
                number,
                "table",
                True,
                header=header,
                unit=rows_unit,
                score=table_score,
            )
            continue
        header = ()
        block = "list" if _LIST_ITEM.match(stripped) else "prose"
        parts = [raw]
        while index < len(lines) and _continues(parts[-1], lines[index], block):
            parts.append(lines[index])
            index += 1
        yield from _statements(
            parts, number, block, after_break or block == "list", list_unit or ""
        )
        after_break = block == "list"


_TABLE_TAG = re.compile(r"<table\b", re.I)
_DASHES = re.compile(r":?-+:?")
_DASHED = re.compile(r"\|?\s*:?-{2,}.*")
_FRONT_TITLE = re.compile(r"title\s*:\s*[\"']?(.*?)[\"']?\s*$")


def _front_title(lines: list[str]) -> tuple[int, str] | None:
    """The title of a YAML front matter block at the top, with its line number."""
    if not lines or lines[0].strip() != "---":
        return None
    for index in range(1, min(len(lines), 60)):
        if lines[index].strip() in ("---", "..."):
            titles = (
                (number, match.group(1))
                for number, line in enumerate(lines[1:index], start=2)
                if (match := _FRONT_TITLE.match(line))
            )
            return next(titles, None)
    return None


_QUOTED_ROW = re.compile(r"^\s*(?:>\s?)+(\|.*)$")
"""`> | a | b |`: a table row inside a block quote."""


def _unquoted(line: str) -> str:
    """A line with a block quote's `>` marks taken off a table row (only a line with both
    can be one: the others are not run through the regex, issue #19)."""
    return _QUOTED_ROW.sub(r"\1", line) if ">" in line and "|" in line else line


_SEPARATOR = re.compile(r"\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)+\|?\s*|\s*\|\s*:?-+:?\s*\|\s*")
"""A table's delimiter row: a dash or more per cell (`|---|:--:|`, `|-|-|`), a one-column
table's between its pipes (`| - |`)."""


def _piped(lines: list[str]) -> list[str]:
    """Lines with GitHub tables written without outer pipes (`a | b` over `--- | ---`)
    given them, so that every table row starts with `|`."""
    out = list(lines)
    if not any(
        "|" in line and "-" in line and _SEPARATOR.fullmatch(line) and _outer_less(above)
        for above, line in zip(lines, lines[1:], strict=False)
    ):
        return out  # no delimiter row under a row without its pipes: nothing to give (#19)
    fence = False
    index = 0
    while index < len(out) - 1:
        stripped = out[index].strip()
        if stripped.startswith(("```", "~~~")):
            fence = not fence
        elif (
            not fence
            and "|" in stripped
            and not stripped.startswith("|")
            and _SEPARATOR.fullmatch(out[index + 1])
        ):
            while index < len(out) and "|" in out[index] and out[index].strip():
                out[index] = "| " + out[index].strip().strip("|") + " |"
                index += 1
            continue
        index += 1
    return out


def _framed(lines: list[str]) -> list[str]:
    """Lines with each data frame pandas printed as plain text (`data_type   FP8` over the
    index's name padded to the frame's width, `gpu_info      `, over rows `RTX A5000
    1117.72`) written as a Markdown table, line for line: the column names on the first
    line, the separator on the index name's, a row on each row's; every value of a row a
    number, as many as the columns. Fenced lines are left as they are."""
    out = lines
    fence = False
    for index, line in enumerate(lines):
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
        if fence or index == 0 or not line.endswith("  ") or not _FRAME_INDEX.fullmatch(line):
            continue
        columns = _COLUMN_GAP.split(lines[index - 1].strip())
        end = index + 1
        while end < len(lines) and _frame_row(lines[end], len(columns) - 1) is not None:
            end += 1
        if len(columns) < 2 or end - index < 3:
            continue
        out = out if out is not lines else list(lines)
        out[index - 1] = "| " + " | ".join([line.strip(), *columns[1:]]) + " |"
        out[index] = "|" + "---|" * len(columns)
        for row in range(index + 1, end):
            out[row] = "| " + " | ".join(_frame_row(lines[row], len(columns) - 1) or []) + " |"
    return out


def _frame_row(line: str, width: int) -> list[str] | None:
    """A printed frame's row as its cells, the row's name first, or None: not such a row of
    `width` numbers."""
    cells = _COLUMN_GAP.split(line.strip())
    if len(cells) != width + 1 or not all(_FRAME_NUMBER.fullmatch(c) for c in cells[1:]):
        return None
    return cells


_FRAME_INDEX = re.compile(r"[A-Za-z_][\w.]{0,40}\s{2,}")
"""The name of a printed frame's index, alone on its line and padded to the frame's width."""
_COLUMN_GAP = re.compile(r"\s{2,}")
_FRAME_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d{1,3})?")


def _outer_less(line: str) -> bool:
    """A line that holds a `|` but does not start with one."""
    return "|" in line and not line.strip().startswith("|")


_ENDS = tuple(".。!?！？;；:：")
_STARTS = re.compile(r"[A-Za-z0-9(]")
_HAN = re.compile(r"[\u4e00-\u9fff]")
"""Chinese prose wraps mid-sentence at a Han character too (`...提升到约` / `24.91 tok/s，...`,
`...单轮总音频` / `时长 28.5 秒`)."""


def _continues(previous: str, raw: str, block: str) -> bool:
    """Whether `raw` continues the statement of `previous` (same list item or sentence)."""
    stripped = raw.strip()
    if not stripped or "\t" in raw or stripped.startswith(("|", "```", "~~~", ">")):
        return False
    if not (block == "list" and raw[:1].isspace()):
        tail = previous.rstrip()
        if len(tail) * 2 < _WRAPPED or tail.endswith(_ENDS):
            return False  # (first: most lines end a sentence, no regex need look at them)
        if _STARTS.match(stripped) is None and not (_HAN.match(stripped) and _HAN.search(tail)):
            return False
        if len(tail) < _WRAPPED and len(tail) + len(_HAN.findall(tail)) < _WRAPPED:
            return False  # a Han character is two columns wide: `_WRAPPED` counts columns
    return not (
        _HEADING.match(stripped) or _BOLD_HEADING.fullmatch(stripped) or _LIST_ITEM.match(stripped)
    )


def _statements(
    parts: list[str], first_line: int, block: str, new_paragraph: bool, unit: str = ""
) -> Iterator[Segment]:
    """Sentences of one line, or of lines joined into one statement block (`unit`: the one
    said above the list an item is of)."""
    if len(parts) == 1:
        cells = [clean_text(cell) for cell in parts[0].split("\t")]
        sentences = [(s, first_line) for cell in cells for s in _sentences(cell)]
    else:
        sentences = _joined_sentences([clean_text(p) for p in parts], first_line)
    for position, (sentence, line) in enumerate(sentences):
        first = position == 0
        yield Segment(
            sentence, line, block, first, new_paragraph=first and new_paragraph, unit=unit
        )


def _joined_sentences(lines: list[str], first_line: int) -> list[tuple[str, int]]:
    """Sentences of lines joined with spaces, each with the line it starts on."""
    joined, starts = "", []
    for text in lines:
        starts.append(len(joined) + (1 if joined else 0))
        joined = f"{joined} {text}" if joined else text
    found: list[tuple[str, int]] = []
    cursor = 0
    for sentence in _sentences(joined):
        at = joined.find(sentence, cursor)
        cursor = at + len(sentence) if at >= 0 else cursor
        offset = max(at, 0)
        found.append((sentence, first_line + sum(1 for s in starts[1:] if s <= offset)))
    return found


def _without_comments(text: str) -> str:
    """HTML comments, and HTML tags written over several lines (`<img` then
    `style="width: 100%"`), blanked out, line numbers kept (a commented-out table is not
    read, nor an attribute's number)."""
    if "<" not in text:
        return text
    text = re.sub(r"<!--.*?(?:-->|$)", _blank, text, flags=re.S)
    return _MULTILINE_TAG.sub(_blank, text)


_MULTILINE_TAG = re.compile(r"<[A-Za-z][\w-]*\s[^<>]*\n[^<>]*>")


def _blank(match: re.Match[str]) -> str:
    return "\n" * match.group(0).count("\n")


def _visible(line: str) -> str:
    """A line without its HTML tags: an `<img width=50%>` line has nothing to read."""
    return re.sub(r"<[^>]*>|&nbsp;", " ", line).strip()


def _html_table(block: list[str], first_line: int, unit: str = "") -> Iterator[Segment]:
    """An HTML `<table>` as table rows (rowspan and colspan filled in), like a Markdown one."""
    table = parse_html_table(block, first_line)
    if table is None:
        return
    header: tuple[str, ...] = ()
    grid = table.rows
    if table.headed:
        header = tuple(clean_text(c) for c in grid[0][1])
        if table.head_rows > 1 and (
            valued := valued_header(header, [clean_text(c) for c in grid[1][1]])
        ):
            header, grid = valued, grid[1:]  # `Batch size` over `1 | 8 | 32`: one header
        yield Segment(" ".join(header), grid[0][0], "prose", True, header=header)
        grid = grid[1:]
    for line, cells, repeated in grid:
        yield Segment(
            "| " + " | ".join(c.replace("|", "/") for c in cells) + " |",
            line,
            "table",
            True,
            header=header,
            copies=repeated,
            unit=unit,
        )


def split_cells(row: str) -> list[str]:
    """The cells of a Markdown table row, stripped."""
    return [cell.strip() for cell in row.strip().strip("|").split("|")]


@lru_cache(maxsize=16384)
def clean_text(text: str) -> str:
    """Markdown inline markup, links, URLs and HTML tags removed; spaces collapsed."""
    # each substitution only where the text holds what it needs (issue #19)
    if "](" in text:
        text = _LINK_TARGET.sub("]", text)
    if "](" in text:
        text = _LINK.sub(r"\1", text)
    if "<" in text or "&nbsp;" in text:
        # tags before URLs: a URL in a tag would otherwise run on through the tag's text
        # (`<a href="https://..."><b>Lookahead</b></a>`)
        text = _TAG.sub(" ", text)
    if "http" in text:
        text = _URL.sub(" ", text)
    if "`" in text or "**" in text:
        # a mark between two digits leaves a space: `2`12.5 is two numbers, not 212.5
        text = _MARK_BETWEEN_DIGITS.sub(" ", text).replace("**", "").replace("`", "")
    if "$" in text:
        text = _INLINE_MATH.sub(_plain_math, text)
    text = _MARKER.sub("", text)
    return _SPACES.sub(" ", text).strip()


def _plain_math(match: re.Match[str]) -> str:
    """`$37.5\\,\\text{ms}$` -> `37.5 ms`, `$>10$` -> `>10`: inline math that writes a
    number (and its unit) as plain text; other math, and dollar amounts, as written."""
    inner = match.group(1)
    if not any(c.isdigit() for c in inner):
        return match.group(0)
    if "\\" not in inner:
        return inner if _MATH_NUMBER.fullmatch(inner) else match.group(0)
    inner = _MATH_WORD.sub(r" \1", inner)
    return _MATH_SPACE.sub(" ", inner).replace("\\%", "%")


_INLINE_MATH = re.compile(r"(?<!\\)\$(?=[^\s$])([^$\n]{1,40}?)(?<=\S)(?<!\\)\$")
"""`$…$` as TeX writes inline math: no space inside either dollar, neither escaped (`\\$0.14`
is a price)."""
_MATH_NUMBER = re.compile(r"\s*[<>~≈]?\s*[-+−]?[\d.,]+\s*")
_MATH_WORD = re.compile(r"\\(?:text|mathrm|textrm|rm|mathit|textit)\s*\{([^{}]*)\}")
_MATH_SPACE = re.compile(r"\\[,;:! ]|~")


_LINK_TARGET = re.compile(r"\]\((?:https?:|/|\.)[^)\s]*\)")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_URL = re.compile(r"https?://\S+")
_TAG = re.compile(r"<[^>]*>|&nbsp;")
_MARKER = re.compile(r"^\s*(?:[-*+]|\d{1,2}[.)])\s+")
_MARK_BETWEEN_DIGITS = re.compile(r"(?<=\d)(?:\*\*|`)+(?=\d)")
_SPACES = re.compile(r"\s+")


_SENTENCE_END = re.compile(
    r"(?<=[。；！？!?])\s*|(?<=;)(?<!TL;)(?<!tl;)\s*|\.(?:(?<=[a-z0-9)\]*%]\.)|(?<=\d[BKMGT]\.))(?<!\bvs\.)(?<!\bv\.s\.)"
    r"(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\bw\.r\.t\.)(?<!\betc\.)(?<!\bapprox\.)\s+(?=[A-Z(*\[])"
)
"""A sentence ends at a full stop, not at `vs.`, `e.g.`, `w.r.t.` before a capital, nor at
the semicolon of `TL;DR`. The full-stop branch starts at the `.` and looks back from there,
so it is tried only at full stops, not at every letter (#19)."""


_MAY_END = re.compile(r"[。；！？!?;]|\.\s")
"""What every sentence end holds: a text without it is one sentence (#19)."""


def _sentences(text: str) -> list[str]:
    if not _MAY_END.search(text):
        return [text.strip()] if text.strip() else []
    parts = _SENTENCE_END.split(text)
    return [part.strip() for part in parts if part and part.strip()]


def table_indices(segments: list[Segment]) -> Iterator[list[int]]:
    """Each table of the segments: the indices of its segments, its header row's first
    (consecutive segments under one header)."""
    rows: list[int] = []
    for index, segment in enumerate(segments):
        if rows and segment.header == segments[rows[-1]].header and index == rows[-1] + 1:
            rows.append(index)
            continue
        if rows:
            yield rows
        rows = [index] if segment.header else []
    if rows:
        yield rows
