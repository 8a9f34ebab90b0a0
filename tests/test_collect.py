"""The collect stage: real collectors against the replay server, rows read back."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from research_radar.cli import app
from research_radar.collect import collectors
from research_radar.collect import stage as collect_module
from research_radar.collect.stage import CollectSummary, SourceHealth, collect
from research_radar.collect.storecache import StoreCache
from research_radar.config import Settings
from research_radar.errors import SourceError
from research_radar.replay.server import Fault, ReplayServer, sample_root, serve_replay
from research_radar.sample.demo import SAMPLE_SINCE, open_sample, sample_settings
from research_radar.sources.http import RetryPolicy
from research_radar.store.rows import RawRecord
from research_radar.store.store import Store

NOW = datetime(2026, 11, 30, tzinfo=UTC)


def _fast() -> RetryPolicy:
    return RetryPolicy(retries=1, backoff=0.0, timeout=2.0, sleep=lambda _: None)


def _run(store: Store, server: ReplayServer, **kwargs: object) -> collect_module.CollectSummary:
    settings = sample_settings(
        Settings(), server.url, server.arxiv_url, [server.feed_url("inference-notes.xml")]
    )
    with httpx.Client() as client:
        return collect(
            store, settings, since=SAMPLE_SINCE, until=NOW, client=client, policy=_fast(), **kwargs
        )  # type: ignore[arg-type]


def test_exported_members() -> None:
    assert "collect" in collect_module.__all__ and "CollectSummary" in collect_module.__all__


def test_sample_rows_read_back(store: Store, tmp_path: Path) -> None:
    with open_sample(Settings(), cache_dir=tmp_path) as run:
        summary = collect(store, run.settings, since=run.since, until=NOW, policy=_fast())
    assert summary.ok and {h.status for h in summary.sources.values()} == {"ok"}
    repos = {s.key for s in store.load_sources("repo")}
    assert {
        "gh:neroued/ninfer",
        "gh:zhongpei/ninfer-4090",
        "gh:kvtinker/ninfer",
        "gh:example-org/inferhost",
    } <= repos
    assert len(repos) == 12
    machx = store.load_source("gh:red-weasel/machx-inference-engine")
    assert machx is not None and machx.meta["renamed_from"] == ["Red-Weasel/mach-x"]
    assert (
        store.load_snapshots("gh:neroued/ninfer")[0].version
        == "5ea3242a206cdb0c4c1beaeb9d8a3048e6248423"
    )
    paper = store.load_source("arxiv:2409.10516")
    assert paper is not None and paper.meta["versions"] == 2 and paper.text
    assert len(store.load_sources("blog")) == 2 and len(store.load_sources("pull")) == 4
    assert store.load_raw("github", "/repos/Neroued/ninfer") is not None
    assert set(store.load_health()) == {"github", "host", "arxiv", "feeds"}


@pytest.mark.parametrize(
    "wanted",
    [
        pytest.param(["/a", "/x"], id="few-kept-read-at-once"),
        pytest.param(["/a"], id="more-kept-than-twice-the-wanted"),
    ],
)
def test_store_cache_finds_kept_responses_expected_or_not(store: Store, wanted: list[str]) -> None:
    with store.transaction() as conn:
        store.save_raws(
            conn,
            "github",
            [RawRecord(key, key.encode(), etag=f'"{key}"') for key in ("/a", "/b", "/c")],
        )
    cache = StoreCache(store, "github")
    cache.expect(wanted)
    found = {key: cache.lookup(key) for key in ("/a", "/c", "/x", "/y")}
    assert {key: raw.body if raw else None for key, raw in found.items()} == {
        "/a": b"/a",
        "/c": b"/c",  # not expected: its name was not known in advance
        "/x": None,
        "/y": None,
    }
    assert all(raw.from_cache and raw.etag == f'"{key}"' for key, raw in found.items() if raw)
    assert StoreCache(store, "arxiv").lookup("/a") is None


def test_second_run_is_conditional(store: Store) -> None:
    with serve_replay() as server:
        _run(store, server, sources=["github"])
        first = len(server.requests)
        again = _run(store, server, sources=["github"])
        second = server.requests[first:]
    health = again.sources["github"]
    repos = health.parsed
    # README, commits and tags of each; the releases of the one fork with tags
    assert repos == 11 and health.reused == 3 * repos + 1
    assert sum(r.status == 304 for r in second) == 14  # 3 searches + 11 repositories
    assert len([r for r in second if r.status != 301]) <= repos + 3


def test_releases_are_asked_for_of_forks_with_tags_only(store: Store) -> None:
    with serve_replay() as server:
        _run(store, server, sources=["github"])
        asked = {r.path for r in server.requests if r.path.endswith("/releases")}
    assert asked == {"/repos/zhongpei/ninfer-4090/releases"}
    fork_with_tags = store.load_source("gh:zhongpei/ninfer-4090")
    fork_without = store.load_source("gh:kvtinker/ninfer")
    original = store.load_source("gh:seu-paisys/embodied.cpp")
    assert fork_with_tags is not None and fork_with_tags.meta["fork"] is True
    assert [r["tag"] for r in fork_with_tags.meta["releases"]] == ["v0.1-4090"]
    assert fork_without is not None and fork_without.meta["fork"] is True
    assert fork_without.meta["tags"] == [] and fork_without.meta["releases"] == []
    # not asked for, so not known: no "releases" rather than none
    assert original is not None and original.meta["tags"] and "releases" not in original.meta


def test_a_repository_is_asked_for_its_head_commit_only(store: Store) -> None:
    with serve_replay() as server:
        _run(store, server, sources=["github"])
        asked = [r.query for r in server.requests if r.path == "/repos/Neroued/ninfer/commits"]
    assert asked == ["sha=master&per_page=1"]
    (snapshot,) = store.load_snapshots("gh:neroued/ninfer")
    assert [commit["sha"] for commit in snapshot.meta["commits"]] == [snapshot.version]


def test_keys_expected_of_a_repository_are_those_it_asks_for(store: Store) -> None:
    with serve_replay() as server:
        _run(store, server, sources=["github"])
    kept = store.load_raw_keys("github", [f"/repos/{n}" for n in ("Neroued/ninfer", "x/y")])
    assert kept == {"/repos/Neroued/ninfer"}
    for name in ("Neroued/ninfer", "zhongpei/ninfer-4090", "AMD-AGI/Infera"):
        expected = collectors._repo_keys(name)
        assert store.load_raw_keys("github", expected) == set(expected)


def test_one_broken_source_does_not_stop_the_run(store: Store) -> None:
    with serve_replay(faults=[Fault("/arxiv/*", "5xx")]) as server:
        summary = _run(store, server)
    assert summary.sources["arxiv"].status == "failed"
    assert summary.health()["arxiv"].startswith("failed: arxiv: every query failed")
    assert summary.health()["github"] == "ok" and summary.counts()["parsed"] > 10
    assert "gave up" in summary.sources["arxiv"].errors[0]
    assert summary.sources["github"].status == summary.sources["feeds"].status == "ok"
    assert store.load_health()["arxiv"]["status"] == "failed"
    with serve_replay() as server:
        _run(store, server, sources=["arxiv"])
    with serve_replay(faults=[Fault("/arxiv/*", "5xx")]) as server:
        later = _run(store, server, sources=["arxiv"])
    stale = later.sources["arxiv"]
    assert stale.status == "stale" and stale.stale_since is not None
    assert later.health()["arxiv"].startswith("stale since ")
    assert all(len(state) <= 130 for state in later.health().values())


def test_malformed_repository_is_skipped(store: Store) -> None:
    with serve_replay(faults=[Fault("/repos/Neroued/ninfer", "malformed")]) as server:
        summary = _run(store, server, sources=["github"])
    health = summary.sources["github"]
    assert health.status == "partial" and health.parsed == 10
    assert any("malformed JSON" in e and "Neroued/ninfer" in e for e in health.errors)
    assert summary.health()["github"] == "partial: 1 error" and summary.ok


def test_commit_without_sha_skips_only_that_repository(store: Store, tmp_path: Path) -> None:
    root = tmp_path / "replay"
    shutil.copytree(sample_root(), root)
    commits = root / "github" / "repos" / "AMD-AGI" / "Infera" / "commits.json"
    payload = json.loads(commits.read_text(encoding="utf-8"))
    payload[0]["sha"] = None
    commits.write_text(json.dumps(payload), encoding="utf-8")
    with serve_replay(root) as server:
        summary = _run(store, server, sources=["github"])
    health = summary.sources["github"]
    assert health.status == "partial" and health.parsed == health.saved == 10
    assert len(health.errors) == 1 and "AMD-AGI/Infera/commits" in health.errors[0]
    assert store.load_source("gh:amd-agi/infera") is None
    assert store.load_source("gh:neroued/ninfer") is not None


def test_every_search_failing_is_partial_not_ok(store: Store) -> None:
    with serve_replay(faults=[Fault("/search/*", "5xx")]) as server:
        summary = _run(store, server, sources=["github"])
    health = summary.sources["github"]
    assert health.status == "partial" and health.parsed == 1  # the watched repository
    assert summary.health()["github"] == "partial: 3 errors"


def test_malformed_pull_list_keeps_the_host(store: Store) -> None:
    faults = [Fault("/repos/example-org/inferhost/pulls", "malformed")]
    with serve_replay(faults=faults) as server:
        summary = _run(store, server, sources=["host"])
    assert summary.health()["host"] == "partial: 1 error"
    assert store.load_source("gh:example-org/inferhost") is not None
    assert store.load_sources("pull") == [] and len(store.load_sources("issue")) == 4


@pytest.mark.parametrize(
    ("health", "expected"),
    [
        pytest.param(SourceHealth(name="x"), "ok", id="ok"),
        pytest.param(SourceHealth(name="x", status="partial", errors=["e"]), "partial: 1 error"),
        pytest.param(
            SourceHealth(name="x", status="failed", errors=["x: " + "https://a.example/" * 20]),
            "failed: " + ("x: " + "https://a.example/" * 20)[:119] + "…",
            id="failed-truncated",
        ),
        pytest.param(SourceHealth(name="x", status="failed"), "failed: unknown error"),
    ],
)
def test_health_strings_stay_short(health: SourceHealth, expected: str) -> None:
    state = CollectSummary(sources={"x": health}).health()["x"]
    assert state == expected and len(state) <= 130


def test_bad_token_fails_github_once(store: Store) -> None:
    with serve_replay(faults=[Fault("/repos/*", "401")]) as server:
        summary = _run(store, server, sources=["github", "arxiv"])
    github = summary.sources["github"]
    assert (
        github.status == "failed"
        and len(github.errors) == 1
        and "bad credentials" in github.errors[0]
    )
    assert summary.sources["arxiv"].status == "ok"


def test_rate_limit_countdown_reaches_progress(store: Store) -> None:
    notes: list[str] = []
    with serve_replay(faults=[Fault("/search/*", "429", times=1, retry_after=2)]) as server:
        summary = _run(store, server, sources=["github"], progress=lambda m, d, t: notes.append(m))
    assert summary.sources["github"].status == "ok"
    assert "github: rate limited: resuming in 2s" in notes


def test_unknown_source(store: Store) -> None:
    with pytest.raises(SourceError, match="unknown source 'nope'"):
        collect(store, Settings(), sources=["nope"], until=NOW)


def test_cli_collect_sample(db_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["collect", "--sample", "--db", str(db_path)])
    assert result.exit_code == 0, result.output
    assert "github" in result.output and "ok" in result.output
    as_json = runner.invoke(app, ["collect", "--sample", "--db", str(db_path), "--json"])
    assert as_json.exit_code == 0 and '"not_modified": 14' in as_json.output
    # the sample's window ends on the sample's day, whatever today's date is
    assert json.loads(as_json.output)["window_end"] == "2026-08-29T08:30:00+08:00"


def test_cli_sample_uses_the_sample_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("RADAR_DB", "RADAR_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    result = CliRunner().invoke(app, ["collect", "--sample", "--until", "2026-11-30"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "radar-sample.db").exists() and not (tmp_path / "radar.db").exists()


@pytest.mark.parametrize(
    ("since", "expected"),
    [
        pytest.param("2026-11-29", "2026-11-28T16:00:00+00:00", id="date-is-beijing"),
        pytest.param("2026-11-29T08:30", "2026-11-29T00:30:00+00:00", id="naive-is-beijing"),
        pytest.param("2026-11-29T00:00+00:00", "2026-11-29T00:00:00+00:00", id="offset-wins"),
    ],
)
def test_cli_since_is_beijing_time(
    since: str, expected: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no radar.toml: no inbox, so the run makes no request
    args = ["collect", "-s", "inbox", "--since", since, "--until", "2026-11-30"]
    result = CliRunner().invoke(app, [*args, "--db", str(tmp_path / "x.db"), "--json"])
    start = json.loads(result.stdout)["window_start"]
    assert datetime.fromisoformat(start) == datetime.fromisoformat(expected)


def test_cli_collect_help_has_an_example() -> None:
    result = CliRunner().invoke(app, ["collect", "--help"])
    assert result.exit_code == 0 and "Example: radar collect" in result.output


def test_cli_bad_date(db_path: Path) -> None:
    result = CliRunner().invoke(app, ["collect", "--since", "yesterday", "--db", str(db_path)])
    assert result.exit_code == 2 and "not a date" in result.output


def test_inbox_notes_are_kept_with_their_text_and_problems(store: Store, tmp_path: Path) -> None:
    root = tmp_path / "team"
    (root / "inbox" / "tom").mkdir(parents=True)
    (root / "paper_cards").mkdir()
    note = "# KV cache offload\n\nRetroInfer arXiv:2505.02922 reports 4.5x on A100.\n"
    (root / "inbox" / "tom" / "2026-09-03_0840_radar.md").write_text(note, encoding="utf-8")
    (root / "inbox" / "tom" / "undated.md").write_text("# no time\n", encoding="utf-8")
    (root / "paper_cards" / "0043-retroinfer.md").write_text(
        "arXiv: 2505.02922\ncategory: cs.LG\n", encoding="utf-8"
    )
    settings = Settings(db=str(tmp_path / "x.db"), inbox_root=root)
    for _ in range(2):
        summary = collect(store, settings, sources=["inbox"], since=SAMPLE_SINCE)
    assert summary.sources["inbox"].status == "partial"  # an undated note is a problem
    assert any("undated.md" in error for error in summary.sources["inbox"].errors)
    notes = {s.key: s for s in store.load_sources("note")}
    key = "inbox:inbox/tom/2026-09-03_0840_radar.md"
    assert key in notes and notes[key].created_at is not None
    assert [s.key for s in store.load_sources("card")] == ["inbox:paper_cards/0043-retroinfer.md"]
    kept = store.load_raw("inbox", "inbox/tom/2026-09-03_0840_radar.md")
    assert kept is not None and kept["body"].decode("utf-8") == note
    assert len(store.load_snapshots(key)) == 1


def test_missing_inbox_is_a_failed_source(store: Store, tmp_path: Path) -> None:
    settings = Settings(db=str(tmp_path / "x.db"), inbox_root=tmp_path / "nowhere")
    summary = collect(store, settings, sources=["inbox"], since=SAMPLE_SINCE)
    assert summary.sources["inbox"].status == "failed"
    assert "inbox_root" in summary.sources["inbox"].errors[0]


def test_repositories_already_reported_are_left_out(store: Store) -> None:
    """With `reported` (the pipeline's first-discovered policy), a repository that a
    finding in the store has reported is not fetched again; the others are."""
    from functools import partial

    from research_radar.models import Finding
    from research_radar.store.history_reads import load_reported_repos

    earlier = Finding(project_key="gh:neroued/ninfer", name="ninfer", date=NOW.date())
    with store.transaction() as conn:
        store.save_findings(conn, [earlier])
    with serve_replay() as server:
        _run(store, server, sources=["github"], reported=partial(load_reported_repos, store))
        asked = {request.path.lower() for request in server.requests}
    repos = {source.key for source in store.load_sources("repo")}
    assert "gh:neroued/ninfer" not in repos and "/repos/neroued/ninfer" not in asked
    assert {"gh:zhongpei/ninfer-4090", "gh:kvtinker/ninfer"} <= repos
