"""Site benchmark: time `radar site` on the sample store and on a generated store of
100,000 findings (the issue's bar: under 2 minutes), then an unchanged rebuild.

Run: .venv/bin/python benchmarks/site_bench.py [--findings N] [--no-search] [--keep DIR]

The generated store is deterministic (seeded): 100 findings a day over 1,000 days, on
20,000 projects in 4,000 mechanism families, each finding with tags on the six
dimensions and two performance claims under full conditions; one stored report per
day, saved with its HTML body as the daily saves it (a store made before that gets the
bodies added). It is made once in DIR (default: a temporary folder) and reused with --keep.
"""

from __future__ import annotations

import argparse
import random
import resource
import shutil
import sys
import tempfile
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from typer.testing import CliRunner

from research_radar.classify.profile import load_taxonomy
from research_radar.cli import app
from research_radar.models import (
    Claim,
    ClaimKind,
    Conditions,
    Finding,
    Metric,
    Novelty,
    Project,
    Recommendation,
    Report,
    Snapshot,
    Tag,
)
from research_radar.report.html import reuse_body, stored_body
from research_radar.report.markdown import render_markdown
from research_radar.site.build import build_site
from research_radar.site.data import load_site_data
from research_radar.store.schema import findings as findings_table
from research_radar.store.schema import projects as projects_table
from research_radar.store.store import Store, open_store

HARDWARE = ["H100", "H20", "A100", "RTX 4090", "RTX 5090", "MI300X", "Arc Pro B70", "L40S"]
MODELS = ["Qwen3-8B", "Llama-3.1-70B", "DeepSeek-V3", "gpt-oss-120b"]
PRECISIONS = ["FP8", "BF16", "NVFP4", "INT4"]
WORDS_ZH = [
    "键值缓存卸载",
    "投机解码",
    "算子融合",
    "连续批处理",
    "量化感知",
    "前缀缓存",
    "流水线并行",
]


def _finding(
    rng: random.Random,
    taxonomy_values: dict[str, list[str]],
    key: str,
    name: str,
    day: date,
    family: str,
) -> Finding:
    def pick(dimension: str, most: int = 1) -> list[Tag]:
        values = rng.sample(taxonomy_values[dimension], rng.randint(1, most))
        return [Tag(dimension=dimension, value=v) for v in values]

    claims = [
        Claim(
            kind=ClaimKind.PERFORMANCE,
            text=f"{metric} on {hardware}",
            metrics=[Metric(name=metric, value=round(rng.uniform(10, 4000), 1), unit="tok/s")],
            conditions=Conditions(
                hardware=[hardware],
                model=[rng.choice(MODELS)],
                precision=[rng.choice(PRECISIONS)],
                baseline=["vLLM"],
            ),
            where=f"{name}@{'a' * 40}:README.md#L{rng.randint(1, 300)}",
        )
        for metric, hardware in (
            ("decode", rng.choice(HARDWARE)),
            ("prefill", rng.choice(HARDWARE)),
        )
    ]
    return Finding(
        project_key=key,
        name=name,
        date=day,
        url=f"https://github.com/{name}",
        snapshot=Snapshot(
            source_key=key, version=f"{rng.getrandbits(160):040x}", url=f"https://github.com/{name}"
        ),
        novelty=rng.choice(list(Novelty)),
        mechanism=f"{name}: {rng.choice(WORDS_ZH)} and {rng.choice(['paged attention', 'kernel autotuning', 'chunked prefill'])} for {rng.choice(MODELS)}",
        tags={
            "workload": pick("workload"),
            "mechanism": pick("mechanism", 3),
            "system_level": pick("system_level"),
            "rsi_stage": pick("rsi_stage", 2),
        },
        claims=claims,
        maturity=rng.choice(taxonomy_values["maturity"]),
        recommendation=rng.choice(list(Recommendation)),
        relation=rng.choice(taxonomy_values["relation"]),
        family=family,
    )


def _store_bodies(store: Store) -> None:
    """Give the reports of a store generated before the daily kept their HTML bodies, or
    by an earlier version of the renderer, the body the daily saves now (the daily's
    cost, not the site's)."""
    started, missing = time.perf_counter(), 0
    for day, markdown, data in store.load_reports("zh"):
        if reuse_body(markdown, data.get("body")) is None:
            missing += 1
            with store.transaction() as conn:
                body = {"body": stored_body(markdown)}
                store.save_report(conn, day, "zh", markdown, {**data, **body})
    if missing:
        print(
            f"  stored the HTML body of {missing} reports ({time.perf_counter() - started:.0f}s)",
            file=sys.stderr,
        )


