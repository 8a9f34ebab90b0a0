"""The names a document calls its own project by, besides the repository's own spelling:
the part before `-for-` (`GPTQ` of GPTQ-for-LLaMa) and the name its title opens with
(`# AWQ: Activation-aware Weight Quantization` in mit-han-lab/llm-awq).

Pure. A building block of `research_radar.extract.claims`; callers outside this package
use `research_radar.extract.claims` instead. A table of several systems, one of them the
project's own, compares the project with the others (issue #14): a row or column is the
project's when its label starts with one of these names, however spelt (`fast-serve`,
`FastServe`, `Fast Serve`).
"""

from __future__ import annotations

import re

from research_radar.extract.catalogue import Catalog

__all__ = ["name_parts", "names_own", "project_aliases", "spelt_at"]


_TITLE = re.compile(r"^\s{0,3}#\s+(?P<title>[^\n]+)", re.M)
_LEAD_NAME = re.compile(
    r"^(?P<name>[A-Za-z][\w.+-]*(?:\s[A-Z][\w.+-]*)?)\s*(?:[:：|]|\s[-–—]\s|\(|（|$)"
)
"""`AWQ: ...`, `FastServe - a fast engine`, `Neural Speed`: the name a title opens with."""
_MARKUP = re.compile(r"!\[[^\]]*\]\([^)]*\)|<[^>]+>|[*_`\[\]]|\([^)]*\)(?=\s*$)")
_COMPARES = re.compile(r"\b(?:vs\.?|versus|compar\w*|benchmarks?|results?)\b|对比|比较", re.I)
_FOR = re.compile(r"^(?P<name>[A-Za-z][\w.]{2,})[-_]for[-_]", re.I)


def project_aliases(project: str, text: str, cat: Catalog) -> tuple[str, ...]:
    """Other names of the repository `owner/name` in its document: the part of its name
    before `-for-`, and the name the document's title opens with, when that name is no
    model, hardware or precision (a model's page names its model, not a system)."""
    name = project.rpartition("/")[2]
    found: list[str] = []
    if match := _FOR.match(name):
        found.append(match["name"])  # `GPTQ`, though the catalogue knows it as a precision
    title = _TITLE.search(text[:4000])
    if title:
        words = _MARKUP.sub("", title["title"]).strip()
        lead = _LEAD_NAME.match(words)
        alias = lead["name"].strip() if lead and not _COMPARES.search(words) else ""
        if not any(cat.find(field, alias) for field in ("model", "hardware", "precision")):
            found.append(alias)
    return tuple(
        dict.fromkeys(
            alias
            for alias in found
            if len(alias) >= 3 and spelt_at(name_parts(name), alias, 0) != len(alias)
        )
    )


def name_parts(name: str) -> tuple[str, ...]:
    """The words of a name, lower-cased, split at separators and at a lower-to-upper change:
    `fast-serve`, `FastServe` and `Fast Serve` all give `("fast", "serve")`."""
    return tuple(p.lower() for p in _WORD_BREAK.split(name) if p)


_WORD_BREAK = re.compile(r"[\s_.\-]+|(?<=[a-z])(?=[A-Z])")
_SEPARATORS = frozenset("_.-")


def spelt_at(parts: tuple[str, ...], text: str, start: int) -> int:
    """Where the name of `parts` ends when `text` spells it from `start` (its words in
    order, any case, each pair with at most one separator between them), or -1.

    A matcher rather than a regex made for each name: the words hold no separator, so the
    one reading is found in a single pass, and no pattern is compiled per repository (#19).
    """
    position = start
    for index, part in enumerate(parts):
        if index and position < len(text) and _separator(text[position]):
            position += 1
        end = position + len(part)
        if text[position:end].lower() != part:
            return -1
        position = end
    return position if parts else -1


def _separator(char: str) -> bool:
    return char in _SEPARATORS or char.isspace()


def names_own(parts: tuple[str, ...], label: str) -> bool:
    """Whether the label opens with the name (after any marks, and not run on into a
    longer word: `FastServe (ours)`, not `FastServeX`) or closes with it after a space
    (`Latency (ms) FastServe`, any marks after it)."""
    word = _WORD_CHAR.search(label)  # (what `\W*` passes over)
    end = spelt_at(parts, label, word.start()) if word else -1
    if end != -1 and not (end < len(label) and label[end].isascii() and label[end].isalpha()):
        return True
    for index, char in enumerate(label):
        if char.isspace():
            end = spelt_at(parts, label, index + 1)
            if end != -1 and not _WORD_CHAR.search(label, end):
                return True
    return False


_WORD_CHAR = re.compile(r"\w")
