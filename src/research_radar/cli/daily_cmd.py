"""`radar daily` (the whole pipeline) and `radar runs` (what earlier runs did)."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from research_radar.config import Settings, store_folder
from research_radar.models import BEIJING
from research_radar.report.wording import recommendation_label

if TYPE_CHECKING:
    from research_radar.pipeline.run import DailyResult
    from research_radar.pipeline.stages import Progress as StageProgress
    from research_radar.store.store import Store

from research_radar.cli import loading
from research_radar.cli.common import (
    ConfigOption,
    DbOption,
    JsonOption,
    check_out_file,
    console,
    err_console,
    open_store_for,
    parse_day,
    print_json,
    sample_settings_for,
    settings_for,
)


def _report_day(value: str | None, sample: bool) -> date:
    """--date, else the sample's day with --sample, else today in Beijing."""
    if value is not None:
        return parse_day(value, "--date")
    if sample:
        from research_radar.sample.demo import SAMPLE_DATE

        return SAMPLE_DATE
    return datetime.now(BEIJING).date()


def _summary(result: DailyResult) -> dict[str, object]:
    return {
        "date": result.report.date.isoformat(),
        "report": str(result.path) if result.path else None,
        "files": [str(path) for path in result.files],
        "findings": [
            {
                "name": f.name,
                "key": f.project_key,
                "recommendation": f.recommendation.value,
                "novelty": f.novelty.value,
                "evidence": f.evidence_id,
            }
            for f in result.report.findings
        ],
        "health": result.health,
        "stages": result.counts,
        "kept_from_earlier_run": result.kept_from_earlier_run,
        "review_blocking": result.blocking,
        "published": result.published.to_dict() if result.published is not None else None,
        "refused": result.refused,
        "run_id": result.run_id,
    }


def _print_result(result: DailyResult) -> None:
    table = Table(title=f"{result.report.date} · {len(result.report.findings)} findings")
    for column in ("S", "project", "recommendation", "novelty", "priority"):
        table.add_column(column)
    for f in result.report.findings:
        table.add_row(
            f.evidence_id,
            f.name,
            recommendation_label(f.recommendation, result.report.language),
            f.novelty.value,
            f"{f.priority} {f.horizon}",
        )
    console.print(table)
    health = " · ".join(f"{name}: {state}" for name, state in sorted(result.health.items()))
    console.print(f"sources: {health or 'none'}")
    console.print(f"report written to [bold]{result.path}[/bold]")
    if result.kept_from_earlier_run:
        console.print(
            f"kept {result.kept_from_earlier_run} finding(s) of an earlier run today "
            "(not collected again this run)"
        )
    others = ", ".join(path.name for path in result.files[1:])
    if others:
        console.print(f"beside it: {others}")
    if result.blocking:
        console.print(
            f"[red]review found {result.blocking} blocking problem(s)[/red]; "
            f"see `radar review {result.path}`"
        )
    _print_publication(result)


def _print_publication(result: DailyResult) -> None:
    """What was (or, in a dry run, would be) posted, or why posting was refused."""
    if result.refused:
        console.print(f"[red]not published:[/red] {result.refused} (--force posts anyway)")
        return
    published = result.published
    if published is None:
        return
    verb = "would post" if published.dry_run else "posted"
    console.print(f"{verb} to {published.target}:")
    for part in published.parts:
        where = f" {part.url}" if part.url else ""
        console.print(
            f"  part {part.part}/{part.total}: {part.size} characters, {part.status}{where}"
        )
    for note in published.notes:
        console.print(f"  note: {note}")
    if published.dry_run:
        console.print("  (a dry run: add --yes to post)")


def daily(
    sample: Annotated[
        bool,
        typer.Option("--sample", help="Run offline on the bundled sample (no network, no token)."),
    ] = False,
    day: Annotated[
        str | None,
        typer.Option(
            "--date",
            help="Report date YYYY-MM-DD. [default: today in Beijing; the sample's day with --sample]",
        ),
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Report file. [default: reports/YYYY-MM-DD.md]")
    ] = None,
    publish: Annotated[
        bool,
        typer.Option(
            "--publish", help="Post the report to the index issue (dry run unless --yes)."
        ),
    ] = False,
    yes: Annotated[
        bool, typer.Option("--yes", help="Really post when --publish is given.")
    ] = False,
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="Post even when the report's own review blocks it or every source failed; "
            "accept a --date more than a day ahead or before the store's first report.",
        ),
    ] = False,
    db: DbOption = None,
    config: ConfigOption = None,
    json: JsonOption = False,
) -> None:
    """Run the whole pipeline and write today's report.

    Collects new repositories, papers and posts, recognises what was reported before,
    classifies and weighs each finding, maps it onto the host project and writes the
    report in house style. Exit code 1 when a source failed (the report is still written
    and says so) or the report's own review finds a blocking problem; then, or when every
    source failed, `--publish` posts nothing unless `--force`. A `--date` more than a day
    ahead, or before the store's first report, is refused (exit 2) unless `--force`.

    Example: radar daily --sample
    """
    check_out_file(out)
    with loading():  # the pipeline's modules (and the sample's), kept to the end (#19)
        settings = (
            sample_settings_for(config, db) if sample else settings_for(config, db, token=True)
        )
        from research_radar.pipeline.run import STAGES, day_refusal, run_daily
    when = _report_day(day, sample)
    if not sample and not settings.github_token:
        err_console.print(
            "[yellow]no GitHub token:[/yellow] unauthenticated requests are limited to 60 an "
            "hour; set GITHUB_TOKEN (or `gh auth login`), or try `radar daily --sample`"
        )
    store = open_store_for(settings)
    refusal = None if sample or force else day_refusal(store, when, datetime.now(BEIJING).date())
    if refusal:
        raise typer.BadParameter(refusal, param_hint="--date")
    with Progress(
        SpinnerColumn(),
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total} stages"),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=json,
    ) as bar:
        task = bar.add_task("daily", total=len(STAGES) - (0 if publish else 1))

        def progress(stage: str, state: str) -> None:
            bar.update(task, description=stage, advance=1 if state == "done" else 0)

        with store.exclusive(waiting=lambda: progress("waiting for another run", "wait")):
            result = (
                _run_sample(store, settings, when, out, progress)
                if sample
                else run_daily(
                    store,
                    settings,
                    day=when,
                    out=out,
                    publish=publish,
                    confirm=yes,
                    force=force,
                    progress=progress,
                )
            )
    if json:
        print_json(_summary(result))
    else:
        _print_result(result)
    failed = _failed_sources(result.health)
    if failed:
        err_console.print(
            f"[red]sources failed:[/red] {', '.join(failed)}; the report says it is incomplete "
            "(see `radar runs`)"
        )
    if result.blocking or result.refused or failed:
        raise typer.Exit(1)


