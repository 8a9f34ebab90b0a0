"""Full-text search for the site: Pagefind, run from its PyPI wheel (nothing downloaded).

The extended Pagefind binary (`pagefind-bin-extended`) segments Chinese into words, so a
search for 缓存 finds "KV 缓存卸载"; the plain binary indexes a run of Chinese characters
as one word and finds only whole runs. Pages mark what is indexed with
`data-pagefind-body`; navigation and facets carry `data-pagefind-ignore`.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
from pathlib import Path

from research_radar.errors import RenderError

__all__ = ["INDEXED_GLOB", "PAGEFIND_DIR", "pagefind_executable", "index_site"]

PAGEFIND_DIR = "pagefind"
"""The search bundle's folder inside the site."""

INDEXED_GLOB = "{reports,projects}/*.html"
"""The only pages Pagefind reads: reports and projects (the rest are never indexed, and
reading ~5,000 family and dimension pages of a large store only costs time)."""

_CANDIDATES = (
    ("pagefind_bin_extended", "pagefind_extended"),
    ("pagefind_bin", "pagefind_extended"),
    ("pagefind_bin", "pagefind"),
)


def pagefind_executable() -> Path | None:
    """The Pagefind binary shipped by an installed wheel, extended (CJK) first."""
    suffix = ".exe" if os.name == "nt" else ""
    for package, name in _CANDIDATES:
        spec = importlib.util.find_spec(package)
        if spec is None or spec.origin is None:
            continue
        candidate = Path(spec.origin).parent / (name + suffix)
        if candidate.is_file():
            return candidate
    return None


def index_site(site: Path, *, timeout: float = 600) -> str:
    """Index the report and project pages of the built site; returns Pagefind's summary.

    Raises:
        RenderError: Pagefind is not installed, failed, or took longer than `timeout`.
    """
    executable = pagefind_executable()
    if executable is None:
        raise RenderError(
            "Pagefind is not installed: pip install pagefind-bin-extended "
            "(or build with --no-search)"
        )
    command = [
        str(executable),
        "--site",
        str(site),
        "--glob",
        INDEXED_GLOB,
        "--output-subdir",
        PAGEFIND_DIR,
        "--keep-index-url",
        "--quiet",
    ]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise RenderError(f"Pagefind could not index {site}: {exc}") from exc
    if done.returncode != 0:
        detail = (done.stderr or done.stdout).strip().splitlines()[-5:]
        raise RenderError(f"Pagefind failed on {site}: " + " | ".join(detail))
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    return lines[-1] if lines else "indexed"
