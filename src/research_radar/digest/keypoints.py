"""An entry's key points: its claims with numbers and their conditions, tidied. Pure."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from functools import lru_cache

from research_radar.digest.signals import KeyPoint, Mention, normalise_title
from research_radar.extract.claims import extract_claims
from research_radar.sources.notes import parse_numbers, parse_urls

__all__ = [
    "ClaimPoints",
    "claim_points",
    "extract_key_points",
    "line_text",
    "taken_names",
    "tidy_text",
    "without_urls",
]

ClaimPoints = tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]
"""(text, numbers, conditions) of each claim with numbers of an item text."""

_CONDITIONS = re.compile(
    r"(?<![\w])(?:[HABL]\d{2,3}S?|GB\d{3}|B200|MI\d{3}X?|RTX\s?\d{4}|TPU\s?v\d\w?"
    r"|M\d (?:Max|Pro|Ultra))(?![\w])"
    r"|(?<![\w])(?:FP(?:4|6|8|16|32)|BF16|INT[348]|NVFP4|MXFP4|AWQ|GPTQ)(?![\w])"
    r"|(?<![\w])(?:Llama|LLaMA|Qwen|DeepSeek|Mistral|Mixtral|Gemma|Kimi|GPT|Phi|GLM)[-\w.]*"
    r"|(?:vs\.?|versus|对比|相比|相对)\s*[\w.\-/]+(?:\s[A-Za-z][\w\-]*)?"
    r"|\d+\s?[KkM]\s?(?:context|上下文|tokens?)",
)


_MARKER = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)、]|#+)\s*")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_EMPHASIS = re.compile(r"\*\*|__|`")
_SPACES = re.compile(r"\s+")
_DIGIT = re.compile(r"\d")


def line_text(line: str) -> str:
    line = _MARKER.sub("", line)
    if "[" in line:  # the other rules cannot match without their characters (#19)
        line = _LINK.sub(r"\1", line)
    if "*" in line or "_" in line or "`" in line:
        line = _EMPHASIS.sub("", line)
    return _SPACES.sub(" ", line).strip(" ：:，,;；")


@lru_cache(maxsize=1 << 15)
def without_urls(text: str) -> str:
    """The text with its URLs taken out, tidied line by line. Read for key points and for
    contradictions, and one paper's text is often in many notes: remembered, for as many
    texts as a large inbox holds (4,096 were fewer than a 10,000-note digest reads
    twice, #19)."""
    for url in parse_urls(text):
        text = text.replace(url, "")
    return "\n".join(tidy_text(line) for line in text.split("\n"))


_SEP = r"[，,;；、:：]"
_OPEN_SEP = re.compile(rf"([（(])\s*{_SEP}\s*")
_SEP_CLOSE = re.compile(rf"\s*{_SEP}\s*([）)])")
_EMPTY = re.compile(r"[（(]\s*[）)]")
_BRACKETS = re.compile(r"[（()）]")
_RUNS = re.compile(r"[ \t]{2,}")


def tidy_text(text: str) -> str:
    """No empty slot left where a URL was taken out: `（NeurIPS 2024，）` -> `（NeurIPS 2024）`."""
    previous = None if _BRACKETS.search(text) else text  # every rule needs a bracket (#19)
    while previous != text:
        previous = text
        text = _EMPTY.sub("", _OPEN_SEP.sub(r"\1", _SEP_CLOSE.sub(r"\1", text)))
    return _RUNS.sub(" ", text).rstrip(" ：:，,")


_BASELINE = re.compile(
    r"(?:\bvs\.?|\bversus|相对于?|相比于?|对比|比(?=\s+[A-Za-z]))\s*"
    r"(?P<b>[A-Za-z][A-Za-z0-9_.\-/+]*(?:\s[A-Za-z][A-Za-z0-9_.\-/+]*)*"
    r"|[\u4e00-\u9fff][\u4e00-\u9fffA-Za-z0-9_\-/+.]*?)"
    r"(?=\s*(?:最高|最多|约|高达|快|慢|提升|降低|下降|减少|加速|高|低|[，,。；;、：:（()]|\s\d|\d|$))"
)
"""`相对 X 最高 4.5×` -> X, ending where the comparison words start (never mid-word)."""
_COMPARISON = re.compile(r"^(?:vs\.?|versus|对比|相比|相对)", re.IGNORECASE)
_CONTEXT_SIZE = re.compile(r"^\d+(?:\.\d+)?\s*[KkM]$")
_CONTEXT_WORDS = re.compile(r"上下文|context|tokens?|输入", re.IGNORECASE)


def _baselines(text: str) -> list[str]:
    return [m.group("b").strip() for m in _BASELINE.finditer(text) if m.group("b").strip()]


def _tidy_conditions(text: str, conditions: list[str], taken: AbstractSet[str]) -> list[str]:
    """Conditions stated in the point itself: no item's name (`taken`, lower case), no
    baseline cut mid-word."""
    kept = []
    for condition in conditions:
        core = condition.split("=", 1)[1] if "=" in condition else condition
        if condition.startswith("vs ") or _COMPARISON.match(condition):
            continue  # rebuilt from the text below, whole
        if core.lower() in taken or not _stated(core, text):
            continue
        kept.append(condition)
    baselines = [b for b in _baselines(text) if b.lower() not in taken]
    kept = [c for c in kept if c not in baselines]
    return list(dict.fromkeys([*kept, *(f"vs {b}" for b in baselines)]))


def _stated(condition: str, text: str) -> bool:
    """Every word of the condition occurs in the text (`RTX 4090 24 GB` in `RTX 4090（24GB）`)."""
    flat = re.sub(r"\s+", "", text).lower()
    return all(word.lower() in flat for word in condition.split())


def _split_numbers(text: str, numbers: list[str]) -> tuple[list[str], list[str]]:
    """(headline numbers, context conditions): a context length (1M, 128K) is a condition."""
    headline, context = [], []
    for number in numbers:
        if _CONTEXT_SIZE.match(number.strip()):
            if _CONTEXT_WORDS.search(text):
                context.append(f"上下文 {number.strip()}")
        else:
            headline.append(number)
    return headline, context


def claim_points(text: str) -> ClaimPoints:
    """The claims with numbers of an item's text (`NoteItem.text`), with their conditions."""
    return _claims_with_numbers(without_urls(text))


def _claim_points(mention: Mention, claims: Mapping[str, ClaimPoints]) -> list[KeyPoint]:
    """Key points from `extract.extract_claims`: a claim with numbers and its conditions."""
    found = claims.get(mention.item.text)
    return [
        KeyPoint(
            text=text, numbers=list(numbers), conditions=list(conditions), source=mention.source
        )
        for text, numbers, conditions in (
            claim_points(mention.item.text) if found is None else found
        )
    ]


@lru_cache(maxsize=4096)
def _claims_with_numbers(text: str) -> ClaimPoints:
    """(text, numbers, conditions) of each claim of `text` that has numbers: the same item
    text is often in several notes, and extraction is most of a digest's time (#19)."""
    if not _DIGIT.search(text):
        return ()  # a claim is a statement of the text: no digit, no number (#19)
    points = []
    for claim in extract_claims(text, "", "community"):
        numbers = parse_numbers(claim.text)
        if not numbers:
            continue
        c = claim.conditions
        conditions = [*c.hardware, *c.model, *c.precision, *(f"vs {b}" for b in c.baseline)]
        conditions += [*c.software, *(f"{k}={v}" for k, v in c.load.items())]
        points.append((line_text(claim.text), tuple(numbers), tuple(dict.fromkeys(conditions))))
    return tuple(points)


def _line_points(mention: Mention) -> list[KeyPoint]:
    """Fallback when no claim was extracted: every line that carries a number with a unit."""
    points = []
    for raw in without_urls(mention.item.text).splitlines():
        text = line_text(raw)
        numbers = parse_numbers(text)
        if numbers:
            conditions = [m.group(0).strip() for m in _CONDITIONS.finditer(text)]
            points.append(
                KeyPoint(
                    text=text,
                    numbers=numbers,
                    source=mention.source,
                    conditions=list(dict.fromkeys(conditions)),
                )
            )
    return points


def extract_key_points(
    mentions: Iterable[Mention],
    names: Iterable[str] = (),
    *,
    taken: AbstractSet[str] | None = None,
    claims: Mapping[str, ClaimPoints] | None = None,
) -> list[KeyPoint]:
    """Key points with numbers and their conditions, one per distinct statement.

    Args:
        names: the names of the digest's items; none of them is a condition (a claim about
            DistServe is not conditioned on "Mooncake", nor Mooncake's on itself).
        taken: the same names in lower case, when made once for many calls (`taken_names`),
            instead of `names`: a digest's entries need not each read every name (#19).
        claims: `claim_points` of item texts, read beforehand for many entries at once
            (`digest.extraction`); a text not in it is read here.
    """
    if taken is None:
        taken = taken_names(names)
    points: dict[str, KeyPoint] = {}
    for mention in mentions:
        for point in _claim_points(mention, claims or {}) or _line_points(mention):
            numbers, context = _split_numbers(point.text, point.numbers)
            if not numbers:
                continue
            point.numbers = numbers
            conditions = _tidy_conditions(point.text, point.conditions, taken)
            point.conditions = [c for c in conditions if not c.startswith("context=")] + context
            point.conditions = list(dict.fromkeys(point.conditions))
            if len(point.text) > 240:
                point.text = _cut(point.text, 240)
            points.setdefault(normalise_title(point.text), point)
    return list(points.values())


def taken_names(names: Iterable[str]) -> frozenset[str]:
    """Item names as `extract_key_points` compares them (lower case)."""
    return frozenset(name.lower() for name in names if name)


def _cut(text: str, limit: int) -> str:
    """Shorten at a clause or word boundary, with an ellipsis (never mid-word)."""
    head = text[: limit - 1]
    boundary = max(head.rfind(mark) for mark in "，。；,; ")
    return (head[:boundary] if boundary > limit // 2 else head).rstrip(" ，。；,;") + "…"
