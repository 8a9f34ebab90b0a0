"""How long `radar daily --sample` takes, stage by stage, on a first and a second run.

Run: .venv/bin/python benchmarks/daily_bench.py
Prints per-stage wall time (from the store's stage records) and the findings per second.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from research_radar.config import Settings
from research_radar.pipeline.run import run_daily
from research_radar.sample.demo import SAMPLE_DATE, import_sample_history, open_sample
from research_radar.store.store import open_store


def _run(folder: Path, label: str) -> None:
    store = open_store(str(folder / "radar.db"))
    started = time.perf_counter()
    import_sample_history(store)
    base = Settings(db=str(folder / "radar.db"), reports_dir=folder / "reports")
    with open_sample(base, cache_dir=folder / "cache") as sample:
        result = run_daily(store, sample.settings, day=SAMPLE_DATE, since=sample.since)
    total = time.perf_counter() - started
    run = store.load_runs(1)[0]
    parts = []
    for stage in run["stages"]:
        seconds = (stage["ended_at"] - stage["started_at"]).total_seconds()
        parts.append(f"{stage['stage']} {seconds:.2f}s")
    findings = len(result.report.findings)
    print(f"{label:<6} total {total:.2f}s  findings {findings}  ({findings / total:.1f}/s)")
    print("       " + " · ".join(parts))


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        _run(folder, "first")
        _run(folder, "second")


if __name__ == "__main__":
    main()
