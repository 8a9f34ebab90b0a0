"""The I/O edge of host mapping: a local git checkout, its tracked files and branch SHA.

Everything here runs `git` or reads files, except the `HostDocument` record itself;
`hostmap` turns what is read into a `HostIndex`.
"""

from __future__ import annotations

import logging
import subprocess
from dataclasses import dataclass
from pathlib import Path

from research_radar.errors import ConfigError, SourceError

__all__ = [
    "HostDocument",
    "check_git_checkout",
    "check_host_sha",
    "git_branch_sha",
    "git_default_branch",
    "load_host_documents",
]

log = logging.getLogger(__name__)

_MAX_FILE_BYTES = 200_000
_TEXT_SUFFIXES = frozenset({".md", ".rst", ".txt", ".json", ".toml", ".yaml", ".yml"})
_CODE_SUFFIXES = frozenset({".py", ".pyi", ".cu", ".cuh", ".cpp", ".cc", ".h", ".rs", ".go"})


@dataclass(frozen=True)
class HostDocument:
    """One file of the host checkout."""

    path: str
    """POSIX path relative to the host root."""
    kind: str
    """skill, doc, module, test or path (other text files such as metadata JSON)."""
    title: str
    text: str


def _git(root: Path, *args: str) -> str:
    try:
        done = subprocess.run(
            ["git", "-C", str(root), *args], capture_output=True, text=True, check=False
        )
    except OSError as exc:
        raise SourceError(f"cannot run git: {exc}; install git", source="git") from exc
    if done.returncode != 0:
        raise SourceError(f"git {' '.join(args)} failed: {done.stderr.strip()}", source="git")
    return done.stdout


def check_git_checkout(root: Path) -> None:
    """Raise ConfigError unless `root` is a folder inside a git repository."""
    if not root.is_dir():
        raise ConfigError(
            "host path does not exist or is not a folder; pass --host or set host_path",
            path=str(root),
        )
    probe = subprocess.run(
        ["git", "-C", str(root), "rev-parse", "--show-toplevel"],
        capture_output=True,
        text=True,
        check=False,
    )
    if probe.returncode != 0:
        raise ConfigError(
            "host path is not a git repository; point --host at a checkout", path=str(root)
        )


def git_default_branch(root: Path) -> str:
    """origin's default branch when known, else the checked-out branch, else HEAD."""
    try:
        return (
            _git(root, "symbolic-ref", "--short", "refs/remotes/origin/HEAD")
            .strip()
            .removeprefix("origin/")
        )
    except SourceError:
        pass
    try:
        return _git(root, "symbolic-ref", "--short", "HEAD").strip()
    except SourceError:
        return "HEAD"


def git_branch_sha(root: Path, branch: str) -> str:
    """The commit SHA of `branch`: local branch, then origin's, then the name as a ref."""
    for ref in (f"refs/heads/{branch}", f"refs/remotes/origin/{branch}", branch):
        try:
            return _git(root, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}").strip()
        except SourceError:
            continue
    raise SourceError(f"no commit found for branch {branch!r}", source="git")


def check_host_sha(root: Path, expected: str) -> tuple[bool, str]:
    """Re-read the default-branch HEAD right before publishing.

    Returns (unchanged, current SHA); `expected` may be an abbreviated SHA. When the branch
    moved, callers map the findings again or say so in the report header.
    """
    check_git_checkout(root)
    current = git_branch_sha(root, git_default_branch(root))
    same = bool(expected) and current.lower().startswith(expected.strip().lower())
    return same, current


def _kind_of(path: str) -> str | None:
    pure = Path(path)
    name, suffix = pure.name, pure.suffix.lower()
    if name.upper() == "SKILL.MD" or (suffix == ".md" and "skills" in pure.parts):
        return "skill"
    if suffix in _CODE_SUFFIXES:
        is_test = "tests" in pure.parts or name.startswith("test_") or name.endswith("_test.py")
        return "test" if is_test else "module"
    if suffix in {".md", ".rst", ".txt"}:
        return "doc"
    return "path" if suffix in _TEXT_SUFFIXES else None


def _title_of(path: str, text: str) -> str:
    for line in text.splitlines()[:40]:
        stripped = line.strip()
        if stripped.startswith(("name:", "title:")):
            return stripped.split(":", 1)[1].strip().strip("\"'")
        if stripped.startswith("# "):
            return stripped[2:].strip()
        if stripped.startswith(('"""', "'''")) and len(stripped) > 3:
            return stripped.strip("\"' ")
    return Path(path).stem


def load_host_documents(root: Path) -> list[HostDocument]:
    """The tracked text and code files of a checkout (large or non-UTF-8 files skipped)."""
    listed = _git(root, "ls-files", "-z").split("\0")
    documents = []
    for rel in filter(None, listed):
        kind = _kind_of(rel)
        path = root / rel
        if kind is None or not path.is_file() or path.stat().st_size > _MAX_FILE_BYTES:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            log.debug("skipping non-UTF-8 host file %s", rel)
            continue
        documents.append(HostDocument(rel, kind, _title_of(rel, text), text))
    return documents
