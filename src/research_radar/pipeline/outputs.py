"""The report's files: its Markdown, its HTML page and the CSV/XLSX of its findings.

Writing a large report's files took longer than reviewing it, and the run waited for them
at its end: the XLSX export above all (#19). Now the export is built in a forked process
from the moment the report is composed, while this process saves the findings and reviews
the report, and it is written with the other files once the review is done. The HTML
body the store keeps beside the report is rendered so too, from the moment its Markdown
is, and saved once the review is done (`body`). A small report's files are written as
before: then the review.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import ExitStack
from functools import partial
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, TypeVar

from research_radar.classify.model import Taxonomy
from research_radar.cores import FORK_MIN, aside, beside, can_fork
from research_radar.errors import RenderError
from research_radar.models import Report

if TYPE_CHECKING:  # the export's libraries are imported when a report is written
    from research_radar.publish.export import Export

__all__ = ["ReportFiles", "write_report_files"]

Other = TypeVar("Other")


def write_report_files(
    path: Path, report: Report, markdown: str, stored: dict[str, str], export: Export
) -> list[Path]:
    """Write the report, its HTML page (from the HTML body the store keeps, `stored`) and
    the CSV/XLSX of its findings (`export`) side by side."""
    from research_radar.publish.export import save_export
    from research_radar.report.html import render_html, reuse_body

    page = path.with_suffix(".html")
    title = f"Research Radar {report.date.isoformat()}"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(markdown, encoding="utf-8")
        body = reuse_body(markdown, stored)
        page.write_text(render_html(markdown, title=title, body=body), encoding="utf-8")
    except OSError as exc:
        where = exc.filename or path
        raise RenderError(
            f"cannot write the report to {where}: {exc.strerror or exc}; check --out "
            "(the findings are stored: running again finishes the work)"
        ) from exc
    exports = save_export(export, path.parent, stem=path.stem)
    return [path, page, *exports]


class ReportFiles:
    """The report's files, their export and HTML body started ahead for a large report.

    `started` is the compose stage's `on_report` and `body` its `body_of`;
    `beside_review` writes the files and reviews the report. Use as a context manager
    around both: leaving the block ends the forked processes.
    """

    def __init__(self, taxonomy: Taxonomy) -> None:
        self._taxonomy = taxonomy
        self._stack = ExitStack()
        self._export: Callable[[], Export] | None = None
        self._large = False
        """A large report (`started`): its export and HTML body are built by forks."""

    def _build(self, report: Report) -> Export:
        from research_radar.publish.export import build_export

        return build_export(report.findings, taxonomy=self._taxonomy, language=report.language)

    def body(self, markdown: str) -> Callable[[], dict[str, str]]:
        """Start rendering the stored HTML body of `markdown` (`report.html.stored_body`),
        in a forked process for a large report; a function waiting for it. The compose
        stage's `body_of`: the body is rendered while the report is saved and reviewed."""
        from research_radar.report.html import stored_body

        job = partial(stored_body, markdown)
        return self._stack.enter_context(aside(job, fork=self._large and can_fork()))

    def started(self, report: Report) -> None:
        """Start building the export of a large report in a forked process (before the
        compose stage's transaction opens)."""
        self._large = len(report.findings) >= FORK_MIN
        if self._large and can_fork():
            job = partial(self._build, report)
            self._export = self._stack.enter_context(aside(job, fork=True))

    def beside_review(
        self,
        path: Path,
        report: Report,
        markdown: str,
        stored: Callable[[], dict[str, str]],
        review: Callable[[], Other],
    ) -> tuple[list[Path], Other]:
        """`(files written, review())`. With the export started ahead, the review runs
        first and the files are written after it (the export has been built meanwhile);
        else as `cores.beside` runs them. Either way the files are written when the
        review fails, and an error of the writing is raised first. `stored()`: the
        stored HTML body (the compose stage's, saved once it is called)."""
        built = self._export

        def write() -> list[Path]:
            export = built() if built is not None else self._build(report)
            return write_report_files(path, report, markdown, stored(), export)

        if built is None:
            stored = partial(dict, stored())  # saved here, never by a forked `write`
            return beside(write, review, fork=len(report.findings) >= FORK_MIN)
        try:
            reviewed = review()
        except BaseException:
            write()
            raise
        return write(), reviewed

    def close(self) -> None:
        """End the forked processes (waiting for them: they build, and write nothing)."""
        self._export = None
        self._stack.close()

    def __enter__(self) -> ReportFiles:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()
