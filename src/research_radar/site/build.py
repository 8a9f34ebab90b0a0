"""Write the site into a folder, touching only pages whose content changed.

A manifest (`.radar-site.json`) records every file the build wrote and its hash: a
rebuild rewrites only changed files, removes files it made earlier that no longer
exist (a withheld finding's page, say) and never touches anything else in the folder.
The search index is rebuilt only when an indexed page changed.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import jinja2

from research_radar.classify.model import Taxonomy
from research_radar.errors import RenderError
from research_radar.report.templates import environment
from research_radar.site.data import SiteData
from research_radar.site.pages import Page, render_pages
from research_radar.site.search import PAGEFIND_DIR, index_site

__all__ = ["MANIFEST", "SiteResult", "build_site"]

MANIFEST = ".radar-site.json"

Progress = Callable[[str, int], None]


@dataclass
class SiteResult:
    """What a build did."""

    out: Path
    pages: int = 0
    written: int = 0
    unchanged: int = 0
    removed: int = 0
    indexed: bool = False
    search: str = ""
    withheld_findings: int = 0
    withheld_reports: int = 0
    seconds: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        return {
            "out": str(self.out),
            "pages": self.pages,
            "written": self.written,
            "unchanged": self.unchanged,
            "removed": self.removed,
            "indexed": self.indexed,
            "search": self.search,
            "withheld_findings": self.withheld_findings,
            "withheld_reports": self.withheld_reports,
            "seconds": {k: round(v, 3) for k, v in self.seconds.items()},
        }


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _assets() -> list[tuple[str, bytes]]:
    try:
        css = environment().get_template("site/site.css.j2").render()
    except jinja2.TemplateError as exc:
        raise RenderError(f"cannot render the site's stylesheet: {exc}") from exc
    script = resources.files("research_radar.site").joinpath("assets/site.js").read_bytes()
    return [("assets/site.css", css.encode("utf-8")), ("assets/site.js", script)]


def _read_manifest(out: Path) -> dict[str, str]:
    try:
        data = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    files = data.get("files") if isinstance(data, dict) else None
    return {str(k): str(v) for k, v in files.items()} if isinstance(files, dict) else {}


def build_site(
    data: SiteData,
    taxonomy: Taxonomy,
    out: Path,
    *,
    search: bool = True,
    progress: Progress | None = None,
) -> SiteResult:
    """Build (or update) the static site in `out`.

    Args:
        data: the public-only site data (`load_site_data`).
        taxonomy: labels of the dimensions and values.
        out: the site folder (created when missing).
        search: also build the Pagefind search index.
        progress: called with a step name and a count as the build goes.

    Raises:
        RenderError: a page cannot be rendered or written, or Pagefind fails.
    """
    started = time.perf_counter()
    result = SiteResult(
        out=out,
        withheld_findings=data.withheld_findings,
        withheld_reports=len(data.withheld_reports),
    )
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RenderError(f"cannot create the site folder {out}: {exc}") from exc
    before = _read_manifest(out)
    after: dict[str, str] = {}
    indexed_changed = False

    def write(path: str, content: bytes, *, indexed: bool) -> None:
        nonlocal indexed_changed
        digest = _digest(content)
        after[path] = digest
        target = out / path
        if before.get(path) == digest and target.is_file():
            result.unchanged += 1
            return
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
        except OSError as exc:
            raise RenderError(f"cannot write {target}: {exc}") from exc
        result.written += 1
        indexed_changed = indexed_changed or indexed

    for path, content in _assets():
        write(path, content, indexed=False)
    page: Page
    for page in render_pages(data, taxonomy, progress=progress):
        write(page.path, page.html.encode("utf-8"), indexed="data-pagefind-body" in page.html)
        result.pages += 1
    for path in sorted(set(before) - set(after)):
        try:
            (out / path).unlink(missing_ok=True)
        except OSError as exc:
            raise RenderError(f"cannot remove the stale page {out / path}: {exc}") from exc
        result.removed += 1
        indexed_changed = True
    try:
        (out / MANIFEST).write_text(
            json.dumps({"files": after}, indent=0, sort_keys=True), encoding="utf-8"
        )
    except OSError as exc:
        raise RenderError(f"cannot write {out / MANIFEST}: {exc}") from exc
    result.seconds["pages"] = time.perf_counter() - started
    if search and (indexed_changed or not (out / PAGEFIND_DIR / "pagefind.js").is_file()):
        if progress is not None:
            progress("search index", result.pages)
        begun = time.perf_counter()
        result.search = index_site(out)
        result.indexed = True
        result.seconds["search"] = time.perf_counter() - begun
    result.seconds["total"] = time.perf_counter() - started
    return result
