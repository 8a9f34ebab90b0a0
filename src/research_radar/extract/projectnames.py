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

__all__ = ["name_pattern", "project_aliases"]


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
            if len(alias) >= 3 and not re.fullmatch(name_pattern(name), alias, re.I)
        )
    )


def name_pattern(name: str) -> str:
    """A regex of a name written with or without separators between its words:
    `fast-serve`, `FastServe` and `Fast Serve` match each other."""
    parts = [p for p in re.split(r"[\s_.\-]+|(?<=[a-z])(?=[A-Z])", name) if p]
    return r"[\s_.\-]?".join(re.escape(p) for p in parts)
