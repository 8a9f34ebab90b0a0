"""Cross-validated figures of the mechanism head on the TRAINING lists only (refs #15).

    .venv/bin/python benchmarks/classify_cv.py [--folds section,list] [--weight balanced|none]

The held-out lists are for reporting; choices (features, weighting, thresholds) are made
on these figures. Two ways to split the training items (train split of
curated_mapping.toml, with hand labels and written titles, as `train_classifier.py`
reads them):

- `section`: 5 folds, each curated section (list + deepest heading) wholly in one fold, so
  a test title's section-mates never trained the model: closer to a new list than
  shuffled folds (whose near-duplicate titles flatter the figures);
- `list`: leave one list out (the written titles always train): a list that is the only
  source of a class (the reasoning list for `compute-quality-budget`) takes most of that
  class with it, as a held-out list of a new subfield does.

Per class: precision, recall and F1 of "head probability >= 0.5 on an item whose topic
relevance is at least `MECHANISM_TOPIC_MIN`, or a rule hit as strong as
`LEARNED_RULE_MIN`" (the classifier's rule for bare titles; the topic head is fitted in
the same folds), pooled over the folds; then the macro-F1 over the classes, the one at
the per-class thresholds that maximise pooled F1 (optimistic: the thresholds are chosen
on the same predictions), and the macro-F1 at other topic gates.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
from scipy import sparse
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.model_selection import GroupKFold

sys.path.insert(0, str(Path(__file__).resolve().parent))

import train_classifier as tc  # noqa: E402
from curated import Item, build_split, load_mapping  # noqa: E402

from research_radar.classify.classifier import (  # noqa: E402
    LEARNED_RULE_MIN,
    MECHANISM_TOPIC_MIN,
)
from research_radar.classify.learned import model_input, ngram_terms  # noqa: E402

WRITTEN = "written_titles.tsv"


def section(item: Item) -> str:
    name, path = item.sources[0]
    return f"{name} | {path.split(' > ')[-1]}"


def folds(kind: str, items: list[Item]) -> Iterator[tuple[str, np.ndarray, np.ndarray]]:
    """(fold name, training rows, test rows)."""
    if kind == "section":
        groups = [section(item) for item in items]
        for number, (train, test) in enumerate(GroupKFold(5).split(items, groups=groups)):
            yield f"fold {number + 1}", train, test
        return
    for name in sorted({n for item in items for n in item.lists} - {WRITTEN}):
        inside = np.array([name in item.lists for item in items])
        yield name, np.where(~inside)[0], np.where(inside)[0]


def design(x: np.ndarray, titles: list[str], train: np.ndarray, test: np.ndarray) -> Any:
    """Training and test matrices: embedding + rule features, then the TF-IDF n-grams
    fitted on the training rows only."""
    vectorizer = TfidfVectorizer(
        analyzer=ngram_terms, sublinear_tf=True, min_df=tc.NGRAM_MIN_DF, dtype=np.float32
    )
    grams = [vectorizer.fit_transform([titles[i] for i in train])]
    grams.append(vectorizer.transform([titles[i] for i in test]))
    scale = tc.NGRAM_SCALE["mechanism"]
    return [
        sparse.hstack([sparse.csr_matrix(x[rows]), block * scale]).tocsr()
        for rows, block in zip((train, test), grams, strict=True)
    ]


def f1_counts(pred: np.ndarray, truth: np.ndarray) -> tuple[float, float, float]:
    tp = int((pred & truth).sum())
    fp, fn = int((pred & ~truth).sum()), int((~pred & truth).sum())
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    return precision, recall, (2 * tp / (2 * tp + fp + fn) if tp else 0.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folds", default="section,list")
    parser.add_argument("--weight", default="balanced", choices=("balanced", "none"))
    args = parser.parse_args()
    weighting = None if args.weight == "none" else args.weight
    every = build_split(load_mapping(), "train")
    x_all = tc.features(every)
    rows, sets = tc.mechanism_sets(every, x_all)
    items, x = [every[i] for i in rows], x_all[rows]
    titles = [model_input(item.title, "") for item in items]
    classes = sorted({v for s in sets for v in s if sum(v in t for t in sets) >= tc.MIN_POSITIVES})
    truth = np.array([[value in labels for value in classes] for labels in sets])
    offset = x.shape[1] - len(tc.RULE_VALUES)
    rules = np.stack(
        [x[:, offset + tc.RULE_VALUES.index(f"mechanism:{value}")] for value in classes], axis=1
    )
    print(f"{len(items)} training titles with mechanism labels; class weight {args.weight}")
    for kind in args.folds.split(","):
        start = time.perf_counter()
        probs = np.zeros(truth.shape)
        topic = np.zeros(len(items))
        for _name, train, test in folds(kind, items):
            x_train, x_test = design(x, titles, train, test)
            for column in range(len(classes)):
                y = truth[train, column]
                if y.sum() >= 2:
                    model = tc.fit(x_train, y, weighting)
                    probs[test, column] = model.predict_proba(x_test)[:, 1]
            known = np.array([items[i].on_topic is not None for i in train])
            on = np.array([bool(items[i].on_topic) for i in train])
            topic[test] = tc.fit(x_train[known], on[known], None).predict_proba(x_test)[:, 1]
        # the classifier halves the relevance of a text without any rule term (`_gated`)
        topic = np.where(x[:, offset:].max(axis=1) > 0, topic, topic / 2)
        ruled = rules >= LEARNED_RULE_MIN
        gates = {gate: (topic >= gate)[:, None] for gate in (0.0, MECHANISM_TOPIC_MIN, 0.5)}
        learned = probs >= 0.5
        print(f"\n{kind} folds ({time.perf_counter() - start:.0f} s)")
        print(f"  {'mechanism':<28} {'precision':>9} {'recall':>7} {'f1':>6}  support  tuned")
        at_half, tuned = [], []
        for column, value in enumerate(classes):
            y = truth[:, column]
            gate = gates[MECHANISM_TOPIC_MIN][:, 0]
            got = (learned[:, column] & gate) | ruled[:, column]
            precision, recall, f1 = f1_counts(got, y)
            best = max(
                f1_counts(((probs[:, column] >= t) & gate) | ruled[:, column], y)[2]
                for t in np.arange(0.1, 0.91, 0.05)
            )
            at_half.append(f1)
            tuned.append(best)
            print(
                f"  {value:<28} {precision:>9.3f} {recall:>7.3f} {f1:>6.3f}  "
                f"{int(y.sum()):>7}  {best:.3f}"
            )
        print(
            f"  mechanism macro-F1 {np.mean(at_half):.3f} at 0.5, "
            f"{np.mean(tuned):.3f} at per-class tuned thresholds; topic gate "
            f"{MECHANISM_TOPIC_MIN}"
        )
        for level, gate in gates.items():
            got = (learned & gate) | ruled
            macro = np.mean([f1_counts(got[:, c], truth[:, c])[2] for c in range(len(classes))])
            off = np.array([item.on_topic is False for item in items])
            print(
                f"  topic gate {level:.1f}: macro-F1 {macro:.3f}; "
                f"{int(got[off].any(axis=1).sum())} of {int(off.sum())} off-topic titles "
                "get a mechanism"
            )


if __name__ == "__main__":
    main()
