"""Train the linear heads of the classifier and write src/research_radar/data/classifier.npz.

    .venv/bin/python benchmarks/train_classifier.py [--check]

Training data: titles from the curated lists in ../shared/curated-lists (or
$RADAR_SHARED/curated-lists), labelled by `benchmarks/curated_mapping.toml`; only the
lists with split = "train" are read here (the held-out ones are for classify_bench.py).
Features: WordLlama embedding + rule confidences + TF-IDF word, word-pair and character
n-grams of the title (research_radar.classify.learned; the n-gram vocabulary is fitted
on the training titles and stored with the heads).

Heads (scikit-learn LogisticRegression, stored as arrays):
- workload: multinomial over the workloads the lists cover; an on-topic item of a section
  that names no workload gets a weak one when the rules of exactly one workload match its
  title (`workload_labels`);
- mechanism: one binary model per mechanism with at least MIN_POSITIVES examples;
  curated labels, plus weak labels from rule title hits for on-topic items of mixed
  sections; off-topic items are negatives of every mechanism;
- topic: on-topic (AI inference performance) or not.

The shipped model is fitted on every list (train and held-out splits); the held-out
figures in classify_bench.py come from a model fitted on the train split only.
Every head is calibrated on 5-fold cross-validated logits (workload: a softmax
temperature; mechanism and topic: Platt scaling, folded into the stored weights), so
its probabilities are confidences; the mechanism thresholds then maximise F1 on the
calibrated cross-validated probabilities, and each mechanism's class weighting
(balanced or none, CLASS_WEIGHTS) is the one with the better cross-validated F1. Those
tuning figures (and the expected
calibration error) are printed. `--check` trains and prints without writing the file.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
from scipy import sparse
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression

sys.path.insert(0, str(Path(__file__).resolve().parent))

from curated import Item, build_split, load_mapping  # noqa: E402

from research_radar.classify.learned import (  # noqa: E402
    LearnedModel,
    featurize,
    model_input,
    ngram_terms,
)
from research_radar.classify.profile import load_taxonomy  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "src" / "research_radar" / "data" / "classifier.npz"
MIN_POSITIVES = 20
TITLE_HIT = 0.5
"""Rule confidence of one title hit (research_radar.classify.rules)."""
C = 2.0
NGRAM_SCALE = {"workload": 0.0, "mechanism": 2.0, "topic": 2.0}
"""Per head: weight of the (unit-length) n-gram block against the (unit-length) embedding,
chosen by the 5-fold figures on the training lists. Workload has none: with n-grams its
rare workloads (diffusion, recurrent) lose to the common one (balanced accuracy 0.84 ->
0.74)."""
NGRAM_MIN_DF = 2
"""An n-gram is in the vocabulary when at least this many training titles have it."""
RULE_VALUES = (
    "workload:llm-agentic",
    "workload:diffusion",
    "workload:loop-recurrent",
    "workload:decision-policy",
    "workload:crossmodal-streaming",
    "mechanism:schedule",
    "mechanism:cache",
    "mechanism:parallel-pipeline",
    "mechanism:kernel-compiler-fusion",
    "mechanism:quant-sparsity-speculation",
    "mechanism:compute-quality-budget",
)


def features(items: list[Item]) -> np.ndarray:
    taxonomy = load_taxonomy()
    shell = LearnedModel(rule_values=RULE_VALUES, heads={}, info={})
    return featurize(taxonomy, shell, [(item.title, "") for item in items])


def ngram_matrix(items: list[Item]) -> tuple[TfidfVectorizer, Any]:
    """The n-gram vectorizer fitted on `items` and their (sparse) TF-IDF rows."""
    vectorizer = TfidfVectorizer(
        analyzer=ngram_terms, sublinear_tf=True, min_df=NGRAM_MIN_DF, dtype=np.float32
    )
    rows = vectorizer.fit_transform([model_input(item.title, "") for item in items])
    return vectorizer, rows


CLASS_WEIGHTS: tuple[str | None, ...] = ("balanced", None)
"""Per mechanism, the class weighting with the better 5-fold F1 on the training lists
(balanced weights favour recall of a rare mechanism, none its precision)."""


def fit(x: Any, y: np.ndarray, class_weight: str | None = "balanced") -> LogisticRegression:
    model = LogisticRegression(C=C, max_iter=2000, class_weight=class_weight)
    model.fit(x, y)
    return model


def mechanism_sets(items: list[Item], x: np.ndarray) -> tuple[list[int], list[set[str]]]:
    """Indices of the items usable for mechanisms, and their label sets.

    Curated labels first, then hand labels (an item labelled by hand is a negative of every
    mechanism it was not given); an on-topic item of a mixed section nobody labelled gets
    weak labels: the mechanisms whose rules match its title (confidence >= TITLE_HIT).
    Off-topic items are negatives of every mechanism.
    """
    offset = x.shape[1] - len(RULE_VALUES)
    columns = {
        name.partition(":")[2]: offset + index
        for index, name in enumerate(RULE_VALUES)
        if name.startswith("mechanism:")
    }
    rows: list[int] = []
    sets: list[set[str]] = []
    for i, item in enumerate(items):
        labels = set(item.mechanism)
        if item.reviewed:
            rows.append(i)
            sets.append(labels)
            continue
        if not labels and item.on_topic:
            labels = {value for value, column in columns.items() if x[i, column] >= TITLE_HIT}
        if labels or item.on_topic is False:
            rows.append(i)
            sets.append(labels)
    return rows, sets


def workload_labels(items: list[Item], x: np.ndarray) -> tuple[list[int], list[str]]:
    """Indices of the items usable for workload, and their workloads.

    The curated workload first; an on-topic item of a section that names no workload (a
    multimodal serving section, the written titles) gets a weak label when the rules of
    exactly one workload match its title (any confidence): "Approximate Caching
    for Efficiently Serving Diffusion Models" is diffusion, "Efficient Diffusion LLM
    Serving" (diffusion and LLM) stays unlabelled.
    """
    offset = x.shape[1] - len(RULE_VALUES)
    columns = {
        name.partition(":")[2]: offset + index
        for index, name in enumerate(RULE_VALUES)
        if name.startswith("workload:")
    }
    rows: list[int] = []
    labels: list[str] = []
    for i, item in enumerate(items):
        workload = item.workload
        if workload is None and item.on_topic:
            hits = [value for value, column in columns.items() if x[i, column] > 0]
            workload = hits[0] if len(hits) == 1 else None
        if workload:
            rows.append(i)
            labels.append(workload)
    return rows, labels


def best_threshold(probs: np.ndarray, truth: np.ndarray) -> tuple[float, float]:
    best = (0.5, -1.0)
    for threshold in np.arange(0.2, 0.91, 0.05):
        got = probs >= threshold
        tp = int((got & truth).sum())
        fp = int((got & ~truth).sum())
        fn = int((~got & truth).sum())
        f1 = 2 * tp / (2 * tp + fp + fn) if tp else 0.0
        if f1 > best[1]:
            best = (float(threshold), f1)
    return best


def train(items: list[Item], x: np.ndarray, *, verbose: bool = True) -> dict[str, Any]:
    """The arrays of a model fitted on `items` (features `x`); prints tuning figures."""
    say = print if verbose else (lambda *_: None)
    arrays: dict[str, Any] = {"rule_values": np.array(RULE_VALUES)}
    heads: list[str] = []
    dense = x.shape[1]
    vectorizer, ngrams = ngram_matrix(items)
    terms = vectorizer.get_feature_names_out()
    if any("\n" in term for term in terms):
        raise ValueError("an n-gram holds a newline: the vocabulary is stored newline-joined")
    arrays["ngrams.terms"] = np.array("\n".join(terms))
    arrays["ngrams.idf"] = vectorizer.idf_.astype(np.float32)
    say(f"n-gram vocabulary: {len(terms)} terms (min_df {NGRAM_MIN_DF})")
    base = sparse.csr_matrix(x)

    def combined(head: str) -> Any:
        return sparse.hstack([base, ngrams * NGRAM_SCALE[head]]).tocsr()

    xs = combined("workload")

    rows, workloads = workload_labels(items, x)
    labels = np.array(workloads)
    say(f"workload labels: {dict(Counter(labels.tolist()))}")
    model = fit(xs[rows], labels)
    logits = cv_logits(xs[rows], labels, model.classes_)
    temperature = fit_temperature(logits, labels, model.classes_)
    store(
        arrays, "workload", model, np.full(len(model.classes_), 0.0), "softmax", dense, temperature
    )
    heads.append("workload")
    probs = softmax(logits / temperature)
    predicted = model.classes_[probs.argmax(axis=1)]
    correct = predicted == labels
    recalls = {str(c): float(correct[labels == c].mean()) for c in model.classes_}
    say(
        f"  workload tuning accuracy {correct.mean():.3f}, balanced "
        f"{np.mean(list(recalls.values())):.3f} (5-fold CV; recall "
        + ", ".join(f"{c} {r:.2f}" for c, r in recalls.items())
        + f"); temperature {temperature:.2f}, "
        f"calibration error {ece(probs.max(axis=1), correct):.3f}"
    )

    xs = combined("mechanism")
    rows, sets = mechanism_sets(items, x)
    counts = Counter(value for labels_ in sets for value in labels_)
    say(f"mechanism labels: {dict(counts)} (+ off-topic negatives)")
    classes = sorted(value for value, count in counts.items() if count >= MIN_POSITIVES)
    weights, biases, thresholds = [], [], []
    for value in classes:
        truth = np.array([value in labels_ for labels_ in sets])
        tried = []
        for weighting in CLASS_WEIGHTS:
            logits = cv_logits(xs[rows], truth, np.array([False, True]), weighting)[:, 0]
            scale, shift = platt(logits, truth)
            probs = sigmoid(scale * logits + shift)
            threshold, f1 = best_threshold(probs, truth)
            tried.append((f1, weighting, scale, shift, probs, threshold))
        f1, weighting, scale, shift, probs, threshold = max(tried, key=lambda t: t[0])
        model = fit(xs[rows], truth, weighting)
        other = ", ".join(f"{t[1] or 'none'} {t[0]:.3f}" for t in tried if t[1] != weighting)
        say(
            f"  mechanism {value:<28} positives {int(truth.sum()):>4}  "
            f"tuning F1 {f1:.3f} at threshold {threshold:.2f}, class weight "
            f"{weighting or 'none'} ({other}) (5-fold CV), calibration error "
            f"{ece(probs, truth):.3f}"
        )
        weights.append(model.coef_[0] * scale)
        biases.append(model.intercept_[0] * scale + shift)
        thresholds.append(threshold)
    arrays["mechanism.classes"] = np.array(classes)
    stacked = np.array(weights, dtype=np.float32)
    arrays["mechanism.weights"] = stacked[:, :dense]
    arrays["mechanism.ngram_weights"] = (stacked[:, dense:] * NGRAM_SCALE["mechanism"]).astype(
        np.float16
    )
    arrays["mechanism.bias"] = np.array(biases, dtype=np.float32)
    arrays["mechanism.thresholds"] = np.array(thresholds, dtype=np.float32)
    arrays["mechanism.kind"] = np.array("sigmoid")
    heads.append("mechanism")

    xs = combined("topic")
    rows = [i for i, item in enumerate(items) if item.on_topic is not None]
    truth = np.array([bool(items[i].on_topic) for i in rows])
    say(f"topic labels: {int(truth.sum())} on-topic, {int((~truth).sum())} off-topic")
    model = fit(xs[rows], truth)
    logits = cv_logits(xs[rows], truth, model.classes_)[:, 0]
    scale, shift = platt(logits, truth)
    probs = sigmoid(scale * logits + shift)
    say(
        f"  topic tuning accuracy {((probs >= 0.5) == truth).mean():.3f} at 0.5 (5-fold CV), "
        f"calibration error {ece(probs, truth):.3f}"
    )
    arrays["topic.classes"] = np.array(["on-topic"])
    arrays["topic.weights"] = (model.coef_[:, :dense] * scale).astype(np.float32)
    arrays["topic.ngram_weights"] = (model.coef_[:, dense:] * scale * NGRAM_SCALE["topic"]).astype(
        np.float16
    )
    arrays["topic.bias"] = (model.intercept_ * scale + shift).astype(np.float32)
    arrays["topic.thresholds"] = np.array([0.5], dtype=np.float32)
    arrays["topic.kind"] = np.array("sigmoid")
    heads.append("topic")

    import sklearn
    import wordllama

    info = {
        "embedding": f"wordllama {wordllama.__version__} l2_supercat 256",
        "ngrams": f"{len(terms)} word, word-pair and character 3-5-grams, TF-IDF",
        "trainer": f"scikit-learn {sklearn.__version__} LogisticRegression C={C}, calibrated",
        "lists": ", ".join(sorted({name for item in items for name in item.lists})),
        "items": str(len(items)),
    }
    arrays["heads"] = np.array(heads)
    arrays["info.keys"] = np.array(list(info))
    arrays["info.values"] = np.array(list(info.values()))
    return arrays


def to_bytes(arrays: dict[str, Any]) -> bytes:
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)
    return buffer.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="do not write the model")
    args = parser.parse_args()
    mapping = load_mapping()
    items = build_split(mapping, "train") + build_split(mapping, "heldout")
    print(f"training items: {len(items)} from {len({n for i in items for n in i.lists})} lists")
    arrays = train(items, features(items))
    if args.check:
        return
    OUT.write_bytes(to_bytes(arrays))
    print(f"wrote {OUT.relative_to(ROOT)} ({OUT.stat().st_size / 1000:.0f} kB)")


def store(
    arrays: dict[str, Any],
    name: str,
    model: LogisticRegression,
    thresholds: np.ndarray,
    kind: str,
    dense: int,
    temperature: float = 1.0,
) -> None:
    """The head's arrays: weights of the `dense` features, then of the n-grams."""
    arrays[f"{name}.classes"] = np.array([str(c) for c in model.classes_])
    arrays[f"{name}.weights"] = (model.coef_[:, :dense] / temperature).astype(np.float32)
    if NGRAM_SCALE[name]:
        arrays[f"{name}.ngram_weights"] = (
            model.coef_[:, dense:] * NGRAM_SCALE[name] / temperature
        ).astype(np.float16)
    arrays[f"{name}.bias"] = (model.intercept_ / temperature).astype(np.float32)
    arrays[f"{name}.thresholds"] = thresholds.astype(np.float32)
    arrays[f"{name}.kind"] = np.array(kind)


