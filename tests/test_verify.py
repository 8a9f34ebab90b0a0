"""verify: claims checked against real git repos, the store and a GitHub-shaped replay server."""

from __future__ import annotations

import json
import os
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest

from research_radar.github import GitHubClient
from research_radar.models import Snapshot, Source, SourceKind
from research_radar.replay.server import Fault, serve_replay
from research_radar.report.parse import parse_report
from research_radar.review.findings import Severity
from research_radar.review.run import render_review, review_report
from research_radar.review.verifiers import (
    ChainVerifier,
    GitHubVerifier,
    GitVerifier,
    Outcome,
    StoreVerifier,
)
from research_radar.review.verify import parse_state, verify_report
from research_radar.review.wording import fact_text
from research_radar.sources.http import RetryPolicy
from research_radar.store.store import Store

HEADER = "## {day}｜Research Radar 日报\n\n证据截止：北京时间 {day} 08:30:00；宿主 acme/host 默认分支 main `{host}`（发布前复核未变）。\n所有性能数字均为作者报告。\n\n"
COLUMNS = "| 分类 / 项目 | 机制 | 证据 | 时效版本 | 宿主接点 | 来源 |\n|---|---|---|---|---|---|\n"


def _github(http: httpx.Client, url: str) -> GitHubVerifier:
    """A verifier over the GitHub client; retries and rate-limit waits without sleeping."""
    policy = RetryPolicy(backoff=0.0, timeout=5.0, sleep=lambda _: None)
    return GitHubVerifier(GitHubClient(http, url, policy=policy))


