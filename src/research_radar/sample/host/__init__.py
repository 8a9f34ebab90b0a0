"""The bundled sample host project `inferhost` (GitHub `example-org/inferhost`).

`files/` holds its tree and `github/` its pull requests and issues in GitHub REST list
shape. `build_sample_host` turns the tree into a real git repository whose HEAD SHA is
the same on every machine, so demos and tests can pin it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from research_radar.errors import ConfigError, SourceError

__all__ = [
    "SAMPLE_FILES",
    "SAMPLE_HOST_REPO",
    "build_sample_host",
    "load_sample_items",
]

SAMPLE_HOST_REPO = "example-org/inferhost"
SAMPLE_FILES = Path(__file__).parent / "files"
_GITHUB = Path(__file__).parent / "github"
_IDENTITY = {
    "GIT_AUTHOR_NAME": "inferhost maintainers",
    "GIT_AUTHOR_EMAIL": "maintainers@inferhost.example",
    "GIT_AUTHOR_DATE": "2026-08-28T17:00:00+08:00",
    "GIT_COMMITTER_NAME": "inferhost maintainers",
    "GIT_COMMITTER_EMAIL": "maintainers@inferhost.example",
    "GIT_COMMITTER_DATE": "2026-08-28T17:00:00+08:00",
}


def _git_env() -> dict[str, str]:
    """A fixed identity and no user or system git config, so the SHA is reproducible."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
    env.update(_IDENTITY, GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1")
    return env


def _run_git(dest: Path, *args: str) -> None:
    try:
        done = subprocess.run(
            ["git", "-C", str(dest), "-c", "commit.gpgsign=false", *args],
            capture_output=True,
            text=True,
            env=_git_env(),
            check=False,
        )
    except OSError as exc:
        raise SourceError(f"cannot run git: {exc}; install git", source="git") from exc
    if done.returncode != 0:
        raise SourceError(f"git {args[0]} failed: {done.stderr.strip()}", source="git")


def build_sample_host(dest: Path, files: Path | None = None) -> Path:
    """Copy a host tree (the bundled `inferhost` by default) into `dest` and commit it.

    `dest` must be missing or empty. The commit has a fixed author, committer and date,
    so the HEAD SHA depends only on the files. Returns `dest`.
    """
    source = files or SAMPLE_FILES
    if not source.is_dir():
        raise ConfigError("sample host files are missing; reinstall research-radar", str(source))
    if dest.exists() and any(dest.iterdir()):
        raise ConfigError("destination for the sample host is not empty", str(dest))
    shutil.copytree(
        source, dest, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
    )
    _run_git(dest, "init", "--quiet", "--initial-branch=main")
    _run_git(dest, "add", "--all")
    _run_git(dest, "commit", "--quiet", "--no-verify", "-m", "inferhost sample snapshot")
    return dest


def load_sample_items(
    github: Path | None = None,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The sample host's pull requests and issues (GitHub REST list payloads)."""
    folder = github or _GITHUB
    pulls = json.loads((folder / "pulls.json").read_text(encoding="utf-8"))
    issues = json.loads((folder / "issues.json").read_text(encoding="utf-8"))
    return list(pulls), list(issues)
