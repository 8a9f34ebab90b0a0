"""Collect benchmark against the replay server (no network).

Runs the GitHub collector twice over the same window, first on the bundled sample and then
on a synthetic corpus of N copies of the sample repositories, and prints requests per
repository on each run (goal: the second run costs <= 1 conditional request per unchanged
repository, answered 304) and records parsed per second.

    .venv/bin/python benchmarks/collect_bench.py [--copies 200]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import httpx

from research_radar.collect.stage import collect
from research_radar.config import GitHubSettings, Settings
from research_radar.replay.copies import copy_sample_repos
from research_radar.replay.server import sample_root, serve_replay
from research_radar.sample.demo import SAMPLE_SINCE, sample_settings
from research_radar.sources.http import RetryPolicy
from research_radar.store.store import open_store

NOW = datetime(2026, 11, 30, tzinfo=UTC)


def run(label: str, root: Path, queries: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp, serve_replay(root) as server:
        store = open_store(str(Path(tmp) / "bench.db"))
        settings = sample_settings(Settings(), server.url, server.arxiv_url, [])
        settings = settings.with_overrides(github=GitHubSettings(queries=tuple(queries)))
        policy = RetryPolicy(retries=1, backoff=0.0)
        for attempt in ("first", "second"):
            before = len(server.requests)
            started = time.perf_counter()
            with httpx.Client() as client:
                summary = collect(
                    store,
                    settings,
                    sources=["github"],
                    since=SAMPLE_SINCE,
                    until=NOW,
                    client=client,
                    policy=policy,
                )
            elapsed = time.perf_counter() - started
            seen = server.requests[before:]
            health = summary.sources["github"]
            repos = max(health.parsed, 1)
            searches = sum(r.path == "/search/repositories" for r in seen)
            not_modified = sum(r.status == 304 for r in seen)
            print(
                f"{label:<22} {attempt:<6} repos={health.parsed:<4} requests={len(seen):<5} "
                f"per_repo={(len(seen) - searches) / repos:.2f} (+{searches} search) "
                f"304={not_modified:<4} reused_from_store={health.reused:<5} "
                f"parsed/s={health.parsed / elapsed:,.0f} ({elapsed:.2f}s)"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=200)
    args = parser.parse_args()
    run(
        "sample (11 repos)",
        sample_root(),
        ["inference fork:true", "speech runtime", "triton kernel"],
    )
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "replay"
        copy_sample_repos(
            root, args.copies, owner="copy", owners=20, skip=frozenset({"example-org"})
        )
        run(f"synthetic ({args.copies} copies)", root, ["copy"])


if __name__ == "__main__":
    main()
