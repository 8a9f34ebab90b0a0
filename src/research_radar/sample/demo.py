"""Set up the bundled sample for a run: a replay server on loopback, the sample host as a
real git repository, the sample's earlier report as history, and ordinary `Settings` that
point every collector at the server. The pipeline runs on them as on a live day."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path

from research_radar.config import ArxivSettings, GitHubSettings, GitSettings, Settings
from research_radar.history.imports import ImportSummary, import_reports
from research_radar.models import BEIJING
from research_radar.replay.server import Fault, ReplayServer, sample_root, serve_replay
from research_radar.sample.host import SAMPLE_FILES, SAMPLE_HOST_REPO, build_sample_host
from research_radar.store.store import Store

__all__ = [
    "SAMPLE_DATE",
    "SAMPLE_DB",
    "SAMPLE_HISTORY",
    "SAMPLE_INDEX_ISSUE",
    "SAMPLE_SINCE",
    "SAMPLE_UNTIL",
    "SampleRun",
    "import_sample_history",
    "open_sample",
    "sample_host",
    "sample_settings",
]

SAMPLE_DATE = date(2026, 8, 29)
"""The day the bundled sample stands on: the morning after its newest evidence."""
SAMPLE_UNTIL = datetime(2026, 8, 29, 8, 30, tzinfo=BEIJING)
"""The sample day's cut-off (08:30 Beijing): a sample window ends here, on any date."""
SAMPLE_DB = "radar-sample.db"
"""The sample's own store: `--sample` never writes into the team's store."""
SAMPLE_SINCE = datetime(2024, 9, 1, tzinfo=UTC)
"""The sample's window starts here, so every bundled repository and paper falls inside."""
SAMPLE_HISTORY = Path(__file__).parent / "history"
"""Earlier reports shipped with the sample, imported so the demo shows dedup across dates."""
SAMPLE_INDEX_ISSUE = f"{SAMPLE_HOST_REPO}#126"
_GITHUB = GitHubSettings(
    queries=("inference fork:true", "speech runtime", "triton kernel"),
    repos=("Red-Weasel/mach-x",),
    skip_reported=False,
)
_ARXIV = ArxivSettings(queries=("all:inference OR all:decoding",), delay=0.0)


@dataclass(frozen=True)
class SampleRun:
    """What a run on the sample needs: settings aimed at the server, and the window."""

    settings: Settings
    since: datetime
    server: ReplayServer


def sample_settings(
    base: Settings,
    server_url: str,
    arxiv_url: str,
    feeds: Sequence[str],
    host_path: Path | None = None,
    cache_dir: Path | None = None,
) -> Settings:
    """Settings that point every collector at a replay server of the bundled sample.

    From `base` only what changes how a report reads is kept (language, policy, taxonomy
    profile, reports folder, store, the optional `[llm]` writer and its key); sources,
    host, token and queries are the sample's. With `cache_dir`, the sample's caches (the
    writer's answers among them) live there, not in the working folder.
    """
    return Settings(
        db=base.db,
        profile=base.profile,
        reports_dir=base.reports_dir,
        language=base.language,
        policy=base.policy,
        github_api_url=server_url,
        arxiv_api_url=arxiv_url,
        host_repo=SAMPLE_HOST_REPO,
        host_path=host_path,
        feeds=tuple(feeds),
        github=_GITHUB,
        arxiv=_ARXIV,
        git=GitSettings(cache_dir=cache_dir / "repos") if cache_dir else GitSettings(),
        llm=base.llm,
        llm_api_key=base.llm_api_key,
    )


def _tree_digest(folder: Path) -> str:
    """A short digest of a folder's files, so a cached copy is rebuilt when they change."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def sample_host(cache_dir: Path) -> Path:
    """The sample host as a git repository under `cache_dir` (built once per content)."""
    root = cache_dir / f"sample-host-{_tree_digest(SAMPLE_FILES)}"
    if not (root / ".git").exists():
        build_sample_host(root)
    return root


def import_sample_history(store: Store) -> ImportSummary:
    """Import the sample's earlier report (importing twice changes nothing)."""
    return import_reports(store, sorted(SAMPLE_HISTORY.glob("*.md")))


@contextmanager
def open_sample(
    base: Settings,
    *,
    cache_dir: Path,
    faults: Sequence[Fault] = (),
    root: Path | None = None,
) -> Iterator[SampleRun]:
    """Serve the sample on loopback and yield the settings of a run on it.

    Args:
        base: the user's settings (see `sample_settings` for what is kept).
        cache_dir: where the sample host repository is built.
        faults: failures the replay server injects (tests, demos of a broken source).
        root: another replay folder shaped like the bundled one.
    """
    with serve_replay(root or sample_root(), faults=faults) as server:
        feeds = [server.feed_url(name) for name in server.feed_names()]
        settings = sample_settings(
            base,
            server.url,
            server.arxiv_url,
            feeds,
            host_path=sample_host(cache_dir),
            cache_dir=cache_dir,
        )
        yield SampleRun(settings=settings, since=SAMPLE_SINCE, server=server)
