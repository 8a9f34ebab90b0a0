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

import functools
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from research_radar.models import Finding, PendingDifference
from research_radar.resolve.keys import key_name
from research_radar.resolve.minhash import Forest, MinHasher, Signature
from research_radar.segment import load_jieba

__all__ = ["FamilyIndex", "assign_family", "build_tokens", "family_id"]


def _cut(text: str) -> list[str]:
    """jieba's words of a Chinese run; jieba (and its dictionary) load at the first use."""
    return list(load_jieba().lcut(text, HMM=False))


_CONCEPTS: dict[str, str] = {
    # bilingual concept tokens: a Chinese or English word → one shared token
    "专家": "expert", "experts": "expert", "moe": "expert", "offload": "offload", "卸载": "offload",
    "分层": "tier", "tier": "tier", "tiers": "tier", "ssd": "ssd", "nvme": "ssd", "换入": "offload",
    "语音": "speech", "asr": "speech", "tts": "speech", "speech": "speech", "音频": "speech",
    "流式": "streaming", "streaming": "streaming", "stream": "streaming", "断流": "streaming",
    "vla": "action", "动作": "action", "action": "action", "actions": "action", "具身": "action",
    "闭环": "closed-loop", "closed-loop": "closed-loop", "机器人": "action", "policy": "action",
    "算子": "kernel", "kernel": "kernel", "kernels": "kernel", "triton": "kernel", "cuda": "kernel",
    "agent": "agent", "agents": "agent", "智能体": "agent", "候选": "candidate", "candidate": "candidate",
    "搜索": "search", "search": "search", "优化循环": "search", "评测": "benchmark", "benchmark": "benchmark",
    "基准": "benchmark", "bench": "benchmark", "verifier": "verify", "验证": "verify", "正确性": "verify",
    "缓存": "cache", "cache": "cache", "caching": "cache", "kv": "kv-cache",
    "投机": "speculation", "speculative": "speculation", "draft": "speculation", "草稿": "speculation",
    "mtp": "speculation", "dspark": "speculation", "dflash": "speculation",
    "状态": "state", "state": "state", "回滚": "rollback", "rollback": "rollback", "重放": "replay",
    "gdn": "recurrent", "deltanet": "recurrent", "recurrent": "recurrent", "递归": "recurrent", "ssm": "recurrent",
    "mamba": "recurrent", "扩散": "diffusion", "diffusion": "diffusion", "dit": "diffusion", "去噪": "diffusion",
    "视频": "video", "video": "video", "图像": "image", "image": "image",
    "深度": "depth", "depth": "depth", "loop": "loop", "循环": "loop",
    "调度": "schedule", "schedule": "schedule", "scheduling": "schedule", "serving": "serving",
    "服务": "serving", "slo": "serving", "量化": "quant", "quantization": "quant", "int8": "quant",
    "预取": "prefetch", "prefetch": "prefetch", "融合": "fusion", "fusion": "fusion",
}  # fmt: skip
_STOP = {
    "the", "and", "for", "with", "not", "are", "but", "from", "this", "that", "into", "per", "via",
    "model", "models", "specific", "model-specific", "inference", "performance", "llm", "new",
    "不是", "非新", "算法", "新算法", "系统", "组合", "系统组合", "作者", "报告", "作者报告", "实现", "性能",
    "推理", "模型", "以及", "可以", "已有", "属于", "现有", "没有", "需要", "不能", "一个", "明确", "相对",
    "先验", "prior", "art", "定制", "特化", "引擎", "engine", "runtime", "运行时", "支持", "新增", "机制",
}  # fmt: skip
CONCEPT_WEIGHT = 8
"""How much more a workload-defining concept or a tag token weighs than a plain word."""
GENERIC_WEIGHT = 2
"""Weight of mechanism concepts that cut across families (cache, speculation, kernel...)."""
_GENERIC = frozenset(
    ["cache", "kv-cache", "speculation", "verify", "serving", "schedule", "quant", "fusion",
     "prefetch", "kernel", "state", "image", "video"]
)  # fmt: skip
_CONCEPT_TOKENS = frozenset(_CONCEPTS.values())
_CJK = re.compile(r"[\u4e00-\u9fff]+")
_LATIN = re.compile(r"[a-z][a-z0-9+\-]*[a-z0-9+]|[a-z]")


def _words(text: str) -> list[str]:
    lowered = text.lower()
    words = [w.strip("-") for w in _LATIN.findall(lowered)]
    for run in _CJK.findall(lowered):
        words.extend(_run_words(run))
    return words


@functools.lru_cache(maxsize=65536)
def _run_words(run: str) -> tuple[str, ...]:
    """The words of a Chinese run: jieba's, plus the longer concepts it contains. Cached:
    the same runs (a report's stock phrases) recur in most findings (#19)."""
    return (*_cut(run), *(concept for concept in _CONCEPTS if len(concept) > 2 and concept in run))


def _copies(token: str) -> int:
    """How many times a token counts (its weight; MinHash sees that many copies)."""
    if token in _GENERIC:
        return GENERIC_WEIGHT
    return CONCEPT_WEIGHT if token in _CONCEPT_TOKENS or "=" in token else 1


