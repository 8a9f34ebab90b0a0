"""Mechanism families: which earlier reported projects a finding is alike (CONVENTIONS §8).

An index, not pairwise comparison: every finding becomes a set of bilingual tokens (jieba
words for Chinese, lower-case English words, both mapped onto shared concept tokens such
as 专家/expert → `expert`, plus the taxonomy tag values as `dimension=value` tokens). A
MinHash LSH Forest (datasketch) proposes a bounded number of candidates in time that grows
only with log(history); the candidates are ranked by an IDF-weighted cosine in which concept and tag
tokens weigh `CONCEPT_WEIGHT` times more (the mechanism is what makes a family; names and
incidental words say less). Concept tokens enter the MinHash set as that many copies, the
usual way to weight MinHash. Pure: no I/O, no clock.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from research_radar.models import Finding, PendingDifference
from research_radar.resolve.family_stream import (
    FORK_CHUNKS,
    Stream,
    related_in_chunks,
    signed_on_cores,
)
from research_radar.resolve.minhash import Forest, MinHasher, Signature
from research_radar.resolve.terms import Terms
from research_radar.resolve.tokens import build_tokens
from research_radar.resolve.tokens import copies as _copies

__all__ = ["FamilyIndex", "assign_family", "family_id"]


def family_id(project_key: str) -> str:
    """The id of a family founded by a project."""
    return f"fam:{project_key}"


@dataclass
class _Entry:
    name: str
    tokens: frozenset[str]
    family: str
    ids: Any
    """The tokens' ids (`Terms`), an integer array."""


_CHUNK = 128
"""Findings a `FamilyIndex.assign_stream` chunk holds: its forest queries are answered at
once, comparing the chunk's members pairwise (chunk² × trees values)."""


