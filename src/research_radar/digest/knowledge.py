"""Where an entry belongs in the living document: matching sections and an anchor. Pure."""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass

from research_radar.digest.signals import SectionRef
from research_radar.sources.inbox import KnowledgeDoc

__all__ = ["SectionWords", "build_section_words", "find_anchor", "match_sections"]

_STOP = {"作者", "者报", "报告", "最高", "提升", "相对", "支持", "约为", "可以", "一个", "要点",
         "the", "and", "for", "with", "from", "that", "this", "are", "via", "its", "new",
         "arxiv", "http", "https", "com", "org", "abs", "pdf", "html", "github"}  # fmt: skip


def _tokens(text: str) -> set[str]:
    text = re.sub(r"https?://\S+", " ", text.lower())
    words = {w for w in re.findall(r"[a-z][a-z0-9\-]+", text) if w not in _STOP}
    for run in re.findall(r"[\u4e00-\u9fff]{2,}", text):
        words |= {run[i : i + 2] for i in range(len(run) - 1)} - _STOP
    return words


def _shown_words(ranked: list[str], text: str, section: str) -> list[str]:
    """Shared words as a reader sees them: Latin words, and the longest Chinese runs that
    both texts contain, built from the shared character pairs (no `机解`, no `上下、下文`)."""
    pairs = {w for w in ranked if _is_cjk(w)}
    runs: list[str] = []
    for run in re.findall(r"[\u4e00-\u9fff]{2,}", text):
        covered = [False] * len(run)
        for i in range(len(run) - 1):
            if run[i : i + 2] in pairs:
                covered[i] = covered[i + 1] = True
        start = None
        for i, flag in enumerate([*covered, False]):
            if flag and start is None:
                start = i
            elif not flag and start is not None:
                runs += _common_runs(run[start:i], section)
                start = None
    latin = [w for w in ranked if not _is_cjk(w)]
    longest = sorted(set(runs), key=lambda r: (-len(r), runs.index(r)))
    whole = [r for i, r in enumerate(longest) if not any(r in other for other in longest[:i])]
    return [*latin, *whole]


_CJK_WORD = re.compile(r"[\u4e00-\u9fff]+")


def _is_cjk(word: str) -> bool:
    return bool(_CJK_WORD.fullmatch(word))


def _common_runs(segment: str, section: str) -> list[str]:
    """The longest substrings (2+ characters) of `segment` that `section` contains."""
    if len(segment) < 2:
        return []
    if segment in section:
        return [segment]
    for size in range(len(segment) - 1, 1, -1):
        for start in range(len(segment) - size + 1):
            if segment[start : start + size] in section:
                rest = _common_runs(segment[:start], section)
                return [*rest, segment[start : start + size]] + _common_runs(
                    segment[start + size :], section
                )
    return []


@dataclass(frozen=True)
class SectionWords:
    """The words of a living document's sections, and in how many sections each occurs:
    read once per digest, not once per entry (#19)."""

    texts: list[str]
    words: list[set[str]]
    df: Counter[str]


def build_section_words(doc: KnowledgeDoc) -> SectionWords:
    texts = [section.heading + "\n" + section.text for section in doc.sections]
    words = [_tokens(text) for text in texts]
    return SectionWords(texts, words, Counter(word for vocabulary in words for word in vocabulary))


def match_sections(
    text: str, doc: KnowledgeDoc, sections: SectionWords | None = None
) -> list[SectionRef]:
    """The two sections sharing the most (idf-weighted) words with the entry.

    `sections`: the document's words (`build_section_words`), if read before."""
    sections = sections or build_section_words(doc)
    total = len(sections.words)
    df = sections.df
    words = _tokens(text)
    scored = []
    for place, vocabulary in enumerate(sections.words):
        shared = words & vocabulary
        if len(shared) >= 2:
            scored.append((sum(math.log(1 + total / df[w]) for w in shared), place, shared))
    scored.sort(key=lambda found: -found[0])
    refs = []
    for _, place, shared in scored[:2]:  # the words shown only for the sections kept (#19)
        ranked = sorted(shared, key=lambda w: (-math.log(1 + total / df[w]), w))
        shown = _shown_words(ranked, text, sections.texts[place])
        section = doc.sections[place]
        refs.append(SectionRef(id=section.id, heading=section.heading, shared=shown[:6]))
    return refs


def find_anchor(
    entry_ids: list[str], name: str, doc: KnowledgeDoc | None
) -> tuple[str, SectionRef | None]:
    """How the entry is anchored in the living document ('' when NET-new) and where."""
    if doc is None:
        return "", None
    for arxiv_id in entry_ids:
        for section in doc.sections:
            if arxiv_id in section.arxiv_ids:
                ref = SectionRef(
                    id=section.id, heading=section.heading, shared=[f"arXiv:{arxiv_id}"]
                )
                return f"arXiv:{arxiv_id}", ref
        if arxiv_id in doc.arxiv_ids:
            return f"arXiv:{arxiv_id}", None
    if len(name) >= 3:
        pattern = re.compile(rf"(?<![\w\-]){re.escape(name)}(?![\w])", re.IGNORECASE)
        for section in doc.sections:
            if pattern.search(section.heading + "\n" + section.text):
                return f"名称 {name}", SectionRef(
                    id=section.id, heading=section.heading, shared=[name]
                )
        if pattern.search(doc.text):
            return f"名称 {name}", None
    return "", None
