"""The daily pipeline: collect → resolve → extract → classify → decide → map → assess →
compose → review → publish.

`map` runs before `assess` (DESIGN.md draws them the other way round) because the value
gate of `assess` weighs the host touch points that `map` finds.

Each stage is a function of `pipeline.stages` (up to the kept findings), of
`pipeline.assess_stages` (map and assess) or of `pipeline.report_stages` (the report and
what becomes of it); this module only runs them in order, records every run and stage in
the store (start, end, counts, errors per source) and writes the report files. A crash mid-run leaves the store as the last
finished stage left it; running again finishes the work without duplicates, and a second
run on the same day writes the same report (the cut-off of the first run is kept).

What runs where, on a large day (from `cores.FORK_MIN` items; on a machine that cannot
fork, all of it runs here, with the same result):
- collect: this process fetches the first half of a long list of repositories and a
  forked one the second (`collect.forked`); then this one writes what was found.
- from the moment a long list is fetched, a forked process reads it ahead: the claims
  and the classification of each text, chunk after chunk (`pipeline.ahead`), while this
  one writes the list and resolves projects; the extract stage takes over the chunks it
  has not reached, from the back, until the two meet, reads back what the forked one
  sent (JSON) and writes the claims.
- classify: what was not classified ahead (a large batch half in a forked process).
- decide, map: this process (the snapshots extract read are looked up, not read again).
- assess: the live arXiv search in a forked process while this one finds families.
- compose, review: the report's HTML body, page and exports in forked processes while
  this one writes the findings and reviews the report (`pipeline.outputs`).
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import Any

from research_radar.classify.profile import load_taxonomy
from research_radar.config import Settings
from research_radar.models import BEIJING, Report
from research_radar.pipeline.ahead import ReadAhead
from research_radar.pipeline.analyst import llm_run
from research_radar.pipeline.assess_stages import assess_stage, map_stage
from research_radar.pipeline.outputs import ReportFiles
from research_radar.pipeline.report_stages import (
    compose_stage,
    publish_stage,
    refuse_stage,
    review_stage,
)
from research_radar.pipeline.stages import (
    Held,
    Progress,
    StageRecorder,
    classify_stage,
    collect_stage,
    decide_stage,
    extract_stage,
    resolve_stage,
)
from research_radar.resolve.keys import github_key
from research_radar.store import journal
from research_radar.store.store import Store

__all__ = [
    "FUTURE_SLACK",
    "STAGES",
    "DailyResult",
    "day_refusal",
    "default_cutoff",
    "publish_refusal",
    "run_daily",
]

STAGES = (
    "collect",
    "resolve",
    "extract",
    "classify",
    "decide",
    "map",
    "assess",
    "compose",
    "review",
    "publish",
)


@dataclass
class DailyResult:
    report: Report
    markdown: str
    path: Path | None
    run_id: int
    counts: dict[str, dict[str, Any]] = field(default_factory=dict)
    health: dict[str, str] = field(default_factory=dict)
    review: Any = None
    blocking: int = 0
    published: Any = None
    refused: str | None = None
    """Why publishing was refused, when it was asked for and refused."""
    files: list[Path] = field(default_factory=list)
    """The report and, beside it, its HTML page and the CSV/XLSX exports."""

    @property
    def kept_from_earlier_run(self) -> int:
        """Findings an earlier run of the same day reported that this run kept in the
        report without weighing them again (0 on a day's first run)."""
        return int(self.counts.get("compose", {}).get("kept_from_earlier_run", 0))


def default_cutoff(day: date) -> datetime:
    """08:30 Beijing time on `day`: the house cut-off of a morning report."""
    return datetime.combine(day, time(8, 30), tzinfo=BEIJING)


def publish_refusal(blocking: int, health: dict[str, str]) -> str | None:
    """Why a report must not be posted: its own review blocks it, or no source worked."""
    if blocking:
        return f"the report's own review found {blocking} blocking problem(s); see `radar review`"
    if health and all(state.startswith(("failed", "stale")) for state in health.values()):
        return "every source failed, so the report says nothing reliable; see `radar runs`"
    return None


FUTURE_SLACK = timedelta(days=1)
"""How far past today (Beijing) a report date may be: a morning run ahead of a time zone."""


def day_refusal(store: Store, day: date, today: date) -> str | None:
    """Why a report date is probably a mistake, or None when it is plausible.

    A date more than a day after `today`, or before the store's first report, would put
    findings where later runs read them as history; the CLI refuses it unless --force.
    """
    if day > today + FUTURE_SLACK:
        return (
            f"{day.isoformat()} is more than a day after today ({today.isoformat()}, Beijing); "
            "check --date, or add --force"
        )
    first = store.first_report_day()
    if first is not None and day < first:
        return (
            f"{day.isoformat()} is before this store's first report ({first.isoformat()}): "
            "findings on it would count as history for every later run; check --date, or add "
            "--force (a mistaken run can be removed with `radar runs undo RUN_ID`)"
        )
    return None


def _kept_cutoff(store: Store, day: date, language: str) -> datetime | None:
    """The cut-off of an earlier run the same day, so a re-run writes the same report."""
    kept = store.load_report_data(day, language)
    value = kept.get("cutoff") if kept else None
    return datetime.fromisoformat(value) if value else None


def run_daily(
    store: Store,
    settings: Settings,
    *,
    day: date,
    since: datetime | None = None,
    out: Path | None = None,
    cutoff: datetime | None = None,
    publish: bool = False,
    confirm: bool = False,
    force: bool = False,
    progress: Progress | None = None,
    label: str = "daily",
) -> DailyResult:
    """Run every stage for `day` and write the report. See the module docstring.

    Args:
        since: start of the collection window; default where the last window ended, less
            the 24-hour overlap (at most 14 days back).
        out: the report file; default `reports_dir/YYYY-MM-DD.md`.
        cutoff: the report's cut-off; default the first run's of the day, else 08:30 Beijing.
        publish, confirm: post the report (a dry run unless `confirm`).
        force: post even when `publish_refusal` gives a reason not to.
        label: how the run is named in the store (`radar runs`).
    """
    waiting = (
        (lambda: progress("waiting for another run on this store", "wait")) if progress else None
    )
    with store.exclusive(waiting=waiting), _settling() as settle:
        return _run_daily(
            store,
            settings,
            day=day,
            since=since,
            out=out,
            cutoff=cutoff,
            publish=publish,
            confirm=confirm,
            force=force,
            progress=progress,
            label=label,
            settle=settle,
        )


_YOUNG = 10_000
"""Allocations between two collections of the young generation during a run (Python's
default: 700), as the `radar` command sets for its whole process."""


@contextmanager
def _settling() -> Iterator[Callable[[], object]]:
    """A function to call after each stage: it leaves what the run holds so far out of the
    garbage collector's later passes (`gc.freeze`).

    What a stage leaves (sources, claims, findings) mostly lives to the end of the run, and
    a full collection walked all of it again during each later stage: about a fifth of the
    CPU of the stages after collect over 10,000 candidates (#19). On leaving, the run's
    objects are handed back to the collector, unless the process had frozen objects of
    its own before (the `radar` command does: it keeps everything to its end).
    """
    frozen_before = gc.get_freeze_count() > 0
    thresholds = gc.get_threshold()
    gc.set_threshold(max(thresholds[0], _YOUNG), *thresholds[1:])
    try:
        yield gc.freeze
    finally:
        gc.set_threshold(*thresholds)
        if not frozen_before:
            gc.unfreeze()


def _run_daily(
    store: Store,
    settings: Settings,
    *,
    day: date,
    since: datetime | None,
    out: Path | None,
    cutoff: datetime | None,
    publish: bool,
    confirm: bool,
    force: bool,
    progress: Progress | None,
    label: str,
    settle: Callable[[], object] | None = None,
) -> DailyResult:
    published: Any = None
    refused: str | None = None
    language = settings.language
    cutoff = cutoff or _kept_cutoff(store, day, language) or default_cutoff(day)
    run_id = store.start_run(label)
    before = journal.mark(store)
    run = StageRecorder(store, run_id, progress, settle)
    try:
        taxonomy = load_taxonomy(settings.profile)
        # the claims and classifications of a long list are read by a forked process
        # while collect writes it and resolve runs; extract takes over what is left (#19)
        with ReadAhead(taxonomy) as ahead:
            covered, touched = collect_stage(
                run, store, settings, cutoff, taxonomy, since, on_found=ahead.found
            )
            projects, sources = resolve_stage(run, store, settings)
            extracted = extract_stage(run, store, projects, touched, ahead, sources)
        host_key = github_key(settings.host_repo) if settings.host_repo else None
        candidates = classify_stage(run, extracted, projects, taxonomy, day, host_key, touched)
        # the sources and projects resolve read and wrote, and the snapshots extract read,
        # looked up by the later stages
        held = Held({s.key: s for s in sources}, {p.key: p for p in projects}, extracted.read)
        kept, prior, excluded = decide_stage(run, store, settings, candidates, day, held)
        host, mapped = map_stage(run, store, settings, kept)
        with llm_run(settings) as llm:
            assessed, prior = assess_stage(
                run,
                store,
                mapped,
                prior,
                cutoff,
                day,
                covered.sources,
                settings=settings,
                llm=llm,
                held=held,
            )
        # a large report's export and HTML body are built by forked processes from the
        # moment the report is composed, while this one saves and reviews it (#19)
        with ReportFiles(taxonomy) as written:
            report, markdown, body = compose_stage(
                run,
                store,
                assessed,
                prior,
                cutoff=cutoff,
                host=host,
                taxonomy=taxonomy,
                language=language,
                coverage=covered.model_copy(update={"excluded": excluded}),
                on_report=written.started,
                body_of=written.body,
            )
            path = out or settings.reports_dir / f"{day.isoformat()}.md"
            files, (review_result, blocking) = written.beside_review(
                path,
                report,
                markdown,
                body,
                lambda: review_stage(run, store, report, markdown, prior, host),
            )
        refused = publish_refusal(blocking, covered.sources) if publish and not force else None
        if refused:
            refuse_stage(run, refused)
        elif publish:
            published = publish_stage(run, store, settings, report, markdown, confirm)
    except BaseException as exc:
        status = "interrupted" if isinstance(exc, KeyboardInterrupt | SystemExit) else "failed"
        error = f"{type(exc).__name__}: {exc}"
        added = journal.added(store, before)
        store.end_run(run_id, status, {"error": error, "stages": run.counts, "added": added})
        raise
    added = journal.added(store, before)
    store.end_run(run_id, "ok", {"stages": run.counts, "added": added})
    return DailyResult(
        report=report,
        markdown=markdown,
        path=path,
        run_id=run_id,
        counts=run.counts,
        health=covered.sources,
        review=review_result,
        blocking=blocking,
        published=published,
        refused=refused,
        files=files,
    )
