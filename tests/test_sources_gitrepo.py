"""Local git adapter against real repositories built in tmp_path with fixed dates."""

from __future__ import annotations

import os
import subprocess
from datetime import datetime
from pathlib import Path

import pytest

from research_radar.errors import SourceError
from research_radar.sources import gitrepo


def _git(repo: Path, *args: str, date: str = "2026-08-01T10:00:00+08:00") -> None:
    env = dict(
        os.environ,
        GIT_AUTHOR_DATE=date,
        GIT_COMMITTER_DATE=date,
        GIT_AUTHOR_NAME="a",
        GIT_AUTHOR_EMAIL="a@example.org",
        GIT_COMMITTER_NAME="a",
        GIT_COMMITTER_EMAIL="a@example.org",
    )
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    path = tmp_path / "proj"
    path.mkdir()
    _git(path, "init", "-q", "-b", "main")
    for day, text in (("2026-08-01", "first"), ("2026-08-05", "second"), ("2026-08-09", "third")):
        (path / "README.md").write_text(f"# proj\n{text}\n")
        _git(path, "add", "README.md")
        _git(path, "commit", "-q", "-m", f"{text} commit", date=f"{day}T10:00:00+08:00")
    _git(path, "remote", "add", "origin", "https://github.com/Example/Proj.git")
    return path


def test_head_and_commits_since(repo: Path) -> None:
    top = gitrepo.head(repo)
    assert (
        top.date == datetime.fromisoformat("2026-08-09T10:00:00+08:00")
        and top.message == "third commit"
    )
    recent = gitrepo.commits_since(repo, datetime.fromisoformat("2026-08-04T00:00:00+08:00"))
    assert [c.message for c in recent] == ["third commit", "second commit"]


def test_file_at_a_sha(repo: Path) -> None:
    first = gitrepo.commits_since(repo)[-1]
    assert gitrepo.read_file(repo, "README.md", first.sha) == "# proj\nfirst\n"


def test_parse_checkout(repo: Path) -> None:
    source, snapshot = gitrepo.parse_checkout(repo)
    assert source.key == "gh:example/proj" and "third" in source.text
    assert snapshot.version == gitrepo.head(repo).sha and len(snapshot.meta["commits"]) == 3


def test_blobless_clone_and_refetch(repo: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    url = repo.resolve().as_uri()
    clone = gitrepo.clone(url, cache)
    assert gitrepo.head(clone).sha == gitrepo.head(repo).sha
    (repo / "README.md").write_text("# proj\nfourth\n")
    _git(repo, "commit", "-qam", "fourth commit", date="2026-08-10T10:00:00+08:00")
    again = gitrepo.clone(url, cache)
    assert again == clone and gitrepo.head(again).message == "fourth commit"


def test_not_a_repository(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="git log failed"):
        gitrepo.head(tmp_path)
