"""Local git: the offline way to read a repository at a pinned version (subprocess git).

`clone` makes a blobless clone (`--filter=blob:none`) into a cache folder, or fetches when
it is already there; `head`, `commits_since` and `read_file` read a checkout without
touching the network.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from research_radar.errors import SourceError
from research_radar.models import Snapshot, Source, SourceKind
from research_radar.resolve.keys import github_key, key_name

__all__ = [
    "Commit",
    "clone",
    "commits_since",
    "head",
    "parse_checkout",
    "read_file",
    "remote_url",
    "repo_key_for",
]

SOURCE = "git"
_GITHUB = re.compile(r"github\.com[/:]([^/\s]+)/([^/\s]+?)(?:\.git)?/?$")


@dataclass(frozen=True)
class Commit:
    sha: str
    date: datetime
    """Committer date, with its offset."""
    message: str


def _git(repo: Path, *args: str, timeout: float = 120) -> str:
    try:
        done = subprocess.run(
            ["git", "-C", str(repo), *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SourceError(f"git {args[0]} failed: {exc}", SOURCE, str(repo)) from exc
    if done.returncode != 0:
        raise SourceError(
            f"git {args[0]} failed: {done.stderr.strip() or done.returncode}", SOURCE, str(repo)
        )
    return done.stdout


def clone(url: str, cache_dir: Path) -> Path:
    """A blobless clone of `url` under `cache_dir` (fetched again if already there)."""
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", url.rstrip("/").removesuffix(".git").split("://")[-1])
    target = cache_dir / name
    if (target / ".git").is_dir() or (target / "HEAD").is_file():
        _git(target, "fetch", "--quiet", "--filter=blob:none", "origin")
        _git(target, "reset", "--quiet", "--hard", "FETCH_HEAD")
        return target
    cache_dir.mkdir(parents=True, exist_ok=True)
    _git(cache_dir, "clone", "--quiet", "--filter=blob:none", url, str(target), timeout=900)
    return target


def head(repo: Path, ref: str = "HEAD") -> Commit:
    """The commit a ref points at."""
    out = _git(repo, "log", "-1", "--format=%H%x1f%cI%x1f%s", ref)
    sha, date, message = out.strip().split("\x1f", 2)
    return Commit(sha, datetime.fromisoformat(date), message)


def commits_since(
    repo: Path, since: datetime | None = None, ref: str = "HEAD", limit: int = 500
) -> list[Commit]:
    """Commits reachable from `ref` with a committer date at or after `since`, newest first."""
    args = ["log", f"--max-count={limit}", "--format=%H%x1f%cI%x1f%s%x1e", ref]
    if since is not None:
        args.insert(1, f"--since={since.isoformat()}")
    result = []
    for record in _git(repo, *args).split("\x1e"):
        if record.strip():
            sha, date, message = record.strip().split("\x1f", 2)
            result.append(Commit(sha, datetime.fromisoformat(date), message))
    return result


def read_file(repo: Path, path: str, sha: str = "HEAD") -> str:
    """A file's text at a commit."""
    return _git(repo, "show", f"{sha}:{path}")


def remote_url(repo: Path) -> str | None:
    try:
        return _git(repo, "config", "--get", "remote.origin.url").strip() or None
    except SourceError:
        return None


def repo_key_for(repo: Path, remote: str | None) -> str:
    """`gh:owner/name` for a GitHub remote, else a `url:` key for the remote or folder."""
    match = _GITHUB.search(remote or "")
    if match:
        return github_key(f"{match.group(1)}/{match.group(2)}")
    return "url:" + (remote or repo.resolve().as_uri())


def _readme(repo: Path, sha: str) -> str:
    names = _git(repo, "ls-tree", "--name-only", sha).split()
    found = next((n for n in names if n.lower().startswith("readme")), None)
    return read_file(repo, found, sha) if found else ""


def parse_checkout(repo: Path, since: datetime | None = None) -> tuple[Source, Snapshot]:
    """A Source (README as text) and a Snapshot pinned at HEAD of a local checkout."""
    top = head(repo)
    remote = remote_url(repo)
    key = repo_key_for(repo, remote)
    commits = commits_since(repo, since, limit=50)
    readme = _readme(repo, top.sha)
    url = remote or repo.resolve().as_uri()
    source = Source(
        key=key,
        kind=SourceKind.REPO,
        url=url,
        title=key_name(key),
        text=readme,
        updated_at=top.date,
        meta={
            "path": str(repo),
            "remote": remote,
            "head_sha": top.sha,
            "head_date": top.date.isoformat(),
            "commits_since": len(commits),
        },
    )
    snapshot = Snapshot(
        source_key=key,
        version=top.sha,
        version_date=top.date,
        url=url,
        meta={
            "commits": [
                {"sha": c.sha, "date": c.date.isoformat(), "message": c.message}
                for c in commits[:10]
            ]
        },
    )
    return source, snapshot
