"""A document -> its claims: benchmark results when it is a benchmark JSON file
(`extract.benchmark_json`), else the claims of its text (`extract.claims`)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path

from research_radar.extract.benchmark_json import parse_benchmark_json
from research_radar.extract.catalogue import Catalog
from research_radar.extract.claims import extract_claims
from research_radar.models import Claim

__all__ = ["extract_document", "extract_file", "load_included"]


def extract_file(
    path: Path, where_prefix: str = "", reporter: str = "author", *, catalog: Catalog | None = None
) -> list[Claim]:
    """Claims of a file: JSON benchmark results, or any text (README, docs, notes)."""
    text = path.read_text(encoding="utf-8", errors="replace")
    where = where_prefix or str(path)
    files = load_included(path, text)
    return extract_document(text, path.name, where, reporter, catalog=catalog, files=files)


_CSV_FILE = re.compile(r"^\s+:file:\s+(\S+)\s*$", re.M)
_MOST_BYTES = 1 << 20


def load_included(path: Path, text: str) -> dict[str, str]:
    """The CSV files the csv-tables of the reStructuredText file `path` (read as `text`)
    name (`:file: data.csv`), by the name written, read relative to it; a file that is
    missing, larger than a megabyte, or outside the document's own folder (an absolute
    name, `../`: a document never makes the radar read, and report, other local files)
    is left out, and its table not read."""
    if not path.name.lower().endswith((".rst", ".rst.txt")) or ":file:" not in text:
        return {}
    folder = path.parent.resolve()
    files: dict[str, str] = {}
    for name in dict.fromkeys(_CSV_FILE.findall(text)):
        included = (folder / name).resolve()
        if not included.is_relative_to(folder):
            continue
        if included.is_file() and included.stat().st_size <= _MOST_BYTES:
            files[name] = included.read_text(encoding="utf-8", errors="replace")
    return files


def extract_document(
    text: str,
    name: str,
    where: str,
    reporter: str = "author",
    *,
    catalog: Catalog | None = None,
    files: Mapping[str, str] | None = None,
) -> list[Claim]:
    """Claims of a document already read: benchmark results when `name` ends in .json and
    the text parses, else the claims of the text (read as reStructuredText when `name`
    ends in .rst; `files`: the CSV files its csv-tables name, `load_included`)."""
    if name.lower().endswith(".json"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            return extract_claims(text, where, reporter, catalog=catalog, rst=False)
        return parse_benchmark_json(data, name, where, reporter, catalog=catalog)
    # the file's own name says whether it is reStructuredText, whatever `where` names
    rst = True if name.lower().endswith((".rst", ".rst.txt")) else None
    return extract_claims(text, where, reporter, catalog=catalog, rst=rst, files=files)
