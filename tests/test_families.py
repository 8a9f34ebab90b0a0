"""Mechanism families: bilingual tokens, the LSH index, family assignment, the labelled set."""

from __future__ import annotations

import itertools
import json
import os
from datetime import date
from pathlib import Path

import pytest

import research_radar.resolve.families as families
from research_radar.history.plan import build_import
from research_radar.models import Finding, Tag
from research_radar.report.parse import split_reports
from research_radar.resolve.families import FamilyIndex, assign_family, family_id
from research_radar.resolve.keys import NameIndex
from research_radar.resolve.minhash import Forest, MinHasher
from research_radar.resolve.tokens import build_tokens

SHARED = Path(os.environ.get("RADAR_SHARED", Path(__file__).resolve().parents[2] / "shared"))
SEEDS = SHARED / "seeds-examples" / "research-index-issue-2026-10-27_to_11-02.md"
LABELLED = Path(__file__).parent / "fixtures" / "families_labelled.jsonl"


def _finding(key: str, mechanism: str, day: int = 1, **extra: object) -> Finding:
    return Finding(
        project_key=key,
        name=key.split("/")[-1],
        date=date(2026, 10, day),
        mechanism=mechanism,
        **extra,
    )  # type: ignore[arg-type]


def test_public_api_is_listed() -> None:
    assert all(hasattr(families, name) for name in families.__all__)


def test_tokens_are_bilingual_and_carry_tags() -> None:
    tags = {"mechanism": [Tag(dimension="mechanism", value="cache")]}
    zh = build_tokens(_finding("gh:a/zh", "热专家常驻显存，SSD 换入未缓存专家", tags=tags))
    en = build_tokens(_finding("gh:a/en", "Hot experts stay in VRAM; cold experts offload to SSD"))
    assert {"expert", "ssd"} <= zh & en
    assert "mechanism=cache" in zh


def test_related_finds_the_family_not_the_neighbours() -> None:
    index = FamilyIndex()
    index.add(_finding("gh:x/strata", "MoE 热专家 VRAM，CPU 执行未缓存专家，SSD 分层 offload"))
    index.add(_finding("gh:x/tts", "语音流式 TTS：按可播放时长调度，先救即将断流的请求"))
    index.add(_finding("gh:x/vla", "VLA 动作块异步执行，闭环成功率与控制延迟"))
    candidate = _finding(
        "gh:x/maya", "专家分层 VRAM / RAM / NVMe，SSD expert offload 与预取", day=2
    )
    related = index.related(candidate)
    assert [key for key, _ in related] == ["gh:x/strata"]
    assigned = assign_family(candidate, index)
    assert assigned.family == family_id("gh:x/strata")
    assert assigned.related == ["gh:x/strata"]
    pending = assigned.differs_pending
    assert pending is not None and assigned.differs == ""
    assert pending.names[0] == "strata" and pending.family and pending.words
    alone = assign_family(_finding("gh:x/new", "完全无关的编译器前端语法高亮"), index)
    assert (alone.family, alone.related) == (family_id("gh:x/new"), [])
    assert (alone.differs, alone.differs_pending) == ("", None)


def test_adding_a_project_again_replaces_its_entry() -> None:
    index = FamilyIndex()
    index.add(_finding("gh:x/a", "语音流式 speech streaming"))
    index.add(_finding("gh:x/a", "VLA action chunking", day=2))
    assert len(index) == 1
    assert index.family_of("gh:x/a") == family_id("gh:x/a")
    assert index.related(_finding("gh:x/b", "speech streaming TTS 语音")) == []


def test_a_kept_family_is_not_overwritten() -> None:
    index = FamilyIndex()
    index.add(_finding("gh:x/a", "语音流式 speech streaming", family="fam:speech"))
    assigned = assign_family(
        _finding("gh:x/b", "speech streaming TTS 语音流式", family="fam:mine"), index
    )
    assert assigned.family == "fam:mine"


@pytest.mark.skipif(not SEEDS.exists(), reason="../shared/seeds-examples not present")
def test_family_grouping_on_the_labelled_seeds() -> None:
    plan = build_import(
        [("import:seeds", r) for r in split_reports(SEEDS.read_text(encoding="utf-8"))]
    )
    index = NameIndex()
    for alias, (key, _kind, _evidence) in plan.aliases.items():
        index.add(alias, key)
    for key in plan.projects:
        index.add_repo(key)
    family = {f.project_key: f.family for f in plan.findings}
    labels = [
        json.loads(line) for line in LABELLED.read_text(encoding="utf-8").splitlines() if line
    ]
    keyed = [(index.lookup(item["name"]), item["family"]) for item in labels]
    assert all(key is not None for key, _ in keyed)
    pairs = [
        (family[a] == family[b], fa == fb) for (a, fa), (b, fb) in itertools.combinations(keyed, 2)
    ]  # type: ignore[index]
    tp = sum(pred and true for pred, true in pairs)
    precision = tp / max(1, sum(pred for pred, _ in pairs))
    recall = tp / max(1, sum(true for _, true in pairs))
    assert precision >= 0.6 and recall >= 0.6, (precision, recall)


