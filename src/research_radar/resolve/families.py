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

import bisect
import math
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from research_radar.models import Finding, PendingDifference
from research_radar.resolve.keys import key_name
from research_radar.segment import load_jieba

__all__ = ["BAND_WIDTH", "FamilyIndex", "Signature", "assign_family", "build_tokens", "family_id"]


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
        words.extend(_cut(run))
        words.extend(concept for concept in _CONCEPTS if len(concept) > 2 and concept in run)
    return words


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


_SCHEME = "affine32"
"""datasketch's permutation scheme (its default): 32-bit hash values."""
BAND_WIDTH = 4
"""Bytes per hash value in a forest key (`FamilyIndex.bands`)."""


@dataclass(frozen=True)
class Signature:
    """What the index keeps of a finding: its tokens and its MinHash (as uint64 bytes)."""

    tokens: frozenset[str]
    hashvalues: bytes


@dataclass
class _Entry:
    name: str
    tokens: frozenset[str]
    family: str


@dataclass
class FamilyIndex:
    """An incremental MinHash LSH Forest of findings, one entry per project (newest wins).

    A query asks the forest for the approximate top `candidates` by Jaccard (a prefix-tree
    search: cost grows with log(history), not with history) and re-ranks them by weighted
    cosine. The forest is re-sorted lazily at the first query after adds.

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
    _forest: Any = field(init=False, repr=False)
    _entries: dict[str, _Entry] = field(default_factory=dict, init=False, repr=False)
    _versions: dict[str, int] = field(default_factory=dict, init=False, repr=False)
    _df: Counter[str] = field(default_factory=Counter, init=False, repr=False)
    _total: int | None = field(default=None, init=False, repr=False)
    _dirty: bool = field(default=False, init=False, repr=False)
    _pending: list[list[bytes]] = field(default_factory=list, init=False, repr=False)
    _perms: Any = field(default=None, init=False, repr=False)
    """Forest keys added since the last sort, per tree."""

    def __post_init__(self) -> None:
        # datasketch imports scipy: loaded with the first index, not with the package.
        from datasketch import MinHashLSHForest

        self._forest = MinHashLSHForest(num_perm=self.num_perm, l=self.trees)
        self._pending = [[] for _ in range(self.trees)]

    def __len__(self) -> int:
        return len(self._entries)

    def _minhash(self, tokens: frozenset[str]) -> Any:
        from datasketch import MinHash

        signature = MinHash(
            num_perm=self.num_perm, scheme=_SCHEME, permutations=self._permutations()
        )
        weighted = [
            f"{token}#{copy}".encode() for token in sorted(tokens) for copy in range(_copies(token))
        ]
        signature.update_batch(weighted or [b"\0"])
        return signature

    def signature(self, finding: Finding) -> Signature:
        """The tokens and MinHash of a finding, to keep beside it (`add_signed`)."""
        tokens = frozenset(build_tokens(finding))
        return Signature(tokens, self._minhash(tokens).hashvalues.astype("<u4").tobytes())

    def bands(self, signature: Signature) -> list[bytes]:
        """The forest's key of a signature in each prefix tree: its hash values big-endian,
        so the prefix of r hash values is the first r × 4 bytes (`BAND_WIDTH`)."""
        import numpy as np

        values = np.frombuffer(signature.hashvalues, dtype="<u4")
        size = self.num_perm // self.trees
        return [
            values[tree * size : (tree + 1) * size].astype(">u4").tobytes()
            for tree in range(self.trees)
        ]

    def add(self, finding: Finding) -> None:
        """Index a finding under its project key (replacing that project's earlier entry)."""
        self.add_signed(finding.project_key, finding.name, finding.family, self.signature(finding))

    def add_signed(self, key: str, name: str, family: str | None, signature: Signature) -> None:
        """Index a project from a signature computed before (`signature`, kept in a store).

        The forest cannot delete, so a re-added project gets a new versioned forest key and
        its stale versions are ignored at query time.
        """
        from datasketch import MinHash

        tokens = signature.tokens
        old = self._entries.pop(key, None)
        if old is not None:
            self._df.subtract(old.tokens)
        family = family or (old.family if old else family_id(key))
        self._entries[key] = _Entry(name, tokens, family)
        self._df.update(tokens)
        version = self._versions.get(key, -1) + 1
        self._versions[key] = version
        import numpy as np

        values = np.frombuffer(signature.hashvalues, dtype="<u4").astype(np.uint32)
        minhash = MinHash(
            num_perm=self.num_perm,
            hashvalues=values,
            scheme=_SCHEME,
            permutations=self._permutations(),
        )
        forest = self._forest
        for start_end, table, pending in zip(
            forest.hashranges, forest.hashtables, self._pending, strict=True
        ):
            band = forest._H(values[start_end[0] : start_end[1]])
            if band not in table:
                pending.append(band)
        forest.add((key, version), minhash)
        self._dirty = True

    def _permutations(self) -> Any:
        """datasketch's permutations (seeded, the same every time), made once per index."""
        if self._perms is None:
            from datasketch import MinHash

            self._perms = MinHash(num_perm=self.num_perm, scheme=_SCHEME).permutations
        return self._perms

    def _sort(self) -> None:
        """Bring the forest's sorted keys up to date before a query: a few new keys are
        inserted in place, many are sorted in with the rest. (datasketch re-sorts every
        key on `index()`: once per query in an add-query-add stream, quadratic; #19.)"""
        if not self._dirty:
            return
        forest = self._forest
        for tree, pending in enumerate(self._pending):
            ordered = forest.sorted_hashtables[tree]
            if len(pending) * 16 < len(ordered):
                for band in pending:
                    bisect.insort(ordered, band)
            else:
                forest.sorted_hashtables[tree] = sorted(forest.hashtables[tree])
            pending.clear()
        self._dirty = False

    def use_counts(self, df: Mapping[str, int], total: int) -> None:
        """Weigh tokens by the document frequencies of a larger index than this one (the
        store's, of which this index holds only the neighbourhood of today's queries)."""
        self._df = Counter(df)
        self._total = total

    def family_of(self, project_key: str) -> str | None:
        entry = self._entries.get(project_key)
        return entry.family if entry else None

    def name_of(self, project_key: str) -> str | None:
        entry = self._entries.get(project_key)
        return entry.name if entry else None

    def _idf(self, token: str) -> float:
        total = len(self._entries) if self._total is None else self._total
        return math.log((total + 1) / (self._df.get(token, 0) + 1)) + 1.0

    def _weight(self, token: str) -> float:
        return self._idf(token) * _copies(token)

    def score(self, a: frozenset[str], b: frozenset[str]) -> float:
        """Weighted cosine similarity of two token sets (0..1)."""
        return _Scorer(self, a).score(b)

    def related(self, finding: Finding, k: int = 5) -> list[tuple[str, float]]:
        """Up to k indexed projects alike this finding: (project key, score), best first."""
        tokens = frozenset(build_tokens(finding))
        if not tokens:
            return []
        self._sort()
        found = self._forest.query(self._minhash(tokens), self.candidates) if self._entries else []
        keys = {key for key, version in found if self._versions.get(key) == version}
        scorer = _Scorer(self, tokens)
        scored = [
            (key, round(scorer.score(self._entries[key].tokens), 4))
            for key in sorted(keys)
            if key != finding.project_key
        ]
        scored = [(key, value) for key, value in scored if value >= self.min_score]
        scored.sort(key=lambda item: (-item[1], item[0]))
        return scored[:k]

    def differs(self, finding: Finding, other: str, limit: int = 5) -> list[str]:
        """The most distinctive tokens of a finding that an indexed project lacks."""
        entry = self._entries.get(other)
        tokens = build_tokens(finding) - (entry.tokens if entry else frozenset())
        words = [token for token in tokens if "=" not in token]
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


def assign_family(finding: Finding, index: FamilyIndex, *, k: int = 5) -> Finding:
    """A copy of a finding that carries its family, its related earlier projects and a slot
    for what differs. The index is not changed: call `index.add` once the finding is kept."""
    related = index.related(finding, k=k)
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
            words=index.differs(finding, related[0][0]),
        )
    return finding.model_copy(update=update)
