"""The claims and classifications of a long list are read ahead, while it is written, with
the same result as reading them in the extract and classify stages (#19)."""

from __future__ import annotations

import math
import multiprocessing

from research_radar.classify.classifier import classify_items
from research_radar.classify.profile import load_taxonomy
from research_radar.collect.collectors import Found
from research_radar.cores import can_fork
from research_radar.extract.claims import extract_claims
from research_radar.models import Metric, Project, Snapshot, Source, SourceKind
from research_radar.pipeline.ahead import ReadAhead, _pack, _unpack
from research_radar.pipeline.candidates import classifier_item, classify_sources, source_where

TAXONOMY = load_taxonomy()
SPEEDS = ("2.1x faster decoding than vLLM", "3x the throughput of SGLang", "40% less memory")


def _repo(n: int) -> tuple[Source, Snapshot]:
    key = f"gh:owner/engine-{n}"
    source = Source(
        key=key,
        kind=SourceKind.REPO,
        url=f"https://github.com/owner/engine-{n}",
        title=f"engine-{n}",
        text=f"# engine-{n}\n\nReaches {SPEEDS[n % 3]} on one A100 at batch {n % 7 + 1}.",
    )
    return source, Snapshot(source_key=key, version=f"{n:040x}")


def test_claims_extracted_ahead_are_those_the_extract_stage_would_find() -> None:
    found = Found(items=[_repo(n) for n in range(30)])
    note = Source(
        key="url:https://example.org/n", kind=SourceKind.NOTE, url="https://e.org", text="x"
    )
    found.items.append((note, None))  # not a finding's source: nothing is extracted ahead
    with ReadAhead(TAXONOMY, minimum=10) as ahead:
        ahead.found("github", found)
        if can_fork():
            assert multiprocessing.active_children(), "the work ahead runs in a forked process"
        texts = {s.key: (s.text, source_where(s, snap)) for s, snap in found.items[:30]}
        # the store's newest snapshot of one repository is another version: its claims are
        # read where the extract stage reads them; another text was never collected
        moved, _ = found.items[3]
        texts[moved.key] = (moved.text, "owner/engine-3@" + "f" * 40 + ":README.md")
        texts["gh:owner/other"] = ("Reaches 5x faster prefill than TGI.", "owner/other")
        claims = ahead.claims(texts)
    assert not multiprocessing.active_children()
    expected = [extract_claims(text, where=where) for text, where in texts.values()]
    assert claims == expected
    assert all(claims), "every text has a claim"
    assert claims[3][0].where.startswith("owner/engine-3@fff")
    repos = [source for source, _ in found.items[:30]]
    items = [classifier_item(source, "") for source in repos]
    classified = dict(zip(items, classify_items(TAXONOMY, items), strict=True))
    if can_fork():  # each repository (a titled source) was classified ahead, as in one batch
        expected_ahead = {
            source.key: (item, classified[item]) for source, item in zip(repos, items, strict=True)
        }
        assert ahead.classified == expected_ahead
    else:
        assert ahead.classified == {}


def test_the_classify_stage_uses_a_classification_made_ahead_only_for_the_same_item() -> None:
    (same, _), (retitled, _), (untitled, _) = (_repo(n) for n in range(3))
    untitled = untitled.model_copy(update={"title": ""})
    made = classify_items(TAXONOMY, [classifier_item(same, ""), classifier_item(retitled, "")])
    # what was made ahead is told apart from a fresh classification: each is another's
    known = {
        same.key: (classifier_item(same, ""), made[1]),
        retitled.key: (classifier_item(retitled, ""), made[0]),
    }
    retitled = retitled.model_copy(update={"title": "engine-1 renamed"})
    pairs = [
        (Project(key=s.key, name=f"project {n}"), s)
        for n, s in enumerate((same, retitled, untitled))
    ]
    expected = classify_items(TAXONOMY, [classifier_item(s, p.name) for p, s in pairs])
    assert classify_sources(TAXONOMY, pairs, known) == [made[1], *expected[1:]]
    assert classify_sources(TAXONOMY, pairs) == expected


def test_a_short_list_is_not_extracted_ahead() -> None:
    found = Found(items=[_repo(n) for n in range(3)])
    with ReadAhead(TAXONOMY, minimum=10) as ahead:
        ahead.found("github", found)
        assert not multiprocessing.active_children()
        texts = {s.key: (s.text, source_where(s, snap)) for s, snap in found.items}
        assert ahead.claims(texts) == [extract_claims(t, where=w) for t, w in texts.values()]


def test_what_is_read_ahead_comes_back_equal_even_with_numbers_json_cannot_hold() -> None:
    text = "Reaches 2.1x faster decoding than vLLM on one A100 at batch 8."
    claims = extract_claims(text, where="owner/engine@abc:README.md")
    classified = classify_items(TAXONOMY, [classifier_item(_repo(1)[0], "")])[0]
    reads = [[(claims, classified), ([], None)]]
    assert _unpack(_pack(reads)) == reads
    endless = claims[0].model_copy(update={"metrics": [Metric(name="speedup", value=math.inf)]})
    assert _unpack(_pack([[([endless], None)]])) == [[([endless], None)]]
