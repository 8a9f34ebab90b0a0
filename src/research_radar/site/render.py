"""Render the pages whose inputs changed, in worker processes once there are many, and
hand them back in order (pure but for the processes)."""

from __future__ import annotations

import gc
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor

from research_radar.classify.model import Taxonomy
from research_radar.errors import RenderError
from research_radar.site.data import SiteData
from research_radar.site.page import Page, Rendered, render_batch
from research_radar.site.pages import PAGE_SIZE, Progress, render_pages
from research_radar.site.search import EarlyIndex, search_bundle

__all__ = ["BATCH", "render_changed"]

BATCH = 128
"""Pages per task sent to a worker process; worker processes start only once twice as
many pages wait to be rendered."""


def _start_worker() -> None:
    """A worker forked while the build pauses the cyclic collector (`paused_gc`) collects
    its own garbage, but never walks what it inherited (issue #18)."""
    gc.freeze()
    gc.enable()


def render_changed(
    data: SiteData,
    taxonomy: Taxonomy,
    processes: int,
    progress: Progress | None,
    unchanged: Callable[[Page], bool],
    write_pages: Callable[[list[Page], Rendered], None],
    early: EarlyIndex,
    bundle_done: Callable[[str], None],
    *,
    batch: int = BATCH,
    page_size: int = PAGE_SIZE,
) -> int:
    """Render every page `unchanged` refuses, in worker processes once there are many;
    returns how many pages the site has.

    Pages are written in the order they come; `bundle_done` hears of a search bundle once
    the pages after its last one have come and all of its own are written.
    """
    pending: list[Page] = []
    running: deque[tuple[list[Page], Future[Rendered]]] = deque()
    pool: ProcessPoolExecutor | None = None
    waiting: deque[int] = deque()
    """Numbers of the pages not written yet, in order."""
    closed: deque[tuple[int, str]] = deque()
    """(number of the first page after it, bundle), in order."""

    def announce() -> None:
        while closed and (not waiting or waiting[0] >= closed[0][0]):
            bundle_done(closed.popleft()[1])

    def written(pages: list[Page], rendered: Rendered) -> None:
        write_pages(pages, rendered)
        for _ in pages:
            waiting.popleft()
        announce()

    def collect(until: int) -> None:
        while len(running) > until:
            pages, future = running.popleft()
            try:
                rendered = future.result()
            except RenderError:
                raise
            except Exception as exc:  # a worker died or could not pickle a page
                raise RenderError(f"cannot render the site's pages: {exc}") from exc
            written(pages, rendered)

    pages_seen = 0
    try:
        page: Page
        current: str | None = None
        for number, page in enumerate(
            render_pages(data, taxonomy, progress=progress, page_size=page_size)
        ):
            pages_seen += 1
            bundle = search_bundle(page.path)
            if bundle != current:
                if current is not None:
                    closed.append((number, current))
                    announce()
                early.page(bundle)
                current = bundle
            if unchanged(page):
                continue
            pending.append(page)
            waiting.append(number)
            if pool is not None and page.render_here:
                # rendered here: sending it to a worker and its HTML back costs more
                if len(pending) > 1:
                    running.append((pending[:-1], pool.submit(render_batch, pending[:-1])))
                done: Future[Rendered] = Future()
                done.set_result(render_batch(pending[-1:]))
                running.append((pending[-1:], done))
                pending = []
                collect(2 * processes)
            elif processes > 1 and (pool is not None or len(pending) >= 2 * batch):
                if pool is None:
                    pool = ProcessPoolExecutor(max_workers=processes, initializer=_start_worker)
                while len(pending) >= batch:
                    task, pending = pending[:batch], pending[batch:]
                    running.append((task, pool.submit(render_batch, task)))
                    collect(2 * processes)
        if current is not None:
            closed.append((pages_seen, current))
        if pool is not None and pending:
            running.append((pending, pool.submit(render_batch, pending)))
            pending = []
        collect(0)
        if pending:
            written(pending, render_batch(pending))
        announce()
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    return pages_seen
