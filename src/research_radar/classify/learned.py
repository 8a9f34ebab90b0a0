"""The learned part of the classifier: text embeddings and a linear model per dimension.

Features of an item are its WordLlama embedding (title and the start of its evidence
text) followed by the rule classifier's confidence of each value the model was trained
with, and the TF-IDF weights of its word, word-pair and character n-grams (`Ngrams`: the
vocabulary and inverse document frequencies stored with the heads), which carry the
exact words ("tensor parallel", "fused kernel") that an averaged embedding blurs. The linear heads (workload: softmax; mechanism, topic: one sigmoid per value) were
fitted with scikit-learn by `benchmarks/train_classifier.py` on titles labelled by the
section headings of curated lists, and are stored as plain arrays in
`research_radar/data/classifier.npz`; scoring needs numpy only.

WordLlama ships its weights and tokenizer in its wheel: it is loaded from the package
folder with downloads disabled, once per process and only when first needed, so nothing
here costs anything at import time.
"""

from __future__ import annotations

import functools
import io
import itertools
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt

from research_radar.classify.model import Taxonomy
from research_radar.classify.rules import match_values
from research_radar.models import Tag

if TYPE_CHECKING:
    from wordllama import WordLlama

__all__ = [
    "BODY_CHARS",
    "MODEL_FILE",
    "Head",
    "LearnedModel",
    "Matrix",
    "Ngrams",
    "NgramRows",
    "embed",
    "featurize",
    "ngram_evidence",
    "ngram_rows",
    "ngram_terms",
    "load_embedder",
    "load_model",
    "RuleMatches",
    "model_input",
    "rule_features",
    "rule_matches",
]

MODEL_FILE = "data/classifier.npz"
"""The trained heads, inside the `research_radar` package."""
BODY_CHARS = 400
"""Characters of evidence text embedded after the title (titles are what it learned on)."""

Matrix = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Head:
    """One dimension's linear model: a row of weights and a bias per class."""

    classes: tuple[str, ...]
    weights: Matrix
    bias: Matrix
    thresholds: Matrix
    """Per class: the probability from which the class is reported."""
    kind: Literal["softmax", "sigmoid"]
    ngram_weights: Matrix | None = None
    """(classes, vocabulary) weights of the TF-IDF n-gram features, when trained with them."""

    def probabilities(self, features: Matrix, ngrams: NgramRows | None = None) -> Matrix:
        """(items, classes) probabilities for (items, features) and their n-gram rows
        (required when the head was trained with n-grams)."""
        logits = features @ self.weights.T + self.bias
        if self.ngram_weights is not None:
            if ngrams is None:
                raise ValueError("this head was trained with n-gram features: pass them")
            logits = logits + ngrams.times(self.ngram_weights, len(features))
        if self.kind == "softmax":
            logits = logits - logits.max(axis=1, keepdims=True)
            exp = np.exp(logits)
            softmax: Matrix = (exp / exp.sum(axis=1, keepdims=True)).astype(np.float32)
            return softmax
        sigmoid: Matrix = (1.0 / (1.0 + np.exp(-logits))).astype(np.float32)
        return sigmoid


_NGRAM_TOKEN = re.compile(r"[^\W_]+(?:[-.+][^\W_]+)*")
NGRAM_CHARS = (3, 4, 5)
"""Lengths of the character n-grams taken inside each word (padded with spaces)."""


def ngram_terms(text: str) -> list[str]:
    """The n-grams of a text: words (`w:`), adjacent word pairs (`b:`) and the character
    3- to 5-grams of each word (`c:`), all lower case."""
    words = _words(text)
    terms = [term for word in words for term in _word_terms(word)]
    terms.extend(f"b:{first} {second}" for first, second in itertools.pairwise(words))
    return terms


def _words(text: str) -> list[str]:
    return [str(word) for word in _NGRAM_TOKEN.findall(text.casefold())]


def _word_terms(word: str) -> list[str]:
    """The n-grams of one word: itself (`w:`) and its character n-grams (`c:`)."""
    padded = f" {word} "
    terms = [f"w:{word}"]
    for size in NGRAM_CHARS:
        terms.extend(f"c:{padded[i : i + size]}" for i in range(len(padded) - size + 1))
    return terms