def generate(path: Path, total: int) -> Store:
    """A deterministic store of `total` findings (100 a day) with one report a day.

    Rows are inserted in bulk (the benchmark measures the site, not the writer); the
    reports are rendered by the real Markdown renderer.
    """
    store = open_store(str(path))
    if store.load_finding_rows():
        _store_bodies(store)
        return store
    rng = random.Random(18)
    taxonomy = load_taxonomy()
    values = {d.id: d.value_ids for d in taxonomy.dimensions}
    per_day = 100
    projects = max(1, total // 5)
    names = [f"org{i % 997}/engine-{i}" for i in range(projects)]
    keys = [f"gh:{name}" for name in names]
    families = [f"fam:{keys[i]}" for i in range(0, projects, 5)]
    start = date(2024, 1, 1)
    now = datetime.now(UTC)
    started = time.perf_counter()
    with store.transaction() as conn:
        conn.execute(
            projects_table.insert(),
            [
                {
                    "key": key,
                    "name": names[i],
                    "family": families[i // 5],
                    "derivative": False,
                    "data": Project(
                        key=key,
                        name=names[i],
                        aliases=[names[i]],
                        sources=[key],
                        family=families[i // 5],
                    ).model_dump(mode="json"),
                    "created_at": now,
                }
                for i, key in enumerate(keys)
            ],
        )
    for offset in range((total + per_day - 1) // per_day):
        day = start + timedelta(days=offset)
        found: dict[str, Finding] = {}
        while len(found) < min(per_day, total - offset * per_day):
            index = rng.randrange(projects)
            found[keys[index]] = _finding(
                rng, values, keys[index], names[index], day, families[index // 5]
            )
        report = Report(
            date=day,
            cutoff=datetime.combine(day, datetime.min.time(), UTC),
            findings=list(found.values()),
        )
        markdown = render_markdown(report, taxonomy)
        with store.transaction() as conn:
            conn.execute(
                findings_table.insert(),
                [
                    {
                        "project_key": f.project_key,
                        "date": day,
                        "origin": "radar",
                        "name": f.name,
                        "family": f.family,
                        "data": f.model_dump(mode="json"),
                        "created_at": now,
                    }
                    for f in found.values()
                ],
            )
            store.save_report(conn, day, "zh", markdown, {"body": stored_body(markdown)})
        if offset % 100 == 0:
            print(
                f"  generated {offset * per_day:,} findings ({time.perf_counter() - started:.0f}s)",
                file=sys.stderr,
            )
    return store


def _cpu() -> float:
    """CPU seconds of this process and its finished children (render workers, Pagefind)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _time_build(store: Store, out: Path, search: bool) -> tuple[float, dict[str, object]]:
    """Wall seconds of load + build, and the build's summary with its CPU seconds (on a
    shared machine the CPU time is the steadier number)."""
    started, cpu = time.perf_counter(), _cpu()
    data = load_site_data(store)
    loaded = time.perf_counter() - started
    result = build_site(data, load_taxonomy(), out, search=search)
    total = time.perf_counter() - started
    summary = result.to_dict()
    summary["seconds"] = {  # type: ignore[dict-item]
        "load": round(loaded, 2),
        **result.to_dict()["seconds"],  # type: ignore[dict-item]
        "cpu": round(_cpu() - cpu, 1),
    }
    return total, summary


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--findings", type=int, default=100_000)
    parser.add_argument("--no-search", action="store_true")
    parser.add_argument(
        "--keep", type=Path, help="Folder for the generated store and sites (reused)."
    )
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="site-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    search = not args.no_search

    sample_db = folder / "radar-sample.db"
    if not sample_db.exists():
        result = CliRunner().invoke(
            app, ["daily", "--sample", "--db", str(sample_db), "--out", str(folder / "sample.md")]
        )
        assert result.exit_code == 0, result.output
    shutil.rmtree(folder / "site-sample", ignore_errors=True)
    seconds, summary = _time_build(open_store(str(sample_db)), folder / "site-sample", search)
    print(f"sample: {summary['pages']} pages in {seconds:.2f}s  {summary['seconds']}")

    store = generate(folder / f"radar-{args.findings}.db", args.findings)
    out = folder / f"site-{args.findings}"
    shutil.rmtree(out, ignore_errors=True)  # a fresh build first, then an unchanged one
    seconds, summary = _time_build(store, out, search)
    print(
        f"{args.findings:,} findings: {summary['pages']} pages, {summary['written']} written in {seconds:.1f}s  {summary['seconds']}"
    )
    seconds, summary = _time_build(store, out, search)
    print(
        f"{args.findings:,} findings, unchanged rebuild: {summary['rendered']} rendered, {summary['written']} written, indexed={summary['indexed']} in {seconds:.1f}s  {summary['seconds']}"
    )
    # an incremental day: one more finding (a known project, the next day) and its report,
    # on a copy of the store so the generated one stays as it is
    copy = folder / f"radar-{args.findings}-next.db"
    shutil.copyfile(folder / f"radar-{args.findings}.db", copy)
    store = open_store(str(copy))
    latest = store.load_findings()[-1]
    day = latest.date + timedelta(days=1)
    finding = latest.model_copy(update={"date": day})
    report = Report(
        date=day,
        cutoff=datetime.combine(day, datetime.min.time(), UTC),
        findings=[finding],
    )
    with store.transaction() as conn:
        store.save_finding(conn, finding)
        markdown = render_markdown(report, load_taxonomy())
        store.save_report(conn, day, "zh", markdown, {"body": stored_body(markdown)})
    seconds, summary = _time_build(store, out, search)
    print(
        f"{args.findings:,} findings, one more day: {summary['rendered']} rendered, {summary['written']} written, {summary['removed']} removed, indexed={summary['indexed']} in {seconds:.1f}s  {summary['seconds']}"
    )
    copy.unlink(missing_ok=True)
    print(f"folder: {folder}")


if __name__ == "__main__":
    main()
