"""The review's words: fixed phrases per language and the report's language (refs #17).

`review_strings` is the one loader of `report/review_strings.toml`; `detect_language`
tells a Chinese report from an English one. Pure apart from reading the packaged file.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

__all__ = [
    "LANGUAGES",
    "count_phrase",
    "detect_language",
    "fact_fix",
    "fact_text",
    "join_words",
    "review_strings",
]

LANGUAGES = ("zh", "en")

_CJK = re.compile(r"[\u4e00-\u9fff]")
_LATIN = re.compile(r"[A-Za-z]")
_ZH_NUMBERS = "零一两三四五六七八九十"


@cache
def review_strings(language: str) -> dict[str, Any]:
    """The fixed phrases of the review comment in `language` (zh or en; others fall back to zh)."""
    text = (
        resources.files("research_radar.report")
        .joinpath("review_strings.toml")
        .read_text(encoding="utf-8")
    )
    table: dict[str, dict[str, Any]] = tomllib.loads(text)
    return table.get(language, table["zh"])


def detect_language(text: str) -> str:
    """zh when Chinese characters carry the prose, else en.

    Chinese reports keep English technical names, so the test is not a majority: a tenth
    as many Chinese characters as Latin letters (and at least 20) makes a Chinese report.
    """
    cjk = len(_CJK.findall(text))
    return "zh" if cjk >= 20 and cjk * 10 >= len(_LATIN.findall(text)) else "en"


def count_phrase(count: int, language: str) -> str:
    """ "三个条目" / "3 entries" (Chinese numerals up to ten)."""
    if language == "zh":
        number = _ZH_NUMBERS[count] if 0 <= count <= 10 else str(count)
        return f"{number}个条目"
    return "1 entry" if count == 1 else f"{count} entries"


def join_words(words: list[str], language: str) -> str:
    """ "A、B与C" / "A, B and C"."""
    strings = review_strings(language)
    if len(words) <= 1:
        return "".join(words)
    return str(strings["entries_sep"].join(words[:-1]) + strings["and"] + words[-1])


def _fact_values(params: Mapping[str, str], strings: Mapping[str, Any]) -> dict[str, str]:
    """A check's parameters with PR/issue states and verifier sources in the language."""
    values = dict(params)
    for key in ("state", "claimed"):
        if key in values:
            values[key] = strings["states"].get(values[key], values[key])
    source = values.get("source", "")
    if source.startswith("git "):
        values["source"] = strings["sources"]["git"].format(repo=source[4:])
    elif source:
        values["source"] = strings["sources"].get(source, source)
    return values


def fact_text(fact: str, params: Mapping[str, str], language: str) -> str:
    """What a source check found (a `Check` of review/verify.py), as a sentence in `language`."""
    strings = review_strings(language)
    return str(strings["facts"][fact].format(**_fact_values(params, strings)))


def fact_fix(fact: str, params: Mapping[str, str], language: str) -> str:
    """How to correct a contradicted fact, in `language` ("" when the fact has no fix)."""
    strings = review_strings(language)
    template = strings["fact_fixes"].get(fact, "")
    return str(template.format(**_fact_values(params, strings)))
