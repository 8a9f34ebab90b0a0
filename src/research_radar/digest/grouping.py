"""Which inbox mentions are one entry: the same primary arXiv id, URL or leading name, or a
near-identical title; mentions with different arXiv ids are never joined."""

from __future__ import annotations

import bisect
from collections.abc import Callable

import numpy
from rapidfuzz import fuzz, process

from research_radar.digest.entries import primary_url
from research_radar.digest.signals import Mention, normalise_title

__all__ = ["group_mentions", "similar_titles"]


def group_mentions(mentions: list[Mention]) -> list[list[Mention]]:
    """Union-find over mentions; groups with different arXiv ids are never joined."""
    parent = list(range(len(mentions)))
    ids = [set(m.item.arxiv_ids[:1]) for m in mentions]

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def union(i: int, j: int) -> None:
        a, b = find(i), find(j)
        if a != b and (not ids[a] or not ids[b] or ids[a] & ids[b]):
            parent[b] = a
            ids[a] |= ids[b]

    keyers: list[Callable[[Mention], str]] = [
        lambda m: m.item.arxiv_ids[0] if m.item.arxiv_ids else "",
        lambda m: primary_url(m.item),
        lambda m: m.item.name.lower() if len(m.item.name) >= 3 else "",
    ]
    for keyer in keyers:
        first: dict[str, int] = {}
        for index, mention in enumerate(mentions):
            key = keyer(mention)
            if key:
                union(first.setdefault(key, index), index)
    titles = [normalise_title(m.item.title) for m in mentions]
    long = [i for i, title in enumerate(titles) if len(title) >= 8]
    for a, b in similar_titles([titles[i] for i in long]):
        union(long[a], long[b])
    groups: dict[int, list[Mention]] = {}
    for index, mention in enumerate(mentions):
        groups.setdefault(find(index), []).append(mention)
    return list(groups.values())


def similar_titles(titles: list[str], block: int = 256) -> list[tuple[int, int]]:
    """Pairs (i, j), i < j, in that order, of near-identical titles: token_sort_ratio >= 90,
    which is fuzz.ratio >= 90 of the titles with their words sorted.

    rapidfuzz scores blocks of rows in C (pairwise in Python took minutes for 10,000 notes,
    issue #19). Titles are read in order of length and each is scored only against those
    at least as long and at most 11/9 + 1 times as long: fuzz.ratio is symmetric, and two
    strings whose lengths differ by more than a tenth of their sum are at least that many
    insertions and deletions apart (ratio < 90), so no pair that passes is skipped.
    """
    ordered = [" ".join(sorted(title.split())) for title in titles]
    by_length = sorted(range(len(ordered)), key=lambda i: len(ordered[i]))
    lengths = [len(ordered[i]) for i in by_length]
    pairs: set[tuple[int, int]] = set()
    for start in range(0, len(by_length), block):
        rows = by_length[start : start + block]
        stop = bisect.bisect_right(lengths, lengths[start + len(rows) - 1] * 11 / 9 + 1)
        columns = by_length[start:stop]
        scores = process.cdist(
            [ordered[i] for i in rows],
            [ordered[j] for j in columns],
            scorer=fuzz.ratio,
            score_cutoff=90,
            dtype=numpy.float64,
            workers=-1,
        )
        for row, column in zip(*numpy.nonzero(scores), strict=True):
            i, j = rows[row], columns[column]
            if i != j:
                pairs.add((min(i, j), max(i, j)))
    return sorted(pairs)  # joined in the order the all-pairs scan met them
