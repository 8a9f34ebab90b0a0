"""Host-mapping benchmark: precision@3 / recall@3 of touch points on a stand-in host.

The host under tests/fixtures/host_bench/ stands for the touch points the example reports
in seeds-examples name (skill and doc paths, host PR/issue numbers); entries.jsonl holds
about twenty seed entries (project name, a short mechanism description in our words, the
expected touch points and, as our own judgement, the expected relation label).

Run: .venv/bin/python benchmarks/hostmap_bench.py [--k 3] [--verbose]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import Any

from research_radar.hostmap.index import HostIndex, load_host_index, map_finding, parse_host_items
from research_radar.models import Finding
from research_radar.sample.host import build_sample_host, load_sample_items

BENCH = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "host_bench"


def _finding(entry: dict[str, object]) -> Finding:
    return Finding(
        project_key=f"bench:{entry['name']}",
        name=str(entry["name"]),
        date=date.fromisoformat(str(entry["date"])),
        mechanism=str(entry["mechanism"]),
    )


def _build_index(tmp: Path) -> tuple[HostIndex, dict[str, float]]:
    pulls, issues = load_sample_items(BENCH / "github")
    started = time.perf_counter()
    root = build_sample_host(tmp / "host", files=BENCH / "files")
    built = time.perf_counter()
    index = load_host_index(
        root, repo="example-org/inferrsi-bench", items=parse_host_items(pulls, issues)
    )
    return index, {"build": built - started, "index": time.perf_counter() - built}


def _score(
    entries: list[dict[str, Any]], index: HostIndex, k: int, verbose: bool
) -> dict[str, float]:
    totals = dict.fromkeys(("strict", "norm", "recall", "ceiling", "relation", "ms"), 0.0)
    for entry in entries:
        started = time.perf_counter()
        points, relation = map_finding(index, _finding(entry), k=k)
        totals["ms"] += 1000 * (time.perf_counter() - started)
        refs, expected = [p.ref for p in points], set(entry["expected"])
        hits = sum(1 for ref in refs if ref in expected)
        totals["strict"] += hits / k
        totals["norm"] += hits / min(k, len(expected))
        totals["recall"] += hits / len(expected)
        totals["ceiling"] += min(k, len(expected)) / k
        totals["relation"] += relation == entry["relation"]
        mark = "ok" if relation == entry["relation"] else "!="
        gold = min(k, len(expected))
        print(f"{entry['name'][:30]:30} {hits}/{gold}  {mark} {relation:20} {' '.join(refs)}")
        if verbose:
            for point in points:
                print(f"{'':34}{point.ref}: {point.reason}")
    return {key: value / len(entries) for key, value in totals.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--k", type=int, default=3)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    lines = (BENCH / "entries.jsonl").read_text(encoding="utf-8").splitlines()
    entries = [json.loads(line) for line in lines if line.strip()]
    with tempfile.TemporaryDirectory() as tmp:
        index, timing = _build_index(Path(tmp))
        figures = _score(entries, index, args.k, args.verbose)
    counts = ", ".join(f"{kind} {count}" for kind, count in index.counts().items())
    k = args.k
    print()
    print(f"host: {index.name} @ {index.head_sha[:12]} ({counts})")
    print(f"entries: {len(entries)}, k={k}")
    print(
        f"precision@{k} (hits/k):                {figures['strict']:.3f}  "
        f"(ceiling {figures['ceiling']:.3f}: many entries have fewer than {k} gold refs)"
    )
    print(f"precision@{k} (hits/min(k,|gold|)):    {figures['norm']:.3f}")
    print(f"recall@{k}:                            {figures['recall']:.3f}")
    print(f"relation label agreement:             {figures['relation']:.3f}")
    print(
        f"timing: git build {timing['build']:.3f}s, index {timing['index']:.3f}s "
        f"(incl. jieba init), map {figures['ms']:.2f} ms/finding"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
