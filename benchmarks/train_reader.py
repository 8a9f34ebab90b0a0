"""Train the number reader and write src/research_radar/data/reader.npz.

    .venv/bin/python benchmarks/train_reader.py [--check] [--cache DIR] [--exclude GLOB]

The shipped weights were trained with `--exclude 't7-*.lab'` (the 66 tune documents
labelled before the t7 batch): on all 74 tune documents the rule below picks 0.2, the
lowest threshold tried, at which the reader also takes the years of a release table,
because `ignore` numbers (years, versions, settings) count as neither right nor wrong
in the precision it is picked by. Counting them as wrong is the next step (issue #14).

Training data: the `split=tune` documents of benchmarks/data/evidence (never a held-out
one). Every number in their labelled line ranges is a candidate, as the extractor lists
it (`extract_claims` with a recording reader: the rules' numbers too, marked taken);
a candidate is positive when it matches a labelled claim the way evidence_bench.py
matches (same value, on the claim's line or up to SLACK lines above), negative otherwise
(`ignore` numbers, settings, sizes, dates and every other unlabelled number).

The model: scikit-learn's LogisticRegression over the hashed cues of
`research_radar.extract.readercues` (L2, liblinear), stored as one weight per hash
bucket, a bias and a threshold. The rules read nearly every labelled number of the tune
documents, so cues saying "the rules read this column" would teach the model to trust
only what the rules already trust; on documents the rules were not tuned on they read
much less. Each training table and sentence is therefore seen twice: as it is, and as
if the rules had read none of it (`_blind`).

Leave-one-project-out cross-validation prints, for the numbers the rules left in the
held-out project (what the reader adds in the product) and for every number with the
rules' cues blinded (a document the rules do not know), precision and recall per
threshold (`ignore` numbers count as neither right nor wrong, as in evidence_bench.py),
and so does the whole extraction (the rules' numbers plus what the reader adds); the
shipped threshold is the lowest at which the cross-validated precision of what the
reader adds is at least TARGET_PRECISION. `--check` prints without writing.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from scipy import sparse
from sklearn.linear_model import LogisticRegression

sys.path.insert(0, str(Path(__file__).resolve().parent))

from evidence_bench import (  # noqa: E402
    DEFAULT_CACHE,
    LABELS,
    SLACK,
    Doc,
    _float,
    _load_file,
    _norm_unit,
)

from research_radar.extract.claims import extract_claims  # noqa: E402
from research_radar.extract.reader import BUCKETS, cue_index  # noqa: E402
from research_radar.extract.readercues import Candidate  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "src" / "research_radar" / "data" / "reader.npz"
TARGET_PRECISION = 0.95
C = 0.5
"""Inverse L2 strength."""
THRESHOLDS = [round(0.05 * i, 2) for i in range(4, 20)]
_RULE_CUES = ("rcol", "rrow", "rtable", "rnone", "sread", "snone")


class Recorder:
    """A reader that takes nothing and keeps every candidate it is shown."""

    everything = True

    def __init__(self) -> None:
        self.seen: list[Candidate] = []

    def accept(self, candidates: Sequence[Candidate]) -> list[bool]:
        self.seen.extend(candidates)
        return [False] * len(candidates)


@dataclass(frozen=True)
class Example:
    doc: str
    project: str
    candidate: Candidate
    positive: bool
    unit_ok: bool
    ignored: bool = False
    """An `ignore` number of its line: a negative, but no error when extracted (as in
    evidence_bench.py)."""


def _blind(candidate: Candidate) -> Candidate:
    """The candidate as if the rules had read nothing near it."""
    cues = [c for c in candidate.cues if not c.startswith(_RULE_CUES)]
    cues += ["rnone", "rcol0", "rrow0"] if "t" in cues else ["snone"]
    return replace(candidate, cues=tuple(cues), taken=False)


def examples_of(doc: Doc, text: str) -> list[Example]:
    recorder = Recorder()
    extract_claims(text, where=f"{doc.repo}@{doc.commit}:{doc.path}", reader=recorder)
    found = [c for c in recorder.seen if doc.in_ranges(c.line)]
    taken: set[int] = set()
    positive: dict[int, str] = {}
    for gold in doc.gold:
        value = _float(gold.value)
        options = [
            (gold.line - c.line, i)
            for i, c in enumerate(found)
            if i not in taken
            and value is not None
            and abs(c.value - value) < 1e-9
            and gold.line - SLACK <= c.line <= gold.line
        ]
        if options:
            index = min(options)[1]
            taken.add(index)
            positive[index] = gold.unit
    return [
        Example(
            doc.id,
            doc.repo,
            c,
            i in positive,
            i in positive and _norm_unit(positive[i]) == _norm_unit(c.unit or "-"),
            i not in positive and _is_ignored(doc, c),
        )
        for i, c in enumerate(found)
    ]


def _is_ignored(doc: Doc, candidate: Candidate) -> bool:
    return any(
        line - SLACK <= candidate.line <= line
        and any(abs(candidate.value - v) < 1e-9 for v in values)
        for line, values in doc.ignore.items()
    )


def matrix(candidates: Sequence[Candidate]) -> sparse.csr_matrix:
    rows, cols = [], []
    for row, candidate in enumerate(candidates):
        for cue in set(candidate.cues):
            rows.append(row)
            cols.append(cue_index(cue))
    data = np.ones(len(rows), dtype=np.float64)
    return sparse.csr_matrix((data, (rows, cols)), shape=(len(candidates), BUCKETS))


def fit(examples: Sequence[Example]) -> LogisticRegression:
    seen = [e.candidate for e in examples] + [_blind(e.candidate) for e in examples]
    labels = [e.positive for e in examples] * 2
    model = LogisticRegression(C=C, solver="liblinear", max_iter=1000)
    model.fit(matrix(seen), np.array(labels))
    return model


def cross_validate(examples: list[Example]) -> dict[str, np.ndarray]:
    """Out-of-fold probabilities, leaving one project out: as the rules left them, and
    with the rules' cues blinded."""
    projects = sorted({e.project for e in examples})
    left = np.zeros(len(examples))
    blind = np.zeros(len(examples))
    for project in projects:
        test = [i for i, e in enumerate(examples) if e.project == project]
        model = fit([e for e in examples if e.project != project])
        left[test] = model.predict_proba(matrix([examples[i].candidate for i in test]))[:, 1]
        blinded = [_blind(examples[i].candidate) for i in test]
        blind[test] = model.predict_proba(matrix(blinded))[:, 1]
    return {"left": left, "blind": blind}