def build_tokens(finding: Finding) -> set[str]:
    """The bilingual token set of a finding: its name, mechanism, prior art (or the project it
    derives from) and tag values."""
    derived = finding.derived_from
    lineage = [key_name(derived.parent), *derived.evidence] if derived else []
    text = " ".join([finding.name, finding.mechanism, finding.prior_art, *lineage, finding.why])
    tokens: set[str] = set()
    for word in _words(text):
        if word in _CONCEPTS:
            tokens.add(_CONCEPTS[word])
        elif len(word) >= 2 and word not in _STOP and not word.isdigit():
            tokens.add(word)
    for dimension, tags in finding.tags.items():
        tokens.update(f"{dimension}={tag.value}" for tag in tags)
    return tokens


def family_id(project_key: str) -> str:
    """The id of a family founded by a project."""
    return f"fam:{project_key}"


@dataclass
class _Entry:
    name: str
    tokens: frozenset[str]
    family: str
    ids: Any
    """The tokens' ids (`_Terms`), an integer array."""


class _Terms:
    """Every token an index has seen, numbered, with its document frequency and its copies
    (`_copies`) as arrays, so a query weighs its candidates' tokens at once (#19)."""

    def __init__(self) -> None:
        import numpy as np

        self.ids: dict[str, int] = {}
        self.df = np.zeros(1024, dtype=np.int64)
        self.copies = np.zeros(1024, dtype=np.float64)
        self.mark = np.zeros(1024, dtype=bool)

    def of(self, tokens: Iterable[str]) -> Any:
        """The ids of some tokens (numbering the new ones), an integer array."""
        import numpy as np

        ids = self.ids
        listed = list(tokens)
        new = [token for token in listed if token not in ids]
        if new:
            first = len(ids)
            if first + len(new) > len(self.df):  # grow by doubling: amortised O(1) a token
                size = 2 * (first + len(new))
                self.df = np.concatenate([self.df, np.zeros(size - len(self.df), np.int64)])
                self.copies = np.concatenate(
                    [self.copies, np.zeros(size - len(self.copies), np.float64)]
                )
            ids.update((token, first + i) for i, token in enumerate(new))
            self.copies[first : first + len(new)] = [_copies(token) for token in new]
        return np.fromiter((ids[token] for token in listed), dtype=np.int64, count=len(listed))

    def marked(self, ids: Any, among: Any) -> Any:
        """Whether each id of `among` is one of `ids`, a boolean array."""
        import numpy as np

        if len(self.mark) < len(self.df):
            self.mark = np.zeros(len(self.df), dtype=bool)
        self.mark[ids] = True
        found = self.mark[among]
        self.mark[ids] = False
        return found

    def count(self, token: str) -> int:
        at = self.ids.get(token)
        return 0 if at is None else int(self.df[at])

    def use(self, df: Mapping[str, int]) -> None:
        """Replace every document frequency by those of `df` (0 for the tokens it lacks)."""
        ids = self.of(df)
        self.df[:] = 0
        self.df[ids] = list(df.values())


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
    _terms: _Terms = field(init=False, repr=False)
    _total: int | None = field(default=None, init=False, repr=False)
    _hasher: MinHasher = field(init=False, repr=False)
    _forest: Forest = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if self.num_perm % self.trees:
            raise ValueError("num_perm must be a multiple of trees")
        self._terms = _Terms()
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
        tokens = signature.tokens
        ids = self._terms.of(tokens)
        old = self._entries.pop(key, None)
        if old is not None:
            self._terms.df[old.ids] -= 1
        family = family or (old.family if old else family_id(key))
        self._entries[key] = _Entry(name, tokens, family, ids)
        self._terms.df[ids] += 1
        self._forest.add(key, signature)

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
        import numpy as np

        found = self._forest.query(signature, self.candidates) if self._entries else set()
        versions, own = self._forest.versions, finding.project_key
        keys = [key for key, version in found if versions.get(key) == version and key != own]
        scores = self._scores(tokens, [self._entries[key].ids for key in keys])
        # Only what rounds to min_score or more, and only what can rank in the best k
        # (rounding moves a score by 0.00005 at most), is rounded and sorted (#19).
        near = self.min_score - 1e-4
        if len(keys) > k:
            near = max(near, float(np.partition(scores, len(keys) - k)[len(keys) - k]) - 1e-4)
        rounded = [(keys[i], round(float(scores[i]), 4)) for i in np.flatnonzero(scores >= near)]
        scored = [(key, value) for key, value in rounded if value >= self.min_score]
        scored.sort(key=lambda item: (-item[1], item[0]))
        return scored[:k]

    def _scores(self, query: frozenset[str], others: Sequence[Any]) -> Any:
        """Weighted cosine similarities (`score`) of one token set against others (token
        id arrays), as a float array: every token weighed at once."""
        import numpy as np

        scores = np.zeros(len(others))
        lengths = np.fromiter(map(len, others), dtype=np.int64, count=len(others))
        filled = np.flatnonzero(lengths)  # reduceat cannot sum an empty run: those score 0
        if not len(filled):
            return scores
        terms = self._terms
        total = len(self._entries) if self._total is None else self._total
        own = terms.of(query)
        flat = np.concatenate(others)
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
            words=index.differs(
                finding, related[0][0], tokens=signature.tokens if signature else None
            ),
        )
    return finding.model_copy(update=update)
