"""Write the site into a folder, rendering and touching only pages whose inputs changed.

A manifest (`.radar-site.json`) records every file the build wrote, its hash and the
fingerprint of the page's inputs: a rebuild renders only pages whose fingerprint
changed (or whose file is gone), rewrites only changed files, removes files it made
earlier that no longer exist (a withheld finding's page, say) and never touches anything
else in the folder. When the site data, the taxonomy and the code hash as they did at
the last build and its files are all there, nothing is rendered at all: an unchanged
rebuild costs the store read. Many pages to render are rendered in a process pool. A search
bundle is rebuilt only when one of its pages changed (`research_radar.site.search`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import jinja2

from research_radar.classify.model import Taxonomy
from research_radar.errors import RenderError
from research_radar.report.templates import environment
from research_radar.site.bodies import BodyCache
from research_radar.site.data import SiteData, paused_gc
from research_radar.site.page import CODE_VERSION, Page, Rendered
from research_radar.site.pages import PAGE_SIZE, Progress
from research_radar.site.render import BATCH, render_changed
from research_radar.site.search import (
    EarlyIndex,
    index_bundle,
    search_bundle,
    stale_bundles,
)

__all__ = ["MANIFEST", "SiteResult", "build_site"]

MANIFEST = ".radar-site.json"


@dataclass
class SiteResult:
    """What a build did."""

    out: Path
    pages: int = 0
    written: int = 0
    rendered: int = 0
    unchanged: int = 0
    removed: int = 0
    indexed: bool = False
    search: str = ""
    withheld_findings: int = 0
    withheld_reports: int = 0
    bodies: int = 0
    """Report bodies rendered: neither stored with the report by this renderer nor kept
    by an earlier build (`research_radar.site.bodies`)."""
    seconds: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        return {
            "out": str(self.out),
            "pages": self.pages,
            "written": self.written,
            "rendered": self.rendered,
            "unchanged": self.unchanged,
            "removed": self.removed,
            "indexed": self.indexed,
            "search": self.search,
            "withheld_findings": self.withheld_findings,
            "withheld_reports": self.withheld_reports,
            "bodies": self.bodies,
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


@dataclass
class _Manifest:
    """What the last build left: its files, their pages' inputs, the key of all inputs."""

    files: dict[str, str] = field(default_factory=dict)
    """Path -> hash of the file."""
    inputs: dict[str, str] = field(default_factory=dict)
    """Path -> fingerprint of the page's inputs."""
    key: str = ""
    """A hash of the site data, the taxonomy and the code ("": not known)."""
    pages: int = 0


def _read_manifest(out: Path) -> _Manifest:
    try:
        data = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return _Manifest()
    if not isinstance(data, dict):
        return _Manifest()
    files, inputs, pages = data.get("files"), data.get("inputs"), data.get("pages")
    return _Manifest(
        {str(k): str(v) for k, v in files.items()} if isinstance(files, dict) else {},
        {str(k): str(v) for k, v in inputs.items()} if isinstance(inputs, dict) else {},
        str(data.get("key") or ""),
        pages if isinstance(pages, int) else 0,
    )


def _inputs_key(data: SiteData, taxonomy: Taxonomy) -> str:
    """A hash of everything the pages are made of; "" when the data's hash is unknown."""
    if not data.digest:
        return ""
    text = f"{data.digest}\n{CODE_VERSION}\n{taxonomy!r}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _workers(requested: int | None) -> int:
    if requested is not None:
        return max(1, requested)
    return max(
        1,
        min(
            len(os.sched_getaffinity(0))
            if hasattr(os, "sched_getaffinity")
            else (os.cpu_count() or 1),
            4,
        ),
    )