def _table(examples: list[Example], probs: np.ndarray, mask: np.ndarray, title: str) -> None:
    """Precision (`ignore` numbers left out, as in evidence_bench.py) and recall per
    threshold of the candidates in `mask`."""
    positive = np.array([e.positive for e in examples])
    mask = mask & ~np.array([e.ignored for e in examples])
    unit_ok = np.array([e.unit_ok for e in examples])
    gold = int((positive & mask).sum())
    print(f"\n{title}: {int(mask.sum())} numbers, {gold} labelled claims")
    print(f"{'threshold':>9} {'precision':>9} {'recall':>7} {'taken':>6} {'unit ok':>7}")
    for threshold in THRESHOLDS:
        chosen = mask & (probs >= threshold)
        tp = int((chosen & positive).sum())
        n = int(chosen.sum())
        p = tp / n if n else 1.0
        r = tp / gold if gold else 0.0
        u = int((chosen & unit_ok).sum()) / tp if tp else 0.0
        print(f"{threshold:>9.2f} {p:>9.3f} {r:>7.3f} {n:>6} {u:>7.3f}")


def pipeline(examples: list[Example], probs: np.ndarray, gold: int) -> None:
    """Cross-validated precision and recall of the whole extraction (the rules' numbers
    plus the reader's) per threshold, and the threshold picked from them."""
    positive = np.array([e.positive for e in examples])
    taken = np.array([e.candidate.taken for e in examples])
    counted = ~np.array([e.ignored for e in examples])
    ruled, ruled_tp = int((taken & counted).sum()), int((taken & positive).sum())
    print(
        f"\nCV, rules + reader (rules alone: precision {ruled_tp / max(ruled, 1):.3f}, "
        f"recall {ruled_tp / max(gold, 1):.3f})"
    )
    print(f"{'threshold':>9} {'precision':>9} {'recall':>7}")
    for threshold in THRESHOLDS:
        chosen = ~taken & counted & (probs >= threshold)
        tp = ruled_tp + int((chosen & positive).sum())
        print(f"{threshold:>9.2f} {tp / (ruled + int(chosen.sum())):>9.3f} {tp / gold:>7.3f}")