@dataclass(frozen=True)
class NgramRows:
    """Sparse TF-IDF rows: for each entry, its item, vocabulary column and weight."""

    items: npt.NDArray[np.int64]
    columns: npt.NDArray[np.int64]
    values: Matrix

    def times(self, weights: Matrix, count: int) -> Matrix:
        """(items, classes): the rows times (classes, vocabulary) `weights` transposed."""
        out = np.zeros((count, len(weights)), dtype=np.float32)
        for index, row in enumerate(weights):
            out[:, index] = np.bincount(
                self.items, weights=self.values * row[self.columns], minlength=count
            )
        return out


@dataclass(frozen=True)
class Ngrams:
    """The TF-IDF vocabulary of the n-gram features: sublinear term frequency times the
    inverse document frequency, each row of unit length (scikit-learn's TfidfVectorizer
    with `sublinear_tf=True`, which fitted it)."""

    index: dict[str, int]
    idf: Matrix
    terms: tuple[str, ...] = ()
    """The n-gram of each column (for explanations)."""


def ngram_evidence(
    ngrams: Ngrams, rows: NgramRows, item: int, weights: Matrix, limit: int = 3
) -> list[str]:
    """The words and word pairs of one item that raise a class's score most (`weights`:
    the class's n-gram weights), for `radar classify --explain`; character n-grams are
    not readable and are left out. `rows` are sorted by item (`ngram_rows`)."""
    start, stop = np.searchsorted(rows.items, [item, item + 1])
    columns = rows.columns[start:stop]
    gains = rows.values[start:stop] * weights[columns]
    found: list[str] = []
    for position in np.argsort(-gains):
        term = ngrams.terms[int(columns[position])] if ngrams.terms else ""
        if gains[position] <= 0 or len(found) == limit:
            break
        if term.startswith(("w:", "b:")):
            found.append(term[2:])
    return found


def ngram_rows(ngrams: Ngrams, texts: Sequence[str]) -> NgramRows:
    """The TF-IDF rows of `texts` (n-grams outside the vocabulary are dropped).

    A word's columns are looked up once per call: titles share most of their words."""
    index = ngrams.index
    known: dict[str, list[int]] = {}
    items: list[int] = []
    columns: list[int] = []
    for item, text in enumerate(texts):
        words = _words(text)
        start = len(columns)
        for word in words:
            cached = known.get(word)
            if cached is None:
                cached = [c for c in map(index.get, _word_terms(word)) if c is not None]
                known[word] = cached
            columns.extend(cached)
        for first, second in itertools.pairwise(words):
            column = index.get(f"b:{first} {second}")
            if column is not None:
                columns.append(column)
        items.extend([item] * (len(columns) - start))
    width = len(ngrams.idf)
    keys, counts = np.unique(
        np.array(items, dtype=np.int64) * width + np.array(columns, dtype=np.int64),
        return_counts=True,
    )
    rows, cols = keys // width, keys % width
    values = (1.0 + np.log(counts.astype(np.float32))) * ngrams.idf[cols]
    norms = np.sqrt(np.bincount(rows, weights=values * values, minlength=len(texts)))
    norms[norms == 0] = 1.0
    return NgramRows(items=rows, columns=cols, values=(values / norms[rows]).astype(np.float32))


@dataclass(frozen=True)
class LearnedModel:
    """The trained heads and the rule values whose confidences are features."""

    rule_values: tuple[str, ...]
    """`dimension:value` ids, in feature order."""
    heads: dict[str, Head]
    info: dict[str, str]
    ngrams: Ngrams | None = None
    """The n-gram vocabulary, when the heads were trained with n-gram features."""

    def ngram_rows(self, texts: Sequence[str]) -> NgramRows | None:
        """The n-gram rows of `texts` (`model_input` of each item), None without n-grams."""
        return ngram_rows(self.ngrams, texts) if self.ngrams is not None else None


def model_input(title: str, body: str) -> str:
    """The text embedded for one item: its title, then the start of its evidence text."""
    body = " ".join(body.split())[:BODY_CHARS]
    return f"{title}. {body}" if body else title


