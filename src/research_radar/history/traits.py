"""History import, traits: what an earlier report says of a finding, read from its entry.

`finding_traits` reads an entry's (or an entry-less report's title's) novelty, status
claims, maturity, recommendation, priority, horizon and pinned version, each by its
patterns; `plan._finding` builds the finding from them once its project is known. Pure and
per entry, so `reading.read_reports` reads them with the entry's facts, half of a large
file in a forked process (#19).
"""

from __future__ import annotations

import functools
import re
from typing import Any, NamedTuple

from research_radar.models import Novelty, Recommendation
from research_radar.report.parse import ParsedEntry, ParsedReport

__all__ = ["FindingTraits", "finding_traits"]


class FindingTraits(NamedTuple):
    """What a finding's own text says, before its project and history are known."""

    novelty: Novelty | None
    """The novelty the text names; None: it names none (the history decides)."""
    claims: list[str]
    """Status sentences (closed, reverted, corrected...)."""
    maturity: str
    unverified: bool
    recommendation: Recommendation
    priority: str
    horizon: str
    version: str | None
    """The pinned commit (a full SHA from the evidence or the text, else a short one)."""
    tag: str | None
    """A version tag (`v1.2.3`) the text names, beside a pinned commit."""
    mechanism: str
    url: str
    """The entry's first URL ("" if none)."""
    evidence_id: str


_Words = list[tuple[tuple[str, ...], Any]]
"""Rows of (words, value): `_pick` gives the value of the first row whose word a text has."""

_PRIORITY = re.compile(r"\bP[0-2]\b")
_HORIZON = re.compile(r"\b(Now|Next|Watch)\b")
_HORIZONS = ("Now", "Next", "Watch")
"""One of which `_HORIZON` needs: looked for first, as `_HORIZON` tries every place."""
_UNVERIFIED = re.compile(r"未独立(?:复现|运行)|未验证")
_VERSION_TAG = re.compile(r"(?<![\w.])v\d+(?:\.\d+)+\b")
_NOVELTY: _Words = [
    (("历史补发现", "历史新发现", "补发现", "historical"), Novelty.HISTORICAL),
    (("基础参考", "经典基线", "baseline reference"), Novelty.BASELINE),
    (("新发布", "new release"), Novelty.NEW_RELEASE),
    (("新进展", "实质增量", "实质更新", "new progress"), Novelty.NEW_PROGRESS),
]
"""Words (lower case) naming a novelty, in any case; the first row with one wins."""
_RECOMMENDATION: _Words = [
    (("反例", "重点风险"), Recommendation.COUNTEREXAMPLE),
    (("值得验证",), Recommendation.VALIDATE),
    (("暂缓", "暂不"), Recommendation.DEFER),
]
_MATURITY: _Words = [
    (("locally validated", "本地验证"), "locally-validated"),
    (("integrated", "已接入", "已合入"), "integrated"),
    (("code available", "代码可用", "代码与权重可见", "源码"), "code-available"),
    (("paper-reported", "论文可读", "论文"), "paper-reported"),
]
"""Words (lower case) naming a maturity, in any case; the first row with one wins."""
_FOLDS_TO_ASCII = re.compile("[\u0130\u0131\u212a\u017f]")
"""The letters a case-insensitive pattern matches to ASCII ones (İ ı K ſ), which `str.lower`
does not all lower to them: a text with one is searched by pattern."""
_SHA40 = re.compile(r"(?<![0-9a-f])[0-9a-f]{40}(?![0-9a-f])")
_SHORT_SHA = re.compile(r"(?<![0-9a-z])[0-9a-f]{7,12}(?![0-9a-z])")
_STATUS_WORDS = r"关闭(?:但)?未合并|撤回|回退|恢复默认|已修正|修正为|更正"
_STATUS_SENTENCE = re.compile(rf"[^。；;\n]*(?:{_STATUS_WORDS})[^。；;\n]*")
_STATUS_WORD = re.compile(_STATUS_WORDS)
"""Looked for first: on a sentence without one, `_STATUS_SENTENCE` tries every start in it
(time quadratic in its length, #19)."""


def _pick(table: _Words, text: str, default: Any, *, any_case: bool = False) -> Any:
    """The value of the first row of `table` one of whose words `text` contains (`any_case`:
    in any case, as a case-insensitive pattern of the words would match), else `default`.

    Words in the text, not patterns: a case-insensitive pattern tried at every place of a
    Chinese text took a third of an entry's traits (#19)."""
    if any_case:
        if _FOLDS_TO_ASCII.search(text):
            rows = ((_pattern(words), value) for words, value in table)
            return next((value for pattern, value in rows if pattern.search(text)), default)
        text = text.lower()
    return next((value for words, value in table if any(w in text for w in words)), default)


@functools.cache
def _pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("|".join(map(re.escape, words)), re.IGNORECASE)


def finding_traits(entry: ParsedEntry | None, report: ParsedReport) -> FindingTraits:
    """The traits of a table entry, or of a report without one (`entry` None: its title)."""
    cells = list(entry.cells.values()) if entry else [report.title]
    text = "\n".join(cells)
    section = entry.section if entry else ""
    claims = [
        m.group(0).strip()
        for m in (_STATUS_SENTENCE.finditer(text) if _STATUS_WORD.search(text) else ())
    ]
    priority = _PRIORITY.search(text) if "P" in text else None
    horizon = _HORIZON.search(text) if any(word in text for word in _HORIZONS) else None
    version, tag = _version(entry, report)
    return FindingTraits(
        novelty=_pick(_NOVELTY, text + section, None, any_case=True),
        claims=claims,
        maturity=_pick(_MATURITY, text, "idea", any_case=True),
        unverified=bool(_UNVERIFIED.search(text)),
        recommendation=_pick(_RECOMMENDATION, text + section, Recommendation.WATCH),
        priority=priority.group(0) if priority else "P2",
        horizon=horizon.group(0) if horizon else "Watch",
        version=version,
        tag=tag,
        mechanism="\n".join(cells[:2]) if entry else report.title,
        url=entry.urls[0] if entry and entry.urls else "",
        evidence_id=entry.evidence_ids[0] if entry and entry.evidence_ids else "",
    )


def _version(entry: ParsedEntry | None, report: ParsedReport) -> tuple[str | None, str | None]:
    """The pinned commit and version tag of an entry (None, None: no commit is named)."""
    evidence = "\n".join(
        report.evidence[i].text
        for i in (entry.evidence_ids if entry else [])
        if i in report.evidence
    )
    text = "\n".join(entry.cells.values()) if entry else report.text[:3000]
    found = _SHA40.search(evidence) or _SHA40.search(text) or _SHORT_SHA.search(text)
    if not found:
        return None, None
    tag = _VERSION_TAG.search(text)
    return found.group(0), tag.group(0) if tag else None