def pick_threshold(examples: list[Example], probs: np.ndarray) -> float:
    """The lowest threshold at which the cross-validated precision of what the reader
    adds (the numbers the rules left that it takes) is at least TARGET_PRECISION;
    `ignore` numbers count as neither right nor wrong, as in evidence_bench.py."""
    positive = np.array([e.positive for e in examples])
    left = ~np.array([e.candidate.taken for e in examples])
    counted = ~np.array([e.ignored for e in examples])
    for threshold in THRESHOLDS:
        chosen = left & counted & (probs >= threshold)
        if (chosen & positive).sum() / max(int(chosen.sum()), 1) >= TARGET_PRECISION:
            return threshold
    return THRESHOLDS[-1]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--check", action="store_true", help="print, do not write the model")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument(
        "--exclude", metavar="GLOB", help="leave out the label files matching GLOB (`t7-*.lab`)"
    )
    args = parser.parse_args(argv)
    left_out = {p.name for p in LABELS.glob(args.exclude)} if args.exclude else set()
    files = [p for p in sorted(LABELS.glob("*.lab")) if p.name not in left_out]
    docs = [d for path in files for d in _load_file(path) if d.split == "tune"]
    examples: list[Example] = []
    missing = 0
    for doc in docs:
        path = doc.cache_path(args.cache)
        if not path.exists():
            missing += 1
            continue
        examples.extend(examples_of(doc, path.read_text(encoding="utf-8", errors="replace")))
    per_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for e in examples:
        kind = "table" if "t" in e.candidate.cues else "prose"
        per_kind[kind][0] += 1
        per_kind[kind][1] += e.positive
    print(
        f"tune: {len(docs) - missing} documents ({missing} not cached), "
        f"{len({e.project for e in examples})} projects, {len(examples)} numbers: "
        + ", ".join(f"{k} {n} ({p} claims)" for k, (n, p) in sorted(per_kind.items()))
    )
    gold_total = sum(len(d.gold) for d in docs)
    print(
        f"labelled claims {gold_total}, matched to a candidate {sum(e.positive for e in examples)}"
    )
    probs = cross_validate(examples)
    left = np.array([not e.candidate.taken for e in examples])
    everyone = np.ones(len(examples), dtype=bool)
    _table(examples, probs["left"], left, "CV, numbers the rules left (what the reader adds)")
    _table(examples, probs["blind"], everyone, "CV, every number, the rules' cues blinded")
    pipeline(examples, probs["left"], gold_total)
    threshold = pick_threshold(examples, probs["left"])
    print(f"\nthreshold (CV precision of what the reader adds >= {TARGET_PRECISION}): {threshold}")
    model = fit(examples)
    weights = model.coef_[0].astype(np.float32)
    bias = float(model.intercept_[0])
    if args.check:
        return 0
    buffer = io.BytesIO()
    np.savez_compressed(
        buffer, weights=weights, scalars=np.array([bias, threshold], dtype=np.float64)
    )
    OUT.write_bytes(buffer.getvalue())
    print(f"wrote {OUT.relative_to(ROOT)} ({len(buffer.getvalue())} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
