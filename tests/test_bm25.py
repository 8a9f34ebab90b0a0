"""The host index's BM25 gives bm25s's scores, bit for bit."""

from __future__ import annotations

from pathlib import Path

import bm25s
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from research_radar.hostmap.bm25 import Bm25
from research_radar.hostmap.checkout import load_host_documents
from research_radar.hostmap.index import (
    _document_tokens,
    _item_tokens,
    build_host_index,
    parse_host_items,
)
from research_radar.sample.host import build_sample_host, load_sample_items


def _bm25s(corpus: list[list[str]], query: list[str]) -> np.ndarray:
    retriever = bm25s.BM25()
    retriever.index(corpus, show_progress=False)
    return np.asarray(retriever.get_scores(query))


WORDS = st.sampled_from(["kv", "cache", "offload", "draft", "kernel", "ssd", "moe", "a", "解码"])


@settings(max_examples=150, deadline=None)
@given(
    corpus=st.lists(st.lists(WORDS, min_size=1, max_size=40), min_size=1, max_size=25),
    query=st.lists(st.one_of(WORDS, st.just("unknown")), min_size=1, max_size=12),
)
def test_scores_equal_bm25s(corpus: list[list[str]], query: list[str]) -> None:
    mine = Bm25(corpus).get_scores(query)
    assert mine.dtype == np.float32
    assert mine.tobytes() == _bm25s(corpus, query).astype(np.float32).tobytes()


def test_sample_host_scores_equal_bm25s(tmp_path: Path) -> None:
    root = build_sample_host(tmp_path / "host")
    pulls, issues = load_sample_items()
    documents = sorted(load_host_documents(root), key=lambda d: d.path)
    items = parse_host_items(pulls, issues)
    corpus = [_document_tokens(doc) for doc in documents]
    corpus += [_item_tokens(item) for item in sorted(items, key=lambda i: (i.kind, i.number))]
    index = build_host_index("inferhost", documents, items)
    vocabulary = sorted({term for doc in corpus for term in doc})
    queries = [vocabulary[i : i + 7] + vocabulary[i : i + 2] for i in range(0, len(vocabulary), 5)]
    assert index._bm25 is not None and len(queries) > 50
    for query in queries:
        expected = _bm25s(corpus, query).astype(np.float32)
        assert index._bm25.get_scores(query).tobytes() == expected.tobytes(), query


@pytest.mark.parametrize("query", [["nothing", "known"], ["kv"]])
def test_unknown_terms_add_nothing(query: list[str]) -> None:
    scores = Bm25([["kv", "cache"], ["ssd"]]).get_scores(query)
    assert scores[1] == 0 and (scores[0] > 0) == ("kv" in query)