def cv_logits(
    x: Any, labels: np.ndarray, classes: np.ndarray, class_weight: str | None = "balanced"
) -> np.ndarray:
    """5-fold cross-validated decision values: (items, classes), or (items, 1) for a
    binary head (the positive class's logit)."""
    from sklearn.model_selection import StratifiedKFold

    width = 1 if len(classes) == 2 else len(classes)
    logits = np.zeros((len(labels), width))
    folds = StratifiedKFold(5, shuffle=True, random_state=0)
    for train_rows, test_rows in folds.split(x, labels):
        model = fit(x[train_rows], labels[train_rows], class_weight)
        values = model.decision_function(x[test_rows])
        if width == 1:
            logits[test_rows, 0] = values
        else:
            # a fold may lack a rare class: its column stays very unlikely
            logits[test_rows] = -30.0
            for column, name in enumerate(model.classes_):
                logits[test_rows, list(classes).index(name)] = values[:, column]
    return logits


def platt(logits: np.ndarray, truth: np.ndarray) -> tuple[float, float]:
    """Platt scaling of cross-validated logits: P = sigmoid(scale * logit + shift)."""
    model = LogisticRegression(C=1e6, max_iter=1000)
    model.fit(logits.reshape(-1, 1), truth)
    return float(model.coef_[0, 0]), float(model.intercept_[0])


