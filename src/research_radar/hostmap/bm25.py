"""BM25 scores of the host index, as bm25s computes them, with numpy alone.

The host index needs one thing of bm25s: `BM25().index(corpus)` then `get_scores(tokens)`
with its defaults (Lucene's BM25, k1 = 1.5, b = 0.75, float32 scores). Importing bm25s
loads scipy's sparse matrices (about 0.15 s, issue #19); this module computes the same
numbers in the same precision and order: each term's score in a document is
`idf * tf / (k1 * (1 - b + b * len / avg_len) + tf)`, worked out in float64 (bm25s's
average length is a numpy float64) and stored as float32, and a query adds the float32
postings of its known terms, repeats included, in query order.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

__all__ = ["Bm25"]

K1 = 1.5
B = 0.75


class Bm25:
    """A BM25 index of tokenised documents (Lucene's variant, bm25s's defaults)."""

    def __init__(self, corpus: Sequence[Sequence[str]]) -> None:
        self.size = len(corpus)
        counts = [Counter(doc) for doc in corpus]
        frequency = Counter(term for doc in counts for term in doc)
        idf = {
            term: float(np.float32(math.log(1 + (self.size - n + 0.5) / (n + 0.5))))
            for term, n in frequency.items()
        }
        average = np.array([len(doc) for doc in corpus]).mean() if corpus else np.float64(0)
        rows: dict[str, list[int]] = {}
        values: dict[str, list[float]] = {}
        for row, (doc, tf) in enumerate(zip(corpus, counts, strict=True)):
            norm = K1 * ((1 - B) + B * len(doc) / average)
            for term, n in tf.items():
                rows.setdefault(term, []).append(row)
                values.setdefault(term, []).append(idf[term] * (n / (norm + n)))
        self._postings = {
            term: (np.array(rows[term], dtype=np.int64), np.array(values[term], dtype=np.float32))
            for term in rows
        }

    def get_scores(self, query: Sequence[str]) -> npt.NDArray[np.float32]:
        """Each document's score for the query terms (unknown terms add nothing)."""
        scores = np.zeros(self.size, dtype=np.float32)
        for term in query:
            posting = self._postings.get(term)
            if posting is not None:
                scores[posting[0]] += posting[1]
        return scores
