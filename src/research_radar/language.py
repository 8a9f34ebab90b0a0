"""Which language a text is written in: Chinese or English.

Pure. One reading for every stage that asks: the classifier reads a Chinese text by its
rules, and the report quotes an author's sentence written in the other language than its
own.
"""

from __future__ import annotations

import re
from typing import Literal

__all__ = ["spaced", "written_in"]


_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
_LATIN_WORD = re.compile(r"[A-Za-z]+")
_CJK_LATIN = re.compile(r"(?<=[\u4e00-\u9fff])(?=[A-Za-z0-9])|(?<=[A-Za-z0-9])(?=[\u4e00-\u9fff])")


def written_in(text: str) -> Literal["zh", "en"]:
    """`zh` when a text has at least as many Chinese characters as Latin words, else `en`:
    English technical names inside a Chinese sentence keep it Chinese."""
    if _HAN.search(text) is None:
        return "en"  # most texts: no need to count their words
    return "zh" if len(_HAN.findall(text)) >= max(1, len(_LATIN_WORD.findall(text))) else "en"


def spaced(text: str) -> str:
    """A space between Chinese and a Latin word or number (`面向 LLM 与 Agentic 的`), and
    none between two Chinese words: the house style of mixed text."""
    return _CJK_LATIN.sub(" ", text)
