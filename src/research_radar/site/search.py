"""Full-text search for the site: Pagefind, run from its PyPI wheel (nothing downloaded).

The extended Pagefind binary (`pagefind-bin-extended`) segments Chinese into words, so a
search for 缓存 finds "KV 缓存卸载"; the plain binary indexes a run of Chinese characters
as one word and finds only whole runs. Pages mark what is indexed with
`data-pagefind-body`; navigation and facets carry `data-pagefind-ignore`.

The index is split into bundles that the search page merges (Pagefind's `mergeIndex`):
the project pages in `pagefind/` (which also holds the search UI) and the reports of
each year in `pagefind-reports/<year>/`. Pagefind cannot add pages to an index, only
rebuild one, so a build re-indexes only the bundles whose pages changed: a new day
re-indexes the projects and this year's reports, not every report since the start
(issue #18).
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
from collections.abc import Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from research_radar.errors import RenderError

__all__ = [
    "PAGEFIND_DIR",
    "REPORTS_DIR",
    "EarlyIndex",
    "bundle_glob",
    "index_bundle",
    "index_site",
    "pagefind_executable",
    "report_bundle",
    "search_bundle",
    "stale_bundles",
]

PAGEFIND_DIR = "pagefind"
"""The main search bundle's folder inside the site: the project pages and the UI."""

REPORTS_DIR = "pagefind-reports"
"""The folder of the report bundles, one per year."""

_PROJECT = re.compile(r"projects/(?!index\.html$)[^/]+\.html")
_REPORT = re.compile(r"reports/(\d{4})-\d\d-\d\d\.html")

_CANDIDATES = (
    ("pagefind_bin_extended", "pagefind_extended"),
    ("pagefind_bin", "pagefind_extended"),
    ("pagefind_bin", "pagefind"),
)


def report_bundle(year: int | str) -> str:
    """The bundle folder of one year's reports."""
    return f"{REPORTS_DIR}/{year}"


def search_bundle(path: str) -> str | None:
    """The bundle that indexes the page at `path` (relative to the site), None if none.

    Only report and project pages are indexed: the family, dimension and index pages
    list what those pages hold, and indexing them would only find everything twice.
    """
    if _PROJECT.fullmatch(path):
        return PAGEFIND_DIR
    found = _REPORT.fullmatch(path)
    return report_bundle(found[1]) if found else None


def bundle_glob(bundle: str) -> str:
    """The pages a bundle indexes, as a Pagefind glob."""
    if bundle == PAGEFIND_DIR:
        return "projects/*.html"
    return f"reports/{bundle.removeprefix(REPORTS_DIR + '/')}-*.html"


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


def _executable() -> Path:
    executable = pagefind_executable()
    if executable is None:
        raise RenderError(
            "Pagefind is not installed: pip install pagefind-bin-extended "
            "(or build with --no-search)"
        )
    return executable


def index_bundle(site: Path, bundle: str, *, timeout: float = 600) -> str:
    """(Re)build one search bundle of the built site; returns Pagefind's summary.

    The bundle's folder is emptied first, so no fragment of an earlier index is left.
    Pagefind is a process of its own: a build starts a bundle as soon as its pages are
    written, while it renders the rest (`research_radar.site.build`).

    Raises:
        RenderError: Pagefind is not installed, failed, or took longer than `timeout`.
    """
    executable = _executable()
    shutil.rmtree(site / bundle, ignore_errors=True)
    return f"{bundle}: {_run(executable, site, bundle, timeout)}"


def index_site(
    site: Path, bundles: Iterable[str] = (PAGEFIND_DIR,), *, timeout: float = 600
) -> str:
    """(Re)build some search bundles of the built site; returns Pagefind's summaries.

    Raises:
        RenderError: Pagefind is not installed, failed, or took longer than `timeout`.
    """
    _executable()

    def index(bundle: str) -> str:
        return index_bundle(site, bundle, timeout=timeout)

    # two bundles at a time (a new day's two, a fresh build's projects beside the reports)
    with ThreadPoolExecutor(max_workers=2) as pool:
        return "; ".join(pool.map(index, bundles))


def _run(executable: Path, site: Path, bundle: str, timeout: float) -> str:
    command = [
        str(executable),
        "--site",
        str(site),
        "--glob",
        bundle_glob(bundle),
        "--output-subdir",
        bundle,
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


class EarlyIndex:
    """Search bundles indexed while the rest of the site renders.

    The pages come in bundle order (the projects, then a year's reports, then the next
    year's), so once the last page of a bundle is written Pagefind, a process of its
    own, can index it beside the render workers. A bundle is started only when its pages
    changed or it was never built; one whose pages turn up again later, or lose a page
    when stale pages are removed, is indexed again after the build (`build_site`).
    """

    def __init__(self, out: Path, enabled: bool):
        self.out = out
        self.enabled = enabled and pagefind_executable() is not None
        self.pool: ThreadPoolExecutor | None = None
        self.started: dict[str, Future[str]] = {}
        self.closed: set[str] = set()
        self.reopened: set[str] = set()

    def page(self, bundle: str | None) -> None:
        """A page of `bundle` comes next (None: a page no bundle indexes)."""
        if bundle is not None and bundle in self.closed:
            self.reopened.add(bundle)

    def ready(self, bundle: str, changed: bool) -> None:
        """Every page of `bundle` is written; `changed`: one of them changed."""
        self.closed.add(bundle)
        if not self.enabled or not (changed or not (self.out / bundle / "pagefind.js").is_file()):
            return
        if self.pool is None:
            self.pool = ThreadPoolExecutor(max_workers=2)
        self.started[bundle] = self.pool.submit(index_bundle, self.out, bundle)

    def finish(self) -> dict[str, str]:
        """Wait for the bundles started; their summaries by bundle.

        Raises:
            RenderError: Pagefind failed on one of them.
        """
        try:
            return {bundle: future.result() for bundle, future in self.started.items()}
        finally:
            self.close()

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None


def stale_bundles(out: Path, files: dict[str, str], changed: set[str]) -> list[str]:
    """The search bundles to rebuild: those with a changed page or not built yet.

    The folder of a year's reports that no longer has any is removed.
    """
    wanted = {PAGEFIND_DIR} | {b for b in map(search_bundle, files) if b is not None}
    reports = out / REPORTS_DIR
    if reports.is_dir():
        for folder in reports.iterdir():
            if f"{REPORTS_DIR}/{folder.name}" not in wanted:
                shutil.rmtree(folder, ignore_errors=True)
    return sorted(
        bundle
        for bundle in wanted
        if bundle in changed or not (out / bundle / "pagefind.js").is_file()
    )
