"""A reStructuredText document -> the same document as the Markdown reader reads it.

Pure. A building block of `research_radar.extract.claims`, which callers outside this
package use instead. Sphinx documentation is written in reStructuredText; its benchmark
pages hold grid tables, simple tables, `.. list-table::` and `.. csv-table::` directives
(issue #14). Rather than a second reader, the document is rewritten line for line (line
numbers kept) into what `extract.markdown` already reads, so that every table rule
(units in headers, row labels, baselines, load columns, conditions from headings and
captions) holds unchanged:

- a section title becomes a `#` heading, its level the order its adornment style first
  appears in (as docutils numbers them), its underline (and overline) blanked;
- a table becomes an HTML `<table>`, each row on the line it starts on, header rows in
  `<thead>`, spanned cells as `rowspan`/`colspan` (`extract.rsttables`); a table
  directive's title (its caption) stays a line of its own right above it;
- code (`.. code-block::`, a `::` literal block) becomes fenced code, with its language;
  comments, targets, substitutions and directives not known to hold prose (`toctree`,
  `math`, a site's own) are blanked; `note`, `figure`, `tab` and the like keep their content;
- inline markup is taken off: `:role:`text``, `` `text <url>`_ ``, `*text*`.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping

from research_radar.extract.rsttables import (
    GRID_BORDER,
    SIMPLE_BORDER,
    RstTable,
    csv_table,
    grid_table_end,
    list_table,
    read_grid_or_simple,
    simple_table_end,
)

__all__ = ["is_rst", "markdown_view"]


def is_rst(text: str, where: str) -> bool:
    """Whether a document is reStructuredText: by the path `where` names (`.rst`, or a
    Sphinx site's `_sources/*.rst.txt`); without one, by a table only reStructuredText
    writes (a list-table or csv-table directive, or a grid or simple table outside
    fenced code)."""
    if where:
        path = where.split("#", 1)[0].split("?", 1)[0].lower()
        return path.endswith((".rst", ".rst.txt"))
    if ".. list-table::" in text or ".. csv-table::" in text:
        return True
    if "```" in text or not ("+-" in text or "= =" in text or "=  =" in text):
        return False
    lines = text.splitlines()
    return any(_table_end(lines, index) > index for index in range(len(lines)))


def markdown_view(text: str, files: Mapping[str, str] | None = None) -> str:
    """`text` rewritten, line for line, into what the Markdown reader reads; `files`: the
    text of the files its csv-tables name (`:file: data.csv`), by the name written."""
    return "\n".join(_View(text.splitlines(), files or {}).read())


_ADORNMENT = re.compile(r"([!-/:-@\[-`{-~])\1{2,}\s*")
"""A section title's underline or overline: one punctuation character, three or more times."""
_DELIMITERS = {"tab": "\t", "space": " ", ";": ";", "|": "|", ":": ":"}
"""A csv-table's `:delim:` values read (a comma otherwise)."""
_MOST_ROWS = 5000
"""The lines of an included CSV file read, at most."""
_DIRECTIVE = re.compile(r"\s*\.\.\s+([\w:.+-]+)\s?::(?:\s+(.*\S))?\s*$")
_OPTION = re.compile(r"\s*:([\w-]+):(?:\s+(.*\S))?\s*$")
_CODE = frozenset(["code", "code-block", "sourcecode", "parsed-literal", "prompt"])
_CONTAINERS = frozenset(
    [
        "table", "figure", "container", "only", "ifconfig", "tab-set", "tabs", "grid",
        "grid-item", "grid-item-card", "card", "class", "compound", "epigraph", "highlights",
        "pull-quote", "hlist", "versionadded", "versionchanged", "deprecated", "centered",
    ]
)  # fmt: skip
"""Directives whose content is text of the document; any other's (`toctree`, `math`,
`autoclass`, a site's own `.. df-table::` of Python) is not read."""
_TITLED = frozenset(["note", "warning", "tip", "important", "hint", "attention", "caution"])
_TITLED |= {"danger", "error", "admonition", "topic", "sidebar", "seealso"}
"""Directives whose argument is text of the document (`.. note:: Measured on A100.`)."""
_NAMED = frozenset(["rubric", "tab", "tab-item", "group-tab", "dropdown"])
"""Directives whose argument titles their content: an informal heading (`.. tab:: A100`)."""


class _View:
    """The rewriting of one document: `out` starts as its lines and is changed in place."""

    def __init__(self, lines: list[str], files: Mapping[str, str]) -> None:
        self.lines = lines
        self.files = files
        """The text of the files the document's csv-tables name, by the name written."""
        self.out = list(lines)
        self.styles: list[tuple[str, bool]] = []
        """Section title adornments, in the order they first appear: their levels."""

    def read(self) -> list[str]:
        index = 0
        while index < len(self.lines):
            index = self._step(index)
        return self.out

    def _step(self, index: int) -> int:
        """Rewrite what starts at `lines[index]`; the index of the next line to read."""
        line = self.lines[index]
        stripped = line.strip()
        if not stripped:
            return index + 1
        directive = _DIRECTIVE.match(line)
        if directive:
            return self._directive(index, directive.group(1).lower(), directive.group(2) or "")
        if stripped == ".." or stripped.startswith(".. "):
            return self._blank(index, _body_end(self.lines, index))  # comment or target
        end = _table_end(self.lines, index)
        if end > index:
            self._table(read_grid_or_simple(self.lines, index, end), index, end)
            return end + 1
        titled = self._title(index)
        if titled > index:
            return titled
        if _ADORNMENT.fullmatch(stripped):
            self.out[index] = ""  # a transition (`----`), or an adornment gone astray
            return index + 1
        self.out[index] = _inline(_AUTO_NUMBER.sub(r"\g<1>1.", line))
        if stripped.startswith("| ") or stripped == "|":
            # a line block's line (`| Measured on A100.`), not a Markdown table's row
            self.out[index] = _inline(line.replace("|", " ", 1))
        if stripped.endswith("::"):
            self.out[index] = _inline(re.sub(r"\s*::$", ":", line.rstrip()))
            if stripped == "::" or line.rstrip().endswith(" ::"):
                self.out[index] = _inline(line.rstrip()[:-2].rstrip())
            return self._literal(index)
        return index + 1

    def _title(self, index: int) -> int:
        """A section title at `index` (with an overline there, or an underline below it)
        rewritten as a heading; the index after it (`index` when none is there)."""
        lines = self.lines
        if index and lines[index - 1].strip():
            return index  # a title follows a blank line
        over = _ADORNMENT.fullmatch(lines[index].strip()) is not None
        at = index + 1 if over else index
        if at + 1 >= len(lines) or not lines[at].strip() or _ADORNMENT.fullmatch(lines[at]):
            return index
        under = lines[at + 1].rstrip()
        if not _ADORNMENT.fullmatch(under) or (not over and lines[at][:1].isspace()):
            return index
        if over and lines[index].strip()[0] != under[0]:
            return index
        if len(under.strip()) < min(len(lines[at].strip()), 4):
            return index  # too short to be the underline of this text
        style = (under[0], over)
        if style not in self.styles:
            self.styles.append(style)
        level = min(self.styles.index(style) + 1, 6)
        self.out[at] = "#" * level + " " + _inline(lines[at].strip())
        self.out[at + 1] = ""
        if over:
            self.out[index] = ""
        return at + 2

    def _directive(self, index: int, name: str, argument: str) -> int:
        """A directive rewritten; the index of the next line to read (its content's first,
        for a directive whose content is read as the document's)."""
        end = _body_end(self.lines, index)
        options, content = self._options(index, end)
        if name in ("list-table", "csv-table"):
            self.out[index] = _inline(argument)  # the title: the table's caption
            self._blank(index + 1, end)
            head = _int(options.get("header-rows", ("", -1))[0])
            if name == "list-table":
                table = list_table(self.lines, content, end, head)
            else:
                table = self._csv(options, content, end, head)
            self._table(table, content, end)
            return end + 1
        if name in _CODE:
            return self._fence(index, content, end, argument.split(" ")[0] or "text")
        if name not in _CONTAINERS and name not in _TITLED and name not in _NAMED:
            return self._blank(index, end)
        self.out[index] = _inline(argument) if name in _TITLED else ""
        if name in _NAMED and argument:
            self.out[index] = f"**{_inline(argument)}**"  # read as a bold line: a heading
        elif name == "table" and argument:
            self.out[index] = _inline(argument)  # the caption of the table in its content
        self._blank(index + 1, content - 1)
        return content

    def _csv(
        self, options: dict[str, tuple[str, int]], content: int, end: int, head: int
    ) -> RstTable | None:
        """A csv-table's rows: its content's, or those of the file its `:file:` option
        names (when given in `files`), each on that option's line, the rows not being in
        this document."""
        header = options.get("header")
        delimiter = _DELIMITERS.get(options.get("delim", (",", 0))[0], ",")
        named = options.get("file")
        if named is None or content <= end:
            at = (header[1], header[0]) if header else None
            return csv_table(self.lines, content, end, head, at, delimiter)
        included = self.files.get(named[0])
        if included is None:
            return None
        rows = included.splitlines()[:_MOST_ROWS]
        at = (0, header[0]) if header else None
        table = csv_table(rows, 0, len(rows) - 1, head, at, delimiter)
        if table is None:
            return None
        line = max(line for _, line in options.values())
        return RstTable([(line, cells) for _, cells in table.rows], table.head)

    def _options(self, index: int, end: int) -> tuple[dict[str, tuple[str, int]], int]:
        """A directive's options (`:header-rows: 1`), each with its line, and the index of
        its content's first line."""
        options: dict[str, tuple[str, int]] = {}
        at = index + 1
        while at <= end and (option := _OPTION.match(self.lines[at])):
            options[option.group(1).lower()] = (option.group(2) or "", at)
            at += 1
        return options, at

    def _fence(self, index: int, content: int, end: int, language: str) -> int:
        """Code as a fenced block (a benchmark tool's printed result in it is read)."""
        self._blank(index, content - 1)
        if end + 1 < len(self.lines) and not self.lines[end + 1].strip() and end >= content:
            self.out[index] = "```" + language
            self.out[end + 1] = "```"
            return end + 2
        return self._blank(index, end)

    def _literal(self, index: int) -> int:
        """The literal block a paragraph ending in `::` introduces, fenced; the index after
        it (`index + 1` when none follows)."""
        start = index + 1
        while start < len(self.lines) and not self.lines[start].strip():
            start += 1
        indent = _indent(self.lines[index])
        if start >= len(self.lines) or _indent(self.lines[start]) <= indent or start == index + 1:
            return index + 1
        end = _body_end(self.lines, start - 1, indent)
        self.out[index + 1] = "```text"
        if end + 1 < len(self.lines) and not self.lines[end + 1].strip():
            self.out[end + 1] = "```"
            return end + 2
        return self._blank(index + 1, end)

    def _table(self, table: RstTable | None, start: int, end: int) -> None:
        """A table written as HTML over its lines, each row on the line it starts on."""
        if table is not None:
            start = min(start, table.rows[0][0])
        self._blank(start, end)
        if table is None:
            return
        for at, (line, cells) in enumerate(table.rows):
            tag = "th" if at < table.head else "td"
            written = "".join(_cell(tag, c.text, c.rowspan, c.colspan) for c in cells)
            row = f"<tr>{written}</tr>"
            if at == 0:
                row = "<table>" + ("<thead>" if table.head else "") + row
            if at == table.head - 1:
                row += "</thead>"
            if at == len(table.rows) - 1:
                row += "</table>"
            self.out[line] = self.out[line] + row

    def _blank(self, start: int, end: int) -> int:
        """Lines `start` to `end` blanked; the index after them."""
        for at in range(start, end + 1):
            self.out[at] = ""
        return end + 1


_AUTO_NUMBER = re.compile(r"^(\s*)#\.(?=\s)")
"""`#. item`: an item of an auto-numbered list, read as Markdown's `1. item`."""


def _cell(tag: str, text: str, rowspan: int, colspan: int) -> str:
    spans = (f' rowspan="{rowspan}"' if rowspan > 1 else "") + (
        f' colspan="{colspan}"' if colspan > 1 else ""
    )
    return f"<{tag}{spans}>{html.escape(_inline(text))}</{tag}>"


def _table_end(lines: list[str], index: int) -> int:
    """The last line of a grid or simple table that starts at `lines[index]` (`index`
    when none does)."""
    line = lines[index]
    if "+" in line and GRID_BORDER.fullmatch(line):
        return grid_table_end(lines, index)
    if "=" in line and SIMPLE_BORDER.fullmatch(line):
        return simple_table_end(lines, index)
    return index


def _body_end(lines: list[str], index: int, indent: int | None = None) -> int:
    """The last line of what is indented under `lines[index]` (more than `indent`, its
    own indent by default): `index` when nothing is."""
    own = _indent(lines[index]) if indent is None else indent
    end = index
    for at in range(index + 1, len(lines)):
        if lines[at].strip():
            if _indent(lines[at]) <= own:
                break
            end = at
    return end


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _int(raw: str) -> int:
    return int(raw) if raw.strip().isdigit() else 0


_ROLE = re.compile(r"(?<![\w`]):[\w:+.-]+:`([^`<]*?)\s*(?:<[^`>]*>)?`(?![\w`])")
"""`:ref:`the results <results>``, `:sup:`2``: the role's text (as inline markup is, only
between spaces or punctuation: its text is never glued to a word or a number)."""
_LINKED = re.compile(r"(?<![\w`])`([^`<]*?)\s*(?:<[^`>]*>)?`__?(?!\w)")
"""`` `vLLM <https://...>`_ ``, `` `results`_ ``: the link's text."""
_DIGIT_TICK = re.compile(r"(?<=\d)`+|`+(?=\d)")
_EMPHASIS = re.compile(r"(?<![\w*\\])\*(?=\S)([^*\n]*?\S)\*(?![\w*])")


def _inline(text: str) -> str:
    """A line with reStructuredText's inline markup taken off (only where it holds some)."""
    if "`" in text:
        text = _ROLE.sub(r"\1", text)
        text = _LINKED.sub(r"\1", text)
        # the Markdown reader drops backticks: one left beside a digit would glue two
        # numbers into one (`:sup:`2`12.5`, not markup, read as 212.5)
        text = _DIGIT_TICK.sub(" ", text)
    if "*" in text:
        text = _EMPHASIS.sub(r"\1", text)
    return text
