"""A document -> its claims: benchmark results when it is a benchmark JSON file
(`extract.benchmark_json`), else the claims of its text (`extract.claims`)."""

from __future__ import annotations

import json
from pathlib import Path

from research_radar.extract.benchmark_json import parse_benchmark_json
from research_radar.extract.catalogue import Catalog
from research_radar.extract.claims import extract_claims
from research_radar.models import Claim

__all__ = ["extract_document", "extract_file"]


def extract_file(
    path: Path, where_prefix: str = "", reporter: str = "author", *, catalog: Catalog | None = None
) -> list[Claim]:
    """Claims of a file: JSON benchmark results, or any text (README, docs, notes)."""
    text = path.read_text(encoding="utf-8", errors="replace")
    return extract_document(text, path.name, where_prefix or str(path), reporter, catalog=catalog)


def extract_document(
    text: str,
    name: str,
    where: str,
    reporter: str = "author",
    *,
    catalog: Catalog | None = None,
) -> list[Claim]:
    """Claims of a document already read: benchmark results when `name` ends in .json and
    the text parses, else the claims of the text (read as reStructuredText when `name`
    ends in .rst)."""
    if name.lower().endswith(".json"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            return extract_claims(text, where, reporter, catalog=catalog, rst=False)
        return parse_benchmark_json(data, name, where, reporter, catalog=catalog)
    # the file's own name says whether it is reStructuredText, whatever `where` names
    rst = True if name.lower().endswith((".rst", ".rst.txt")) else None
    return extract_claims(text, where, reporter, catalog=catalog, rst=rst)