def _git(repo: Path, *args: str, when: str = "2026-10-29T10:00:00+00:00") -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_DATE": when,
        "GIT_COMMITTER_DATE": when,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.org",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.org",
    }
    done = subprocess.run(
        ["git", "-C", str(repo), *args], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def _commit(repo: Path, path: str, text: str, when: str) -> str:
    (repo / path).parent.mkdir(parents=True, exist_ok=True)
    (repo / path).write_text(text, encoding="utf-8")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", f"update {path}", when=when)
    return _git(repo, "rev-parse", "HEAD")


@pytest.fixture
def project(tmp_path: Path) -> tuple[Path, str, str]:
    repo = tmp_path / "ninfer"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    first = _commit(
        repo, "docs/perf.md", "decode 922.4 tok/s; latency 31.5 ms\n", "2026-10-29T10:00:00+00:00"
    )
    second = _commit(repo, "README.md", "hello\n", "2026-10-31T02:00:00+00:00")
    return repo, first, second


@pytest.fixture
def host(tmp_path: Path) -> tuple[Path, str, str]:
    repo = tmp_path / "host"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    before = _commit(repo, "a.txt", "1\n", "2026-11-29T12:00:00+00:00")
    after = _commit(repo, "a.txt", "2\n", "2026-11-30T01:00:00+00:00")  # 09:00 Beijing
    return repo, before, after


def _row(sha: str, text: str) -> str:
    url = f"https://github.com/acme/ninfer/blob/{sha}/docs/perf.md"
    return f"| **NInfer** | 机制 | {text} | head `{sha[:8]}`（10-29） | `docs/x.md` | {url} |\n"


def test_git_commit_date_and_quoted_numbers(project: tuple[Path, str, str]) -> None:
    repo, first, _second = project
    text = (
        HEADER.format(day="2026-11-30", host="0" * 40)
        + COLUMNS
        + _row(first, "922.4 tok/s；31.5 tok/s；777.7 tok/s")
    )
    checks = verify_report(parse_report(text), GitVerifier({"acme/ninfer": repo}))
    facts = {(check.fact, check.params.get("number", "")): check for check in checks}
    assert facts["pin-date", ""].ok is True
    assert dict(facts["pin-date", ""].params) == {
        "pin": f"acme/ninfer@{first[:12]}",
        "date": "2026-10-29",
    }
    assert facts["number-found", "922.4"].ok is True
    assert facts["number-other-unit", "31.5"].ok is False
    assert facts["number-absent", "777.7"].ok is False
    by_text = {fact_text(check.fact, check.params, "en"): check.ok for check in checks}
    assert by_text[f"acme/ninfer@{first[:12]} exists, committed 2026-10-29 as stated"] is True
    assert by_text["922.4 tok/s appears in acme/ninfer@" + first[:8] + ":docs/perf.md"] is True
    assert any(
        ok is False and "31.5 appears" in s and "another unit" in s for s, ok in by_text.items()
    )
    assert any(ok is False and "777.7 tok/s appears in none" in s for s, ok in by_text.items())
    in_chinese = {fact_text(check.fact, check.params, "zh") for check in checks}
    assert f"acme/ninfer@{first[:12]} 存在，提交于 2026-10-29，与报告一致" in in_chinese
    assert f"922.4 tok/s 见于 acme/ninfer@{first[:8]}:docs/perf.md" in in_chinese
    assert f"31.5 在 acme/ninfer@{first[:8]}:docs/perf.md 中只以 tok/s 以外的单位出现" in in_chinese


def test_seconds_are_a_unit_of_their_own(project: tuple[Path, str, str]) -> None:
    """A report that writes 31.5 s (or 31.5 秒) where the source says 31.5 ms is caught; the
    unit read in the source is compared, seconds against milliseconds."""
    repo, first, _second = project
    text = (
        HEADER.format(day="2026-11-30", host="0" * 40)
        + COLUMNS
        + _row(first, "延迟 31.5 s；首字 31.5秒；31.5 ms")
    )
    checks = verify_report(parse_report(text), GitVerifier({"acme/ninfer": repo}))
    found = {(check.params.get("number"), check.params.get("unit")): check for check in checks}
    assert found["31.5", "s"].fact == "number-other-unit"
    assert found["31.5", "秒"].fact == "number-other-unit"
    assert found["31.5", "ms"].fact == "number-found"


def test_git_wrong_date_and_missing_commit(project: tuple[Path, str, str]) -> None:
    repo, _first, second = project
    text = HEADER.format(day="2026-11-30", host="0" * 40) + COLUMNS
    text += f"| **NInfer** | 机制 | 证据 | head `{second[:8]}`（10-29） | `docs/x.md` | https://github.com/acme/ninfer |\n"
    text += "| **Other** | 机制 | 证据 | head `deadbeef1`（10-29） | `docs/x.md` | https://github.com/acme/ninfer |\n"
    result = review_report(text, verifier=GitVerifier({"acme/ninfer": repo}))
    false = [f for f in result.findings if f.rule == "claim-false"]
    assert {f.severity for f in false} == {Severity.BLOCKING}
    assert any("committed 2026-10-31, the report says 2026-10-29" in f.problem for f in false)
    assert any("deadbeef1 does not exist" in f.problem for f in false)
    assert result.blocking


def test_git_host_sha_is_head_at_cutoff(host: tuple[Path, str, str]) -> None:
    repo, before, after = host
    good = HEADER.format(day="2026-11-30", host=before)
    result = review_report(good, host_repo="acme/host", verifier=GitVerifier({"acme/host": repo}))
    assert f"2026-11-30：宿主 SHA {before} 是北京时间 2026-11-30 08:30 的默认分支 head" in (
        result.verified
    )
    assert f"2026-11-30：宿主 SHA {before} 在 acme/host 中存在（本地 git 仓库 acme/host）" in (
        result.verified
    )
    english = review_report(
        good, host_repo="acme/host", verifier=GitVerifier({"acme/host": repo}), language="en"
    )
    assert english.verified == [
        f"2026-11-30: host SHA {before} exists in acme/host (git acme/host)",
        f"2026-11-30: host SHA {before} was the default-branch head at 2026-11-30 08:30 Beijing",
    ]
    assert not [f for f in result.findings if f.rule.startswith("claim")]
    stale = HEADER.format(day="2026-11-30", host=after)
    result = review_report(stale, host_repo="acme/host", verifier=GitVerifier({"acme/host": repo}))
    [false] = [f for f in result.findings if f.rule == "claim-false"]
    assert "was not the default-branch head" in false.problem  # the record, for tools
    [group] = [g for g in result.groups if g.rule == "claim-false"]
    assert group.items == [
        f"第 1 行：宿主 SHA {after} 不是北京时间 2026-11-30 08:30 的默认分支 head"
        f"（当时为 {before[:12]}）"
    ]
    assert group.fix == "发布前重新核对宿主默认分支，并写出它的 SHA"


def test_unknown_repo_is_unverified_not_false(project: tuple[Path, str, str]) -> None:
    _repo, first, _second = project
    text = HEADER.format(day="2026-11-30", host="0" * 40) + COLUMNS + _row(first, "922.4 tok/s")
    result = review_report(text, verifier=GitVerifier({}))
    rules = {(f.rule, f.severity) for f in result.findings if f.rule.startswith("claim")}
    assert rules == {("claim-unverified", Severity.INFO)}
    [group] = [g for g in result.groups if g.rule == "claim-unverified"]
    assert group.items == [
        f"NInfer：2 条（acme/ninfer@{first[:8]}：没有来源能回答；NInfer 引用的文件无法读取）"
    ]
    english = review_report(text, verifier=GitVerifier({}), language="en")
    [group] = [g for g in english.groups if g.rule == "claim-unverified"]
    assert group.items == [
        f"NInfer: 2 (acme/ninfer@{first[:8]}: no source could answer; "
        "cited files of NInfer could not be read)"
    ]


# -- the store ----------------------------------------------------------------------------


def test_store_snapshots_prose_and_pull_states(store: Store) -> None:
    sha = "1882c6adbc98043fcf89f3589aa5addb3742777a"
    with store.transaction() as conn:
        store.save_source(
            conn,
            Source(
                key="gh:acme/ninfer",
                kind=SourceKind.REPO,
                url="https://github.com/acme/ninfer",
                text="reaches 922.4 tok/s",
            ),
        )
        store.save_snapshot(
            conn,
            Snapshot(
                source_key="gh:acme/ninfer",
                version=sha,
                version_date=datetime(2026, 10, 29, 3, tzinfo=UTC),
            ),
        )
        store.save_source(
            conn,
            Source(
                key="url:pr5",
                kind=SourceKind.PULL,
                url="https://github.com/acme/ninfer/pull/5",
                meta={"state": "closed", "merged_at": "2026-10-28T00:00:00Z"},
            ),
        )
    verifier = StoreVerifier(store)
    assert verifier.commit("acme/ninfer", sha[:8]).outcome is Outcome.FOUND
    assert verifier.commit("acme/ninfer", "abcdef12").outcome is Outcome.UNREACHABLE
    assert "922.4" in verifier.file("acme/ninfer", sha, "README.md").text
    assert verifier.issue("acme/ninfer", 5).state == "merged"
    text = HEADER.format(day="2026-11-30", host="0" * 40) + COLUMNS
    text += f"| **NInfer** | acme/ninfer#5 已合并 | 证据 | head `{sha[:8]}`（10-29） | `docs/x.md` | https://github.com/acme/ninfer |\n"
    result = review_report(text, verifier=verifier)
    assert "2026-11-30：acme/ninfer#5 为已合并，与报告所写（已合并）相符" in result.verified
    assert f"2026-11-30：acme/ninfer@{sha[:12]} 存在，提交于 2026-10-29，与报告一致" in (
        result.verified
    )


# -- the GitHub API (replay server) ------------------------------------------------------


@pytest.fixture
def api_root(tmp_path: Path) -> Path:
    root = tmp_path / "replay"
    repos = root / "github" / "repos" / "acme"
    (repos / "ninfer" / "contents" / "docs").mkdir(parents=True)
    (repos / "host").mkdir(parents=True)
    (repos / "ninfer.json").write_text(
        json.dumps({"id": 1, "full_name": "acme/ninfer", "default_branch": "main"})
    )
    (repos / "host.json").write_text(
        json.dumps({"id": 2, "full_name": "acme/host", "default_branch": "main"})
    )
    sha = "1882c6adbc98043fcf89f3589aa5addb3742777a"
    commit = {"sha": sha, "commit": {"committer": {"date": "2026-10-29T03:00:00Z"}}}
    (repos / "ninfer" / "commits.json").write_text(json.dumps([commit]))
    (repos / "ninfer" / "contents" / "docs" / "perf.md").write_text("decode 922.4 tok/s\n")
    pulls = [
        {
            "number": 5,
            "state": "closed",
            "merged_at": "2026-10-28T00:00:00Z",
            "draft": False,
            "closed_at": "2026-10-28T00:00:00Z",
        },
        {"number": 6, "state": "open", "merged_at": None, "draft": True},
        {
            "number": 7,
            "state": "closed",
            "merged_at": None,
            "draft": False,
            "closed_at": "2026-10-20T00:00:00Z",
        },
        {
            "number": 8,
            "state": "closed",
            "merged_at": "2026-12-02T00:00:00Z",
            "draft": False,
            "closed_at": "2026-12-02T00:00:00Z",
        },
    ]
    (repos / "ninfer" / "pulls.json").write_text(json.dumps(pulls))
    host_commits = [
        {"sha": "b" * 40, "commit": {"committer": {"date": "2026-11-30T01:00:00Z"}}},
        {"sha": "a" * 40, "commit": {"committer": {"date": "2026-11-29T12:00:00Z"}}},
    ]
    (repos / "host" / "commits.json").write_text(json.dumps(host_commits))
    return root


def _api_report(host_sha: str) -> str:
    sha = "1882c6adbc98043fcf89f3589aa5addb3742777a"
    url = f"https://github.com/acme/ninfer/blob/{sha}/docs/perf.md"
    evidence = "acme/ninfer#5 已合并；acme/ninfer#6 Draft；acme/ninfer#7 已合并；acme/ninfer#8 开放；acme/ninfer#9 开放"
    text = HEADER.format(day="2026-11-30", host=host_sha) + COLUMNS
    return (
        text
        + f"| **NInfer** | {evidence} | 922.4 tok/s | head `{sha}`（10-29） | `docs/x.md` | {url} |\n"
    )


def test_github_api_commits_states_files_and_host(api_root: Path) -> None:
    with serve_replay(api_root) as server, httpx.Client() as http:
        result = review_report(
            _api_report("a" * 40), host_repo="acme/host", verifier=_github(http, server.url)
        )
    assert result.verified == [
        f"2026-11-30：宿主 SHA {'a' * 40} 在 acme/host 中存在（GitHub）",
        f"2026-11-30：宿主 SHA {'a' * 40} 是北京时间 2026-11-30 08:30 的默认分支 head",
        "2026-11-30：acme/ninfer@1882c6adbc98 存在，提交于 2026-10-29，与报告一致",
        "2026-11-30：922.4 tok/s 见于 acme/ninfer@1882c6ad:docs/perf.md",
        "2026-11-30：acme/ninfer#5 为已合并，与报告所写（已合并）相符",
        "2026-11-30：acme/ninfer#6 为草稿（Draft），与报告所写（草稿（Draft））相符",
        "2026-11-30：acme/ninfer#8 为已合并，与报告所写（开放）相符",
    ]
    comment = render_review(result)
    assert "acme/ninfer#7 为关闭未合并，报告写的是已合并" in comment
    assert "把状态写为关闭未合并（以截止时间为准）" in comment
    assert "as stated" not in comment and "appears in" not in comment
    with serve_replay(api_root) as server, httpx.Client() as http:
        result = review_report(
            _api_report("a" * 40),
            host_repo="acme/host",
            verifier=_github(http, server.url),
            language="en",
        )
    verified = "\n".join(result.verified)
    assert "acme/ninfer#5 is merged as stated" in verified
    assert "acme/ninfer#6 is draft as stated" in verified
    assert "acme/ninfer#8 is merged as stated (open)" in verified  # open at the cut-off
    assert "922.4 tok/s appears in acme/ninfer@1882c6ad:docs/perf.md" in verified
    assert "committed 2026-10-29 as stated" in verified
    assert f"host SHA {'a' * 40} was the default-branch head" in verified
    false = [f.problem for f in result.findings if f.rule == "claim-false"]
    assert false == [
        "acme/ninfer#7 is closed-unmerged, the report says merged",
        "acme/ninfer#9 does not exist",
    ]
    comment = render_review(result)
    assert "- **Fix:** write the state as closed-unmerged (at the cut-off)" in comment
    assert "  - NInfer: acme/ninfer#7 is closed-unmerged, the report says merged" in comment


def test_github_api_rate_limit_is_unverified(api_root: Path) -> None:
    server = serve_replay(api_root, faults=[Fault("*", "rate-limit")])
    with server, httpx.Client() as http:
        result = review_report(
            _api_report("a" * 40), host_repo="acme/host", verifier=_github(http, server.url)
        )
    assert not [f for f in result.findings if f.rule == "claim-false"]
    assert [f.severity for f in result.findings if f.rule == "claim-unverified"]


def test_chain_takes_first_answer(project: tuple[Path, str, str], api_root: Path) -> None:
    repo, first, _second = project
    with serve_replay(api_root) as server, httpx.Client() as http:
        chain = ChainVerifier([GitVerifier({"acme/ninfer": repo}), _github(http, server.url)])
        assert chain.commit("acme/ninfer", first).source == "git acme/ninfer"
        assert chain.issue("acme/ninfer", 6).state == "draft"


def test_mock_transport_server_error_is_unreachable() -> None:
    http = httpx.Client(transport=httpx.MockTransport(lambda r: httpx.Response(502)))
    verifier = _github(http, "https://api.example")
    assert verifier.commit("a/b", "abc1234").outcome is Outcome.UNREACHABLE
    assert verifier.issue("a/b", 1).outcome is Outcome.UNREACHABLE


@pytest.mark.parametrize(
    ("text", "state"),
    [
        ("已合并", "merged"),
        ("关闭但未合并", "closed-unmerged"),
        ("仍 open", "open"),
        ("Draft", "draft"),
        ("在途", "open"),
        ("关闭", "closed"),
        ("读取", None),
    ],
)
def test_parse_state(text: str, state: str | None) -> None:
    assert parse_state(text) == state