@dataclass
class FamilyIndex:
    """An incremental MinHash LSH Forest of findings, one entry per project (newest wins).

    A query asks the forest for the approximate top `candidates` by Jaccard (a prefix-tree
    search: cost grows with log(history), not with history) and re-ranks them by weighted
    cosine. The forest is re-sorted lazily at the first query after adds.

    The MinHash is datasketch's (`MinHash(num_perm, scheme="affine32")` over the weighted
    tokens) and the forest answers as datasketch's `MinHashLSHForest.query`, key for key
    (`minhash.MinHasher`, `minhash.Forest`; #19).

    Args:
        num_perm: MinHash permutations (a multiple of `trees`).
        trees: prefix trees in the forest.
        candidates: how many forest candidates a query re-ranks.
        min_score: weighted-cosine score below which a candidate is not related.
    """

    num_perm: int = 64
    trees: int = 8
    candidates: int = 100
    min_score: float = 0.15
    join_score: float = 0.25
    """Score from which a finding joins the family of its nearest related project."""
    _entries: dict[str, _Entry] = field(default_factory=dict, init=False, repr=False)
    _terms: Terms = field(init=False, repr=False)
    _total: int | None = field(default=None, init=False, repr=False)
    _hasher: MinHasher = field(init=False, repr=False)
    _forest: Forest = field(init=False, repr=False)
    _unforested: list[tuple[str, Signature]] = field(default_factory=list, init=False, repr=False)
    """Entries indexed (`assign_stream`) but not yet in `_forest`: added at its next query."""

    def __post_init__(self) -> None:
        if self.num_perm % self.trees:
            raise ValueError("num_perm must be a multiple of trees")
        self._terms = Terms()
        self._hasher = MinHasher(self.num_perm, _copies)
        self._forest = Forest(self.trees)

    def __len__(self) -> int:
        return len(self._entries)

    def signatures(self, findings: Sequence[Finding]) -> list[Signature]:
        """The tokens and MinHash of each finding, to keep beside it (`add_signed`): the
        same as `signature` one by one, computed in bulk."""
        return self._hasher.sign([frozenset(build_tokens(finding)) for finding in findings])

    def signature(self, finding: Finding) -> Signature:
        """The tokens and MinHash of a finding, to keep beside it (`add_signed`)."""
        return self.signatures([finding])[0]

    def bands(self, signature: Signature) -> list[bytes]:
        """The forest's key of a signature in each prefix tree (`Forest.bands`)."""
        return self._forest.bands(signature)

    def add(self, finding: Finding) -> None:
        """Index a finding under its project key (replacing that project's earlier entry)."""
        self.add_signed(finding.project_key, finding.name, finding.family, self.signature(finding))

    def add_signed(self, key: str, name: str, family: str | None, signature: Signature) -> None:
        """Index a project from a signature computed before (`signature`, kept in a store).

        The forest cannot delete, so a re-added project gets a new versioned forest key and
        its stale versions are ignored at query time.
        """
        self._enter(key, name, family, signature.tokens)
        self._catch_up()
        self._forest.add(key, signature)

    def _catch_up(self) -> None:
        """Add to the forest the entries `assign_stream` indexed without it."""
        for key, signature in self._unforested:
            self._forest.add(key, signature)
        self._unforested.clear()

    def _enter(
        self, key: str, name: str, family: str | None, tokens: frozenset[str], ids: Any = None
    ) -> None:
        """`add_signed` but for the forest: the entry, its family and its tokens' counts.

        `ids`: the tokens' (`Terms.of`), if numbered before."""
        ids = self._terms.of(tokens) if ids is None else ids
        old = self._entries.pop(key, None)
        if old is not None:
            self._terms.df[old.ids] -= 1
        family = family or (old.family if old else family_id(key))
        self._entries[key] = _Entry(name, tokens, family, ids)
        self._terms.df[ids] += 1

    def use_counts(self, df: Mapping[str, int], total: int) -> None:
        """Weigh tokens by the document frequencies of a larger index than this one (the
        store's, of which this index holds only the neighbourhood of today's queries)."""
        self._terms.use(df)
        self._total = total

    def family_of(self, project_key: str) -> str | None:
        entry = self._entries.get(project_key)
        return entry.family if entry else None

    def name_of(self, project_key: str) -> str | None:
        entry = self._entries.get(project_key)
        return entry.name if entry else None

    def _idf(self, token: str) -> float:
        total = len(self._entries) if self._total is None else self._total
        return math.log((total + 1) / (self._terms.count(token) + 1)) + 1.0

    def _weight(self, token: str) -> float:
        return self._idf(token) * _copies(token)

    def score(self, a: frozenset[str], b: frozenset[str]) -> float:
        """Weighted cosine similarity of two token sets (0..1)."""
        return _Scorer(self, a).score(b)

    def related(
        self, finding: Finding, k: int = 5, *, signature: Signature | None = None
    ) -> list[tuple[str, float]]:
        """Up to k indexed projects alike this finding: (project key, score), best first.

        `signature`: the finding's, if computed before (`signatures`)."""
        signature = signature or self.signature(finding)
        tokens = signature.tokens
        if not tokens:
            return []
        self._catch_up()
        found = self._forest.query(signature, self.candidates) if self._entries else set()
        versions, own = self._forest.versions, finding.project_key
        keys = [key for key, version in found if versions.get(key) == version and key != own]
        return self._ranked(tokens, keys, k)

    def _ranked(self, tokens: frozenset[str], keys: list[str], k: int) -> list[tuple[str, float]]:
        """The best k of some indexed projects by their score against `tokens` (`related`)."""

        return self._best(keys, self._scores(tokens, [self._entries[key].ids for key in keys]), k)

    def _best(self, keys: list[str], scores: Any, k: int) -> list[tuple[str, float]]:
        """The best k of `keys` by their `scores` (rounded), if they reach `min_score`."""
        import numpy as np

        # Only what rounds to min_score or more, and only what can rank in the best k
        # (rounding moves a score by 0.00005 at most), is rounded and sorted (#19).
        near = self.min_score - 1e-4
        if len(keys) > k:
            near = max(near, float(np.partition(scores, len(keys) - k)[len(keys) - k]) - 1e-4)
        picked = np.flatnonzero(scores >= near).tolist()
        rounded = [(keys[i], round(float(scores[i]), 4)) for i in picked]
        scored = [(key, value) for key, value in rounded if value >= self.min_score]
        scored.sort(key=lambda item: (-item[1], item[0]))
        return scored[:k]

    def assign_stream(
        self,
        findings: Sequence[Finding],
        ask: Sequence[bool],
        *,
        fork_min: int = FORK_CHUNKS,
        meanwhile: Callable[[], object] | None = None,
    ) -> list[Finding]:
        """Index findings in turn, each asked about (`ask`) given its family first: the
        asked-about findings with their families (`assign_family`), in order.

        The same as `assign_family` and `add_signed` finding by finding, in chunks: a
        chunk's MinHashes are computed at once, and so are its forest queries, by a
        `SortedForest`, and scored apart from the assignment, from `fork_min` chunks on
        half of them in a forked process (`family_stream.related_in_chunks`, #19). Only on
        an empty index that weighs tokens by its own counts (not `use_counts`): the sorted
        forest starts empty. `meanwhile` is called once, while the forked process scores.
        """
        import numpy as np

        if self._entries or self._total is not None:
            raise ValueError("assign_stream needs an empty index of its own counts")
        signatures = signed_on_cores(
            lambda start, stop: self.signatures(findings[start:stop]), len(findings)
        )
        ids = self._terms.of(token for signature in signatures for token in signature.tokens)
        lengths = np.fromiter(map(len, (s.tokens for s in signatures)), np.int64, len(findings))
        stream = Stream(ids, lengths, [finding.project_key for finding in findings])
        values = np.frombuffer(b"".join(s.hashvalues for s in signatures), "<u4")
        found = related_in_chunks(
            stream,
            values.reshape(len(findings), self.num_perm),
            np.array(ask, dtype=bool),
            self._terms.copies,
            trees=self.trees,
            candidates=self.candidates,
            chunk=_CHUNK,
            k=5,
            least=self.min_score,
            fork_min=fork_min,
            meanwhile=meanwhile,
        )
        result: list[Finding] = []
        for at, (finding, signature, asking) in enumerate(
            zip(findings, signatures, ask, strict=True)
        ):
            if asking:
                finding = _with_related(finding, self, found[at], signature.tokens)
                result.append(finding)
            own = finding.project_key
            self._enter(own, finding.name, finding.family, signature.tokens, stream.ids(at))
            self._unforested.append((own, signature))
        return result

    def _scores(self, query: frozenset[str], others: Sequence[Any]) -> Any:
        """Weighted cosine similarities (`score`) of one token set against others (token
        id arrays), as a float array: every token weighed at once."""
        import numpy as np

        lengths = np.fromiter(map(len, others), dtype=np.int64, count=len(others))
        flat = np.concatenate(others) if others else np.empty(0, np.int64)
        return self._weighed(self._terms.of(query), flat, lengths)

    def _weighed(self, own: Any, flat: Any, lengths: Any) -> Any:
        """`_scores` of token ids `own` against others' token ids, `flat` one after the
        other (`lengths` each)."""
        import numpy as np

        scores = np.zeros(len(lengths))
        filled = np.flatnonzero(lengths)  # reduceat cannot sum an empty run: those score 0
        if not len(filled):
            return scores
        terms = self._terms
        total = len(self._entries) if self._total is None else self._total
        weights = (np.log((total + 1) / (terms.df[flat] + 1)) + 1.0) * terms.copies[flat]
        own_weights = (np.log((total + 1) / (terms.df[own] + 1)) + 1.0) * terms.copies[own]
        shared = terms.marked(own, flat)
        starts = (np.cumsum(lengths) - lengths)[filled]
        norms = np.sqrt(own_weights.sum() * np.add.reduceat(weights, starts))
        dots = np.add.reduceat(weights * shared, starts)
        scores[filled] = np.divide(dots, norms, out=np.zeros(len(starts)), where=norms > 0)
        return scores

    def differs(
        self, finding: Finding, other: str, limit: int = 5, *, tokens: frozenset[str] | None = None
    ) -> list[str]:
        """The most distinctive tokens of a finding that an indexed project lacks.

        `tokens`: the finding's (`build_tokens`), if computed before."""
        entry = self._entries.get(other)
        own = build_tokens(finding) if tokens is None else tokens
        words = [
            token for token in own - (entry.tokens if entry else frozenset()) if "=" not in token
        ]
        words.sort(key=lambda token: (-self._idf(token), token))
        return words[:limit]