def test_the_stored_index_answers_as_the_whole_history_would(tmp_path: Path) -> None:
    """Signatures kept in the store, the neighbourhood read back: same families and scores
    as an index of every earlier finding built in memory (issue #19)."""
    from research_radar.history.families import load_family_index
    from research_radar.store.store import open_store

    words = ["kv", "cache", "offload", "expert", "ssd", "speculative", "draft", "kernel"]
    words += ["triton", "speech", "streaming", "diffusion", "video", "quantization", "agent"]
    earlier = [
        _finding(
            f"gh:o/p{n}",
            " ".join(words[(n * k) % len(words)] for k in range(1, 5)),
            day=1 + n % 20,
        )
        for n in range(60)
    ]
    store = open_store(str(tmp_path / "radar.db"))
    with store.transaction() as conn:
        store.save_findings(conn, earlier)
    queries = [_finding("gh:o/new", "expert offload to ssd tier", day=25)]
    queries.append(_finding("gh:o/p3", "kv cache kernel", day=25))
    stored = load_family_index(store, before=date(2026, 10, 25), queries=queries)
    whole = FamilyIndex()
    for finding in earlier:
        whole.add(finding)
    for query in queries:
        assert stored.related(query) == whole.related(query)
        assert assign_family(query, stored) == assign_family(query, whole)
    again = load_family_index(store, before=date(2026, 10, 25), queries=queries)
    assert again.related(queries[0]) == whole.related(queries[0])


def test_a_stored_history_larger_than_a_query_reads_answers_as_the_whole(tmp_path: Path) -> None:
    """With more earlier findings than a forest query reads (its `candidates`), only the
    entries near the queries are loaded, and the answers are still the whole index's."""
    import random

    from research_radar.history.families import load_family_index
    from research_radar.store.store import open_store

    rng = random.Random(5)
    words = ["kv", "cache", "offload", "expert", "ssd", "speculative", "draft", "kernel"]
    words += ["triton", "speech", "streaming", "diffusion", "video", "quantization", "agent"]
    earlier = [
        _finding(f"gh:o/p{n}", " ".join(rng.sample(words, 4)), day=1 + n % 20) for n in range(600)
    ]
    store = open_store(str(tmp_path / "radar.db"))
    with store.transaction() as conn:
        store.save_findings(conn, earlier)
    queries = [_finding(f"gh:o/new{n}", " ".join(rng.sample(words, 4)), day=25) for n in range(6)]
    stored = load_family_index(store, before=date(2026, 10, 25), queries=queries)
    whole = FamilyIndex()
    for finding in earlier:
        whole.add(finding)
    assert len(stored) < len(whole) == 600
    for query in queries:
        assert stored.related(query) == whole.related(query)
        assert assign_family(query, stored) == assign_family(query, whole)


def _random_findings(count: int, seed: int) -> list[Finding]:
    import random

    rng = random.Random(seed)
    words = ["kv", "cache", "offload", "expert", "ssd", "speculative", "draft", "kernel"]
    words += ["triton", "speech", "streaming", "专家卸载", "视频扩散", "量化算子", "agent"]
    findings = [
        _finding(f"gh:o/p{n % (count // 2)}", " ".join(rng.sample(words, rng.randint(1, 6))))
        for n in range(count)
    ]
    findings.append(_finding("gh:o/empty", "12 34"))  # no tokens at all
    return findings


def test_bulk_signatures_are_datasketchs_minhash() -> None:
    """Signatures computed in bulk (each token's permuted hashes once, a finding's the
    minimum) equal datasketch's MinHash of the weighted tokens, one finding at a time."""
    from datasketch import MinHash

    findings = _random_findings(80, seed=3)
    index = FamilyIndex()
    bulk = index.signatures(findings[:40]) + index.signatures(findings[40:])
    for finding, signature in zip(findings, bulk, strict=True):
        tokens = build_tokens(finding)
        minhash = MinHash(num_perm=index.num_perm, scheme="affine32")
        weighted = [
            f"{token}#{copy}".encode()
            for token in sorted(tokens)
            for copy in range(families._copies(token))
        ]
        minhash.update_batch(weighted or [b"\0"])
        assert signature.tokens == frozenset(tokens)
        assert signature.hashvalues == minhash.hashvalues.astype("<u4").tobytes()
        assert FamilyIndex().signature(finding) == signature


@pytest.mark.parametrize(
    "k", [pytest.param(1, id="k1"), pytest.param(7, id="k7"), pytest.param(60, id="k60")]
)
def test_the_forest_answers_as_datasketchs(k: int) -> None:
    """The index's forest query returns the same keys as datasketch's MinHashLSHForest
    over the same signatures, with re-added projects (stale versions) in it."""
    import numpy as np
    from datasketch import MinHash, MinHashLSHForest

    findings = _random_findings(120, seed=5)
    index = FamilyIndex()
    ours = Forest(index.trees)
    forest = MinHashLSHForest(num_perm=index.num_perm, l=index.trees)
    signatures = index.signatures(findings)
    for n, (finding, signature) in enumerate(zip(findings, signatures, strict=True)):
        values = np.frombuffer(signature.hashvalues, dtype="<u4").astype(np.uint32)
        minhash = MinHash(num_perm=index.num_perm, hashvalues=values, scheme="affine32")
        if n >= 20:  # queried against what came before, as an import does
            forest.index()
            assert ours.query(signature, k) == set(forest.query(minhash, k))
        version = ours.versions.get(finding.project_key, -1) + 1
        ours.add(finding.project_key, signature)
        forest.add((finding.project_key, version), minhash)


def test_permutations_are_datasketchs() -> None:
    from datasketch import MinHash

    a, b = MinHasher(64, families._copies).permutations()
    expected_a, expected_b = MinHash(num_perm=64, scheme="affine32").permutations
    assert a.dtype == expected_a.dtype and b.dtype == expected_b.dtype
    assert a.tolist() == expected_a.tolist() and b.tolist() == expected_b.tolist()