def fit_temperature(logits: np.ndarray, labels: np.ndarray, classes: np.ndarray) -> float:
    """The softmax temperature that minimises the cross-validated negative log-likelihood."""
    index = np.array([list(classes).index(label) for label in labels])
    best = (1.0, float("inf"))
    for temperature in np.arange(0.3, 5.01, 0.05):
        probs = softmax(logits / temperature)
        nll = -float(np.log(np.clip(probs[np.arange(len(index)), index], 1e-12, 1)).mean())
        if nll < best[1]:
            best = (float(temperature), nll)
    return best[0]


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
    result: np.ndarray = shifted / shifted.sum(axis=1, keepdims=True)
    return result


def sigmoid(logits: np.ndarray) -> np.ndarray:
    result: np.ndarray = 1.0 / (1.0 + np.exp(-logits))
    return result


def ece(confidence: np.ndarray, correct: np.ndarray, bins: int = 10) -> float:
    """Expected calibration error: |mean confidence - accuracy| over equal-width bins
    (for a binary head: the predicted probability against the positive rate)."""
    edges = np.linspace(0.0, 1.0, bins + 1)
    total = 0.0
    for low, high in zip(edges[:-1], edges[1:], strict=True):
        inside = (confidence >= low) & ((confidence < high) | (high == 1.0))
        if inside.any():
            gap = abs(float(confidence[inside].mean()) - float(correct[inside].mean()))
            total += gap * inside.sum() / len(confidence)
    return total


if __name__ == "__main__":
    main()