def build_site(
    data: SiteData,
    taxonomy: Taxonomy,
    out: Path,
    *,
    search: bool = True,
    workers: int | None = None,
    progress: Progress | None = None,
    batch: int = BATCH,
    page_size: int = PAGE_SIZE,
) -> SiteResult:
    """Build (or update) the static site in `out`.

    Args:
        data: the public-only site data (`load_site_data`).
        taxonomy: labels of the dimensions and values.
        out: the site folder (created when missing).
        search: also build the Pagefind search index.
        workers: processes that render pages (default: the usable cores, at most 4);
            1 renders in this process.
        progress: called with a step name and a count as the build goes.
        batch: pages per task sent to a worker process.
        page_size: rows on one page of a family or dimension value.

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
    key = _inputs_key(data, taxonomy)
    if key and page_size != PAGE_SIZE:  # other pages from the same data
        key += f"/{page_size}"
    early = EarlyIndex(out, search)
    if key and key == before.key and all((out / path).is_file() for path in before.files):
        # the same inputs as last time and every file still there: nothing to render
        result.pages, result.unchanged = before.pages, len(before.files)
        after, changed_bundles, removed_from = before.files, set[str](), set[str]()
    else:
        try:
            with paused_gc():
                after, changed_bundles, removed_from = _write_site(
                    data,
                    taxonomy,
                    out,
                    before,
                    key,
                    result,
                    _workers(workers),
                    progress,
                    early,
                    batch=batch,
                    page_size=page_size,
                )
        except BaseException:
            early.close()
            raise
    result.seconds["pages"] = time.perf_counter() - started
    if search:
        begun = time.perf_counter()
        summaries = early.finish()
        # a bundle indexed early is done unless a page of it came again or was removed
        redo = changed_bundles - (set(summaries) - early.reopened - removed_from)
        bundles = stale_bundles(out, after, redo)
        if bundles:
            if progress is not None:
                progress("search index", result.pages)
            with ThreadPoolExecutor(max_workers=2) as pool:
                summaries.update(
                    zip(bundles, pool.map(lambda b: index_bundle(out, b), bundles), strict=True)
                )
        if summaries:
            result.search = "; ".join(summaries[bundle] for bundle in sorted(summaries))
            result.indexed = True
            result.seconds["search"] = time.perf_counter() - begun
    result.seconds["total"] = time.perf_counter() - started
    return result


def _write_site(
    data: SiteData,
    taxonomy: Taxonomy,
    out: Path,
    before: _Manifest,
    key: str,
    result: SiteResult,
    processes: int,
    progress: Progress | None,
    early: EarlyIndex,
    *,
    batch: int,
    page_size: int,
) -> tuple[dict[str, str], set[str], set[str]]:
    """Render and write what changed, remove what is gone, write the manifest.

    Returns the site's files (path -> hash), the search bundles whose pages changed and
    those of them that lost a page.
    """
    after: dict[str, str] = {}
    inputs: dict[str, str] = {}
    changed_bundles: set[str] = set()
    removed_from: set[str] = set()

    folders: set[Path] = set()
    """Folders made (or found) already."""

    def write(path: str, content: bytes) -> None:
        digest = _digest(content)
        after[path] = digest
        target = out / path
        if before.files.get(path) == digest and target.is_file():
            result.unchanged += 1
            return
        try:
            if target.parent not in folders:
                target.parent.mkdir(parents=True, exist_ok=True)
                folders.add(target.parent)
            target.write_bytes(content)
        except OSError as exc:
            raise RenderError(f"cannot write {target}: {exc}") from exc
        result.written += 1
        bundle = search_bundle(path)
        if bundle is not None:
            changed_bundles.add(bundle)

    # a report body not stored with its report is rendered once, then kept in the site
    # folder: the store is never written (issue #18)
    bodies = BodyCache(out)
    unstored = [markdown for day, markdown in data.reports.items() if day not in data.bodies]
    kept = bodies.load(unstored)
    if kept:
        data = dataclasses.replace(
            data,
            bodies={
                **data.bodies,
                **{
                    day: kept[md]
                    for day, md in data.reports.items()
                    if md in kept and day not in data.bodies
                },
            },
        )

    def write_pages(pages: list[Page], rendered: Rendered) -> None:
        htmls, fresh = rendered
        for markdown, body in fresh:
            bodies.save(markdown, body)
        for page, html in zip(pages, htmls, strict=True):
            write(page.path, html.encode("utf-8"))
            inputs[page.path] = page.fingerprint
        result.rendered += len(pages)

    for path, content in _assets():
        write(path, content)

    def unchanged(page: Page) -> bool:
        digest = before.files.get(page.path)
        if (
            digest is None
            or before.inputs.get(page.path) != page.fingerprint
            or not (out / page.path).is_file()
        ):
            return False
        after[page.path] = digest
        inputs[page.path] = page.fingerprint
        result.unchanged += 1
        return True

    def bundle_done(bundle: str) -> None:
        early.ready(bundle, bundle in changed_bundles)

    result.pages = render_changed(
        data,
        taxonomy,
        processes,
        progress,
        unchanged,
        write_pages,
        early,
        bundle_done,
        batch=batch,
        page_size=page_size,
    )
    bodies.prune(unstored)
    result.bodies = bodies.saved
    for path in sorted(set(before.files) - set(after)):
        try:
            (out / path).unlink(missing_ok=True)
        except OSError as exc:
            raise RenderError(f"cannot remove the stale page {out / path}: {exc}") from exc
        result.removed += 1
        bundle = search_bundle(path)
        if bundle is not None:
            changed_bundles.add(bundle)
            removed_from.add(bundle)
    manifest = {"files": after, "inputs": inputs, "key": key, "pages": result.pages}
    try:
        (out / MANIFEST).write_text(
            json.dumps(manifest, indent=0, sort_keys=True), encoding="utf-8"
        )
    except OSError as exc:
        raise RenderError(f"cannot write {out / MANIFEST}: {exc}") from exc
    return after, changed_bundles, removed_from