class _Scorer:
    """Weighted cosine scores of one token set against others, each token's weight
    computed once (a query scores up to `candidates` entries sharing most tokens)."""

    def __init__(self, index: FamilyIndex, query: frozenset[str]):
        self._index = index
        self._query = query
        self._weights = {token: index._weight(token) for token in query}
        self._norm = sum(map(self._weights.__getitem__, query))

    def score(self, other: frozenset[str]) -> float:
        weights = self._weights
        for token in other:
            if token not in weights:
                weights[token] = self._index._weight(token)
        norm = math.sqrt(self._norm * sum(map(weights.__getitem__, other)))
        return sum(map(weights.__getitem__, self._query & other)) / norm if norm else 0.0


def assign_family(
    finding: Finding, index: FamilyIndex, *, k: int = 5, signature: Signature | None = None
) -> Finding:
    """A copy of a finding that carries its family, its related earlier projects and a slot
    for what differs. The index is not changed: call `index.add` once the finding is kept.

    `signature`: the finding's, if computed before (`FamilyIndex.signatures`)."""
    related = index.related(finding, k=k, signature=signature)
    return _with_related(finding, index, related, signature.tokens if signature else None)


def _with_related(
    finding: Finding,
    index: FamilyIndex,
    related: list[tuple[str, float]],
    tokens: frozenset[str] | None,
) -> Finding:
    """`assign_family` of a finding whose related projects are known."""
    update: dict[str, object] = {"related": [key for key, _score in related]}
    nearest = related[0] if related and related[0][1] >= index.join_score else None
    update["family"] = (
        finding.family
        or index.family_of(finding.project_key)
        or (index.family_of(nearest[0]) if nearest else None)
        or family_id(finding.project_key)
    )
    if related and not (finding.differs or finding.differs_pending):
        update["differs_pending"] = PendingDifference(
            names=[index.name_of(key) or key for key, _ in related[:3]],
            family=True,
            words=index.differs(finding, related[0][0], tokens=tokens),
        )
    return finding.model_copy(update=update)
