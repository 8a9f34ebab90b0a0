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

from research_radar.hostmap import load_host_index, map_finding
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, default=3)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    entries = [
        json.loads(line) for line in (BENCH / "entries.jsonl").read_text("utf-8").splitlines()
    ]
    pulls, issues = load_sample_items(BENCH / "github")
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        root = build_sample_host(Path(tmp) / "host", files=BENCH / "files")
        built = time.perf_counter()
        index = load_host_index(root, repo="example-org/inferrsi-bench", pulls=pulls, issues=issues)
        indexed = time.perf_counter()
        results = [map_finding(index, _finding(entry), k=args.k) for entry in entries]
        mapped = time.perf_counter()
    strict = norm = recall = 0.0
    relation_ok = 0
    for entry, (points, relation) in zip(entries, results, strict=True):
        refs = [p.ref for p in points]
        expected = set(entry["expected"])
        hits = sum(1 for ref in refs if ref in expected)
        strict += hits / args.k
        norm += hits / min(args.k, len(expected))
        recall += hits / len(expected)
        relation_ok += relation == entry["relation"]
        mark = "ok " if relation == entry["relation"] else "!= "
        print(
            f"{entry['name'][:30]:30} {hits}/{min(args.k, len(expected))}  {mark}{relation:20} {' '.join(refs)}"
        )
        if args.verbose:
            for point in points:
                print(f"{'':34}{point.ref}: {point.reason}")
    n = len(entries)
    counts = ", ".join(f"{kind} {count}" for kind, count in index.counts().items())
    print()
    print(f"host: {index.name} @ {index.head_sha[:12]} ({counts})")
    print(f"entries: {n}, k={args.k}")
    print(f"precision@{args.k} (hits/k):             {strict / n:.3f}")
    print(f"precision@{args.k} (hits/min(k,|gold|)):  {norm / n:.3f}")
    print(f"recall@{args.k}:                         {recall / n:.3f}")
    print(f"relation label agreement:            {relation_ok}/{n} = {relation_ok / n:.3f}")
    print(
        f"timing: git build {built - started:.3f}s, index {indexed - built:.3f}s "
        f"(incl. jieba init), map {1000 * (mapped - indexed) / n:.2f} ms/finding"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