def _failed_sources(health: dict[str, str]) -> list[str]:
    """Sources that failed (or are stale since an earlier good run): exit code 1."""
    return sorted(name for name, state in health.items() if state.startswith(("failed", "stale")))


def _run_sample(
    store: Store, settings: Settings, day: date, out: Path | None, progress: StageProgress
) -> DailyResult:
    """The pipeline on the bundled sample: served on loopback, with its earlier report."""
    from research_radar.pipeline.run import run_daily
    from research_radar.sample.demo import import_sample_history, open_sample

    import_sample_history(store)
    cache = store_folder(settings.db) / ".radar-cache"
    with open_sample(settings, cache_dir=cache) as sample:
        return run_daily(
            store,
            sample.settings,
            day=day,
            since=sample.since,
            out=out,
            progress=progress,
            label="daily --sample",
        )


def _when(value: object) -> str:
    return value.strftime("%Y-%m-%d %H:%M") if isinstance(value, datetime) else "—"


def _run_table(recorded: list[dict[str, Any]]) -> Table:
    """One row per stage of each run: status, counts and errors per source."""
    table = Table(title="Runs", title_justify="left")
    for column in (
        "run",
        "command",
        "status",
        "started",
        "stage",
        "stage status",
        "counts",
        "errors",
    ):
        table.add_column(column)
    for run in recorded:
        colour = {"ok": "green", "failed": "red", "interrupted": "red"}.get(run["status"], "yellow")
        head = [
            str(run["id"]),
            run["command"],
            f"[{colour}]{run['status']}[/]",
            _when(run["started_at"]),
        ]
        stages = run["stages"] or [{"stage": "—", "status": "", "counts": {}, "errors": {}}]
        for index, stage in enumerate(stages):
            counts = ", ".join(f"{k} {v}" for k, v in (stage["counts"] or {}).items())
            errors = "; ".join(f"{k}: {v}" for k, v in (stage["errors"] or {}).items())
            table.add_row(
                *(head if index == 0 else ["", "", "", ""]),
                stage["stage"],
                stage["status"],
                counts,
                errors,
                end_section=index == len(stages) - 1,
            )
    return table


def runs(
    ctx: typer.Context,
    limit: Annotated[int, typer.Option("--limit", help="How many runs to show.")] = 10,
    db: DbOption = None,
    config: ConfigOption = None,
    json: JsonOption = False,
) -> None:
    """Show recent runs: each stage's status, counts and errors per source.

    A run whose process was killed shows as interrupted. `radar runs undo RUN_ID` removes
    what a mistaken run added.

    Example: radar runs --limit 3
    """
    if ctx.invoked_subcommand is not None:
        return
    store = open_store_for(settings_for(config, db), create=False)
    recorded = store.load_runs(limit)
    if json:
        print_json(recorded)
        return
    if not recorded:
        console.print("no runs yet; `radar daily` records one")
        return
    console.print(_run_table(recorded))


def undo(
    run_id: Annotated[int, typer.Argument(help="The run to undo (its number in `radar runs`).")],
    db: DbOption = None,
    config: ConfigOption = None,
    json: JsonOption = False,
) -> None:
    """Remove exactly what one run added (findings, its report, sources, cursors it moved).

    Rows the run only updated, and everything other runs added, stay. The run is then
    shown as undone.

    Example: radar runs undo 12
    """
    from research_radar.store.journal import undo_run

    store = open_store_for(settings_for(config, db), create=False)
    result = undo_run(store, run_id)
    if json:
        print_json({"run_id": result.run_id, "removed": result.removed, "cursors": result.cursors})
        return
    removed = ", ".join(f"{n} {name}" for name, n in result.removed.items() if n) or "no rows"
    console.print(f"run {run_id} undone: removed {removed}; {result.cursors} cursor(s) put back")


def register(app: typer.Typer) -> None:
    """Add `daily`, `runs` and `runs undo`."""
    app.command()(daily)
    group = typer.Typer(no_args_is_help=False, invoke_without_command=True)
    group.callback(invoke_without_command=True)(runs)
    group.command("undo")(undo)
    app.add_typer(group, name="runs")
