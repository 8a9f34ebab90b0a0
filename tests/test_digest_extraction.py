"""Claim extraction for a whole digest (digest/extraction.py): the same claims whether a
worker process reads some of them or this process reads them all (refs #19)."""

from __future__ import annotations

import random
from datetime import datetime

import pytest

from research_radar.cli.digest_cmd import sample_root
from research_radar.digest.extraction import ClaimReading
from research_radar.digest.keypoints import claim_points, extract_key_points
from research_radar.digest.signals import Mention
from research_radar.sources.inbox_files import load_inbox
from research_radar.sources.notes import SHANGHAI, parse_item

SYSTEMS = ["vLLM", "SGLang", "TensorRT-LLM", "llama.cpp", "Mooncake"]
HARDWARE = ["H100", "A100 80GB", "RTX 4090", "MI300X", "H20"]
MODELS = ["Llama-3-8B", "Qwen2.5-72B", "DeepSeek-V3", "Mixtral-8x7B"]


def _texts() -> list[str]:
    """The bundled sample's item texts, plus generated notes with numbers and set-ups
    (some given twice, some without any digit)."""
    inbox = load_inbox(sample_root())
    texts = [item.text for note in inbox.notes for item in note.items]
    texts += [card.item.text for card in inbox.cards if card.item is not None]
    rng = random.Random(19)
    for n in range(300):
        system, hardware, model = rng.choice(SYSTEMS), rng.choice(HARDWARE), rng.choice(MODELS)
        lines = [
            f"## {system} note {n}",
            f"- 在 {hardware} 上跑 {model}，BF16，batch {rng.randrange(1, 64)}",
            f"- 吞吐 {rng.randrange(1, 9)}.{n % 10}× vs {rng.choice(SYSTEMS)}（作者报告）",
            f"- TTFT {rng.randrange(50, 900)} ms at 128K context, p99 {rng.randrange(1, 5)} s",
        ]
        texts.append("\n".join(rng.sample(lines[1:], rng.randrange(1, 4)) + lines[:1]))
        if n % 7 == 0:
            texts.append(f"- {system} 的设计思路，没有数字")
    return texts + texts[:40]


@pytest.fixture(scope="module")
def texts() -> list[str]:
    return _texts()


def test_a_worker_reads_the_same_claims_as_this_process(texts: list[str]) -> None:
    with ClaimReading(texts, parallel_min=1) as reading:
        shared = reading.result()
    with ClaimReading(texts, parallel_min=len(texts) + 1) as reading:
        alone = reading.result()
    assert shared == alone
    assert shared == {text: claim_points(text) for text in texts if any(c.isdigit() for c in text)}
    assert sum(1 for points in shared.values() if points) > 250  # most texts have claims


def test_the_result_can_be_asked_for_after_other_work(texts: list[str]) -> None:
    # the worker reads while this process does the digest's other work; what it has
    # finished is taken as it is, the rest is read here
    with ClaimReading(texts[:200], parallel_min=1) as reading:
        for text in texts[200:]:
            claim_points(text)
        shared = reading.result()
    expected = {text: claim_points(text) for text in texts[:200] if any(map(str.isdigit, text))}
    assert shared == expected


def test_key_points_from_read_claims_are_those_read_on_the_spot(texts: list[str]) -> None:
    when = datetime(2026, 9, 3, 8, 0, tzinfo=SHANGHAI)
    mentions = [
        Mention(source=f"n{i}", when=when, item=parse_item("", text, "", 1))
        for i, text in enumerate(texts[-60:])
    ]
    with ClaimReading((m.item.text for m in mentions), parallel_min=1) as reading:
        claims = reading.result()
    for mention in mentions:
        read = extract_key_points([mention], claims=claims)
        assert read == extract_key_points([mention])
    assert any(extract_key_points([m], claims=claims) for m in mentions)
