"""Precision and recall of claim extraction on the labelled evidence set.

The set (tests/fixtures/evidence_labelled.jsonl) holds short statements built from the
example reports in ../shared/seeds-examples and the prose of ../shared/corpus, mostly
paraphrased, each with the conditions and metrics a careful reader would record:
canonical catalogue names, the memory size written next to a part, the named
comparison point as baseline, every catalogue software mention, load as key/value,
and every number that carries a unit (or a named quality metric) as a metric.

For each statement, the conditions of all extracted claims are pooled and compared
with the expected ones; counts are summed over the set (micro-average).

Run: .venv/bin/python benchmarks/evidence_bench.py [--verbose]
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path

from research_radar.extract.claims import extract_claims

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures"
FIXTURE = FIXTURES / "evidence_labelled.jsonl"
HELDOUT = FIXTURES / "evidence_heldout.jsonl"
"""A small set labelled after the extractor was written (see its source field)."""
FIELDS = ("hardware", "model", "precision", "baseline", "software", "load", "metrics")


def _norm(value: str) -> str:
    return " ".join(value.lower().replace(",", "").split())


def predicted(text: str) -> dict[str, Counter[str]]:
    """Pooled conditions and metrics of all claims of one statement."""
    claims = extract_claims(text)
    found: dict[str, Counter[str]] = {name: Counter() for name in FIELDS}
    for name in FIELDS[:5]:
        values = {_norm(v) for claim in claims for v in getattr(claim.conditions, name)}
        found[name].update(values)
    loads = {
        f"{k}={_norm(v).replace(' ', '')}" for c in claims for k, v in c.conditions.load.items()
    }
    found["load"].update(loads)
    for claim in claims:
        found["metrics"].update(f"{m.value:g} {m.unit}" for m in claim.metrics)
    return found


def expected(item: dict[str, object]) -> dict[str, Counter[str]]:
    exp = item["expected"]
    assert isinstance(exp, dict)
    gold: dict[str, Counter[str]] = {name: Counter() for name in FIELDS}
    for name in FIELDS[:5]:
        gold[name].update({_norm(v) for v in exp[name]})
    gold["load"].update(f"{k}={_norm(v).replace(' ', '')}" for k, v in exp["load"].items())
    gold["metrics"].update(f"{float(v):g} {u}" for v, u in exp["metrics"])
    return gold


def score(items: list[dict[str, object]], verbose: bool = False) -> dict[str, tuple[int, int, int]]:
    """field -> (true positives, predicted, expected)."""
    totals = {name: [0, 0, 0] for name in FIELDS}
    for item in items:
        pred, gold = predicted(str(item["text"])), expected(item)
        for name in FIELDS:
            hit = sum((pred[name] & gold[name]).values())
            totals[name][0] += hit
            totals[name][1] += sum(pred[name].values())
            totals[name][2] += sum(gold[name].values())
            if verbose and pred[name] != gold[name]:
                extra = sorted((pred[name] - gold[name]).elements())
                missing = sorted((gold[name] - pred[name]).elements())
                print(f"  {item['id']:<20} {name:<9} extra={extra} missing={missing}")
    return {name: (t[0], t[1], t[2]) for name, t in totals.items()}


def kind_accuracy(items: list[dict[str, object]]) -> float:
    right = 0
    for item in items:
        exp = item["expected"]
        assert isinstance(exp, dict)
        kinds = {claim.kind.value for claim in extract_claims(str(item["text"]))}
        right += exp["kind"] in kinds
    return right / len(items)


def report(path: Path, verbose: bool) -> None:
    items = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    started = time.perf_counter()
    totals = score(items, verbose=verbose)
    elapsed = time.perf_counter() - started
    print(f"{path.name}: {len(items)} statements ({elapsed:.2f} s)")
    print(f"{'field':<10} {'precision':>9} {'recall':>7} {'tp':>5} {'pred':>5} {'gold':>5}")
    for name, (tp, pred, gold) in totals.items():
        p = tp / pred if pred else 1.0
        r = tp / gold if gold else 1.0
        print(f"{name:<10} {p:>9.3f} {r:>7.3f} {tp:>5} {pred:>5} {gold:>5}")
    print(f"kind (expected kind among the claims): {kind_accuracy(items):.3f}\n")


def main(argv: list[str]) -> int:
    for path in (FIXTURE, HELDOUT):
        if path.exists():
            report(path, "--verbose" in argv)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
