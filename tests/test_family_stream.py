"""Family matching of a stream in chunks (issue #19): the sorted-array forest and the chunked
assignment answer exactly as the one-at-a-time forest and `assign_family` do."""

from __future__ import annotations

import json
import math
import random
from datetime import date, timedelta
from pathlib import Path

import pytest

from research_radar.models import Finding, Tag
from research_radar.resolve.families import FamilyIndex, assign_family
from research_radar.resolve.minhash import Forest
from research_radar.resolve.sorted_forest import SortedForest

FIXTURES = Path(__file__).parent / "fixtures"


def _texts() -> list[tuple[str, str]]:
    """(name, prose) of the labelled fixtures: real project descriptions, English and Chinese."""
    texts = []
    for line in (FIXTURES / "classify_labelled.jsonl").read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        texts.append((item["title"], item["summary"]))
    for line in (FIXTURES / "evidence_labelled.jsonl").read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        texts.append((item["id"], item["text"]))
    return texts


def _stream(count: int, seed: int) -> list[Finding]:
    """A date-ordered history of `count` findings built from the fixtures' prose: some
    projects reported again (with other words), some with tags or a kept family, one with
    no tokens at all; several a day."""
    rng = random.Random(seed)
    texts = _texts()
    findings = []
    for n in range(count):
        project = n if rng.random() < 0.8 else rng.randrange(max(1, n))
        name, text = texts[project % len(texts)]  # a project again: much the same words
        words = text.split()
        cut = rng.randint(0, len(words) // 3)
        extra: dict[str, object] = {}
        if rng.random() < 0.3:
            extra["tags"] = {
                "mechanism": [Tag(dimension="mechanism", value=rng.choice(["cache", "kernel"]))]
            }
        if rng.random() < 0.05:
            extra["family"] = f"fam:kept{n % 3}"
        findings.append(
            Finding(
                project_key=f"gh:o{project % 13}/{name.lower().replace(' ', '-')}-{project}",
                name=f"{name} {project}",
                date=date(2026, 1, 1) + timedelta(days=n // 7),
                mechanism=" ".join(
                    words[cut:] if rng.random() < 0.5 else words[: len(words) - cut]
                ),
                **extra,  # type: ignore[arg-type]
            )
        )
    findings.insert(
        count // 2, findings[count // 2].model_copy(update={"name": "12", "mechanism": "34"})
    )
    return findings


@pytest.mark.parametrize("chunk", [1, 5, 64, 400])
@pytest.mark.parametrize("k", [1, 7, 40])
def test_the_sorted_forest_answers_as_the_forest(chunk: int, k: int) -> None:
    """Each query of a chunk finds the entries that `Forest.query` finds had the chunk's
    members been added one by one, stale versions of re-added projects included."""
    import numpy as np

    findings = _stream(300, seed=1)
    index = FamilyIndex()
    signatures = index.signatures(findings)
    ask = [n % 5 != 2 for n in range(len(findings))]
    one_by_one = Forest(index.trees)
    expected: list[set[tuple[str, int]]] = []
    for finding, signature, asked in zip(findings, signatures, ask, strict=True):
        expected.append(one_by_one.query(signature, k) if asked else set())
        one_by_one.add(finding.project_key, signature)
    entries, versions = [], {}
    for finding in findings:
        versions[finding.project_key] = versions.get(finding.project_key, -1) + 1
        entries.append((finding.project_key, versions[finding.project_key]))
    forest = SortedForest(index.trees, index.num_perm)
    values = np.frombuffer(b"".join(s.hashvalues for s in signatures), "<u4").reshape(
        len(signatures), index.num_perm
    )
    found: list[set[tuple[str, int]]] = []
    for start in range(0, len(findings), chunk):
        part = values[start : start + chunk]
        answers = forest.query(part, np.array(ask[start : start + chunk]), k)
        found += [{entries[number] for number in answer.tolist()} for answer in answers]
        forest.add(part)
    assert found == expected
    assert any(len(answer) == k for answer in found)  # queries cut short at k, too


def _one_by_one(findings: list[Finding], ask: list[bool]) -> tuple[list[Finding], FamilyIndex]:
    index = FamilyIndex()
    assigned = []
    for finding, signature, asked in zip(findings, index.signatures(findings), ask, strict=True):
        if asked:
            finding = assign_family(finding, index, signature=signature)
            assigned.append(finding)
        index.add_signed(finding.project_key, finding.name, finding.family, signature)
    return assigned, index


@pytest.mark.parametrize(
    "fork_min",
    [pytest.param(1000, id="one-process"), pytest.param(2, id="second-half-forked")],
)
def test_a_stream_gets_the_families_of_one_by_one(fork_min: int) -> None:
    """Families, related projects and what differs, for a few hundred findings over more
    than one chunk, are those that `assign_family` then `add_signed` give in turn; also
    when a forked process scores the later chunks (it catches up on the earlier ones)."""
    findings = _stream(700, seed=2)
    ask = [n % 4 != 1 for n in range(len(findings))]
    expected, whole = _one_by_one(findings, ask)
    index = FamilyIndex()
    calls: list[int] = []
    assigned = index.assign_stream(
        findings, ask, fork_min=fork_min, meanwhile=lambda: calls.append(len(index))
    )
    assert assigned == expected
    assert calls == [0], "meanwhile runs once, before the stream is indexed"
    assert sum(bool(finding.related) for finding in assigned) > len(assigned) // 2
    assert len({finding.family for finding in assigned}) < len(assigned) // 2  # families join
    keys = {finding.project_key for finding in findings}
    assert {key: index.family_of(key) for key in keys} == {
        key: whole.family_of(key) for key in keys
    }
    # the index answers later queries (its forest catches up) as the one built one by one
    later = [
        f.model_copy(update={"project_key": f"gh:later/{n}"}) for n, f in enumerate(findings[:40])
    ]
    for finding in later:
        assert index.related(finding) == whole.related(finding)
        index.add(finding)
        whole.add(finding)


def test_a_stream_needs_an_empty_index_of_its_own_counts() -> None:
    findings = _stream(2, seed=3)
    index = FamilyIndex()
    index.add(findings[0])
    with pytest.raises(ValueError):
        index.assign_stream(findings, [True, True])
    weighed = FamilyIndex()
    weighed.use_counts({"kv-cache": 3}, 10)
    with pytest.raises(ValueError):
        weighed.assign_stream(findings, [True, True])


@pytest.mark.parametrize("k", [1, 7, 40])
def test_the_neighbourhood_answers_as_the_whole_forest(k: int) -> None:
    """A forest of only the keys `forest_neighbourhood` keeps finds, for every query, what
    the forest of every key finds, also after more keys are added; and it keeps fewer."""
    from research_radar.resolve.minhash import BAND_WIDTH, forest_neighbourhood

    findings = _stream(300, seed=2)
    index = FamilyIndex()
    signatures = index.signatures(findings)
    history = {f.project_key: s for f, s in zip(findings[:240], signatures[:240], strict=True)}
    queries = list(zip(findings[240:], signatures[240:], strict=True))
    whole = Forest(index.trees)
    for key, signature in history.items():
        whole.add(key, signature)
    bands = [whole.bands(signature) for _, signature in queries]
    rows = [
        (key, tree, band)
        for key, signature in history.items()
        for tree, band in enumerate(whole.bands(signature))
        if any(band[:BAND_WIDTH] == per[tree][:BAND_WIDTH] for per in bands)
    ]
    kept = forest_neighbourhood(bands, rows, k)
    part = Forest(index.trees)
    for key, signature in history.items():
        if key in kept:
            part.add(key, signature)
    for finding, signature in queries:  # each answer, then the query joins both forests
        assert part.query(signature, k) == whole.query(signature, k)
        whole.add(finding.project_key, signature)
        part.add(finding.project_key, signature)
    everything = forest_neighbourhood(bands, rows, len(history) + 1)
    assert kept <= everything and (k == 40 or len(kept) < len(everything))


def test_signing_in_parts_on_two_cores_gives_the_signatures_of_all_at_once() -> None:
    from research_radar.resolve.family_stream import signed_on_cores

    findings = _stream(2300, seed=4)
    index = FamilyIndex()
    signed = signed_on_cores(
        lambda start, stop: index.signatures(findings[start:stop]), len(findings), fork_min=2
    )
    assert signed == FamilyIndex().signatures(findings)


def test_the_key_after_a_prefix_is_past_every_key_with_it() -> None:
    from research_radar.resolve.minhash import key_after

    assert key_after(b"\x01\xff", 4) == b"\x02\x00"
    assert b"\x01\xff\xff\xff" < key_after(b"\x01\xff", 4) <= b"\x02\x00\x00\x00"
    # a prefix of 0xff bytes only: no greater prefix of its length, still past every key
    assert key_after(b"\xff\xff", 4) > b"\xff\xff\xff\xff"


def test_scores_round_as_python_rounds_them() -> None:
    """The chunk's scores are rounded at once, to the same floats as `round(x, 4)`,
    halves and values a rounding error away from them included."""
    import numpy as np

    from research_radar.resolve.family_stream import _rounded

    draw = random.Random(19)
    halves = [(n + 0.5) / 10000 for n in range(0, 10000, 7)]
    near = [math.nextafter(x, side) for x in halves for side in (0.0, 1.0)]
    values = [draw.random() for _ in range(5000)] + halves + near + [0.0, 1.0, 0.15, 0.25]
    assert _rounded(np.array(values)).tolist() == [round(x, 4) for x in values]


@pytest.mark.parametrize("k", [1, 7, 40])
def test_reads_that_skip_prefixes_no_key_shares_read_what_every_prefix_reads(k: int) -> None:
    """Given each tree's widest prefix shared with a stored key (`reach`), a query asks
    for no range of a wider prefix, and still reads the same keys in the same order."""
    import bisect

    from research_radar.resolve.minhash import forest_reads, shared_width

    findings = _stream(300, seed=5)
    index = FamilyIndex()
    signatures = index.signatures(findings)
    forest = Forest(index.trees)
    tables: list[dict[bytes, list[str]]] = [{} for _ in range(index.trees)]
    for finding, signature in zip(findings[:250], signatures[:250], strict=True):
        for tree, band in enumerate(forest.bands(signature)):
            tables[tree].setdefault(band, []).append(finding.project_key)
    ordered = [sorted(table) for table in tables]
    asked: list[tuple[int, bytes, bytes]] = []

    def segment(tree: int, lo: bytes, hi: bytes):  # type: ignore[no-untyped-def]
        asked.append((tree, lo, hi))
        keys = ordered[tree]
        for at in range(bisect.bisect_left(keys, lo), bisect.bisect_left(keys, hi)):
            yield keys[at], tables[tree][keys[at]]

    skipped = 0
    for signature in [*signatures[250:], *signatures[:5]]:  # new keys, and stored ones
        bands = forest.bands(signature)
        reach = []
        for tree, band in enumerate(bands):
            at = bisect.bisect_left(ordered[tree], band)
            reach.append(shared_width(band, ordered[tree][max(at - 1, 0) : at + 1]))
        asked.clear()
        every = forest_reads(bands, k, segment)
        all_asked = len(asked)
        asked.clear()
        assert forest_reads(bands, k, segment, reach) == every
        skipped += all_asked - len(asked)
    assert skipped > 0
