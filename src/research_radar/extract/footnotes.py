"""Footnotes a number points to: where it was measured, said once at the foot of a page.

Pure. A building block of `research_radar.extract.claims`; callers outside this package
use `research_radar.extract.claims` instead.

`... from 8521.276 ms to 248.586 ms[[1]](#1)` with `<a id="1">[1]</a> The data was tested
on a single socket of Intel(R) Xeon(R) Platinum 8480L` at the foot of the page: the
footnote sets up the numbers of the paragraph that points to it (issue #14). A footnote
is a Markdown one (`[^1]` and `[^1]: ...`) or an anchor (`[1](#note1)` and a line holding
`<a id="note1">` or `<a name="note1">`).
"""

from __future__ import annotations

import re

__all__ = ["footnote_refs"]

_DEFINED = re.compile(r"^\s{0,3}\[\^([\w-]{1,20})\]:\s*(\S.*)$")
_ANCHOR = re.compile(r"<a\s+(?:id|name)\s*=\s*[\"']?([\w-]{1,40})[\"']?\s*/?>", re.I)
_POINTER = re.compile(r"\[\^([\w-]{1,20})\](?!:)|\]\(#([\w-]{1,40})\)")
_TAG = re.compile(r"<[^<>]{1,200}>")
_PARAGRAPH_LINES = 12
"""How far above a pointer its paragraph may start (a wrapped statement's first line)."""


def footnote_refs(text: str) -> list[tuple[int, int, str]]:
    """Each paragraph that points to a footnote: its first and last line (1-based, up to
    the pointer's line) and the footnote's text."""
    if "[^" not in text and "<a" not in text:
        return []  # no footnote is defined: no line need be read (#19)
    lines = text.splitlines()
    notes: dict[str, str] = {}
    for line in lines:
        if defined := _DEFINED.match(line):
            notes.setdefault(defined[1], defined[2])
        elif "<a" in line and (anchor := _ANCHOR.search(line)):
            notes.setdefault(anchor[1], _TAG.sub(" ", line).strip())
    if not notes:
        return []
    found: list[tuple[int, int, str]] = []
    for at, line in enumerate(lines):
        if _DEFINED.match(line):
            continue
        for pointer in _POINTER.finditer(line):
            note = notes.get(pointer[1] or pointer[2])
            if note:
                found.append((_paragraph_start(lines, at) + 1, at + 1, note))
    return found


def _paragraph_start(lines: list[str], at: int) -> int:
    """The index of the first line of the paragraph holding line `at` (a table row is
    its own: the note is that row's)."""
    if lines[at].lstrip().startswith(("|", "<t")):
        return at
    start = at
    while start > 0 and at - start < _PARAGRAPH_LINES and lines[start - 1].strip():
        start -= 1
    return start
