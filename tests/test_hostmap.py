"""Host mapping: index a real git host, rank touch points, label relations, format refs."""

from __future__ import annotations

import json
import re
import subprocess
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from research_radar.cli import app
from research_radar.errors import ConfigError
from research_radar.hostmap import index as hostmap
from research_radar.hostmap.checkout import HostDocument, check_host_sha
from research_radar.hostmap.index import (
    HostIndex,
    HostItem,
    build_host_index,
    format_ref,
    load_host_index,
    map_finding,
    map_findings,
    parse_host_items,
    qualify_bare_refs,
    reload_host_index,
)
from research_radar.hostmap.text import tokenize
from research_radar.models import Finding, Recommendation, Tag
from research_radar.sample.host import SAMPLE_HOST_REPO, build_sample_host, load_sample_items

SKILL = "skills/kernel-search-loop/SKILL.md"


def _git(root: Path, *args: str) -> str:
    env = {"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "PATH": "/usr/bin:/bin"}
    ident = ["-c", "user.name=t", "-c", "user.email=t@example.org", "-c", "commit.gpgsign=false"]
    done = subprocess.run(
        ["git", "-C", str(root), *ident, *args], capture_output=True, text=True, env=env, check=True
    )
    return done.stdout.strip()


def _finding(name: str, mechanism: str = "", **extra: object) -> Finding:
    return Finding(
        project_key=f"gh:x/{name.lower()}",
        name=name,
        date=date(2026, 10, 30),
        mechanism=mechanism,
        **extra,
    )


@pytest.fixture(scope="module")
def sample_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_sample_host(tmp_path_factory.mktemp("host") / "inferhost")


@pytest.fixture(scope="module")
def index(sample_root: Path) -> HostIndex:
    pulls, issues = load_sample_items()
    return load_host_index(
        sample_root, repo=SAMPLE_HOST_REPO, items=parse_host_items(pulls, issues)
    )


def _refs(index: HostIndex, finding: Finding, k: int = 3) -> tuple[list[str], str]:
    points, relation = map_finding(index, finding, k=k)
    return [p.ref for p in points], relation


# --- the sample host and the index -----------------------------------------------------


def test_public_names_exist() -> None:
    assert all(hasattr(hostmap, name) for name in hostmap.__all__)


def test_sample_host_sha_is_deterministic(tmp_path: Path, index: HostIndex) -> None:
    again = build_sample_host(tmp_path / "again")
    assert _git(again, "rev-parse", "HEAD") == index.head_sha
    assert re.fullmatch(r"[0-9a-f]{40}", index.head_sha)
    assert (
        _git(again, "log", "-1", "--format=%an|%cI")
        == "inferhost maintainers|2026-08-28T17:00:00+08:00"
    )


def test_sample_host_refuses_a_non_empty_destination(tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("x", encoding="utf-8")
    with pytest.raises(ConfigError, match="not empty"):
        build_sample_host(tmp_path)


def test_index_reads_kinds_titles_and_branch(index: HostIndex) -> None:
    kinds = {doc.path: doc.kind for doc in index.documents}
    assert kinds[SKILL] == "skill"
    assert kinds["docs/kv-cache-offload.md"] == "doc"
    assert kinds["src/inferhost/runner.py"] == "module"
    assert kinds["tests/test_budget.py"] == "test"
    titles = {doc.path: doc.title for doc in index.documents}
    assert titles[SKILL] == "kernel-search-loop"
    assert titles["docs/speculative-decoding.md"].startswith("Speculative decoding")
    assert index.default_branch == "main"
    assert index.name == "inferhost" and index.repo == SAMPLE_HOST_REPO
    assert index.counts()["pr"] == 4 and index.counts()["issue"] == 4


def test_pr_states_and_issue_listing_skips_prs() -> None:
    pulls, issues = load_sample_items()
    items = {(i.kind, i.number): i for i in parse_host_items(pulls, issues)}
    assert items["pr", 112].state == "draft" and items["pr", 112].is_open
    assert items["pr", 108].state == "merged"
    assert items["pr", 115].state == "closed"
    assert items["pr", 104].state == "open"
    assert ("issue", 112) not in items
    assert items["issue", 117].url.endswith("/issues/117")


def test_open_items_are_newest_first(index: HostIndex) -> None:
    assert [i.number for i in index.open_items()] == [126, 117, 112, 104, 101]


# --- tokenising and ranking ----------------------------------------------------------


def test_tokenize_bridges_chinese_to_english() -> None:
    zh = set(tokenize("投机解码的草稿与 KV 缓存"))
    assert {"投机", "解码", "草稿", "缓存", "kv"} <= zh
    assert set(tokenize("speculative decoding draft cache")) <= zh


def test_tokenize_stems_and_drops_stopwords() -> None:
    assert tokenize("The caches and cached drafts") == tokenize("cache cache draft")


@given(st.text(max_size=200))
def test_tokenize_never_fails_on_any_text(text: str) -> None:
    assert all(token and token == token.lower() for token in tokenize(text))


def test_english_query_ranks_the_offload_doc_first(index: HostIndex) -> None:
    finding = _finding(
        "SSDExperts", "overlap SSD reads of missing MoE experts with resident compute"
    )
    refs, relation = _refs(index, finding)
    assert refs[0] == "docs/kv-cache-offload.md"
    assert relation == "existing-capability"


def test_chinese_query_ranks_speech_doc_and_open_issue(index: HostIndex) -> None:
    finding = _finding("流式ASR", "流式语音识别：首个部分结果的延迟，以及并发下的 WER")
    points, relation = map_finding(index, finding)
    assert points[0].ref == "docs/speech-streaming-eval.md"
    assert "#101" in [p.ref for p in points]
    assert "流式" in points[0].reason and "speech" in points[0].reason
    assert relation == "open-issue-pr"


def test_tag_terms_join_the_query(index: HostIndex) -> None:
    tags = {
        "mechanism": [Tag(dimension="mechanism", value="kernel-compiler-fusion", terms=["Triton"])]
    }
    refs, _ = _refs(index, _finding("Forge", "agent loop with correctness checks", tags=tags))
    assert refs[0] == SKILL


@pytest.mark.parametrize(
    ("name", "mechanism", "relation", "ref"),
    [
        pytest.param("FlashVLA", "VLA action latency per control step on embodied robots",
                     "open-issue-pr", "#117", id="open-issue"),
        pytest.param("KernelAgent", "agent loop: compile and time kernels, check correctness",
                     "existing-capability", SKILL, id="skill"),
        pytest.param("StepCache", "reuse features across denoising steps of video diffusion",
                     "extensible-gap", None, id="gap"),
        pytest.param("Weather", "a weather forecasting dataset", "not-recommended", None,
                     id="none"),
    ],
)  # fmt: skip
def test_relation_labels(
    index: HostIndex, name: str, mechanism: str, relation: str, ref: str | None
) -> None:
    points, got = map_finding(index, _finding(name, mechanism))
    assert got == relation
    if ref is not None:
        assert points[0].ref == ref
    if relation == "extensible-gap":
        assert any(p.kind in {"doc", "skill", "module", "test", "path"} for p in points)
    if relation == "not-recommended":
        assert points == []


def test_deferred_finding_is_not_recommended_but_keeps_touch_points(index: HostIndex) -> None:
    finding = _finding(
        "KernelAgent", "agent loop compiling kernels", recommendation=Recommendation.DEFER
    )
    points, relation = map_finding(index, finding)
    assert relation == "not-recommended"
    assert points[0].ref == SKILL


def test_touch_points_carry_state_score_and_reason(index: HostIndex) -> None:
    points, _ = map_finding(
        index, _finding("KVTier", "offload cold KV cache blocks to host memory"), k=5
    )
    pr = next(p for p in points if p.ref == "#104")
    assert pr.kind == "pr" and pr.state == "open"
    assert pr.reason.startswith("matched: ") and "offload" in pr.reason
    assert [p.score for p in points] == sorted((p.score for p in points), reverse=True)


def test_map_findings_fills_copies(index: HostIndex) -> None:
    original = _finding("KernelAgent", "kernel search loop with a correctness gate")
    (mapped,) = map_findings(index, [original])
    assert mapped.relation == "open-issue-pr"  # draft PR #112 is in flight
    assert "#112" in [p.ref for p in mapped.touch_points]
    assert original.touch_points == []


def test_many_findings_reuse_one_index(index: HostIndex) -> None:
    retriever = index._bm25
    for number in range(200):
        map_finding(index, _finding(f"F{number}", "speculative decoding draft acceptance rate"))
    assert index._bm25 is retriever


# --- the pure builder ------------------------------------------------------------------


def test_empty_host_maps_nothing() -> None:
    empty = build_host_index("empty", [])
    assert map_finding(empty, _finding("X", "kv cache offload")) == ([], "not-recommended")


def test_gap_always_names_the_nearest_path() -> None:
    items = [
        HostItem(number=n, kind="pr", title=f"cache tweak {n}", state="closed") for n in (1, 2, 3)
    ]
    docs = [HostDocument("docs/memory.md", "doc", "Memory", "cache sizing for the allocator")]
    small = build_host_index("small", docs, items)
    points, relation = map_finding(
        small, _finding("Y", "cache eviction with a learned predictor"), k=3
    )
    assert relation == "extensible-gap"
    assert "docs/memory.md" in [p.ref for p in points] and len(points) == 3


# --- references ------------------------------------------------------------------------

_NAME = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9-]{0,8}/[A-Za-z0-9._-]{1,10}", fullmatch=True)


def test_format_ref_examples() -> None:
    assert format_ref("example-org/inferhost", 7, "example-org/inferhost") == "#7"
    assert format_ref("Example-Org/InferHost", 7, "example-org/inferhost") == "#7"
    assert format_ref("L-Forster/open-jet", 28, "example-org/inferhost") == "L-Forster/open-jet#28"
    with pytest.raises(ValueError, match="owner/name"):
        format_ref("not a repo", 1, "example-org/inferhost")


@given(_NAME, _NAME, st.integers(min_value=1, max_value=10**6))
def test_format_ref_is_bare_only_for_the_host(repo: str, host: str, number: int) -> None:
    ref = format_ref(repo, number, host)
    if repo.lower() == host.lower():
        assert ref == f"#{number}"
    else:
        assert ref == f"{repo}#{number}"


def test_qualify_bare_refs_examples() -> None:
    text = "Fixed in #125 (see #24); owner/x#3, [log](https://h.example/a#12), &#123;, #7a."
    assert qualify_bare_refs(text, "Atrex/kernel-agent", "example-org/inferhost") == (
        "Fixed in Atrex/kernel-agent#125 (see Atrex/kernel-agent#24); owner/x#3, "
        "[log](https://h.example/a#12), &#123;, #7a."
    )
    assert qualify_bare_refs("see #5", "example-org/inferhost", "example-org/inferhost") == "see #5"


_BARE = re.compile(r"(?<![\w/#&.\-])#\d+(?![\w-])")


@given(st.text(alphabet=st.sampled_from(list("#0123456789 ab/&.-()\n中")), max_size=60), _NAME)
def test_qualify_bare_refs_properties(text: str, host: str) -> None:
    other = "Other-Org/proj"
    once = qualify_bare_refs(text, other, host)
    assert qualify_bare_refs(once, other, host) == once
    if other.lower() != host.lower():
        assert not _BARE.search(once)
        assert once.replace(f"{other}#", "#") == text
    assert qualify_bare_refs(text, host, host) == text


# --- the host SHA re-check and I/O errors ----------------------------------------------


def test_check_host_sha_sees_a_new_commit(tmp_path: Path) -> None:
    root = build_sample_host(tmp_path / "host")
    head = _git(root, "rev-parse", "HEAD")
    assert check_host_sha(root, head) == (True, head)
    assert check_host_sha(root, head[:8]) == (True, head)
    (root / "docs" / "new.md").write_text("# New\n", encoding="utf-8")
    _git(root, "add", "docs/new.md")
    _git(root, "commit", "-q", "-m", "more")
    moved, current = check_host_sha(root, head)
    assert not moved
    assert current == _git(root, "rev-parse", "HEAD") != head


def test_load_host_index_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load_host_index(tmp_path / "missing")
    with pytest.raises(ConfigError, match="not a git repository"):
        load_host_index(tmp_path)
    with pytest.raises(ConfigError, match="not a git repository"):
        check_host_sha(tmp_path, "abc")


def test_untracked_and_binary_files_are_skipped(tmp_path: Path) -> None:
    root = build_sample_host(tmp_path / "host")
    (root / "notes.md").write_text("# untracked\n", encoding="utf-8")
    (root / "blob.md").write_bytes(b"\xff\xfe\x00bad")
    _git(root, "add", "blob.md")
    paths = {doc.path for doc in load_host_index(root).documents}
    assert "notes.md" not in paths and "blob.md" not in paths
    assert "README.md" in paths


# --- CLI -------------------------------------------------------------------------------

runner = CliRunner()


def test_cli_host_index_sample_json() -> None:
    result = runner.invoke(app, ["host", "index", "--sample", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["repo"] == SAMPLE_HOST_REPO and len(data["head_sha"]) == 40
    assert data["counts"]["skill"] == 4
    assert {"number": 112, "kind": "pr", "state": "draft"}.items() <= data["open"][2].items()


def test_cli_host_index_text(sample_root: Path) -> None:
    result = runner.invoke(
        app, ["host", "index", "--host", str(sample_root), "--repo", SAMPLE_HOST_REPO]
    )
    assert result.exit_code == 0, result.output
    assert "default branch main @ " in result.stdout
    assert "open PRs/issues: 0" in result.stdout


def test_cli_host_map_sample(tmp_path: Path) -> None:
    args = [
        "host",
        "map",
        "--sample",
        "--title",
        "KernelAgent",
        "--text",
        "编译并计时 kernel 的 agent 搜索循环",
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "relation: existing-capability" in result.stdout
    assert f"1. skill {SKILL}" in result.stdout
    as_json = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    assert as_json["relation"] == "existing-capability"
    assert as_json["touch_points"][0]["ref"] == SKILL


def test_cli_host_map_with_saved_pulls(sample_root: Path, tmp_path: Path) -> None:
    pulls, _ = load_sample_items()
    saved = tmp_path / "pulls.json"
    saved.write_text(json.dumps(pulls), encoding="utf-8")
    args = ["host", "map", "--host", str(sample_root), "--pulls", str(saved), "--json"]
    result = runner.invoke(
        app, [*args, "--title", "KVTier", "--text", "offload cold KV blocks to host memory"]
    )
    assert result.exit_code == 0, result.output
    assert "#104" in [p["ref"] for p in json.loads(result.stdout)["touch_points"]]


def _flat(output: str) -> str:
    """CLI output without rich's panel borders and line wrapping."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", output).split())


def test_cli_errors(sample_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    missing = runner.invoke(app, ["host", "map", "--title", "x", "--host", str(tmp_path / "nope")])
    assert missing.exit_code == 1 and "Error" in missing.output
    assert "host path does not exist" in _flat(missing.output)
    not_git = runner.invoke(app, ["host", "index", "--host", str(tmp_path)])
    assert not_git.exit_code == 1 and "not a git repository" in _flat(not_git.output)
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    broken = runner.invoke(app, ["host", "index", "--host", str(sample_root), "--pulls", str(bad)])
    assert broken.exit_code == 1 and "not valid JSON" in _flat(broken.output)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("RADAR_CONFIG", raising=False)
    no_host = runner.invoke(app, ["host", "index"])
    assert no_host.exit_code == 2 and "--host" in _flat(no_host.output)


def test_reload_reads_the_moved_branch_and_keeps_prs(tmp_path: Path) -> None:
    root = build_sample_host(tmp_path / "host")
    pulls, issues = load_sample_items()
    before = load_host_index(root, repo=SAMPLE_HOST_REPO, items=parse_host_items(pulls, issues))
    (root / "docs" / "vla-latency.md").write_text(
        "# VLA action chunk latency\n\nPer-step action chunk latency budget for VLA policies.\n",
        encoding="utf-8",
    )
    _git(root, "add", "docs/vla-latency.md")
    _git(root, "commit", "-q", "-m", "docs: VLA latency")
    after = reload_host_index(before)
    assert after.head_sha != before.head_sha and check_host_sha(root, after.head_sha)[0]
    assert "docs/vla-latency.md" in {doc.path for doc in after.documents}
    assert after.items == before.items
    refs, _ = _refs(after, _finding("VLA", "VLA action chunk latency budget per step"))
    assert "docs/vla-latency.md" in refs
