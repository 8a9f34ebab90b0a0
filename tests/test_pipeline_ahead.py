"""The claims of a long list are extracted ahead, while it is written, with the same result
as extracting them in the extract stage (#19)."""

from __future__ import annotations

import multiprocessing

from research_radar.collect.collectors import Found
from research_radar.cores import can_fork
from research_radar.extract.claims import extract_claims
from research_radar.models import Snapshot, Source, SourceKind
from research_radar.pipeline.ahead import ClaimsAhead
from research_radar.pipeline.candidates import source_where

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
    with ClaimsAhead(minimum=10) as ahead:
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


def test_a_short_list_is_not_extracted_ahead() -> None:
    found = Found(items=[_repo(n) for n in range(3)])
    with ClaimsAhead(minimum=10) as ahead:
        ahead.found("github", found)
        assert not multiprocessing.active_children()
        texts = {s.key: (s.text, source_where(s, snap)) for s, snap in found.items}
        assert ahead.claims(texts) == [extract_claims(t, where=w) for t, w in texts.values()]