@functools.cache
def load_embedder() -> WordLlama:
    """WordLlama from the files its wheel ships (no network, loaded once per process)."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    import wordllama
    from wordllama import WordLlama

    # wordllama calls logging.basicConfig(level=INFO) when imported, which would print
    # every HTTP request and debug line of every library on stderr: undo it
    for handler in root.handlers[:]:
        if handler not in handlers:
            root.removeHandler(handler)
    root.setLevel(level)
    folder = Path(wordllama.__file__).resolve().parent
    return WordLlama.load(cache_dir=folder, disable_download=True)


def embed(texts: Sequence[str]) -> Matrix:
    """(items, 256) unit-length embeddings."""
    if not texts:
        return np.zeros((0, 256), dtype=np.float32)
    vectors = load_embedder().embed(list(texts), norm=True, batch_size=256)
    return np.asarray(vectors, dtype=np.float32)


RuleMatches = dict[str, dict[str, Tag]]
"""dimension id -> value id -> the tag of each value whose rules match one item."""


def rule_matches(
    taxonomy: Taxonomy, rule_values: Sequence[str], title: str, body: str
) -> RuleMatches:
    """The matched values of every dimension `rule_values` names (that the profile has)."""
    dimensions = dict.fromkeys(name.partition(":")[0] for name in rule_values)
    return {
        dim: match_values(taxonomy.dimension(dim), title, body)
        for dim in dimensions
        if taxonomy.has(dim)
    }


def rule_features(rule_values: Sequence[str], matches: RuleMatches) -> Matrix:
    """The rule confidence of each `dimension:value` of one item, 0 when it did not match."""
    row = np.zeros(len(rule_values), dtype=np.float32)
    for index, name in enumerate(rule_values):
        dimension, _, value = name.partition(":")
        tag = matches.get(dimension, {}).get(value)
        row[index] = tag.confidence if tag is not None else 0.0
    return row


def featurize(
    taxonomy: Taxonomy,
    model: LearnedModel,
    items: Sequence[tuple[str, str]],
    matches: Sequence[RuleMatches] | None = None,
    vectors: Matrix | None = None,
) -> Matrix:
    """(items, features) for (title, evidence text) pairs: embedding, then rule scores.

    `matches`, `vectors`: each item's `rule_matches` and the embeddings of its
    `model_input`, when the caller already has them.
    """
    if matches is None:
        matches = [rule_matches(taxonomy, model.rule_values, t, b) for t, b in items]
    if vectors is None:
        vectors = embed([model_input(title, body) for title, body in items])
    rules = (
        np.stack([rule_features(model.rule_values, found) for found in matches])
        if items
        else np.zeros((0, len(model.rule_values)), dtype=np.float32)
    )
    return np.hstack([vectors, rules]).astype(np.float32)


@functools.cache
def load_model() -> LearnedModel:
    """The trained heads bundled with the package (read once per process)."""
    data = resources.files("research_radar").joinpath(MODEL_FILE).read_bytes()
    return model_from_bytes(data)


def model_from_bytes(data: bytes) -> LearnedModel:
    arrays: Any = np.load(io.BytesIO(data), allow_pickle=False)
    names = [str(name) for name in arrays["heads"]]
    files = set(arrays.files)
    heads = {
        name: Head(
            classes=tuple(str(value) for value in arrays[f"{name}.classes"]),
            weights=arrays[f"{name}.weights"].astype(np.float32),
            bias=arrays[f"{name}.bias"].astype(np.float32),
            thresholds=arrays[f"{name}.thresholds"].astype(np.float32),
            kind="softmax" if str(arrays[f"{name}.kind"]) == "softmax" else "sigmoid",
            ngram_weights=(
                arrays[f"{name}.ngram_weights"].astype(np.float32)
                if f"{name}.ngram_weights" in files
                else None
            ),
        )
        for name in names
    }
    ngrams = None
    if "ngrams.terms" in files:
        terms = str(arrays["ngrams.terms"]).split("\n")
        ngrams = Ngrams(
            index={term: column for column, term in enumerate(terms)},
            idf=arrays["ngrams.idf"].astype(np.float32),
            terms=tuple(terms),
        )
    info_keys = [str(key) for key in arrays["info.keys"]]
    info_values = [str(value) for value in arrays["info.values"]]
    return LearnedModel(
        rule_values=tuple(str(value) for value in arrays["rule_values"]),
        heads=heads,
        info=dict(zip(info_keys, info_values, strict=True)),
        ngrams=ngrams,
    )
