"""History benchmark: identity across dates, mechanism families, and decide() time vs history size.

Run: .venv/bin/python benchmarks/history_bench.py   (RADAR_SHARED points at ../shared if elsewhere)

1. Imports the seeds-examples research-index issue as history, report by report in date
   order, into a fresh store (after registering the corpus repositories as known sources,
   as a collector would): every alias or rename stated there must resolve to one project,
   projects reported on several dates are listed, and none of them is decided "new" again.
2. Precision and recall of mechanism-family grouping on tests/fixtures/families_labelled.jsonl
   (pairwise: two labelled projects predicted in one family vs labelled in one family).
3. Time to decide one candidate (prior lookup + decide + family related) with 1,000 and
   100,000 synthetic findings in history.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from research_radar.history.decide import decide
from research_radar.history.imports import import_reports, load_projects
from research_radar.history.plan import build_import
from research_radar.models import Finding, Project, Source, SourceKind, Tag
from research_radar.report.parse import split_reports
from research_radar.resolve.families import FamilyIndex, assign_family
from research_radar.resolve.keys import NameIndex, canonical_key
from research_radar.store.store import Store, open_store

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("RADAR_SHARED", ROOT.parent / "shared"))
SEEDS = SHARED / "seeds-examples" / "research-index-issue-2026-10-27_to_11-02.md"
LABELLED = ROOT / "tests" / "fixtures" / "families_labelled.jsonl"
# Every same-as statement in the seeds: (names that must be one project).
STATED_SAME = [
    ("Maya", "Project Maya", "Maya 1.1.39"),
    ("Strata", "Strata 0.2.8"),
    ("stable-diffusion.cpp", "stable-diffusion.cpp #2240", "leejet/stable-diffusion.cpp"),
    ("Atrex", "Atrex Kernel Agent #125", "Atrex Kernel Agent"),
    ("DwarfStar", "ds4"),
    ("NInfer", "Neroued/ninfer"),
    ("Mach X", "Red-Weasel/machx-inference-engine"),
    ("AMD Infera", "AMD-AGI/Infera"),
    ("OpenJet Engine", "L-Forster/open-jet"),
    ("RSI-Inference Bench", "apple-aiml-research/ml-rsi-inference-bench"),
]
# Alike names the seeds keep apart.
KEPT_APART = [("SpecSpeech", "faster-cosyvoice"), ("InferenceBench", "RSI-Inference Bench"),
              ("KernelAgent", "Atrex"), ("vla.cpp", "Embodied.cpp")]  # fmt: skip


def register_corpus(store: Store) -> int:
    corpus = SHARED / "corpus"
    count = 0
    with store.transaction() as conn:
        for meta_path in sorted(corpus.glob("*/meta.json")):
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            owner_name = meta["full_name"]
            store.save_source(
                conn,
                Source(key=f"gh:{owner_name.lower()}", kind=SourceKind.REPO, url=meta["remote"],
                       title=owner_name.split("/")[1]),
            )  # fmt: skip
            count += 1
    return count


def import_by_date(store: Store, folder: Path) -> None:
    """Write each dated report of the seeds to its own file and import them in date order."""
    reports = split_reports(SEEDS.read_text(encoding="utf-8"))
    days = sorted({r.date for r in reports if r.date is not None})
    for day in days:
        path = folder / f"seeds-{day}.md"
        path.write_text("\n\n".join(r.text for r in reports if r.date == day), encoding="utf-8")
        import_reports(store, [path])


def identity_section(store: Store) -> None:
    rows = load_projects(store)
    index = NameIndex()
    for row in rows:
        index.add(row["name"], row["key"])
        index.add_repo(row["key"])
        for alias in row["aliases"]:
            index.add(alias, row["key"])
    print(f"projects: {len(rows)}  findings: {len(store.load_findings())}")
    failures = 0
    for names in STATED_SAME:
        keys = {(canonical_key(name) if "/" in name else index.lookup(name)) for name in names}
        ok = len(keys) == 1 and None not in keys
        failures += not ok
        print(
            f"  same-as {'ok  ' if ok else 'FAIL'} {' = '.join(names)} -> {sorted(map(str, keys))}"
        )
    for a, b in KEPT_APART:
        ok = index.lookup(a) != index.lookup(b)
        failures += not ok
        print(f"  apart   {'ok  ' if ok else 'FAIL'} {a} != {b}")
    several = [row for row in rows if len(row["reported_on"]) > 1]
    print(f"projects reported on several dates: {len(several)}")
    for row in several:
        print(f"  {row['name']:<22} {row['key']:<28} {', '.join(row['reported_on'])}")
    mistaken = 0
    for row in several:
        project = Project(key=row["key"], name=row["name"])
        later = date.fromisoformat(row["reported_on"][-1])
        verdict = decide(project, [], store.load_findings(before=later), on=later)
        mistaken += verdict.status in ("new", "historical")
    print(f"mistaken for new on a later date: {mistaken} of {len(several)}")
    print(f"identity failures: {failures}")


def family_section() -> None:
    reports = [("import:seeds", r) for r in split_reports(SEEDS.read_text(encoding="utf-8"))]
    plan = build_import(reports)
    index = NameIndex()
    for alias, (key, _kind, _evidence) in plan.aliases.items():
        index.add(alias, key)
    for key in plan.projects:
        index.add_repo(key)
    families = {f.project_key: f.family for f in plan.findings}
    labels = [
        json.loads(line) for line in LABELLED.read_text(encoding="utf-8").splitlines() if line
    ]
    keyed = [(index.lookup(item["name"]), item["family"], item["name"]) for item in labels]
    missing = [name for key, _, name in keyed if key is None]
    keyed = [(key, fam, name) for key, fam, name in keyed if key is not None]
    tp = fp = fn = 0
    for (ka, fa, _), (kb, fb, _) in itertools.combinations(keyed, 2):
        same_pred = families.get(ka) == families.get(kb)
        same_true = fa == fb
        tp += same_pred and same_true
        fp += same_pred and not same_true
        fn += same_true and not same_pred
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    print(f"labelled projects: {len(keyed)} (unresolved: {missing or 'none'})")
    print(
        f"family grouping (pairwise): precision {precision:.2f}  recall {recall:.2f}  (tp {tp}, fp {fp}, fn {fn})"
    )
    groups: dict[str, list[str]] = {}
    for key, _fam, name in keyed:
        groups.setdefault(str(families.get(key)), []).append(name)
    for family, names in sorted(groups.items(), key=lambda item: -len(item[1])):
        if len(names) > 1:
            print(f"  {family:<44} {', '.join(names)}")


_VOCAB = [f"w{i}" for i in range(5000)] + [
    "cache",
    "kernel",
    "expert",
    "speculation",
    "speech",
    "action",
]
_ZH = ["专家", "缓存", "投机", "语音", "流式", "算子", "调度", "量化", "扩散", "状态"]


def synthetic(n: int, rng: random.Random) -> list[Finding]:
    start = date(2025, 1, 1)
    result = []
    for i in range(n):
        words = rng.sample(_VOCAB, 12) + rng.sample(_ZH, 2)
        tags = {
            "mechanism": [
                Tag(
                    dimension="mechanism",
                    value=rng.choice(["cache", "schedule", "kernel-compiler-fusion"]),
                )
            ]
        }
        result.append(Finding(project_key=f"gh:synthetic/p{i}", name=f"p{i}", date=start + timedelta(days=i % 600),
                              mechanism=" ".join(words), tags=tags))  # fmt: skip
    return result


def timing_section() -> None:
    rng = random.Random(7)
    candidate = Finding(project_key="gh:new/candidate", name="candidate", date=date(2026, 11, 3),
                        mechanism="MoE 专家 offload 与 SSD 预取，配合 MTP 投机 cache kernel")  # fmt: skip
    project = Project(key=candidate.project_key, name="candidate")
    for size in (1_000, 100_000):
        history = synthetic(size, rng)
        built = time.perf_counter()
        index = FamilyIndex()
        by_key: dict[str, list[Finding]] = {}
        for finding in history:
            index.add(finding)
            by_key.setdefault(finding.project_key, []).append(finding)
        index.related(candidate)  # the forest sorts itself once, at the first query
        built = time.perf_counter() - built
        samples = []
        for _ in range(200):
            began = time.perf_counter()
            prior = by_key.get(project.key, [])
            decide(
                project, [], prior, on=candidate.date, created_at=datetime(2026, 11, 1, tzinfo=UTC)
            )
            assign_family(candidate, index)
            samples.append(time.perf_counter() - began)
        print(f"history {size:>7,}: index built in {built:6.1f}s; decide one candidate "
              f"median {statistics.median(samples) * 1000:.2f} ms, p95 {sorted(samples)[189] * 1000:.2f} ms")  # fmt: skip


def main() -> int:
    if not SEEDS.exists():
        print(f"seeds-examples not found under {SHARED}; set RADAR_SHARED", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(str(Path(folder) / "bench.db"))
        print(f"== identity (corpus repositories registered: {register_corpus(store)})")
        import_by_date(store, Path(folder))
        identity_section(store)
    print("== mechanism families")
    family_section()
    print("== decide() time vs history size")
    timing_section()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
